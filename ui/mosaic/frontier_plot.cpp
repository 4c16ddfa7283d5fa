#include "ui/mosaic/frontier_plot.h"

#include <QCoreApplication>
#include <cmath>

#include "mosaic/plan.h"
#include "ui/widgets/bounds.h"

namespace tandem::ui {

namespace {
/// The view's strings, in its translation context.
QString tr(const char* text) {
    return QCoreApplication::translate("tandem::ui::FrontierView", text);
}

/// Splits a frontier into runs of consecutive feasible points with the same extrapolation flag.
/// Adjacent runs share their boundary point so the curve stays connected.
void segmentsOf(const std::vector<mosaic::FrontierPoint>& pts, QList<QList<QPointF>>& inRange,
                QList<QList<QPointF>>& extrapolated, bool requireFeasible) {
    QList<QPointF> cur;
    int curKind = -1;  // 0 in range, 1 extrapolated
    auto flush = [&]() {
        if (cur.size() >= 1) (curKind == 1 ? extrapolated : inRange).append(cur);
        cur.clear();
    };
    for (const auto& p : pts) {
        if ((requireFeasible && !p.feasible) || !std::isfinite(p.loss)) {
            flush();
            curKind = -1;
            continue;
        }
        const int kind = p.extrapolated ? 1 : 0;
        const QPointF q(p.sparsity, p.loss);
        if (kind != curKind && curKind != -1) {
            const QPointF last = cur.back();
            flush();
            cur.append(last);
        }
        curKind = kind;
        cur.append(q);
    }
    flush();
}

/// The loss of the bin nearest to `s` with a finite loss (and feasible if `requireFeasible`);
/// NaN if none.
double lossAt(const std::vector<mosaic::FrontierPoint>& v, double s, bool requireFeasible) {
    double best = NAN, dist = 1e300;
    for (const auto& p : v)
        if ((p.feasible || !requireFeasible) && std::isfinite(p.loss) &&
            std::abs(p.sparsity - s) < dist) {
            dist = std::abs(p.sparsity - s);
            best = p.loss;
        }
    return best;
}
}  // namespace

QList<QPair<double, double>> undeliverableBands(const std::vector<mosaic::FrontierPoint>& pts) {
    QList<QPair<double, double>> bands;
    for (size_t i = 0; i < pts.size();) {
        if (pts[i].feasible) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j + 1 < pts.size() && !pts[j + 1].feasible) ++j;
        const double lo = i > 0 ? 0.5 * (pts[i - 1].sparsity + pts[i].sparsity) : pts[i].sparsity;
        const double hi =
            j + 1 < pts.size() ? 0.5 * (pts[j].sparsity + pts[j + 1].sparsity) : pts[j].sparsity;
        bands.append({lo, hi});
        i = j + 1;
    }
    return bands;
}

QList<QPair<double, double>> redRegionBands(const std::vector<mosaic::FrontierPoint>& pts) {
    const double boundary = mosaic::feasibleBoundarySparsity(pts);
    if (!std::isfinite(boundary)) return undeliverableBands(pts);  // no bin delivers
    std::vector<mosaic::FrontierPoint> region = pts;
    bool beyond = false;  // past the first undeliverable bin above the boundary
    for (mosaic::FrontierPoint& p : region) {
        beyond = beyond || (p.sparsity > boundary && !p.feasible);
        if (beyond) p.feasible = false;
    }
    return undeliverableBands(region);
}

