#include "ui/mlforml/dp_share_time_view.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <cmath>

#include "ui/widgets/coincident_curves.h"
#include "ui/widgets/decimate.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

DpShareTimeView::DpShareTimeView(QWidget* parent)
    : ChartView(QStringLiteral("mlforml-dp-share-time"), tr("Exposed DP share over time"), parent) {
    m_x = new QValueAxis(this);
    m_y = new QValueAxis(this);
    m_y->setTitleText(tr("Exposed DP share of iteration (%)"));
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    setToolTip(
        tr("Share of each iteration spent waiting for the data-parallel all-reduce, per decision "
           "interval "
           "[2608.06046 Sec. 3.2, Fig. 2a]. Compression (MXFP4) and accumulation (GA16) both lower "
           "it. "
           "Right-click to export."));
    applyTheme();
}

void DpShareTimeView::setData(const mlforml::PointResult& point) {
    m_point = point;
    requestRebuild();
}

void DpShareTimeView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

double DpShareTimeView::meanShare(const QString& policy) const {
    for (qsizetype i = 0; i < m_lines.size(); ++i) {
        QLineSeries* s = m_lines[i];
        if (!s->isVisible() || s->count() == 0 || !m_point ||
            i >= static_cast<qsizetype>(m_point->policies.size()) ||
            QString::fromStdString(m_point->policies[static_cast<size_t>(i)].policy) != policy)
            continue;
        double sum = 0;
        const auto pts = s->points();
        for (const QPointF& p : pts) sum += p.y();
        return sum / static_cast<double>(pts.size());
    }
    return NAN;
}

void DpShareTimeView::rebuild() {
    if (!m_point) return;
    const auto& runs = m_point->policies;
    double tMax = 0;
    for (const auto& run : runs)
        if (!run.dpShareTime_s.empty()) tMax = std::max(tMax, run.dpShareTime_s.back());
    const TimeUnit unit = stableTimeUnit(tMax);
    const qsizetype nRuns = static_cast<qsizetype>(runs.size());
    growSeriesPool(m_lines, nRuns, chart(), m_x, m_y);
    double yMax = 10;
    QList<QList<QPointF>> curves;
    QStringList names;
    for (const auto& run : runs) {
        names << QString::fromStdString(run.policy);
        QList<QPointF> pts;
        const size_t n = std::min(run.dpShareTime_s.size(), run.dpShare.size());
        pts.reserve(static_cast<qsizetype>(n));
        for (size_t k = 0; k < n; ++k) {
            if (!std::isfinite(run.dpShare[k])) continue;
            pts.append(QPointF(run.dpShareTime_s[k] / unit.divisor, 100 * run.dpShare[k]));
            yMax = std::max(yMax, 100 * run.dpShare[k]);
        }
        curves.append(pts);
    }
    // Lines that coincide with an earlier one (0.2 % of the axis spans) are dashed over it.
    m_sameAs =
        coincidentWith(curves, 2e-3 * tMax / unit.divisor, 2e-3 * std::min(100.0, yMax * 1.05));
    for (qsizetype i = 0; i < nRuns; ++i) {
        QLineSeries* s = m_lines[i];
        s->setVisible(true);
        // Coincident policies share one legend entry, "Knob-Precision = Joint".
        const QString label = coincidentLegendLabel(m_sameAs, names, i);
        for (QLegendMarker* m : chart()->legend()->markers(s)) {
            m->setVisible(!label.isEmpty());
            if (!label.isEmpty()) m->setLabel(label);
        }
        const QString name = names[i];
        const CoincidentMember member = coincidentMember(m_sameAs, i);
        s->setName(name);
        QPen pen(policyColor(name, currentTheme()),
                 policyOf(name) == mlforml::Policy::Joint ? 2.2 : 1.6);
        dashCoincidentPen(pen, member.index, member.groupSize);
        s->setPen(pen);
        s->replace(decimateMinMax(curves[i], plotWidth() / 2));
    }
    m_x->setTitleText(tr("Wall-clock time (%1)").arg(unit.name));
    setNiceRange(m_x, 0, tMax > 0 ? tMax / unit.divisor : 1.0, 6);
    setNiceRange(m_y, 0, std::min(100.0, yMax * 1.05), 5);
    // A shorter title where the long one does not fit (never elided).
    const QString label = QString::fromStdString(m_point->label);
    setFittingTitle({tr("Exposed DP share per decision interval, %1").arg(label),
                     tr("Exposed DP share, %1").arg(label), tr("Exposed DP share")});
    ChartView::applyTheme();
}

}  // namespace tandem::ui
