#include "chart_view.h"

#include <QAbstractAxis>
#include <QAreaSeries>
#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBuffer>
#include <QChart>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QValueAxis>
#include <QXYSeries>

#include "palette.h"
#include "save_file.h"

namespace tandem::ui {

QString csvField(QString s) {
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n'))) {
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
            lines << (a->orientation() == Qt::Horizontal ? QObject::tr("x: %1") : QObject::tr("y: %1"))
                         .arg(plainChartText(a->titleText()).replace(QLatin1Char('\n'), QLatin1Char(' ')));
    return lines.join(QLatin1Char('\n'));
}
QString axisTitle(const QChart* chart, Qt::Orientation o, const QString& fallback) {
    const auto axes = chart->axes(o);
    if (axes.isEmpty() || axes.front()->titleText().isEmpty()) return fallback;
    return plainChartText(axes.front()->titleText()).replace(QLatin1Char('\n'), QLatin1Char(' '));
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
    setMinimumSize(280, 200);
    setToolTip(tr("Right-click to export this chart (PNG, SVG, PDF) or its data (CSV)."));
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

void ChartView::applyTheme() { styleChart(chart(), currentTheme()); }

QAreaSeries* ChartView::addAreaSeries(QAbstractAxis* x, QAbstractAxis* y) {
    auto* upper = new QLineSeries(this);
    auto* lower = new QLineSeries(this);
    auto* area = new QAreaSeries(upper, lower);
    area->setParent(this);
    chart()->addSeries(area);
    area->attachAxis(x);
    area->attachAxis(y);
    return area;
}

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
        } else if (auto* bars = qobject_cast<QAbstractBarSeries*>(s)) {
            QStringList categories;
            for (QAbstractAxis* a : bars->attachedAxes())
                if (auto* cat = qobject_cast<QBarCategoryAxis*>(a)) categories = cat->categories();
            const auto sets = bars->barSets();
            for (QBarSet* set : sets)
                for (int i = 0; i < set->count(); ++i)
                    out += QStringLiteral("%1,%2,%3\n")
                               .arg(csvField(set->label()),
                                    csvField(i < categories.size() ? categories[i] : QString::number(i)),
                                    QString::number(set->at(i), 'g', 10));
        }
    }
    return out;
}

void ChartView::setFittingTitle(const QStringList& titles) {
    m_titles = titles;
    applyFittingTitle();
}

void ChartView::applyFittingTitle() {
    if (m_titles.isEmpty()) return;
    const QFontMetrics fm(chart()->titleFont());
    const int room = width() - 24;  // the chart's side margins
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
}

void ChartView::mousePressEvent(QMouseEvent* event) {
    emit activated(this);
    QChartView::mousePressEvent(event);
}

void ChartView::contextMenuEvent(QContextMenuEvent* event) {
    emit activated(this);
    QMenu menu(this);
    const struct {
        const char* label;
        const char* filter;
        const char* suffix;
    } kinds[] = {{"Export chart as PNG...", "PNG image (*.png)", ".png"},
                 {"Export chart as SVG...", "SVG image (*.svg)", ".svg"},
                 {"Export chart as PDF...", "PDF document (*.pdf)", ".pdf"},
                 {"Export data as CSV...", "CSV table (*.csv)", ".csv"}};
    for (const auto& k : kinds) {
        const QString filter = tr(k.filter);
        const QString suffix = QString::fromLatin1(k.suffix);
        menu.addAction(tr(k.label), this, [this, filter, suffix]() {
            const QString path = QFileDialog::getSaveFileName(this, tr("Export"), m_exportName + suffix, filter);
            if (path.isEmpty()) return;
            QString error;
            if (!exportChart(this, path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
        });
    }
    menu.exec(event->globalPos());
}

bool exportChart(ChartView* view, const QString& path, QString* error, QSize size) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (size.isValid() && size != view->size()) {
        view->resize(size);
        QApplication::processEvents();
    }
    const QSize sz = view->size();
    // Rendered into memory first, then written through fileio::writeFileAtomic: the encoders
    // (QImage, QSvgGenerator, QPdfWriter) do not report a failed write to their device.
    QByteArray bytes;
    QBuffer file(&bytes);
    file.open(QIODevice::WriteOnly);
    if (suffix == QLatin1String("csv")) {
        bytes = view->csv().toUtf8();
    } else if (suffix == QLatin1String("png")) {
        const qreal dpr = 2.0;  // crisp on slides and high-DPI screens
        QImage image(sz * dpr, QImage::Format_ARGB32_Premultiplied);
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
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator gen;
        gen.setOutputDevice(&file);
        gen.setSize(sz);
        gen.setViewBox(QRect(QPoint(0, 0), sz));
        // SVG metadata is plain text: a rich-text title (<br>, <small>) is converted here, and
        // escaped once for XML (QSvgGenerator writes both strings verbatim).
        gen.setTitle(plainChartTitle(view->chart()->title()).toHtmlEscaped());
        gen.setDescription(chartDescription(view->chart()).toHtmlEscaped());
        QPainter painter(&gen);
        view->render(&painter, QRectF(QPointF(0, 0), QSizeF(sz)), view->viewport()->rect());
        painter.end();
    } else if (suffix == QLatin1String("pdf")) {
        QPdfWriter pdf(&file);
        pdf.setPageSize(QPageSize(QSizeF(sz), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(72);
        pdf.setTitle(plainChartTitle(view->chart()->title()));
        pdf.setCreator(QStringLiteral("Tandem"));
        QPainter painter(&pdf);
        view->render(&painter, QRectF(QPointF(0, 0), QSizeF(sz)), view->viewport()->rect());
        painter.end();
    } else {
        if (error) *error = QObject::tr("unknown export format '.%1' (use .png, .svg, .pdf or .csv)").arg(suffix);
        return false;
    }
    file.close();
    return fileio::writeFileAtomic(path, bytes, error);
}

}  // namespace tandem::ui
