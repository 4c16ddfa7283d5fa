#include "ui/mosaic/frontier_levels_view.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "ui/widgets/bounds.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

BackgroundLevelStyle backgroundLevelStyle(int index, int count, Theme theme) {
    // Viridis (van der Walt and Smith, matplotlib 2015) at five stops, linear in between: its
    // lightness rises monotonically and it stays apart for colour-blind readers. The light theme
    // runs from 0.70 (idle) down to 0 (dark purple), the dark one from 0.35 up to 1 (yellow).
    static const QColor stops[] = {QColor(0x44, 0x01, 0x54), QColor(0x3B, 0x52, 0x8B),
                                   QColor(0x21, 0x91, 0x8C), QColor(0x5E, 0xC9, 0x62),
                                   QColor(0xFD, 0xE7, 0x25)};
    const double f =
        count > 1 ? std::clamp(static_cast<double>(index) / (count - 1), 0.0, 1.0) : 0.0;
    const double t = theme == Theme::Dark ? 0.35 + 0.65 * f : 0.70 * (1.0 - f);
    const double pos = t * 4.0;
    const int i = std::min(3, static_cast<int>(pos));
    const double w = pos - i;
    auto mix = [w](int a, int b) { return static_cast<int>(std::lround(a + w * (b - a))); };
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    static const Qt::PenStyle lines[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    static const QScatterSeries::MarkerShape markers[] = {
        QScatterSeries::MarkerShapeCircle,   QScatterSeries::MarkerShapeRectangle,
        QScatterSeries::MarkerShapeTriangle, QScatterSeries::MarkerShapeRotatedRectangle,
        QScatterSeries::MarkerShapeStar,     QScatterSeries::MarkerShapePentagon};
    const int k = std::max(0, index);
    return {QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue())),
            lines[k % 4], markers[k % 6]};
}

