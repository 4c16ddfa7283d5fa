// The chart building blocks every view shares: Bounds (the extent of a set of points, for axis
// ranges) and the series pools (grow on demand, hide what is not needed), with hand-computed
// values.
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>
#include <cmath>
#include <limits>

#include "test_main.h"
#include "ui/mlforml/background_load_view.h"
#include "ui/widgets/bounds.h"
#include "ui/widgets/chart_export.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/text_fit.h"
#include "ui/widgets/units.h"

using namespace tandem::ui;

namespace {
bool markerVisible(QChart* chart, QAbstractSeries* s) {
    QCoreApplication::processEvents();  // the legend lays its markers out on the next event loop
                                        // pass
    const QList<QLegendMarker*> markers = chart->legend()->markers(s);
    return !markers.isEmpty() && markers.front()->isVisible();
}
}  // namespace

class TstChartHelpers : public QObject {
    Q_OBJECT
private slots:
    void niceRangeTicksSurviveAnEarlierThinning() {
        // An axis whose fixed count of 5 ticks ChartView::fitAxis once thinned (it then keeps
        // that count in kThinnedTicksProperty to restore later) gets nice ticks from setNiceRange:
        // 0 to 3 in steps of 0.5, starting at 0 exactly (no "-0"), and fitAxis's count is dropped
        // so it cannot bring back 0, 0.75, 1.5, ...
        QValueAxis axis;
        axis.setProperty(kThinnedTicksProperty, 5);
        setNiceRange(&axis, 0, 3, 6);
        QVERIFY(!axis.property(kThinnedTicksProperty).isValid());
        QCOMPARE(axis.tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(axis.tickInterval(), 0.5);
        QCOMPARE(axis.tickAnchor(), 0.0);
        QCOMPARE(axis.min(), 0.0);
        QVERIFY(axis.max() >= 3.0);
        QCOMPARE(axis.labelFormat(), QStringLiteral("%.1f"));
    }
    /// A view's own round ticks (setNiceRange) on a chart too narrow for their labels side by
    /// side: fitAxis keeps every 2nd, 5th, 10th... of them (same anchor, same label format), so
    /// no label is elided; a chart wide enough keeps them all. Widths are the chart's.
    void viewTicksThinnedWhereTheyDoNotFit_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<double>("hi");
        QTest::addColumn<int>("ticks");
        QTest::addColumn<bool>("thinned");
        QTest::newRow("wide, 0..1200 in 100s") << 900 << 1200.0 << 12 << false;
        QTest::newRow("narrow, 0..1200 in 100s") << 280 << 1200.0 << 12 << true;
        QTest::newRow("narrow, 0..1 in 0.1") << 280 << 1.0 << 10 << true;
        QTest::newRow("narrow, 0..1 in 0.5") << 280 << 1.0 << 2 << false;
    }
    void viewTicksThinnedWhereTheyDoNotFit() {
        QFETCH(int, width);
        QFETCH(double, hi);
        QFETCH(int, ticks);
        QFETCH(bool, thinned);
        ChartView view(QStringLiteral("test"), QStringLiteral("Ticks"));
        auto* line = new QLineSeries;
        line->append(0, 0);
        line->append(hi, 1);
        view.chart()->addSeries(line);
        auto* x = new QValueAxis;
        auto* y = new QValueAxis;
        view.chart()->addAxis(x, Qt::AlignBottom);
        view.chart()->addAxis(y, Qt::AlignLeft);
        line->attachAxis(x);
        line->attachAxis(y);
        y->setRange(0, 1);
        setNiceRange(x, 0, hi, ticks);
        const double interval = x->tickInterval();
        const QString format = x->labelFormat();
        view.resize(width, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (int i = 0; i < 3; ++i) {
            view.grab();
            QCoreApplication::processEvents();
        }
        QCOMPARE(x->tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(x->tickAnchor(), 0.0);
        QCOMPARE(x->labelFormat(), format);
        const double k = x->tickInterval() / interval;
        QCOMPARE(k > 1, thinned);
        QVERIFY2(std::abs(k - std::round(k)) < 1e-9, qPrintable(QString::number(k)));
        const QStringList problems = chartTextProblems(&view);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
    void backgroundLoadCsvAndCaption() {
        // 16 jobs holding 490 GB/s after a 0.1 s start: the CSV carries the step curve (the
        // area's upper edge) and the caption says the load is constant; a varying load has none.
        tandem::mlforml::PointResult p;
        p.label = "N=16 GPT-1B";
        p.loadTime_s = {0, 0.1, 10, 20, 64};
        p.loadBytesPerS = {0, 490e9, 490e9, 490e9, 490e9};
        BackgroundLoadView v;
        v.resize(900, 560);
        v.setData(p);
        v.ensureBuilt();
        QVERIFY2(v.caption().contains(QStringLiteral("constant 490 GB/s")),
                 qPrintable(v.caption()));
        const QStringList rows = v.csv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(rows.size() > 4, qPrintable(v.csv()));
        QVERIFY(rows[1].startsWith(QStringLiteral("co-running jobs' traffic,0,0")));
        QVERIFY(rows.last().endsWith(QStringLiteral(",490")));
        p.loadBytesPerS = {0, 490e9, 120e9, 300e9, 300e9};
        v.setData(p);
        v.ensureBuilt();
        QVERIFY(v.caption().isEmpty());
    }
    void emptyBoundsAreInvalid() {
        const Bounds b;
        QVERIFY(!b.validX());
        QVERIFY(!b.validY());
        QVERIFY(!b.valid());
        QVERIFY(b.xLo > b.xHi);
        QVERIFY(b.yLo > b.yHi);
    }
    void boundsTrackEachAxis() {
        Bounds b;
        b.add(2, 5);
        QVERIFY(b.valid());
        QCOMPARE(b.xLo, 2.0);
        QCOMPARE(b.xHi, 2.0);
        QCOMPARE(b.yLo, 5.0);
        QCOMPARE(b.yHi, 5.0);
        b.add(-1, 7);
        b.add(QPointF(0.5, -2.5));
        QCOMPARE(b.xLo, -1.0);
        QCOMPARE(b.xHi, 2.0);
        QCOMPARE(b.yLo, -2.5);
        QCOMPARE(b.yHi, 7.0);
        // One axis on its own: x only, then y only.
        b.addX(3.25);
        b.addY(-4);
        QCOMPARE(b.xHi, 3.25);
        QCOMPARE(b.yLo, -4.0);
        QCOMPARE(b.xLo, -1.0);
        QCOMPARE(b.yHi, 7.0);
    }
    void nanIsSkippedInfinityCounts() {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        Bounds b;
        b.add(nan, 3);  // the y still counts
        QVERIFY(!b.validX());
        QVERIFY(b.validY());
        QVERIFY(!b.valid());
        QCOMPARE(b.yLo, 3.0);
        QCOMPARE(b.yHi, 3.0);
        b.add(1, nan);
        QVERIFY(b.valid());
        QCOMPARE(b.xLo, 1.0);
        QCOMPARE(b.yHi, 3.0);
        b.addX(inf);
        QCOMPARE(b.xHi, inf);
        QCOMPARE(b.xLo, 1.0);
    }
    void poolGrowsAttachedAndHidesTheRest() {
        QChartView view;
        QChart* chart = view.chart();
        auto* x = new QValueAxis(chart);
        auto* y = new QValueAxis(chart);
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        view.resize(400, 300);
        view.show();
        QList<QLineSeries*> pool;
        int made = 0;
        const auto init = [&made](QLineSeries* s) {
            ++made;
            s->setPointsVisible(true);
        };
        growSeriesPool(pool, 3, chart, x, y, init);
        QCOMPARE(pool.size(), 3);
        QCOMPARE(made, 3);
        QCOMPARE(chart->series().size(), 3);
        for (qsizetype i = 0; i < pool.size(); ++i) {
            QCOMPARE(chart->series()[i], pool[i]);  // added in pool order (legend order)
            QCOMPARE(pool[i]->attachedAxes().size(), 2);
            QVERIFY(pool[i]->attachedAxes().contains(x));
            QVERIFY(pool[i]->attachedAxes().contains(y));
            QVERIFY(pool[i]->pointsVisible());
            QVERIFY(pool[i]->isVisible());
            QVERIFY(markerVisible(chart, pool[i]));
        }
        // Shrinking keeps the series, hides the last two with their legend markers.
        const QList<QLineSeries*> first = pool;
        growSeriesPool(pool, 1, chart, x, y, init);
        QCOMPARE(pool, first);
        QCOMPARE(made, 3);
        QVERIFY(pool[0]->isVisible());
        QVERIFY(markerVisible(chart, pool[0]));
        for (int i : {1, 2}) {
            QVERIFY(!pool[i]->isVisible());
            QVERIFY(!markerVisible(chart, pool[i]));
        }
        // Growing to 4 reuses the three (hidden ones stay hidden for the caller to show) and
        // adds one; showing a hidden series shows its marker again.
        growSeriesPool(pool, 4, chart, x, y, init);
        QCOMPARE(pool.size(), 4);
        QCOMPARE(made, 4);
        QCOMPARE(pool.mid(0, 3), first);
        QCOMPARE(chart->series().size(), 4);
        QVERIFY(!pool[1]->isVisible());
        QVERIFY(pool[3]->isVisible());
        pool[1]->setVisible(true);
        QVERIFY(markerVisible(chart, pool[1]));
        // Zero hides every series.
        growSeriesPool(pool, 0, chart, x, y);
        for (QLineSeries* s : pool) QVERIFY(!s->isVisible());
    }
    void poolWithAMaker() {
        QChart chart;
        auto* x = new QValueAxis(&chart);
        auto* y = new QValueAxis(&chart);
        chart.addAxis(x, Qt::AlignBottom);
        chart.addAxis(y, Qt::AlignLeft);
        QList<QAreaSeries*> areas;
        const auto make = [&]() {
            auto* a = new QAreaSeries(new QLineSeries, new QLineSeries);
            return addSeriesOnAxes(&chart, a, x, y);
        };
        growSeriesPoolWith(areas, 2, &chart, make);
        QCOMPARE(areas.size(), 2);
        QCOMPARE(chart.series().size(), 2);
        QCOMPARE(areas[1]->attachedAxes().size(), 2);
        QVERIFY(areas[1]->parent() != nullptr);  // owned by the chart
        growSeriesPoolWith(areas, 1, &chart, make);
        QCOMPARE(areas.size(), 2);
        QVERIFY(areas[0]->isVisible());
        QVERIFY(!areas[1]->isVisible());
        // addSeriesOnAxes on an existing scatter series returns it, on the chart and both axes.
        auto* s = new QScatterSeries;
        QCOMPARE(addSeriesOnAxes(&chart, s, x, y), s);
        QVERIFY(chart.series().contains(s));
        QCOMPARE(s->attachedAxes().size(), 2);
    }

    /// An exported picture is the chart alone: a pinned read-out box (and the crosshair) shown
    /// on screen is not drawn into a PNG, SVG or PDF, and stays pinned on screen afterwards. An
    /// SVG clips its series to the plot area, as the screen does: a curve far above the y range
    /// lies inside a group clipped to the plot area, and no line of its colour is outside it.
    void exportsDrawNoReadoutAndClipSeries() {
        ChartView view(QStringLiteral("test"), QStringLiteral("A chart title"));
        auto* line = new QLineSeries;
        line->setName(QStringLiteral("loss"));
        line->setPen(QPen(QColor(0x12, 0x34, 0x56), 2));
        for (int i = 0; i <= 10; ++i) line->append(i, i < 5 ? 0.5 : 40.0);  // above the range
        view.chart()->addSeries(line);
        auto* x = new QValueAxis;
        auto* y = new QValueAxis;
        x->setRange(0, 10);
        y->setRange(0, 1);
        view.chart()->addAxis(x, Qt::AlignBottom);
        view.chart()->addAxis(y, Qt::AlignLeft);
        line->attachAxis(x);
        line->attachAxis(y);
        view.resize(640, 420);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.fitTexts();
        QCoreApplication::processEvents();
        const QString marker = QStringLiteral("READOUT-XYZZY");
        const HoverTable table{marker, QString(), {HoverRow{QStringLiteral("loss"), "0.5"}}};
        const QPoint at =
            view.mapFromScene(view.chart()->mapToScene(view.chart()->plotArea().center()));
        QTemporaryDir dir;
        auto exportTo = [&](const QString& name) {
            const QString path = dir.filePath(name);
            QString error;
            if (!exportChart(&view, path, &error, QSize(), 1.0)) qWarning("%s", qPrintable(error));
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QByteArray plainPng = exportTo(QStringLiteral("plain.png"));
        const QImage plainScreen = view.grab().toImage();
        view.pinHover(table, at);
        QTest::mouseMove(view.viewport(), at + QPoint(20, 0));  // a live crosshair as well
        QCoreApplication::processEvents();
        QVERIFY(view.grab().toImage() != plainScreen);  // the box is drawn on screen
        const QByteArray pinnedPng = exportTo(QStringLiteral("pinned.png"));
        QVERIFY(!plainPng.isEmpty());
        QImage a, b;
        QVERIFY(a.loadFromData(plainPng, "PNG") && b.loadFromData(pinnedPng, "PNG"));
        QCOMPARE(b, a);
        const QByteArray svg = exportTo(QStringLiteral("pinned.svg"));
        QVERIFY(svg.contains("A chart title"));
        QVERIFY2(!svg.contains(marker.toUtf8()), "the read-out was exported");
        const QByteArray pdf = exportTo(QStringLiteral("pinned.pdf"));
        QVERIFY(pdf.startsWith("%PDF"));
        QCOMPARE(view.pinnedHover().heading, marker);  // still pinned on screen

        // The clip path is the plot area, in the SVG's (the view's) coordinates.
        const QRegularExpression clip(QStringLiteral(
            "<clipPath id=\"tandem-plot-area\">\\s*<rect x=\"([-0-9.e]+)\" y=\"([-0-9.e]+)\" "
            "width=\"([-0-9.e]+)\" height=\"([-0-9.e]+)\"/>"));
        const QRegularExpressionMatch m = clip.match(QString::fromUtf8(svg));
        QVERIFY2(m.hasMatch(), svg.left(2000).constData());
        const QRectF plot = view.viewportTransform()
                                .map(view.chart()->mapToScene(view.chart()->plotArea()))
                                .boundingRect();
        QVERIFY(std::abs(m.captured(1).toDouble() - plot.x()) < 0.5);
        QVERIFY(std::abs(m.captured(2).toDouble() - plot.y()) < 0.5);
        QVERIFY(std::abs(m.captured(3).toDouble() - plot.width()) < 0.5);
        QVERIFY(std::abs(m.captured(4).toDouble() - plot.height()) < 0.5);
        // The series is drawn inside the clipped group.
        const qsizetype open = svg.indexOf("<g clip-path=\"url(#tandem-plot-area)\">");
        QVERIFY(open > 0);
        qsizetype close = open, depth = 0;  // the matching </g>
        for (qsizetype i = open; i < svg.size(); ++i) {
            if (svg.mid(i, 2) == "<g") ++depth;
            if (svg.mid(i, 4) == "</g>" && --depth == 0) {
                close = i;
                break;
            }
        }
        QVERIFY(close > open);
        const QByteArray inside = svg.mid(open, close - open);
        const QByteArray outside = svg.left(open) + svg.mid(close);
        QVERIFY2(inside.contains("#123456"), inside.left(2000).constData());
        // Outside it the colour is the legend's symbol (text), never a line.
        for (qsizetype at = outside.indexOf("stroke=\"#123456\""); at >= 0;
             at = outside.indexOf("stroke=\"#123456\"", at + 1)) {
            const QByteArray group = outside.mid(at, outside.indexOf("</g>", at) - at);
            QVERIFY2(!group.contains("<polyline") && !group.contains("<path"), group.constData());
        }
        QVERIFY(!inside.contains("A chart title"));
    }
};

TANDEM_TEST_MAIN(TstChartHelpers)
#include "tst_chart_helpers.moc"
