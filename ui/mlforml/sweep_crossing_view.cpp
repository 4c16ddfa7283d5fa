#include "ui/mlforml/sweep_crossing_view.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <cmath>

#include "ui/widgets/coincident_curves.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

SweepCrossingView::SweepCrossingView(QWidget* parent)
    : ChartView(QStringLiteral("mlforml-sweep-crossing"),
                tr("First crossing against co-running jobs N"), parent) {
    setHoverSnapsToPoints(true);  // a sweep: read at its computed points
    m_x = new QValueAxis(this);
    m_x->setTitleText(tr("Co-running jobs N (line: shown N)"));
    m_y = new QValueAxis(this);
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    m_marker = new QLineSeries(this);
    m_marker->setName(tr("shown N"));
    addSeriesOnAxes(chart(), m_marker, m_x, m_y);
    setToolTip(
        tr("Scenario 1 of [2608.06046 Sec. 3.2]: time to first reach the target for every N of the "
           "sweep. "
           "Joint stays fastest as the fabric gets busier; Decoupled/Joint is 1.05-1.6. "
           "Right-click to export."));
    applyTheme();
}

void SweepCrossingView::setData(const mlforml::Result& sweep, int shownN, int targetIndex) {
    m_sweep = sweep;
    m_shownN = shownN;
    m_targetIndex = targetIndex;
    requestRebuild();
}

void SweepCrossingView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

double SweepCrossingView::crossingAt(const QString& policy, int n) const {
    const size_t ti = static_cast<size_t>(std::max(0, m_targetIndex));
    for (const auto& pt : m_sweep.points) {
        if (pt.backgroundJobs != n) continue;
        for (const auto& run : pt.policies)
            if (QString::fromStdString(run.policy) == policy && ti < run.firstCrossing_s.size())
                return run.firstCrossing_s[ti];
    }
    return NAN;
}

void SweepCrossingView::rebuild() {
    const size_t ti = static_cast<size_t>(std::max(0, m_targetIndex));
    QStringList policies;
    double max_s = 0, nMax = 1;
    for (const auto& pt : m_sweep.points) {
        nMax = std::max(nMax, static_cast<double>(pt.backgroundJobs));
        for (const auto& run : pt.policies) {
            const QString name = QString::fromStdString(run.policy);
            if (!policies.contains(name)) policies << name;
            if (ti < run.firstCrossing_s.size() && std::isfinite(run.firstCrossing_s[ti]))
                max_s = std::max(max_s, run.firstCrossing_s[ti]);
        }
    }
    const TimeUnit unit = stableTimeUnit(max_s);
    growSeriesPool(m_lines, policies.size(), chart(), m_x, m_y,
                   [](QLineSeries* s) { s->setPointsVisible(true); });
    QList<QList<QPointF>> curves;
    for (const QString& name : policies) {
        QList<QPointF> pts;
        for (const auto& pt : m_sweep.points)
            for (const auto& run : pt.policies)
                if (QString::fromStdString(run.policy) == name && ti < run.firstCrossing_s.size() &&
                    std::isfinite(run.firstCrossing_s[ti]))
                    pts.append(QPointF(pt.backgroundJobs, run.firstCrossing_s[ti] / unit.divisor));
        curves.append(pts);
    }
    // Policies whose crossings coincide (0.2 % of the axis spans; e.g. Knob-Precision and Joint,
    // [2608.06046 Fig. 2]) share one legend entry, the later ones dashed over the first.
    const QList<int> sameAs =
        coincidentWith(curves, 2e-3 * (nMax + 1), 2e-3 * std::max(max_s, 1.0) / unit.divisor);
    for (qsizetype i = 0; i < policies.size(); ++i) {
        QLineSeries* s = m_lines[i];
        s->setVisible(true);
        const QString& name = policies[i];
        s->setName(name);
        const QString label = coincidentLegendLabel(sameAs, policies, i);
        for (QLegendMarker* m : chart()->legend()->markers(s)) {
            m->setVisible(!label.isEmpty());
            if (!label.isEmpty()) m->setLabel(label);
        }
        const QColor col = policyColor(name, currentTheme());
        QPen pen(col, policyOf(name) == mlforml::Policy::Joint ? 2.6 : 1.8);
        const CoincidentMember member = coincidentMember(sameAs, i);
        dashCoincidentPen(pen, member.index, member.groupSize);
        s->setPen(pen);
        s->setColor(col);
        s->replace(curves[i]);
    }
    const double yHi = max_s > 0 ? 1.08 * max_s / unit.divisor : 1.0;
    const QColor mc =
        currentTheme() == Theme::Dark ? QColor(0xBB, 0xBB, 0xBB) : QColor(0x66, 0x66, 0x66);
    m_marker->setPen(QPen(mc, 1.2, Qt::DashLine));
    m_marker->replace(m_shownN >= 0 ? QList<QPointF>{QPointF(m_shownN, 0), QPointF(m_shownN, yHi)}
                                    : QList<QPointF>{});
    for (QLegendMarker* m : chart()->legend()->markers(m_marker)) m->setVisible(false);
    setNiceRange(m_x, 0, std::max(nMax, static_cast<double>(m_shownN)) + 1, 5);
    setNiceRange(m_y, 0, yHi, 5);
    const QString factor = ti < m_sweep.targetFactors.size()
                               ? QString::number(m_sweep.targetFactors[ti])
                               : QStringLiteral("?");
    m_y->setTitleText(tr("%1 to %2 x L_min").arg(unit.name, factor));
    chart()->setTitle(tr("First crossing of %1 x L_min against N").arg(factor));
    ChartView::applyTheme();
}

QString SweepCrossingView::csv() const {
    QString out =
        QStringLiteral("background_jobs,policy,target_factor_x_Lmin,first_crossing_time_s\n");
    const size_t ti = static_cast<size_t>(std::max(0, m_targetIndex));
    const QString factor = ti < m_sweep.targetFactors.size()
                               ? QString::number(m_sweep.targetFactors[ti], 'g', 10)
                               : QString();
    for (const auto& pt : m_sweep.points)
        for (const auto& run : pt.policies) {
            const double fc = ti < run.firstCrossing_s.size() ? run.firstCrossing_s[ti] : NAN;
            out += QStringLiteral("%1,%2,%3,%4\n")
                       .arg(pt.backgroundJobs)
                       .arg(QString::fromStdString(run.policy), factor,
                            std::isfinite(fc) ? QString::number(fc, 'g', 10) : QString());
        }
    return out;
}

}  // namespace tandem::ui
