// Physically impossible results are never written: hardware constants outside what a device can
// be are refused with the reason, a value whose unit conversion overflows is refused instead of
// being copied as null, a JSON null is refused with what it means, the engine marks an
// impossible costing (MFU above 1) infeasible, and a swept range never turns into
// -9223372036854775808.
#include <QtTest>
#include <cmath>
#include <string>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "mosaic/geometry.h"
#include "mosaic/hardware.h"
#include "mosaic/perf_model.h"
#include "mosaic/search.h"
#include "scenario/scenario.h"
#include "sweep/sweep.h"
#include "test_main.h"

using namespace tandem;

namespace {

/// Reads `object` as a hardware file (paths from "$"); returns the diagnostics.
Diagnostics readHardwareText(const std::string& object, mosaic::Hardware* out = nullptr) {
    Diagnostics d;
    const auto j = parseJsonText(object, d);
    if (d.ok()) {
        JsonReader r(j, "$", d);
        const mosaic::Hardware h = mosaic::readHardware(r);
        if (out) *out = h;
    }
    return d;
}

/// The message at `path`, or an empty string when none is there.
QString messageAt(const Diagnostics& d, const QString& path) {
    for (const auto& i : d.items())
        if (QString::fromStdString(i.path) == path) return QString::fromStdString(i.message);
    return {};
}

/// A node whose constants are each within their range but together promise more than the peak:
/// every efficiency 1, no size ramp, no dispatch floor or host terms, chi_sys floored at 0.1.
mosaic::Hardware fasterThanPeak() {
    mosaic::Hardware h;
    h.denseGemmMax = h.groupedGemmMax = h.attentionEfficiency = 1;
    h.denseMHalf = h.denseWidthHalf = h.groupedMHalf = h.groupedWidthHalf = 0;
    h.elementwiseBytesPerTokenPerD = 0;
    h.kernelsBase = h.kernelsPerLocalExpert = 0;
    h.hostPerMicrobatch_s = h.hostPerMoeLayer_s = h.hostPerIteration_s = 0;
    h.intraLatency_s = h.interLatency_s = 0;
    h.cA2A = h.cPP = h.cOvl = -10;
    h.chiFloor = 0.1;
    return h;
}

/// The Table 3 envelope searching one geometry (q 8, E 16, K 2, G 2).
mosaic::Envelope oneGeometry() {
    mosaic::Envelope e;
    e.qValues = {8};
    e.topKValues = {2};
    e.expertValues = {16};
    e.splitValues = {2};
    return e;
}

/// Words a printed or written number must never be: NaN, infinity, and what llround or an
/// integer cast makes of them.
const QRegularExpression kImpossible(
    QStringLiteral(
        R"((?<![A-Za-z_])[-+]?(inf|infinity|nan)(?![A-Za-z_])|-?9223372036854775808|-?9\.22337\d*e\+18)"),
    QRegularExpression::CaseInsensitiveOption);

/// Runs tandem-cli with `args` in `dir` (60 s at most); returns the exit code (-1: it crashed or
/// hung) and everything it printed in `printed`.
int runCli(const QStringList& args, const QString& dir, QString& printed) {
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(QStringLiteral(TANDEM_CLI), args);
    const bool done = p.waitForStarted(10000) && p.waitForFinished(60000);
    if (!done) p.kill();
    p.waitForFinished(5000);
    printed =
        QString::fromUtf8(p.readAllStandardOutput()) + QString::fromUtf8(p.readAllStandardError());
    return done && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

}  // namespace

class TstPhysicalResults : public QObject {
    Q_OBJECT
private slots:
    void hardwareOutsidePhysicalRange_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("why");  // a word of the reason the message must give
        QTest::newRow("peak 1e300 TFLOP/s (overflows FLOP/s)")
            << "peak_bf16_TFLOPs_per_s" << 1e300 << "EFLOP/s";
        QTest::newRow("peak 1e-300 TFLOP/s") << "peak_bf16_TFLOPs_per_s" << 1e-300 << "GFLOP/s";
        QTest::newRow("memory 1e30 GB") << "memory_usable_GB" << 1e30 << "1 PB";
        QTest::newRow("HBM 1e300 GB/s (overflows bytes/s)") << "hbm_GBps" << 1e300 << "PB/s";
        QTest::newRow("NVLink 1e300 GB/s") << "nvlink_GBps" << 1e300 << "PB/s";
        QTest::newRow("NIC 1e300 Gb/s") << "nic_Gbps_per_gpu" << 1e300 << "Pb/s";
        QTest::newRow("NIC 1e-300 Gb/s") << "nic_Gbps_per_gpu" << 1e-300 << "Mb/s";
        QTest::newRow("latency 1e12 us") << "inter_latency_us" << 1e12 << "1 s";
        QTest::newRow("ramp 1e300 MB") << "ramp_half_MB" << 1e300 << "1 TB";
        QTest::newRow("host 1e300 ms") << "host_per_microbatch_ms" << 1e300 << "1000 s";
        QTest::newRow("dispatch gap 1e300 us") << "dispatch_gap_us" << 1e300 << "1 s";
        QTest::newRow("activation factor 1e300")
            << "activation_memory_factor" << 1e300 << "at most 100";
        QTest::newRow("GEMM width half 1e300") << "dense_gemm_width_half" << 1e300 << "1e9";
        QTest::newRow("dense GEMM above peak") << "dense_gemm_max_efficiency" << 1.2 << "own peak";
        QTest::newRow("grouped GEMM above peak")
            << "grouped_gemm_max_efficiency" << 1.5 << "own peak";
        QTest::newRow("attention above peak") << "attention_efficiency" << 2.0 << "own peak";
        QTest::newRow("bus above the link rate") << "intra_bus_efficiency" << 1.3 << "link rate";
        QTest::newRow("chi floor 1e-9 (chi_sys ~ 0)") << "chi_floor" << 1e-9 << "positive";
        QTest::newRow("chi c_ovl -100") << "chi_c_ovl" << -100.0 << "chi_sys";
        QTest::newRow("chi c_pp -1e6") << "chi_c_pp" << -1e6 << "chi_sys";
        QTest::newRow("chi c_a2a -100") << "chi_c_a2a" << -100.0 << "chi_sys";
    }

