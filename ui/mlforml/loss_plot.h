#pragma once
// What the loss chart of the network workspace draws, computed without a chart, widget or theme
// [2608.06046 Fig. 2b]. LossCurveView draws it.
#include <QList>
#include <QPointF>
#include <QSet>
#include <QString>
#include <optional>
#include <vector>

#include "mlforml/simulate.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

/// Display options of the loss chart (all cheap: no recomputation).
struct LossViewOptions {
    bool updatesAxis = false;  ///< x = optimizer updates instead of wall-clock
    bool logX = false;         ///< logarithmic x-axis (points at x <= 0 are dropped)
    double smoothing = 0;      ///< 0..0.99; time-weighted EMA with tau = smoothing * x-span / 10
    QSet<QString> hiddenPolicies;  ///< policies toggled off
    int targetIndex = 1;  ///< which target's first-crossing markers to draw (index into targets)
};

/// One policy's loss curve, in chart units (x: optimizer
/// updates or wall-clock in LossPlot::xUnitName, y: evaluation loss in nats).
struct LossPlotCurve {
    QString policy;
    bool hidden = false;    ///< toggled off (LossViewOptions::hiddenPolicies)
    QList<QPointF> points;  ///< decimated to about two points per two pixels
    /// The group of curves this one coincides with (coincidentMember of LossPlot::sameAs;
    /// index > 0 is drawn dashed over its leader).
    int leader = -1, memberIndex = 0, groupSize = 1;
    /// Where the policy first crosses the selected target (x in chart units,
    /// y the target loss); nullopt when it does not, the target is out of range, or on a log
    /// axis at x <= 0.
    std::optional<QPointF> firstCrossing;
};

/// Everything LossCurveView draws for one result, before axis rounding and styling.
struct LossPlot {
    /// Wall-clock unit (the one lossPlot was given): seconds per chart unit; 1 on the updates
    /// axis.
    double xDivisor = 1;
    QString xUnitName;  ///< "s", "minutes", "hours" (unused on the updates axis)
    /// The result's curves (engine order).
    std::vector<LossPlotCurve> curves;
    /// Per curve, the earlier curve it coincides with (coincidentWith within
    /// 0.2 % of the axis spans), or -1; hidden policies are -1.
    QList<int> sameAs;
    /// x range before rounding to nice ticks: [0, right end of the visible curves], cut at 1.15 x
    /// the latest first crossing on the wall-clock axis; on a log axis from max(first x,
    /// 1e-3 x right end). [0, 1] when nothing is drawn.
    double xLo = 0, xHi = 1;
    /// y range before rounding: from the lowest target and point drawn, less 0.002 nats, to
    /// 1.04 x the highest target (1.1 x the low end without targets).
    double yLo = 0, yHi = 0;
};

/// The duration (s) that sets the wall-clock unit of `point`'s plot under `options`: the latest
/// first crossing of any target by a visible policy, else the end of the longest visible run
/// (0 when nothing is visible). The view turns it into a unit with ChartView::stableTimeUnit, so
/// the unit holds while a comparison is pinned, the axes are locked or a slider is dragged.
double lossPlotUnitSeconds(const mlforml::PointResult& point, const LossViewOptions& options);

/// The plot of `point` with targets `targetLosses` (nats, ascending) under `options`, x in
/// `unit` on the wall-clock axis (e.g. chooseTimeUnit(lossPlotUnitSeconds(point, options))),
/// the curves decimated into `buckets` x bins (decimateMinMax; <= 0 keeps every point).
/// Deterministic; no errors.
LossPlot lossPlot(const mlforml::PointResult& point, const std::vector<double>& targetLosses,
                  const LossViewOptions& options, const TimeUnit& unit, int buckets);

}  // namespace tandem::ui
