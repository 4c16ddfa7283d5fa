// The network workspace's detail views (offscreen): knob timeline, exposed DP share and
// background load over time, first crossing against N; each changes when its input changes;
// the Advanced controls reach the engine or say why they are disabled.
#include <QtTest>

#include <QBarCategoryAxis>
#include <QChart>
#include <QDoubleSpinBox>
#include <QLineSeries>
#include <QSlider>
#include <QTabWidget>

#include <QProcess>
#include <QTemporaryDir>

#include "mlforml/background_load_view.h"
#include "mlforml/combo_timeline_view.h"
#include "mlforml/dp_share_time_view.h"
#include "mlforml/first_crossing_view.h"
#include "mlforml/loss_curve_view.h"
#include "mlforml/network_advanced.h"
#include "mlforml/network_controls.h"
#include "mlforml/network_workspace.h"
#include "mlforml/sweep_crossing_view.h"
#include "mlforml/sweep_view.h"
#include "shell/main_window.h"
#include "shell/offscreen.h"
#include "shell/presets.h"
#include "shell/scenario_document.h"
#include "widgets/collapsible_section.h"
#include "widgets/labeled_slider.h"

using namespace tandem::ui;

class TstNetworkViews : public QObject {
    Q_OBJECT
private slots:
    /// The first-crossing chart's CSV is one row per policy and target (header with the unit of
    /// each quantity) and equals the rows of `tandem-cli run`'s mlforml_first_crossing.csv for
    /// the shown N; its bar labels use the value axis' unit only.
    void firstCrossingCsvEqualsTheCli() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow w;
        w.applyPreset(presetIndex(QStringLiteral("mlforml-fig2c")), false);
        w.show();
        QVERIFY(w.waitForResults(60000));
        const QString scenario = dir.filePath(QStringLiteral("s.json"));
        QVERIFY(w.saveFile(scenario));
        QProcess cli;
        cli.start(QStringLiteral(TANDEM_CLI), {QStringLiteral("run"), scenario, QStringLiteral("--out"), dir.filePath(QStringLiteral("out"))});
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        QFile f(dir.filePath(QStringLiteral("out/mlforml_first_crossing.csv")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList cliLines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        FirstCrossingView* v = w.networkWorkspace()->firstCrossingView();
        const QStringList lines = v->csv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.front(), cliLines.front());
        QVERIFY(lines.front().contains(QLatin1String("first_crossing_s")));
        const int n = w.networkWorkspace()->findChild<NetworkControls*>()->backgroundSlider()->value();
        QStringList expected;
        for (const QString& l : cliLines.mid(1))
            if (l.startsWith(QString::number(n) + QLatin1Char(','))) expected << l;
        QCOMPARE(lines.size() - 1, 5 * 4);  // five policies x four targets
        QCOMPARE(lines.mid(1), expected);
        // Bar labels: every time in the axis' unit.
        QBarCategoryAxis* cats = nullptr;
        for (QAbstractAxis* a : v->chart()->axes())
            if (auto* c = qobject_cast<QBarCategoryAxis*>(a)) cats = c;
        QVERIFY(cats);
        const QString axisTitle = v->chart()->axes(Qt::Horizontal).front()->titleText();
        const QString unit = axisTitle.startsWith(QLatin1String("hours")) ? QStringLiteral(" h")
                             : axisTitle.startsWith(QLatin1String("minutes")) ? QStringLiteral(" min")
                                                                              : QStringLiteral(" s");
        // Every target line carries its factor.
        QStringList targets;
        for (const QString& l : expected)
            if (l.section(QLatin1Char(','), 1, 1) == QLatin1String("Joint"))
                targets << QStringLiteral("%1 x L_min").arg(l.section(QLatin1Char(','), 2, 2));
        QCOMPARE(w.networkWorkspace()->lossView()->targetLabels(), targets);
        for (const QString& c : cats->categories())
            if (!c.contains(QLatin1String("not reached"))) QVERIFY2(c.contains(unit + QLatin1Char(' ')), qPrintable(c + QStringLiteral(" vs ") + axisTitle));
    }

    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void detailViewsFollowTheBackgroundSlider() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        const QStringList rows = ws->timelineView()->rows();
        QVERIFY(rows.contains(QStringLiteral("Joint")));
        QVERIFY(rows.contains(QStringLiteral("Decoupled")));
        QVERIFY(!rows.contains(QStringLiteral("Static")));  // Static never switches
        const QString timelineBefore = ws->timelineView()->csv();
        const double loadBefore = ws->loadView()->meanGBps();
        const double staticShareBefore = ws->dpShareTimeView()->meanShare(QStringLiteral("Static"));
        QVERIFY(loadBefore > 0);
        QVERIFY(staticShareBefore > 0 && staticShareBefore <= 100);
        // Static stays in GA4-BF16, which exposes more DP time than Joint's choices.
        QVERIFY(ws->dpShareTimeView()->meanShare(QStringLiteral("Joint")) < staticShareBefore);

