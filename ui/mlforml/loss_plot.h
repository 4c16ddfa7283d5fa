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

namespace tandem::ui {

/// Display options of the loss chart (all cheap: no recomputation).
struct LossViewOptions {
    bool updatesAxis = false;  ///< x = optimizer updates instead of wall-clock
    bool logX = false;         ///< logarithmic x-axis (points at x <= 0 are dropped)
    double smoothing = 0;      ///< 0..0.99; time-weighted EMA with tau = smoothing * x-span / 10
    QSet<QString> hiddenPolicies;  ///< policies toggled off
    int targetIndex = 1;  ///< which target's first-crossing markers to draw (index into targets)
};

/// One policy's loss curve of the current or the pinned result, in chart units (x: optimizer
/// updates or wall-clock in LossPlot::xUnitName, y: evaluation loss in nats).
struct LossPlotCurve {
    QString policy;
    bool pinned = false;    ///< of the pinned result (drawn dashed and faded)
    bool hidden = false;    ///< toggled off (LossViewOptions::hiddenPolicies)
    QList<QPointF> points;  ///< decimated to about two points per two pixels
    /// Current curves: the group of curves this one coincides with (coincidentMember of
    /// LossPlot::sameAs; index > 0 is drawn dashed over its leader). Pinned curves: default.
    int leader = -1, memberIndex = 0, groupSize = 1;
    /// Current curves: where the policy first crosses the selected target (x in chart units,
    /// y the target loss); nullopt when it does not, the target is out of range, or on a log
    /// axis at x <= 0.
    std::optional<QPointF> firstCrossing;
};

/// Everything LossCurveView draws for one result, before axis rounding and styling.
struct LossPlot {
    /// Wall-clock unit (from the first crossing of the hardest target, else the longest visible
    /// run): seconds per chart unit; 1 on the updates axis.
    double xDivisor = 1;
    QString xUnitName;  ///< "s", "minutes", "hours" (unused on the updates axis)
    /// The current result's curves (engine order), then the pinned result's.
    std::vector<LossPlotCurve> curves;
    /// Per current curve, the earlier current curve it coincides with (coincidentWith within
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

/// The plot of `point` (and `pinned`, when set) with targets `targetLosses` (nats, ascending
/// factors `targetFactors`) under `options`, the curves decimated into `buckets` x bins
/// (decimateMinMax; <= 0 keeps every point). Deterministic; no errors.
LossPlot lossPlot(const mlforml::PointResult& point,
                  const std::optional<mlforml::PointResult>& pinned,
                  const std::vector<double>& targetLosses, const LossViewOptions& options,
                  int buckets);

}  // namespace tandem::ui