    void hardwareOutsidePhysicalRange() {
        QFETCH(QString, key);
        QFETCH(double, value);
        QFETCH(QString, why);
        const std::string text = "{\"" + key.toStdString() + "\": " + formatNumber(value) + "}";
        const Diagnostics d = readHardwareText(text);
        const QString msg = messageAt(d, "$." + key);
        QVERIFY2(
            msg.contains("must be in") && msg.contains(why),
            qPrintable(QStringLiteral("%1 -> %2")
                           .arg(QString::fromStdString(text), QString::fromStdString(d.str()))));
    }

    void shippedHardwareStaysValid() {
        // The ranges admit every built-in node as written (write -> read gives the same file).
        for (const std::string& name : mosaic::hardwareNames()) {
            const auto written = mosaic::writeHardware(mosaic::builtinHardware(name));
            mosaic::Hardware back;
            const Diagnostics d = readHardwareText(written.dump(), &back);
            QVERIFY2(d.ok(), (name + ": " + d.str()).c_str());
            QCOMPARE(mosaic::writeHardware(back).dump(), written.dump());
        }
    }

    void overflowingConversionRefused_data() {
        QTest::addColumn<QByteArray>("scenario");
        QTest::addColumn<QString>("path");
        // Each is a finite number in the file whose SI value is infinite: the copy written by
        // `run --out` (scenario.json) held null for it and the run went on.
        QTest::newRow("fabric 1e300 GB/s")
            << QByteArray(R"({"ml_for_ml": {"fabric_GBps": 1e300}})") << "$.ml_for_ml.fabric_GBps";
        QTest::newRow("NIC 1e300 GB/s")
            << QByteArray(R"({"ml_for_ml": {"nic_GBps": 1e300}})") << "$.ml_for_ml.nic_GBps";
        QTest::newRow("gradients 1e300 GB")
            << QByteArray(R"({"ml_for_ml": {"background_job": {"gradient_GB": 1e300}}})")
            << "$.ml_for_ml.background_job.gradient_GB";
        QTest::newRow("peak 1e300 TFLOP/s")
            << QByteArray(
                   R"({"mosaic": {"hardware": {"name": "h100", "peak_bf16_TFLOPs_per_s": 1e300}}})")
            << "$.mosaic.hardware.peak_bf16_TFLOPs_per_s";
        QTest::newRow("NIC 1e300 Gb/s")
            << QByteArray(
                   R"({"mosaic": {"hardware": {"name": "h100", "nic_Gbps_per_gpu": 1e300}}})")
            << "$.mosaic.hardware.nic_Gbps_per_gpu";
    }

