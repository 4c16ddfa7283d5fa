// The MoE workspace's "Plan" page (PlanPanel) on the path a user takes: import a Hugging Face
// config, choose the hardware, stack and precision, select a candidate, open the page and press
// "Copy launch script". The figures shown and the clipboard must be what `tandem-cli plan`
// prints for the same model, cluster and layout (the binary is run). Also: "Save as .sh..."
// writes the same bytes, and rack-scale hardware counts racks.
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/number_format.h"
#include "fabric/topology.h"
#include "io/hf_config.h"
#include "mosaic/background.h"
#include "mosaic/layout_form.h"
#include "mosaic/perf_model.h"
#include "mosaic/plan.h"
#include "mosaic/search.h"
#include "mosaic/stack.h"
#include "run_fixtures.h"
#include "test_main.h"
#include "ui/mlforml/loss_curve_view.h"
#include "ui/mlforml/network_controls.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mosaic/candidate_table.h"
#include "ui/mosaic/cluster_unit.h"
#include "ui/mosaic/frontier_view.h"
#include "ui/mosaic/imported_model.h"
#include "ui/mosaic/imported_model_card.h"
#include "ui/mosaic/moe_advanced.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/mosaic/plan_panel.h"
#include "ui/mosaic/stage_memory_table.h"
#include "ui/mosaic/step_breakdown_view.h"
#include "ui/shell/main_window.h"
#include "ui/widgets/collapsible_section.h"
#include "ui/widgets/field_row.h"
#include "ui/widgets/labeled_slider.h"

using namespace tandem;
using namespace tandem::ui;

namespace {
QString data(const char* rel) { return QStringLiteral(TANDEM_TEST_DATA "/") + QLatin1String(rel); }
const char* kMixtral = "models/Mixtral-8x7B-v0.1.config.json";

/// Chooses item data `value` in `box` (a user's pick: emits the change).
bool choose(QComboBox* box, const QVariant& value) {
    const int i = box->findData(value);
    if (i < 0) return false;
    box->setCurrentIndex(i);
    return true;
}

/// `tandem-cli plan MODEL ARGS...` with the cluster and layout of `r`: standard output.
QByteArray runCli(const QString& model, const mosaic::PlanReport& r, const QStringList& more) {
    const mosaic::Cluster& c = r.request.cluster;
    QStringList args = {QStringLiteral("plan"),
                        model,
                        QStringLiteral("--devices"),
                        QString::number(c.devices),
                        QStringLiteral("--gbs"),
                        QString::number(c.globalBatch),
                        QStringLiteral("--seqlen"),
                        QString::number(c.seqLen),
                        QStringLiteral("--hardware"),
                        QString::fromStdString(c.hardware.name),
                        QStringLiteral("--stack"),
                        QString::fromStdString(c.stack.name),
                        QStringLiteral("--precision"),
                        QString::fromLatin1(mosaic::precisionName(c.precision)),
                        QStringLiteral("--layout"),
                        QString::fromStdString(mosaic::layoutString(r.layouts.front().plan))};
    args << more;
    QProcess cli;
    cli.start(QStringLiteral(TANDEM_CLI), args);
    if (!cli.waitForFinished(120000) || cli.exitCode() != 0) {
        qWarning("tandem-cli %s: exit %d: %s", qPrintable(args.join(QLatin1Char(' '))),
                 cli.exitCode(), cli.readAllStandardError().constData());
        return {};
    }
    return cli.readAllStandardOutput();
}

}  // namespace

