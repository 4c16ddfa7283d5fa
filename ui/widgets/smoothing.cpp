#include "ui/widgets/smoothing.h"

#include <cmath>

namespace tandem::ui {

QList<QPointF> smoothTimeWeighted(const QList<QPointF>& points, double tau) {
    if (!(tau > 0) || points.size() < 2) return points;
    QList<QPointF> out;
    out.reserve(points.size());
    double m = points.front().y();
    out.append(points.front());
    for (qsizetype i = 1; i < points.size(); ++i) {
        const double dt = std::max(0.0, points[i].x() - points[i - 1].x());
        const double w = 1.0 - std::exp(-dt / tau);
        m += w * (points[i].y() - m);
        out.append(QPointF(points[i].x(), m));
    }
    return out;
}

}  // namespace tandem::ui