FrontierPlot frontierPlot(const mosaic::SearchResult& r, const QList<FrontierMarker>& markers,
                          bool compactLegend) {
    FrontierPlot out;
    segmentsOf(r.computeOptimal, out.computeFitted, out.computeExtrapolated, false);
    segmentsOf(r.clusterOptimal, out.clusterFitted, out.clusterExtrapolated, true);
    // A dash tells extrapolated from fitted parts; when nothing is in the fitted range it tells
    // nothing, so everything is drawn solid and the title says it is extrapolated.
    out.allExtrapolated = out.computeFitted.isEmpty() && out.clusterFitted.isEmpty() &&
                          !(out.computeExtrapolated.isEmpty() && out.clusterExtrapolated.isEmpty());
    if (out.allExtrapolated) {
        std::swap(out.computeFitted, out.computeExtrapolated);
        std::swap(out.clusterFitted, out.clusterExtrapolated);
    }
    out.dashes = !out.computeExtrapolated.isEmpty() || !out.clusterExtrapolated.isEmpty();

    // Both frontiers' sparsities and finite losses and the imported models' points.
    Bounds b;
    for (const auto* v : {&r.computeOptimal, &r.clusterOptimal})
        for (const auto& p : *v) {
            b.addX(p.sparsity);
            if (std::isfinite(p.loss)) b.addY(p.loss);
        }
    for (const FrontierMarker& m : markers)
        if (std::isfinite(m.loss) && std::isfinite(m.sparsity)) b.add(m.sparsity, m.loss);
    double xLo = b.xLo, xHi = b.xHi, yLo = b.yLo, yHi = b.yHi;
    if (!(yHi > yLo)) {
        yLo = b.validY() ? yLo - 0.05 : 0;
        yHi = yLo + 0.1;
    }
    const double pad = 0.06 * (yHi - yLo);
    yLo -= pad;
    yHi += pad;
    if (!(xHi > xLo)) {
        xLo = 0;
        xHi = 1;
    }
    out.xLo = xLo - 0.005;
    out.xHi = xHi + 0.005;
    out.yLo = yLo;
    out.yHi = yHi;

    // One legend entry per frontier: the solid part's, else the dashed part's. A narrow chart
    // (the main window's page) gets the short names so that the legend is not elided.
    const bool compact = compactLegend;
    out.computeName =
        compact ? tr("Compute-optimal frontier") : tr("Compute-optimal frontier (FLOPs only)");
    out.clusterName =
        compact ? tr("Cluster-optimal frontier") : tr("Cluster-optimal frontier (this cluster)");

    // Optima.
    const double cl = lossAt(r.computeOptimal, r.computeOptimalSparsity, false);
    const double kl = lossAt(r.clusterOptimal, r.clusterOptimalSparsity, true);
    out.computeOptimumName =
        (compact ? tr("Compute-opt. S = %1 (FLOPs only)")
                 : tr("Compute-optimum S = %1 (if FLOPs cost no systems time)"))
            .arg(r.computeOptimalSparsity, 0, 'f', 3);
    out.clusterOptimumName = (compact ? tr("Cluster-opt. S = %1") : tr("Cluster-optimum S = %1"))
                                 .arg(r.clusterOptimalSparsity, 0, 'f', 3);
    out.naiveName =
        compact ? tr("Compute-opt. on cluster") : tr("Compute-optimum trained on this cluster");
    if (std::isfinite(cl)) out.computeOptimum = QPointF(r.computeOptimalSparsity, cl);
    if (std::isfinite(kl)) out.clusterOptimum = QPointF(r.clusterOptimalSparsity, kl);
    const bool naiveOk = std::isfinite(r.naiveOnClusterLoss);
    if (naiveOk) out.naiveOnCluster = QPointF(r.computeOptimalSparsity, r.naiveOnClusterLoss);

    // Imported models.
    for (const FrontierMarker& m : markers) {
        FrontierPlot::Marker d;
        d.shown = std::isfinite(m.loss);
        d.name = m.extrapolated ? tr("%1 (extrapolated)").arg(m.label) : m.label;
        d.pointLabel = m.label;
        d.pointLabel.replace(QLatin1Char('@'), QStringLiteral("(at)"));  // starts a label tag
        d.point = QPointF(m.sparsity, m.loss);
        out.markers.append(d);
    }

    out.titleNote = out.allExtrapolated ? tr(" (all extrapolated beyond Eq. 10's fitted range)")
                    : out.dashes        ? tr(" (dashed: outside Eq. 10's fitted range)")
                                        : QString();

    // Shaded bands: the red region (compute-optimal bins the cluster cannot deliver, Fig. 1)
    // under the hatched bins where no layout fits at all.
    out.redBands = redRegionBands(r.computeOptimal);
    out.greyBands = undeliverableBands(r.clusterOptimal);
    out.redBandName = compact ? tr("C_model not deliverable")
                              : tr("Red: cluster cannot deliver C_model at this S");
    out.greyBandName = QString::fromStdString(mosaic::noFeasibleLayoutText());

    // The lesson of Fig. 1: the compute-optimal choice trained on this cluster (triangle) against
    // the cluster optimum (circle), with the nats gained.
    if (naiveOk && std::isfinite(kl) && r.naiveOnClusterLoss > kl) {
        out.arrow = {QPointF(r.computeOptimalSparsity, r.naiveOnClusterLoss),
                     QPointF(r.clusterOptimalSparsity, kl)};
        out.gain = r.naiveOnClusterLoss - kl;
        out.caption = tr("Trained on this cluster, the compute-optimal choice (triangle, S = %1) "
                         "reaches %2 nats, "
                         "the cluster optimum (circle, S = %3) %4: %5 nats better.")
                          .arg(r.computeOptimalSparsity, 0, 'f', 3)
                          .arg(r.naiveOnClusterLoss, 0, 'f', 4)
                          .arg(r.clusterOptimalSparsity, 0, 'f', 3)
                          .arg(kl, 0, 'f', 4)
                          .arg(out.gain, 0, 'f', 4);
        out.gainLabel = tr("%1 nats better").arg(out.gain, 0, 'f', 3);
    }
    return out;
}

}  // namespace tandem::ui