    void overflowingConversionRefused() {
        QFETCH(QByteArray, scenario);
        QFETCH(QString, path);
        Diagnostics d;
        const auto s = parseScenario(scenario.toStdString(), d);
        QVERIFY2(!s, s ? scenarioToJson(*s).c_str() : "");
        QVERIFY2(!messageAt(d, path).isEmpty(), d.str().c_str());
    }

    void acceptedExtremesCopyWithoutNull_data() {
        QTest::addColumn<QByteArray>("scenario");
        QTest::newRow("largest peak, memory and rates") << QByteArray(
            R"({"mosaic": {"hardware": {"name": "p6-b200", "peak_bf16_TFLOPs_per_s": 1e6,
                "memory_usable_GB": 1e6, "memory_capacity_GB": 1e6, "hbm_GBps": 1e6, "nvlink_GBps": 1e6, "nic_Gbps_per_gpu": 1e6},
                "nodes": 100000, "days": 3650}})");
        QTest::newRow("smallest peak, zero latency") << QByteArray(
            R"({"mosaic": {"hardware": {"name": "p6-b200", "peak_bf16_TFLOPs_per_s": 0.001,
                "intra_latency_us": 0, "inter_latency_us": 0, "chi_floor": 0.1}}})");
    }

    void acceptedExtremesCopyWithoutNull() {
        QFETCH(QByteArray, scenario);
        Diagnostics d;
        const auto s = parseScenario(scenario.toStdString(), d);
        QVERIFY2(s, d.str().c_str());
        const std::string copy = scenarioToJson(*s);
        QVERIFY2(copy.find("null") == std::string::npos, copy.c_str());
        Diagnostics again;
        const auto back = parseScenario(copy, again);
        QVERIFY2(back, again.str().c_str());
        QCOMPARE(scenarioToJson(*back), copy);
    }

    void nullRefusedWithItsMeaning_data() {
        QTest::addColumn<QByteArray>("scenario");
        QTest::addColumn<QString>("path");
        QTest::newRow("days") << QByteArray(R"({"mosaic": {"days": null}})") << "$.mosaic.days";
        QTest::newRow("hardware peak")
            << QByteArray(
                   R"({"mosaic": {"hardware": {"name": "h100", "peak_bf16_TFLOPs_per_s": null}}})")
            << "$.mosaic.hardware.peak_bf16_TFLOPs_per_s";
        QTest::newRow("nodes (integer)")
            << QByteArray(R"({"mosaic": {"nodes": null}})") << "$.mosaic.nodes";
        QTest::newRow("fabric") << QByteArray(R"({"ml_for_ml": {"fabric_GBps": null}})")
                                << "$.ml_for_ml.fabric_GBps";
    }

    void nullRefusedWithItsMeaning() {
        QFETCH(QByteArray, scenario);
        QFETCH(QString, path);
        Diagnostics d;
        QVERIFY(!parseScenario(scenario.toStdString(), d));
        const QString msg = messageAt(d, path);
        QVERIFY2(msg.contains("got null") && msg.contains("no NaN or infinity"), d.str().c_str());
    }

    void nonFinitePathsNamed() {
        nlohmann::ordered_json j;
        j["a"] = 1.0;
        j["b"]["c"] = std::nan("");
        j["d"] = nlohmann::ordered_json::array({2.0, HUGE_VAL});
        j["e"] = nullptr;  // a deliberate null ("not reached") is not a number
        const auto paths = nonFiniteNumberPaths(j, "$");
        QCOMPARE(paths.size(), size_t(2));
        QCOMPARE(QString::fromStdString(paths[0]), QStringLiteral("$.b.c"));
        QCOMPARE(QString::fromStdString(paths[1]), QStringLiteral("$.d[1]"));
    }

    void impossibleCostingIsInfeasible() {
        // Each constant is in range, yet together they make a step faster than the peak. Before,
        // evaluate() reported such plans with MFU above 1 and best() chose one of them.
        mosaic::Cluster c;
        c.hardware = fasterThanPeak();
        c.devices = 16;
        const mosaic::PerfModel m(mosaic::ladderGeometry(8, 16, 2, 2), c);
        int impossible = 0, feasible = 0;
        for (const mosaic::Plan& p : m.enumerate(mosaic::LayoutGrid{})) {
            const mosaic::PlanEval ev = m.evaluate(p);
            const mosaic::QuickEval q = m.quick(p);
            QCOMPARE(q.feasible, ev.feasible);
            if (ev.feasible) {
                ++feasible;
                QVERIFY2(ev.mfu >= 0 && ev.mfu <= 1, qPrintable(QString::number(ev.mfu)));
                QVERIFY(std::isfinite(ev.iteration_s) && ev.iteration_s > 0);
            } else if (ev.reason.rfind("MFU above 100 %", 0) == 0) {
                ++impossible;
                QVERIFY(q.reason && std::string(q.reason).rfind("MFU above 100 %", 0) == 0);
                QCOMPARE(ev.mfu, 0.0);
            }
        }
        QVERIFY(impossible > 0);
        QVERIFY(feasible > 0);
        mosaic::Plan best;
        mosaic::QuickEval be;
        QVERIFY(m.best(mosaic::LayoutGrid{}, best, be));
        QVERIFY2(be.mfu <= 1, qPrintable(QString::number(be.mfu)));
        QVERIFY(m.evaluate(best).feasible);
    }

    void stepLongerThanTheWindowIsNoCandidate() {
        // 2^24 sequences of 2^24 tokens per step on 16384 nodes with ample memory: a step takes
        // about a year, far beyond the 20-day window. Such a geometry was reported with
        // D = 1.1e12 tokens although not one step (2.8e14 tokens) completes.
        mosaic::Envelope e = oneGeometry();
        e.hardware.memoryBytes = 1e15;
        e.nodes = 16384;
        e.globalBatch = 1 << 24;
        e.seqLen = 1 << 24;
        e.microBatchValues = {1, 4096};
        const mosaic::SearchResult r = mosaic::search(e);
        QCOMPARE(r.geometriesMemoryFeasible, 1);
        const double window = e.days * 86400.0;
        for (const auto& c : r.candidates)
            QVERIFY2(c.eval.iteration_s <= window, qPrintable(QString::number(c.eval.iteration_s)));
        QVERIFY(r.candidates.empty());
        mosaic::Geometry g = mosaic::ladderGeometry(8, 16, 2, 2);
        const auto score = mosaic::scoreCandidate(e, g, 1e-3);
        QVERIFY(!score.completesAStep);
        QVERIFY(score.deliverableTokens < double(e.globalBatch) * e.seqLen);
        QVERIFY(mosaic::scoreCandidate(mosaic::Envelope{}, g, 1e-3).completesAStep);
    }

    void dataParallelTimesMicroBatchPast2To31() {
        // 1024 nodes of 1024 GPUs with DP = 2^20 and B_micro = 4096: DP x B_micro = 2^32 wrapped
        // to 0 in int, and B_global % 0 ended tandem-cli run with a floating point exception.
        mosaic::Envelope e = oneGeometry();
        e.hardware.gpusPerNode = 1024;
        e.nodes = 1024;
        e.microBatchValues = {4096};
        e.tpValues = {1};
        e.cpValues = {1};
        e.ppValues = {1};
        const mosaic::SearchResult r = mosaic::search(e);
        QCOMPARE(r.geometriesSearched, 1);
        QVERIFY(r.candidates.empty());
        mosaic::Plan p;
        p.dp = 1 << 20;
        p.ep = 16;
        p.mbs = 4096;
        const mosaic::PerfModel m(mosaic::ladderGeometry(8, 16, 2, 2), mosaic::clusterOf(e));
        const mosaic::PlanEval ev = m.evaluate(p);
        QVERIFY(!ev.feasible);
        QVERIFY2(ev.reason.rfind("B_global must be a multiple of DP x B_micro", 0) == 0,
                 ev.reason.c_str());
    }

    void envelopeOutsidePhysicalRange_data() {
        QTest::addColumn<QByteArray>("scenario");
        QTest::addColumn<QString>("path");
        QTest::newRow("TPP max 1e308")
            << QByteArray(R"({"mosaic": {"tokens_per_parameter_max": 1e308}})")
            << "$.mosaic.tokens_per_parameter_max";
        QTest::newRow("TPP min 1e7")
            << QByteArray(R"({"mosaic": {"tokens_per_parameter_min": 1e7}})")
            << "$.mosaic.tokens_per_parameter_min";
    }

    void envelopeOutsidePhysicalRange() {
        QFETCH(QByteArray, scenario);
        QFETCH(QString, path);
        Diagnostics d;
        QVERIFY(!parseScenario(scenario.toStdString(), d));
        QVERIFY2(messageAt(d, path).contains("tokens per active parameter"), d.str().c_str());
    }

    void sweptRangeBeyondExactIntegers_data() {
        QTest::addColumn<QString>("axis");
        QTest::addColumn<double>("middle");
        QTest::newRow("days to 1e300") << "mosaic.days=1:1e300:3" << 5e299;
        QTest::newRow("nodes to 1e19") << "mosaic.nodes=0:1e19:3" << 5e18;
        QTest::newRow("negative to -1e300") << "mosaic.days=0:-1e300:3" << -5e299;
    }

    void sweptRangeBeyondExactIntegers() {
        // Whole-looking ends past 2^53 were rounded with llround, which gave
        // -9223372036854775808 for every value past the long long range.
        QFETCH(QString, axis);
        QFETCH(double, middle);
        sweep::Axis a;
        std::string err;
        QVERIFY2(sweep::parseAxis(axis.toStdString(), a, err), err.c_str());
        QCOMPARE(a.values.size(), size_t(3));
        QVERIFY(a.values[1].is_number_float());
        QCOMPARE(a.values[1].get<double>(), middle);
    }

    void cliNeverPrintsAnImpossibleNumber_data() {
        QTest::addColumn<QByteArray>("scenario");  // written as s.json in a fresh folder
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("said");  // a part of what must be printed
        const QByteArray fast =
            R"({"mosaic": {"hardware": {"name": "p6-b200", "dense_gemm_max_efficiency": 1,
            "grouped_gemm_max_efficiency": 1, "attention_efficiency": 1, "chi_floor": 0.1, "chi_c_ovl": -10,
            "chi_c_pp": -10, "chi_c_a2a": -10, "elementwise_bytes_per_token_per_d": 0, "dispatch_kernels_per_layer": 0,
            "dispatch_kernels_per_local_expert": 0, "host_per_microbatch_ms": 0, "host_per_moe_layer_ms": 0,
            "intra_latency_us": 0, "inter_latency_us": 0}, "nodes": 2, "q_values": [8], "top_k_values": [2],
            "experts_values": [16], "expert_split_values": [2]}})";
        QTest::newRow("run: constants faster than the peak")
            << fast << QStringList{"run", "s.json", "--out", "out"} << 0 << "wrote";
        QTest::newRow("run: DP x B_micro = 2^32")
            << QByteArray(
                   R"({"mosaic": {"hardware": {"name": "p6-b200", "gpus_per_node": 1024}, "nodes": 1024,
                "micro_batch_values": [4096], "tensor_parallel_values": [1], "context_parallel_values": [1],
                "pipeline_parallel_values": [1], "q_values": [8], "top_k_values": [2], "experts_values": [16],
                "expert_split_values": [2]}})")
            << QStringList{"run", "s.json", "--out", "out"} << 0
            << "No geometry has a feasible layout on this cluster";
        QTest::newRow("run: peak 1e300 TFLOP/s")
            << QByteArray(
                   R"({"mosaic": {"hardware": {"name": "p6-b200", "peak_bf16_TFLOPs_per_s": 1e300}}})")
            << QStringList{"run", "s.json", "--out", "out"} << 2
            << "$.mosaic.hardware.peak_bf16_TFLOPs_per_s";
        QTest::newRow("run: smallest peak")
            << QByteArray(R"({"mosaic": {"hardware": {"name": "p6-b200",
                "peak_bf16_TFLOPs_per_s": 0.001}, "nodes": 1, "q_values": [8], "top_k_values": [2],
                "experts_values": [16], "expert_split_values": [2]}})")
            << QStringList{"run", "s.json", "--out", "out"} << 0 << "wrote";
        const QByteArray model = R"({"q": 8, "experts": 16, "top_k": 2, "expert_split_factor": 2})";
        QTest::newRow("plan: 2e9 devices")
            << model << QStringList{"plan", "s.json", "--devices", "2000000000"} << 2
            << "--devices must be at most 100000000";
        QTest::newRow("plan: largest batch and sequence")
            << model << QStringList{"plan",  "s.json",   "--devices", "64",
                                    "--gbs", "16777216", "--seqlen",  "16777216"}
            << 1 << "does not fit in device memory";
        QTest::newRow("plan: one token")
            << model
            << QStringList{"plan", "s.json", "--devices", "8", "--gbs", "1", "--seqlen", "1"} << 0
            << "MFU";
        QTest::newRow("sweep: days to 1e300")
            << QByteArray(R"({"mosaic": {"nodes": 2}})")
            << QStringList{"sweep", "s.json",   "--vary", "mosaic.days=1:1e300:3",
                           "--out", "sweep.csv"}
            << 2 << "mosaic.days=5e+299";
        QTest::newRow("sweep: peak to the largest device")
            << QByteArray(
                   R"({"mosaic": {"hardware": {"name": "p6-b200", "peak_bf16_TFLOPs_per_s": 2000}, "nodes": 2,
                "q_values": [8], "top_k_values": [2], "experts_values": [16], "expert_split_values": [2]}})")
            << QStringList{"sweep",  "s.json",
                           "--vary", "mosaic.hardware.peak_bf16_TFLOPs_per_s=0.001,1e6",
                           "--out",  "sweep.csv"}
            << 0 << "wrote";
    }

    void cliNeverPrintsAnImpossibleNumber() {
        QFETCH(QByteArray, scenario);
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile f(dir.filePath("s.json"));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(scenario) == scenario.size());
        f.close();
        QString printed;
        const int code = runCli(args, dir.path(), printed);
        QVERIFY2(code != -1, qPrintable(printed));
        QTEST(code, "exitCode");
        QFETCH(QString, said);
        QVERIFY2(printed.contains(said), qPrintable(printed));
        QVERIFY2(!printed.contains(kImpossible), qPrintable(printed));
        // Every candidate a run writes has an MFU in [0, 1] and a positive step time.
        QFile csv(dir.filePath("out/mosaic_candidates.csv"));
        if (csv.open(QIODevice::ReadOnly)) {
            const QStringList header = QString::fromUtf8(csv.readLine()).trimmed().split(',');
            const qsizetype mfu = header.indexOf("mfu"), step = header.indexOf("iteration_s");
            QVERIFY(mfu >= 0 && step >= 0);
            while (!csv.atEnd()) {
                const QStringList row = QString::fromUtf8(csv.readLine()).trimmed().split(',');
                QVERIFY2(row.value(mfu).toDouble() >= 0 && row.value(mfu).toDouble() <= 1,
                         qPrintable(row.join(',')));
                QVERIFY2(row.value(step).toDouble() > 0, qPrintable(row.join(',')));
            }
        }
        QDirIterator it(dir.path(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile out(it.next());
            QVERIFY(out.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(out.readAll());
            const auto m = kImpossible.match(text);
            QVERIFY2(!m.hasMatch(), qPrintable(it.filePath() + ": " + m.captured(0)));
        }
    }

    void sweptIntegersStayIntegers() {
        sweep::Axis a;
        std::string err;
        QVERIFY2(sweep::parseAxis("mosaic.nodes=8:32:4", a, err), err.c_str());
        QCOMPARE(a.values.size(), size_t(4));
        for (const auto& v : a.values) QVERIFY(v.is_number_integer());
        QCOMPARE(a.values[3].get<long long>(), 32LL);
    }
};

TANDEM_TEST_APPLESS_MAIN(TstPhysicalResults)
#include "tst_physical_results.moc"
