// Exporting a chart: the export formats, ChartView's export menu and default CSV data, and
// the writers of PNG, SVG, PDF and CSV files.
#include "ui/widgets/chart_export.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QApplication>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBuffer>
#include <QChart>
#include <QContextMenuEvent>
#include <QCoreApplication>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QImage>
#include <QLineSeries>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>
#include <QSet>
#include <QSvgGenerator>
#include <QXYSeries>
#include <cmath>
#include <limits>

#include "save_file.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/export_dialog.h"
#include "ui/widgets/file_dialog.h"
#include "ui/widgets/palette.h"

namespace tandem::ui {

QString csvField(QString s) {
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) ||
        s.contains(QLatin1Char('\n'))) {
        s.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + s + QLatin1Char('"');
    }
    return s;
}

namespace {
/// The SVG <desc>/PDF subject of `chart`: its title, then each axis title, as plain text lines.
QString chartDescription(const QChart* chart) {
    QStringList lines = plainChartText(chart->title()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const auto axes = chart->axes();
    for (const QAbstractAxis* a : axes)
        if (a->isVisible() && !a->titleText().isEmpty())
            lines << (a->orientation() == Qt::Horizontal ? QObject::tr("x: %1")
                                                         : QObject::tr("y: %1"))
                         .arg(plainChartText(a->titleText())
                                  .replace(QLatin1Char('\n'), QLatin1Char(' ')));
    return lines.join(QLatin1Char('\n'));
}

/// The title of `chart`'s first `o` axis as one plain line; `fallback` when it has none.
QString axisTitle(const QChart* chart, Qt::Orientation o, const QString& fallback) {
    const auto axes = chart->axes(o);
    if (axes.isEmpty() || axes.front()->titleText().isEmpty()) return fallback;
    return plainChartText(axes.front()->titleText()).replace(QLatin1Char('\n'), QLatin1Char(' '));
}
}  // namespace

QString ChartView::csv() const {
    const QChart* c = chart();
    QString out = QStringLiteral("series,%1,%2\n")
                      .arg(csvField(axisTitle(c, Qt::Horizontal, QStringLiteral("x"))),
                           csvField(axisTitle(c, Qt::Vertical, QStringLiteral("y"))));
    const auto series = c->series();
    for (QAbstractSeries* s : series) {
        if (auto* xy = qobject_cast<QXYSeries*>(s)) {
            const auto pts = xy->points();
            for (const QPointF& p : pts)
                out += QStringLiteral("%1,%2,%3\n")
                           .arg(csvField(xy->name()), QString::number(p.x(), 'g', 10),
                                QString::number(p.y(), 'g', 10));
        } else if (auto* area = qobject_cast<QAreaSeries*>(s); area && area->isVisible()) {
            // An area's values are its upper edge (the lower one is its base line).
            const auto pts = area->upperSeries()->points();
            for (const QPointF& p : pts)
                out += QStringLiteral("%1,%2,%3\n")
                           .arg(csvField(area->name()), QString::number(p.x(), 'g', 10),
                                QString::number(p.y(), 'g', 10));
        } else if (auto* bars = qobject_cast<QAbstractBarSeries*>(s)) {
            QStringList categories;
            for (QAbstractAxis* a : bars->attachedAxes())
                if (auto* cat = qobject_cast<QBarCategoryAxis*>(a)) categories = cat->categories();
            const auto sets = bars->barSets();
            for (QBarSet* set : sets)
                for (int i = 0; i < set->count(); ++i)
                    out += QStringLiteral("%1,%2,%3\n")
                               .arg(csvField(set->label()),
                                    csvField(i < categories.size() ? categories[i]
                                                                   : QString::number(i)),
                                    QString::number(set->at(i), 'g', 10));
        }
    }
    return out;
}

void ChartView::contextMenuEvent(QContextMenuEvent* event) {
    emit activated(this);
    QMenu menu(this);
    addViewActions(&menu);
    for (const ExportFormatInfo& k : exportFormats()) {
        const QString filter = tr(k.filter);
        const QString suffix = QLatin1Char('.') + QString::fromLatin1(k.suffix);
        const bool picture = k.format != ExportFormat::Csv;
        menu.addAction(tr(k.menuLabel), this, [this, filter, suffix, picture]() {
            QSize size;
            qreal ratio = 2.0;
            bool light = false;
            if (picture) {  // pictures: size, resolution and theme first
                ExportDialog d(this->size(), this);
                if (d.exec() != QDialog::Accepted) return;
                size = d.layoutSize();
                ratio = d.pixelRatio();
                light = !d.keepCurrentTheme();
            }
            const QString folder = ExportDialog::lastFolder();
            const QString start = folder.isEmpty()
                                      ? m_exportName + suffix
                                      : folder + QLatin1Char('/') + m_exportName + suffix;
            const QString path = saveFileName(this, tr("Export"), start, filter);
            if (path.isEmpty()) return;
            ExportDialog::rememberFolder(path);
            QString error;
            const bool ok = light ? exportChartLight(this, path, &error, size, ratio)
                                  : exportChart(this, path, &error, size, ratio);
            if (!ok) QMessageBox::warning(this, tr("Export failed"), error);
        });
    }
    menu.exec(event->globalPos());
}

const std::vector<ExportFormatInfo>& exportFormats() {
    static const std::vector<ExportFormatInfo> formats = {
        {ExportFormat::Png, "png", QT_TRANSLATE_NOOP("ChartView", "PNG image (*.png)"),
         QT_TRANSLATE_NOOP("ChartView", "Export chart as PNG...")},
        {ExportFormat::Svg, "svg", QT_TRANSLATE_NOOP("ChartView", "SVG image (*.svg)"),
         QT_TRANSLATE_NOOP("ChartView", "Export chart as SVG...")},
        {ExportFormat::Pdf, "pdf", QT_TRANSLATE_NOOP("ChartView", "PDF document (*.pdf)"),
         QT_TRANSLATE_NOOP("ChartView", "Export chart as PDF...")},
        {ExportFormat::Csv, "csv", QT_TRANSLATE_NOOP("ChartView", "CSV data (*.csv)"),
         QT_TRANSLATE_NOOP("ChartView", "Export data as CSV...")}};
    return formats;
}

std::optional<ExportFormat> exportFormatOf(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    for (const ExportFormatInfo& f : exportFormats())
        if (suffix == QLatin1String(f.suffix)) return f.format;
    return std::nullopt;
}

QString exportFilters() {
    QStringList filters;
    for (const ExportFormatInfo& f : exportFormats())
        filters << QCoreApplication::translate("ChartView", f.filter);
    return filters.join(QStringLiteral(";;"));
}

namespace {

/// Every item below `root` (not `root` itself), parents before their children.
void collectItems(QGraphicsItem* root, QList<QGraphicsItem*>& out) {
    for (QGraphicsItem* c : root->childItems()) {
        out << c;
        collectItems(c, out);
    }
}

/// `item` and every item below it.
void addSubtree(QGraphicsItem* item, QSet<QGraphicsItem*>& out) {
    out.insert(item);
    for (QGraphicsItem* c : item->childItems()) addSubtree(c, out);
}

/// The ancestor of `item` that is a child of `chart` (`item` itself when it is one).
QGraphicsItem* chartChild(QGraphicsItem* item, QGraphicsItem* chart) {
    while (item->parentItem() && item->parentItem() != chart) item = item->parentItem();
    return item;
}

/// The items that draw `chart`'s series (with their children). Qt Charts gives a series' item
/// the series' opacity, so each visible series' opacity is set to a probe value for a moment
/// and the chart's items that take it are that series' items.
QSet<QGraphicsItem*> seriesItems(QChart* chart) {
    QList<QGraphicsItem*> all;
    collectItems(chart, all);
    QSet<QGraphicsItem*> out;
    for (QAbstractSeries* s : chart->series()) {
        if (!s->isVisible()) continue;
        const qreal was = s->opacity();
        const qreal probe = std::abs(was - 0.4321) < 1e-3 ? 0.1234 : 0.4321;
        s->setOpacity(probe);
        for (QGraphicsItem* it : all)
            if (std::abs(it->opacity() - probe) < 1e-9) addSubtree(it, out);
        s->setOpacity(was);
    }
    return out;
}

/// The chart's items in three layers for an SVG: what lies below the series (background, grid,
/// axes), the series, and what lies above them (items with a higher z than every series).
struct ChartLayers {
    QSet<QGraphicsItem*> below, series, above;
};

ChartLayers chartLayers(QChart* chart) {
    ChartLayers l;
    l.series = seriesItems(chart);
    qreal seriesZ = -std::numeric_limits<qreal>::infinity();
    for (QGraphicsItem* it : l.series) seriesZ = std::max(seriesZ, chartChild(it, chart)->zValue());
    QList<QGraphicsItem*> all;
    collectItems(chart, all);
    for (QGraphicsItem* it : all) {
        if (l.series.contains(it)) continue;
        (chartChild(it, chart)->zValue() > seriesZ ? l.above : l.below).insert(it);
    }
    return l;
}

/// Hides every item of `chart` that neither belongs to `shown` nor holds an item of it, for the
/// life of the object (each is shown again at the end).
class ShowOnly {
public:
    ShowOnly(QChart* chart, const QSet<QGraphicsItem*>& shown) {
        QList<QGraphicsItem*> all;
        collectItems(chart, all);
        QSet<QGraphicsItem*> keep = shown;
        for (QGraphicsItem* it : shown)
            for (QGraphicsItem* p = it->parentItem(); p && p != chart; p = p->parentItem())
                keep.insert(p);
        for (QGraphicsItem* it : all)
            if (!keep.contains(it) && it->isVisible()) {
                it->setVisible(false);
                m_hidden << it;
            }
    }
    ~ShowOnly() {
        for (QGraphicsItem* it : m_hidden) it->setVisible(true);
    }
    ShowOnly(const ShowOnly&) = delete;
    ShowOnly& operator=(const ShowOnly&) = delete;

private:
    QList<QGraphicsItem*> m_hidden;
};

/// The drawing of `view` (its viewport, `sz` layout pixels) as SVG text; title and description
/// as given (already XML-escaped).
QByteArray svgOf(ChartView* view, QSize sz, const QString& title, const QString& desc) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator gen;
    gen.setOutputDevice(&buffer);
    gen.setSize(sz);
    gen.setViewBox(QRect(QPoint(0, 0), sz));
    gen.setTitle(title);
    gen.setDescription(desc);
    QPainter painter(&gen);
    view->render(&painter, QRectF(QPointF(0, 0), QSizeF(sz)), view->viewport()->rect());
    painter.end();
    return bytes;
}

/// The drawing elements of an SVG written by QSvgGenerator: from its <defs> (after the title and
/// description) up to the closing </svg>.
QByteArray svgBody(const QByteArray& svg) {
    qsizetype from = svg.indexOf("<defs>");
    if (from < 0) from = svg.indexOf("</desc>") >= 0 ? svg.indexOf("</desc>") + 7 : 0;
    const qsizetype to = svg.lastIndexOf("</svg>");
    return svg.mid(from, (to < from ? svg.size() : to) - from);
}

}  // namespace

