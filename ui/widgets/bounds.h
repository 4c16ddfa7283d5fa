#pragma once
// The extent of a set of chart points, for axis ranges.
#include <QPointF>
#include <algorithm>
#include <cmath>
#include <limits>

namespace tandem::ui {

/// The smallest and largest x and y of the points added so far, each axis on its own. A NaN
/// coordinate is skipped (the other one of the point still counts); infinities count. Before
/// anything is added to an axis its low end is +inf and its high end -inf (validX()/validY() say
/// whether it holds a value).
struct Bounds {
    double xLo = std::numeric_limits<double>::infinity();
    double xHi = -std::numeric_limits<double>::infinity();
    double yLo = std::numeric_limits<double>::infinity();
    double yHi = -std::numeric_limits<double>::infinity();

    void addX(double x) {
        if (std::isnan(x)) return;
        xLo = std::min(xLo, x);
        xHi = std::max(xHi, x);
    }
    void addY(double y) {
        if (std::isnan(y)) return;
        yLo = std::min(yLo, y);
        yHi = std::max(yHi, y);
    }
    void add(double x, double y) {
        addX(x);
        addY(y);
    }
    void add(const QPointF& p) { add(p.x(), p.y()); }
    /// At least one x (y) was added.
    bool validX() const { return xLo <= xHi; }
    bool validY() const { return yLo <= yHi; }
    /// Both axes hold a value.
    bool valid() const { return validX() && validY(); }
};

}  // namespace tandem::ui