class TstMoePlan : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

    /// Checks the panel's figures and its Megatron line against `tandem-cli plan` on `model`
    /// with the report's cluster and layout (JSON numbers are shortest round trips: exact).
    void checkAgainstCli(PlanPanel* panel, const QString& model) {
        QVERIFY(panel->report());
        const mosaic::PlanReport& r = *panel->report();
        QCOMPARE(int(r.layouts.size()), 1);
        const mosaic::PlanLayout& l = r.layouts.front();
        QVERIFY2(l.eval.feasible, l.eval.reason.c_str());
        // The token target and goodput as the CLI reads them back (shortest round trip).
        const QStringList target = {
            QStringLiteral("--tokens"), QString::fromStdString(formatNumber(r.request.tokenTarget)),
            QStringLiteral("--goodput"), QString::fromStdString(formatNumber(r.request.goodput))};
        const auto j = nlohmann::json::parse(
            runCli(model, r, target + QStringList{QStringLiteral("--json")}).toStdString());
        const auto& cli = j.at("layouts").at(0);
        QCOMPARE(cli.at("days_to_target").get<double>(), l.daysToTarget);
        QCOMPARE(cli.at("tokens_per_s_per_gpu").get<double>(), l.eval.tokensPerSPerGpu);
        QCOMPARE(cli.at("iteration_s").get<double>(), l.eval.iteration_s);
        QCOMPARE(cli.at("mfu").get<double>(), l.eval.mfu);
        QCOMPARE(cli.at("model_tflops_per_s_per_gpu").get<double>(), l.eval.modelTflopsPerSPerGpu);
        QCOMPARE(cli.at("memory_GB").get<double>(), l.eval.memoryGB);
        QCOMPARE(cli.at("memory_breakdown_GB").at("activations").get<double>(),
                 l.eval.memory.activations);
        QCOMPARE(cli.at("breakdown_s").at("compute").get<double>(), l.eval.breakdown.compute_s);
        // What the panel shows is the report's.
        using F = PlanPanel::Figure;
        QCOMPARE(panel->figureText(F::TokensPerGpu),
                 QString::number(l.eval.tokensPerSPerGpu, 'f', 0));
        QCOMPARE(panel->figureText(F::Iteration),
                 QStringLiteral("%1 s").arg(l.eval.iteration_s, 0, 'f', 3));
        QCOMPARE(panel->figureText(F::Mfu),
                 QStringLiteral("%1 %").arg(100 * l.eval.mfu, 0, 'f', 1));
        QCOMPARE(panel->figureText(F::ModelTflops),
                 QString::number(l.eval.modelTflopsPerSPerGpu, 'f', 1));
        QVERIFY(std::isfinite(l.daysToTarget) && l.daysToTarget > 0);
        QVERIFY2(panel->figureText(F::DaysToTarget)
                     .startsWith(QString::number(l.daysToTarget, 'f', 1) + QStringLiteral(" days")),
                 qPrintable(panel->figureText(F::DaysToTarget)));
        QCOMPARE(panel->breakdownView()->values(0).front(), l.eval.breakdown.compute_s);
        // One row per kind of pipeline stage; the fullest is the plan's peak.
        StageMemoryTable* t = panel->stageTable();
        QCOMPARE(t->rowCount(), int(l.stages.size()));
        QVERIFY(t->rowCount() >= 1);
        double peak = 0;
        for (const auto& s : l.stages) peak = std::max(peak, s.totalGB);
        QCOMPARE(peak, l.eval.memoryGB);
        QCOMPARE(t->item(0, 2)->text(), QString::number(l.stages[0].memory.weights, 'f', 1));
        // Copy launch script: the bytes of --emit megatron, a bash script whose header names
        // the model, hardware and stack of the plan.
        QApplication::clipboard()->clear();
        QVERIFY(panel->copyButton()->isEnabled());
        QTest::mouseClick(panel->copyButton(), Qt::LeftButton);
        const QByteArray emitted =
            runCli(model, r, {QStringLiteral("--emit"), QStringLiteral("megatron")});
        QVERIFY2(emitted.startsWith("#!/usr/bin/env bash\n# ") && emitted.endsWith("\"$@\"\n"),
                 emitted.constData());
        const mosaic::Cluster& c = r.request.cluster;
        for (const QByteArray& line :
             {QByteArray("\nset -euo pipefail\n"),
              QByteArray("\n# Hardware: ") + QByteArray::number(c.devices) + " x " +
                  QByteArray::fromStdString(c.hardware.name),
              QByteArray("; training stack ") + QByteArray::fromStdString(c.stack.name) +
                  "; precision " + mosaic::precisionName(c.precision) + "\n",
              QByteArray("\ntorchrun pretrain_gpt.py \\\n    --num-layers ")})
            QVERIFY2(emitted.contains(line), (line + " in\n" + emitted).constData());
        QCOMPARE(QApplication::clipboard()->text().toUtf8(), emitted);
        // Save as .sh writes the same bytes through the atomic save, executable.
        const QString path = m_tmp.filePath(QStringLiteral("plan.sh"));
        QFile::remove(path);
        QString error;
        QVERIFY2(panel->saveMegatronScript(path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), emitted);
        QVERIFY(f.permissions() & QFileDevice::ExeOwner);
        QVERIFY(QFileInfo(path).isExecutable());
    }

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    /// Import Mixtral-8x7B, choose h100 / megatron-core / fp8, select a candidate and the
    /// imported model on the Plan page: every figure and the copied line are the CLI's.
    void userPathMatchesTheCli() {
        MainWindow w;
        w.setCurrentWorkspace(1);  // the MoE workspace computes while it is shown
        w.show();
        QVERIFY(w.waitForResults(60000));
        QVERIFY(w.importFile(data(kMixtral)));
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* moe = w.moeWorkspace();
        MoeAdvanced* adv = moe->controls()->advanced();
        QVERIFY(choose(adv->hardware(), QStringLiteral("h100")));
        QVERIFY(w.waitForResults(60000));
        QVERIFY(choose(adv->stack(), QStringLiteral("megatron-core")));
        QVERIFY(w.waitForResults(60000));
        QVERIFY(choose(adv->precision(), int(mosaic::Precision::Fp8)));
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(moe->envelope()->hardware.name, std::string("h100"));
        QCOMPARE(moe->envelope()->precision, mosaic::Precision::Fp8);
        QVERIFY(moe->result() && moe->result()->optimum >= 0);

        // Select a candidate other than the optimum in the table.
        const int row = moe->result()->optimum == 0 ? 1 : 0;
        CandidateTable* table = moe->candidateTable();
        table->selectionModel()->setCurrentIndex(
            table->model()->index(row, 0),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(moe->selectedCandidate(), row);
        QVERIFY(moe->layoutRunner()->waitIdle(60000));
        QApplication::processEvents();
        moe->pages()->setCurrentIndex(MoeWorkspace::kPlanPage);
        PlanPanel* panel = moe->planPanel();
        QVERIFY(panel->isVisible());
        QComboBox* subjects = panel->subjectBox();
        // The cluster optimum, the selected candidate and the imported model.
        QCOMPARE(subjects->count(), 3);
        QCOMPARE(subjects->itemText(1), QStringLiteral("Candidate #%1").arg(row + 1));
        QVERIFY(subjects->itemText(2).startsWith(QLatin1String("Imported: Mixtral-8x7B")));

        panel->showSubject(1);
        const auto& c = moe->result()->candidates[size_t(row)];
        const mosaic::Cluster& cluster = panel->report()->request.cluster;
        QCOMPARE(cluster.hardware.name, std::string("h100"));
        QCOMPARE(cluster.stack.name, std::string("megatron-core"));
        QCOMPARE(cluster.precision, mosaic::Precision::Fp8);
        QCOMPARE(panel->report()->request.tokenTarget, c.tokens);
        QCOMPARE(panel->report()->layouts.front().eval.mfu, c.eval.mfu);  // the table's MFU
        const QString model = m_tmp.filePath(QStringLiteral("candidate.json"));
        {
            QFile f(model);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(test::explicitModelJson(c.geometry));
        }
        checkAgainstCli(panel, model);
        if (QTest::currentTestFailed()) return;

        panel->showSubject(2);
        QCOMPARE(panel->report()->request.tokenTarget, moe->importedPoints().front().tokens);
        checkAgainstCli(panel, data(kMixtral));
    }

    /// A new user's question, "512 B200 GPUs for 30 days beside 8 other jobs: which MoE, which
    /// layout, throughput, memory, Megatron line saved to a file", answered through the widgets
    /// alone with the actions counted: the cluster and co-running-jobs counts are typed into the
    /// boxes beside their sliders. The Plan page's tokens/s per GPU, memory per stage and the
    /// copied and saved arguments are mosaic::runPlan's for the same request, computed here from
    /// mosaic::search on the envelope the controls wrote.
    void newUserQuestionInFewActions() {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.waitForResults(60000));
        int actions = 0;
        MoeWorkspace* moe = w.moeWorkspace();
        MoeControls* controls = moe->controls();
        MoeAdvanced* adv = controls->advanced();
        // Types `text` into a number box and presses Enter: one action.
        const auto type = [&actions](QSpinBox* box, const QString& text) {
            ++actions;
            box->setFocus();
            box->selectAll();
            QTest::keyClicks(box, text);
            QTest::keyClick(box, Qt::Key_Return);
        };
        const auto pick = [&actions](QComboBox* box, const QVariant& value) {
            ++actions;
            return choose(box, value);
        };
        ++actions;  // the MoE workspace's tab
        w.setCurrentWorkspace(1);
        QVERIFY(w.waitForResults(60000));
        ++actions;  // opens "Advanced"
        adv->section()->setExpanded(true);
        QVERIFY(pick(adv->hardware(), QStringLiteral("dgx-b200")));
        QVERIFY(w.waitForResults(60000));
        QSpinBox* nodes = controls->nodesSlider()->numberBox();
        QVERIFY(nodes && nodes->isVisible());
        type(nodes, QStringLiteral("64"));  // 512 GPUs of 8 per node
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(controls->nodesSlider()->value(), 64);
        QSpinBox* jobs = controls->coRunningSlider()->numberBox();
        QVERIFY(jobs && jobs->isVisible());
        type(jobs, QStringLiteral("8"));
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(controls->coRunningSlider()->value(), 8);
        QVERIFY(pick(adv->stack(), QStringLiteral("megatron-core")));
        QVERIFY(w.waitForResults(60000));
        QVERIFY(pick(adv->precision(), int(mosaic::Precision::Fp8)));
        QVERIFY(w.waitForResults(60000));
        // 30 days: one stop of the window slider typed as its value.
        ++actions;
        controls->daysSlider()->setNumber(30);
        QVERIFY(w.waitForResults(60000));

        const mosaic::Envelope e = *moe->envelope();
        QCOMPARE(e.hardware.name, std::string("dgx-b200"));
        QCOMPARE(e.nodes * e.hardware.gpusPerNode, 512);
        QVERIFY(e.background);
        QCOMPARE(e.background->jobs, 8);
        QCOMPARE(e.stack.name, std::string("megatron-core"));
        QCOMPARE(e.precision, mosaic::Precision::Fp8);
        QCOMPARE(e.days, 30.0);
        QVERIFY(moe->result() && moe->result()->optimum >= 0);

        // The cluster-optimal candidate in the table, then the Plan page.
        ++actions;
        CandidateTable* table = moe->candidateTable();
        const int best = moe->result()->optimum;
        table->selectionModel()->setCurrentIndex(
            table->model()->index(best, 0),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QVERIFY(moe->layoutRunner()->waitIdle(60000));
        QApplication::processEvents();
        ++actions;
        moe->pages()->setCurrentIndex(MoeWorkspace::kPlanPage);
        PlanPanel* panel = moe->planPanel();
        QVERIFY(panel->isVisible());
        QCOMPARE(panel->subjectBox()->currentIndex(), 0);
        QCOMPARE(panel->subjectBox()->currentText(), QStringLiteral("Cluster-optimal model"));
        ++actions;
        QApplication::clipboard()->clear();
        QTest::mouseClick(panel->copyButton(), Qt::LeftButton);
        actions += 2;  // "Save as .sh...", then a name and Enter in the file dialog
        const QString script = m_tmp.filePath(QStringLiteral("answer.sh"));
        QString error;
        QVERIFY2(panel->saveMegatronScript(script, &error), qPrintable(error));

        // The core on the same request: search the envelope, plan its optimum.
        const mosaic::SearchResult r = mosaic::search(e);
        QVERIFY(r.optimum >= 0);
        const mosaic::Candidate& c = r.candidates[size_t(r.optimum)];
        mosaic::PlanRequest req;
        req.geometry = c.geometry;
        req.cluster = mosaic::clusterOf(e);
        req.grid = mosaic::layoutGridOf(e);
        req.layouts = {c.plan};
        req.tokenTarget = c.tokens;
        req.goodput = e.goodput;
        const mosaic::PlanReport expected = mosaic::runPlan(req);
        QVERIFY(!expected.layouts.empty() && expected.layouts.front().eval.feasible);
        const mosaic::PlanLayout& l = expected.layouts.front();
        QVERIFY(panel->report());
        const mosaic::PlanLayout& shown = panel->report()->layouts.front();
        QCOMPARE(shown.eval.tokensPerSPerGpu, l.eval.tokensPerSPerGpu);
        QCOMPARE(panel->figureText(PlanPanel::Figure::TokensPerGpu),
                 QString::number(l.eval.tokensPerSPerGpu, 'f', 0));
        QCOMPARE(panel->figureText(PlanPanel::Figure::Layout).isEmpty(), false);
        // Memory per stage: one row per kind of stage, each the core's total.
        StageMemoryTable* stages = panel->stageTable();
        QCOMPARE(stages->rowCount(), int(l.stages.size()));
        for (int i = 0; i < stages->rowCount(); ++i) {
            QCOMPARE(shown.stages[size_t(i)].totalGB, l.stages[size_t(i)].totalGB);
            QCOMPARE(stages->item(i, 2)->text(),
                     QString::number(l.stages[size_t(i)].memory.weights, 'f', 1));
        }
        const QByteArray megatron = QByteArray::fromStdString(mosaic::planReportMegatron(expected));
        QVERIFY(megatron.startsWith("#!/usr/bin/env bash\n"));
        QVERIFY(megatron.contains("    --num-layers "));
        QCOMPARE(QApplication::clipboard()->text().toUtf8(), megatron);
        QFile saved(script);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QCOMPARE(saved.readAll(), megatron);
        QVERIFY2(actions <= 15, qPrintable(QStringLiteral("%1 actions").arg(actions)));
        qInfo("new-user path: %d actions", actions);
    }

    /// An infeasible subject offers nothing to copy or save; a folder is refused as a target.
    void nothingToSaveAndBadTargets() {
        PlanPanel panel;
        panel.setSubjects({{QStringLiteral("nothing"), std::nullopt, QStringLiteral("too big")}});
        // The note says why in the wording the CLI prints (mosaic::noFeasibleLayoutText).
        bool noted = false;
        for (const QLabel* l : panel.findChildren<QLabel*>())
            noted =
                noted || l->text() == QLatin1String("No feasible layout on this cluster: too big");
        QVERIFY(noted);
        QVERIFY(!panel.copyButton()->isEnabled());
        QVERIFY(!panel.saveButton()->isEnabled());
        QVERIFY(panel.megatronText().isEmpty());
        QString error;
        QVERIFY(!panel.saveMegatronScript(m_tmp.filePath(QStringLiteral("x.sh")), &error));
        QVERIFY(!QFile::exists(m_tmp.filePath(QStringLiteral("x.sh"))));

        mosaic::Envelope e;
        e.nodes = 8;
        mosaic::Plan p;
        std::string why;
        QVERIFY(mosaic::parseLayout("tp=1,ep=8,pp=1,cp=1,dp=64,mbs=1,ckpt=selective", p, why));
        panel.setSubjects(
            {{QStringLiteral("model"),
              planRequestOf(mosaic::ladderGeometry(8, 32, 2, 2), p, 1e11, e), QString()}});
        QVERIFY(panel.report() && panel.report()->anyFeasible);
        QVERIFY(panel.saveButton()->isEnabled());
        QVERIFY(!panel.saveMegatronScript(m_tmp.path(), &error));  // a folder
        QVERIFY2(error.contains(QLatin1String("folder")), qPrintable(error));
    }

    /// Co-running jobs that share no link with the job change nothing, and the page says so in
    /// the line the model gives (mosaic::coRunNote): 8 jobs packed beside an 8-node job packed
    /// in one leaf of 16. Without co-running jobs the line is hidden.
    void coRunningJobsLine() {
        mosaic::Envelope e;
        e.nodes = 8;
        mosaic::Plan p;
        std::string why;
        QVERIFY(mosaic::parseLayout("tp=1,ep=8,pp=1,cp=1,dp=64,mbs=1,ckpt=selective", p, why));
        const mosaic::Geometry g = mosaic::ladderGeometry(8, 32, 2, 2);
        PlanPanel alone;
        alone.setSubjects({{QStringLiteral("model"), planRequestOf(g, p, 1e11, e), QString()}});
        QVERIFY(alone.report() && alone.report()->anyFeasible);
        QVERIFY(alone.coRunLabel()->isHidden());

        mosaic::BackgroundLoad b;
        QVERIFY(fabric::topologyPreset("leaf-spine-4to1", b.topology));
        b.topology.nodes = 256;
        b.jobs = 8;
        e.background = b;
        PlanPanel panel;
        panel.setSubjects({{QStringLiteral("model"), planRequestOf(g, p, 1e11, e), QString()}});
        QVERIFY(panel.report() && panel.report()->anyFeasible);
        const QString line = QStringLiteral(
            "8 co-running jobs share no link with this job under packed placement: no slowdown");
        QCOMPARE(panel.coRunLabel()->text(), line);
        QVERIFY(!panel.coRunLabel()->isHidden());
        QCOMPARE(QString::fromStdString(mosaic::coRunNote(e.hardware, e.nodes, b)), line);
        // The plan is the one without them.
        using F = PlanPanel::Figure;
        for (F f : {F::TokensPerGpu, F::Iteration, F::Mfu})
            QCOMPARE(panel.figureText(f), alone.figureText(f));
        QCOMPARE(panel.report()->layouts[0].eval.iteration_s,
                 alone.report()->layouts[0].eval.iteration_s);
    }

    /// An imported model without a feasible layout: the card says so in the CLI's wording, with
    /// the rule that cut it.
    void importedCardWithoutLayout() {
        ImportedModelCard card;
        ImportedModelPoint m;
        m.label = QStringLiteral("Huge");
        m.geometry = mosaic::ladderGeometry(8, 32, 2, 2);
        m.eval.feasible = false;
        m.eval.reason = "does not fit in device memory";
        card.setModels({m}, std::nullopt, 80);
        QVERIFY2(card.text().contains(QLatin1String(
                     "No feasible layout on this cluster: does not fit in device memory")),
                 qPrintable(card.text()));
    }

    /// The stage memory table's rows hold the stages' real layer counts (PerfModel::stageLayers:
    /// L mod PP stages of ceil(L / PP), the others floor(L / PP)), so that they add up to the
    /// model's layers: Qwen3-235B-A22B's 94 over PP 8 is 12 x 6 + 11 x 2, not 12 x 7 + 11.
    void stageRowsHoldEveryLayer_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("layout");
        QTest::addColumn<int>("layers");
        QTest::addColumn<QStringList>("rows");
        QTest::newRow("94 over pp8") << "models/Qwen3-235B-A22B.config.json"
                                     << "tp=1,ep=8,pp=8,mbs=1,ckpt=selective" << 94
                                     << QStringList{"1: 12", "2 to 6: 12", "7: 11", "8: 11"};
        QTest::newRow("80 over pp3") << "models/Llama-3-70B.config.json"
                                     << "tp=8,ep=1,pp=3,mbs=1,ckpt=selective" << 80
                                     << QStringList{"1: 27", "2: 27", "3: 26"};
    }

    void stageRowsHoldEveryLayer() {
        QFETCH(QString, config);
        QFETCH(QString, layout);
        QFETCH(int, layers);
        QFETCH(QStringList, rows);
        Diagnostics d;
        const auto m = io::loadModelConfigFile(data(config.toUtf8().constData()).toStdString(), d);
        QVERIFY(m);
        const mosaic::Geometry g = mosaicGeometry(*m, QStringLiteral("model")).geometry;
        QCOMPARE(g.layers, layers);
        mosaic::Plan p;
        std::string why;
        QVERIFY2(mosaic::parseLayout(layout.toStdString(), p, why), why.c_str());
        p.dp = 8;
        mosaic::Cluster c;
        c.devices = p.tp * p.cp * p.pp * p.dp;
        c.stack = mosaic::builtinStack("megatron-core");
        StageMemoryTable table;
        table.setStages(mosaic::layoutStageMemory(g, c, p), 80.0);
        QStringList shown;
        int sum = 0;
        for (int r = 0; r < table.rowCount(); ++r) {
            const QString stage = table.item(r, 0)->text();
            const int n = table.item(r, 1)->text().toInt();
            const QStringList ends = stage.split(QStringLiteral(" to "));
            const int count = ends.size() == 2 ? ends[1].toInt() - ends[0].toInt() + 1 : 1;
            sum += n * count;
            shown << stage + QStringLiteral(": ") + QString::number(n);
        }
        QCOMPARE(shown, rows);
        QCOMPARE(sum, layers);
    }

    /// The candidate table and the stage memory table are set up alike (setUpReadOnlyTable): not
    /// editable, no row numbers, columns as wide as their contents and nothing elided; rows are
    /// selected one at a time in the first, not at all in the second.
    void readOnlyTables() {
        CandidateTable candidates;
        StageMemoryTable stages;
        const QList<QPair<QTableView*, QAbstractItemView::SelectionMode>> tables = {
            {&candidates, QAbstractItemView::SingleSelection},
            {&stages, QAbstractItemView::NoSelection}};
        for (const auto& [t, selection] : tables) {
            QCOMPARE(t->editTriggers(), QAbstractItemView::EditTriggers());
            QCOMPARE(t->selectionMode(), selection);
            QVERIFY(t->verticalHeader()->isHidden());
            QCOMPARE(t->verticalHeader()->defaultSectionSize(), t->fontMetrics().height() + 6);
            QVERIFY(!t->horizontalHeader()->stretchLastSection());
            QCOMPARE(t->horizontalHeader()->sectionResizeMode(0), QHeaderView::ResizeToContents);
            QCOMPARE(t->textElideMode(), Qt::ElideNone);
        }
        QCOMPARE(candidates.selectionBehavior(), QAbstractItemView::SelectRows);
    }

    /// One row type for label/value grids and read-only tables (FieldRow): a table gets the name
    /// in column 0 and the values after it, names and the first `leftValues` values left-aligned
    /// and numbers right-aligned, the tooltip on every cell; a grid gets name and value labels
    /// side by side, the value named and selectable. The stage memory table is filled this way.
    void fieldRowsFillTablesAndGrids() {
        QTableWidget table(0, 3);
        setTableRows(&table,
                     {{QStringLiteral("a"),
                       {QStringLiteral("x"), QStringLiteral("1.5")},
                       QStringLiteral("tip")},
                      {QStringLiteral("b"), {QStringLiteral("y"), QStringLiteral("2")}, {}}},
                     1);
        QCOMPARE(table.rowCount(), 2);
        QCOMPARE(table.item(1, 0)->text(), QStringLiteral("b"));
        QCOMPARE(table.item(0, 2)->text(), QStringLiteral("1.5"));
        const auto align = [&table](int r, int c) {
            return Qt::Alignment(table.item(r, c)->textAlignment()) & Qt::AlignHorizontal_Mask;
        };
        QCOMPARE(align(0, 0), Qt::AlignLeft);
        QCOMPARE(align(0, 1), Qt::AlignLeft);
        QCOMPARE(align(0, 2), Qt::AlignRight);
        QCOMPARE(table.item(0, 2)->toolTip(), QStringLiteral("tip"));
        QVERIFY(table.item(1, 2)->toolTip().isEmpty());

        QWidget host;
        auto* grid = new QGridLayout(&host);
        const QList<QLabel*> values = addFieldRows(
            grid,
            {{QStringLiteral("Iteration time"), {QStringLiteral("2.5 s")}, QStringLiteral("t")}}, 3,
            QStringLiteral("figure"));
        QCOMPARE(values.size(), 1);
        QCOMPARE(values[0]->text(), QStringLiteral("2.5 s"));
        QCOMPARE(values[0]->objectName(), QStringLiteral("figure0"));
        QCOMPARE(values[0]->toolTip(), QStringLiteral("t"));
        QVERIFY(values[0]->textInteractionFlags() & Qt::TextSelectableByMouse);
        auto* name = qobject_cast<QLabel*>(grid->itemAtPosition(3, 0)->widget());
        QVERIFY(name);
        QCOMPARE(name->text(), QStringLiteral("Iteration time"));
        QCOMPARE(grid->itemAtPosition(3, 1)->widget(), values[0]);

        mosaic::StageMemory s;
        s.firstStage = 1;
        s.lastStage = 6;
        s.layers = 7;
        s.memory.weights = 11.15;
        s.totalGB = 143.8;
        StageMemoryTable stages;
        stages.setStages({s}, 179.0);
        QCOMPARE(stages.item(0, 0)->text(), QStringLiteral("2 to 7"));
        QCOMPARE(Qt::Alignment(stages.item(0, 0)->textAlignment()) & Qt::AlignHorizontal_Mask,
                 Qt::AlignLeft);
        QCOMPARE(stages.item(0, 8)->text(), QStringLiteral("80 %"));
        QCOMPARE(Qt::Alignment(stages.item(0, 8)->textAlignment()) & Qt::AlignHorizontal_Mask,
                 Qt::AlignRight);
    }

    /// The nearest whole number of units.
    void unitsNearestGpus_data() {
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("perUnit");
        QTest::addColumn<int>("units");
        QTest::newRow("256 GPUs in racks") << 256 << 72 << 4;  // 3.56 racks
        QTest::newRow("tie to the smaller") << 108 << 72 << 1;
        QTest::newRow("at least one") << 8 << 72 << 1;
        QTest::newRow("288 GPUs in nodes") << 288 << 8 << 36;
        QTest::newRow("exact racks") << 144 << 72 << 2;
    }
    void unitsNearestGpus() {
        QFETCH(int, gpus);
        QFETCH(int, perUnit);
        QFETCH(int, units);
        QCOMPARE(tandem::ui::unitsNearestGpus(gpus, perUnit, 1000), units);
    }

    /// The status line's sentence, also when the GPU count is kept.
    void unitChangeNotes() {
        const auto rack = mosaic::builtinHardware("gb200-nvl72");
        QCOMPARE(unitChangeNote(rack, 256, 4),
                 QStringLiteral("gb200-nvl72 counts racks of 72 GPUs: 256 GPUs became 4 racks "
                                "(288 GPUs), the nearest whole number of racks."));
        QCOMPARE(unitChangeNote(rack, 144, 2),
                 QStringLiteral("gb200-nvl72 counts racks of 72 GPUs: 144 GPUs kept as 2 racks "
                                "(144 GPUs)."));
        QCOMPARE(unitChangeNote(mosaic::builtinHardware("p6-b200"), 72, 9),
                 QStringLiteral("p6-b200 counts nodes of 8 GPUs: 72 GPUs kept as 9 nodes (72 "
                                "GPUs)."));
    }

    /// On NVL72 hardware the cluster control counts racks; switching keeps the GPU count as
    /// close as the unit allows and says so in the status line.
    void rackHardwareCountsRacks() {
        MainWindow w;
        w.setCurrentWorkspace(1);  // the MoE workspace computes while it is shown
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* moe = w.moeWorkspace();
        LabeledSlider* nodes = moe->controls()->nodesSlider();
        QCOMPARE(moe->envelope()->hardware.gpusPerNode, 8);
        const int gpus = moe->envelope()->devices();
        QCOMPARE(nodes->valueText(), QStringLiteral("%1 nodes").arg(gpus / 8));
        for (const char* rack : {"gb200-nvl72", "gb300-nvl72"}) {
            QVERIFY(choose(moe->controls()->advanced()->hardware(), QString::fromLatin1(rack)));
            QVERIFY(w.waitForResults(60000));
            const int racks = tandem::ui::unitsNearestGpus(gpus, 72, 1 << 20);
            QCOMPARE(moe->envelope()->nodes, racks);
            QCOMPARE(nodes->valueText(),
                     QStringLiteral("%1 racks (%2 GPUs)").arg(racks).arg(72 * racks));
            QVERIFY(!nodes->valueText().contains(QLatin1String("node")));
            nodes->setNumber(1);
            QVERIFY(w.waitForResults(60000));
            QCOMPARE(nodes->valueText(), QStringLiteral("1 rack (72 GPUs)"));
            QCOMPARE(moe->envelope()->devices(), 72);
            // The frontier's title counts the same unit.
            const QString title =
                plainChartText(moe->frontierView()->chart()->title()).simplified();
            QVERIFY2(title.contains(QStringLiteral(" on 1 rack (72 GPUs), ")), qPrintable(title));
            // Back to nodes for the next rack type: 72 GPUs = 9 nodes.
            QVERIFY(choose(moe->controls()->advanced()->hardware(), QStringLiteral("p6-b200")));
            QVERIFY(w.waitForResults(60000));
            QCOMPARE(moe->envelope()->nodes, 9);
            QCOMPARE(nodes->valueText(), QStringLiteral("9 nodes"));
            nodes->setNumber(gpus / 8);
            QVERIFY(w.waitForResults(60000));
        }
        // The switch is said in the status line.
        QVERIFY(choose(moe->controls()->advanced()->hardware(), QStringLiteral("gb200-nvl72")));
        QVERIFY(w.waitForResults(60000));
        QLabel* status = nullptr;
        for (QLabel* l : moe->findChildren<QLabel*>())
            if (l->text().contains(QLatin1String("the nearest whole number of racks"))) status = l;
        QVERIFY(status);
        QVERIFY2(status->text().contains(QStringLiteral("%1 GPUs became").arg(gpus)),
                 qPrintable(status->text()));
    }

    /// View > Pin for comparison: the Plan page shows each figure's change against the pinned
    /// plan (computed from the two reports), the breakdown a "pinned" bar and the frontier a
    /// pinned curve; a change of hardware is then compared, and Clear pinned ends it.
    void pinComparesPlans() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* moe = w.moeWorkspace();
        moe->pages()->setCurrentIndex(MoeWorkspace::kPlanPage);
        PlanPanel* panel = moe->planPanel();
        QVERIFY(panel->report() && panel->report()->layouts.front().eval.feasible);
        const mosaic::PlanEval before = panel->report()->layouts.front().eval;
        QVERIFY(!w.comparisonPinned());
        w.pinForComparison();
        QVERIFY(w.comparisonPinned());
        QVERIFY(panel->pinned());
        QVERIFY(!moe->frontierView()->pinnedCurves().isEmpty());
        QCOMPARE(panel->figureText(PlanPanel::Figure::TokensPerGpu),
                 QStringLiteral("%1 (same as pinned)").arg(before.tokensPerSPerGpu, 0, 'f', 0));

        QVERIFY(choose(moe->controls()->advanced()->hardware(), QStringLiteral("h200")));
        QVERIFY(w.waitForResults(60000));
        QVERIFY(panel->report() && panel->report()->layouts.front().eval.feasible);
        const mosaic::PlanEval after = panel->report()->layouts.front().eval;
        const double change = 100.0 * (after.tokensPerSPerGpu / before.tokensPerSPerGpu - 1.0);
        QVERIFY2(std::abs(change) >= 0.05, "h200 should change the plan");
        QCOMPARE(panel->figureText(PlanPanel::Figure::TokensPerGpu),
                 QStringLiteral("%1 (%2%3 % vs pinned)")
                     .arg(after.tokensPerSPerGpu, 0, 'f', 0)
                     .arg(change > 0 ? QStringLiteral("+") : QString())
                     .arg(change, 0, 'f', 1));
        QVERIFY(panel->figureText(PlanPanel::Figure::Mfu).contains(QLatin1String("vs pinned")));
        // The breakdown's second bar is the pinned plan's: its parts sum to its iteration time.
        double pinnedTotal = 0;
        for (double part : panel->breakdownView()->values(1)) pinnedTotal += part;
        QVERIFY2(std::abs(pinnedTotal - before.iteration_s) <= 1e-9 * before.iteration_s,
                 qPrintable(QString::number(pinnedTotal)));

        w.clearComparison();
        QVERIFY(!w.comparisonPinned());
        QVERIFY(!panel->pinned());
        QVERIFY(moe->frontierView()->pinnedCurves().isEmpty());
        QCOMPARE(panel->figureText(PlanPanel::Figure::TokensPerGpu),
                 QString::number(after.tokensPerSPerGpu, 'f', 0));
    }

    /// One pin for the window: either side panel's "Pin for comparison" button triggers View >
    /// Pin for comparison (the Plan page, the charts of both workspaces and the loss chart take
    /// the pin), the action's and both buttons' checked states follow it, and the action or a
    /// second click clears it everywhere.
    void pinButtonsAreTheWindowPin() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));  // the network workspace's charts drawn
        w.setCurrentWorkspace(1);
        QVERIFY(w.waitForResults(60000));
        auto* action = w.findChild<QAction*>(QStringLiteral("pinForComparison"));
        QVERIFY(action && action->isCheckable());
        QPushButton* moeButton = w.moeWorkspace()->controls()->pinButton();
        QPushButton* netButton = w.networkWorkspace()->controls()->pinButton();
        const auto states = [&]() {
            return QList<bool>{w.comparisonPinned(),
                               action->isChecked(),
                               moeButton->isChecked(),
                               netButton->isChecked(),
                               w.moeWorkspace()->planPanel()->pinned().has_value(),
                               !w.moeWorkspace()->frontierView()->pinnedCurves().isEmpty(),
                               !w.networkWorkspace()->lossView()->pinnedCurves().isEmpty()};
        };
        const QList<bool> none(7, false), all(7, true);
        QCOMPARE(states(), none);
        moeButton->click();
        QCOMPARE(states(), all);
        action->trigger();  // Ctrl+Shift+P
        QCOMPARE(states(), none);
        netButton->click();
        QCOMPARE(states(), all);
        netButton->click();
        QCOMPARE(states(), none);
        action->trigger();
        QCOMPARE(states(), all);
        w.clearComparison();
        QCOMPARE(states(), none);
    }
};

TANDEM_TEST_MAIN(TstMoePlan)
#include "tst_moe_plan.moc"
