#include "ui/widgets/decimate.h"

#include <cmath>

namespace tandem::ui {

QList<QPointF> decimateMinMax(const QList<QPointF>& points, int buckets) {
    if (buckets <= 0 || points.size() <= 2 * buckets + 1) return points;
    const double x0 = points.front().x();
    const double x1 = points.back().x();
    const double width = x1 - x0;
    if (!(width > 0)) return {points.front(), points.back()};
    QList<QPointF> out;
    out.reserve(2 * buckets + 2);
    qsizetype i = 0;
    const qsizetype n = points.size();
    for (int b = 0; b < buckets && i < n; ++b) {
        const double edge = (b + 1 == buckets) ? x1 : x0 + width * (b + 1) / buckets;
        qsizetype lo = i, hi = i;
        const qsizetype first = i;
        while (i < n && (points[i].x() <= edge || b + 1 == buckets)) {
            if (points[i].y() < points[lo].y()) lo = i;
            if (points[i].y() > points[hi].y()) hi = i;
            ++i;
        }
        if (i == first) continue;  // empty bin
        const qsizetype a = std::min(lo, hi), c = std::max(lo, hi);
        out.append(points[first]);
        if (a != first) out.append(points[a]);
        if (c != a && c != first) out.append(points[c]);
    }
    if (out.back() != points.back()) out.append(points.back());
    return out;
}

}  // namespace tandem::ui
