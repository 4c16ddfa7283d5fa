// Chart keys and names found in a fresh-user test [issue 7, findings 3 and 4]: the loss-fit
// legend says "logged loss" (never "loss loss"), a fit over decreasing steps is drawn, a fit that
// cannot be drawn shows a note instead of a legend entry and cannot become the progress curve;
// the memory chart's value axis is titled in GB; the layout heatmap has an MFU % colour scale
// and a key line saying what X means.
#include <QtTest>

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>

#include <cmath>
#include <limits>

#include "io/loss_fit.h"
#include "io/loss_log.h"
#include "layout_heatmap_view.h"
#include "loss_fit_view.h"
#include "memory_bar_view.h"

using namespace tandem;
using namespace tandem::ui;

namespace {
/// A CSV-like log with one series `name`, L = 2 + 5 (s + 10)^-0.5 at 20 steps, in the order
/// given by `decreasing`.
io::LossLog makeLog(const std::string& name, bool decreasing) {
    io::LossSeries s;
    s.name = name;
    for (int k = 0; k < 20; ++k) {
        const double step = decreasing ? 1000.0 - 50.0 * k : 50.0 * k;
        s.step.push_back(step);
        s.loss.push_back(2 + 5 * std::pow(step + 10, -0.5));
        s.line.push_back(static_cast<std::size_t>(k + 2));
    }
    io::LossLog log;
    log.format = "csv";
    log.series.push_back(s);
    return log;
}
bool legendShows(const ChartView* view, QAbstractSeries* series) {
    return series->isVisible() && view->legendEntries().contains(series->name());
}
}  // namespace

class TstChartKeys : public QObject {
    Q_OBJECT
private slots:
    void loggedSeriesNames_data() {
        QTest::addColumn<QString>("column");
        QTest::addColumn<QString>("expected");
        QTest::newRow("loss") << QStringLiteral("loss") << QStringLiteral("logged loss");
        QTest::newRow("val_loss") << QStringLiteral("val_loss") << QStringLiteral("logged val_loss");
        QTest::newRow("train") << QStringLiteral("train") << QStringLiteral("logged train loss");
        QTest::newRow("empty") << QString() << QStringLiteral("logged loss");
    }
    void loggedSeriesNames() {
        QFETCH(QString, column);
        QFETCH(QString, expected);
        QCOMPARE(loggedSeriesName(column.toStdString()), expected);
    }

    /// A CSV column named `loss`, steps increasing or decreasing: legend "logged loss" and the
    /// fit drawn over the whole logged range.
    void fitIsDrawnAndNamed_data() {
        QTest::addColumn<bool>("decreasing");
        QTest::newRow("increasing steps") << false;
        QTest::newRow("decreasing steps") << true;
    }
    void fitIsDrawnAndNamed() {
        QFETCH(bool, decreasing);
        const io::LossLog log = makeLog("loss", decreasing);
        Diagnostics d;
        const auto fit = io::fitLossCurve(log.series[0].step, log.series[0].loss, d);
        QVERIFY2(fit, d.str().c_str());
        LossFitPanel panel;
        panel.resize(800, 500);
        panel.setData(log, *fit, QStringLiteral("log.csv"));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        LossFitView* v = panel.view();
        QCOMPARE(v->pointSeries()->name(), QStringLiteral("logged loss"));
        QCOMPARE(v->fitSeries()->name(), QStringLiteral("fit: L(s) = L_inf + A (s + S0)^-alpha"));
        QVERIFY(v->fitNote().isEmpty());
        QVERIFY2(legendShows(v, v->fitSeries()), qPrintable(v->legendEntries().join(QLatin1Char('|'))));
        QVERIFY(v->legendEntries().contains(QStringLiteral("logged loss")));
        const QList<QPointF> pts = v->fitSeries()->points();
        QVERIFY(pts.size() >= 2);
        // From the smallest to the largest logged step (0..950 or 50..1000).
        QCOMPARE(pts.front().x(), decreasing ? 50.0 : 0.0);
        QCOMPARE(pts.back().x(), decreasing ? 1000.0 : 950.0);
        QVERIFY(std::abs(pts.back().y() - (2 + 5 * std::pow(pts.back().x() + 10, -0.5))) < 0.01);
        panel.setUsable(true);
        // The button follows io::LossFit::usable (a log whose loss rises in file order is
        // flagged by the fit's warnings).
        QCOMPARE(panel.useButton()->isEnabled(), fit->usable);
        if (!decreasing) QVERIFY(fit->usable);
        if (!fit->usable) {
            QVERIFY(!fit->warnings.empty());
            QVERIFY(panel.summary()->text().contains(QStringLiteral("Not usable as a progress curve")));
            QVERIFY(panel.useButton()->toolTip().contains(QString::fromStdString(fit->warnings.front())));
        }
        panel.setUsable(false);
        QVERIFY(!panel.useButton()->isEnabled());
    }

