#pragma once
// A chart view with export (PNG/SVG/PDF/CSV) on its context menu, used by every workspace chart.
// The export formats and writers are in widgets/chart_export.h.
#include <QChartView>
#include <QScatterSeries>
#include <QString>

#include "ui/widgets/chart_zoom.h"
#include "ui/widgets/hover.h"
#include "ui/widgets/units.h"

class QAreaSeries;
class QAbstractAxis;
class QBarCategoryAxis;
class QHorizontalStackedBarSeries;
class QGraphicsTextItem;
class QMenu;
class QRubberBand;
class QValueAxis;
class QXYSeries;

namespace tandem::ui {

/// `rect` where it intersects none of `avoid` and lies inside `screen` (empty: anywhere):
/// `rect` itself when it does, else moved under, above, right of or left of all of `avoid`
/// (the first that fits), else `rect` unchanged. Global px; for the tooltip over read-outs.
QRect clearOf(const QRect& rect, const QList<QRect>& avoid, const QRect& screen);

/// QChartView with a stable export name (file stem, e.g. "mlforml-loss"), a context menu to
/// export the picture or the data, and helpers that keep series updates cheap.
class ChartView : public QChartView {
    Q_OBJECT
public:
    /// `exportName`: file stem for exports; `title`: chart title shown above the plot.
    ChartView(const QString& exportName, const QString& title, QWidget* parent = nullptr);

    QString exportName() const { return m_exportName; }
    /// Chart data as CSV (one row per point or bar; header first). Default: every series of
    /// the chart generically; views with richer data override it.
    virtual QString csv() const;
    /// Re-applies the current theme's colours (after a theme switch).
    virtual void applyTheme();
    /// Pixel width usable for decimation (at least 200).
    int plotWidth() const;
    /// The labels of the legend entries currently shown, in legend order (tests; empty when
    /// the legend is hidden).
    QStringList legendEntries() const;
    /// Makes every text fit the view now (done after each change of the scene and, when one is
    /// still due, before the view is painted), laying the chart out at once: the chart title and
    /// axis titles are word-wrapped to the room they have, a horizontal value axis gets fewer
    /// (round-numbered) ticks when its labels would not fit, and the legend is drawn as
    /// word-wrapped text under the plot, each entry a coloured symbol (line, dashes, dot,
    /// square, triangle, ring) and its full label, never elided.
    void fitTexts();
    /// Sets the chart title to the first of `titles` (plain text, longest first) whose width in
    /// the title font fits the view, else the last one (word-wrapped by fitTexts()); chosen again
    /// on every resize so that a narrow chart gets a shorter title instead of one elided with
    /// "...".
    void setFittingTitle(const QStringList& titles);
    /// Shows `reason` (plain text, centred, in the enabled text colour) instead of the chart,
    /// e.g. when the scenario has no section for this workspace, so that no stale data stays on
    /// screen; empty shows the chart.
    void setEmptyReason(const QString& reason);
    QString emptyReason() const { return m_emptyReason; }
    /// A one- or two-sentence caption (plain text) drawn under the plot above the legend,
    /// word-wrapped, in exports too; empty removes it.
    void setCaption(const QString& caption);
    QString caption() const { return m_caption; }
    /// The wrapped legend under the plot (tests; nullptr before the first fitTexts()).
    const QGraphicsTextItem* legendText() const { return m_legendText; }
    /// Draws now what a rebuild put off while the view was hidden (see requestRebuild); for
    /// exports, for readers of the drawn series (tests) and for views that depend on this one's
    /// drawing. No-op when nothing is pending.
    void ensureBuilt();
    /// True while a rebuild waits for the view to be shown or for a RebuildBatch to end.
    bool rebuildPending() const { return m_rebuildPending; }
    /// How many times rebuild() ran (tests: one redraw per change).
    int rebuildCount() const { return m_rebuildCount; }

