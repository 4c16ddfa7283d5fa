// Projector and window habits of every chart (ChartView): rubber-band, wheel and key zoom, pan
// and reset, kept across a redraw while the zoom still overlaps the data; a log axis zooms in log
// space; the log-y toggle of the nccl-tests chart; the focus frame (never in an export); the
// export dialog remembers its size, DPI, folder and theme choice and exports light by default.
#include <QAction>
#include <QBarCategoryAxis>
#include <QCategoryAxis>
#include <QChart>
#include <QComboBox>
#include <QGraphicsTextItem>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QValueAxis>
#include <QtTest>
#include <cmath>

#include "common/diagnostics.h"
#include "io/nccl_tests.h"
#include "mosaic/hardware.h"
#include "test_main.h"
#include "ui/mlforml/loss_curve_view.h"
#include "ui/mosaic/nccl_view.h"
#include "ui/widgets/chart_export.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/chart_zoom.h"
#include "ui/widgets/export_dialog.h"
#include "ui/widgets/number_spin_box.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"

using namespace tandem;
using namespace tandem::ui;

namespace {
/// A line over x `x0`..`x0` + 100 with y 1..1000 (log axis), axes set to the data by rebuild().
class LineView : public ChartView {
public:
    LineView() : ChartView(QStringLiteral("line"), QStringLiteral("Line")) {
        m_x = new QValueAxis(this);
        m_x->setLabelFormat(QStringLiteral("%.0f"));
        m_y = new QLogValueAxis(this);
        chart()->addAxis(m_x, Qt::AlignBottom);
        chart()->addAxis(m_y, Qt::AlignLeft);
        m_line = addSeriesOnAxes(chart(), new QLineSeries(this), m_x, m_y);
        m_line->setName(QStringLiteral("y"));
        applyTheme();
        setData(0);
    }
    void setData(double x0) {
        m_x0 = x0;
        requestRebuild();
    }
    QValueAxis* m_x;
    QLogValueAxis* m_y;
    QLineSeries* line() const { return m_line; }
    using ChartView::stableTimeUnit;

protected:
    void rebuild() override {
        QList<QPointF> pts;
        for (int k = 0; k <= 100; ++k) pts.append({m_x0 + k, std::pow(10.0, 3.0 * k / 100)});
        m_line->replace(pts);
        m_x->setRange(m_x0, m_x0 + 100);
        m_y->setRange(1, 1000);
    }

private:
    QLineSeries* m_line;
    double m_x0 = 0;
};

/// The viewport point at plot fractions (`fx`, `fy`) (x from the left, y from the bottom).
QPoint atFraction(const ChartView& v, double fx, double fy) {
    const QRectF plot = v.chart()->plotArea();
    const QPointF c(plot.left() + fx * plot.width(), plot.bottom() - fy * plot.height());
    return v.mapFromScene(v.chart()->mapToScene(c));
}

void mouse(ChartView& v, QEvent::Type type, const QPoint& at, Qt::MouseButton button,
           Qt::MouseButtons buttons, Qt::KeyboardModifiers mods = Qt::NoModifier) {
    QMouseEvent e(type, at, v.viewport()->mapToGlobal(at), button, buttons, mods);
    QApplication::sendEvent(v.viewport(), &e);
}

void drag(ChartView& v, const QPoint& from, const QPoint& to, Qt::MouseButton button,
          Qt::KeyboardModifiers mods = Qt::NoModifier) {
    mouse(v, QEvent::MouseButtonPress, from, button, button, mods);
    mouse(v, QEvent::MouseMove, (from + to) / 2, Qt::NoButton, button, mods);
    mouse(v, QEvent::MouseMove, to, Qt::NoButton, button, mods);
    mouse(v, QEvent::MouseButtonRelease, to, button, Qt::NoButton, mods);
}

/// What a double-click delivers: press, release, double-click, release.
void doubleClick(ChartView& v, const QPoint& at) {
    mouse(v, QEvent::MouseButtonPress, at, Qt::LeftButton, Qt::LeftButton);
    mouse(v, QEvent::MouseButtonRelease, at, Qt::LeftButton, Qt::NoButton);
    mouse(v, QEvent::MouseButtonDblClick, at, Qt::LeftButton, Qt::LeftButton);
    mouse(v, QEvent::MouseButtonRelease, at, Qt::LeftButton, Qt::NoButton);
}

void key(ChartView& v, int k, Qt::KeyboardModifiers mods = Qt::NoModifier) {
    QKeyEvent e(QEvent::KeyPress, k, mods);
    QApplication::sendEvent(&v, &e);
}

/// The action named `name` among `actions`, or nullptr.
QAction* actionNamed(const QList<QAction*>& actions, const QString& name) {
    for (QAction* a : actions)
        if (a->objectName() == name) return a;
    return nullptr;
}
}  // namespace