    /// A fit with non-finite parameters: a note, no legend entry, and the button is disabled
    /// even for a scenario with an ML-for-ML part.
    void undrawableFitShowsANote() {
        const io::LossLog log = makeLog("loss", false);
        io::LossFit fit;
        fit.lInf = std::numeric_limits<double>::quiet_NaN();
        fit.points = 20;
        LossFitPanel panel;
        panel.setUsable(true);
        panel.setData(log, fit, QStringLiteral("log.csv"));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(!panel.view()->fitNote().isEmpty());
        QVERIFY(panel.view()->legendEntries().contains(QStringLiteral("logged loss")));
        QVERIFY(!legendShows(panel.view(), panel.view()->fitSeries()));
        QVERIFY(panel.view()->chart()->title().contains(panel.view()->fitNote().toHtmlEscaped()));
        QVERIFY(!panel.useButton()->isEnabled());
        QVERIFY(panel.useButton()->toolTip().contains(panel.view()->fitNote()));
        panel.setUsable(true);
        QVERIFY(!panel.useButton()->isEnabled());
        QVERIFY(panel.summary()->text().contains(panel.view()->fitNote().toHtmlEscaped()));
    }

    void memoryAxisHasTitleWithUnit() {
        MemoryBarView v;
        v.setData(60, 80, QStringLiteral("PP 2 x EP 8"));
        const QList<QAbstractAxis*> axes = v.chart()->axes(Qt::Horizontal);
        QCOMPARE(axes.size(), 1);
        QCOMPARE(axes.front()->titleText(), QStringLiteral("Memory per GPU (GB)"));
    }

    void heatmapHasColourScaleAndKey() {
        LayoutHeatmapView v;
        v.resize(640, 420);
        LayoutCells cells;
        cells.pp = {1, 2};
        cells.ep = {1, 2, 4};
        cells.cells.resize(6);
        for (size_t i = 0; i < cells.cells.size(); ++i) {
            cells.cells[i].pp = cells.pp[i / 3];
            cells.cells[i].ep = cells.ep[i % 3];
        }
        cells.cells[0].feasible = cells.cells[0].anyValid = true;
        cells.cells[0].eval.mfu = 0.42;
        cells.maxMfu = 0.42;
        v.setData(cells, 0, QStringLiteral("geometry"));
        QCOMPARE(v.colourScaleMaxPercent(), 42.0);
        QVERIFY(LayoutHeatmapView::caption().startsWith(QLatin1String("X: layout infeasible (mesh rules")));
        QVERIFY(LayoutHeatmapView::caption().contains(QLatin1String("OOM")));
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        // Room for the colour bar right of the grid and the key line under it.
        const QRectF plot = v.chart()->plotArea();
        QVERIFY(v.chart()->size().width() - plot.right() >= 60);
        // The bar's top is the brightest colour of the map (the best cell's MFU).
        const QImage img = v.grab().toImage();
        const QPoint top = v.mapFromScene(v.chart()->mapToScene(QPointF(plot.right() + 20, plot.top() + 30)));
        const QColor c = img.pixelColor(top * img.devicePixelRatio());
        QVERIFY2(c.lightnessF() > 0.45, qPrintable(c.name()));
    }
};

QTEST_MAIN(TstChartKeys)
#include "tst_chart_keys.moc"
