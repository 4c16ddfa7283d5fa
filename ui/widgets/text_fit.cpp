#include "ui/widgets/text_fit.h"

#include <QAbstractAxis>
#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QBarCategoryAxis>
#include <QChart>
#include <QComboBox>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QScatterSeries>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTableView>
#include <QTextDocument>
#include <QXYSeries>
#include <algorithm>

#include "ui/widgets/chart_view.h"

namespace tandem::ui {

namespace {
struct ShownText {
    QString text;
    QRectF rect;  ///< view coordinates, without the text document's margin
    const QGraphicsItem* item;
};

bool shown(const QGraphicsItem* item) {
    for (const QGraphicsItem* i = item; i; i = i->parentItem())
        if (!i->isVisible() || i->opacity() <= 0.0) return false;
    return true;
}

/// The visible text items of `view`'s scene with their rectangles in view coordinates.
QList<ShownText> shownTexts(const ChartView* view) {
    QList<ShownText> out;
    const auto items = view->scene()->items();
    for (const QGraphicsItem* item : items) {
        QString text;
        qreal margin = 0;
        if (const auto* t = dynamic_cast<const QGraphicsTextItem*>(item)) {
            text = t->toPlainText();
            margin = t->document()->documentMargin();
        } else if (const auto* s = dynamic_cast<const QGraphicsSimpleTextItem*>(item)) {
            text = s->text();
        } else {
            continue;
        }
        if (text.trimmed().isEmpty() || !shown(item)) continue;
        QRectF local = item->boundingRect().adjusted(margin, margin, -margin, -margin);
        const QRectF inView = view->mapFromScene(item->mapToScene(local)).boundingRect();
        out.push_back({text.simplified(), inView, item});
    }
    // Point labels of the visible XY series (Qt Charts paints them itself, no text item): each
    // is centred over its point, its baseline a few pixels above it (QXYSeries' label offset).
    const auto series = view->chart()->series();
    for (QAbstractSeries* a : series) {
        auto* s = qobject_cast<QXYSeries*>(a);
        if (!s || !s->isVisible() || !s->pointLabelsVisible()) continue;
        const QFontMetricsF fm(s->pointLabelsFont());
        const QList<QPointF> points = s->points();
        for (int i = 0; i < points.size(); ++i) {
            const auto conf = s->pointConfiguration(i);
            const auto hidden = conf.find(QXYSeries::PointConfiguration::LabelVisibility);
            if (hidden != conf.end() && !hidden->toBool()) continue;
            QString text = s->pointLabelsFormat();
            text.replace(QLatin1String("@xPoint"), QString::number(points[i].x()))
                .replace(QLatin1String("@yPoint"), QString::number(points[i].y()));
            if (text.trimmed().isEmpty()) continue;
            const QPointF inChart = view->chart()->mapToPosition(points[i], s);
            // A clipped label of a point off the plot is not drawn.
            if (s->pointLabelsClipping() &&
                !view->chart()->plotArea().adjusted(-1, -1, 1, 1).contains(inChart))
                continue;
            const QPointF at = view->mapFromScene(view->chart()->mapToScene(inChart));
            const qreal w = fm.horizontalAdvance(text);
            const auto* scatter = qobject_cast<const QScatterSeries*>(s);
            const qreal lift = scatter ? scatter->markerSize() / 2 : s->pen().widthF() / 2;
            const qreal baseline = at.y() - lift - 4;
            out.push_back({text.simplified(),
                           QRectF(at.x() - w / 2, baseline - fm.ascent(), w, fm.height()),
                           nullptr});
        }
    }
    return out;
}

QString chartName(const ChartView* view) {
    const QString title = plainChartTitle(view->chart()->title());
    return QStringLiteral("%1 (%2)").arg(view->exportName(),
                                         title.isEmpty() ? QStringLiteral("untitled") : title);
}

/// The rectangle of `w` in `window` coordinates.
QRect rectIn(const QWidget* w, const QWidget* window) {
    return QRect(w->mapTo(window, QPoint(0, 0)), w->size());
}

/// False when `w` reaches outside `window` or outside one of its parents (which clip it).
bool insideParents(const QWidget* w, const QWidget* window) {
    const QRect r = rectIn(w, window);
    for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
        if (qobject_cast<const QAbstractScrollArea*>(p))
            return true;  // scrolls instead of clipping
        if (p->objectName() == QLatin1String("qt_scrollarea_viewport")) return true;
        if (!rectIn(p, window).adjusted(-1, -1, 1, 1).contains(r)) return false;
        if (p == window) break;
    }
    return true;
}
}  // namespace

