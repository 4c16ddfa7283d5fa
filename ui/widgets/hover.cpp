#include "ui/widgets/hover.h"

#include <QSet>
#include <algorithm>
#include <cmath>
#include <limits>

namespace tandem::ui {

QString HoverTable::text() const {
    QStringList lines;
    if (!heading.isEmpty()) lines << heading;
    if (!columnTitle.isEmpty()) lines << columnTitle;
    for (const HoverRow& r : rows)
        lines << (r.name.isEmpty() ? r.value : r.name + QStringLiteral(": ") + r.value);
    return lines.join(QLatin1Char('\n'));
}

double interpolateAt(const QList<QPointF>& points, double x) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (points.isEmpty() || !std::isfinite(x)) return nan;
    if (x < points.front().x() || x > points.back().x()) return nan;
    const auto hi = std::lower_bound(points.begin(), points.end(), x,
                                     [](const QPointF& p, double v) { return p.x() < v; });
    if (hi == points.end()) return points.back().y();
    if (hi->x() == x || hi == points.begin()) return hi->y();
    const QPointF& a = *(hi - 1);
    const QPointF& b = *hi;
    const double t = (x - a.x()) / (b.x() - a.x());
    return a.y() + t * (b.y() - a.y());
}

int nearestByX(const QList<QPointF>& points, double x, double tolerance) {
    int best = -1;
    double bestDistance = tolerance;
    for (int i = 0; i < points.size(); ++i) {
        const double d = std::abs(points[i].x() - x);
        if (d < bestDistance || (best < 0 && d <= bestDistance)) {
            best = i;
            bestDistance = d;
        }
    }
    return best;
}

std::vector<HoverValue> valuesAt(const std::vector<HoverSeries>& series, double x,
                                 double scatterTolerance) {
    std::vector<HoverValue> out;
    QSet<QString> done;
    for (const HoverSeries& s : series) {
        if (done.contains(s.name)) continue;
        double y = std::numeric_limits<double>::quiet_NaN();
        if (s.line) {
            y = interpolateAt(s.points, x);
        } else {
            const int i = nearestByX(s.points, x, scatterTolerance);
            if (i >= 0) y = s.points[i].y();
        }
        if (!std::isfinite(y)) continue;
        done.insert(s.name);
        out.push_back({s.name, y});
    }
    return out;
}

}  // namespace tandem::ui