        LabeledSlider* n = ws->controls()->backgroundSlider();
        n->slider()->setValue(n->value() + 8);  // 4 -> 12 co-running jobs
        QVERIFY(w.waitForResults(60000));
        QVERIFY(ws->loadView()->meanGBps() > loadBefore);
        QVERIFY(ws->dpShareTimeView()->meanShare(QStringLiteral("Static")) > staticShareBefore);
        QVERIFY(ws->timelineView()->csv() != timelineBefore);
    }

    /// Loss chart legend: each policy once, drawn as a line, and the selected target once.
    void lossLegendNamesPoliciesAndTheTargetOnce() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        const QStringList legend = ws->lossView()->legendEntries();
        QCOMPARE(QSet<QString>(legend.begin(), legend.end()).size(), legend.size());
        for (const char* policy : {"Static", "Decoupled"}) QVERIFY(legend.contains(QLatin1String(policy)));
        // Joint's line lies on Knob-Precision's in scenario 1: one entry for both (tst_chart_keys).
        const bool shared = legend.contains(QStringLiteral("Knob-Precision = Joint"));
        QVERIFY(legend.contains(QStringLiteral("Joint")) || shared);
        QCOMPARE(legend.count(QStringLiteral("Target")), 1);
        QCOMPARE(legend.size(), shared ? 5 : 6);  // five policies of Table 2 and the target
        const QStringList sweep = ws->sweepView()->legendEntries();
        QVERIFY(sweep.contains(QStringLiteral("BF16 gradients")));
        QVERIFY(sweep.contains(QStringLiteral("MXFP4 gradients")));
    }

    void timelineCoversEachAdaptiveRun() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        const auto& point = ws->result()->points.front();
        for (const auto& run : point.policies) {
            const QString name = QString::fromStdString(run.policy);
            if (!ws->timelineView()->rows().contains(name)) continue;
            double total = 0;
            for (const auto& label : ws->result()->comboLabels)
                total += ws->timelineView()->secondsIn(name, QString::fromStdString(label));
            QVERIFY2(std::abs(total - run.timeline.back().t1_s + run.timeline.front().t0_s) < 1e-6 * total + 1e-9,
                     qPrintable(name));
        }
    }

    void sweepChartFollowsTargetAndShownN() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        SweepCrossingView* sweep = ws->sweepCrossingView();
        const auto& jobs = ws->params()->backgroundJobs;
        QCOMPARE(static_cast<int>(jobs.size()), 4);
        for (int n : jobs) {
            const double joint = sweep->crossingAt(QStringLiteral("Joint"), n);
            const double decoupled = sweep->crossingAt(QStringLiteral("Decoupled"), n);
            QVERIFY2(std::isfinite(joint) && joint > 0, qPrintable(QString::number(n)));
            QVERIFY(decoupled >= joint);  // issue 2: Joint is never slower than Decoupled
        }
        const double at101 = sweep->crossingAt(QStringLiteral("Joint"), jobs.back());
        ws->applyPresetView(-1, 0, false);  // target 1.005 x L_min: later than 1.01
        QVERIFY(sweep->crossingAt(QStringLiteral("Joint"), jobs.back()) > at101);
    }

    void advancedInputsReachTheEngine() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        NetworkAdvanced* adv = ws->controls()->advanced();
        adv->section()->setExpanded(true);
        const double load = ws->loadView()->meanGBps();
        const double crossing = ws->sweepCrossingView()->crossingAt(QStringLiteral("Static"), 16);
        adv->backgroundGradient()->setValue(2 * adv->backgroundGradient()->value());
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(ws->params()->backgroundJob.gradientBytes, 5.62e9);
        QVERIFY(w.document()->isModified());
        QVERIFY(ws->loadView()->meanGBps() != load);
        const double after = ws->sweepCrossingView()->crossingAt(QStringLiteral("Static"), 16);
        QVERIFY2(after != crossing, qPrintable(QStringLiteral("%1 -> %2").arg(crossing).arg(after)));
        // Poisson inputs do not apply to scenario 1: disabled, and the tooltip says why.
        QVERIFY(!adv->arrivalRate()->isEnabled());
        QVERIFY(adv->arrivalRate()->toolTip().contains(QLatin1String("Disabled")));
        const auto& before = tandem::mlforml::writeParams(*ws->params());
        adv->decisionInterval()->setValue(adv->decisionInterval()->value() * 2);
        QVERIFY(tandem::mlforml::writeParams(*ws->params()) != before);
    }

    void chartPagesKeepChartsReadable() {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        // Three chart pages; the fourth (an imported loss log) stays hidden until an import.
        QCOMPARE(ws->pages()->count(), 4);
        QVERIFY(!ws->pages()->isTabVisible(3));
        for (int i = 0; i < 3; ++i) {
            ws->pages()->setCurrentIndex(i);
            QApplication::processEvents();
            for (ChartView* c : ws->charts())
                if (c->isVisible()) QVERIFY2(c->width() >= 350 && c->height() >= 200, qPrintable(c->exportName()));
        }
    }
};

QTEST_MAIN(TstNetworkViews)
#include "tst_network_views.moc"
