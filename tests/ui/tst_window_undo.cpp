// The main window's undo (offscreen): Edit > Undo / Redo of control changes, one step per slider
// drag, the merge rules of scenario edits, one envelope owner, the preset note and the clean
// state after undoing back to the saved file, and MoE undo leaving the network workspace alone.
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

class TstWindowUndo : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// Edit > Undo takes a control change back (document and slider), Redo repeats it; a slider
    /// drag (quick successive moves) is one step; a preset clears the history.
    void undoRedoOfControlChanges() {
        MainWindow w;
        w.applyPreset(presetIndex(QStringLiteral("mlforml-fig2c")), false);
        w.show();
        QVERIFY(w.waitForResults(60000));
        LabeledSlider* n = w.networkWorkspace()->findChild<NetworkControls*>()->nodesSlider();
        // Stops of the log ladder below and above the preset's value.
        const int before = 32;
        n->setNumber(before);
        QVERIFY(w.waitForResults(60000));
        QTest::qWait(ScenarioEditCommand::kMergeMs + 100);
        w.undoStack()->clear();
        QCOMPARE(w.document()->scenario().mlForMl->foregroundNodes, before);
        for (int v : {40, 48, 64}) n->setNumber(v);  // one drag
        QCOMPARE(w.document()->scenario().mlForMl->foregroundNodes, 64);
        QCOMPARE(w.undoStack()->count(), 1);
        w.undoStack()->undo();
        QCOMPARE(w.document()->scenario().mlForMl->foregroundNodes, before);
        QCOMPARE(n->value(), before);
        w.undoStack()->redo();
        QCOMPARE(w.document()->scenario().mlForMl->foregroundNodes, 64);
        QCOMPARE(n->value(), 64);
        QVERIFY(w.waitForResults(60000));
        QTest::qWait(ScenarioEditCommand::kMergeMs + 100);
        n->setNumber(80);  // later: a step of its own
        QCOMPARE(w.undoStack()->count(), 2);
        w.undoStack()->undo();
        QCOMPARE(n->value(), 64);
        w.applyPreset(presetIndex(QStringLiteral("mosaic-fig1")), false);
        QVERIFY(!w.undoStack()->canUndo() && !w.undoStack()->canRedo());
        QVERIFY(w.waitForResults(60000));
    }

    /// The document owns the MOSAIC envelope: the MoE workspace reads that very object (no copy
    /// of its own), through an edit, its undo and its redo; an envelope the document is given is
    /// the one the workspace shows; the undo step keeps the edited part's values only.
    void moeEditsKeepOneEnvelope() {
        MainWindow w;
        w.applyPreset(presetIndex(QStringLiteral("mosaic-fig1")), false);
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* moe = w.moeWorkspace();
        const ScenarioDocument* doc = w.document();
        const auto sameEnvelope = [&]() {
            return moe->envelope().has_value() && doc->scenario().mosaic.has_value() &&
                   &*moe->envelope() == &*doc->scenario().mosaic;
        };
        QVERIFY(sameEnvelope());
        LabeledSlider* days = moe->controls()->daysSlider();
        const double before = doc->scenario().mosaic->days;
        QCOMPARE(before, 5.0);  // the preset's T_train
        const std::vector<double>& stops = days->stops();
        QVERIFY(std::find(stops.begin(), stops.end(), 10.0) != stops.end());
        QTest::qWait(ScenarioEditCommand::kMergeMs + 100);
        w.undoStack()->clear();
        days->setNumber(10);
        QCOMPARE(doc->scenario().mosaic->days, 10.0);
        QVERIFY(sameEnvelope());
        QCOMPARE(w.undoStack()->count(), 1);
        const auto* step = dynamic_cast<const ScenarioEditCommand*>(w.undoStack()->command(0));
        QVERIFY(step);
        QCOMPARE(step->text(), QStringLiteral("change of the MoE controls"));
        QCOMPARE(step->before().mosaic->days, before);
        QCOMPARE(step->after().mosaic->days, 10.0);
        QVERIFY(!step->before().mlForMl && !step->after().mlForMl);  // the edited part only
        w.undoStack()->undo();
        QCOMPARE(doc->scenario().mosaic->days, before);
        QVERIFY(sameEnvelope());
        QCOMPARE(days->number(), before);
        w.undoStack()->redo();
        QCOMPARE(doc->scenario().mosaic->days, 10.0);
        QVERIFY(sameEnvelope());
        QCOMPARE(days->number(), 10.0);
        QVERIFY(w.waitForResults(60000));
        // An envelope given to the document is the workspace's at once, and shown on request.
        tandem::mosaic::Envelope e = *doc->scenario().mosaic;
        e.nodes = 64;
        w.document()->setMosaic(e);
        QCOMPARE(moe->envelope()->nodes, 64);
        moe->showEnvelope();
        QCOMPARE(moe->controls()->nodesSlider()->value(), 64);
        // An envelope given to the workspace is the document's.
        e.days = 40;
        moe->setEnvelope(e);
        QCOMPARE(doc->scenario().mosaic->days, 40.0);
        QVERIFY(sameEnvelope());
        QCOMPARE(days->number(), 40.0);
        QVERIFY(w.waitForResults(60000));
    }

    /// How undo steps of scenario edits merge, per MergeRule: quick edits of one part within
    /// kMergeMs, a follow-up of the other part always (undone to both parts' values before),
    /// and never across a step whose rule is Never.
    void scenarioEditMergeRules() {
        tandem::Scenario s;
        s.mlForMl = tandem::mlforml::Params{};
        s.mosaic = tandem::mosaic::Envelope{};
        std::vector<std::pair<tandem::Scenario, ScenarioParts>> applied;
        const auto apply = [&](const tandem::Scenario& v, ScenarioParts p) {
            applied.push_back({v, p});
        };
        const auto edit = [&](ScenarioPart part, double days, int nodes, MergeRule rule) {
            tandem::Scenario next = s;
            next.mosaic->days = days;
            next.mlForMl->foregroundNodes = nodes;
            auto* c = new ScenarioEditCommand(part, s, next, apply, QStringLiteral("edit"), rule);
            s = next;
            return c;
        };
        QUndoStack stack;
        stack.push(edit(ScenarioPart::Mosaic, 21, 46, MergeRule::QuickEdits));
        stack.push(edit(ScenarioPart::Mosaic, 22, 46, MergeRule::QuickEdits));  // one drag
        QCOMPARE(stack.count(), 1);
        stack.push(edit(ScenarioPart::MlForMl, 22, 50, MergeRule::FollowUp));  // a linked slider
        QCOMPARE(stack.count(), 1);
        const auto* first = dynamic_cast<const ScenarioEditCommand*>(stack.command(0));
        QCOMPARE(first->parts().toInt(), (ScenarioPart::Mosaic | ScenarioPart::MlForMl).toInt());
        QCOMPARE(first->before().mosaic->days, 20.0);
        QCOMPARE(first->before().mlForMl->foregroundNodes, 46);
        QCOMPARE(first->after().mosaic->days, 22.0);
        QCOMPARE(first->after().mlForMl->foregroundNodes, 50);
        stack.push(edit(ScenarioPart::Mosaic, 23, 50, MergeRule::Never));  // a calibration
        QCOMPARE(stack.count(), 2);
        stack.push(edit(ScenarioPart::Mosaic, 24, 50, MergeRule::QuickEdits));
        stack.push(edit(ScenarioPart::MlForMl, 24, 60, MergeRule::FollowUp));
        QCOMPARE(stack.count(), 3);
        stack.push(edit(ScenarioPart::MlForMl, 24, 64, MergeRule::QuickEdits));  // other part
        QCOMPARE(stack.count(), 4);
        QTest::qWait(ScenarioEditCommand::kMergeMs + 100);
        stack.push(edit(ScenarioPart::MlForMl, 24, 70, MergeRule::QuickEdits));  // too late
        QCOMPARE(stack.count(), 5);
        QVERIFY(applied.empty());  // a push applies nothing: the edit has happened
        while (stack.canUndo()) stack.undo();
        QCOMPARE(applied.back().first.mosaic->days, 20.0);
        QCOMPARE(applied.back().first.mlForMl->foregroundNodes, 46);
        QCOMPARE(applied.back().second.toInt(),
                 (ScenarioPart::Mosaic | ScenarioPart::MlForMl).toInt());
        QCOMPARE(applied[applied.size() - 2].first.mosaic->days, 22.0);  // before the calibration
        QVERIFY(!applied[applied.size() - 2].first.mlForMl);
    }

    /// A preset's note describes the preset's values; after a slider drag it says the scenario
    /// was modified from that preset, and an undo back to the preset's values restores it. The
    /// same for a file (the preset saved and opened again): it kept its description after edits.
    void presetNoteSaysModifiedAfterAnEdit_data() {
        QTest::addColumn<QString>("preset");
        QTest::newRow("network") << QStringLiteral("mlforml-fig2c");
        QTest::newRow("moe") << QStringLiteral("mosaic-fig1");
    }
    void presetNoteSaysModifiedAfterAnEdit() {
        QFETCH(QString, preset);
        MainWindow w;
        const int index = presetIndex(preset);
        const Preset p = allPresets()[index];
        w.applyPreset(index, false);
        w.show();
        QVERIFY(w.waitForResults(60000));
        const QString original = w.scenarioNote()->text();
        QVERIFY2(original.contains(p.title.toHtmlEscaped()), qPrintable(original));
        QVERIFY(!original.contains(QLatin1String("Modified")));
        LabeledSlider* slider =
            p.workspace == 0 ? w.networkWorkspace()->findChild<NetworkControls*>()->nodesSlider()
                             : w.moeWorkspace()->controls()->nodesSlider();
        const int was = slider->value();
        slider->setNumber(was == 16 ? 8 : 16);  // a drag to another stop
        QVERIFY(w.document()->isModified());
        const QString modified = w.scenarioNote()->text();
        QVERIFY2(
            modified.contains(
                QStringLiteral("Modified from preset \u201c%1\u201d").arg(p.title.toHtmlEscaped())),
            qPrintable(modified));
        QVERIFY(modified.contains(QLatin1String("no longer show the preset's values")));
        w.undoStack()->undo();
        QCOMPARE(w.scenarioNote()->text(), original);
        QVERIFY(w.waitForResults(60000));
        // The preset saved and opened again is a file: its note is its name and description
        // until an edit, then "Modified from" its name (it kept the preset's description before),
        // and an undo restores the note.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("preset.json"));
        QVERIFY(w.saveFile(path));
        QVERIFY(w.openFile(path));
        QVERIFY(w.waitForResults(60000));
        const QString opened = w.scenarioNote()->text();
        QVERIFY2(!opened.contains(QLatin1String("Modified")), qPrintable(opened));
        QVERIFY2(opened.contains(QString::fromStdString(p.scenario.description).toHtmlEscaped()),
                 qPrintable(opened));
        LabeledSlider* again =
            p.workspace == 0 ? w.networkWorkspace()->findChild<NetworkControls*>()->nodesSlider()
                             : w.moeWorkspace()->controls()->nodesSlider();
        again->setNumber(again->value() == 16 ? 8 : 16);
        const QString edited = w.scenarioNote()->text();
        QVERIFY2(edited.contains(QStringLiteral("<b>Modified from \u201c%1\u201d</b>")
                                     .arg(QString::fromStdString(p.scenario.name).toHtmlEscaped())),
                 qPrintable(edited));
        QVERIFY2(edited.contains(QLatin1String("As opened: ")), qPrintable(edited));
        w.undoStack()->undo();
        QCOMPARE(w.scenarioNote()->text(), opened);
        QVERIFY(w.waitForResults(60000));
    }

    /// The modified flag (the title's `*`, the save prompt on quit) follows the undo stack: an
    /// edit undone back to the opened or saved content leaves the document unmodified, its redo
    /// modifies it again.
    void undoBackToSavedIsUnmodified() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("scenario.json"));
        {
            MainWindow first;
            first.applyPreset(presetIndex(QStringLiteral("mosaic-fig1")), false);
            QVERIFY(first.saveFile(path));
        }
        MainWindow w;
        QVERIFY(w.openFile(path));
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        QVERIFY(!w.document()->isModified());
        QVERIFY(!w.isWindowModified());
        LabeledSlider* nodes = w.moeWorkspace()->controls()->nodesSlider();
        const int was = nodes->value();
        const int other = was == 16 ? 8 : 16;
        nodes->setNumber(other);
        QVERIFY(w.document()->isModified());
        QVERIFY(w.isWindowModified());
        w.undoStack()->undo();
        QCOMPARE(nodes->value(), was);
        QVERIFY(!w.document()->isModified());
        QVERIFY(!w.isWindowModified());
        w.undoStack()->redo();
        QCOMPARE(nodes->value(), other);
        QVERIFY(w.document()->isModified());
        QVERIFY(w.isWindowModified());
        QVERIFY(w.waitForResults(60000));
        // Saved with the edit: undoing a later edit returns to it, unmodified; undoing past it
        // is a change again.
        QVERIFY(w.saveFile(path));
        QVERIFY(!w.document()->isModified());
        nodes->setNumber(was);
        QVERIFY(w.document()->isModified());
        w.undoStack()->undo();
        QCOMPARE(nodes->value(), other);
        QVERIFY(!w.document()->isModified());
        QVERIFY(!w.isWindowModified());
        w.undoStack()->undo();
        QCOMPARE(nodes->value(), was);
        QVERIFY(w.document()->isModified());
        QVERIFY(w.waitForResults(60000));
    }

    /// Undoing a MoE edit re-applies the MoE part only: the network workspace keeps the results
    /// it holds (setParams would clear them) and its part of the scenario.
    void moeUndoLeavesTheNetworkWorkspaceAlone() {
        MainWindow w;
        w.setCurrentWorkspace(0);
        w.show();
        QVERIFY(w.waitForResults(60000));
        const std::size_t cached = w.networkWorkspace()->cachedResultCount();
        QVERIFY(cached > 0);
        const std::string network = tandem::scenarioToJson(w.document()->scenario());
        w.setCurrentWorkspace(1);
        QVERIFY(w.waitForResults(60000));
        LabeledSlider* days = w.moeWorkspace()->controls()->daysSlider();
        const int d0 = days->value();
        days->slider()->setFocus();
        QTest::keyClick(days->slider(), Qt::Key_PageUp);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(w.undoStack()->count(), 1);
        w.undoStack()->undo();
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(days->value(), d0);
        QCOMPARE(tandem::scenarioToJson(w.document()->scenario()), network);
        QCOMPARE(w.networkWorkspace()->cachedResultCount(), cached);
    }
};

TANDEM_TEST_MAIN(TstWindowUndo)
#include "tst_window_undo.moc"
