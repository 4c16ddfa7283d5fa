#include "ui/mosaic/step_breakdown_view.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QValueAxis>

#include "ui/widgets/palette.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

namespace {
QList<double> parts(const mosaic::Breakdown& b) {
    return {b.compute_s, b.dispatch_s, b.a2a_s,  b.dpBeyondCompute_s,
            b.bubble_s,  b.vocab_s,    b.other_s};
}
QColor partColor(int i) {
    // Okabe-Ito: blue, orange, vermillion, sky blue, purple, green, grey.
    static const QColor c[] = {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00),
                               QColor(0xD5, 0x5E, 0x00), QColor(0x56, 0xB4, 0xE9),
                               QColor(0xCC, 0x79, 0xA7), QColor(0x00, 0x9E, 0x73),
                               QColor(0x99, 0x99, 0x99)};
    return c[i % 7];
}
}  // namespace

QStringList StepBreakdownView::componentNames() {
    return {tr("compute"), tr("dispatch"), tr("all-to-all"), tr("DP sync"),
            tr("bubble"),  tr("vocab"),    tr("other")};
}

StepBreakdownView::StepBreakdownView(QWidget* parent, const QString& exportName)
    : ChartView(exportName, tr("Step-time breakdown"), parent) {
    const HorizontalBars bars = addHorizontalBars(0.6);
    m_series = bars.series;
    m_categories = bars.categories;
    m_value = bars.value;
    m_value->setTitleText(tr("Time per iteration (s)"));
    chart()->legend()->setAlignment(
        Qt::AlignRight);  // seven components: a bottom row would elide them
    setToolTip(tr(
        "Iteration time by component after chi_sys [2608.10605 Sec. 5: compute incl. "
        "recomputation, CPU "
        "dispatch floor Eq. 11, expert all-to-all, DP reduce-scatter/all-gather beyond overlap, "
        "pipeline "
        "bubble Eq. 12, vocabulary stage imbalance Eq. 13; other = TP/CP/pipeline send/optimizer]. "
        "Right-click to export."));
    applyTheme();
}

void StepBreakdownView::setData(const QList<QPair<QString, mosaic::Breakdown>>& bars) {
    m_bars = bars;
    requestRebuild();
}

void StepBreakdownView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

QList<double> StepBreakdownView::values(int bar) const {
    if (bar < 0 || bar >= m_bars.size()) return {};
    return parts(m_bars[bar].second);
}

void StepBreakdownView::rebuild() {
    const QStringList names = componentNames();
    QList<QBarSet*> sets;
    double maxTotal = 0;
    QStringList cats;
    // Bottom-up: the first bar is drawn on top.
    for (qsizetype k = m_bars.size() - 1; k >= 0; --k) {
        double total = 0;
        for (double v : parts(m_bars[k].second)) total += v;
        maxTotal = std::max(maxTotal, total);
        cats << tr("%1<br>%2 s").arg(m_bars[k].first).arg(total, 0, 'f', 2);
    }
    for (int i = 0; i < names.size(); ++i) {
        auto* set = new QBarSet(names[i]);
        set->setColor(partColor(i));
        set->setBorderColor(partColor(i));
        for (qsizetype k = m_bars.size() - 1; k >= 0; --k) set->append(parts(m_bars[k].second)[i]);
        sets << set;
    }
    m_series->clear();
    m_series->append(sets);
    m_categories->setCategories(cats);
    setNiceRange(m_value, 0, maxTotal > 0 ? maxTotal * 1.03 : 1.0, 5);
    ChartView::applyTheme();
}

}  // namespace tandem::ui
