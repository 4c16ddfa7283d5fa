#include "ui/mlforml/loss_plot.h"

#include <algorithm>
#include <cmath>

#include "ui/widgets/bounds.h"
#include "ui/widgets/coincident_curves.h"
#include "ui/widgets/decimate.h"
#include "ui/widgets/smoothing.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

namespace {

/// One run's loss against x in chart units (x / xDiv): finite points only, x > 0 on a log axis,
/// smoothed when the options ask for it.
QList<QPointF> lossCurve(const mlforml::PolicyRun& run, double xDiv, const LossViewOptions& o) {
    const std::vector<double>& xs = o.updatesAxis ? run.updates : run.time_s;
    const size_t n = std::min(xs.size(), run.loss.size());
    QList<QPointF> pts;
    pts.reserve(static_cast<qsizetype>(n));
    for (size_t i = 0; i < n; ++i) {
        const double x = xs[i] / xDiv;
        if (o.logX && !(x > 0)) continue;
        if (std::isfinite(x) && std::isfinite(run.loss[i])) pts.append(QPointF(x, run.loss[i]));
    }
    if (o.smoothing > 0 && pts.size() > 2)
        pts = smoothTimeWeighted(pts, o.smoothing * (pts.back().x() - pts.front().x()) / 10.0);
    return pts;
}

/// Where `run` first crosses target `ti` (x in chart units, y the target loss), or nullopt.
std::optional<QPointF> firstCrossing(const mlforml::PolicyRun& run,
                                     const std::vector<double>& targetLosses, double xDiv,
                                     const LossViewOptions& o) {
    const int ti = o.targetIndex;
    if (ti < 0 || static_cast<size_t>(ti) >= run.firstCrossing_s.size() ||
        static_cast<size_t>(ti) >= targetLosses.size() || !std::isfinite(run.firstCrossing_s[ti]))
        return std::nullopt;
    double x = o.updatesAxis ? NAN : run.firstCrossing_s[ti] / xDiv;
    if (o.updatesAxis) {  // updates at the crossing time
        for (size_t i = 0; i < run.time_s.size() && i < run.updates.size(); ++i)
            if (run.time_s[i] >= run.firstCrossing_s[ti]) {
                x = run.updates[i];
                break;
            }
    }
    if (std::isfinite(x) && (!o.logX || x > 0)) return QPointF(x, targetLosses[ti]);
    return std::nullopt;
}

/// The visible runs' longest duration and latest first crossing of any target (s; 0 when none).
struct VisibleSpan {
    double tMax = 0, fcMax = 0;
};

VisibleSpan visibleSpan(const mlforml::PointResult& point, const LossViewOptions& options) {
    VisibleSpan out;
    for (const auto& run : point.policies) {
        if (options.hiddenPolicies.contains(QString::fromStdString(run.policy))) continue;
        if (!run.time_s.empty()) out.tMax = std::max(out.tMax, run.time_s.back());
        for (double fc : run.firstCrossing_s)
            if (std::isfinite(fc)) out.fcMax = std::max(out.fcMax, fc);
    }
    return out;
}

}  // namespace

double lossPlotUnitSeconds(const mlforml::PointResult& point, const LossViewOptions& options) {
    const VisibleSpan span = visibleSpan(point, options);
    return span.fcMax > 0 ? span.fcMax : span.tMax;
}

LossPlot lossPlot(const mlforml::PointResult& point, const std::vector<double>& targetLosses,
                  const LossViewOptions& options, const TimeUnit& unit, int buckets) {
    const auto hiddenPolicy = [&options](const mlforml::PolicyRun& run) {
        return options.hiddenPolicies.contains(QString::fromStdString(run.policy));
    };
    LossPlot out;
    // The first crossing of the hardest target bounds the x range so the policies' differences
    // stay visible.
    const double fcMax = visibleSpan(point, options).fcMax;
    out.xDivisor = options.updatesAxis ? 1.0 : unit.divisor;
    out.xUnitName = unit.name;
    const double xDiv = out.xDivisor;

    // The y axis reaches down to the lowest target and the lowest point drawn.
    Bounds yRange;
    if (!targetLosses.empty()) yRange.addY(targetLosses.front());
    // The current runs' curves, and which of them lie on an earlier one (drawn dashed on top).
    QList<QList<QPointF>> current;
    QList<bool> hidden;
    double xSpan = 0;
    for (const auto& run : point.policies) {
        current.append(lossCurve(run, xDiv, options));
        hidden.append(hiddenPolicy(run));
        if (!hidden.back() && !current.back().isEmpty()) {
            xSpan = std::max(xSpan, current.back().back().x());
            for (const QPointF& p : current.back()) yRange.addY(p.y());
        }
    }
    const double yMin = yRange.validY() ? yRange.yLo : 0.0;
    // Tolerance: 0.2 % of the axis spans (about a pixel of a 500-pixel plot).
    const double ySpan = (targetLosses.empty() ? yMin * 1.1 : targetLosses.back() * 1.04) - yMin;
    out.sameAs = coincidentWith(current, 2e-3 * xSpan, 2e-3 * std::max(ySpan, 1e-9), hidden);

    Bounds drawn;  // the visible curves' x extent (each curve's x rises, so its ends bound it)
    for (size_t idx = 0; idx < point.policies.size(); ++idx) {
        const auto& run = point.policies[idx];
        LossPlotCurve c;
        c.policy = QString::fromStdString(run.policy);
        c.hidden = hiddenPolicy(run);
        c.points = decimateMinMax(current[static_cast<qsizetype>(idx)], buckets);
        for (const QPointF& p : c.points) yRange.addY(p.y());
        if (!c.hidden && !c.points.isEmpty()) {
            drawn.addX(c.points.front().x());
            drawn.addX(c.points.back().x());
        }
        const CoincidentMember member = coincidentMember(out.sameAs, static_cast<qsizetype>(idx));
        c.leader = member.leader;
        c.memberIndex = member.index;
        c.groupSize = member.groupSize;
        c.firstCrossing = firstCrossing(run, targetLosses, xDiv, options);
        out.curves.push_back(std::move(c));
    }

    if (drawn.xHi > 0) {
        out.xHi = drawn.xHi;
        if (!options.updatesAxis && fcMax > 0) out.xHi = std::min(drawn.xHi, 1.15 * fcMax / xDiv);
        out.xLo = options.logX ? std::max(drawn.xLo, out.xHi * 1e-3) : 0.0;
    }
    const double yLo = yRange.validY() ? yRange.yLo : 0.0;
    out.yHi = targetLosses.empty() ? yLo * 1.1 : targetLosses.back() * 1.04;
    out.yLo = yLo - 0.002;
    return out;
}

}  // namespace tandem::ui
