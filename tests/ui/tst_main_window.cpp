// The main window end to end (offscreen): sliders drive recomputation and change the charts,
// a bad file shows its problems and keeps the scenario, save -> open -> save is byte-identical.
#include <QAbstractSeries>
#include <QBarCategoryAxis>
#include <QChart>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSlider>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QXYSeries>
#include <QtTest>

#include "scenario/scenario.h"
#include "test_main.h"
#include "ui/mlforml/first_crossing_view.h"
#include "ui/mlforml/loss_curve_view.h"
#include "ui/mlforml/network_controls.h"
#include "ui/mlforml/network_map_view.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mlforml/sweep_view.h"
#include "ui/mosaic/frontier_view.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/mosaic/plan_panel.h"
#include "ui/shell/job_runner.h"
#include "ui/shell/main_window.h"
#include "ui/shell/offscreen.h"
#include "ui/shell/presets.h"
#include "ui/shell/reproduce_dialog.h"
#include "ui/shell/scenario_document.h"
#include "ui/shell/scenario_undo.h"
#include "ui/widgets/chart_export.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/diagnostics_dialog.h"
#include "ui/widgets/file_dialog.h"
#include "ui/widgets/labeled_slider.h"

using namespace tandem::ui;

namespace {
/// Every visible XY point of a chart, series by series (what the user sees).
QList<QPointF> visiblePoints(const ChartView* view) {
    QList<QPointF> out;
    const auto series = view->chart()->series();
    for (QAbstractSeries* s : series)
        if (auto* xy = qobject_cast<QXYSeries*>(s); xy && xy->isVisible()) out += xy->points();
    return out;
}
QStringList barCategories(const ChartView* view) {
    for (QAbstractAxis* a : view->chart()->axes())
        if (auto* c = qobject_cast<QBarCategoryAxis*>(a)) return c->categories();
    return {};
}
QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
}  // namespace

class TstMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// Opening a MOSAIC-only file after the default scenario leaves no ML-for-ML chart with old
    /// data on screen (each says why it is empty); a file with an ML-for-ML part brings them
    /// back. A preset's note shows on its own workspace only.
    void staleChartsClearedAndNotePerWorkspace() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.waitForResults(60000));
        tandem::Scenario moeOnly = tandem::defaultScenario();
        moeOnly.mlForMl.reset();
        const QString path = dir.filePath(QStringLiteral("moe.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(tandem::scenarioToJson(moeOnly)));
        f.close();
        QVERIFY(w.openFile(path));
        const QList<ChartView*> network = w.networkWorkspace()->charts();
        QVERIFY(!network.isEmpty());
        for (ChartView* v : network) {
            QVERIFY2(v->emptyReason().contains(QLatin1String("ml_for_ml")),
                     qPrintable(v->exportName()));
            QVERIFY(!v->chart()->isVisible());
        }
        for (ChartView* v : w.moeWorkspace()->charts()) QVERIFY(v->emptyReason().isEmpty());
        // No ML-for-ML controls left at the previous scenario's values, no stale caption.
        auto* controls = w.networkWorkspace()->findChild<NetworkControls*>();
        w.setCurrentWorkspace(0);
        QVERIFY(!controls->isVisible());
        QVERIFY(w.waitForResults(60000));
        for (QLabel* l : w.networkWorkspace()->findChildren<QLabel*>())
            QVERIFY2(!l->isVisible() || !l->text().contains(QLatin1String("exposed DP share")),
                     qPrintable(l->text()));
        w.applyPreset(presetIndex(QStringLiteral("mlforml-fig2c")), false);
        for (ChartView* v : network) QVERIFY(v->emptyReason().isEmpty() && v->chart()->isVisible());
        QVERIFY(controls->isVisible());
        w.setCurrentWorkspace(0);
        QVERIFY(w.scenarioNote()->isVisible());
        w.setCurrentWorkspace(1);
        QVERIFY(!w.scenarioNote()->isVisible());
        w.setCurrentWorkspace(0);
        QVERIFY(w.scenarioNote()->isVisible());
    }

    /// Opening another scenario or starting a new one ends the window-wide pin: the pin action,
    /// every chart's pinned curves and the first-crossing bars' pinned times.
    void openOrNewEndsPin_data() {
        QTest::addColumn<bool>("open");
        QTest::newRow("File > Open") << true;
        QTest::newRow("File > New") << false;
    }
    void openOrNewEndsPin() {
        QFETCH(bool, open);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        const QString path = dir.filePath(QStringLiteral("other.json"));
        QVERIFY(w.saveFile(path));
        w.pinForComparison();
        QVERIFY(w.comparisonPinned());
        bool anyPinned = false;
        for (ChartView* v : w.findChildren<ChartView*>())
            anyPinned = anyPinned || !v->pinnedCurves().isEmpty();
        QVERIFY(anyPinned);
        if (open)
            QVERIFY(w.openFile(path));
        else
            w.newScenario(false);
        QVERIFY(w.waitForResults(60000));
        QVERIFY(!w.comparisonPinned());
        for (ChartView* v : w.findChildren<ChartView*>())
            QVERIFY2(v->pinnedCurves().isEmpty(), qPrintable(v->objectName()));
        for (const QString& l : w.networkWorkspace()->firstCrossingView()->barLabels())
            QVERIFY2(!l.contains(QStringLiteral("pinned")), qPrintable(l));
    }

    /// The default scenario edited, saved and opened again keeps the defaults' name and
    /// description; the heading then names the file and says it was modified from the defaults
    /// instead of describing the default cluster. The defaults saved unchanged keep their note.
    void reopenedEditedDefaultsNamesFile_data() {
        QTest::addColumn<bool>("edit");
        QTest::newRow("edited") << true;
        QTest::newRow("unchanged") << false;
    }
    void reopenedEditedDefaultsNamesFile() {
        QFETCH(bool, edit);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        if (edit) {
            LabeledSlider* nodes = w.moeWorkspace()->controls()->nodesSlider();
            nodes->setNumber(nodes->value() == 16 ? 8 : 16);
            QVERIFY(w.waitForResults(60000));
        }
        const QString path = dir.filePath(QStringLiteral("my-cluster.json"));
        QVERIFY(w.saveFile(path));
        QVERIFY(w.openFile(path));
        QVERIFY(w.waitForResults(60000));
        const QString note = w.scenarioNote()->text();
        const tandem::Scenario defaults = tandem::defaultScenario();
        if (edit) {
            QVERIFY2(note.startsWith(QStringLiteral("<b>my-cluster.json</b> Modified from \u201c") +
                                     QString::fromStdString(defaults.name).toHtmlEscaped()),
                     qPrintable(note));
            QVERIFY2(!note.contains(QStringLiteral("32 p6-b200 nodes")), qPrintable(note));
        } else {
            QCOMPARE(note, QStringLiteral("<b>%1</b> %2")
                               .arg(QString::fromStdString(defaults.name).toHtmlEscaped(),
                                    QString::fromStdString(defaults.description).toHtmlEscaped()));
        }
    }

    /// Every file dialog of the window (Open, Save as, Import, the Plan page's Save as .sh) is
    /// Qt's own dialog with the shared icon provider that reads no file contents (typing /proc/
    /// into the name box froze the window on /proc/kmsg).
    void fileDialogsReadNoFileContents_data() {
        QTest::addColumn<QString>("action");
        QTest::newRow("open") << QStringLiteral("&Open scenario...");
        QTest::newRow("save as") << QStringLiteral("Save scenario &as...");
        QTest::newRow("import") << QStringLiteral("&Import...");
        QTest::newRow("plan script") << QStringLiteral("plan");
    }
    void fileDialogsReadNoFileContents() {
        QFETCH(QString, action);
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        QFileDialog* seen = nullptr;
        QAbstractFileIconProvider* provider = nullptr;
        bool native = true;
        QTimer poll;
        poll.setInterval(20);
        connect(&poll, &QTimer::timeout, &poll, [&]() {
            auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (!d) return;
            seen = d;
            provider = d->iconProvider();
            native = !d->testOption(QFileDialog::DontUseNativeDialog);
            poll.stop();
            d->reject();
        });
        poll.start();
        if (action == QLatin1String("plan")) {
            w.setCurrentWorkspace(1);
            QVERIFY(w.waitForResults(60000));
            w.moeWorkspace()->pages()->setCurrentIndex(MoeWorkspace::kPlanPage);
            QPushButton* save = w.moeWorkspace()->planPanel()->saveButton();
            QVERIFY(w.waitForResults(60000));
            QTRY_VERIFY(save->isEnabled());
            save->click();
        } else {
            QAction* a = nullptr;
            for (QAction* x : w.findChildren<QAction*>())
                if (x->text() == action) a = x;
            QVERIFY2(a, qPrintable(action));
            a->trigger();
        }
        poll.stop();
        QVERIFY2(seen, "no file dialog was shown");
        QCOMPARE(provider, static_cast<QAbstractFileIconProvider*>(safeFileIconProvider()));
        QVERIFY(!native);
    }

    /// Reset to defaults gives every control its default and keeps the file (marked modified);
    /// File > New is the default scenario, untitled and unmodified.
    void resetToDefaultsAndNew() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        tandem::Scenario sc = tandem::defaultScenario();
        sc.mosaic->nodes = 300;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(tandem::scenarioToJson(sc)));
        f.close();
        MainWindow w;
        QVERIFY(w.openFile(path));
        QCOMPARE(w.document()->scenario().mosaic->nodes, 300);
        w.resetToDefaults();
        const tandem::Scenario defaults = tandem::defaultScenario();
        QCOMPARE(w.document()->scenario().mosaic->nodes, defaults.mosaic->nodes);
        QCOMPARE(w.moeWorkspace()->controls()->nodesSlider()->value(), defaults.mosaic->nodes);
        QCOMPARE(w.document()->filePath(), path);
        QVERIFY(w.document()->isModified());
        w.newScenario(false);
        QVERIFY(w.document()->filePath().isEmpty());
        QVERIFY(!w.document()->isModified());
        QCOMPARE(tandem::scenarioToJson(w.document()->scenario()),
                 tandem::scenarioToJson(defaults));
    }

    /// The Help menu has About Tandem, whose text names the version and cites both papers.
    void helpMenuAboutCitesThePapers() {
        QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
        MainWindow w;
        auto* help = w.findChild<QMenu*>(QStringLiteral("helpMenu"));
        QVERIFY(help);
        QStringList actions;
        for (QAction* a : help->actions()) actions << a->text();
        QVERIFY(actions.contains(QStringLiteral("&About Tandem")));
        const QString about = MainWindow::aboutText();
        for (const char* part : {"Tandem 0.1.0", "arXiv:2608.06046", "arXiv:2608.10605",
                                 "ML-for-ML", "Compute-Optimal Is Not Cluster-Optimal"})
            QVERIFY2(about.contains(QLatin1String(part)), part);
    }

    /// Help > Keyboard shortcuts lists every menu shortcut with its menu and the slider and chart
    /// keys; Help > Reproduce a figure lists every preset under its paper and opens the chosen one.
    void helpMenuShortcutsAndReproduceAFigure() {
        MainWindow w;
        auto* help = w.findChild<QMenu*>(QStringLiteral("helpMenu"));
        QStringList actions;
        for (QAction* a : help->actions()) actions << a->text();
        QVERIFY(actions.contains(QStringLiteral("&Keyboard shortcuts")));
        QVERIFY(actions.contains(QStringLiteral("&Reproduce a figure...")));
        const QString keys = w.shortcutsText();
        const QString undo = QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText);
        QVERIFY2(keys.contains(undo + QStringLiteral(": Edit > Undo")), qPrintable(keys));
        QVERIFY(
            keys.contains(QKeySequence(Qt::CTRL | Qt::Key_2).toString(QKeySequence::NativeText) +
                          QStringLiteral(": View > MoE sparsity frontier")));
        QVERIFY(keys.contains(QStringLiteral("Page Up / Page Down on a slider")));

        ReproduceFigureDialog dialog;
        const QList<Preset> presets = allPresets();
        QCOMPARE(dialog.list()->count(), presets.size() + 2);  // two paper headings
        QCOMPARE(dialog.list()->item(0)->data(Qt::UserRole).toInt(), -1);
        int chosen = -2;
        connect(&dialog, &ReproduceFigureDialog::presetChosen, &dialog,
                [&chosen](int i) { chosen = i; });
        const int fig1 = presetIndex(QStringLiteral("mosaic-fig1"));
        for (int row = 0; row < dialog.list()->count(); ++row)
            if (dialog.list()->item(row)->data(Qt::UserRole).toInt() == fig1)
                dialog.list()->setCurrentRow(row);
        QCOMPARE(dialog.noteText(), presets[fig1].note);
        auto* box = dialog.findChild<QDialogButtonBox*>();
        box->button(QDialogButtonBox::Open)->click();
        QCOMPARE(chosen, fig1);
    }

    void opensOnDefaultScenarioWithTwoWorkspaces() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        QVERIFY(w.networkWorkspace()->result().has_value());
        QVERIFY(w.moeWorkspace()->result().has_value());
        QVERIFY(!visiblePoints(w.networkWorkspace()->lossView()).isEmpty());
        QVERIFY(w.moeWorkspace()->frontierView()->frontierPointCount() > 2);
        // One bar per policy, coincident policies (one legend entry) sharing one.
        int merged = 0;
        for (int k : w.networkWorkspace()->lossView()->coincidences()) merged += k >= 0 ? 1 : 0;
        QCOMPARE(barCategories(w.networkWorkspace()->firstCrossingView()).size(),
                 static_cast<int>(w.networkWorkspace()->params()->policies.size()) - merged);
    }

    void networkSlidersChangeCharts_data() {
        QTest::addColumn<QString>("slider");
        QTest::newRow("background traffic") << QStringLiteral("background");
        QTest::newRow("foreground nodes") << QStringLiteral("nodes");
    }
    void networkSlidersChangeCharts() {
        QFETCH(QString, slider);
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        const QList<QPointF> before = visiblePoints(ws->lossView());
        const QStringList barsBefore = barCategories(ws->firstCrossingView());
        LabeledSlider* s = slider == QLatin1String("background")
                               ? ws->controls()->backgroundSlider()
                               : ws->controls()->nodesSlider();
        const int v0 = s->value();
        // Four steps: four counts on a linear slider, four stops of the nodes' log ladder.
        const int expected =
            s->stops().empty()
                ? v0 + 4
                : static_cast<int>(s->stops()[static_cast<size_t>(s->slider()->value() + 4)]);
        s->slider()->setFocus();
        for (int i = 0; i < 4; ++i) QTest::keyClick(s->slider(), Qt::Key_Right);  // drag-like steps
        QCOMPARE(s->value(), expected);
        QVERIFY(w.waitForResults(60000));
        QVERIFY(visiblePoints(ws->lossView()) != before);
        QVERIFY(barCategories(ws->firstCrossingView()) != barsBefore);
        if (slider == QLatin1String("nodes")) {
            QCOMPARE(ws->params()->foregroundNodes, expected);
            QVERIFY(w.document()->isModified());
            QCOMPARE(w.document()->scenario().mlForMl->foregroundNodes, expected);
        }
    }

    void moeSlidersChangeCharts_data() {
        QTest::addColumn<QString>("slider");
        QTest::newRow("cluster nodes") << QStringLiteral("nodes");
        QTest::newRow("training days") << QStringLiteral("days");
    }
    void moeSlidersChangeCharts() {
        QFETCH(QString, slider);
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        const QList<QPointF> before = visiblePoints(ws->frontierView());
        LabeledSlider* s = slider == QLatin1String("nodes") ? ws->controls()->nodesSlider()
                                                            : ws->controls()->daysSlider();
        const int v0 = s->value();
        s->slider()->setFocus();
        QTest::keyClick(s->slider(), Qt::Key_PageUp);
        QTest::keyClick(s->slider(), Qt::Key_PageUp);
        QVERIFY(s->value() > v0);
        QVERIFY(w.waitForResults(60000));
        QVERIFY(visiblePoints(ws->frontierView()) != before);
        QVERIFY(w.document()->isModified());
    }

    /// A slider step draws each chart in view once, with the new result: the frontier (a result
    /// sets its markers, cluster and data) and the loss chart (curves and targets).
    void chartsDrawOncePerSliderStep_data() {
        QTest::addColumn<int>("workspace");
        QTest::newRow("MoE frontier") << 1;
        QTest::newRow("loss chart") << 0;
    }
    void chartsDrawOncePerSliderStep() {
        QFETCH(int, workspace);
        MainWindow w;
        w.setCurrentWorkspace(workspace);
        w.show();
        QVERIFY(w.waitForResults(60000));
        ChartView* chart = workspace == 1
                               ? static_cast<ChartView*>(w.moeWorkspace()->frontierView())
                               : w.networkWorkspace()->lossView();
        LabeledSlider* s =
            workspace == 1
                ? w.moeWorkspace()->controls()->daysSlider()
                : w.networkWorkspace()->findChild<NetworkControls*>()->backgroundSlider();
        QVERIFY(chart->isVisible());
        for (int step = 0; step < 2; ++step) {
            const int before = chart->rebuildCount();
            const int v0 = s->value();
            s->slider()->setFocus();
            QTest::keyClick(s->slider(), Qt::Key_PageUp);
            QVERIFY(s->value() != v0);
            QVERIFY(w.waitForResults(60000));
            QCOMPARE(chart->rebuildCount() - before, 1);
        }
    }

    /// Opening scenarios keeps each workspace's pages: the network workspace's five (the loss
    /// log fit hidden until a log is imported), the Network page among them once.
    void openingScenariosKeepsThePages() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        QTabWidget* pages = w.networkWorkspace()->pages();
        const int count = pages->count();
        QCOMPARE(count, NetworkWorkspace::kNetworkPage + 1);
        for (int i = 0; i < 2; ++i) {
            QVERIFY(w.openFile(QStringLiteral(TANDEM_EXAMPLES "/mlforml-scenario1.json")));
            QVERIFY(w.waitForResults(60000));
            QCOMPARE(pages->count(), count);
            QCOMPARE(pages->indexOf(w.networkWorkspace()->networkMapView()),
                     NetworkWorkspace::kNetworkPage);
        }
    }

    void badFileShowsProblemsAndKeepsScenario() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        const std::string before = tandem::scenarioToJson(w.document()->scenario());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"name": 5, "bogus_key": 1, "ml_for_ml": {"fabric_GBps": -5}})");
        f.close();
        QVERIFY(!w.openFile(path));
        DiagnosticsDialog* dialog = w.lastDiagnosticsDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->rowCount(), 3);
        QStringList rows;
        for (int i = 0; i < dialog->rowCount(); ++i) rows << dialog->rowText(i);
        const QString all = rows.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QLatin1String("$.name")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("$.bogus_key")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("$.ml_for_ml.fabric_GBps")), qPrintable(all));
        QCOMPARE(tandem::scenarioToJson(w.document()->scenario()), before);
        QVERIFY(!w.document()->isModified());
    }

    void saveAndReopenIsByteIdentical() {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.json"));
        const QString b = dir.filePath(QStringLiteral("b.json"));
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        QTest::keyClick(w.networkWorkspace()->controls()->nodesSlider()->slider(), Qt::Key_Left);
        QVERIFY(w.document()->isModified());
        QVERIFY(w.saveFile(a));
        QVERIFY(!w.document()->isModified());
        MainWindow w2;
        QVERIFY(w2.openFile(a));
        QCOMPARE(w2.networkWorkspace()->controls()->nodesSlider()->value(),
                 w.networkWorkspace()->controls()->nodesSlider()->value());
        QVERIFY(w2.saveFile(b));
        QCOMPARE(readAll(b), readAll(a));
        QVERIFY(!readAll(a).isEmpty());
    }

    void presetsLoadAndDraw() {
        // Every preset loads, shows its note and draws its workspace's main chart.
        const QList<Preset> presets = allPresets();
        QVERIFY(presets.size() >= 9);
        MainWindow w;
        w.show();
        for (int i = 0; i < presets.size(); ++i) {
            w.applyPreset(i, false);
            QVERIFY2(w.waitForResults(60000), qPrintable(presets[i].id));
            QVERIFY(!w.document()->isModified());
            QCOMPARE(QString::fromStdString(w.document()->scenario().name), presets[i].title);
            QVERIFY(presets[i].note.count(QLatin1Char('.')) >= 2);  // two sentences
            if (presets[i].workspace == 0)
                QVERIFY2(!visiblePoints(w.networkWorkspace()->lossView()).isEmpty(),
                         qPrintable(presets[i].id));
            else
                QVERIFY2(w.moeWorkspace()->frontierView()->frontierPointCount() > 2,
                         qPrintable(presets[i].id));
        }
    }

    void exportsVisibleChart_data() {
        QTest::addColumn<QString>("suffix");
        QTest::newRow("png") << QStringLiteral("png");
        QTest::newRow("svg") << QStringLiteral("svg");
        QTest::newRow("pdf") << QStringLiteral("pdf");
        QTest::newRow("csv") << QStringLiteral("csv");
    }
    void exportsVisibleChart() {
        QFETCH(QString, suffix);
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chart.") + suffix);
        QString error;
        QVERIFY2(exportChart(w.currentChart(), path, &error), qPrintable(error));
        const QByteArray bytes = readAll(path);
        QVERIFY(bytes.size() > 100);
        if (suffix == QLatin1String("png")) {
            QImage image;
            QVERIFY(image.loadFromData(bytes, "PNG"));
            QVERIFY(image.width() >= w.currentChart()->width());
        }
        if (suffix == QLatin1String("csv")) QVERIFY(bytes.startsWith("series,"));
    }
};

TANDEM_TEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"
