#include "ui/mlforml/combo_timeline_view.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

namespace {
constexpr double kBandLo = 0.15;  // band of row k spans [k + kBandLo, k + kBandHi]
constexpr double kBandHi = 0.85;
}  // namespace

bool isAdaptivePolicy(mlforml::Policy policy) {
    return policy != mlforml::Policy::Static && policy != mlforml::Policy::Fixed;
}

ComboTimelineView::ComboTimelineView(QWidget* parent)
    : ChartView(QStringLiteral("mlforml-combo-timeline"), tr("Knob combination chosen over time"),
                parent) {
    m_x = new QValueAxis(this);
    m_y = new QCategoryAxis(this);
    m_y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
    m_y->setGridLineVisible(false);
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    chart()->legend()->setAlignment(Qt::AlignRight);
    setToolTip(
        tr("Which (gradient accumulation g, precision p) each adaptive policy used, per decision "
           "interval "
           "[2608.06046 Sec. 2.4]. Joint switches both knobs together; Decoupled tunes them one at "
           "a time. "
           "Right-click to export."));
    applyTheme();
}

void ComboTimelineView::setData(const mlforml::PointResult& point,
                                const std::vector<std::string>& comboLabels) {
    m_point = point;
    m_combos = comboLabels;
    requestRebuild();
}

void ComboTimelineView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

double ComboTimelineView::secondsIn(const QString& policy, const QString& combo) const {
    if (!m_point) return 0;
    double s = 0;
    for (const auto& run : m_point->policies) {
        if (QString::fromStdString(run.policy) != policy) continue;
        for (const auto& seg : run.timeline)
            if (seg.combo >= 0 && static_cast<size_t>(seg.combo) < m_combos.size() &&
                QString::fromStdString(m_combos[static_cast<size_t>(seg.combo)]) == combo)
                s += seg.t1_s - seg.t0_s;
    }
    return s;
}

void ComboTimelineView::rebuild() {
    if (!m_point) return;
    std::vector<const mlforml::PolicyRun*> runs;
    for (const auto& run : m_point->policies)
        if (isAdaptivePolicy(run.kind)) runs.push_back(&run);
    double tMax = 0;
    for (const auto* run : runs)
        for (const auto& seg : run->timeline) tMax = std::max(tMax, seg.t1_s);
    const TimeUnit unit = stableTimeUnit(tMax);
    const double xMax = tMax > 0 ? tMax / unit.divisor : 1.0;

    // Rows top to bottom in engine order: row k (from the top) sits at y = n - 1 - k.
    const int n = static_cast<int>(runs.size());
    m_rows.clear();
    for (const auto* run : runs) m_rows << QString::fromStdString(run->policy);
    for (const QString& label : m_y->categoriesLabels()) m_y->remove(label);
    for (int k = n - 1; k >= 0; --k) m_y->append(m_rows[k], n - k);
    m_y->setStartValue(0);
    m_y->setRange(0, std::max(1, n));

    const int nCombos = static_cast<int>(m_combos.size());
    const int needed = n * nCombos;
    growSeriesPoolWith(m_areas, needed, chart(), [this]() { return addAreaSeries(m_x, m_y); });
    QList<bool> comboUsed(nCombos, false);
    for (int k = 0; k < n; ++k)
        for (const auto& seg : runs[static_cast<size_t>(k)]->timeline)
            if (seg.combo >= 0 && seg.combo < nCombos) comboUsed[seg.combo] = true;
    for (qsizetype i = 0; i < needed; ++i) {
        QAreaSeries* a = m_areas[i];
        const int k = static_cast<int>(i) / nCombos;
        const int c = static_cast<int>(i) % nCombos;
        a->setVisible(true);
        const auto markers = chart()->legend()->markers(a);
        const QString combo = QString::fromStdString(m_combos[static_cast<size_t>(c)]);
        const QColor col = comboColor(combo);
        a->setName(combo);
        a->setColor(col);
        a->setBorderColor(col);
        a->setPen(QPen(Qt::NoPen));
        const double y0 = (n - 1 - k) + kBandLo, y1 = (n - 1 - k) + kBandHi;
        QList<QPointF> up{QPointF(0, y0)};
        for (const auto& seg : runs[static_cast<size_t>(k)]->timeline) {
            if (seg.combo != c) continue;
            const double t0 = seg.t0_s / unit.divisor, t1 = seg.t1_s / unit.divisor;
            up << QPointF(t0, y0) << QPointF(t0, y1) << QPointF(t1, y1) << QPointF(t1, y0);
        }
        up << QPointF(xMax, y0);
        a->upperSeries()->replace(up);
        a->lowerSeries()->replace({QPointF(0, y0), QPointF(xMax, y0)});
        for (QLegendMarker* m : markers) m->setVisible(k == 0 && comboUsed[c]);
    }
    m_x->setTitleText(tr("Wall-clock time (%1)").arg(unit.name));
    setNiceRange(m_x, 0, xMax, 6);
    chart()->setTitle(
        n > 0 ? tr("Knob combination over time, %1").arg(QString::fromStdString(m_point->label))
              : tr("Knob combination over time (no adaptive policy in this scenario)"));
    ChartView::applyTheme();
}

QString ComboTimelineView::csv() const {
    QString out = QStringLiteral("policy,combination,t0_s,t1_s\n");
    if (!m_point) return out;
    for (const auto& run : m_point->policies) {
        if (!isAdaptivePolicy(run.kind)) continue;
        for (const auto& seg : run.timeline) {
            const QString combo =
                seg.combo >= 0 && static_cast<size_t>(seg.combo) < m_combos.size()
                    ? QString::fromStdString(m_combos[static_cast<size_t>(seg.combo)])
                    : QString();
            out += QStringLiteral("%1,%2,%3,%4\n")
                       .arg(QString::fromStdString(run.policy), combo,
                            QString::number(seg.t0_s, 'g', 10), QString::number(seg.t1_s, 'g', 10));
        }
    }
    return out;
}

}  // namespace tandem::ui
