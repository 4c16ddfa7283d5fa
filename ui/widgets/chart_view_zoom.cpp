// ChartView: zoom and pan by mouse and keys, the logarithmic-y toggle and the focus mark (the
// range arithmetic is in widgets/chart_zoom.h).
#include <QChart>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QRubberBand>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "ui/widgets/chart_view.h"

namespace tandem::ui {

namespace {
constexpr int kDragStart = 6;         ///< px the mouse moves before a press becomes a drag
constexpr double kStepFactor = 1.25;  ///< zoom per wheel notch or key press
constexpr double kPanStep = 0.1;      ///< plot fraction an arrow key pans
}  // namespace

QPointF ChartView::plotFraction(const QPoint& viewportPos) const {
    const QRectF plot = chart()->plotArea();
    if (plot.width() <= 0 || plot.height() <= 0) return {0.5, 0.5};
    const QPointF c = chart()->mapFromScene(mapToScene(viewportPos));
    return {(c.x() - plot.left()) / plot.width(), (plot.bottom() - c.y()) / plot.height()};
}

void ChartView::zoomToViewportRect(const QRect& rect) {
    const QPointF a = plotFraction(rect.topLeft()), b = plotFraction(rect.bottomRight());
    auto clamp01 = [](double v) { return std::clamp(v, 0.0, 1.0); };
    const QRectF f(QPointF(clamp01(a.x()), clamp01(b.y())),
                   QPointF(clamp01(b.x()), clamp01(a.y())));
    const QRectF plot = chart()->plotArea();
    // A side shorter than the drag threshold zooms only the other orientation's axes.
    const double least = plot.width() > 0 ? kDragStart / std::max(plot.width(), plot.height()) : 0;
    m_zoom.zoomTo(chart(), f, least);
    viewport()->update();
}

void ChartView::zoomBy(double factor, const QPointF& at) {
    m_zoom.scale(chart(), at, factor);
    viewport()->update();
}

void ChartView::panBy(double dx, double dy) {
    m_zoom.pan(chart(), dx, dy);
    viewport()->update();
}

void ChartView::resetZoom() {
    if (!m_zoom.isZoomed()) return;
    m_zoom.reset(chart());
    viewport()->update();
}

void ChartView::setLogYAvailable(bool available) {
    m_logYAvailable = available;
    if (!available) m_logY = false;
}

void ChartView::setLogY(bool on) {
    if (!m_logYAvailable || on == m_logY) return;
    resetZoom();
    m_logY = on;
    requestRebuild();
}

void ChartView::addViewActions(QMenu* menu) {
    QAction* reset = menu->addAction(tr("Reset zoom"), this, &ChartView::resetZoom);
    reset->setObjectName(QStringLiteral("resetZoom"));
    reset->setEnabled(m_zoom.isZoomed());
    QAction* lock = menu->addAction(tr("Lock axes"));
    lock->setObjectName(QStringLiteral("lockAxes"));
    lock->setCheckable(true);
    lock->setChecked(m_zoom.isLocked());
    lock->setToolTip(tr("Keep these axis ranges while the scenario changes"));
    connect(lock, &QAction::toggled, this, &ChartView::setAxesLocked);
    if (m_logYAvailable) {
        QAction* log = menu->addAction(tr("Logarithmic y axis"));
        log->setObjectName(QStringLiteral("logY"));
        log->setCheckable(true);
        log->setChecked(m_logY);
        connect(log, &QAction::toggled, this, &ChartView::setLogY);
    }
    menu->addSeparator();
}

bool ChartView::zoomPress(QMouseEvent* event) {
    m_pressPos = event->position().toPoint();
    const bool pan =
        event->button() == Qt::MiddleButton ||
        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (pan) {
        m_drag = Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
        return true;
    }
    m_drag = event->button() == Qt::LeftButton ? Drag::Pressed : Drag::None;
    m_pinBeforePress = m_pinnedHover;
    m_pinPosBeforePress = m_pinnedPos;
    return false;
}

bool ChartView::zoomMove(QMouseEvent* event) {
    const QPoint at = event->position().toPoint();
    if (m_drag == Drag::Pan) {
        const QRectF plot = chart()->plotArea();
        if (plot.width() > 0 && plot.height() > 0)
            panBy((at.x() - m_pressPos.x()) / plot.width(),
                  (m_pressPos.y() - at.y()) / plot.height());
        m_pressPos = at;
        return true;
    }
    if (m_drag == Drag::Pressed && (at - m_pressPos).manhattanLength() >= kDragStart) {
        m_drag = Drag::Band;
        pinHover(m_pinBeforePress, m_pinPosBeforePress);  // a drag is not a click
        if (!m_band) m_band = new QRubberBand(QRubberBand::Rectangle, viewport());
        m_band->show();
    }
    if (m_drag == Drag::Band) {
        m_band->setGeometry(QRect(m_pressPos, at).normalized());
        return true;
    }
    return false;
}

bool ChartView::zoomRelease(QMouseEvent* event) {
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (drag == Drag::Pan) {
        unsetCursor();
        return true;
    }
    if (drag != Drag::Band) return false;
    m_band->hide();
    const QRect r = QRect(m_pressPos, event->position().toPoint()).normalized();
    if (r.width() >= kDragStart || r.height() >= kDragStart) zoomToViewportRect(r);
    return true;
}

void ChartView::mouseReleaseEvent(QMouseEvent* event) {
    if (zoomRelease(event)) return;
    QChartView::mouseReleaseEvent(event);
}

void ChartView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && m_zoom.isZoomed()) {
        // The double-click's first press pinned a read-out of the zoomed axes (or unpinned one):
        // a reset pins nothing, and a pin's crosshair would no longer be over its values.
        pinHover({}, {});
        resetZoom();
        return;
    }
    QChartView::mouseDoubleClickEvent(event);
}

