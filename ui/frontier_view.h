#pragma once
// Loss against sparsity: compute-optimal and cluster-optimal frontiers [2608.10605 Fig. 1, Sec. 7].
#include <optional>

#include "chart_view.h"
#include "mosaic/search.h"

class QAreaSeries;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace tandem::ui {

/// Two frontiers over the sparsity grid: compute-optimal (fixed model-FLOPs budget, blind to
/// hardware) and cluster-optimal (best realizable geometry+plan on the cluster and window). Each
/// optimum is marked; sparsity bins with no feasible geometry are shaded; parts of a curve that
/// lie outside Eq. 10's fitted range are drawn dashed. A pinned result is overlaid faded.
class FrontierView : public ChartView {
    Q_OBJECT
public:
    explicit FrontierView(QWidget* parent = nullptr);
    void setData(const mosaic::SearchResult& result);
    void setPinned(const std::optional<mosaic::SearchResult>& pinned);
    /// Rings the selected candidate at (S, loss); nullopt removes the ring.
    void setSelected(const std::optional<QPointF>& point);
    /// The ringed point (tests; empty when none).
    QList<QPointF> selectedPoint() const;
    void applyTheme() override;
    /// Total number of points currently drawn on both frontier curves (tests).
    int frontierPointCount() const;
    QString csv() const override;

private:
    void rebuild();
    /// Puts `segments` into `pool` (creating series on demand, hiding the unused ones).
    void fillPool(QList<QLineSeries*>& pool, const QList<QList<QPointF>>& segments, const QPen& pen,
                  const QString& name);
    std::optional<mosaic::SearchResult> m_result, m_pinned;
    QList<QLineSeries*> m_compute, m_computeExtra, m_cluster, m_clusterExtra, m_pinCompute, m_pinCluster;
    QList<QAreaSeries*> m_bands;
    QScatterSeries* m_computeOpt = nullptr;
    QScatterSeries* m_clusterOpt = nullptr;
    QScatterSeries* m_naive = nullptr;
    QScatterSeries* m_selected = nullptr;
    std::optional<QPointF> m_selectedPoint;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};

}  // namespace tandem::ui
