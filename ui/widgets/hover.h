#pragma once
// The crosshair's model step: the value of every visible series at the cursor's x, with no
// widget involved (the draw step is ChartView's).
#include <QList>
#include <QPointF>
#include <QString>
#include <vector>

namespace tandem::ui {

/// One series as the crosshair reads it: its legend name, its points in data coordinates sorted
/// by x, and whether it is a line (interpolated between points) or a scatter of markers (read at
/// the nearest point).
struct HoverSeries {
    QString name;
    QList<QPointF> points;
    bool line = true;
};

/// One value under the crosshair: the series name and its y at the cursor's x (data units).
struct HoverValue {
    QString name;
    double y = 0;
};

/// One row of a hover table: what it is ("Static", "MFU") and its value with unit ("2.613").
struct HoverRow {
    QString name;
    QString value;
};

/// What the crosshair shows: a heading (the cursor's x with its axis title, or the cell under
/// the cursor) and the rows under it; empty heading and rows when there is nothing to show.
struct HoverTable {
    QString heading;
    QString columnTitle;  ///< what the values are ("Loss (nats)"), may be empty
    QList<HoverRow> rows;
    bool isEmpty() const { return heading.isEmpty() && rows.isEmpty(); }
    /// The table as plain text, one line per row ("Static: 2.613"), heading first.
    QString text() const;
};

/// y of the polyline `points` (sorted by x) at `x` by linear interpolation between the two
/// neighbours; exactly the point's y at a point's x; NaN when `x` lies outside [first x, last x]
/// or there are no points. No extrapolation.
double interpolateAt(const QList<QPointF>& points, double x);

/// Index of the point of `points` nearest to `x` in x, -1 when none is within `tolerance`
/// (data units of x) or there are no points; the first one on a tie.
int nearestByX(const QList<QPointF>& points, double x, double tolerance);

/// The value of every series at `x`, in the order of `series`: a line by interpolateAt, a
/// scatter by its nearest point within `scatterTolerance`. Series sharing a name (one curve
/// drawn as several segments) give one value, from the first segment that covers `x`. A series
/// with no value at `x` is left out.
std::vector<HoverValue> valuesAt(const std::vector<HoverSeries>& series, double x,
                                 double scatterTolerance);

}  // namespace tandem::ui
