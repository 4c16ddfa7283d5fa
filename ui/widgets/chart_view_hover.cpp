// ChartView's read-out: the live hover table that follows the mouse over the plot, the table
// pinned by a click (Esc or another click ends it), their boxes kept clear of each other, and
// the tooltip moved off them.
#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QPainter>
#include <QScreen>
#include <QToolTip>
#include <QValueAxis>
#include <QXYSeries>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "ui/widgets/chart_view.h"

namespace tandem::ui {

void ChartView::mousePressEvent(QMouseEvent* event) {
    emit activated(this);
    if (zoomPress(event)) return;
    if (event->button() == Qt::LeftButton && m_emptyReason.isEmpty()) {
        const QPoint at = event->position().toPoint();
        pinHover(m_pinnedHover.isEmpty() ? hoverAt(at) : HoverTable{}, at);
    }
    QChartView::mousePressEvent(event);
}

void ChartView::mouseMoveEvent(QMouseEvent* event) {
    if (zoomMove(event)) return;
    const QPoint at = event->position().toPoint();
    const QRectF plot = chart()->mapToScene(chart()->plotArea()).boundingRect();
    const QPoint old = m_hoverPos;
    m_hoverPos = plot.contains(mapToScene(at)) ? at : QPoint(-1, -1);
    if (m_hoverPos != old) viewport()->update();
    QChartView::mouseMoveEvent(event);
}

void ChartView::leaveEvent(QEvent* event) {
    if (m_hoverPos.x() >= 0) {
        m_hoverPos = QPoint(-1, -1);
        viewport()->update();
    }
    QChartView::leaveEvent(event);
}

void ChartView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape && !m_pinnedHover.isEmpty()) {
        pinHover({}, {});
        return;
    }
    if (m_emptyReason.isEmpty() && zoomKey(event)) return;
    QChartView::keyPressEvent(event);
}

void ChartView::pinHover(const HoverTable& table, const QPoint& at) {
    m_pinnedHover = table;
    m_pinnedPos = at;
    viewport()->update();
}

QString ChartView::hoverValueText(double y) const { return QString::number(y, 'g', 4); }

HoverTable ChartView::hoverAt(const QPoint& viewportPos) const {
    const QPointF scenePos = mapToScene(viewportPos);
    const QRectF plot = chart()->mapToScene(chart()->plotArea()).boundingRect();
    if (!plot.contains(scenePos)) return {};
    const auto all = chart()->series();
    for (QAbstractSeries* s : all) {
        if (!s->isVisible() || s->attachedAxes().isEmpty()) continue;
        const QPointF value = chart()->mapToValue(chart()->mapFromScene(scenePos), s);
        return hoverAtX(value.x());
    }
    return {};
}