QByteArray chartSvg(ChartView* view, QSize sz, const QString& title, const QString& desc) {
    QChart* chart = view->chart();
    const ChartLayers layers = chartLayers(chart);
    // The plot area in the SVG's coordinates (those of the viewport, rendered 1:1).
    const QRectF plot =
        view->viewportTransform().map(chart->mapToScene(chart->plotArea())).boundingRect();
    const QBrush viewBrush = view->backgroundBrush(), sceneBrush = view->scene()->backgroundBrush();
    QByteArray below, series, above;
    {
        const ShowOnly only(chart, layers.below);
        view->m_foregroundOff = true;
        below = svgOf(view, sz, title, desc);
    }
    // The layers above the first draw no background of their own (it would cover the first).
    view->setBackgroundBrush(Qt::NoBrush);
    view->scene()->setBackgroundBrush(Qt::NoBrush);
    {
        const ShowOnly only(chart, layers.series);
        series = svgOf(view, sz, {}, {});
    }
    view->m_foregroundOff = false;
    {
        const ShowOnly only(chart, layers.above);
        above = svgOf(view, sz, {}, {});
    }
    view->setBackgroundBrush(viewBrush);
    view->scene()->setBackgroundBrush(sceneBrush);
    const qsizetype end = below.lastIndexOf("</svg>");
    QByteArray out = below.left(end < 0 ? below.size() : end);
    out += QStringLiteral(
               "<defs>\n<clipPath id=\"tandem-plot-area\">\n<rect x=\"%1\" y=\"%2\" "
               "width=\"%3\" height=\"%4\"/>\n</clipPath>\n</defs>\n")
               .arg(plot.x())
               .arg(plot.y())
               .arg(plot.width())
               .arg(plot.height())
               .toUtf8();
    out += "<g clip-path=\"url(#tandem-plot-area)\">\n" + svgBody(series) + "</g>\n";
    out += svgBody(above);
    out += "</svg>\n";
    return out;
}

