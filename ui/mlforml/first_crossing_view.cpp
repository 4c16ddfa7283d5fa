#include "ui/mlforml/first_crossing_view.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QScatterSeries>
#include <QValueAxis>
#include <cmath>

#include "mlforml/report.h"
#include "ui/widgets/coincident_curves.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

FirstCrossingView::FirstCrossingView(QWidget* parent)
    : ChartView(QStringLiteral("mlforml-first-crossing"), tr("Time to first reach the target"),
                parent) {
    const HorizontalBars bars = addHorizontalBars(0.7);
    m_series = bars.series;
    m_categories = bars.categories;
    m_value = bars.value;
    m_value->setLabelFormat(QStringLiteral("%.3g"));
    m_pinMarks = new QScatterSeries(this);
    m_pinMarks->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_pinMarks->setMarkerSize(10);
    addSeriesOnAxes(chart(), m_pinMarks, m_categories, m_value);
    chart()->legend()->hide();
    applyTheme();
}

void FirstCrossingView::setData(const mlforml::PointResult& point,
                                const std::vector<double>& targetFactors,
                                const std::vector<double>& targetLosses, int targetIndex) {
    m_point = point;
    m_targetFactors = targetFactors;
    m_targetLosses = targetLosses;
    m_targetIndex = targetIndex;
    requestRebuild();
}

void FirstCrossingView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

void FirstCrossingView::setCoincident(const QList<int>& sameAs) {
    if (sameAs == m_sameAs) return;
    m_sameAs = sameAs;
    requestRebuild();
}

void FirstCrossingView::setPinned(const std::optional<mlforml::PointResult>& pinned) {
    m_pinned = pinned;
    requestRebuild();
}

QStringList FirstCrossingView::barLabels() const {
    QStringList out;
    const QStringList cats = m_categories->categories();
    for (auto it = cats.rbegin(); it != cats.rend(); ++it)
        out << QString(*it).replace(QStringLiteral("<br>"), QStringLiteral(" "));
    return out;
}

double FirstCrossingView::ratioToJoint(const QString& policy) const {
    if (!m_point || m_targetIndex < 0) return NAN;
    double joint = NAN, mine = NAN;
    const size_t ti = static_cast<size_t>(m_targetIndex);
    for (const auto& run : m_point->policies) {
        if (ti >= run.firstCrossing_s.size()) continue;
        if (run.kind == mlforml::Policy::Joint) joint = run.firstCrossing_s[ti];
        if (QString::fromStdString(run.policy) == policy) mine = run.firstCrossing_s[ti];
    }
    return mine / joint;
}

QString FirstCrossingView::csv() const {
    mlforml::Result r;
    r.targetFactors = m_targetFactors;
    r.targetLosses = m_targetLosses;
    if (m_point) r.points.push_back(*m_point);
    return QString::fromStdString(mlforml::firstCrossingCsv(r));
}

void FirstCrossingView::rebuild() {
    if (!m_point) return;
    const size_t ti = static_cast<size_t>(std::max(0, m_targetIndex));
    const auto& runs = m_point->policies;
    double max_s = 0;
    for (const auto& run : runs)
        if (ti < run.firstCrossing_s.size() && std::isfinite(run.firstCrossing_s[ti]))
            max_s = std::max(max_s, run.firstCrossing_s[ti]);
    if (m_pinned)
        for (const auto& run : m_pinned->policies)
            if (ti < run.firstCrossing_s.size() && std::isfinite(run.firstCrossing_s[ti]))
                max_s = std::max(max_s, run.firstCrossing_s[ti]);
    const TimeUnit unit = stableTimeUnit(max_s);
    const auto inUnitText = [&unit](double s) {
        const double v = s / unit.divisor;
        return QString::number(v, 'f', v < 10 ? 2 : 1) + QLatin1Char(' ') + unit.shortName;
    };
    QStringList names;
    for (const auto& run : runs) names << QString::fromStdString(run.policy);
    // One bar per policy, a group of coincident policies one bar named as in the loss legend;
    // drawn bottom-up in engine order reversed, so the first policy is at the top.
    std::vector<int> shown;
    for (int k = static_cast<int>(runs.size()) - 1; k >= 0; --k)
        if (k >= m_sameAs.size() || m_sameAs[k] < 0) shown.push_back(k);
    const int n = static_cast<int>(shown.size());
    QStringList cats;
    QList<QBarSet*> sets;
    QList<QPointF> pinMarks;
    for (int j = 0; j < n; ++j) {
        const int k = shown[static_cast<size_t>(j)];
        const auto& run = runs[static_cast<size_t>(k)];
        const QString policy = names[k];
        const QString name =
            m_sameAs.size() == names.size() ? coincidentLegendLabel(m_sameAs, names, k) : policy;
        // A group's label breaks before each "= member", so it stays as narrow as its longest name.
        const QString shown =
            QString(name).replace(QStringLiteral(" = "), QStringLiteral("<br>= "));
        const double fc = ti < run.firstCrossing_s.size() ? run.firstCrossing_s[ti] : NAN;
        const double ratio = ratioToJoint(policy);
        // Every bar label in the value axis' unit, so that the labels and the axis read alike.
        QString label =
            std::isfinite(fc)
                ? QStringLiteral("%1<br>%2 %3").arg(shown, inUnitText(fc), formatRatio(ratio))
                : tr("%1<br>not reached").arg(shown);
        if (m_pinned)
            for (const auto& p : m_pinned->policies)
                if (p.policy == run.policy) {
                    const double was = ti < p.firstCrossing_s.size() ? p.firstCrossing_s[ti] : NAN;
                    label += std::isfinite(was) ? tr("<br>pinned %1").arg(inUnitText(was))
                                                : tr("<br>pinned: not reached");
                    if (std::isfinite(was)) pinMarks.append(QPointF(was / unit.divisor, j));
                }
        cats << label;
        auto* set = new QBarSet(name);
        set->setColor(policyColor(policy, currentTheme()));
        set->setBorderColor(policyColor(policy, currentTheme()));
        for (int i = 0; i < n; ++i)
            set->append(i == j && std::isfinite(fc) ? fc / unit.divisor : 0.0);
        sets << set;
    }
    // A paper-coloured square with an ink outline: it shows on a dark bar (Static is black in
    // the light theme) as on a light one and on the empty plot.
    const QColor ink = palette().color(QPalette::WindowText);
    QColor paper = chart()->backgroundBrush().color();
    if (paper.alpha() < 255 || chart()->backgroundBrush().style() == Qt::NoBrush)
        paper = palette().color(QPalette::Base);
    m_pinMarks->setColor(paper);
    m_pinMarks->setBorderColor(ink);
    m_pinMarks->replace(pinMarks);
    m_pinMarks->setVisible(!pinMarks.isEmpty());
    m_series->clear();
    m_series->append(sets);
    m_categories->setCategories(cats);
    setNiceRange(m_value, 0, max_s > 0 ? 1.05 * max_s / unit.divisor : 1.0, 5);
    const QString factor =
        ti < m_targetFactors.size() ? QString::number(m_targetFactors[ti]) : QStringLiteral("?");
    m_value->setTitleText(tr("%1 to target; xN vs Joint").arg(unit.name));
    const QString label = QString::fromStdString(m_point->label);
    setFittingTitle({tr("First crossing of %1 x L_min, %2").arg(factor, label),
                     tr("Time to %1 x L_min, %2").arg(factor, label),
                     tr("First crossing of %1 x L_min").arg(factor)});
}

}  // namespace tandem::ui
