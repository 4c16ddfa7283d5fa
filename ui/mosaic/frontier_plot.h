#pragma once
// What the loss-against-sparsity chart draws, computed without a chart, widget or theme
// [2608.10605 Fig. 1, Eq. 10]. FrontierView draws it.
#include <QList>
#include <QPair>
#include <QPointF>
#include <QString>
#include <limits>
#include <optional>
#include <vector>

#include "mosaic/search.h"

namespace tandem::ui {

/// A model placed on the frontier chart by name (an imported Hugging Face config costed on the
/// cluster): sparsity S and the Eq. 10 loss it reaches in the window, nats.
struct FrontierMarker {
    QString label;              ///< legend entry and the text drawn next to the point
    double sparsity = 0;        ///< S = 1 - N_act / N_tot (non-embedding)
    double loss = 0;            ///< nats; a marker with a non-finite loss is not drawn
    bool extrapolated = false;  ///< outside Eq. 10's fitted range (said in the legend)
};

/// Runs of consecutive bins with `feasible` false as [lo, hi] sparsity intervals, each widened
/// by half a grid step toward its feasible neighbours (the shaded bands of FrontierView).
QList<QPair<double, double>> undeliverableBands(const std::vector<mosaic::FrontierPoint>& pts);

/// The red region of a compute-optimal frontier [2608.10605 Fig. 1]: one band over every bin
/// beyond the feasible boundary (mosaic::feasibleBoundarySparsity; a deliverable bin inside it,
/// an island, does not break it, as the paper's region is drawn), plus undeliverableBands' runs
/// below the first deliverable bin. Same band edges as undeliverableBands.
QList<QPair<double, double>> redRegionBands(const std::vector<mosaic::FrontierPoint>& pts);

/// Everything FrontierView draws for one search result [2608.10605 Fig. 1], in chart units:
/// x is the sparsity S = 1 - N_act / N_tot (dimensionless, in [0, 1)), y the Eq. 10 loss in nats.
/// Points are QPointF(S, loss). Colours, pens and fonts are the view's (they follow the theme).
struct FrontierPlot {
    /// Each frontier as polylines: runs of consecutive bins with a finite loss (and, on the
    /// cluster-optimal frontier, feasible), split where Eq. 10's fitted range ends; adjacent runs
    /// share their boundary point. `fitted` is drawn solid, `extrapolated` dashed. When no bin of
    /// either frontier is in the fitted range the two lists are swapped (all solid; titleNote
    /// says so).
    QList<QList<QPointF>> computeFitted, computeExtrapolated;
    QList<QList<QPointF>> clusterFitted, clusterExtrapolated;
    bool allExtrapolated = false;  ///< nothing in the fitted range (lists swapped)
    bool dashes = false;           ///< some extrapolated polyline is left after the swap

    /// Axis extents before the view rounds them to nice ticks: x spans every bin's sparsity (and
    /// the markers') widened by 0.005 each side ([-0.005, 1.005] when empty); y spans the finite
    /// losses of both frontiers and the markers', widened
    /// by 6 % of the span each side (a flat or empty span is first made 0.1 nats tall, from
    /// 0.05 below the value, or from 0).
    double xLo = 0, xHi = 1, yLo = 0, yHi = 0.1;

    /// Legend names of the two frontiers (short when compact).
    QString computeName, clusterName;

    /// The optima: the compute optimum (square) at computeOptimalSparsity on the compute-optimal
    /// frontier, the cluster optimum (circle) at clusterOptimalSparsity on the cluster-optimal
    /// frontier (loss of the nearest bin with a finite loss, feasible on the cluster frontier), and
    /// the compute-optimal choice trained on the cluster (triangle) at (computeOptimalSparsity,
    /// naiveOnClusterLoss). nullopt when the loss is not finite (nothing drawn, no legend entry).
    std::optional<QPointF> computeOptimum, clusterOptimum, naiveOnCluster;
    QString computeOptimumName, clusterOptimumName, naiveName;  ///< their legend names

    /// Shaded [lo, hi] sparsity bands over the full y range: red (redRegionBands of the
    /// compute-optimal frontier: the cluster cannot deliver C_model) and grey (undeliverableBands
    /// of the cluster-optimal frontier: no layout fits).
    QList<QPair<double, double>> redBands, greyBands;
    QString redBandName, greyBandName;  ///< their legend names

    /// Imported models, one entry per input marker in order: legend name, the text drawn next to
    /// the point ('@' spelled "(at)"), and whether it is drawn (finite loss).
    struct Marker {
        QString name, pointLabel;
        QPointF point;
        bool shown = false;
    };
    QList<Marker> markers;

    /// The lesson of Fig. 1: {triangle, circle} when both exist and the triangle is worse, else
    /// empty; gain = naiveOnClusterLoss - cluster-optimum loss (nats, NaN without an arrow), its
    /// label next to the circle, and the chart caption (empty without an arrow).
    QList<QPointF> arrow;
    double gain = std::numeric_limits<double>::quiet_NaN();
    QString gainLabel, caption;

    /// Appended to the chart title: says whether parts are (or everything is) extrapolated.
    QString titleNote;
};

/// The pure model step of FrontierView::rebuild: turns a search result `r`, the imported models'
/// markers and the compact-legend flag (short legend names) into
/// what to draw. Deterministic; needs no display (the strings go through QCoreApplication's
/// translation, context tandem::ui::FrontierView).
FrontierPlot frontierPlot(const mosaic::SearchResult& r, const QList<FrontierMarker>& markers,
                          bool compactLegend);

}  // namespace tandem::ui
