// ChartView's comparison habits: pinned curves drawn under later states, axes locked through
// redraws, and a time unit that holds while the user compares or drags.
#include <QAbstractAxis>
#include <QChart>
#include <QGuiApplication>
#include <QLogValueAxis>
#include <QPainter>
#include <QPainterPath>
#include <QValueAxis>
#include <QXYSeries>
#include <cmath>

#include "ui/widgets/chart_view.h"

namespace tandem::ui {

namespace {
/// The axis of `chart` in `orientation` on `side` with the given scale, nullptr when none.
const QAbstractAxis* axisAt(const QChart* chart, Qt::Orientation orientation, Qt::Alignment side,
                            bool log) {
    const auto axes = chart->axes(orientation);
    for (const QAbstractAxis* a : axes) {
        if (a->alignment() != side) continue;
        if (log ? qobject_cast<const QLogValueAxis*>(a) != nullptr
                : qobject_cast<const QValueAxis*>(a) != nullptr)
            return a;
    }
    return nullptr;
}

/// `v` as a fraction of `axis`' shown range (0 at its minimum, 1 at its maximum; outside for
/// values beyond it), NaN where it has no position (a log axis and v <= 0).
double fractionOn(const QAbstractAxis* axis, double v) {
    double f = std::nan("");
    if (const auto* l = qobject_cast<const QLogValueAxis*>(axis)) {
        if (v > 0 && l->min() > 0 && l->max() > l->min())
            f = std::log(v / l->min()) / std::log(l->max() / l->min());
    } else if (const auto* a = qobject_cast<const QValueAxis*>(axis)) {
        if (a->max() > a->min()) f = (v - a->min()) / (a->max() - a->min());
    }
    return axis->isReverse() ? 1.0 - f : f;
}
}  // namespace

void ChartView::setAxesLocked(bool on) {
    if (on == m_zoom.isLocked()) return;
    ensureBuilt();
    if (on)
        m_zoom.lock(chart());
    else
        m_zoom.reset(chart());
    viewport()->update();
}

void ChartView::pinCurves() {
    ensureBuilt();
    m_pinnedCurves.clear();
    const auto all = chart()->series();
    for (QAbstractSeries* s : all) {
        auto* xy = qobject_cast<QXYSeries*>(s);
        if (!xy || !xy->isVisible() || xy->count() == 0) continue;
        const QAbstractAxis* x = nullptr;
        const QAbstractAxis* y = nullptr;
        const auto attached = xy->attachedAxes();
        for (const QAbstractAxis* a : attached) (a->orientation() == Qt::Horizontal ? x : y) = a;
        if (!x || !y || !isZoomableAxis(x) || !isZoomableAxis(y)) continue;
        PinnedCurve c;
        c.name = xy->name();
        c.points = xy->points();
        c.line = s->type() != QAbstractSeries::SeriesTypeScatter;
        c.xSide = x->alignment();
        c.ySide = y->alignment();
        c.xLog = qobject_cast<const QLogValueAxis*>(x) != nullptr;
        c.yLog = qobject_cast<const QLogValueAxis*>(y) != nullptr;
        m_pinnedCurves.append(std::move(c));
    }
    scheduleFit();  // the legend names the pinned curves
    viewport()->update();
}

void ChartView::clearPinnedCurves() {
    if (m_pinnedCurves.isEmpty()) return;
    m_pinnedCurves.clear();
    scheduleFit();
    viewport()->update();
}

void ChartView::drawPinnedCurves(QPainter* painter) const {
    if (m_pinnedCurves.isEmpty()) return;
    const QRectF plot = chart()->mapToScene(chart()->plotArea()).boundingRect();
    painter->save();
    painter->setClipRect(plot);
    painter->setRenderHint(QPainter::Antialiasing);
    QColor grey = palette().color(QPalette::WindowText);
    grey.setAlpha(140);
    QPen pen(grey, 1.6, Qt::DashLine);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    for (const PinnedCurve& c : m_pinnedCurves) {
        const QAbstractAxis* x = axisAt(chart(), Qt::Horizontal, c.xSide, c.xLog);
        const QAbstractAxis* y = axisAt(chart(), Qt::Vertical, c.ySide, c.yLog);
        if (!x || !y) continue;  // the chart no longer has such axes
        QPainterPath path;
        bool open = false;
        for (const QPointF& p : c.points) {
            const double fx = fractionOn(x, p.x()), fy = fractionOn(y, p.y());
            if (!std::isfinite(fx) || !std::isfinite(fy)) {
                open = false;  // a gap (a value the axis cannot place)
                continue;
            }
            const QPointF at(plot.left() + fx * plot.width(), plot.bottom() - fy * plot.height());
            if (!c.line) {
                painter->drawEllipse(at, 4.0, 4.0);
                continue;
            }
            if (open)
                path.lineTo(at);
            else
                path.moveTo(at);
            open = true;
        }
        if (c.line) painter->drawPath(path);
    }
    painter->restore();
}

TimeUnit ChartView::stableTimeUnit(double maxSeconds) {
    const bool hold = m_timeUnitChosen && (!m_pinnedCurves.isEmpty() || m_zoom.isLocked() ||
                                           QGuiApplication::mouseButtons() != Qt::NoButton);
    if (!hold) {
        m_timeUnit = chooseTimeUnit(maxSeconds);
        m_timeUnitChosen = true;
    }
    return m_timeUnit;
}

}  // namespace tandem::ui