bool exportChartLight(ChartView* view, const QString& path, QString* error, QSize size,
                      qreal pixelRatio) {
    const Theme theme = currentTheme();
    if (theme == Theme::Light) return exportChart(view, path, error, size, pixelRatio);
    setCurrentTheme(Theme::Light);
    view->applyTheme();
    const bool ok = exportChart(view, path, error, size, pixelRatio);
    setCurrentTheme(theme);
    view->applyTheme();
    view->ensureBuilt();
    return ok;
}

bool exportChart(ChartView* view, const QString& path, QString* error, QSize size,
                 qreal pixelRatio) {
    view->ensureBuilt();  // a chart on a page not in front may not be drawn yet
    const std::optional<ExportFormat> format = exportFormatOf(path);
    if (!format) {
        if (error)
            *error = QObject::tr("%1: unknown export format '.%2' (use .png, .svg, .pdf or .csv)")
                         .arg(path, QFileInfo(path).suffix());
        return false;
    }
    const QSize onScreen = view->size();
    struct Restore {  // the view gets its on-screen size (and texts) back however this returns
        ChartView* v;
        QSize s;
        ~Restore() {
            v->m_exporting = false;
            if (v->size() == s) return;
            v->resize(s);
            v->fitTexts();
        }
    } restore{view, onScreen};
    view->m_exporting = true;  // the export size does not change the on-screen minimum
    if (size.isValid() && size != view->size()) {
        view->resize(size);
        QApplication::processEvents();
    }
    for (int pass = 0; pass < 2; ++pass) {  // texts fitted to the export size, then laid out
        // (again at the export size when a layout still due gave the view its own size back)
        if (size.isValid() && size != view->size()) view->resize(size);
        view->fitTexts();
        QApplication::processEvents();
    }
    const QSize sz = view->size();
    // Rendered into memory first, then written through fileio::writeFileAtomic: the encoders
    // (QImage, QSvgGenerator, QPdfWriter) do not report a failed write to their device.
    QByteArray bytes;
    QBuffer file(&bytes);
    file.open(QIODevice::WriteOnly);
    if (*format == ExportFormat::Csv) {
        bytes = view->csv().toUtf8();
    } else if (*format == ExportFormat::Png) {
        const qreal dpr = pixelRatio > 0 ? pixelRatio : 2.0;
        QImage image(QSize(int(std::lround(sz.width() * dpr)), int(std::lround(sz.height() * dpr))),
                     QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        image.fill(view->chart()->backgroundBrush().color());
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        view->render(&painter, QRectF(QPointF(0, 0), QSizeF(sz)), view->viewport()->rect());
        painter.end();
        if (!image.save(&file, "PNG")) {
            if (error) *error = QObject::tr("%1: cannot encode PNG; nothing was written").arg(path);
            return false;
        }
    } else if (*format == ExportFormat::Svg) {
        // SVG metadata is plain text: a rich-text title (<br>, <small>) is converted here, and
        // escaped once for XML (QSvgGenerator writes both strings verbatim). The series are
        // clipped to the plot area (chartSvg), as on screen.
        bytes = chartSvg(view, sz, plainChartTitle(view->chart()->title()).toHtmlEscaped(),
                         chartDescription(view->chart()).toHtmlEscaped());
    } else {  // ExportFormat::Pdf
        QPdfWriter pdf(&file);
        pdf.setPageSize(QPageSize(QSizeF(sz), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(72);
        pdf.setTitle(plainChartTitle(view->chart()->title()));
        pdf.setCreator(QStringLiteral("Tandem"));
        QPainter painter(&pdf);
        view->render(&painter, QRectF(QPointF(0, 0), QSizeF(sz)), view->viewport()->rect());
        painter.end();
    }
    file.close();
    return fileio::writeFileAtomic(path, bytes, error);
}

}  // namespace tandem::ui