class TstChartHabits : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void subRange_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<bool>("log");
        QTest::addColumn<double>("f0");
        QTest::addColumn<double>("f1");
        QTest::addColumn<double>("wantLo");
        QTest::addColumn<double>("wantHi");
        QTest::newRow("linear middle half")
            << 0.0 << 100.0 << false << 0.25 << 0.75 << 25.0 << 75.0;
        QTest::newRow("linear zoomed out") << 0.0 << 10.0 << false << -0.5 << 1.5 << -5.0 << 15.0;
        QTest::newRow("log upper half")
            << 1.0 << 1000.0 << true << 0.5 << 1.0 << std::sqrt(1000.0) << 1000.0;
        QTest::newRow("log middle half") << 1.0 << 1e4 << true << 0.25 << 0.75 << 10.0 << 1000.0;
        QTest::newRow("log panned a decade")
            << 10.0 << 1000.0 << true << 0.5 << 1.5 << 100.0 << 1e4;
    }
    /// The part of a range between two fractions: linear, or in log10 space on a log axis.
    void subRange() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(bool, log);
        QFETCH(double, f0);
        QFETCH(double, f1);
        QFETCH(double, wantLo);
        QFETCH(double, wantHi);
        const auto [a, b] = axisSubRange(lo, hi, log, f0, f1);
        QVERIFY2(std::abs(a - wantLo) < 1e-9 * std::max(1.0, wantLo),
                 qPrintable(QString::number(a)));
        QVERIFY2(std::abs(b - wantHi) < 1e-9 * std::max(1.0, wantHi),
                 qPrintable(QString::number(b)));
    }

    /// Value and log axes zoom; category axes (the layout heatmap's cells, bar categories) do not.
    void zoomableAxes() {
        QValueAxis value;
        QLogValueAxis log;
        QCategoryAxis bands;
        QBarCategoryAxis bars;
        QVERIFY(isZoomableAxis(&value));
        QVERIFY(isZoomableAxis(&log));
        QVERIFY(!isZoomableAxis(&bands));
        QVERIFY(!isZoomableAxis(&bars));
    }

    /// A left drag zooms into its rectangle (x linear, y log in log space); a click-free drag
    /// pins nothing; a redraw over the same ranges keeps the zoom, one of data elsewhere drops
    /// it; Escape, 0, a double-click and the menu's "Reset zoom" give the full ranges back.
    void rubberBandZoomKeptAndReset() {
        LineView v;
        v.resize(640, 420);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.fitTexts();
        QVERIFY(!v.isZoomed());
        drag(v, atFraction(v, 0.25, 1.0), atFraction(v, 0.75, 0.5), Qt::LeftButton);
        QVERIFY(v.isZoomed());
        QVERIFY(v.pinnedHover().isEmpty());
        const double px = 100.0 / v.chart()->plotArea().width();  // one pixel in x units
        QVERIFY2(std::abs(v.m_x->min() - 25) < 2 * px && std::abs(v.m_x->max() - 75) < 2 * px,
                 qPrintable(QStringLiteral("%1..%2").arg(v.m_x->min()).arg(v.m_x->max())));
        const double pyDecades = 3.0 / v.chart()->plotArea().height();
        QVERIFY2(std::abs(std::log10(v.m_y->min()) - 1.5) < 2 * pyDecades &&
                     std::abs(std::log10(v.m_y->max()) - 3.0) < 2 * pyDecades,
                 qPrintable(QStringLiteral("%1..%2").arg(v.m_y->min()).arg(v.m_y->max())));
        // Round ticks over the zoomed range (50 wide: every 10).
        QCOMPARE(v.m_x->tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(v.m_x->tickInterval(), 10.0);
        const double zoomedLo = v.m_x->min();
        // A redraw of data over the same ranges (a slider moved) keeps what the user zoomed into.
        v.setData(0);
        QVERIFY(v.isZoomed());
        QCOMPARE(v.m_x->min(), zoomedLo);
        // Data that moved away from the zoomed part: the view's own ranges come back.
        v.setData(500);
        QVERIFY(!v.isZoomed());
        QCOMPARE(v.m_x->min(), 500.0);
        QCOMPARE(v.m_x->max(), 600.0);
        v.setData(0);
        // Escape resets.
        drag(v, atFraction(v, 0.1, 0.9), atFraction(v, 0.5, 0.1), Qt::LeftButton);
        QVERIFY(v.isZoomed());
        key(v, Qt::Key_Escape);
        QVERIFY(!v.isZoomed());
        QCOMPARE(v.m_x->min(), 0.0);
        QCOMPARE(v.m_x->max(), 100.0);
        QCOMPARE(v.m_y->min(), 1.0);
        QCOMPARE(v.m_y->max(), 1000.0);
        QCOMPARE(v.m_x->tickType(), QValueAxis::TicksFixed);  // the view's ticks are back
        QCOMPARE(v.m_x->tickCount(), 5);
        // Zoomed to about 2 units: ticks every 0.5, labelled with a decimal; the view's "%.0f"
        // comes back with the reset.
        v.zoomToViewportRect(QRect(atFraction(v, 0.5, 0.9), atFraction(v, 0.52, 0.1)));
        QCOMPARE(v.m_x->tickInterval(), 0.5);
        QCOMPARE(v.m_x->labelFormat(), QStringLiteral("%.1f"));
        key(v, Qt::Key_0);
        QCOMPARE(v.m_x->labelFormat(), QStringLiteral("%.0f"));
        // A double-click resets.
        drag(v, atFraction(v, 0.1, 0.9), atFraction(v, 0.5, 0.1), Qt::LeftButton);
        QVERIFY(v.isZoomed());
        mouse(v, QEvent::MouseButtonDblClick, atFraction(v, 0.5, 0.5), Qt::LeftButton,
              Qt::LeftButton);
        QVERIFY(!v.isZoomed());
        QCOMPARE(v.m_x->max(), 100.0);
        // The menu's "Reset zoom": disabled unzoomed, resets when zoomed.
        {
            QMenu menu;
            v.addViewActions(&menu);
            QAction* reset = actionNamed(menu.actions(), QStringLiteral("resetZoom"));
            QVERIFY(reset && !reset->isEnabled());
            QVERIFY(!actionNamed(menu.actions(), QStringLiteral("logY")));  // not offered here
        }
        drag(v, atFraction(v, 0.1, 0.9), atFraction(v, 0.5, 0.1), Qt::LeftButton);
        {
            QMenu menu;
            v.addViewActions(&menu);
            QAction* reset = actionNamed(menu.actions(), QStringLiteral("resetZoom"));
            QVERIFY(reset && reset->isEnabled());
            reset->trigger();
            QVERIFY(!v.isZoomed());
            QCOMPARE(v.m_x->min(), 0.0);
        }
        // A plain click still pins the read-out.
        mouse(v, QEvent::MouseButtonPress, atFraction(v, 0.5, 0.5), Qt::LeftButton, Qt::LeftButton);
        mouse(v, QEvent::MouseButtonRelease, atFraction(v, 0.5, 0.5), Qt::LeftButton, Qt::NoButton);
        QVERIFY(!v.pinnedHover().isEmpty());
        QVERIFY(!v.isZoomed());
    }

    /// clearOf keeps a rectangle that covers nothing, else moves it under, above, right of or
    /// left of every box to avoid, the first that stays on the screen.
    void clearOfMovesOffEveryBox_data() {
        QTest::addColumn<QRect>("rect");
        QTest::addColumn<QList<QRect>>("avoid");
        QTest::addColumn<QRect>("screen");
        QTest::addColumn<QRect>("want");
        const QRect tip(100, 100, 50, 20);
        const QRect box(90, 90, 100, 100);  // x 90..189, y 90..189
        QTest::newRow("clear already")
            << tip << QList<QRect>{QRect(300, 300, 10, 10)} << QRect(0, 0, 800, 600) << tip;
        QTest::newRow("under") << tip << QList<QRect>{box} << QRect(0, 0, 800, 600)
                               << QRect(100, 190, 50, 20);
        QTest::newRow("above: no room under")
            << tip << QList<QRect>{box} << QRect(0, 0, 800, 200) << QRect(100, 70, 50, 20);
        QTest::newRow("right: no room above or under")
            << tip << QList<QRect>{box} << QRect(0, 80, 800, 120) << QRect(190, 100, 50, 20);
        QTest::newRow("under both boxes") << tip << QList<QRect>{box, QRect(120, 150, 40, 80)}
                                          << QRect(0, 0, 800, 600) << QRect(100, 230, 50, 20);
    }
    void clearOfMovesOffEveryBox() {
        QFETCH(QRect, rect);
        QFETCH(QList<QRect>, avoid);
        QFETCH(QRect, screen);
        QFETCH(QRect, want);
        QCOMPARE(clearOf(rect, avoid, screen), want);
    }

    /// A double-click that resets the zoom pins nothing: its first press would pin the read-out
    /// of the zoomed axes (a pin made before it goes too: its crosshair would no longer be over
    /// its values); a double-click on an unzoomed chart is left to the clicks.
    void resetDoubleClickPinsNothing() {
        LineView v;
        v.resize(640, 420);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.fitTexts();
        const QPoint at = atFraction(v, 0.3, 0.5);
        QVERIFY(!v.hoverAt(at).isEmpty());  // a click there pins a read-out
        for (const bool pinnedBefore : {false, true}) {
            if (pinnedBefore)
                v.pinHover(v.hoverAt(atFraction(v, 0.6, 0.5)), atFraction(v, 0.6, 0.5));
            drag(v, atFraction(v, 0.1, 0.9), atFraction(v, 0.5, 0.1), Qt::LeftButton);
            QVERIFY(v.isZoomed());
            QCOMPARE(v.pinnedHover().isEmpty(), !pinnedBefore);
            doubleClick(v, at);
            QVERIFY(!v.isZoomed());
            QCOMPARE(v.m_x->max(), 100.0);
            QVERIFY2(v.pinnedHover().isEmpty(), qPrintable(v.pinnedHover().text()));
        }
        // Unzoomed, the first click of a double-click pins as a click does.
        doubleClick(v, at);
        QVERIFY(!v.pinnedHover().isEmpty());
    }

    /// Ctrl+wheel and + zoom about the cursor / centre by 1.25 a step (x span 100 -> 80, y 3
    /// decades -> 2.4), a Shift+drag and the middle button pan (a log axis by decades), the arrow
    /// keys pan a tenth, - zooms back out to the full ranges (the zoom ends), 0 resets.
    void wheelKeysAndPan() {
        LineView v;
        v.resize(640, 420);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.fitTexts();
        // A plain wheel is the page's (not zoomed).
        const QPoint centre = atFraction(v, 0.5, 0.5);
        QWheelEvent plain(centre, v.viewport()->mapToGlobal(centre), {}, QPoint(0, 120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(v.viewport(), &plain);
        QVERIFY(!v.isZoomed());
        QWheelEvent wheel(centre, v.viewport()->mapToGlobal(centre), {}, QPoint(0, 120),
                          Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(v.viewport(), &wheel);
        QVERIFY(v.isZoomed());
        QVERIFY2(std::abs(v.m_x->max() - v.m_x->min() - 80) < 0.5,
                 qPrintable(QStringLiteral("%1..%2").arg(v.m_x->min()).arg(v.m_x->max())));
        QVERIFY(std::abs(std::log10(v.m_y->max() / v.m_y->min()) - 2.4) < 0.02);
        key(v, Qt::Key_0);
        QVERIFY(!v.isZoomed());
        key(v, Qt::Key_Plus);
        QVERIFY(std::abs(v.m_x->min() - 10) < 1e-9 && std::abs(v.m_x->max() - 90) < 1e-9);
        // Arrow right: the view moves right by a tenth of what is shown (8).
        key(v, Qt::Key_Right);
        QVERIFY(std::abs(v.m_x->min() - 18) < 1e-9 && std::abs(v.m_x->max() - 98) < 1e-9);
        // Shift+drag a quarter of the plot to the right and up: the data follows the mouse.
        const double y0 = std::log10(v.m_y->min());
        drag(v, atFraction(v, 0.25, 0.25), atFraction(v, 0.5, 0.5), Qt::LeftButton,
             Qt::ShiftModifier);
        const double px = 80.0 / v.chart()->plotArea().width();
        QVERIFY2(std::abs(v.m_x->min() - (18 - 20)) < 2 * px,
                 qPrintable(QString::number(v.m_x->min())));
        QVERIFY(std::abs(std::log10(v.m_y->min()) - (y0 - 0.6)) < 0.02);  // 2.4 decades / 4
        QVERIFY(v.pinnedHover().isEmpty());
        // The middle button pans back.
        drag(v, atFraction(v, 0.5, 0.5), atFraction(v, 0.25, 0.25), Qt::MiddleButton);
        QVERIFY(std::abs(v.m_x->min() - 18) < 2 * px);
        key(v, Qt::Key_Left);
        QVERIFY(std::abs(v.m_x->min() - 10) < 2 * px);
        // Zooming out past the full ranges ends the zoom with the view's own ranges.
        key(v, Qt::Key_Minus);
        key(v, Qt::Key_Minus);
        QVERIFY(!v.isZoomed());
        QCOMPARE(v.m_x->min(), 0.0);
        QCOMPARE(v.m_x->max(), 100.0);
    }

    /// "nccl-tests" in the chart's axis title and legend names carries a non-breaking hyphen
    /// (U+2011), so a wrapped title or legend never breaks it into "nccl-" and "tests".
    void ncclNamesKeepTheirHyphen() {
        Diagnostics diag;
        const auto imp = io::loadNcclTestsFile(
            TANDEM_TEST_DATA "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt", diag);
        QVERIFY(imp);
        NcclView v;
        v.resize(420, 500);
        v.setData(*imp, QStringLiteral("log"), mosaic::builtinHardware("h100"));
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.fitTexts();
        const QString nonBreaking = QStringLiteral("nccl\u2011tests");
        QAbstractAxis* x = v.chart()->axes(Qt::Horizontal).value(0);
        QVERIFY(x);
        const QString title = x->titleText();
        QVERIFY2(title.contains(nonBreaking) && !title.contains(QStringLiteral("nccl-tests")),
                 qPrintable(title));
        int measured = 0;
        for (QLineSeries* s : v.lineSeries()) {
            if (!s->name().startsWith(QStringLiteral("Measured"))) continue;
            ++measured;
            QVERIFY2(s->name().contains(nonBreaking), qPrintable(s->name()));
        }
        QVERIFY(measured >= 1);
        const QString legend = v.legendText()->toPlainText();
        QVERIFY2(!legend.contains(QStringLiteral("nccl-tests")), qPrintable(legend));
        QVERIFY2(legend.contains(nonBreaking), qPrintable(legend));
    }

    /// The nccl-tests chart offers "Logarithmic y axis": on, the bandwidth axis is a log axis
    /// from the decade under the smallest bandwidth to the decade over the largest, every series
    /// on it; off, the linear axis from 0 comes back.
    void ncclLogY() {
        Diagnostics diag;
        const auto imp = io::loadNcclTestsFile(
            TANDEM_TEST_DATA "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt", diag);
        QVERIFY(imp);
        NcclView v;
        v.resize(800, 500);
        v.setData(*imp, QStringLiteral("log"), mosaic::builtinHardware("h100"));
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QVERIFY(v.logYAvailable());
        QMenu menu;
        v.addViewActions(&menu);
        QAction* log = actionNamed(menu.actions(), QStringLiteral("logY"));
        QVERIFY(log && log->isCheckable() && !log->isChecked());
        auto yAxis = [&v]() { return v.chart()->axes(Qt::Vertical).value(0); };
        QVERIFY(qobject_cast<QValueAxis*>(yAxis()));
        QCOMPARE(qobject_cast<QValueAxis*>(yAxis())->min(), 0.0);
        log->setChecked(true);
        QVERIFY(v.logY());
        QCOMPARE(v.chart()->axes(Qt::Vertical).size(), 1);
        auto* y = qobject_cast<QLogValueAxis*>(yAxis());
        QVERIFY(y);
        double least = 1e300, most = 0;
        for (QLineSeries* s : v.lineSeries()) {
            if (!s->isVisible()) continue;
            QCOMPARE(s->attachedAxes().contains(y), true);
            for (const QPointF& p : s->points()) {
                QVERIFY(p.y() > 0);
                least = std::min(least, p.y());
                most = std::max(most, p.y());
            }
        }
        QCOMPARE(y->min(), std::pow(10.0, std::floor(std::log10(least))));
        QCOMPARE(y->max(), std::pow(10.0, std::ceil(std::log10(most))));
        QVERIFY(y->max() / y->min() >= 100);  // the bandwidth spans decades
        v.setLogY(false);
        QVERIFY(qobject_cast<QValueAxis*>(yAxis()));
        QCOMPARE(v.chart()->axes(Qt::Vertical).size(), 1);
    }

    /// The chart with the keyboard focus has a frame in the highlight colour at its edge; one
    /// without focus and every export have none.
    void focusFrameNotExported() {
        QTemporaryDir dir;
        QWidget w;
        auto* layout = new QHBoxLayout(&w);
        LineView& a = *new LineView;
        LineView& b = *new LineView;
        layout->addWidget(&a);
        layout->addWidget(&b);
        w.resize(1200, 450);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        a.setFocus();
        QVERIFY(a.hasFocus());
        const QColor mark = a.palette().color(QPalette::Highlight);
        auto edge = [](ChartView& v) {
            const QImage img = v.viewport()->grab().toImage();
            return img.pixelColor(img.width() / 2, img.height() - 2);
        };
        QCOMPARE(edge(a), mark);
        QVERIFY(edge(b) != mark);
        const QString png = dir.filePath(QStringLiteral("a.png"));
        QString error;
        QVERIFY2(exportChart(&a, png, &error, QSize(), 1.0), qPrintable(error));
        const QImage out(png);
        QVERIFY(!out.isNull());
        QVERIFY(out.pixelColor(out.width() / 2, out.height() - 2) != mark);
        b.setFocus();
        QCOMPARE(edge(b), mark);
        QVERIFY(edge(a) != mark);
    }

    /// The export dialog starts with the last accepted choices (QSettings export/...), the
    /// folder of the last export is remembered, and the light theme is the default.
    void exportDialogRemembers() {
        QSettings().remove(QStringLiteral("export"));
        {
            ExportDialog d(QSize(700, 400));
            QCOMPARE(d.preset(), ExportPreset::Current);
            QCOMPARE(d.layoutSize(), QSize(700, 400));
            QVERIFY(!d.keepCurrentTheme());
            d.setPreset(ExportPreset::Slide);
            d.accept();
        }
        {
            ExportDialog d(QSize(700, 400));
            QCOMPARE(d.preset(), ExportPreset::Slide);
            QCOMPARE(d.pngSize(), QSize(1920, 1080));
            d.setPreset(ExportPreset::Custom);
            const auto boxes = d.findChildren<QSpinBox*>();
            QCOMPARE(boxes.size(), 3);  // width, height, DPI in this order
            boxes[0]->setValue(1000);
            boxes[1]->setValue(600);
            boxes[2]->setValue(200);
            d.setKeepCurrentTheme(true);
            d.reject();  // a cancelled dialog changes nothing
        }
        {
            ExportDialog d(QSize(700, 400));
            QCOMPARE(d.preset(), ExportPreset::Slide);
            const auto boxes = d.findChildren<QSpinBox*>();
            boxes[0]->setValue(1000);
            boxes[1]->setValue(600);
            boxes[2]->setValue(200);
            QCOMPARE(d.preset(), ExportPreset::Custom);
            d.setKeepCurrentTheme(true);
            d.accept();
        }
        ExportDialog d(QSize(700, 400));
        QCOMPARE(d.preset(), ExportPreset::Custom);
        QCOMPARE(d.layoutSize(), QSize(1000, 600));
        QCOMPARE(d.dpi(), 200);
        QVERIFY(d.keepCurrentTheme());
        QTemporaryDir dir;
        ExportDialog::rememberFolder(dir.filePath(QStringLiteral("x.png")));
        QCOMPARE(ExportDialog::lastFolder(), QFileInfo(dir.path()).absoluteFilePath());
    }

    /// A number the export dialog's width, height or DPI box refuses (above its maximum) leaves
    /// the value from before the typing: the boxes update the summary as they are typed, and the
    /// refused "5000" left the "500" taken on the way. The message names the value kept, and the
    /// summary shows it. Enter on a refused number only refuses it (it pressed OK, accepting the
    /// dialog); Enter on a number taken still presses OK.
    void exportBoxRefusalKeepsTheValueBeforeTyping_data() {
        QTest::addColumn<int>("box");  // width, height, DPI
        QTest::addColumn<QString>("typed");
        QTest::addColumn<bool>("enter");  // else the focus leaves the box
        QTest::addColumn<int>("value");
        QTest::addColumn<QString>("message");  // empty: taken
        QTest::newRow("width, Enter")
            << 0 << "5000" << true << 700
            << "Width: 5000 is above the maximum 4000 (accepted: 280 to 4000 px); the value stays "
               "700 px";
        QTest::newRow("height, Enter")
            << 1 << "9000" << true << 400
            << "Height: 9000 is above the maximum 4000 (accepted: 200 to 4000 px); the value "
               "stays 400 px";
        QTest::newRow("DPI, Enter")
            << 2 << "5000" << true << 192
            << "Resolution: 5000 is above the maximum 1200 (accepted: 72 to 1200 DPI); the value "
               "stays 192 DPI";
        QTest::newRow("width, focus out")
            << 0 << "5000" << false << 700
            << "Width: 5000 is above the maximum 4000 (accepted: 280 to 4000 px); the value stays "
               "700 px";
        QTest::newRow("width taken, Enter") << 0 << "1500" << true << 1500 << "";
    }
    void exportBoxRefusalKeepsTheValueBeforeTyping() {
        QFETCH(int, box);
        QFETCH(QString, typed);
        QFETCH(bool, enter);
        QFETCH(int, value);
        QFETCH(QString, message);
        QSettings().remove(QStringLiteral("export"));
        ExportDialog d(QSize(700, 400));  // 700 x 400 px at 192 DPI
        QSignalSpy accepted(&d, &QDialog::accepted);
        d.show();
        d.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&d));
        const auto boxes = d.findChildren<IntSpinBox*>();
        QCOMPARE(boxes.size(), 3);  // width, height, DPI in this order
        IntSpinBox* b = boxes[box];
        QSignalSpy changed(b, &QSpinBox::valueChanged);
        b->setFocus();
        QLineEdit* edit = b->findChild<QLineEdit*>();
        QVERIFY(edit);
        edit->selectAll();
        QTest::keyClicks(b, typed);  // to the box, as a key typed into it goes
        if (message.isEmpty())
            QCOMPARE(b->value(), value);  // taken as typed
        else
            QVERIFY(!changed.isEmpty());  // a prefix ("500", "900") was taken on the way
        if (enter)
            QTest::keyClick(b, Qt::Key_Return);
        else
            d.findChild<QComboBox*>()->setFocus();
        QCOMPARE(b->value(), value);
        QCOMPARE(b->refusal(), message);
        QCOMPARE(accepted.count(), message.isEmpty() && enter ? 1 : 0);
        QCOMPARE(d.isVisible(), !(message.isEmpty() && enter));
        // The summary shows the value kept.
        const QSize layout = d.layoutSize();
        const QSize png(int(std::lround(layout.width() * d.dpi() / 96.0)),
                        int(std::lround(layout.height() * d.dpi() / 96.0)));
        QCOMPARE(d.pngSize(), png);
        bool shown = false;
        for (const QLabel* l : d.findChildren<QLabel*>())
            shown = shown ||
                    l->text().startsWith(
                        QStringLiteral("PNG: %1 x %2 pixels").arg(png.width()).arg(png.height()));
        QVERIFY(shown);
        if (!message.isEmpty()) QCOMPARE(d.pngSize(), QSize(1400, 800));  // as it opened
    }

    /// Lock axes: the ranges shown stay through redraws whose data moved elsewhere (a zoom alone
    /// would be dropped there); unlocking gives the view its own ranges back.
    void lockedAxesHoldThroughRedraws() {
        LineView v;
        v.resize(500, 350);
        v.setAxesLocked(true);
        QVERIFY(v.axesLocked());
        v.setData(500);  // far outside the locked 0..100
        QCOMPARE(v.m_x->min(), 0.0);
        QCOMPARE(v.m_x->max(), 100.0);
        QVERIFY(v.axesLocked());
        QMenu menu;
        v.addViewActions(&menu);
        QAction* lock = actionNamed(menu.actions(), QStringLiteral("lockAxes"));
        QVERIFY(lock && lock->isCheckable() && lock->isChecked());
        lock->setChecked(false);
        QVERIFY(!v.axesLocked());
        QCOMPARE(v.m_x->min(), 500.0);
        QCOMPARE(v.m_x->max(), 600.0);
        // Without the lock the same redraw drops a zoom that no longer overlaps the data.
        v.zoomBy(2.0, QPointF(0.5, 0.5));
        QVERIFY(v.isZoomed());
        v.setData(0);
        QVERIFY(!v.isZoomed());
        QCOMPARE(v.m_x->min(), 0.0);
    }

    /// The legend's "pinned" entry (its dashed symbol and the word) is never split across lines:
    /// in a legend that wraps, the line that has the word has the whole symbol before it. The
    /// symbol was two en dashes, after each of which a line may break (even before a
    /// non-breaking space), so "\u2013 \u2013" ended one line and "pinned" began the next; it is
    /// now the dashed symbol the legend gives a dashed curve.
    void pinnedLegendEntryStaysOnOneLine_data() {
        QTest::addColumn<int>("width");
        for (int w : {280, 330, 380, 430, 600}) QTest::newRow(qPrintable(QString::number(w))) << w;
    }
    void pinnedLegendEntryStaysOnOneLine() {
        QFETCH(int, width);
        LineView v;
        v.line()->setName(QStringLiteral("tokens per second per GPU of the current plan"));
        auto* second = addSeriesOnAxes(v.chart(), new QLineSeries(&v), v.m_x, v.m_y);
        second->setName(QStringLiteral("measured runs of the same cluster"));
        second->append(QPointF(10, 10));
        v.resize(width, 420);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.pinCurves();
        v.fitTexts();
        QTextDocument* doc = v.legendText()->document();
        QStringList lines;
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
            for (int i = 0; i < b.layout()->lineCount(); ++i) {
                const QTextLine line = b.layout()->lineAt(i);
                lines << b.text().mid(line.textStart(), line.textLength());
            }
        int withWord = 0;
        for (const QString& l : lines) {
            if (!l.contains(QStringLiteral("pinned"))) continue;
            ++withWord;
            QVERIFY2(l.contains(QStringLiteral("\u254D\u254D\u00a0pinned")),
                     qPrintable(lines.join(QStringLiteral(" | "))));
        }
        QCOMPARE(withWord, 1);
        QVERIFY2(width > 400 || lines.size() > 1, "the legend did not wrap at this width");
    }

    /// A pin keeps each curve in data coordinates and draws it, dashed, where it lies on the
    /// axes of a later state; the legend names it; clearing removes it from the picture.
    void pinnedCurvesDrawOnLaterAxes() {
        LineView v;
        v.resize(600, 420);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.pinCurves();
        QCOMPARE(v.pinnedCurves().size(), 1);
        QCOMPARE(v.pinnedCurves()[0].points.size(), 101);
        QCOMPARE(v.pinnedCurves()[0].points.front(), QPointF(0, 1));
        QVERIFY(v.pinnedCurves()[0].yLog);
        v.setData(50);  // the live curve moves right by 50; the pinned one stays at 0..100
        v.fitTexts();
        QVERIFY(v.legendText()->toPlainText().contains(QStringLiteral("pinned")));
        const QImage with = v.grab().toImage();
        v.clearPinnedCurves();
        v.fitTexts();
        QVERIFY(!v.legendText()->toPlainText().contains(QStringLiteral("pinned")));
        const QImage without = v.grab().toImage();
        QCOMPARE(with.size(), without.size());
        const qreal dpr = with.devicePixelRatio();
        // Where the pinned curve passes (x 60..90 on axes 50..150), the pictures differ.
        const QRectF plot = v.chart()->plotArea();
        for (double x : {60.0, 70.0, 80.0, 90.0}) {
            const double fx = (x - 50) / 100, fy = (3.0 * x / 100) / 3.0;  // log10 y / 3 decades
            const QPoint at = v.mapFromScene(v.chart()->mapToScene(
                QPointF(plot.left() + fx * plot.width(), plot.bottom() - fy * plot.height())));
            int differing = 0;
            for (int dx = -4; dx <= 4; ++dx)
                for (int dy = -4; dy <= 4; ++dy) {
                    const QPoint p((at.x() + dx) * dpr, (at.y() + dy) * dpr);
                    if (with.valid(p) && with.pixel(p) != without.pixel(p)) ++differing;
                }
            QVERIFY2(differing > 0, qPrintable(QStringLiteral("no pinned curve at x %1").arg(x)));
        }
    }

    /// The time unit holds while a pin is held (and is chosen afresh otherwise), so a pinned
    /// curve and the live one share the axis' unit.
    void timeUnitHoldsWhilePinned() {
        LineView v;
        QCOMPARE(v.stableTimeUnit(100).shortName, QStringLiteral("s"));
        QCOMPARE(v.stableTimeUnit(5 * 3600).shortName, QStringLiteral("h"));
        v.pinCurves();
        QCOMPARE(v.stableTimeUnit(100).shortName, QStringLiteral("h"));
        v.clearPinnedCurves();
        QCOMPARE(v.stableTimeUnit(100).shortName, QStringLiteral("s"));
        v.setAxesLocked(true);
        QCOMPARE(v.stableTimeUnit(600).shortName, QStringLiteral("s"));

        // The loss chart holds its wall-clock unit the same way (its pinned curves keep their x).
        const auto runOver = [](double seconds) {
            mlforml::PolicyRun r;
            r.policy = "Static";
            r.time_s = {0, seconds / 2, seconds};
            r.updates = {0, 10, 20};
            r.loss = {3.0, 2.5, 2.0};
            r.firstCrossing_s = {NAN, NAN};
            mlforml::PointResult p;
            p.policies.push_back(r);
            return p;
        };
        LossCurveView loss;
        loss.resize(600, 400);
        const auto xTitle = [&loss, &runOver](double seconds) {
            loss.setData(runOver(seconds), {1.05, 1.02}, {2.1, 2.2});
            loss.ensureBuilt();
            return loss.chart()->axes(Qt::Horizontal).value(0)->titleText();
        };
        QCOMPARE(xTitle(5 * 3600), QStringLiteral("Wall-clock time (hours)"));
        loss.pinCurves();
        QCOMPARE(xTitle(100), QStringLiteral("Wall-clock time (hours)"));
        QCOMPARE(loss.pinnedCurves().value(0).points.back(), QPointF(5.0, 2.0));
        loss.clearPinnedCurves();
        QCOMPARE(xTitle(100), QStringLiteral("Wall-clock time (s)"));
        loss.setAxesLocked(true);
        QCOMPARE(xTitle(600), QStringLiteral("Wall-clock time (s)"));
        loss.setAxesLocked(false);
        QCOMPARE(xTitle(600), QStringLiteral("Wall-clock time (minutes)"));
    }

    /// A sweep's read-out is taken at its computed points: the cursor's x moves to the nearest
    /// point's x and the value is that point's, never one interpolated between two points.
    void sweepReadOutAtComputedPoints() {
        LineView v;
        v.resize(500, 350);
        const HoverTable between = v.hoverAtX(12.4);
        QVERIFY(between.heading.endsWith(QStringLiteral("= 12.4")));
        // Interpolated on the line between the points at 12 and 13.
        const double y12 = std::pow(10.0, 0.36), y13 = std::pow(10.0, 0.39);
        QCOMPARE(between.rows.value(0).value, QString::number(y12 + 0.4 * (y13 - y12), 'g', 4));
        v.setHoverSnapsToPoints(true);
        const HoverTable snapped = v.hoverAtX(12.4);
        QVERIFY2(snapped.heading.endsWith(QStringLiteral("= 12")), qPrintable(snapped.heading));
        QCOMPARE(snapped.rows.value(0).value, QString::number(std::pow(10.0, 0.36), 'g', 4));
    }

    /// In the dark theme, exportChartLight draws the picture on the light background and gives
    /// the dark chart back; exportChart keeps the window's theme.
    void lightExportFromDarkWindow() {
        QTemporaryDir dir;
        LineView v;
        v.resize(500, 350);
        setCurrentTheme(Theme::Dark);
        v.applyTheme();
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const QBrush dark = v.chart()->backgroundBrush();
        const QString light = dir.filePath(QStringLiteral("light.png"));
        const QString same = dir.filePath(QStringLiteral("dark.png"));
        QString error;
        QVERIFY2(exportChartLight(&v, light, &error, QSize(), 1.0), qPrintable(error));
        QVERIFY2(exportChart(&v, same, &error, QSize(), 1.0), qPrintable(error));
        setCurrentTheme(Theme::Light);
        v.applyTheme();
        QCOMPARE(QImage(light).pixelColor(5, 5), QColor(Qt::white));
        QCOMPARE(QImage(same).pixelColor(5, 5), dark.color());
    }
};

TANDEM_TEST_MAIN(TstChartHabits)
#include "tst_chart_habits.moc"
