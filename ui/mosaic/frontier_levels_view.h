#pragma once
// The cluster-optimal frontier once per level of co-running jobs [2608.10605 Fig. 1 under the
// background of docs/MODEL-NETWORK.md section 7].
#include <QList>
#include <optional>

#include "mosaic/background_levels.h"
#include "widgets/chart_view.h"

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace tandem::ui {

/// Colour of level `index` of `count` (0 = idle fabric): an even ramp from the cluster-optimal
/// frontier's blue to vermillion (Okabe-Ito), the same on both co-running-job charts.
QColor backgroundLevelColor(int index, int count);

/// Loss against sparsity: the cluster-optimal frontier (best feasible geometry per sparsity bin)
/// of each co-running-job level, from the idle fabric to the busiest one, and a dotted path
/// through each level's optimum. The envelope's own level is drawn thicker. Hover reads every
/// level's loss at the cursor's S.
class FrontierLevelsView : public ChartView {
    Q_OBJECT
public:
    explicit FrontierLevelsView(QWidget* parent = nullptr);
    void setData(const BackgroundLevels& levels);
    void applyTheme() override;
    /// Points of level `index`'s frontier as drawn (the S of each bin's best candidate, nats;
    /// tests); empty beyond the levels.
    QList<QPointF> levelPoints(int index) const;
    /// The optimum path as drawn: one (S, loss) per feasible level (tests).
    QList<QPointF> optimumPath() const;

private:
    void rebuild() override;
    std::optional<BackgroundLevels> m_levels;
    QList<QLineSeries*> m_lines;  ///< pooled, one per level
    QLineSeries* m_path = nullptr;
    QScatterSeries* m_optima = nullptr;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};

}  // namespace tandem::ui