QStringList chartTextProblems(const ChartView* view) {
    QStringList out;
    const QString name = chartName(view);
    const QRectF viewRect = QRectF(view->viewport()->rect()).adjusted(-1, -1, 1, 1);
    const QList<ShownText> texts = shownTexts(view);
    for (const ShownText& t : texts) {
        if (t.text.contains(QLatin1String("...")) || t.text.contains(QChar(0x2026)))
            out << QStringLiteral("%1: text elided: \"%2\"").arg(name, t.text);
        if (!viewRect.contains(t.rect))
            out << QStringLiteral("%1: text runs outside the chart: \"%2\"").arg(name, t.text);
        for (const QGraphicsItem* p = t.item ? t.item->parentItem() : nullptr; p;
             p = p->parentItem())
            if (p->flags() & QGraphicsItem::ItemClipsChildrenToShape) {
                const QRectF clip = view->mapFromScene(p->sceneBoundingRect())
                                        .boundingRect()
                                        .adjusted(-1, -1, 1, 1);
                if (!clip.contains(t.rect))
                    out << QStringLiteral("%1: text clipped by its box: \"%2\"").arg(name, t.text);
                break;
            }
    }
    // Every axis title and category label is drawn whole (Qt Charts hides a label it cut to
    // "..." when it would overlap its neighbour, and cuts a title that has too little room).
    QStringList drawn;
    for (const ShownText& t : texts) drawn << t.text;
    const auto axes = view->chart()->axes();
    for (QAbstractAxis* a : axes) {
        if (!a->isVisible()) continue;
        QStringList sources;
        if (a->isTitleVisible()) sources << plainChartText(a->titleText()).simplified();
        if (auto* cat = qobject_cast<QBarCategoryAxis*>(a); cat && a->labelsVisible())
            for (const QString& c : cat->categories()) sources << plainChartText(c).simplified();
        for (const QString& source : sources)
            if (!source.isEmpty() && !drawn.contains(source))
                out << QStringLiteral("%1: axis text not drawn whole: \"%2\"").arg(name, source);
    }
    for (int i = 0; i < texts.size(); ++i)
        for (int j = i + 1; j < texts.size(); ++j) {
            // Line boxes include leading: texts overlap when their boxes share half a line.
            const QRectF& a = texts[i].rect;
            const QRectF& b = texts[j].rect;
            const QRectF both = a.intersected(b);
            if (both.width() > 2 &&
                both.height() > std::max(2.0, 0.5 * std::min(a.height(), b.height())))
                out << QStringLiteral("%1: texts overlap: \"%2\" and \"%3\"")
                           .arg(name, texts[i].text, texts[j].text);
        }
    const QRectF plot = view->chart()->plotArea();
    if (!view->chart()->series().isEmpty() && (plot.width() < 60 || plot.height() < 40))
        out << QStringLiteral("%1: plot area only %2 x %3 px")
                   .arg(name)
                   .arg(plot.width())
                   .arg(plot.height());
    return out;
}