FrontierLevelsView::FrontierLevelsView(QWidget* parent)
    : ChartView(QStringLiteral("mosaic-frontier-levels"),
                tr("Cluster-optimal frontier per level of co-running jobs"), parent) {
    setHoverSnapsToPoints(true);  // a sweep: read at its computed points
    m_x = new QValueAxis(this);
    m_x->setTitleText(tr("Sparsity S = 1 - N_act / N_tot"));
    m_y = new QValueAxis(this);
    m_y->setTitleText(tr("Predicted loss, Eq. 10 (nats)"));
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    m_path = new QLineSeries(this);
    m_path->setName(tr("cluster optimum of each level"));
    m_optima = new QScatterSeries(this);
    m_optima->setMarkerSize(9);
    for (QXYSeries* s : {static_cast<QXYSeries*>(m_path), static_cast<QXYSeries*>(m_optima)}) {
        chart()->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    setToolTip(
        tr("The cluster-optimal frontier (best feasible geometry and layout per sparsity bin) with "
           "0, 1, 2, "
           "4, ... data-parallel jobs sharing the leaf/spine fabric [2608.10605 Fig. 1; 2608.06046 "
           "Sec. 3.2]. "
           "The co-running jobs slow the expert all-to-all and the DP collectives that cross "
           "leaves, so "
           "fewer tokens fit the window and the loss rises, most where the model is sparsest. "
           "Right-click "
           "to export."));
    applyTheme();
}

void FrontierLevelsView::setData(const BackgroundLevels& levels) {
    m_levels = levels;
    requestRebuild();
}

void FrontierLevelsView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

QList<QPointF> FrontierLevelsView::levelPoints(int index) const {
    if (index < 0 || index >= m_lines.size() || !m_lines[index]->isVisible()) return {};
    return m_lines[index]->points();
}

QList<QPointF> FrontierLevelsView::optimumPath() const { return m_path->points(); }

void FrontierLevelsView::rebuild() {
    if (!m_levels) return;
    const BackgroundLevels& lv = *m_levels;
    const int count = static_cast<int>(std::min(lv.jobs.size(), lv.results.size()));
    if (m_lines.size() < count) {
        while (m_lines.size() < count) {
            auto* s = new QLineSeries(this);
            chart()->addSeries(s);
            s->attachAxis(m_x);
            s->attachAxis(m_y);
            m_lines.append(s);
        }
        // The optimum path is drawn over the frontiers: added again after them.
        for (QXYSeries* s : {static_cast<QXYSeries*>(m_path), static_cast<QXYSeries*>(m_optima)}) {
            chart()->removeSeries(s);
            chart()->addSeries(s);
            s->attachAxis(m_x);
            s->attachAxis(m_y);
        }
    }
    Bounds b;
    QList<QPointF> path;
    for (int i = 0; i < m_lines.size(); ++i) {
        QLineSeries* s = m_lines[i];
        s->setVisible(i < count);
        if (i >= count) continue;
        const mosaic::SearchResult& r = lv.results[static_cast<size_t>(i)];
        QList<QPointF> pts;
        for (const mosaic::FrontierPoint& p : r.clusterOptimal)
            if (p.feasible && std::isfinite(p.loss)) {
                // At the sparsity of the bin's best candidate, so that each level's optimum
                // (a candidate) lies on its line rather than beside the bin centre.
                const bool own =
                    p.candidate >= 0 && static_cast<size_t>(p.candidate) < r.candidates.size();
                const double x =
                    own ? r.candidates[static_cast<size_t>(p.candidate)].geometry.sparsity
                        : p.sparsity;
                pts.append(QPointF(x, p.loss));
                b.add(x, p.loss);
            }
        s->replace(pts);
        const int jobs = lv.jobs[static_cast<size_t>(i)];
        const bool own = jobs == lv.currentJobs;
        s->setName(jobs == 1 ? tr("1 co-running job") : tr("%1 co-running jobs").arg(jobs));
        const BackgroundLevelStyle style = backgroundLevelStyle(i, count, currentTheme());
        s->setPen(QPen(style.colour, own ? 3.0 : 1.8, style.line));
        setPointMarker(s, style.marker, style.colour, own ? 9.0 : 7.0);
        if (r.optimum >= 0 && static_cast<size_t>(r.optimum) < r.candidates.size()) {
            const mosaic::Candidate& c = r.candidates[static_cast<size_t>(r.optimum)];
            if (std::isfinite(c.loss)) {
                path.append(QPointF(c.geometry.sparsity, c.loss));
                b.add(c.geometry.sparsity, c.loss);
            }
        }
    }
    const bool dark = currentTheme() == Theme::Dark;
    const QColor ink = dark ? QColor(0xEE, 0xEE, 0xEE) : QColor(0x22, 0x22, 0x22);
    m_path->setPen(QPen(ink, 1.4, Qt::DotLine));
    m_path->replace(path);
    m_optima->setColor(ink);
    m_optima->setBorderColor(ink);
    m_optima->replace(path);
    // The optima's markers share the path's legend entry.
    for (QLegendMarker* m : chart()->legend()->markers(m_optima)) m->setVisible(false);
    if (!b.valid()) b = Bounds{0.7, 1.0, 0, 1};  // no level has a feasible point yet
    setNiceRange(m_x, std::max(0.0, b.xLo - 0.01), std::min(1.0, b.xHi + 0.01), 6);
    const double pad = std::max(1e-3, 0.05 * (b.yHi - b.yLo));
    setNiceRange(m_y, b.yLo - pad, b.yHi + pad, 5);
    const QString where = lv.nodes > 0
                              ? tr(", %1 nodes on %2")
                                    .arg(lv.nodes)
                                    .arg(QString::fromStdString(lv.background.topology.preset))
                              : QString();
    setFittingTitle({tr("Cluster-optimal frontier per level of co-running jobs%1").arg(where),
                     tr("Frontier per co-running-job level"), tr("Frontier per level")});
    ChartView::applyTheme();
}

}  // namespace tandem::ui
