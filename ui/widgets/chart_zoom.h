#pragma once
// Zoom and pan of a chart's value axes (linear and logarithmic), kept across the view's redraws
// until the user resets it. Used by ChartView only; the mouse and key handling is there.
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QVector>
#include <Qt>
#include <utility>

class QAbstractAxis;
class QChart;

namespace tandem::ui {

/// The part of the range [`lo`, `hi`] between fractions `f0` and `f1` of its length (0: `lo`,
/// 1: `hi`; fractions outside 0..1 extend it), interpolated in log10 space when `log` (a
/// logarithmic axis zooms in log space), else linearly. `lo`, `hi` > 0 when `log`.
std::pair<double, double> axisSubRange(double lo, double hi, bool log, double f0, double f1);

/// The zoom of one chart: for each zoomed value axis (QValueAxis or QLogValueAxis) its full
/// range (as the view's rebuild last set it) and the range shown.
class ChartZoom {
public:
    /// A value axis' ticks as the view set them (given back by reset()).
    struct Ticks {
        int type = 0;
        int count = 0;
        double interval = 0, anchor = 0;
        QString format;
        bool operator==(const Ticks& o) const {
            return type == o.type && count == o.count && interval == o.interval &&
                   anchor == o.anchor && format == o.format;
        }
    };
    bool isZoomed() const { return !m_axes.isEmpty(); }
    /// Holds every value axis of `chart` at the range it shows now, through the view's redraws,
    /// whatever the new data's ranges (a locked axis that a redraw replaced passes its range to
    /// the new axis of the same orientation and side); zooming and panning move the held ranges;
    /// reset() ends the lock. For comparing one state with the next on fixed axes.
    void lock(QChart* chart);
    bool isLocked() const { return m_locked; }
    /// Shows the part `fractions` of the plot area (x: 0 left .. 1 right, y: 0 bottom .. 1 top)
    /// on every value axis of `chart`; a side under `minFraction` of the plot leaves that
    /// orientation's axes as they are.
    void zoomTo(QChart* chart, const QRectF& fractions, double minFraction = 0.0);
    /// Zooms in (`factor` > 1) or out (< 1) about the point `at` (plot fractions, as zoomTo).
    void scale(QChart* chart, const QPointF& at, double factor);
    /// Moves the shown ranges by `dx`, `dy` plot fractions (positive: the data moves right/up).
    void pan(QChart* chart, double dx, double dy);
    /// Gives every zoomed axis its full range back (and ends a lock).
    void reset(QChart* chart);
    /// After the view redrew: an axis whose range the redraw set takes it as its new full range;
    /// the zoom is kept while it still overlaps the new full range of every zoomed axis (dropped
    /// otherwise, or when a zoomed axis left the chart) and applied again.
    void afterRebuild(QChart* chart);

private:
    struct Axis {
        QAbstractAxis* axis;
        double fullLo, fullHi;  ///< the range the view set
        double lo, hi;          ///< the range shown
        Ticks ticks;            ///< the view's ticks (a QValueAxis)
        Ticks zoomTicks;        ///< the ticks apply() set
        /// Where the axis sat (a locked range passes to the axis a redraw puts in its place).
        Qt::Orientation orientation = Qt::Horizontal;
        Qt::Alignment alignment;
        bool log = false;
    };
    Axis* find(QAbstractAxis* axis);
    /// Adds `axis` (its current range as the full one) unless it is zoomed already.
    Axis& track(QAbstractAxis* axis);
    /// Sets every zoomed axis to its shown range; a linear one gets 3 to 6 round ticks over it
    /// (niceStep) and, where its "%.Nf" labels have too few decimals for them, more.
    void apply();
    /// Gives every zoomed axis still on `chart` its full range and the view's ticks.
    void restore(QChart* chart);
    QVector<Axis> m_axes;
    bool m_locked = false;
};

/// Whether `axis` is one ChartZoom zooms (a QValueAxis or QLogValueAxis; not a QCategoryAxis).
bool isZoomableAxis(const QAbstractAxis* axis);

}  // namespace tandem::ui
