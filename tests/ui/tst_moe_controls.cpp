// The MoE workspace's side panel and presets (offscreen): the nodes slider (values beyond it,
// neighbouring sizes prepared, a cluster without candidates), co-running jobs, the advanced
// inputs (goodput, hardware, stack, precision) and the MOSAIC presets' envelopes and notes.
#include <QAbstractButton>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest>

#include "mlforml/presets.h"
#include "mosaic/reproduce.h"
#include "mosaic/search.h"
#include "scenario/scenario.h"
#include "test_main.h"
#include "ui/mosaic/memory_bar_view.h"
#include "ui/mosaic/mfu_view.h"
#include "ui/mosaic/moe_advanced.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/shell/job_runner.h"
#include "ui/shell/main_window.h"
#include "ui/shell/presets.h"
#include "ui/shell/scenario_document.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/collapsible_section.h"
#include "ui/widgets/labeled_slider.h"

using namespace tandem::ui;

class TstMoeControls : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// A scenario with 300 nodes (beyond the cluster-size slider's 256) shows 300 nodes, keeps
    /// 300 in the engine's input and in a saved file, and the slider's handle sits at 300.
    void nodesOutsideTheSliderShowUnclamped() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        tandem::Scenario sc = tandem::defaultScenario();
        QVERIFY(sc.mosaic.has_value());
        sc.mosaic->nodes = 300;
        const QString path = dir.filePath(QStringLiteral("nodes300.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(tandem::scenarioToJson(sc)));
        f.close();
        MainWindow w;
        QVERIFY(w.openFile(path));
        LabeledSlider* nodes = w.moeWorkspace()->controls()->nodesSlider();
        QCOMPARE(nodes->value(), 300);
        QCOMPARE(nodes->valueText(), QStringLiteral("300 nodes"));
        QCOMPARE(nodes->number(), 300.0);  // a stop of its own at the end of the log ladder
        QCOMPARE(nodes->stops().back(), 300.0);
        QCOMPARE(nodes->slider()->value(), nodes->slider()->maximum());
        tandem::mosaic::Envelope e;
        w.moeWorkspace()->controls()->applyTo(e);
        QCOMPARE(e.nodes, 300);
        const QString saved = dir.filePath(QStringLiteral("saved.json"));
        QVERIFY(w.saveFile(saved));
        QFile g(saved);
        QVERIFY(g.open(QIODevice::ReadOnly));
        QVERIFY(g.readAll().contains("\"nodes\": 300"));
    }

    /// With the Advanced section open, the MoE side panel fits its scroll area's width (no field
    /// runs past the window's edge, where nothing scrolls sideways), and what is taller than the
    /// window scrolls down; at 1024x768 the panel's combo boxes ran past the right edge.
    void advancedPanelFitsTheWindow_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("800x600") << QSize(800, 600);
        QTest::newRow("1024x768") << QSize(1024, 768);
        QTest::newRow("1280x800") << QSize(1280, 800);
    }
    void advancedPanelFitsTheWindow() {
        QFETCH(QSize, size);
        MainWindow w;
        w.resize(size);
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.waitForResults(60000));
        MoeControls* controls = w.moeWorkspace()->controls();
        controls->advanced()->section()->setExpanded(true);
        QScrollArea* scroll = nullptr;
        for (QWidget* p = controls->parentWidget(); p && !scroll; p = p->parentWidget())
            scroll = qobject_cast<QScrollArea*>(p);
        QVERIFY(scroll);
        QTRY_VERIFY(scroll->widget()->height() >= scroll->widget()->minimumSizeHint().height());
        QCoreApplication::processEvents();
        const QRect window = w.rect();
        const QRect area(scroll->mapTo(&w, QPoint(0, 0)), scroll->size());
        QVERIFY2(window.contains(area), "the side panel lies outside the window");
        QWidget* view = scroll->viewport();
        const auto fields = scroll->widget()->findChildren<QWidget*>();
        for (QWidget* f : fields) {
            if (!f->isVisibleTo(scroll->widget())) continue;
            if (!qobject_cast<QComboBox*>(f) && !qobject_cast<QAbstractSpinBox*>(f) &&
                !qobject_cast<QLabel*>(f) && !qobject_cast<QAbstractButton*>(f))
                continue;
            const QRect r(f->mapTo(view, QPoint(0, 0)), f->size());
            QVERIFY2(r.right() < view->width(),
                     qPrintable(QStringLiteral("%1 \"%2\" ends at x %3 of a %4 px wide panel")
                                    .arg(QString::fromLatin1(f->metaObject()->className()),
                                         f->objectName())
                                    .arg(r.right())
                                    .arg(view->width())));
        }
        if (scroll->widget()->height() > view->height())
            QVERIFY(scroll->verticalScrollBar()->isVisible() &&
                    scroll->verticalScrollBar()->maximum() > 0);
    }

    /// Once a result is shown, the cluster sizes at the nodes slider's neighbouring stops are
    /// costed in the background (upwards first at the start); a step to one of them shows what a
    /// search of that size gives, and a step elsewhere stops the preparation.
    void neighbouringClusterSizesPrepared() {
        MainWindow w;  // the default scenario: Table 3's envelope, 32 nodes
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        LabeledSlider* nodes = ws->controls()->nodesSlider();
        QCOMPARE(nodes->value(), 32);
        tandem::mosaic::Envelope e;
        ws->controls()->applyTo(e);
        tandem::mosaic::Envelope up = e, down = e;
        up.nodes = 40;  // the log ladder's stops next to 32
        down.nodes = 24;
        QCOMPARE(ws->preparingInputs(),
                 (std::vector<tandem::mosaic::EnvelopeKey>{tandem::mosaic::searchKey(up),
                                                           tandem::mosaic::searchKey(down)}));
        QVERIFY(ws->prepareRunner()->waitIdle(60000));
        nodes->slider()->setValue(nodes->slider()->value() + 1);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(ws->result()->candidates.size(), tandem::mosaic::search(up).candidates.size());
        QCOMPARE(ws->result()->clusterOptimalSparsity,
                 tandem::mosaic::search(up).clusterOptimalSparsity);
        // At 40 only 48 is prepared (32 was shown before); a jump to another size while it is
        // prepared stops it, and at the last stop (256) only the stop below it is prepared.
        up.nodes = 48;
        QCOMPARE(ws->preparingInputs(),
                 std::vector<tandem::mosaic::EnvelopeKey>{tandem::mosaic::searchKey(up)});
        const bool stillPreparing = ws->prepareRunner()->isBusy();
        nodes->slider()->setValue(nodes->slider()->maximum());
        if (stillPreparing) QVERIFY(ws->preparingInputs().empty());
        QVERIFY(w.waitForResults(60000));
        down.nodes = 192;
        QCOMPARE(ws->preparingInputs(),
                 std::vector<tandem::mosaic::EnvelopeKey>{tandem::mosaic::searchKey(down)});
        QVERIFY(ws->prepareRunner()->waitIdle(60000));
    }

    /// A cluster size without candidates is marked on the slider's label (with the nearest node
    /// count that works, when there is one) and the mark goes when candidates return.
    void nodesLabelMarksAClusterWithoutCandidates() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        LabeledSlider* nodes = ws->controls()->nodesSlider();
        QVERIFY(!nodes->valueText().contains(QStringLiteral("none fits")));
        tandem::mosaic::Envelope e = *ws->envelope();
        e.tppMin = e.tppMax = 10000;  // no geometry reaches 10000 tokens per parameter
        ws->setEnvelope(e);
        QVERIFY(w.waitForResults(60000));
        QVERIFY(ws->result()->candidates.empty());
        const int nearest = ws->result()->nearestWorkingNodes;
        QCOMPARE(nodes->valueText(),
                 QStringLiteral("%1 nodes: ").arg(e.nodes) +
                     (nearest > 0 ? QStringLiteral("none fits, try %1").arg(nearest)
                                  : QStringLiteral("none fits")));
        // The MFU charts say why they are empty instead of showing bare axes.
        for (ChartView* v : {static_cast<ChartView*>(ws->mfuSparsityView()),
                             static_cast<ChartView*>(ws->mfuSplitView())})
            QVERIFY2(
                v->emptyReason().contains(
                    QStringLiteral("No geometry has a feasible layout on %1 nodes").arg(e.nodes)),
                qPrintable(v->emptyReason()));
        e.tppMin = 40;
        e.tppMax = 150;
        ws->setEnvelope(e);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(nodes->valueText(), QStringLiteral("%1 nodes").arg(e.nodes));
        QVERIFY(ws->mfuSparsityView()->emptyReason().isEmpty());
        QVERIFY(ws->mfuSplitView()->emptyReason().isEmpty());
    }

    /// The co-running jobs row writes mosaic.background (jobs and nodes per job); 0 jobs on a
    /// scenario without a background section leaves the network idle (no section written).
    void coRunningJobsReachTheEnvelope() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeControls* c = w.moeWorkspace()->controls();
        QVERIFY(!w.document()->scenario().mosaic->background.has_value());
        QCOMPARE(c->coRunningSlider()->value(), 0);
        QVERIFY(!c->coRunningNodesBox()->isEnabled());
        c->coRunningSlider()->setNumber(4);
        QVERIFY(c->coRunningNodesBox()->isEnabled());
        c->coRunningNodesBox()->setValue(16);
        QVERIFY(w.waitForResults(120000));
        const auto& bg = w.document()->scenario().mosaic->background;
        QVERIFY(bg.has_value());
        QCOMPARE(bg->jobs, 4);
        QCOMPARE(bg->job.nodes, 16);
        QCOMPARE(w.moeWorkspace()->envelope()->background->jobs, 4);
        QVERIFY(w.moeWorkspace()->result().has_value());
        QCOMPARE(c->coRunningSlider()->valueText(), QStringLiteral("4 jobs"));
    }

    /// Every preset's scenario is named by its title, described by its note and holds both
    /// sections: a network preset the default MoE envelope, a MoE preset scenario 1's network.
    void presetScenariosHoldBothSections() {
        const std::string defaultEnvelope =
            tandem::mosaic::writeEnvelope(tandem::mosaic::Envelope{}).dump();
        int network = 0, moe = 0;
        for (const Preset& p : allPresets()) {
            QCOMPARE(QString::fromStdString(p.scenario.name), p.title);
            QCOMPARE(QString::fromStdString(p.scenario.description), p.note);
            QVERIFY2(p.scenario.mlForMl && p.scenario.mosaic, qPrintable(p.id));
            if (p.workspace == 0) {
                ++network;
                QCOMPARE(tandem::mosaic::writeEnvelope(*p.scenario.mosaic).dump(), defaultEnvelope);
            } else {
                ++moe;
                QVERIFY2(*p.scenario.mlForMl == tandem::mlforml::scenario1Params(),
                         qPrintable(p.id));
            }
        }
        QCOMPARE(network, 5);
        QCOMPARE(moe, 4);
    }

    /// Each MOSAIC preset with a `tandem-cli reproduce` counterpart builds exactly that envelope
    /// (same JSON), so the GUI and the CLI show the same search.
    void mosaicPresetsUseTheReproduceEnvelopes() {
        tandem::mosaic::Envelope fig11 =
            tandem::mosaic::table3Envelope();  // Fig. 11 node sweep: 30 days
        fig11.nodes = 128;
        fig11.days = 30;
        const QMap<QString, tandem::mosaic::Envelope> expected{
            {QStringLiteral("mosaic-fig1"), tandem::mosaic::fig1Envelope()},
            {QStringLiteral("mosaic-table4"), tandem::mosaic::table3Envelope()},
            {QStringLiteral("mosaic-fig11"), fig11}};
        int seen = 0;
        for (const Preset& p : allPresets()) {
            if (!expected.contains(p.id)) continue;
            ++seen;
            QVERIFY2(p.scenario.mosaic.has_value(), qPrintable(p.id));
            QCOMPARE(
                QString::fromStdString(tandem::mosaic::writeEnvelope(*p.scenario.mosaic).dump()),
                QString::fromStdString(tandem::mosaic::writeEnvelope(expected[p.id]).dump()));
        }
        QCOMPARE(seen, expected.size());
    }

    /// Each MOSAIC preset's note quotes the numbers Tandem shows for its envelope (cluster-optimal
    /// S; Table 4's geometry and MFU; Fig. 11's N_act; Fig. 1's gain) and gives the paper's as the
    /// paper's.
    void mosaicPresetNotesQuoteTandemsNumbers() {
        int seen = 0;
        for (const Preset& p : allPresets()) {
            if (p.workspace != 1) continue;
            ++seen;
            const tandem::mosaic::SearchResult r = tandem::mosaic::search(*p.scenario.mosaic);
            QVERIFY2(r.optimum >= 0, qPrintable(p.id));
            const auto& best = r.candidates[static_cast<size_t>(r.optimum)];
            const auto& g = best.geometry;
            auto has = [&p](const QString& text) {
                QVERIFY2(p.note.contains(text), qPrintable(p.id + QStringLiteral(": ") + text));
            };
            has(QStringLiteral("paper"));
            if (p.id == QLatin1String("mosaic-fig8")) continue;  // explains the two budgets instead
            has(QStringLiteral("S = %1").arg(r.clusterOptimalSparsity, 0, 'f', 3));
            if (p.id == QLatin1String("mosaic-table4")) {
                has(QStringLiteral("L = %1, E = %2, K = %3, G = %4")
                        .arg(g.layers)
                        .arg(g.experts)
                        .arg(g.topK)
                        .arg(g.splitG));
                has(QStringLiteral("MFU %1 %").arg(100 * best.eval.mfu, 0, 'f', 1));
            }
            if (p.id == QLatin1String("mosaic-fig11"))
                has(QStringLiteral("N_act %1 B").arg(g.nAct / 1e9, 0, 'f', 1));
            if (p.id == QLatin1String("mosaic-fig1")) {
                has(QStringLiteral("%1 nats better")
                        .arg(r.naiveOnClusterLoss - best.loss, 0, 'f', 3));
                has(QStringLiteral("boundary %1")
                        .arg(tandem::mosaic::feasibleBoundarySparsity(r.computeOptimal), 0, 'f',
                             3));
            }
        }
        QCOMPARE(seen, 4);
        // Fig. 3's preset runs one Poisson schedule and says so, next to reproduce's 64 and the
        // paper's.
        for (const Preset& p : allPresets())
            if (p.id == QLatin1String("mlforml-fig3")) {
                QCOMPARE(p.scenario.mlForMl->poissonSchedules, 1);
                for (const char* t : {"one arrival schedule", "reproduce ml-for-ml` averages 64",
                                      "paper's Sec. 3.3"})
                    QVERIFY2(p.note.contains(QLatin1String(t)), t);
            }
    }

    void advancedInputsReachTheSearch() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        const double lossBefore =
            ws->result()->candidates[static_cast<size_t>(ws->result()->optimum)].loss;
        ws->controls()->advanced()->goodput()->setValue(0.5);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(ws->envelope()->goodput, 0.5);
        QVERIFY(w.document()->isModified());
        // Half the useful time: fewer tokens, higher loss.
        QVERIFY(ws->result()->candidates[static_cast<size_t>(ws->result()->optimum)].loss >
                lossBefore);
        QComboBox* hw = ws->controls()->advanced()->hardware();
        const int h100 = hw->findData(QStringLiteral("h100"));
        QVERIFY(h100 >= 0);
        const double memBefore = ws->result()->deviceMemoryGB;
        hw->setCurrentIndex(h100);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(QString::fromStdString(ws->envelope()->hardware.name), QStringLiteral("h100"));
        QVERIFY(ws->result()->deviceMemoryGB < memBefore);
        QCOMPARE(ws->memoryView()->capacityGB(), ws->result()->deviceMemoryGB);
    }

    void stackAndPrecisionRoundTripThroughTheScenario_data() {
        QTest::addColumn<QString>("stack");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<QString>("hardware");
        QTest::newRow("megatron-core fp8 h100") << "megatron-core"
                                                << "fp8"
                                                << "h100";
        QTest::newRow("megatron-core nvfp4 gb200") << "megatron-core"
                                                   << "nvfp4"
                                                   << "gb200-nvl72";
        QTest::newRow("mosaic-paper mxfp8 p6-b200") << "mosaic-paper"
                                                    << "mxfp8"
                                                    << "p6-b200";
    }
    void stackAndPrecisionRoundTripThroughTheScenario() {
        QFETCH(QString, stack);
        QFETCH(QString, precision);
        QFETCH(QString, hardware);
        tandem::mosaic::Precision want{};
        QVERIFY(tandem::mosaic::parsePrecision(precision.toStdString(), want));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("scenario.json"));
        {
            MainWindow w;
            w.setCurrentWorkspace(1);
            w.show();
            QVERIFY(w.waitForResults(60000));
            MoeAdvanced* adv = w.moeWorkspace()->controls()->advanced();
            // The default scenario runs the paper's stack in BF16.
            QCOMPARE(adv->stack()->currentData().toString(), QStringLiteral("mosaic-paper"));
            QCOMPARE(adv->precision()->currentData().toInt(), int(tandem::mosaic::Precision::Bf16));
            adv->hardware()->setCurrentIndex(adv->hardware()->findData(hardware));
            adv->stack()->setCurrentIndex(adv->stack()->findData(stack));
            adv->precision()->setCurrentIndex(adv->precision()->findData(int(want)));
            QVERIFY(w.waitForResults(60000));
            const auto& e = *w.moeWorkspace()->envelope();
            QCOMPARE(QString::fromStdString(e.stack.name), stack);
            QCOMPARE(int(e.precision), int(want));
            QVERIFY(adv->precisionNote()->isHidden());
            QString error;
            QVERIFY2(w.document()->save(path, &error), qPrintable(error));
        }
        MainWindow w2;
        tandem::Diagnostics diag("scenario.json");
        QVERIFY2(w2.document()->load(path, diag), diag.str().c_str());
        const auto& e = *w2.document()->scenario().mosaic;
        QCOMPARE(QString::fromStdString(e.stack.name), stack);
        QCOMPARE(int(e.precision), int(want));
        MoeAdvanced* adv = w2.moeWorkspace()->controls()->advanced();
        QCOMPARE(adv->stack()->currentData().toString(), stack);
        QCOMPARE(adv->precision()->currentData().toInt(), int(want));
        QCOMPARE(adv->hardware()->currentData().toString(), hardware);
    }

    void precisionsWithoutAPeakAreDisabledNotClamped() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeAdvanced* adv = w.moeWorkspace()->controls()->advanced();
        auto* model = qobject_cast<QStandardItemModel*>(adv->precision()->model());
        QVERIFY(model);
        const int fp4 = adv->precision()->findData(int(tandem::mosaic::Precision::Nvfp4));
        const int fp8 = adv->precision()->findData(int(tandem::mosaic::Precision::Fp8));
        QVERIFY(model->item(fp4)->isEnabled());  // p6-b200 (B200) has an FP4 peak
        adv->precision()->setCurrentIndex(fp4);
        QVERIFY(w.waitForResults(60000));
        // H100 has no FP4 peak: NVFP4 is disabled, the choice stays and the note says why.
        adv->hardware()->setCurrentIndex(adv->hardware()->findData(QStringLiteral("h100")));
        QVERIFY(w.waitForResults(60000));
        QVERIFY(!model->item(fp4)->isEnabled());
        QVERIFY(model->item(fp8)->isEnabled());
        QVERIFY(adv->precision()
                    ->itemData(fp4, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("no NVFP4 peak")));
        QCOMPARE(adv->precision()->currentIndex(), fp4);
        QCOMPARE(int(w.moeWorkspace()->envelope()->precision),
                 int(tandem::mosaic::Precision::Nvfp4));
        QVERIFY(!adv->precisionNote()->isHidden());
        QVERIFY(adv->precisionNote()->text().contains(QStringLiteral("h100 has no NVFP4 peak")));
        QVERIFY(w.moeWorkspace()->result()->candidates.empty());
        // A100: no FP8 peak either.
        adv->hardware()->setCurrentIndex(adv->hardware()->findData(QStringLiteral("a100")));
        QVERIFY(w.waitForResults(60000));
        QVERIFY(!model->item(fp8)->isEnabled());
        adv->precision()->setCurrentIndex(
            adv->precision()->findData(int(tandem::mosaic::Precision::Bf16)));
        QVERIFY(w.waitForResults(60000));
        QVERIFY(adv->precisionNote()->isHidden());
        QVERIFY(!w.moeWorkspace()->result()->candidates.empty());
    }

    void paperPresetsKeepThePaperStack() {
        for (int i = 0; i < allPresets().size(); ++i) {
            if (allPresets()[i].workspace != 1) continue;
            MainWindow w;
            w.applyPreset(i, false);
            const auto& e = w.document()->scenario().mosaic;
            QVERIFY(e.has_value());
            QCOMPARE(QString::fromStdString(e->stack.name), QStringLiteral("mosaic-paper"));
            QCOMPARE(w.moeWorkspace()->controls()->advanced()->stack()->currentData().toString(),
                     QStringLiteral("mosaic-paper"));
        }
    }
};

TANDEM_TEST_MAIN(TstMoeControls)
#include "tst_moe_controls.moc"