HoverTable ChartView::hoverAtX(double x) const {
    HoverTable t;
    const QAbstractAxis* xAxis = nullptr;
    const QAbstractAxis* yAxis = nullptr;
    for (const QAbstractAxis* a : chart()->axes(Qt::Horizontal))
        if (a->isVisible()) {
            xAxis = a;
            break;
        }
    for (const QAbstractAxis* a : chart()->axes(Qt::Vertical))
        if (a->isVisible()) {
            yAxis = a;
            break;
        }
    double span = 0;
    if (const auto* v = qobject_cast<const QValueAxis*>(xAxis)) span = v->max() - v->min();
    if (const auto* v = qobject_cast<const QLogValueAxis*>(xAxis)) span = v->max() - v->min();
    std::vector<HoverSeries> series;
    const auto all = chart()->series();
    for (QAbstractSeries* s : all) {
        const auto* xy = qobject_cast<const QXYSeries*>(s);
        if (!xy || !xy->isVisible() || xy->name().isEmpty()) continue;
        HoverSeries h{xy->name(), xy->points(),
                      s->type() == QAbstractSeries::SeriesTypeLine ||
                          s->type() == QAbstractSeries::SeriesTypeSpline};
        if (!std::is_sorted(h.points.begin(), h.points.end(),
                            [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); }))
            std::sort(h.points.begin(), h.points.end(),
                      [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
        series.push_back(std::move(h));
    }
    if (m_hoverSnaps) {
        // Read where the sweep computed a point, not between two of them.
        double best = x, distance = std::numeric_limits<double>::infinity();
        for (const HoverSeries& h : series)
            if (h.line)
                for (const QPointF& p : h.points)
                    if (std::abs(p.x() - x) < distance) {
                        distance = std::abs(p.x() - x);
                        best = p.x();
                    }
        x = best;
    }
    const std::vector<HoverValue> values = valuesAt(series, x, 0.015 * span);
    if (values.empty()) return t;  // nothing to read here (bars, gaps between segments)
    const QString xTitle =
        xAxis ? plainChartText(xAxis->titleText()).replace(QLatin1Char('\n'), QLatin1Char(' '))
              : QString();
    t.heading = (xTitle.isEmpty() ? QStringLiteral("x") : xTitle) + QStringLiteral(" = ") +
                QString::number(x, 'g', 4);
    if (yAxis)
        t.columnTitle =
            plainChartText(yAxis->titleText()).replace(QLatin1Char('\n'), QLatin1Char(' '));
    for (const HoverValue& v : values)
        t.rows.append({plainChartText(v.name).replace(QLatin1Char('\n'), QLatin1Char(' ')),
                       hoverValueText(v.y)});
    return t;
}

namespace {
/// The box of a hover table's `text` for the cursor at scene point `p`: right of and below it,
/// flipped to the other side where it would leave `plot`.
QRectF hoverBox(const QFontMetricsF& fm, const QRectF& plot, const QPointF& p,
                const QString& text) {
    QRectF box = fm.boundingRect(plot, Qt::TextWordWrap, text).adjusted(-6, -4, 6, 4);
    box.moveTopLeft(QPointF(p.x() + 12, p.y() + 12));
    if (box.right() > plot.right()) box.moveRight(p.x() - 12);
    if (box.bottom() > plot.bottom()) box.moveBottom(p.y() - 12);
    if (box.left() < plot.left()) box.moveLeft(plot.left());
    if (box.top() < plot.top()) box.moveTop(plot.top());
    return box;
}
}  // namespace

QString ChartView::hoverText(const HoverTable& table, bool pinned) const {
    return table.text() + (pinned ? tr("\n(pinned; click or Esc to unpin)") : QString());
}

QRectF ChartView::hoverBoxAt(const QPoint& at, const HoverTable& table, bool pinned) const {
    const QRectF plot = chart()->mapToScene(chart()->plotArea()).boundingRect();
    const QFontMetricsF fm(font());
    QRectF box = hoverBox(fm, plot, mapToScene(at), hoverText(table, pinned));
    // The live table keeps clear of the pinned one (beside it, else under or above it).
    if (!pinned && !m_pinnedHover.isEmpty()) {
        const QRectF avoid = hoverBoxAt(m_pinnedPos, m_pinnedHover, true);
        if (box.intersects(avoid)) {
            if (avoid.right() + 6 + box.width() <= plot.right())
                box.moveLeft(avoid.right() + 6);
            else if (avoid.left() - 6 - box.width() >= plot.left())
                box.moveRight(avoid.left() - 6);
            else if (avoid.bottom() + 6 + box.height() <= plot.bottom())
                box.moveTop(avoid.bottom() + 6);
            else
                box.moveBottom(avoid.top() - 6);
        }
    }
    return box;
}

QList<QRect> ChartView::readoutRects() const {
    QList<QRect> out;
    if (!m_emptyReason.isEmpty()) return out;
    if (!m_pinnedHover.isEmpty())
        out.append(mapFromScene(hoverBoxAt(m_pinnedPos, m_pinnedHover, true)).boundingRect());
    if (m_hoverPos.x() >= 0) {
        const HoverTable live = hoverAt(m_hoverPos);
        if (!live.isEmpty())
            out.append(mapFromScene(hoverBoxAt(m_hoverPos, live, false)).boundingRect());
    }
    return out;
}

bool ChartView::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QChartView::event(event);
    const auto* help = static_cast<QHelpEvent*>(event);
    const QString text = toolTip();
    if (text.isEmpty()) return QChartView::event(event);
    // The tip goes as soon as the mouse moves over the plot (the live read-out follows the
    // mouse, the tip would not), and it is moved off the read-outs drawn now.
    const QPoint at = viewport()->mapFromGlobal(help->globalPos());
    QToolTip::showText(help->globalPos(), text, viewport(), QRect(at - QPoint(2, 2), QSize(5, 5)));
    QList<QRect> avoid;
    for (const QRect& r : readoutRects())
        avoid.append(QRect(viewport()->mapToGlobal(r.topLeft()), r.size()).adjusted(-2, -2, 2, 2));
    if (avoid.isEmpty()) return true;
    QWidget* tip = nullptr;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (w->inherits("QTipLabel") && w->isVisible()) tip = w;
    if (!tip) return true;
    const QRect screen = tip->screen() ? tip->screen()->availableGeometry() : QRect();
    tip->move(clearOf(tip->geometry(), avoid, screen).topLeft());
    return true;
}

QRect clearOf(const QRect& rect, const QList<QRect>& avoid, const QRect& screen) {
    const auto clear = [&](const QRect& r) {
        if (!screen.isEmpty() && !screen.contains(r)) return false;
        return std::none_of(avoid.begin(), avoid.end(),
                            [&](const QRect& a) { return a.intersects(r); });
    };
    if (clear(rect)) return rect;
    QRect all;
    for (const QRect& a : avoid) all |= a;
    // Under, above, right of and left of every read-out, in that order; else where it was.
    for (const QPoint& to :
         {QPoint(rect.left(), all.bottom() + 1), QPoint(rect.left(), all.top() - rect.height()),
          QPoint(all.right() + 1, rect.top()), QPoint(all.left() - rect.width(), rect.top())}) {
        const QRect r(to, rect.size());
        if (clear(r)) return r;
    }
    return rect;
}

void ChartView::drawHover(QPainter* painter, const QPoint& at, const HoverTable& table,
                          bool pinned) const {
    const QRectF plot = chart()->mapToScene(chart()->plotArea()).boundingRect();
    const QPointF p = mapToScene(at);
    painter->save();
    QColor line = palette().color(QPalette::WindowText);
    line.setAlpha(pinned ? 110 : 160);
    painter->setPen(QPen(line, 1, pinned ? Qt::DashLine : Qt::SolidLine));
    painter->drawLine(QPointF(p.x(), plot.top()), QPointF(p.x(), plot.bottom()));
    if (!pinned) painter->drawLine(QPointF(plot.left(), p.y()), QPointF(plot.right(), p.y()));
    painter->setFont(font());
    const QString text = hoverText(table, pinned);
    const QRectF box = hoverBoxAt(at, table, pinned);
    QColor fill = palette().color(QPalette::Base);
    fill.setAlpha(235);
    painter->setPen(QPen(palette().color(QPalette::Mid), 1));
    painter->setBrush(fill);
    painter->drawRoundedRect(box, 4, 4);
    painter->setPen(palette().color(QPalette::WindowText));
    painter->drawText(box.adjusted(6, 4, -6, -4), Qt::TextWordWrap, text);
    painter->restore();
}

}  // namespace tandem::ui
