// File > Import end to end (offscreen): each kind of file from tests/data is routed to
// its place (frontier point, measured-collectives page, loss-fit page, trace scenario,
// foreground job), a bad file shows its problems and keeps the previous state, and the headless
// export carries the imported model's point.
#include <QCheckBox>
#include <QComboBox>
#include <QLineSeries>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScatterSeries>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "io/hf_config.h"
#include "io/loss_fit.h"
#include "io/loss_log.h"
#include "io/nccl_tests.h"
#include "mosaic/collectives.h"
#include "scenario/scenario.h"
#include "test_main.h"
#include "ui/mlforml/loss_fit_view.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mosaic/frontier_view.h"
#include "ui/mosaic/imported_model_card.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/mosaic/nccl_view.h"
#include "ui/shell/file_import.h"
#include "ui/shell/main_window.h"
#include "ui/shell/offscreen.h"
#include "ui/shell/scenario_document.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/diagnostics_dialog.h"
#include "ui/widgets/labeled_slider.h"

using namespace tandem;
using namespace tandem::ui;

namespace {
QString data(const char* rel) { return QStringLiteral(TANDEM_TEST_DATA "/") + QLatin1String(rel); }
const char* kMixtral = "models/Mixtral-8x7B-v0.1.config.json";
const char* kGpt2 = "models/gpt2-large.config.json";
const char* kNccl = "nccl/H100-all_reduce-2x8-awsome-distributed-training.txt";
const char* kLoss = "losslogs/llmc-gpt2-124M-10B-8xH100.txt";

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) return {};
    return path;
}
QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
}  // namespace

