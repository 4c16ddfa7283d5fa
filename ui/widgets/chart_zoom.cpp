#include "ui/widgets/chart_zoom.h"

#include <QCategoryAxis>
#include <QChart>
#include <QLogValueAxis>
#include <QRegularExpression>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "ui/widgets/units.h"

namespace tandem::ui {

namespace {
ChartZoom::Ticks ticksOf(const QAbstractAxis* axis) {
    ChartZoom::Ticks t;
    if (const auto* v = qobject_cast<const QValueAxis*>(axis))
        t = {int(v->tickType()), v->tickCount(), v->tickInterval(), v->tickAnchor(),
             v->labelFormat()};
    return t;
}

void setTicks(QAbstractAxis* axis, const ChartZoom::Ticks& t) {
    auto* v = qobject_cast<QValueAxis*>(axis);
    if (!v) return;
    v->setTickType(QValueAxis::TickType(t.type));
    v->setTickCount(t.count);
    v->setTickInterval(t.interval);
    v->setTickAnchor(t.anchor);
    v->setLabelFormat(t.format);
}

/// Round ticks over [lo, hi] on a linear axis whose view labels it with `format`.
void setZoomTicks(QAbstractAxis* axis, double lo, double hi, const QString& format) {
    auto* v = qobject_cast<QValueAxis*>(axis);
    if (!v) return;
    const double step = niceStep(hi - lo, 6);
    v->setTickType(QValueAxis::TicksDynamic);
    v->setTickAnchor(0.0);
    v->setTickInterval(step);
    static const QRegularExpression fixed(QStringLiteral("^%\\.(\\d)f$"));
    const QRegularExpressionMatch m = fixed.match(format);
    const int decimals = niceDecimals(step);
    if (m.hasMatch() && m.captured(1).toInt() < decimals)
        v->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
    else
        v->setLabelFormat(format);
}

bool isLog(const QAbstractAxis* axis) { return qobject_cast<const QLogValueAxis*>(axis); }

std::pair<double, double> rangeOf(const QAbstractAxis* axis) {
    if (const auto* v = qobject_cast<const QValueAxis*>(axis)) return {v->min(), v->max()};
    if (const auto* l = qobject_cast<const QLogValueAxis*>(axis)) return {l->min(), l->max()};
    return {0, 0};
}

void setRangeOf(QAbstractAxis* axis, double lo, double hi) {
    if (auto* v = qobject_cast<QValueAxis*>(axis)) v->setRange(lo, hi);
    if (auto* l = qobject_cast<QLogValueAxis*>(axis)) l->setRange(lo, hi);
}

/// The fraction of the plot along `axis` for plot fractions `x` (horizontal), `y` (vertical).
double along(const QAbstractAxis* axis, double x, double y) {
    const double f = axis->orientation() == Qt::Horizontal ? x : y;
    return axis->isReverse() ? 1.0 - f : f;
}
}  // namespace

bool isZoomableAxis(const QAbstractAxis* axis) {
    // A QCategoryAxis is a QValueAxis whose labels name bands (the layout heatmap's cells are
    // drawn on the plot area, not on the axis): it keeps its range.
    if (qobject_cast<const QCategoryAxis*>(axis)) return false;
    return qobject_cast<const QValueAxis*>(axis) || qobject_cast<const QLogValueAxis*>(axis);
}

std::pair<double, double> axisSubRange(double lo, double hi, bool log, double f0, double f1) {
    if (log && lo > 0 && hi > 0) {
        const double a = std::log10(lo), b = std::log10(hi);
        return {std::pow(10.0, a + (b - a) * f0), std::pow(10.0, a + (b - a) * f1)};
    }
    return {lo + (hi - lo) * f0, lo + (hi - lo) * f1};
}

ChartZoom::Axis* ChartZoom::find(QAbstractAxis* axis) {
    for (Axis& a : m_axes)
        if (a.axis == axis) return &a;
    return nullptr;
}

ChartZoom::Axis& ChartZoom::track(QAbstractAxis* axis) {
    if (Axis* a = find(axis)) return *a;
    const auto [lo, hi] = rangeOf(axis);
    m_axes.append({axis, lo, hi, lo, hi, ticksOf(axis), Ticks{}, axis->orientation(),
                   axis->alignment(), isLog(axis)});
    return m_axes.back();
}

void ChartZoom::apply() {
    for (Axis& a : m_axes) {
        setRangeOf(a.axis, a.lo, a.hi);
        setZoomTicks(a.axis, a.lo, a.hi, a.ticks.format);
        a.zoomTicks = ticksOf(a.axis);
    }
}

void ChartZoom::restore(QChart* chart) {
    const auto axes = chart->axes();
    for (const Axis& a : m_axes)
        if (axes.contains(a.axis)) {
            setRangeOf(a.axis, a.fullLo, a.fullHi);
            setTicks(a.axis, a.ticks);
        }
    m_axes.clear();
}

void ChartZoom::zoomTo(QChart* chart, const QRectF& fractions, double minFraction) {
    const QRectF f = fractions.normalized();
    const auto axes = chart->axes();
    for (QAbstractAxis* axis : axes) {
        if (!isZoomableAxis(axis)) continue;
        const bool horizontal = axis->orientation() == Qt::Horizontal;
        if ((horizontal ? f.width() : f.height()) < minFraction) continue;
        const double f0 = along(axis, f.left(), f.top());
        const double f1 = along(axis, f.right(), f.bottom());
        Axis& a = track(axis);
        const auto [lo, hi] =
            axisSubRange(a.lo, a.hi, isLog(axis), std::min(f0, f1), std::max(f0, f1));
        if (!(hi > lo)) continue;
        a.lo = lo;
        a.hi = hi;
    }
    apply();
}

void ChartZoom::scale(QChart* chart, const QPointF& at, double factor) {
    if (!(factor > 0)) return;
    const double x = at.x(), y = at.y();
    zoomTo(chart, QRectF(QPointF(x - x / factor, y - y / factor),
                         QPointF(x + (1 - x) / factor, y + (1 - y) / factor)));
    // Zoomed out to (or past) the full range: the zoom is over.
    bool beyond = true;
    for (const Axis& a : m_axes) beyond = beyond && a.lo <= a.fullLo && a.hi >= a.fullHi;
    if (beyond && !m_locked) reset(chart);
}

void ChartZoom::pan(QChart* chart, double dx, double dy) {
    const auto axes = chart->axes();
    for (QAbstractAxis* axis : axes) {
        if (!isZoomableAxis(axis)) continue;
        const double d = axis->orientation() == Qt::Horizontal ? dx : dy;
        if (d == 0) continue;
        Axis& a = track(axis);
        const double shift = axis->isReverse() ? d : -d;
        const auto [lo, hi] = axisSubRange(a.lo, a.hi, isLog(axis), shift, 1 + shift);
        a.lo = lo;
        a.hi = hi;
    }
    apply();
}

void ChartZoom::reset(QChart* chart) {
    m_locked = false;
    restore(chart);
}

void ChartZoom::lock(QChart* chart) {
    const auto axes = chart->axes();
    for (QAbstractAxis* axis : axes)
        if (isZoomableAxis(axis)) track(axis);
    m_locked = !m_axes.isEmpty();
    apply();
}

void ChartZoom::afterRebuild(QChart* chart) {
    if (m_axes.isEmpty()) return;
    const auto axes = chart->axes();
    if (m_locked) {
        // A redraw that made new axes: each held range goes to the new axis in its place.
        for (Axis& a : m_axes) {
            if (axes.contains(a.axis)) continue;
            for (QAbstractAxis* axis : axes)
                if (isZoomableAxis(axis) && !find(axis) && axis->orientation() == a.orientation &&
                    axis->alignment() == a.alignment && isLog(axis) == a.log) {
                    a.axis = axis;
                    break;
                }
        }
    }
    bool keep = true;
    for (Axis& a : m_axes) {
        if (!axes.contains(a.axis)) {
            keep = false;
            continue;
        }
        const auto [lo, hi] = rangeOf(a.axis);
        if (lo != a.lo || hi != a.hi) {  // the redraw set a range of its own
            a.fullLo = lo;
            a.fullHi = hi;
        }
        const Ticks now = ticksOf(a.axis);
        if (!(now == a.zoomTicks)) a.ticks = now;  // the redraw set ticks of its own
        keep = keep && (m_locked || (a.lo < a.fullHi && a.hi > a.fullLo));
    }
    if (keep) {
        apply();
        return;
    }
    // The data moved away from what was zoomed into: the view shows its own ranges again.
    m_locked = false;
    restore(chart);
}

}  // namespace tandem::ui
