#pragma once
// Exporting a chart: the formats (PNG, SVG, PDF, CSV), CSV fields, and exportChart(), which
// writes a ChartView's picture or data to a file.
#include <QByteArray>
#include <QSize>
#include <QString>
#include <QtGlobal>
#include <optional>
#include <vector>

namespace tandem::ui {

class ChartView;

/// One CSV field (RFC 4180): quoted, with inner quotes doubled, when it holds a comma, a quote or
/// a line break; otherwise unchanged.
QString csvField(QString s);

/// What a chart exports to: a picture (PNG raster, SVG or PDF vector) or its data (CSV).
enum class ExportFormat { Png, Svg, Pdf, Csv };
/// One export format: its file suffix (lower case, no dot), the save dialog's filter and the
/// chart menu's entry (both untranslated, for tr()).
struct ExportFormatInfo {
    ExportFormat format;
    const char* suffix;
    const char* filter;
    const char* menuLabel;
};
/// Every export format, in menu order (PNG, SVG, PDF, CSV).
const std::vector<ExportFormatInfo>& exportFormats();
/// The format of `path`'s suffix (case-insensitive); nullopt for any other suffix.
std::optional<ExportFormat> exportFormatOf(const QString& path);
/// Every format's filter joined for a save dialog, "PNG image (*.png);;...;;CSV data (*.csv)".
QString exportFilters();

/// Writes `view`'s chart to `path`; format from the suffix (exportFormatOf): .png, .svg, .pdf
/// or .csv.
/// `size` (layout pixels, for PNG/SVG/PDF) defaults to the view's size; the view is laid out at
/// it for the export and given its size back afterwards. A PNG has `size` x `pixelRatio`
/// pixels (ExportDialog: DPI / 96); SVG and PDF are vectors. Returns false and sets `error`.
/// SVG metadata is plain text: <title> is plainChartTitle(chart title), <desc> the whole plain
/// title followed by "x: <axis title>" / "y: <axis title>" lines, both XML-escaped once (the file
/// is well-formed XML whatever the title holds); a PDF gets the same title.
bool exportChart(ChartView* view, const QString& path, QString* error, QSize size = {},
                 qreal pixelRatio = 2.0);

/// exportChart() with the chart drawn in the light theme while the window is dark (the theme
/// and the chart's colours are given back afterwards); the same as exportChart() when light.
bool exportChartLight(ChartView* view, const QString& path, QString* error, QSize size = {},
                      qreal pixelRatio = 2.0);

/// `view`'s drawing (its viewport as it is laid out now, `size` layout pixels) as SVG text, in
/// three layers: what lies below the series (background, grid, axes, titles, legend), the
/// series inside a group clipped to the plot area (clipPath "tandem-plot-area"; QSvgGenerator
/// drops a painter's clip, so without it a curve above the axis range runs into the title), and
/// the items drawn above the series. No hover read-out, pinned box or crosshair. `title` and
/// `description` become <title> and <desc> as given (XML-escaped by the caller).
QByteArray chartSvg(ChartView* view, QSize size, const QString& title, const QString& description);

}  // namespace tandem::ui
