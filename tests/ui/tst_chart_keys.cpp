// Chart keys and names say what is drawn, in the units shown: the loss-fit
// legend says "logged loss" (never "loss loss"), a fit over decreasing steps is drawn, a fit that
// cannot be drawn shows a note instead of a legend entry and cannot become the progress curve;
// the memory chart's value axis is titled in GB; the layout heatmap has an MFU % colour scale
// and a key line saying what X means. Exported SVG metadata is plain text (a rich-text chart title
// is converted). Policy lines that coincide (Joint = Knob-Precision in ML-for-ML scenario 1,
// 2608.06046 Fig. 2) are detected from the data, dashed over each other and share one legend
// entry "Knob-Precision = Joint".
#include <QAbstractAxis>
#include <QChart>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QPushButton>
#include <QScatterSeries>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <cmath>
#include <limits>

#include "io/loss_fit.h"
#include "io/loss_log.h"
#include "test_main.h"
#include "ui/mlforml/dp_share_time_view.h"
#include "ui/mlforml/loss_curve_view.h"
#include "ui/mlforml/loss_fit_view.h"
#include "ui/mlforml/network_controls.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mosaic/layout_heatmap_view.h"
#include "ui/mosaic/memory_bar_view.h"
#include "ui/shell/main_window.h"
#include "ui/shell/presets.h"
#include "ui/widgets/chart_export.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/coincident_curves.h"
#include "ui/widgets/export_dialog.h"
#include "ui/widgets/labeled_slider.h"

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
    log.format = tandem::io::LossLogFormat::Csv;
    log.series.push_back(s);
    return log;
}
/// Text of the SVG's first <title> and <desc> elements (XML entities decoded); title "XML error:
/// ..." when the file is not well-formed.
QPair<QString, QString> svgMetadata(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QXmlStreamReader xml(&f);
    QString title, desc;
    bool haveTitle = false, haveDesc = false;
    while (!xml.atEnd()) {  // the whole file, so that malformed XML is an error
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        if (xml.name() == QLatin1String("title") && !haveTitle) {
            title = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            haveTitle = true;
        } else if (xml.name() == QLatin1String("desc") && !haveDesc) {
            desc = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            haveDesc = true;
        }
    }
    if (xml.hasError()) return {QStringLiteral("XML error: ") + xml.errorString(), QString()};
    return {title, desc};
}
/// A policy run whose loss falls as L(t) = 2.5 + 1 / (1 + t / `tau`) over 0..`tEnd` s (201 points,
/// updates = t / 2), with a first crossing at loss 2.6 (one target).
mlforml::PolicyRun makeRun(const std::string& policy, double tau, double tEnd) {
    mlforml::PolicyRun r;
    r.policy = policy;
    for (int k = 0; k <= 200; ++k) {
        const double t = tEnd * k / 200.0;
        r.time_s.push_back(t);
        r.updates.push_back(t / 2);
        r.loss.push_back(2.5 + 1 / (1 + t / tau));
        r.dpShareTime_s.push_back(t);
        r.dpShare.push_back(0.3 + 0.2 / (1 + t / tau));
    }
    r.firstCrossing_s = {9 * tau};  // 2.5 + 1/10 = 2.6
    r.endTime_s = tEnd;
    return r;
}
QLineSeries* seriesNamed(const ChartView* view, const QString& name) {
    const auto all = view->chart()->series();
    for (QAbstractSeries* s : all)
        if (s->name() == name && s->isVisible()) return qobject_cast<QLineSeries*>(s);
    return nullptr;
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
        QTest::newRow("val_loss") << QStringLiteral("val_loss")
                                  << QStringLiteral("logged val_loss");
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
        QVERIFY2(legendShows(v, v->fitSeries()),
                 qPrintable(v->legendEntries().join(QLatin1Char('|'))));
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
            QVERIFY(
                panel.summary()->text().contains(QStringLiteral("Not usable as a progress curve")));
            QVERIFY(panel.useButton()->toolTip().contains(
                QString::fromStdString(fit->warnings.front())));
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
        QVERIFY(plainChartText(panel.view()->chart()->title())
                    .simplified()
                    .contains(panel.view()->fitNote()));
        QVERIFY(!panel.useButton()->isEnabled());
        QVERIFY(panel.useButton()->toolTip().contains(panel.view()->fitNote()));
        panel.setUsable(true);
        QVERIFY(!panel.useButton()->isEnabled());
        QVERIFY(panel.summary()->text().contains(panel.view()->fitNote().toHtmlEscaped()));
    }

    void plainChartTextRows_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("plain");
        QTest::addColumn<QString>("title");
        QTest::newRow("plain") << QStringLiteral("Exposed DP share, N=4 GPT-1B")
                               << QStringLiteral("Exposed DP share, N=4 GPT-1B")
                               << QStringLiteral("Exposed DP share, N=4 GPT-1B");
        QTest::newRow("br small") << QStringLiteral(
                                         "Fit: log.csv<br><small>The fit &amp; its note</small>")
                                  << QStringLiteral("Fit: log.csv\nThe fit & its note")
                                  << QStringLiteral("Fit: log.csv");
        QTest::newRow("bold sup") << QStringLiteral("<b>Loss</b> L = A S<sup>-alpha</sup>")
                                  << QStringLiteral("Loss L = A S-alpha")
                                  << QStringLiteral("Loss L = A S-alpha");
        QTest::newRow("less-than in plain text")
            << QStringLiteral("S < 0.96") << QStringLiteral("S < 0.96")
            << QStringLiteral("S < 0.96");
    }
    void plainChartTextRows() {
        QFETCH(QString, text);
        QFETCH(QString, plain);
        QFETCH(QString, title);
        QCOMPARE(plainChartText(text), plain);
        QCOMPARE(plainChartTitle(text), title);
    }

    /// A loss log whose fit cannot be drawn puts its note under the title as rich text; the
    /// exported SVG's <title> and <desc> are plain text (no <b>, <br>, <small>, escaped or not).
    void svgMetadataIsPlainText_data() {
        QTest::addColumn<bool>("drawable");
        QTest::newRow("fit cannot be drawn (title with note)") << false;
        QTest::newRow("fit drawn (plain title)") << true;
    }
    void svgMetadataIsPlainText() {
        QFETCH(bool, drawable);
        const io::LossLog log = makeLog("loss", false);
        io::LossFit fit;
        fit.lInf = drawable ? 2.0 : std::numeric_limits<double>::quiet_NaN();
        fit.a = 5;
        fit.alpha = 0.5;
        fit.s0 = 10;
        fit.points = 20;
        LossFitPanel panel;
        panel.setData(log, fit, QStringLiteral("tiny <log>.csv"));
        panel.resize(800, 500);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        LossFitView* v = panel.view();
        QCOMPARE(v->fitNote().isEmpty(), drawable);
        QCOMPARE(v->chart()->title().contains(QLatin1String("<br>")),
                 !drawable);  // the on-screen title is rich text
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("fit.svg"));
        QString error;
        QVERIFY2(exportChart(v, path, &error, QSize(900, 560)), qPrintable(error));
        const auto [title, desc] = svgMetadata(path);
        QCOMPARE(title, QStringLiteral("Logged loss and fitted progress curve: tiny <log>.csv"));
        QStringList expectedDesc{title};
        if (!drawable) expectedDesc << v->fitNote();
        expectedDesc << QStringLiteral("x: Optimizer step")
                     << QStringLiteral("y: Loss (as logged, nats)");
        QCOMPARE(desc, expectedDesc.join(QLatin1Char('\n')));
        for (const QString& tag :
             {QStringLiteral("<b>"), QStringLiteral("<br>"), QStringLiteral("<small>"),
              QStringLiteral("</small>"), QStringLiteral("&lt;"), QStringLiteral("&amp;")}) {
            QVERIFY2(!title.contains(tag), qPrintable(title));
            QVERIFY2(!desc.contains(tag), qPrintable(desc));
        }
        // The raw file carries no escaped markup either (the label's own "<log>" is escaped once).
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray raw = f.readAll();
        QVERIFY(!raw.contains("&lt;br&gt;"));
        QVERIFY(!raw.contains("&lt;small&gt;"));
    }

    void curvesCoincideRows_data() {
        QTest::addColumn<QList<QPointF>>("a");
        QTest::addColumn<QList<QPointF>>("b");
        QTest::addColumn<bool>("expected");
        const QList<QPointF> line{{0, 10}, {5, 5}, {10, 0}};
        QList<QPointF> fine;  // the same straight line sampled every 0.5
        for (int k = 0; k <= 20; ++k) fine.append(QPointF(0.5 * k, 10 - 0.5 * k));
        QList<QPointF> shifted = fine;
        for (QPointF& p : shifted) p.ry() += 0.05;
        QList<QPointF> bumped = fine;
        bumped[7].ry() += 0.2;  // one point off by twice the tolerance
        QTest::newRow("identical") << line << line << true;
        QTest::newRow("same line, other sampling") << line << fine << true;
        QTest::newRow("within y tolerance") << fine << shifted << true;
        QTest::newRow("one point off") << fine << bumped << false;
        QTest::newRow("ends earlier") << line << QList<QPointF>{{0, 10}, {5, 5}} << false;
        QTest::newRow("crossing") << line << QList<QPointF>{{0, 0}, {10, 10}} << false;
        QTest::newRow("empty") << line << QList<QPointF>{} << false;
        // A steep start (y = 1/x, slope -100 at x = 0.1) from the same first point, then sampled
        // 0.005 later: y differs by up to 0.3 at equal x, but every point is within the x
        // tolerance of the other line.
        QList<QPointF> steep, steepLater{{0.1, 10}}, steepFar{{0.1, 10}};
        for (int k = 0; k <= 18; ++k) {
            const double x = 0.1 + 0.05 * k;
            steep.append(QPointF(x, 1 / x));
            steepLater.append(QPointF(x + 0.005, 1 / (x + 0.005)));
            steepFar.append(QPointF(x + 0.005, 1 / (x + 0.005) + 0.2));
        }
        QTest::newRow("steep, other sampling") << steep << steepLater << true;
        QTest::newRow("steep, off in y") << steep << steepFar << false;
    }
    /// Tolerances x 0.01, y 0.1 (chart units).
    void curvesCoincideRows() {
        QFETCH(QList<QPointF>, a);
        QFETCH(QList<QPointF>, b);
        QFETCH(bool, expected);
        QCOMPARE(curvesCoincide(a, b, 0.01, 0.1), expected);
        QCOMPARE(curvesCoincide(b, a, 0.01, 0.1), expected);
    }

    void coincidentGroups() {
        const QList<QPointF> a{{0, 1}, {1, 0}}, b{{0, 2}, {1, 1}};
        // 0 = 2 = 3, 1 alone; skipping 2 leaves 3 in 0's group.
        QCOMPARE(coincidentWith({a, b, a, a}, 1e-6, 1e-6), (QList<int>{-1, -1, 0, 0}));
        QCOMPARE(coincidentWith({a, b, a, a}, 1e-6, 1e-6, {false, false, true}),
                 (QList<int>{-1, -1, -1, 0}));
        QCOMPARE(coincidentWith({a, b, a, a}, 1e-6, 1e-6, {true}), (QList<int>{-1, -1, -1, 2}));
        const QList<int> sameAs{-1, -1, 0, 0};
        // {leader, index, groupSize} of each curve.
        const auto member = [&sameAs](qsizetype i) {
            const CoincidentMember m = coincidentMember(sameAs, i);
            return QList<int>{m.leader, m.index, m.groupSize};
        };
        QCOMPARE(member(0), (QList<int>{0, 0, 3}));
        QCOMPARE(member(1), (QList<int>{1, 0, 1}));
        QCOMPARE(member(2), (QList<int>{0, 1, 3}));
        QCOMPARE(member(3), (QList<int>{0, 2, 3}));
        QCOMPARE(member(4), (QList<int>{-1, 0, 1}));  // out of range
        // Dashes: member k of 3 dashes one slot of three (3 pen widths each) at offset 3 (k - 1).
        QPen pen(Qt::red, 2);
        dashCoincidentPen(pen, 2, 3);
        QCOMPARE(pen.style(), Qt::CustomDashLine);
        QCOMPARE(pen.dashPattern(), (QList<qreal>{3, 6}));
        QCOMPARE(pen.dashOffset(), 3.0);
        QPen solid(Qt::red, 2);
        dashCoincidentPen(solid, 0, 3);
        QCOMPARE(solid.style(), Qt::SolidLine);
        // One legend entry per group, first curve's name first.
        const QStringList names{QStringLiteral("Static"), QStringLiteral("Knob-GA"),
                                QStringLiteral("Decoupled"), QStringLiteral("Joint")};
        QCOMPARE(coincidentLegendLabel(sameAs, names, 0),
                 QStringLiteral("Static = Decoupled = Joint"));
        QCOMPARE(coincidentLegendLabel(sameAs, names, 1), QStringLiteral("Knob-GA"));
        QCOMPARE(coincidentLegendLabel(sameAs, names, 2), QString());
        QCOMPARE(coincidentLegendLabel(sameAs, names, 4), QString());
    }

    /// Knob-Precision and Joint with the same trajectory (scenario 1's GA4-MXFP4 for both):
    /// Joint is dashed over Knob-Precision, one legend entry "Knob-Precision = Joint", in the loss
    /// chart (time and updates axes) and the DP-share chart; Static differs and stays solid. Hiding
    /// Knob-Precision makes Joint a plain solid line again.
    void coincidentPolicyLinesAreDashedAndNamed_data() {
        QTest::addColumn<bool>("updatesAxis");
        QTest::newRow("loss vs time") << false;
        QTest::newRow("loss vs updates") << true;
    }
    void coincidentPolicyLinesAreDashedAndNamed() {
        QFETCH(bool, updatesAxis);
        mlforml::PointResult point;
        point.label = "N=4 GPT-1B";
        point.policies = {makeRun("Static", 600, 7200), makeRun("Knob-Precision", 300, 4000),
                          makeRun("Decoupled", 320, 4000), makeRun("Joint", 300, 4000)};
        LossCurveView v;
        v.resize(900, 560);
        LossViewOptions o;
        o.updatesAxis = updatesAxis;
        o.targetIndex = 0;
        v.setOptions(o);
        v.setData(point, {1.02}, {2.6});
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QCOMPARE(v.coincidences(), (QList<int>{-1, -1, -1, 1}));
        const QStringList legend = v.legendEntries();
        QCOMPARE(legend,
                 (QStringList{QStringLiteral("Static"), QStringLiteral("Knob-Precision = Joint"),
                              QStringLiteral("Decoupled"), QStringLiteral("Target")}));
        QLineSeries* joint = seriesNamed(&v, QStringLiteral("Joint"));
        QLineSeries* kp = seriesNamed(&v, QStringLiteral("Knob-Precision"));
        QVERIFY(joint && kp);
        QCOMPARE(joint->pen().style(), Qt::CustomDashLine);
        QCOMPARE(kp->pen().style(), Qt::SolidLine);
        QCOMPARE(seriesNamed(&v, QStringLiteral("Static"))->pen().style(), Qt::SolidLine);
        // Both colours are drawn along the shared line: the exported picture has pixels of each.
        const QImage img = v.grab().toImage();
        const QColor kpColour = kp->pen().color(), jointColour = joint->pen().color();
        int kpPixels = 0, jointPixels = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QColor c = img.pixelColor(x, y);
                kpPixels += c == kpColour;
                jointPixels += c == jointColour;
            }
        QVERIFY2(kpPixels > 100 && jointPixels > 100,
                 qPrintable(QStringLiteral("%1 %2").arg(kpPixels).arg(jointPixels)));

        o.hiddenPolicies = {QStringLiteral("Knob-Precision")};
        v.setOptions(o);
        QCOMPARE(v.coincidences(), (QList<int>{-1, -1, -1, -1}));
        QVERIFY(v.legendEntries().contains(QStringLiteral("Joint")));
        QCOMPARE(seriesNamed(&v, QStringLiteral("Joint"))->pen().style(), Qt::SolidLine);

        DpShareTimeView dp;
        dp.resize(900, 560);
        dp.setData(point);
        QCOMPARE(dp.coincidences(), (QList<int>{-1, -1, -1, 1}));
        QVERIFY(seriesNamed(&dp, QStringLiteral("Joint")));
        QCOMPARE(seriesNamed(&dp, QStringLiteral("Joint"))->pen().style(), Qt::CustomDashLine);
        QCOMPARE(seriesNamed(&dp, QStringLiteral("Knob-Precision"))->pen().style(), Qt::SolidLine);
        dp.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dp));
        QCOMPARE(dp.legendEntries(),
                 (QStringList{QStringLiteral("Static"), QStringLiteral("Knob-Precision = Joint"),
                              QStringLiteral("Decoupled")}));
        // The CSV keeps the policy names.
        QVERIFY(v.csv().contains(QStringLiteral("\nJoint,")));
        QVERIFY(!v.csv().contains(QStringLiteral(" = ")));
        // The drawn share of Joint is still found under its policy name.
        QVERIFY(std::abs(dp.meanShare(QStringLiteral("Joint")) -
                         dp.meanShare(QStringLiteral("Knob-Precision"))) < 1e-9);
    }

    /// A curve off by a visible amount (1 % of the loss axis) is not merged.
    void nearlyCoincidentLinesStaySeparate() {
        mlforml::PointResult point;
        mlforml::PolicyRun kp = makeRun("Knob-Precision", 300, 4000),
                           joint = makeRun("Joint", 300, 4000);
        for (double& l : joint.loss) l += 0.01 * (2.6 * 1.04 - 2.5);
        point.policies = {kp, joint};
        LossCurveView v;
        v.resize(900, 560);
        v.setData(point, {1.02}, {2.6});
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QCOMPARE(v.coincidences(), (QList<int>{-1, -1}));
        QVERIFY(v.legendEntries().contains(QStringLiteral("Joint")));
    }

    /// From the engine's own runs: in scenario 1 at N = 4 (Fig. 2c) Joint picks GA4-MXFP4 like
    /// Knob-Precision throughout, so its loss line (time and updates axes) and DP-share line are
    /// flagged as coinciding with Knob-Precision's and no other pair is; under scenario 2's
    /// Poisson background (Fig. 3) Joint differs from Knob-Precision and nothing coincides.
    void enginePresetsFlagOnlyTheCoincidentPolicies_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<bool>("updatesAxis");
        QTest::addColumn<bool>("jointIsKnobPrecision");
        QTest::addColumn<int>("jobs");  // co-running jobs N set with the slider (-1: the preset's)
        // At N = 8 and 16 Joint's first decision differs (its DP share there is about half of
        // Knob-Precision's), yet the loss lines stay within a pixel of each other all the way
        // (their steep start is sampled at slightly different times): merged on the loss chart.
        QTest::addColumn<bool>("dpShareToo");
        QTest::newRow("Fig. 2c, loss vs time")
            << QStringLiteral("mlforml-fig2c") << false << true << -1 << true;
        QTest::newRow("Fig. 2c, loss vs updates")
            << QStringLiteral("mlforml-fig2c") << true << true << -1 << true;
        QTest::newRow("Fig. 2c at N = 8")
            << QStringLiteral("mlforml-fig2c") << false << true << 8 << false;
        QTest::newRow("Fig. 2c at N = 16")
            << QStringLiteral("mlforml-fig2c") << false << true << 16 << false;
        QTest::newRow("Fig. 3, scenario 2")
            << QStringLiteral("mlforml-fig3") << false << false << -1 << true;
    }
    void enginePresetsFlagOnlyTheCoincidentPolicies() {
        QFETCH(QString, preset);
        QFETCH(bool, updatesAxis);
        QFETCH(bool, jointIsKnobPrecision);
        QFETCH(int, jobs);
        QFETCH(bool, dpShareToo);
        QStandardPaths::setTestModeEnabled(true);
        int index = -1;
        const QList<Preset> presets = allPresets();
        for (int i = 0; i < presets.size(); ++i)
            if (presets[i].id == preset) index = i;
        QVERIFY(index >= 0);
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        w.applyPreset(index, false);
        QVERIFY(w.waitForResults(60000));
        if (jobs > 0) {
            w.networkWorkspace()
                ->findChild<NetworkControls*>()
                ->backgroundSlider()
                ->slider()
                ->setValue(jobs);
            QVERIFY(w.waitForResults(60000));
        }
        LossCurveView* loss = w.networkWorkspace()->lossView();
        LossViewOptions o = loss->options();
        o.updatesAxis = updatesAxis;
        loss->setOptions(o);
        const QStringList policies = loss->policies();
        const int kp = static_cast<int>(policies.indexOf(QStringLiteral("Knob-Precision")));
        const int joint = static_cast<int>(policies.indexOf(QStringLiteral("Joint")));
        QVERIFY(kp >= 0 && joint > kp);
        QList<int> expected(policies.size(), -1);
        if (jointIsKnobPrecision) expected[joint] = kp;
        QCOMPARE(loss->coincidences(), expected);
        if (dpShareToo) QCOMPARE(w.networkWorkspace()->dpShareTimeView()->coincidences(), expected);
        QCOMPARE(loss->legendEntries().contains(QStringLiteral("Knob-Precision = Joint")),
                 jointIsKnobPrecision);
        QCOMPARE(loss->legendEntries().contains(QStringLiteral("Joint")), !jointIsKnobPrecision);
    }

    /// The export dialog's presets give a 1920 x 1080 PNG for a 16:9 slide and 1050 x 750 for a
    /// paper column (3.5 x 2.5 in at 300 DPI), whatever the chart's size on screen; SVG and PDF
    /// are vectors (no embedded raster image); the chart gets its on-screen size back.
    void exportSizesFollowTheDialog() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MemoryBarView v;
        v.setData(60, 80, QStringLiteral("PP 2 x EP 8"));
        v.resize(1030, 1738);  // a tall widget must not make a tall picture
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const QSize onScreen = v.size();
        ExportDialog d(v.size());
        QCOMPARE(d.pngSize(), QSize(2060, 3476));  // this chart's size, 2 pixels per screen pixel
        const struct {
            ExportPreset preset;
            QSize png;
        } cases[] = {{ExportPreset::Slide, QSize(1920, 1080)},
                     {ExportPreset::PaperColumn, QSize(1050, 750)},
                     {ExportPreset::PaperWidth, QSize(2100, 1050)}};
        for (const auto& c : cases) {
            d.setPreset(c.preset);
            QCOMPARE(d.pngSize(), c.png);
            const QString png = dir.filePath(QStringLiteral("c.png"));
            QString error;
            QVERIFY2(exportChart(&v, png, &error, d.layoutSize(), d.pixelRatio()),
                     qPrintable(error));
            QCOMPARE(QImage(png).size(), c.png);
            QCOMPARE(v.size(), onScreen);
        }
        d.setPreset(ExportPreset::Slide);
        for (const char* suffix : {"svg", "pdf"}) {
            const QString path = dir.filePath(QStringLiteral("c.") + QLatin1String(suffix));
            QString error;
            QVERIFY2(exportChart(&v, path, &error, d.layoutSize(), d.pixelRatio()),
                     qPrintable(error));
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            QVERIFY(!bytes.contains("<image") && !bytes.contains("/Subtype /Image"));
            if (QLatin1String(suffix) == QLatin1String("svg"))
                QVERIFY(bytes.contains("viewBox=\"0 0 1280 720\""));
            else
                QVERIFY(bytes.startsWith("%PDF"));
        }
    }

    /// The format comes from the suffix, case-insensitively, through the one format table; an
    /// unknown suffix is refused with the path and the accepted ones, and nothing is written.
    void exportFormatsBySuffix() {
        QCOMPARE(exportFormatOf(QStringLiteral("/a/b.PNG")), std::optional(ExportFormat::Png));
        QCOMPARE(exportFormatOf(QStringLiteral("b.svg")), std::optional(ExportFormat::Svg));
        QCOMPARE(exportFormatOf(QStringLiteral("b.Pdf")), std::optional(ExportFormat::Pdf));
        QCOMPARE(exportFormatOf(QStringLiteral("b.csv")), std::optional(ExportFormat::Csv));
        QVERIFY(!exportFormatOf(QStringLiteral("b.jpeg")));
        QVERIFY(!exportFormatOf(QStringLiteral("png")));  // a name without a suffix
        QCOMPARE(exportFilters(), QStringLiteral("PNG image (*.png);;SVG image (*.svg);;PDF "
                                                 "document (*.pdf);;CSV data (*.csv)"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MemoryBarView v;
        v.setData(60, 80, QStringLiteral("PP 2 x EP 8"));
        const QString path = dir.filePath(QStringLiteral("c.jpeg"));
        QString error;
        QVERIFY(!exportChart(&v, path, &error));
        QVERIFY2(error.contains(path) && error.contains(QLatin1String(".png, .svg, .pdf or .csv")),
                 qPrintable(error));
        QVERIFY(!QFileInfo::exists(path));
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
        QVERIFY(LayoutHeatmapView::caption().startsWith(
            QLatin1String("X: layout infeasible (mesh rules")));
        QVERIFY(LayoutHeatmapView::caption().contains(QLatin1String("OOM")));
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        // Room for the colour bar right of the grid and the key line under it.
        const QRectF plot = v.chart()->plotArea();
        QVERIFY(v.chart()->size().width() - plot.right() >= 60);
        // The bar's top is the brightest colour of the map (the best cell's MFU).
        const QImage img = v.grab().toImage();
        const QPoint top =
            v.mapFromScene(v.chart()->mapToScene(QPointF(plot.right() + 20, plot.top() + 30)));
        const QColor c = img.pixelColor(top * img.devicePixelRatio());
        QVERIFY2(c.lightnessF() > 0.45, qPrintable(c.name()));
    }
};

TANDEM_TEST_MAIN(TstChartKeys)
#include "tst_chart_keys.moc"
