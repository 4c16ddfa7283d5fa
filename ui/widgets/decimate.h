#pragma once
// Point-list decimation for line series: Qt Charts draws every point it is given.
#include <QList>
#include <QPointF>

namespace tandem::ui {

/// Min/max decimation of a polyline with non-decreasing x into at most ~2*`buckets` points.
/// Input: points sorted by x (the engine's trajectories are). Each of `buckets` equal-width x
/// bins keeps its first point, its lowest and highest y (in x order) and the last point of the
/// whole list is always kept, so peaks and the curve's end survive. `buckets` <= 0 or a list
/// already small enough returns the input unchanged.
QList<QPointF> decimateMinMax(const QList<QPointF>& points, int buckets);

}  // namespace tandem::ui