void ChartView::wheelEvent(QWheelEvent* event) {
    // Ctrl+wheel zooms about the cursor; the plain wheel scrolls the page holding the chart.
    if (!(event->modifiers() & Qt::ControlModifier) || !m_emptyReason.isEmpty()) {
        event->ignore();
        return;
    }
    const int notches = event->angleDelta().y() / 120;
    if (notches != 0)
        zoomBy(std::pow(kStepFactor, notches), plotFraction(event->position().toPoint()));
    event->accept();
}

bool ChartView::zoomKey(QKeyEvent* event) {
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            zoomBy(kStepFactor, {0.5, 0.5});
            return true;
        case Qt::Key_Minus:
            if (!m_zoom.isZoomed()) return false;
            zoomBy(1.0 / kStepFactor, {0.5, 0.5});
            return true;
        case Qt::Key_0:
        case Qt::Key_Escape:
            if (!m_zoom.isZoomed()) return false;
            resetZoom();
            return true;
        case Qt::Key_Left:
        case Qt::Key_Right:
        case Qt::Key_Up:
        case Qt::Key_Down: {
            if (!m_zoom.isZoomed()) return false;
            const int k = event->key();
            panBy(k == Qt::Key_Left    ? kPanStep
                  : k == Qt::Key_Right ? -kPanStep
                                       : 0,
                  k == Qt::Key_Down ? kPanStep
                  : k == Qt::Key_Up ? -kPanStep
                                    : 0);
            return true;
        }
        default:
            return false;
    }
}

void ChartView::focusInEvent(QFocusEvent* event) {
    QChartView::focusInEvent(event);
    viewport()->update();
}

void ChartView::focusOutEvent(QFocusEvent* event) {
    QChartView::focusOutEvent(event);
    viewport()->update();
}

void ChartView::drawFocusMark(QPainter* painter) const {
    if (!hasFocus() || m_exporting) return;
    painter->save();
    const QRectF r = mapToScene(viewport()->rect()).boundingRect().adjusted(1, 1, -1, -1);
    painter->setPen(QPen(palette().color(QPalette::Highlight), 2));
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(r);
    painter->restore();
}

}  // namespace tandem::ui
