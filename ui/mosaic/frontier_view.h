#pragma once
// Loss against sparsity: compute-optimal and cluster-optimal frontiers [2608.10605 Fig. 1, Sec. 7].
#include <QList>
#include <QPair>
#include <optional>
#include <vector>

#include "mosaic/search.h"
#include "ui/mosaic/frontier_plot.h"
#include "ui/widgets/chart_view.h"

class QAreaSeries;
class QLineSeries;
class QScatterSeries;
class QColor;
class QValueAxis;

namespace tandem::ui {

/// Two frontiers over the sparsity grid: compute-optimal (fixed model-FLOPs budget, blind to
/// hardware) and cluster-optimal (best realizable geometry+plan on the cluster and window). Each
/// optimum is marked; compute-optimal bins the cluster cannot deliver
/// (FrontierPoint::feasible false on computeOptimal: Fig. 1's red region) are shaded red and bins
/// with no feasible geometry hatched grey; parts of a curve that
/// lie outside Eq. 10's fitted range are drawn dashed. View > Pin for comparison keeps
/// a state as dashed grey curves (ChartView::pinCurves).
class FrontierView : public ChartView {
    Q_OBJECT
public:
    explicit FrontierView(QWidget* parent = nullptr);
    void setData(const mosaic::SearchResult& result);
    /// Rings the selected candidate at (S, loss); nullopt removes the ring.
    void setSelected(const std::optional<QPointF>& point);
    /// The cluster and training window the frontier is for (shown in the title).
    void setCluster(int nodes, int gpus, double days);
    /// The selected candidate's ring colour (black on the light theme, white on the dark one).
    QColor selectedRingColor() const;
    /// The arrow from the compute-optimal choice trained on this cluster (triangle) to the
    /// cluster optimum (circle), in chart units: {from, to}; empty when either is missing or the
    /// triangle is not worse (tests).
    QList<QPointF> gainArrow() const { return m_arrow; }
    /// True when the frontiers have dashed (extrapolated) parts next to solid ones; a frontier
    /// that is extrapolated everywhere is drawn solid and the title says so (tests).
    bool drawsDashes() const { return m_dashes; }
    /// Labelled points of imported models (one scatter series each, named by the label, with
    /// the label drawn next to the point); an empty list removes them.
    void setImported(const QList<FrontierMarker>& markers);
    /// The imported models' series currently shown (tests).
    QList<QScatterSeries*> importedSeries() const;
    /// The ringed point (tests; empty when none).
    QList<QPointF> selectedPoint() const;
    void applyTheme() override;
    /// Total number of points currently drawn on both frontier curves (tests).
    int frontierPointCount() const;
    /// Shaded [lo, hi] sparsity bands currently drawn: red (undeliverable compute optimum) when
    /// `undeliverable`, else grey (no layout fits) (tests).
    QList<QPair<double, double>> shadedBands(bool undeliverable) const;
    /// The CLI's mosaic_frontier.csv columns (sparsity, compute_optimal_loss,
    /// cluster_optimal_loss, feasible, extrapolated) plus compute_optimal_deliverable
    /// (0: the red region), then imported models if any.
    QString csv() const override;
    /// The crosshair at sparsity `x`: the loss of each frontier at S (interpolated within its
    /// drawn segments, nats), the markers near S, then the search candidate nearest to S with its
    /// S, loss, geometry and layout.
    HoverTable hoverAtX(double x) const override;
    /// Below this width (pixels) the legend uses short names ("Compute-opt. S = 0.985") so that
    /// it is not elided; exports (900 px) and wide windows get the long ones.
    static constexpr int kCompactLegendWidth = 760;
    /// Below this width (a window on a 1024x768 or smaller screen) the sparsity axis has about
    /// 3 ticks instead of 6: six labels of "0.00" would not fit side by side and Qt Charts
    /// would elide them.
    static constexpr int kFewTicksWidth = 340;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /// Draws frontierPlot() of the result, markers and legend width.
    void rebuild() override;
    /// Puts `segments` into `pool` (creating series on demand, hiding the unused ones).
    /// Puts `bands` into `pool` as full-height areas named `name` (one legend entry).
    void fillBands(QList<QAreaSeries*>& pool, const QList<QPair<double, double>>& bands,
                   const QBrush& brush, const QString& name, const QColor& swatch, double yLo,
                   double yHi);
    void fillPool(QList<QLineSeries*>& pool, const QList<QList<QPointF>>& segments, const QPen& pen,
                  const QString& name);
    std::optional<mosaic::SearchResult> m_result;
    QList<QLineSeries*> m_compute, m_computeExtra, m_cluster, m_clusterExtra;
    QList<QAreaSeries*> m_bands;     ///< grey: no layout fits
    QList<QAreaSeries*> m_redBands;  ///< red: compute optimum not deliverable
    QScatterSeries* m_computeOpt = nullptr;
    QScatterSeries* m_clusterOpt = nullptr;
    QScatterSeries* m_naive = nullptr;
    QScatterSeries* m_selected = nullptr;
    QList<QScatterSeries*> m_imported;
    QList<FrontierMarker> m_markers;
    std::optional<QPointF> m_selectedPoint;
    bool m_compactLegend = false;  ///< short legend names (narrow chart)
    bool m_fewTicks = false;       ///< about 3 sparsity ticks (width below kFewTicksWidth)
    int m_nodes = 0, m_gpus = 0;
    double m_days = 0;
    QList<QPointF> m_arrow;
    bool m_dashes = false;
    class GainArrowItem* m_arrowItem = nullptr;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};

}  // namespace tandem::ui