    /// What the crosshair shows (chart_view_hover.cpp) with the cursor at `viewportPos`: by default
    /// hoverAtX() of the data x under the cursor when it is inside the plot area, else an empty
    /// table. Views whose x is not a value axis (the layout heatmap) override it.
    virtual HoverTable hoverAt(const QPoint& viewportPos) const;
    /// The crosshair's table at data x `x` (the model step, no display needed): the heading is
    /// the x axis title and `x`, the column title the y axis title, one row per visible named
    /// series that has a value at `x` (valuesAt: lines interpolated, markers within 1.5 % of the
    /// x axis span), each value with 4 significant digits (hoverValueText); an empty table when
    /// no series has a value there. Views add rows.
    virtual HoverTable hoverAtX(double x) const;
    /// The table pinned by a click (empty when none); a second click or Escape unpins it.
    const HoverTable& pinnedHover() const { return m_pinnedHover; }
    /// Pins (or with an empty table unpins) `table` at viewport position `at` (tests, clicks).
    void pinHover(const HoverTable& table, const QPoint& at);
    /// The boxes of the read-outs drawn now (the pinned one, then the live one at the cursor),
    /// viewport px; the view's tooltip is placed clear of them (clearOf).
    QList<QRect> readoutRects() const;

    /// Zoom and pan (every value axis, a logarithmic one in log space): a left drag draws a
    /// rubber band and zooms into it, Ctrl+wheel and + / - zoom about the cursor / centre, a
    /// middle or Shift+left drag and the arrow keys pan, and a double-click, Escape, 0 or the
    /// context menu's "Reset zoom" give the view's own ranges back. A redraw of the data keeps
    /// the zoom while it still overlaps the new data's ranges (ChartZoom::afterRebuild).
    bool isZoomed() const { return m_zoom.isZoomed(); }
    /// Zooms into the part of the plot under `rect` (viewport px), clipped to the plot; a side
    /// under 6 px leaves that orientation unzoomed.
    void zoomToViewportRect(const QRect& rect);
    /// Zooms in (`factor` > 1) or out about `at` (plot fractions: x 0 left..1 right, y 0
    /// bottom..1 top).
    void zoomBy(double factor, const QPointF& at);
    /// Pans by `dx`, `dy` plot fractions (positive: the data moves right / up).
    void panBy(double dx, double dy);
    void resetZoom();
    /// `viewportPos` in plot fractions (x 0 left..1 right, y 0 bottom..1 top).
    QPointF plotFraction(const QPoint& viewportPos) const;
    /// Whether the context menu offers "Logarithmic y axis" (views whose y spans decades turn it
    /// on and read logY() in rebuild()).
    void setLogYAvailable(bool available);
    bool logYAvailable() const { return m_logYAvailable; }
    /// The y axis drawn logarithmically (the view redraws; the zoom is reset).
    void setLogY(bool on);
    bool logY() const { return m_logY; }
    /// Holds the axes at the ranges they show now through every redraw (ChartZoom::lock), so
    /// that a slider's steps are seen on fixed axes; off (or Reset zoom) gives the view its own
    /// ranges back. The context menu's "Lock axes" (object name "lockAxes").
    void setAxesLocked(bool on);
    bool axesLocked() const { return m_zoom.isLocked(); }

    /// One curve of the chart kept by pinCurves(): its points in data coordinates and the
    /// axes it was drawn on (side and scale), drawn again under the live series as a dashed grey
    /// "pinned" curve until clearPinnedCurves().
    struct PinnedCurve {
        QString name;
        QList<QPointF> points;
        bool line = true;  ///< a line (dashed polyline) or markers (rings)
        Qt::Alignment xSide = Qt::AlignBottom, ySide = Qt::AlignLeft;
        bool xLog = false, yLog = false;
    };
    /// Keeps every visible line and scatter series as it is drawn now (drawing first what is
    /// pending) for comparison: later states are drawn over the pinned curves, which keep their
    /// data coordinates, so the view also keeps its time unit while a pin is held
    /// (stableTimeUnit).
    void pinCurves();
    void clearPinnedCurves();
    const QVector<PinnedCurve>& pinnedCurves() const { return m_pinnedCurves; }
    /// Whether the crosshair reads the chart at computed points only: the cursor's x is moved
    /// to the nearest x of a visible line's points before the values are read (views of sweeps,
    /// whose lines join computed samples).
    void setHoverSnapsToPoints(bool on) { m_hoverSnaps = on; }
    bool hoverSnapsToPoints() const { return m_hoverSnaps; }

