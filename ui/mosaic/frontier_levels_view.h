#pragma once
// The cluster-optimal frontier once per level of co-running jobs [2608.10605 Fig. 1 under the
// background of docs/MODEL-NETWORK.md section 7].
#include <QColor>
#include <QList>
#include <QScatterSeries>
#include <optional>

#include "ui/mosaic/background_levels.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/palette.h"

class QLineSeries;
class QValueAxis;

namespace tandem::ui {

/// How level `index` of `count` (0 = idle fabric) is drawn, the same on both co-running-job
/// charts: a colour from a sequential ramp (viridis, even steps; from light to dark on the light
/// theme, from dark to bright on the dark one, so the busier fabric always stands out more from
/// the background), a line style (solid, dashes, dots, dash-dot in turn) and a point marker
/// (circle, square, triangle, diamond, star, pentagon in turn), so that neighbouring levels differ
/// in all three.
struct BackgroundLevelStyle {
    QColor colour;
    Qt::PenStyle line = Qt::SolidLine;
    QScatterSeries::MarkerShape marker = QScatterSeries::MarkerShapeCircle;
};
BackgroundLevelStyle backgroundLevelStyle(int index, int count, Theme theme);

/// Loss against sparsity: the cluster-optimal frontier (best feasible geometry per sparsity bin)
/// of each co-running-job level, from the idle fabric to the busiest one, each in its
/// backgroundLevelStyle() with a marker on every point, and a dotted path through each level's
/// optimum. The envelope's own level is drawn thicker. Hover reads every
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
