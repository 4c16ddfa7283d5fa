#include "ui/widgets/chart_view.h"

#include <QAbstractAxis>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QChart>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHorizontalStackedBarSeries>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QPointer>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTextOption>
#include <QTimer>
#include <QValueAxis>
#include <QXYSeries>
#include <algorithm>
#include <cmath>
#include <utility>

#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

namespace {
/// `text` (plain or rich) unchanged when each of its lines fits `room` pixels in `fm`, else its
/// plain text word-wrapped into lines that fit (a single word wider than `room` keeps its own
/// line), joined by <br>.
QString wrapToRoom(const QString& text, const QFontMetrics& fm, int room) {
    const QStringList lines = plainChartText(text).split(QLatin1Char('\n'));
    bool fits = true;
    for (const QString& l : lines) fits = fits && fm.horizontalAdvance(l) <= room;
    if (fits || room <= 0) return text;
    QStringList out;
    for (const QString& line : lines) {
        QString cur;
        const QStringList words = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (const QString& w : words) {
            const QString next = cur.isEmpty() ? w : cur + QLatin1Char(' ') + w;
            if (!cur.isEmpty() && fm.horizontalAdvance(next) > room) {
                out << cur.toHtmlEscaped();
                cur = w;
            } else {
                cur = next;
            }
        }
        if (!cur.isEmpty()) out << cur.toHtmlEscaped();
    }
    return out.join(QLatin1String("<br>"));
}

/// `x` formatted as Qt Charts formats a value-axis label with printf-style `format`.
QString axisLabel(const QString& format, double x) {
    static const QRegularExpression conv(QStringLiteral("%[-+ #0]*\\d*(?:\\.\\d+)?([a-zA-Z])"));
    if (format.isEmpty()) return QString::number(x);
    const QRegularExpressionMatch m = conv.match(format);
    if (!m.hasMatch()) return format;
    const QChar c = m.captured(1).at(0);
    const QByteArray f = format.toLatin1();
    if (c == QLatin1Char('d') || c == QLatin1Char('i'))
        return QString::asprintf(f.constData(), int(std::lround(x)));
    return QString::asprintf(f.constData(), x);
}

/// Height of `html` in `font` as Qt Charts measures a chart text (document margin 0.5 px, no
/// wrapping), px.
qreal textHeight(const QFont& font, const QString& html) {
    QTextDocument doc;
    doc.setDocumentMargin(0.5);
    doc.setDefaultFont(font);
    doc.setHtml(html);
    return doc.size().height();
}

/// The smallest "round" step (1, 2, 2.5 or 5 times a power of ten) of at least `minStep`.
double roundStep(double minStep) {
    const double p = std::pow(10.0, std::floor(std::log10(minStep)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * p >= minStep * (1 - 1e-9)) return m * p;
    return 10 * p;
}

/// The legend symbol of a point marker `shape`, filled or open.
QString markerSymbol(QScatterSeries::MarkerShape shape, bool filled) {
    switch (shape) {
        case QScatterSeries::MarkerShapeRectangle:
            return filled ? QStringLiteral("\u25A0") : QStringLiteral("\u25A1");
        case QScatterSeries::MarkerShapeTriangle:
            return filled ? QStringLiteral("\u25B2") : QStringLiteral("\u25B3");
        case QScatterSeries::MarkerShapeRotatedRectangle:
            return filled ? QStringLiteral("\u25C6") : QStringLiteral("\u25C7");
        case QScatterSeries::MarkerShapeStar:
            return filled ? QStringLiteral("\u2605") : QStringLiteral("\u2606");
        case QScatterSeries::MarkerShapePentagon:
            return filled ? QStringLiteral("\u2B1F") : QStringLiteral("\u2B20");
        default:
            return filled ? QStringLiteral("\u25CF") : QStringLiteral("\u25CB");
    }
}

/// One legend entry as rich text: a symbol in the series' colour (line, dashes, dots, dash-dot,
/// each with its point marker when setPointMarker() gave it one; filled or open
/// dot/square/triangle/diamond/star; filled square for areas and bars) and the label.
QString legendEntryHtml(QLegendMarker* m, bool keepTogether) {
    QColor colour = m->brush().color();
    QString symbol = QStringLiteral("\u25A0");  // filled square
    if (const auto* sc = qobject_cast<const QScatterSeries*>(m->series())) {
        const bool filled = sc->brush().style() != Qt::NoBrush && sc->brush().color().alpha() > 0;
        colour = filled ? sc->brush().color() : sc->pen().color();
        symbol = markerSymbol(sc->markerShape(), filled);
    } else if (const auto* xy = qobject_cast<const QXYSeries*>(m->series())) {
        colour = xy->pen().color();
        const Qt::PenStyle st = xy->pen().style();
        symbol = st == Qt::SolidLine     ? QStringLiteral("\u2501\u2501")
                 : st == Qt::DotLine     ? QStringLiteral("\u2505\u2505")
                 : st == Qt::DashDotLine ? QStringLiteral("\u2501\u2505")
                                         : QStringLiteral("\u254D\u254D");
        const QVariant marker = xy->property("tandemMarker");
        if (marker.isValid())
            symbol += markerSymbol(static_cast<QScatterSeries::MarkerShape>(marker.toInt()), true);
    } else if (const auto* area = qobject_cast<const QAreaSeries*>(m->series())) {
        colour = area->brush().style() == Qt::NoBrush ? area->pen().color() : area->brush().color();
    }
    colour.setAlpha(255);
    QString label =
        plainChartText(m->label()).replace(QLatin1Char('\n'), QLatin1Char(' ')).toHtmlEscaped();
    if (keepTogether) label = unbroken(label);
    return QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
        .arg(colour.name(), symbol, label);
}
}  // namespace

QString plainChartText(const QString& text) {
    if (!Qt::mightBeRichText(text)) return text;
    // toPlainText() keeps <br> as U+2028 and paragraphs as U+2029; both become line breaks.
    QString plain = QTextDocumentFragment::fromHtml(text).toPlainText();
    plain.replace(QChar(0x2028), QLatin1Char('\n')).replace(QChar(0x2029), QLatin1Char('\n'));
    plain.replace(QChar::Nbsp, QLatin1Char(' '));
    QStringList lines = plain.split(QLatin1Char('\n'));
    for (QString& l : lines) l = l.simplified();
    lines.removeAll(QString());
    return lines.join(QLatin1Char('\n'));
}

QString plainChartTitle(const QString& title) {
    const QString plain = plainChartText(title);
    return plain.left(plain.indexOf(QLatin1Char('\n')));
}

ChartView::ChartView(const QString& exportName, const QString& title, QWidget* parent)
    : QChartView(new QChart(), parent), m_exportName(exportName) {
    chart()->setTitle(title);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    chart()->setAnimationOptions(QChart::NoAnimation);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(280, m_leastHeight);
    connect(scene(), &QGraphicsScene::changed, this, &ChartView::scheduleFit);
    setToolTip(
        tr("Hover for the values at the cursor, click to pin them; drag to zoom, Shift+drag or the "
           "middle button to pan, double-click or Esc to reset; right-click to export this chart "
           "(PNG, SVG, PDF) or its data (CSV)."));
    setMouseTracking(true);
    // A file dropped on a chart goes to the window (which opens or imports it).
    setAcceptDrops(false);
    viewport()->setAcceptDrops(false);
    setFocusPolicy(Qt::StrongFocus);
}

int ChartView::plotWidth() const {
    const int w = static_cast<int>(chart()->plotArea().width());
    return std::max(200, w > 0 ? w : width());
}

QStringList ChartView::legendEntries() const {
    QStringList out;
    if (!chart()->legend()->isVisible()) return out;
    const auto markers = chart()->legend()->markers();
    for (const QLegendMarker* m : markers)
        if (m->isVisible()) out << m->label();
    return out;
}

void ChartView::applyTheme() {
    styleChart(chart(), currentTheme());
    // Other fonts (presentation mode on or off): the texts' height is measured afresh.
    if (m_fontScale != chartFontScale()) {
        m_fontScale = chartFontScale();
        m_textsHeight = 0;
        setMinimumHeight(m_leastHeight);
        scheduleFit();
    }
}

void ChartView::runRebuild() {
    m_rebuildPending = false;
    ++m_rebuildCount;
    rebuild();
    m_zoom.afterRebuild(chart());
}

void ChartView::requestRebuild() {
    if (RebuildBatch::open()) {
        m_rebuildPending = true;
        RebuildBatch::defer(this);
        return;
    }
    if (window()->isVisible() && !isVisible()) {
        m_rebuildPending = true;
        return;
    }
    runRebuild();
}

namespace {
int g_batchDepth = 0;
QList<QPointer<ChartView>> g_batched;
}  // namespace

RebuildBatch::RebuildBatch() { ++g_batchDepth; }

RebuildBatch::~RebuildBatch() {
    if (--g_batchDepth > 0) return;
    const QList<QPointer<ChartView>> views = std::exchange(g_batched, {});
    for (const QPointer<ChartView>& v : views) {
        // Drawn as requestRebuild would have: now when in view or off screen, else when shown.
        if (!v || !v->m_rebuildPending) continue;
        if (v->window()->isVisible() && !v->isVisible()) continue;
        v->runRebuild();
    }
}

bool RebuildBatch::open() { return g_batchDepth > 0; }

void RebuildBatch::defer(ChartView* view) {
    for (const QPointer<ChartView>& v : g_batched)
        if (v == view) return;
    g_batched.append(view);
}

void ChartView::ensureBuilt() {
    if (m_rebuildPending) runRebuild();
}

void ChartView::showEvent(QShowEvent* event) {
    ensureBuilt();
    QChartView::showEvent(event);
}

void ChartView::setEmptyReason(const QString& reason) {
    if (reason == m_emptyReason) return;
    m_emptyReason = reason;
    chart()->setVisible(reason.isEmpty());
    emptyReasonChanged();
    viewport()->update();
}

void ChartView::drawForeground(QPainter* painter, const QRectF& rect) {
    QChartView::drawForeground(painter, rect);
    if (m_foregroundOff) return;
    if (m_emptyReason.isEmpty()) {
        drawPinnedCurves(painter);  // part of the chart: exported too
        // An exported picture is the chart alone: no crosshair, read-out or pinned box.
        if (m_exporting) return;
        drawFocusMark(painter);
        if (!m_pinnedHover.isEmpty()) drawHover(painter, m_pinnedPos, m_pinnedHover, true);
        if (m_hoverPos.x() >= 0) {
            const HoverTable live = hoverAt(m_hoverPos);
            if (!live.isEmpty()) drawHover(painter, m_hoverPos, live, false);
        }
        return;
    }
    // In the enabled text colour: the reason is the page's content, to be read, even where the
    // workspace (a scenario without its section) is disabled and its greys would fade it out.
    painter->save();
    painter->setPen(palette().color(QPalette::Active, QPalette::WindowText));
    const QRectF box = mapToScene(viewport()->rect().adjusted(24, 24, -24, -24)).boundingRect();
    painter->drawText(box, Qt::AlignCenter | Qt::TextWordWrap, m_emptyReason);
    painter->restore();
}

void ChartView::setCaption(const QString& caption) {
    if (caption == m_caption) return;
    m_caption = caption;
    scheduleFit();
}

void ChartView::scheduleFit() {
    if (m_fitPending || m_fitting) return;
    m_fitPending = true;
    QTimer::singleShot(0, this, &ChartView::fitTexts);
}

void ChartView::setLeastHeight(int px) {
    m_leastHeight = px;
    setMinimumHeight(std::max(m_leastHeight, m_textsHeight));
}

void ChartView::setOneLineVerticalTitles(bool on) {
    m_oneLineVerticalTitles = on;
    scheduleFit();
}

int ChartView::textsHeight() const {
    const QChart* c = chart();
    // As Qt Charts lays a chart out: the title, then the plot between the horizontal axes, whose
    // labels and (wrapped) titles may take at most 40 % of the height under the title before
    // they are cut.
    const qreal title = c->title().isEmpty() ? 0 : textHeight(c->titleFont(), c->title()) + 1;
    qreal bottom = 0, top = 0;
    int bottoms = 0, tops = 0;
    const auto axes = c->axes(Qt::Horizontal);
    for (const QAbstractAxis* a : axes) {
        if (!a->isVisible()) continue;
        qreal h = 4;  // 1 px line, 3 px for the whole pixels Qt Charts rounds to
        if (a->labelsVisible()) h += textHeight(a->labelsFont(), QStringLiteral("0")) + 4;
        if (a->isTitleVisible() && !a->titleText().isEmpty())
            h += textHeight(a->titleFont(), a->titleText()) + 4;
        (a->alignment() == Qt::AlignTop ? top : bottom) += h;
        ++(a->alignment() == Qt::AlignTop ? tops : bottoms);
    }
    constexpr qreal kAxisShare = 0.4;   // Qt Charts' largest share of the axes
    constexpr qreal kLeastPlot = 50.0;  // px, room for a few grid lines
    qreal leastPlot = kLeastPlot;
    if (m_oneLineVerticalTitles) {
        // As fitAxis wraps a vertical title: to the plot's height less the text item's margins.
        constexpr int kTextItemMargins = 8;
        const auto verticals = c->axes(Qt::Vertical);
        for (const QAbstractAxis* a : verticals) {
            if (!a->isVisible() || !a->isTitleVisible() || a->titleText().isEmpty()) continue;
            const QVariant source = a->property("tandemTitleSource");
            const QString title =
                plainChartText(source.isValid() ? source.toString() : a->titleText())
                    .replace(QLatin1Char('\n'), QLatin1Char(' '));
            leastPlot =
                std::max<qreal>(leastPlot, QFontMetrics(a->titleFont()).horizontalAdvance(title) +
                                               kTextItemMargins + 1);
        }
    }
    qreal content = bottom + top + leastPlot;
    const int sides = bottoms + tops;
    if (bottoms > 0) content = std::max(content, bottom * sides / (kAxisShare * bottoms));
    if (tops > 0) content = std::max(content, top * sides / (kAxisShare * tops));
    const QMargins mg = c->margins();  // the legend's room included
    // A view whose text under the plot shortens to the room it is given (RealityView) names in
    // the property "tandemShrinkableBottom" (px) how much of the bottom margin its shortest
    // text would give back: the view needs the margin less that, not the room of the longer
    // text drawn while there is room.
    const int bottomMargin = mg.bottom() - std::max(0, property("tandemShrinkableBottom").toInt());
    qreal left = 0, above = 0, right = 0, below = 0;  // the layout's own (style) margins
    if (const QGraphicsLayout* l = c->layout())
        l->getContentsMargins(&left, &above, &right, &below);
    return int(std::ceil(above + below + mg.top() + bottomMargin + title + content)) +
           2 * frameWidth() + 2;
}

void ChartView::fitTexts() {
    if (m_fitting) return;
    m_fitting = true;
    m_fitPending = false;
    // Qt Charts lays a chart out on a posted event; here it is laid out at once before each
    // round, so that the texts are fitted to the geometry they are drawn in, and again after the
    // last change. A few rounds settle it (a wrapped title moves the plot, which may rewrap).
    QGraphicsLayout* layout = chart()->layout();
    for (int round = 0; round < 4; ++round) {
        if (layout) layout->activate();
        bool changed = fitTitle();
        const auto axes = chart()->axes();
        for (QAbstractAxis* a : axes) changed = fitAxis(a) || changed;
        changed = fitLegend() || changed;
        if (!changed) break;
    }
    if (layout) layout->activate();
    // What the texts need may have grown (a wrapped title, a taller legend): the splitter or
    // layout holding the view gives it at least that from now on. It is only raised, so that a
    // view resized by hand (an export at another size) is not laid out again under its caller;
    // a hidden view has no width of its own yet.
    const bool laidOut = isVisible() && width() >= minimumWidth() && !m_exporting;
    const int needed = laidOut ? textsHeight() : 0;
    if (needed > m_textsHeight) {
        m_textsHeight = needed;
        setMinimumHeight(std::max(m_leastHeight, m_textsHeight));
    }
    m_fitting = false;
}

bool ChartView::fitTitle() {
    const QString current = chart()->title();
    if (current != m_titleWrapped) m_titleSource = current;
    const QMargins mg = chart()->margins();
    const int titleRoom = width() - mg.left() - mg.right() - 20;  // the chart's layout spacing
    const QString wrapped =
        wrapToRoom(m_titleSource, QFontMetrics(chart()->titleFont()), titleRoom);
    m_titleWrapped = wrapped;
    if (wrapped == current) return false;
    chart()->setTitle(wrapped);
    return true;
}

bool ChartView::fitAxis(QAbstractAxis* axis) {
    const QRectF plot = chart()->plotArea();
    if (!axis->isVisible() || plot.width() <= 0 || plot.height() <= 0) return false;
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    // The title: wrapped to the plot's side it runs along, less the margins of Qt Charts' text
    // item on either side (a title a few pixels short of the plot's side was elided).
    const QString current = axis->titleText();
    if (current != axis->property("tandemTitleWrapped").toString())
        axis->setProperty("tandemTitleSource", current);
    const QString source = axis->property("tandemTitleSource").toString();
    const int kTextItemMargins = 8;
    const QString wrapped =
        wrapToRoom(source, QFontMetrics(axis->titleFont()),
                   int(horizontal ? plot.width() : plot.height()) - kTextItemMargins);
    const bool retitled = wrapped != current;
    if (retitled) axis->setTitleText(wrapped);
    axis->setProperty("tandemTitleWrapped", wrapped);
    // The tick labels of a horizontal value axis: as many round-numbered ticks as fit side by side.
    auto* v = qobject_cast<QValueAxis*>(axis);
    if (!v || !horizontal || !v->labelsVisible()) return retitled;
    const bool ours = v->property(kThinnedTicksProperty).isValid();
    if (v->tickType() == QValueAxis::TicksDynamic && !ours) {
        // The view's own round ticks (setNiceRange): where their labels do not fit side by side,
        // every 2nd, 5th, 10th... of them (the same label format still shows them exactly).
        const double interval = v->tickInterval(), lo = v->min(), hi = v->max();
        if (!(interval > 0) || !(hi > lo)) return retitled;
        const QFontMetrics fm(v->labelsFont());
        int widest = 0;
        for (double x : {lo, hi, 0.5 * (lo + hi)})
            widest = std::max(widest, fm.horizontalAdvance(axisLabel(v->labelFormat(), x)));
        const int fit = std::max(1, int(plot.width() / (widest + 8)));
        double step = interval;
        for (double k : {2.0, 5.0, 10.0, 20.0, 50.0, 100.0}) {
            if ((hi - lo) / step <= fit + 1e-9) break;
            step = interval * k;
        }
        if (step == interval) return retitled;
        v->setTickInterval(step);
        return true;
    }
    const int wanted = ours ? v->property(kThinnedTicksProperty).toInt() : v->tickCount();
    const double lo = v->min(), hi = v->max();
    if (!(hi > lo) || wanted < 2) return retitled;
    const QFontMetrics fm(v->labelsFont());
    int widest = 0;
    for (double x : {lo, hi, 0.5 * (lo + hi), lo + (hi - lo) / (wanted - 1)})
        widest = std::max(widest, fm.horizontalAdvance(axisLabel(v->labelFormat(), x)));
    const int intervals = std::max(1, int(plot.width() / (widest + 8)));
    if (wanted - 1 <= intervals) {
        if (!ours) return retitled;
        v->setTickType(QValueAxis::TicksFixed);
        v->setTickCount(wanted);
        v->setProperty(kThinnedTicksProperty, QVariant());
        return true;
    }
    const double step = roundStep((hi - lo) / intervals);
    // + 0.0: a ceil of a tiny negative ratio is -0, whose tick would read "-0".
    const double anchor = std::ceil(lo / step - 1e-9) * step + 0.0;
    if (!ours) v->setProperty(kThinnedTicksProperty, wanted);
    bool changed = retitled;
    if (v->tickType() != QValueAxis::TicksDynamic) {
        v->setTickType(QValueAxis::TicksDynamic);
        changed = true;
    }
    if (v->tickInterval() != step) {
        v->setTickInterval(step);
        changed = true;
    }
    if (v->tickAnchor() != anchor) {
        v->setTickAnchor(anchor);
        changed = true;
    }
    return changed;
}

bool ChartView::fitLegend() {
    QLegend* legend = chart()->legend();
    if (legend->isAttachedToChart()) legend->detachFromChart();
    if (legend->opacity() != 0.0) legend->setOpacity(0.0);  // drawn by m_legendText instead
    if (!m_legendText) {
        m_legendText = new QGraphicsTextItem(chart());
        m_legendText->setObjectName(QStringLiteral("legendText"));
        m_legendText->setZValue(10);
        QTextOption centred = m_legendText->document()->defaultTextOption();
        centred.setAlignment(Qt::AlignHCenter);
        m_legendText->document()->setDefaultTextOption(centred);
        m_legendText->document()->setDocumentMargin(2);
    }
    const int room = std::max(100, width() - 16);
    const QFontMetrics fm(legend->font());
    QStringList entries;
    if (legend->isVisible()) {
        const auto markers = legend->markers();
        for (QLegendMarker* m : markers) {
            if (!m->isVisible() || m->label().isEmpty()) continue;
            const bool fits = fm.horizontalAdvance(m->label()) + 3 * fm.height() < room;
            entries << legendEntryHtml(m, fits);
        }
    }
    if (!m_pinnedCurves.isEmpty())
        entries << QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
                       .arg(palette().color(QPalette::WindowText).name(),
                            QStringLiteral("\u254D\u254D"), unbroken(tr("pinned")));
    QString html = entries.isEmpty()
                       ? QString()
                       : QStringLiteral("<span style=\"color:%1\">%2</span>")
                             .arg(legend->labelColor().name(),
                                  entries.join(QStringLiteral("&nbsp;&nbsp;&nbsp; ")));
    if (!m_caption.isEmpty())
        html = QStringLiteral("<p style=\"color:%1; margin-bottom:3px\">%2</p>%3")
                   .arg(legend->labelColor().name(), m_caption.toHtmlEscaped(), html);
    if (m_legendText->font() != legend->font()) m_legendText->setFont(legend->font());
    if (m_legendText->textWidth() != room) m_legendText->setTextWidth(room);
    if (m_legendText->property("html").toString() != html) {
        m_legendText->setHtml(html);
        m_legendText->setProperty("html", html);
    }
    m_legendText->setVisible(!html.isEmpty());
    const int height =
        html.isEmpty() ? 0 : int(std::ceil(m_legendText->document()->size().height()));
    const QMargins current = chart()->margins();
    const QMargins base =
        current == m_appliedMargins ? current - QMargins(0, 0, 0, m_legendRoom) : current;
    const QMargins next = base + QMargins(0, 0, 0, height);
    const bool changed = next != current;
    if (changed) chart()->setMargins(next);
    m_appliedMargins = next;
    m_legendRoom = height;
    const QPointF pos((chart()->size().width() - room) / 2.0,
                      chart()->size().height() - base.bottom() - height);
    if (m_legendText->pos() != pos) m_legendText->setPos(pos);
    return changed;
}

void ChartView::paintEvent(QPaintEvent* event) {
    // The texts are fitted before they are drawn: the first frame (and a screenshot) never shows
    // a title Qt Charts elided or a legend over an axis title while a fit is still queued.
    const QGraphicsLayout* layout = chart()->layout();
    if (m_fitPending || (layout && !layout->isActivated())) fitTexts();
    QChartView::paintEvent(event);
}

void setPointMarker(QXYSeries* series, QScatterSeries::MarkerShape shape, const QColor& colour,
                    qreal size) {
    constexpr int kSide = 48;  // px of the image, scaled down to `size` when drawn
    QImage image(kSide, kSide, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    const qreal c = kSide / 2.0, r = kSide / 2.0 - 1;
    QPolygonF poly;
    switch (shape) {
        case QScatterSeries::MarkerShapeRectangle:
            p.drawRect(QRectF(c - 0.8 * r, c - 0.8 * r, 1.6 * r, 1.6 * r));
            break;
        case QScatterSeries::MarkerShapeTriangle:
            poly << QPointF(c, c - r) << QPointF(c + r, c + 0.8 * r) << QPointF(c - r, c + 0.8 * r);
            break;
        case QScatterSeries::MarkerShapeRotatedRectangle:
            poly << QPointF(c, c - r) << QPointF(c + r, c) << QPointF(c, c + r)
                 << QPointF(c - r, c);
            break;
        case QScatterSeries::MarkerShapeStar:
            for (int k = 0; k < 10; ++k) {
                const double a = M_PI * (k / 5.0 - 0.5);
                const qreal rk = k % 2 ? 0.45 * r : r;
                poly << QPointF(c + rk * std::cos(a), c + rk * std::sin(a));
            }
            break;
        default:
            p.drawEllipse(QPointF(c, c), 0.85 * r, 0.85 * r);
            break;
    }
    if (!poly.isEmpty()) p.drawPolygon(poly);
    p.end();
    series->setLightMarker(image);
    series->setMarkerSize(size);
    series->setProperty("tandemMarker", static_cast<int>(shape));
}

ChartView::HorizontalBars ChartView::addHorizontalBars(double barWidth) {
    auto* series = new QHorizontalStackedBarSeries(this);
    series->setBarWidth(barWidth);
    chart()->addSeries(series);
    auto* categories = new QBarCategoryAxis(this);
    auto* value = new QValueAxis(this);
    chart()->addAxis(categories, Qt::AlignLeft);
    chart()->addAxis(value, Qt::AlignBottom);
    series->attachAxis(categories);
    series->attachAxis(value);
    return {series, categories, value};
}

QAreaSeries* ChartView::addAreaSeries(QAbstractAxis* x, QAbstractAxis* y) {
    auto* upper = new QLineSeries(this);
    auto* lower = new QLineSeries(this);
    auto* area = new QAreaSeries(upper, lower);
    area->setParent(this);
    return addSeriesOnAxes(chart(), area, x, y);
}

void ChartView::setFittingTitle(const QStringList& titles) {
    m_titles = titles;
    applyFittingTitle();
}

void ChartView::applyFittingTitle() {
    if (m_titles.isEmpty()) return;
    const QFontMetrics fm(chart()->titleFont());
    const QMargins mg = chart()->margins();
    const int room = width() - mg.left() - mg.right() - 20;  // the chart's layout spacing
    QString pick = m_titles.back();
    for (const QString& t : m_titles)
        if (fm.horizontalAdvance(t) <= room) {
            pick = t;
            break;
        }
    if (chart()->title() != pick) chart()->setTitle(pick);
}

void ChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    applyFittingTitle();
    scheduleFit();
}

}  // namespace tandem::ui