    /// Adds the context menu's "Reset zoom" (object name "resetZoom", enabled while zoomed) and,
    /// where offered, the checkable "Logarithmic y axis" ("logY") to `menu`, then a separator.
    void addViewActions(QMenu* menu);

signals:
    /// The user clicked into this chart (the main window remembers it as the "current" chart).
    void activated(tandem::ui::ChartView* view);

protected:
    /// The draw step: turns the view's data into series, axes and texts. Views override it and
    /// call requestRebuild() whenever their data or options change.
    virtual void rebuild() {}
    /// Called when setEmptyReason changes the reason (views with widgets over the chart hide
    /// them while it is shown).
    virtual void emptyReasonChanged() {}
    /// Rebuilds now when the view is shown or its window is not (tests and exports drawing off
    /// screen); while the window is shown but the view is not (a page or workspace not in
    /// front), the rebuild waits until the view is shown or ensureBuilt() is called, so a
    /// slider redraws only the charts in view. Inside a RebuildBatch it only marks the view:
    /// the batch's end draws it once, however many setters asked.
    void requestRebuild();
    void showEvent(QShowEvent* event) override;
    /// A new empty QAreaSeries (upper and lower line series owned by it) added to the chart and
    /// attached to `x` and `y`; the caller fills and styles it. For pooled band and stack areas.
    QAreaSeries* addAreaSeries(QAbstractAxis* x, QAbstractAxis* y);
    /// The parts of a horizontal stacked bar chart, all on the chart: one bar per category of
    /// `categories` (left axis), lengths on `value` (bottom axis).
    struct HorizontalBars {
        QHorizontalStackedBarSeries* series;
        QBarCategoryAxis* categories;
        QValueAxis* value;
    };
    /// Adds a horizontal stacked bar series with bars `barWidth` (fraction of a category's height)
    /// wide on a new category axis (left) and value axis (bottom); the caller fills and styles
    /// them. For the bar views (first crossing, memory, step breakdown).
    HorizontalBars addHorizontalBars(double barWidth);
    void resizeEvent(QResizeEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    /// The view's tooltip (QEvent::ToolTip) is shown clear of the read-outs (readoutRects) and
    /// goes when the mouse moves.
    bool event(QEvent* event) override;
    /// The view's minimum size is 280 px wide and as tall as its texts have needed on screen
    /// (title, legend, caption, horizontal axes' labels and titles uncut, a plot of at least
    /// 50 px; raised by fitTexts(), not by an export), but at least `px` (default 200; a short
    /// chart such as one bar lowers it).
    void setLeastHeight(int px);
    /// `on`: the minimum height (setLeastHeight) also keeps the plot as tall as the widest
    /// vertical axis title is long on one line, so those titles never wrap (a page too short
    /// for it scrolls instead). Off by default: a short plot wraps them (fitTexts).
    void setOneLineVerticalTitles(bool on);
    /// A series value as the hover table prints it (default: 4 significant digits).
    virtual QString hoverValueText(double y) const;
    /// The time unit for a time axis spanning up to `maxSeconds` (chooseTimeUnit), except that
    /// the unit of the last call is kept while the user is comparing or dragging: curves are
    /// pinned, the axes are locked, or a mouse button is held (a slider being dragged), so that
    /// an axis does not switch between minutes and hours mid-drag.
    TimeUnit stableTimeUnit(double maxSeconds);

private:
    /// The zoom's share of the mouse and key events (chart_view_zoom.cpp); each returns whether
    /// it used the event.
    bool zoomPress(QMouseEvent* event);
    bool zoomMove(QMouseEvent* event);
    bool zoomRelease(QMouseEvent* event);
    bool zoomKey(QKeyEvent* event);
    /// A thin frame in the highlight colour round the view while it has the keyboard focus (not
    /// in exports).
    void drawFocusMark(QPainter* painter) const;
    /// Draws the crosshair at viewport x `x` and `table` in a box next to `at` (scene painter).
    void drawHover(QPainter* painter, const QPoint& at, const HoverTable& table, bool pinned) const;
    /// The text of a read-out (a pinned one says how to unpin it).
    QString hoverText(const HoverTable& table, bool pinned) const;
    /// The box (scene coordinates) drawHover draws `table` in for the cursor at `at`.
    QRectF hoverBoxAt(const QPoint& at, const HoverTable& table, bool pinned) const;
    /// Draws the pinned curves (dashed grey, clipped to the plot) on the current axes
    /// (chart_view_pin.cpp).
    void drawPinnedCurves(QPainter* painter) const;
    void applyFittingTitle();
    /// The height the chart needs for its texts as they are now, px.
    int textsHeight() const;
    void scheduleFit();
    /// The parts of fitTexts(); each returns whether it changed the chart (so that it is laid out
    /// and fitted again).
    bool fitTitle();
    bool fitLegend();
    bool fitAxis(QAbstractAxis* axis);
    QString m_exportName;
    QStringList m_titles;  ///< candidates of setFittingTitle (empty: title set directly)
    QString m_caption;
    QString m_emptyReason;
    QString m_titleSource;   ///< the title as the view set it (before wrapping)
    QString m_titleWrapped;  ///< what fitTexts() made of it
    QGraphicsTextItem* m_legendText = nullptr;
    QMargins m_appliedMargins;  ///< the chart margins fitTexts() set last (legend room included)
    int m_legendRoom = 0;       ///< height added to the bottom margin for the legend
    QPoint m_hoverPos{-1, -1};  ///< cursor in the viewport while it is over the plot, else (-1, -1)
    HoverTable m_pinnedHover;
    QPoint m_pinnedPos;
    int m_leastHeight = 200;               ///< px, the floor of the minimum height
    bool m_oneLineVerticalTitles = false;  ///< see setOneLineVerticalTitles
    int m_textsHeight = 0;                 ///< px, the most textsHeight() of a fit on screen
    bool m_exporting = false;              ///< exportChart() is rendering the view (resized or not)
    bool m_foregroundOff = false;  ///< exportChart()'s layer of series: nothing in the foreground
    friend bool exportChart(ChartView*, const QString&, QString*, QSize, qreal);
    friend QByteArray chartSvg(ChartView*, QSize, const QString&, const QString&);
    bool m_fitPending = false;
    bool m_fitting = false;
    bool m_rebuildPending = false;  ///< requestRebuild() not yet drawn
    int m_rebuildCount = 0;         ///< rebuild() runs so far
    void runRebuild();
    friend class RebuildBatch;
    double m_fontScale = 1.0;  ///< chartFontScale() of the last applyTheme()
    ChartZoom m_zoom;
    enum class Drag { None, Pressed, Band, Pan };
    Drag m_drag = Drag::None;
    QPoint m_pressPos;            ///< viewport px of the press (pan: of the last move)
    HoverTable m_pinBeforePress;  ///< the pinned table before a press that became a drag
    QPoint m_pinPosBeforePress;
    QRubberBand* m_band = nullptr;
    bool m_logYAvailable = false;
    bool m_logY = false;
    QVector<PinnedCurve> m_pinnedCurves;
    bool m_hoverSnaps = false;
    TimeUnit m_timeUnit{1, QStringLiteral("s"), QStringLiteral("s")};
    bool m_timeUnitChosen = false;
};

/// One redraw per change: while a batch lives (on the GUI thread), ChartView::requestRebuild
/// only marks its view; when the outermost batch ends, every marked view is drawn once, with
/// all the setters' values (MoeWorkspace::showResult sets a frontier's markers, cluster and
/// data; the network workspace's result sets the loss chart's curves and targets). Batches
/// nest; a view deleted meanwhile is skipped.
class RebuildBatch {
public:
    RebuildBatch();
    ~RebuildBatch();
    RebuildBatch(const RebuildBatch&) = delete;
    RebuildBatch& operator=(const RebuildBatch&) = delete;
    /// True while a batch is open.
    static bool open();
    /// Marks `view` for the end of the outermost batch.
    static void defer(ChartView* view);
};

/// Marks every point of `series` with a filled `shape` (circle, rectangle, triangle, rotated
/// rectangle or star, as QScatterSeries draws them) `size` px across in `colour`; the chart's
/// legend shows the shape after the series' line symbol.
void setPointMarker(QXYSeries* series, QScatterSeries::MarkerShape shape, const QColor& colour,
                    qreal size);

/// `text` (a chart or axis title, plain or Qt rich text such as "A<br><small>B</small>") as plain
/// text: tags dropped, entities decoded, each line trimmed, line breaks kept as '\n'. Plain text
/// is returned unchanged. Used for export metadata (SVG <title>/<desc>, PDF title).
QString plainChartText(const QString& text);
/// The first line of plainChartText(`title`): the SVG <title> / PDF title of an exported chart.
QString plainChartTitle(const QString& title);

}  // namespace tandem::ui