class TstImports : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void labels() {
        QCOMPARE(importLabel(QStringLiteral("/x/Mixtral-8x7B-v0.1.config.json")),
                 QStringLiteral("Mixtral-8x7B"));
        QCOMPARE(importLabel(QStringLiteral("/x/gpt2-large.config.json")),
                 QStringLiteral("gpt2-large"));
        QCOMPARE(importLabel(QStringLiteral("/models/Qwen3-30B-A3B/config.json")),
                 QStringLiteral("Qwen3-30B-A3B"));
        QCOMPARE(importLabel(QStringLiteral("/x/run.csv")), QStringLiteral("run"));
    }

    /// Each kind is detected like `tandem-cli inspect` and imported.
    void detectsEachKind_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("kind");
        QTest::newRow("model config") << data(kMixtral) << int(ImportKind::ModelConfig);
        QTest::newRow("dense model config") << data(kGpt2) << int(ImportKind::ModelConfig);
        QTest::newRow("nccl all_reduce") << data(kNccl) << int(ImportKind::NcclTests);
        QTest::newRow("nccl alltoall")
            << data("nccl/A100-alltoall-1x8-superbenchmark.txt") << int(ImportKind::NcclTests);
        QTest::newRow("llm.c loss log") << data(kLoss) << int(ImportKind::LossLog);
        // The kind comes from the content (io::detectInputKind), as in `tandem-cli inspect`.
        QByteArray tagged;
        for (const QByteArray& l :
             readAll(data("nccl/GB200-all_reduce-18x4-coreweave.txt")).split('\n'))
            tagged += "[1,0]<stdout>:" + l + "\n";
        QTest::newRow("nccl-tests with mpirun --tag-output")
            << writeFile(m_tmp, QStringLiteral("GB200-tagged.log"), tagged)
            << int(ImportKind::NcclTests);
        QTest::newRow("config.json with a byte-order mark")
            << writeFile(m_tmp, QStringLiteral("config.json"),
                         "\xEF\xBB\xBF" + readAll(data(kMixtral)))
            << int(ImportKind::ModelConfig);
        QTest::newRow("loss log with NCCL INFO lines")
            << writeFile(m_tmp, QStringLiteral("train.log"),
                         "node0:11:11 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
                             readAll(data(kLoss)))
            << int(ImportKind::LossLog);
    }
    void detectsEachKind() {
        QFETCH(QString, file);
        QFETCH(int, kind);
        Diagnostics d;
        const auto f = readImport(file, d);
        QVERIFY2(f && d.ok(), d.str().c_str());
        QCOMPARE(int(f->kind), kind);
        QCOMPARE(f->model.has_value(), kind == int(ImportKind::ModelConfig));
        QCOMPARE(f->nccl.has_value(), kind == int(ImportKind::NcclTests));
        QCOMPARE(f->lossFit.has_value(), kind == int(ImportKind::LossLog));
    }

    /// Mixtral-8x7B on the default cluster: a labelled point at its own S with a finite Eq. 10
    /// loss, and a card with its layout, MFU and memory next to the cluster optimum.
    void modelConfigIsAPointOnTheFrontier() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        const QByteArray before =
            QByteArray::fromStdString(scenarioToJson(w.document()->scenario()));
        QVERIFY(w.importFile(data(kMixtral)));
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* moe = w.moeWorkspace();
        Diagnostics d;
        const auto m = io::loadModelConfigFile(data(kMixtral).toStdString(), d);
        QVERIFY(m);
        // S from the non-embedding counts; the published 46.7 B / 12.9 B put it near 0.72-0.73.
        const double s =
            1.0 - double(m->counts.activeNonEmbedding) / double(m->counts.totalNonEmbedding);
        QVERIFY(s > 0.70 && s < 0.75);

        const QList<QScatterSeries*> series = moe->frontierView()->importedSeries();
        QCOMPARE(series.size(), 1);
        QVERIFY2(series[0]->name().startsWith(QLatin1String("Mixtral-8x7B")),
                 qPrintable(series[0]->name()));
        QVERIFY(series[0]->pointLabelsVisible());
        QVERIFY(series[0]->pointLabelsFormat().contains(QLatin1String("Mixtral-8x7B")));
        QCOMPARE(series[0]->count(), 1);
        QVERIFY(std::abs(series[0]->at(0).x() - s) < 1e-12);

        QCOMPARE(moe->importedPoints().size(), size_t(1));
        const ImportedModelPoint& p = moe->importedPoints()[0];
        QVERIFY2(p.eval.feasible, p.eval.reason.c_str());
        QVERIFY(p.eval.mfu > 0 && p.eval.mfu <= 1);
        QVERIFY(p.eval.memoryGB > 0 && p.eval.memoryGB <= moe->result()->deviceMemoryGB);
        QVERIFY(p.plan.tp * p.plan.cp * p.plan.pp * p.plan.dp == moe->envelope()->devices());
        QVERIFY(std::isfinite(p.loss));
        QCOMPARE(series[0]->at(0).y(), p.loss);
        // The loss is Eq. 10 at the point's own (N_tot, S, D, G).
        const auto& e = *moe->envelope();
        QCOMPARE(p.loss,
                 e.law.loss(p.geometry.nTot, p.geometry.sparsity, p.tokens, p.geometry.splitG));
        // Not better than the cluster optimum the search found on the same cluster.
        QVERIFY(p.loss >= moe->result()->candidates[size_t(moe->result()->optimum)].loss - 1e-12);

        const QString card = moe->importedCard()->text();
        QVERIFY(moe->importedCard()->isVisibleTo(&w));
        for (const char* part : {"Mixtral-8x7B", "MFU", "GB", "Cluster-optimal", "Best layout"})
            QVERIFY2(card.contains(QLatin1String(part)), qPrintable(card));
        // The scenario keeps the model by its file, and the window shows the unsaved change.
        QVERIFY(QByteArray::fromStdString(scenarioToJson(w.document()->scenario())) != before);
        QCOMPARE(
            w.document()->scenario().mosaic->importedModelFiles,
            std::vector<std::string>{QFileInfo(data(kMixtral)).absoluteFilePath().toStdString()});
        QVERIFY(w.document()->isModified());
        QVERIFY(w.isWindowModified());
        // Reopening a scenario removes it.
        Diagnostics ld;
        QVERIFY(w.document()->load(QStringLiteral(TANDEM_EXAMPLES "/mosaic-table3.json"), ld));
        QVERIFY(w.waitForResults(60000));
        QVERIFY(moe->frontierView()->importedSeries().isEmpty());
        QVERIFY(!moe->importedCard()->isVisibleTo(&w));
    }

    /// A dense config as the ML-for-ML foreground: foreground_parameters = n_total.
    void denseConfigBecomesTheForeground() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        QVERIFY(w.importFile(data(kGpt2), DenseModelTarget::Foreground));
        Diagnostics d;
        const auto m = io::loadModelConfigFile(data(kGpt2).toStdString(), d);
        QVERIFY(m);
        const auto& p = *w.document()->scenario().mlForMl;
        QCOMPARE(p.foregroundParameters, double(m->counts.total));
        QVERIFY(std::abs(p.foregroundParameters / 774e6 - 1) < 0.01);  // GPT-2 Large, 774 M
        QCOMPARE(p.foregroundModel, std::string("gpt2-large"));
        QVERIFY(w.document()->isModified());
        QCOMPARE(w.networkWorkspace()->params()->foregroundParameters, p.foregroundParameters);
    }

    /// A dense config as the background jobs' model: gradient_GB = 2 bytes x n_total (BF16).
    void denseConfigBecomesTheBackgroundJob() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        const double fgBefore = w.document()->scenario().mlForMl->foregroundParameters;
        QVERIFY(
            w.importFile(data("models/Llama-2-13b-hf.config.json"), DenseModelTarget::Background));
        Diagnostics d;
        const auto m =
            io::loadModelConfigFile(data("models/Llama-2-13b-hf.config.json").toStdString(), d);
        QVERIFY(m);
        const auto& p = *w.document()->scenario().mlForMl;
        QCOMPARE(p.backgroundJob.gradientBytes, 2.0 * double(m->counts.total));
        QVERIFY(std::abs(double(m->counts.total) / 13.0e9 - 1) < 0.03);  // Llama-2-13B
        QCOMPARE(p.backgroundJob.model, std::string("Llama-2-13b-hf"));
        QCOMPARE(p.foregroundParameters, fgBefore);
        QVERIFY(w.document()->isModified());
        QVERIFY(w.waitForResults(120000));
    }

    /// nccl-tests: measured busbw against the model of the hardware the file names (H100); the
    /// peak equals the file's maximum busbw; "Use in MoE model" attaches it to the envelope.
    void ncclLogShowsMeasuredAgainstAnalytical() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        QVERIFY(w.importFile(data(kNccl)));
        MoeWorkspace* moe = w.moeWorkspace();
        QVERIFY(moe->pages()->isTabVisible(2));
        QCOMPARE(moe->ncclHardwareBox()->currentText(), QStringLiteral("h100"));
        NcclView* v = moe->ncclView();
        QVERIFY(v->hasData());
        QVERIFY(moe->charts().contains(v));
        const io::NcclCurve& c = v->data().curves.front();
        QCOMPARE(c.ranks, 16);
        QLineSeries* measured = v->lineSeries()[0];
        QLineSeries* model = v->lineSeries()[1];
        double peak = 0;
        for (const QPointF& q : measured->points()) peak = std::max(peak, q.y());
        QCOMPARE(peak, c.peakBusbw_Bps / 1e9);
        QVERIFY(peak > 400);  // the log's 1 GiB+ rows are above 400 GB/s
        QVERIFY(model->count() > 10);
        // The analytical curve: size x 2(n-1)/n / collectiveTime on h100, 16 ranks.
        const mosaic::Hardware h100 = mosaic::builtinHardware("h100");
        const QPointF last = model->points().back();
        const double t =
            mosaic::collectiveTime(h100, mosaic::Collective::AllReduce, last.x(), 16, 1);
        QVERIFY(std::abs(last.y() - last.x() * 2.0 * 15 / 16 / t / 1e9) < 1e-9 * last.y());
        // Another hardware redraws the model only.
        moe->ncclHardwareBox()->setCurrentText(QStringLiteral("a100"));
        QVERIFY(model->points().back().y() != last.y());
        QCOMPARE(measured->count(), int(c.points.size()));

        QVERIFY(moe->ncclUseBox()->isEnabled());
        // Shown and kept by the scenario, not yet used by the costing.
        QVERIFY(w.document()->isModified());
        QCOMPARE(QString::fromStdString(w.document()->scenario().mosaic->shownNcclTestsFile),
                 QFileInfo(data(kNccl)).absoluteFilePath());
        QVERIFY(w.document()->scenario().mosaic->ncclTestsFiles.empty());
        moe->ncclUseBox()->setChecked(true);
        const auto& files = w.document()->scenario().mosaic->ncclTestsFiles;
        QCOMPARE(files.size(), size_t(1));
        QCOMPARE(QString::fromStdString(files[0]), QFileInfo(data(kNccl)).absoluteFilePath());
        QVERIFY(w.document()->scenario().mosaic->hardware.measured != nullptr);
        QVERIFY(moe->envelope()->hardware.measured != nullptr);
        QVERIFY(w.document()->isModified());
        moe->ncclUseBox()->setChecked(false);
        QVERIFY(w.document()->scenario().mosaic->ncclTestsFiles.empty());
        QVERIFY(w.document()->scenario().mosaic->hardware.measured == nullptr);
        QVERIFY(w.waitForResults(60000));
    }

    /// Loss log: data and fit drawn, parameters with errors and RMSE listed; the button puts the
    /// fit into the progress model (L_inf, alpha as fitted).
    void lossLogFitsAndBecomesTheProgressCurve() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        QVERIFY(w.importFile(data(kLoss)));
        NetworkWorkspace* net = w.networkWorkspace();
        QVERIFY(net->pages()->isTabVisible(3));
        LossFitPanel* panel = net->lossFitPanel();
        QVERIFY(net->charts().contains(panel->view()));
        QVERIFY(panel->view()->fitSeries()->count() > 50);
        const io::LossFit fit = panel->fit();
        QVERIFY(fit.rmse > 0);
        // The fit at the last logged validation step is within 0.05 of the logged loss.
        Diagnostics d;
        const auto log = io::loadLossLogFile(data(kLoss).toStdString(), d);
        QVERIFY(log && log->preferred());
        const io::LossSeries* s = log->preferred();
        QVERIFY(std::abs(io::predictLoss(fit, s->step.back()) - s->loss.back()) < 0.05);
        const QString summary = panel->summary()->text();
        QVERIFY2(
            summary.contains(QLatin1String("RMSE")) && summary.contains(QStringLiteral("\u00b1")),
            qPrintable(summary));
        // Shown and kept by the scenario; the progress curve changes only with "Use fit".
        QVERIFY(w.document()->isModified());
        QCOMPARE(QString::fromStdString(w.document()->scenario().mlForMl->lossLogFile),
                 QFileInfo(data(kLoss)).absoluteFilePath());
        QCOMPARE(w.document()->scenario().mlForMl->progress.lossFloor,
                 tandem::mlforml::Params().progress.lossFloor);
        QVERIFY(panel->useButton()->isEnabled());
        panel->useButton()->click();
        QVERIFY(w.document()->isModified());
        const auto& prog = w.document()->scenario().mlForMl->progress;
        QCOMPARE(prog.lossFloor, fit.lInf);
        QCOMPARE(prog.lossExponent, fit.alpha);
        QVERIFY(w.waitForResults(60000));
    }

    /// A background trace CSV becomes the "trace" scenario of ML-for-ML.
    void loadTraceSetsTheTraceScenario() {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("load.csv"),
                                       "time_s,bytes_per_s\n0,1e9\n1,2.5e9\n2,5e8\n3,0\n");
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        QVERIFY(w.importFile(path));
        const auto& p = *w.document()->scenario().mlForMl;
        QVERIFY(p.scenario == tandem::mlforml::ScenarioKind::Trace);
        QCOMPARE(QString::fromStdString(p.traceFile), QFileInfo(path).absoluteFilePath());
        QVERIFY(w.document()->isModified());
        QVERIFY(w.waitForResults(60000));
        QVERIFY(w.networkWorkspace()->result().has_value());
    }

    /// A stack file an earlier `tandem-cli calibrate` wrote with `fp8_gemm_factor` (no longer a
    /// constant of a stack) imports: the scenario takes the stack with its other constants, and
    /// the import's message warns with the key, why and what was done with its value.
    void oldStackFileImportsWithAWarning() {
        QTemporaryDir dir;
        const QString path =
            writeFile(dir, QStringLiteral("old-cluster.json"),
                      R"({"tandem_stack": 1, "name": "old-cluster", "base": "megatron-core",
                "constants": {"grouped_gemm_max": 0.45, "fp8_gemm_factor": 0.8},
                "calibration": {"runs": 2, "hardware": "h100", "median_abs_error_before": 0.2,
                                "median_abs_error_after": 0.05}})");
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        QVERIFY(w.importFile(path));
        const auto& m = *w.document()->scenario().mosaic;
        QCOMPARE(m.stack.name, std::string("old-cluster"));
        QCOMPARE(m.stack.groupedGemmMax, 0.45);
        const QString message = w.statusBar()->currentMessage();
        QVERIFY2(message.startsWith(QStringLiteral("Training stack old-cluster")),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral(
                     "Warning: $.constants.fp8_gemm_factor: is no longer a constant of a stack: "
                     "the FP8 GEMM level now comes from the kernel tables")),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("the file's value 0.8 was ignored")),
                 qPrintable(message));
    }

    /// Imported files are scenario file references like any other: a trace and an nccl-tests
    /// log named relative to the working folder (with "..") are stored resolved by the core's
    /// resolver, and a save of the document beside them writes them relative to the saved
    /// file's folder, as a loaded scenario is written; the saved file loads them again.
    void importedFilesAreSavedLikeLoadedOnes() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("proj/logs")));
        QVERIFY(!writeFile(dir, QStringLiteral("proj/logs/load.csv"),
                           "time_s,bytes_per_s\n0,1e9\n1,2.5e9\n")
                     .isEmpty());
        QVERIFY(QFile::copy(data(kNccl), dir.filePath(QStringLiteral("proj/logs/ar.txt"))));
        const QString scenario =
            writeFile(dir, QStringLiteral("proj/work.json"),
                      QByteArray::fromStdString(scenarioToJson(defaultScenario())));
        MainWindow w;
        w.show();
        QVERIFY(w.openFile(scenario));
        QVERIFY(w.waitForResults(60000));
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        const bool traceOk = w.importFile(QStringLiteral("proj/../proj/logs/load.csv"));
        const bool ncclOk = w.importFile(QStringLiteral("proj/logs/./ar.txt"));
        QDir::setCurrent(before);
        QVERIFY(traceOk && ncclOk);
        w.moeWorkspace()->ncclUseBox()->setChecked(true);
        const Scenario& s = w.document()->scenario();
        QCOMPARE(QString::fromStdString(s.mlForMl->traceFile),
                 dir.filePath(QStringLiteral("proj/logs/load.csv")));
        QCOMPARE(QString::fromStdString(s.mosaic->ncclTestsFiles.at(0)),
                 dir.filePath(QStringLiteral("proj/logs/ar.txt")));
        QVERIFY(w.saveFile(scenario));
        const auto j = nlohmann::json::parse(readAll(scenario).toStdString());
        QCOMPARE(j["ml_for_ml"]["trace_file"].get<std::string>(), std::string("logs/load.csv"));
        QCOMPARE(j["mosaic"]["nccl_tests_files"][0].get<std::string>(), std::string("logs/ar.txt"));
        Diagnostics d;
        const auto again = loadScenarioFile(scenario.toStdString(), d);
        QVERIFY2(again && d.ok(), d.str().c_str());
        QCOMPARE(again->mlForMl->traceFile, s.mlForMl->traceFile);
        QCOMPARE(again->mosaic->ncclTestsFiles, s.mosaic->ncclTestsFiles);
        QVERIFY(again->mosaic->hardware.measured != nullptr);
        QVERIFY(w.waitForResults(60000));
    }

    /// Bad files: the diagnostics dialog names the file and the line or JSON path; nothing changes.
    void badFileShowsDiagnosticsAndKeepsState_data() {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("header");  // the first column's heading
        QTest::newRow("garbage log")
            << QByteArray("train.log") << QByteArray("\x01\x02 garbage\n not a log\n")
            << QStringLiteral("file") << QStringLiteral("Where");
        QTest::newRow("unrecognised text")
            << QByteArray("notes.txt") << QByteArray("hello\nworld\n") << QStringLiteral("file")
            << QStringLiteral("Where");
        QTest::newRow("top-K above E")
            << QByteArray("bad.config.json")
            << QByteArray(
                   "{\"model_type\": \"mixtral\", \"hidden_size\": 4096, "
                   "\"intermediate_size\": 14336, \"num_hidden_layers\": 32, "
                   "\"num_attention_heads\": 32, \"num_key_value_heads\": 8, "
                   "\"num_local_experts\": 2, \"num_experts_per_tok\": 4, "
                   "\"vocab_size\": 32000}")
            << QStringLiteral("$.num_experts_per_tok: experts per token (4) exceeds")
            << QStringLiteral("JSON path");
        QTest::newRow("unsupported model_type")
            << QByteArray("odd.config.json")
            << QByteArray("{\"model_type\": \"rwkv\", \"hidden_size\": 4}")
            << QStringLiteral("$.model_type") << QStringLiteral("JSON path");
        QTest::newRow("nccl error")
            << QByteArray("all_reduce.txt")
            << QByteArray(
                   "# nThread 1 nGpus 1 minBytes 8 maxBytes 128 step: 2(factor)\n"
                   "#       size         count      type   redop    root     time   algbw   busbw "
                   "#wrong     time   algbw   busbw #wrong\n"
                   "           8             2     float     sum      -1    10.00    0.00    0.00  "
                   "    0    10.00    0.00    0.00      0\n"
                   "node1: Test NCCL failure common.cu:958 'unhandled system error'\n")
            << QStringLiteral("line 4") << QStringLiteral("Line");
        QTest::newRow("trace negative load")
            << QByteArray("trace.csv") << QByteArray("time_s,bytes_per_s\n0,1e9\n1,-5\n")
            << QStringLiteral("line 3") << QStringLiteral("Line");
        QTest::newRow("scenario, not an import")
            << QByteArray("scen.config.json") << QByteArray("{\"mosaic\": {}}")
            << QStringLiteral("$") << QStringLiteral("JSON path");
    }
    void badFileShowsDiagnosticsAndKeepsState() {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, text);
        QFETCH(QString, where);
        QFETCH(QString, header);
        QTemporaryDir dir;
        const QString path = writeFile(dir, QString::fromLatin1(name), text);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        QVERIFY(w.importFile(data(kMixtral)));  // previous state: one imported model
        QVERIFY(w.waitForResults(60000));
        const QByteArray before =
            QByteArray::fromStdString(scenarioToJson(w.document()->scenario()));
        QVERIFY(w.document()->isModified());  // the model import is an unsaved change
        QVERIFY(!w.importFile(path, DenseModelTarget::Frontier));
        DiagnosticsDialog* dialog = w.lastDiagnosticsDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->rowCount() >= 1);
        bool found = false;
        for (int i = 0; i < dialog->rowCount(); ++i)
            found = found || dialog->rowText(i).startsWith(where);
        QVERIFY2(found, qPrintable(dialog->rowText(0)));
        QVERIFY(dialog->windowTitle().contains(QString::fromLatin1(name)));
        QCOMPARE(dialog->columnHeader(0), header);
        QCOMPARE(QByteArray::fromStdString(scenarioToJson(w.document()->scenario())), before);
        QCOMPARE(w.moeWorkspace()->frontierView()->importedSeries().size(), 1);
        QVERIFY(!w.moeWorkspace()->ncclView()->hasData());
        QVERIFY(!w.networkWorkspace()->lossFitPanel()->view()->hasData());
    }

    /// Every model config, nccl-tests log and loss log in tests/data imports through the GUI; a
    /// model lands on the frontier under its label (with a finite loss when a layout fits).
    void everyTestDataFileImports() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        int n = 0;
        for (const char* folder : {"models", "nccl", "losslogs"}) {
            const QDir dir(data(folder));
            for (const QString& name : dir.entryList(QDir::Files, QDir::Name)) {
                const QString path = dir.filePath(name);
                QVERIFY2(w.importFile(path, DenseModelTarget::Frontier), qPrintable(path));
                ++n;
            }
        }
        QVERIFY(n >= 19);
        QVERIFY(w.waitForResults(120000));
        const auto& points = w.moeWorkspace()->importedPoints();
        QCOMPARE(points.size(), size_t(QDir(data("models")).entryList(QDir::Files).size()));
        int drawn = 0;
        for (const ImportedModelPoint& p : points) {
            QVERIFY2(p.eval.feasible == std::isfinite(p.loss), qPrintable(p.label));
            if (p.eval.feasible) {
                ++drawn;
                QVERIFY2(p.eval.memoryGB <= w.moeWorkspace()->result()->deviceMemoryGB,
                         qPrintable(p.label));
            }
        }
        QCOMPARE(w.moeWorkspace()->frontierView()->importedSeries().size(), drawn);
        QVERIFY(drawn >= 1);
        // The scenario keeps every model (one file per label) and the last log of each kind.
        QVERIFY(w.document()->isModified());
        QCOMPARE(w.document()->scenario().mosaic->importedModelFiles.size(), points.size());
        QVERIFY(!w.document()->scenario().mosaic->shownNcclTestsFile.empty());
        QVERIFY(!w.document()->scenario().mlForMl->lossLogFile.empty());
    }

    /// An undo of a slider edit made before an import reverts the slider and keeps the import,
    /// which the workspace still shows.
    void undoOfAnEarlierEditKeepsTheImport() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* moe = w.moeWorkspace();
        const int nodes = w.document()->scenario().mosaic->nodes;
        moe->controls()->nodesSlider()->setNumber(nodes == 16 ? 8 : 16);
        QVERIFY(w.undoStack()->canUndo());
        QVERIFY(w.importFile(data(kMixtral)));
        w.undoStack()->undo();
        QCOMPARE(w.document()->scenario().mosaic->nodes, nodes);
        QCOMPARE(moe->envelope()->nodes, nodes);
        const std::vector<std::string> kept{
            QFileInfo(data(kMixtral)).absoluteFilePath().toStdString()};
        QCOMPARE(w.document()->scenario().mosaic->importedModelFiles, kept);
        QCOMPARE(moe->envelope()->importedModelFiles, kept);
        w.undoStack()->redo();
        QCOMPARE(w.document()->scenario().mosaic->importedModelFiles, kept);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(moe->importedModels().size(), size_t(1));
    }

    /// Each import kind is part of the scenario: saved beside the scenario (names relative to
    /// its folder), reopened in a fresh window, every import is shown again.
    void importsSurviveSaveAndReopen() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("proj/in")));
        const QString model = dir.filePath(QStringLiteral("proj/in/Mixtral-8x7B.config.json"));
        const QString nccl = dir.filePath(QStringLiteral("proj/in/ar.txt"));
        const QString loss = dir.filePath(QStringLiteral("proj/in/loss.txt"));
        QVERIFY(QFile::copy(data(kMixtral), model));
        QVERIFY(QFile::copy(data(kNccl), nccl));
        QVERIFY(QFile::copy(data(kLoss), loss));
        const QString trace = writeFile(dir, QStringLiteral("proj/in/load.csv"),
                                        "time_s,bytes_per_s\n0,1e9\n1,2.5e9\n");
        QVERIFY(!trace.isEmpty());
        const QString scenario = dir.filePath(QStringLiteral("proj/work.json"));
        {
            MainWindow w;
            w.show();
            QVERIFY(w.waitForResults(60000));
            QVERIFY(!w.isWindowModified());
            for (const QString& f : {model, nccl, loss, trace})
                QVERIFY2(w.importFile(f), qPrintable(f));
            QVERIFY(w.isWindowModified());
            QVERIFY(w.waitForResults(60000));
            QVERIFY(w.saveFile(scenario));
            QVERIFY(!w.isWindowModified());
        }
        const auto j = nlohmann::json::parse(readAll(scenario).toStdString());
        QCOMPARE(j["mosaic"]["imported_model_files"],
                 nlohmann::json::array({"in/Mixtral-8x7B.config.json"}));
        QCOMPARE(j["mosaic"]["shown_nccl_tests_file"].get<std::string>(), std::string("in/ar.txt"));
        QCOMPARE(j["ml_for_ml"]["loss_log_file"].get<std::string>(), std::string("in/loss.txt"));
        QCOMPARE(j["ml_for_ml"]["trace_file"].get<std::string>(), std::string("in/load.csv"));

        MainWindow w;
        w.show();
        QVERIFY(w.openFile(scenario));
        w.setCurrentWorkspace(1);  // the MoE workspace computes when it is shown
        QVERIFY(w.waitForResults(60000));
        QVERIFY(!w.document()->isModified());
        MoeWorkspace* moe = w.moeWorkspace();
        moe->frontierView()->ensureBuilt();
        QCOMPARE(moe->importedModels().size(), size_t(1));
        QCOMPARE(moe->importedModels()[0].label, QStringLiteral("Mixtral-8x7B"));
        QCOMPARE(moe->frontierView()->importedSeries().size(), 1);
        QVERIFY(moe->ncclView()->hasData());
        QCOMPARE(moe->ncclView()->data().curves.front().ranks, 16);
        QVERIFY(moe->pages()->isTabVisible(MoeWorkspace::kNcclPage));
        QVERIFY(moe->envelope()->ncclTestsFiles.empty());  // shown, not used for costing
        NetworkWorkspace* net = w.networkWorkspace();
        QVERIFY(net->lossFitPanel()->view()->hasData());
        QVERIFY(net->pages()->isTabVisible(3));
        const Scenario& s = w.document()->scenario();
        QCOMPARE(QString::fromStdString(s.mlForMl->traceFile), trace);
        QCOMPARE(QString::fromStdString(s.mlForMl->lossLogFile), loss);
        // A slider edit after the reopen keeps the imports in the scenario.
        moe->controls()->nodesSlider()->setNumber(16);
        QCOMPARE(w.document()->scenario().mosaic->nodes, 16);
        QCOMPARE(w.document()->scenario().mosaic->importedModelFiles,
                 std::vector<std::string>{model.toStdString()});
        QVERIFY(w.waitForResults(60000));

        // A file that went missing is an error at its key, with where it was looked for.
        QVERIFY(QFile::remove(model));
        Diagnostics d;
        QVERIFY(!loadScenarioFile(scenario.toStdString(), d));
        QVERIFY2(
            d.str().find("$.mosaic.imported_model_files[0]") != std::string::npos &&
                d.str().find("cannot open \"in/Mixtral-8x7B.config.json\"") != std::string::npos,
            d.str().c_str());
    }

    /// Drag and drop: a model config is imported, a scenario file is opened.
    void dropImportsOrOpens() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        auto drop = [&w](const QString& path) {
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(path)});
            QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton,
                                  Qt::NoModifier);
            QApplication::sendEvent(&w, &enter);
            QDropEvent ev(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(&w, &ev);
            return enter.isAccepted();
        };
        // A file dropped on a chart reaches the window: Qt gives a drop to the nearest widget
        // under the cursor that accepts drops, and no chart or its viewport does.
        const QList<ChartView*> charts = w.allCharts();
        QVERIFY(charts.size() > 5);
        for (ChartView* c : charts) {
            QWidget* target = c->viewport();
            while (target && !target->acceptDrops()) target = target->parentWidget();
            QVERIFY2(target == &w, qPrintable(c->exportName()));
        }
        QVERIFY(drop(data(kMixtral)));
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(w.moeWorkspace()->frontierView()->importedSeries().size(), 1);
        QVERIFY(w.document()->filePath().isEmpty());
        // The import is an unsaved change: opening another scenario asks first (Discard).
        QVERIFY(w.document()->isModified());
        int asked = 0;
        QTimer discard;
        connect(&discard, &QTimer::timeout, &w, [&asked]() {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                ++asked;
                box->button(QMessageBox::Discard)->click();
            }
        });
        discard.start(20);
        QVERIFY(drop(QStringLiteral(TANDEM_EXAMPLES "/mosaic-fig1.json")));
        QCOMPARE(asked, 1);
        QCOMPARE(QFileInfo(w.document()->filePath()).fileName(),
                 QStringLiteral("mosaic-fig1.json"));
        QVERIFY(w.waitForResults(60000));
        QVERIFY(w.moeWorkspace()->frontierView()->importedSeries().isEmpty());
        // By content, not by name (io::detectInputKind): a config saved with a byte-order mark
        // and a .txt name is imported, a scenario saved as .txt is opened.
        const QString config = writeFile(m_tmp, QStringLiteral("mixtral.txt"),
                                         "\xEF\xBB\xBF" + readAll(data(kMixtral)));
        QVERIFY(drop(config));
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(w.moeWorkspace()->frontierView()->importedSeries().size(), 1);
        asked = 0;
        const QString scenario =
            writeFile(m_tmp, QStringLiteral("fig1-scenario.txt"),
                      readAll(QStringLiteral(TANDEM_EXAMPLES "/mosaic-fig1.json")));
        QVERIFY(drop(scenario));
        QCOMPARE(QFileInfo(w.document()->filePath()).fileName(),
                 QStringLiteral("fig1-scenario.txt"));
        QCOMPARE(asked, 1);
    }

    /// The headless export (`tandem --import ... --export-charts`) carries the model point.
    void headlessExportHasTheImportedPoint() {
        QTemporaryDir dir;
        QCOMPARE(exportAllCharts(dir.path(), {}, {}, -1, {data(kMixtral), data(kNccl)}), 0);
        const QByteArray csv = readAll(dir.filePath(QStringLiteral("mosaic-frontier.csv")));
        QVERIFY2(csv.contains("\nMixtral-8x7B,0.728"), csv.constData());
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("nccl-measured-vs-analytical.png"))));
        const QByteArray nccl =
            readAll(dir.filePath(QStringLiteral("nccl-measured-vs-analytical.csv")));
        QVERIFY(
            nccl.startsWith("collective,ranks,bytes,measured_busbw_GBps,analytical_busbw_GBps\n"));
        QVERIFY(nccl.contains("all_reduce,16,1073741824,"));
        // A bad import is an error exit (2), not a silent skip.
        QCOMPARE(
            exportAllCharts(dir.path(), {}, {}, -1, {dir.filePath(QStringLiteral("missing.json"))}),
            2);
    }
};

TANDEM_TEST_MAIN(TstImports)
#include "tst_imports.moc"