QStringList drawnTextProblems(const QString& who, const QSizeF& size,
                              const QList<DrawnText>& texts) {
    QStringList out;
    const QRectF all(QPointF(0, 0), size);
    for (int i = 0; i < texts.size(); ++i) {
        const DrawnText& t = texts[i];
        if (t.needs.width() > t.box.width() + 0.5 || t.needs.height() > t.box.height() + 0.5)
            out << QStringLiteral("%1: text cut (%2 x %3 of %4 x %5 px): \"%6\"")
                       .arg(who)
                       .arg(t.box.width(), 0, 'f', 0)
                       .arg(t.box.height(), 0, 'f', 0)
                       .arg(t.needs.width(), 0, 'f', 0)
                       .arg(t.needs.height(), 0, 'f', 0)
                       .arg(t.text);
        if (!all.adjusted(-0.5, -0.5, 0.5, 0.5).contains(t.box))
            out << QStringLiteral("%1: text outside the view: \"%2\"").arg(who, t.text);
        for (int j = i + 1; j < texts.size(); ++j) {
            const QRectF both = t.box.intersected(texts[j].box);
            if (both.width() > 1 && both.height() > 1)
                out << QStringLiteral("%1: texts overlap: \"%2\" and \"%3\"")
                           .arg(who, t.text, texts[j].text);
        }
    }
    return out;
}

QStringList windowTextProblems(const QWidget* window) {
    QStringList out;
    const auto painters = window->findChildren<QWidget*>();
    for (const QWidget* w : painters) {
        const auto* source = dynamic_cast<const DrawnTextSource*>(w);
        if (!source || !w->isVisible()) continue;
        out << drawnTextProblems(w->objectName(), w->size(), source->drawnTexts());
    }
    const auto charts = window->findChildren<ChartView*>();
    for (const ChartView* v : charts) {
        if (!v->isVisible()) continue;
        if (!insideParents(v, window))
            out << QStringLiteral("%1: the chart (%2 x %3 px) runs outside the window")
                       .arg(chartName(v))
                       .arg(v->width())
                       .arg(v->height());
        out << chartTextProblems(v);
    }
    const auto labels = window->findChildren<QLabel*>();
    for (const QLabel* l : labels) {
        if (!l->isVisible() || l->wordWrap() || l->text().isEmpty() || l->width() <= 0) continue;
        if (l->sizeHint().width() > l->width() + 1)
            out << QStringLiteral("label clipped (%1 of %2 px): \"%3\"")
                       .arg(l->width())
                       .arg(l->sizeHint().width())
                       .arg(plainChartText(l->text()).simplified());
    }
    const auto buttons = window->findChildren<QAbstractButton*>();
    for (const QAbstractButton* b : buttons) {
        if (!b->isVisible() || b->text().isEmpty()) continue;
        if (b->sizeHint().width() > b->width() + 1)
            out << QStringLiteral("button clipped (%1 of %2 px): \"%3\"")
                       .arg(b->width())
                       .arg(b->sizeHint().width())
                       .arg(b->text());
    }
    const auto tables = window->findChildren<QTableView*>();
    for (const QTableView* t : tables) {
        if (!t->isVisible() || !t->model()) continue;
        for (int c = 0; c < t->model()->columnCount(); ++c) {
            if (t->isColumnHidden(c)) continue;
            const int need = std::max(
                t->horizontalHeader()->isVisible() ? t->horizontalHeader()->sectionSizeHint(c) : 0,
                static_cast<const QAbstractItemView*>(t)->sizeHintForColumn(c));
            if (need > t->columnWidth(c) + 1)
                out << QStringLiteral("table column clipped (%1 of %2 px): \"%3\"")
                           .arg(t->columnWidth(c))
                           .arg(need)
                           .arg(t->model()->headerData(c, Qt::Horizontal).toString());
        }
    }
    const auto combos = window->findChildren<QComboBox*>();
    for (const QComboBox* c : combos) {
        if (!c->isVisible() || c->currentText().isEmpty()) continue;
        QStyleOptionComboBox opt;
        opt.initFrom(c);
        opt.editable = c->isEditable();
        const QRect field =
            c->style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, c);
        const int need = c->fontMetrics().horizontalAdvance(c->currentText());
        if (need > field.width())
            out << QStringLiteral("combo box clipped (%1 of %2 px): \"%3\"")
                       .arg(field.width())
                       .arg(need)
                       .arg(c->currentText());
    }
    return out;
}

}  // namespace tandem::ui
