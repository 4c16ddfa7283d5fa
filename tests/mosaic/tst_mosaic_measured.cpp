// Measured nccl-tests curves in place of the analytical collective model: the plan's
// DP time moves by the hand-computed amount at measured sizes, the extrapolation flag is set
// beyond the measured sizes and only there, curve choice by scope and rank count, the
// all_reduce stand-in, logs ending in an NCCL error refused with their line, and a plan's TP
// and CP collectives recorded on each evaluation.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

#include "mosaic/collectives.h"
#include "mosaic/measured_collectives.h"
#include "mosaic/perf_model.h"
#include "mosaic_fixtures.h"
#include "scenario/scenario.h"
#include "test_data.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::mosaic;
using tandem::test::ncclTestsFile;

namespace {

const char* kAr2x8 = "H100-all_reduce-2x8-awsome-distributed-training.txt";
const char* kAr10x8 = "H100-all_reduce-10x8-nccl-tests-cluster.txt";
const char* kRs10x8 = "H100-reduce_scatter-10x8-nccl-tests-cluster.txt";
const char* kA2a1x8 = "A100-alltoall-1x8-superbenchmark.txt";

/// H100 hardware with the given curves attached (fails the test on an import error).
Hardware withCurves(const std::vector<std::string>& names) {
    Hardware hw = builtinHardware("h100");
    std::vector<std::string> files;
    for (const auto& n : names) files.push_back(ncclTestsFile(n));
    Diagnostics d;
    hw.measured = loadMeasuredCollectives(files, d, "$.files");
    if (!d.ok()) qWarning("%s", d.str().c_str());
    return hw;
}

}  // namespace

class TstMosaicMeasured : public QObject {
    Q_OBJECT
private slots:
    /// 16 ranks on 2 nodes of 8 match the 2x8 curve's own run: reduce-scatter and all-gather
    /// take the all-reduce curve's busbw at 1 GiB and 512 MiB (measured sizes; the better of
    /// out-of-place and in-place: 440.96 and 394.00 GB/s) with factor 15/16, half the
    /// all-reduce time. The measured curve is faster than the analytical H100 model with its
    /// NVLink stage at 80 % of the link rate (the calibrated h100 file has 100 %, which is
    /// faster than this curve at 1 GiB and hides the DP time), so the exposed DP time drops by
    /// exactly the difference.
    void dpTimeAtMeasuredSize() {
        // Dense model whose DP reduce-scatter (fp32) is exactly 2^30 bytes and all-gather
        // (bf16) 2^29 bytes with TP 1: 12 x (4 d^2 + 3 d d_ff) + vocab x d = 2^28 parameters.
        const Geometry g = test::denseGeometry(12, 1024, 8, 4096, 65536);
        QCOMPARE(g.nAct + double(g.vocab) * g.dModel, double(1 << 28));  // dense + embedding
        Cluster c;
        c.hardware = builtinHardware("h100");
        c.hardware.intraBusEfficiency = 0.8;
        c.devices = 16;
        c.globalBatch = 16;
        c.seqLen = 512;
        Plan p;
        p.dp = 16;
        const PlanEval an = PerfModel(g, c).evaluate(p);
        Cluster cm = c;
        cm.hardware = withCurves({kAr2x8});
        cm.hardware.intraBusEfficiency = 0.8;
        QVERIFY(cm.hardware.measured);
        CollectiveRecorder rec;
        const PlanEval me = PerfModel(g, cm).evaluate(p);
        QVERIFY(an.feasible && me.feasible);
        QCOMPARE(an.chi, 1.0);
        QCOMPARE(me.chi, 1.0);

        const double rsBytes = 1073741824.0, agBytes = 536870912.0;
        const double rsMeasured = rsBytes * 15.0 / 16.0 / 440.96e9;  // 2.2828 ms
        const double agMeasured = agBytes * 15.0 / 16.0 / 394.00e9;  // 1.2775 ms
        const double rsAnalytical =
            analyticalCollectiveTime(c.hardware, Collective::ReduceScatter, rsBytes, 16, 1);
        const double agAnalytical =
            analyticalCollectiveTime(c.hardware, Collective::AllGather, agBytes, 16, 1);
        QVERIFY(an.breakdown.dpBeyondCompute_s > 0 &&
                me.breakdown.dpBeyondCompute_s > 0);  // both exposed
        QVERIFY(me.breakdown.dpBeyondCompute_s <
                an.breakdown.dpBeyondCompute_s);  // measured H100 is faster
        const double drop = an.breakdown.dpBeyondCompute_s - me.breakdown.dpBeyondCompute_s;
        const double expected = (rsAnalytical + agAnalytical) - (rsMeasured + agMeasured);
        QVERIFY2(std::abs(drop - expected) < 1e-12, qPrintable(QString::number(drop, 'g', 12)));
        // Analytical: NCCL's ring across the two nodes, 15/16 S over min(NVLink 450 x 0.8,
        // 8 NICs x 50 x 0.87758) = 351.03 GB/s x ramp (20 MB), plus 261.65 us + 14 us + 14 x
        // 3.4 us: RS 2.9212 + 0.3233 = 3.2444 ms, AG (ramp 0.9641) 1.4873 + 0.3233 = 1.8105 ms;
        // measured 2.2828 + 1.2775 ms.
        QVERIFY(std::abs(expected - 1.49451e-3) < 1e-8);
        QVERIFY(me.iteration_s < an.iteration_s);

        QCOMPARE(rec.measuredCalls(), 2LL);
        QCOMPARE(rec.extrapolatedCalls(), 0LL);
        QCOMPARE(rec.uses().size(), size_t(2));
        for (const auto& u : rec.uses()) {
            QCOMPARE(u.curve, 0);
            QVERIFY(u.standIn);
            QVERIFY(!u.rescaled);
            QVERIFY(!u.extrapolated);
        }
        QCOMPARE(rec.uses()[0].time_s, rsMeasured);
        QCOMPARE(rec.uses()[1].time_s, agMeasured);
    }

    /// With measured curves a plan's TP and CP all-gathers are costed on every evaluation (the
    /// shape's other terms come from the per-thread cache, these do not), so a recorder around
    /// the second evaluation of a plan sees the same collectives as around the first: the DP
    /// reduce-scatter and all-gather over DP x CP = 8, the TP all-gather of T d BF16 bytes over
    /// 2 ranks (T = 512 / CP = 256 tokens: 512 KiB) and the CP all-gather of the KV over 2.
    void shapeCollectivesRecordedOnEachEvaluation() {
        const Geometry g = test::denseGeometry(12, 1024, 8, 4096, 65536);
        Cluster c;
        c.hardware = withCurves({kAr2x8});
        QVERIFY(c.hardware.measured);
        c.devices = c.globalBatch = 16;  // 16 GPUs, 16 sequences: 4 micro-batches per DP rank
        c.seqLen = 512;
        Plan p;
        p.tp = p.cp = 2;
        p.dp = c.devices / (p.tp * p.cp);
        const PerfModel m(g, c);
        std::vector<CollectiveUse> first;
        PlanEval firstEval;
        for (int round = 0; round < 2; ++round) {
            CollectiveRecorder rec;
            const PlanEval e = m.evaluate(p);
            QVERIFY(e.feasible);
            QCOMPARE(rec.calls(), 4LL);
            QCOMPARE(rec.uses().size(), size_t(4));
            int tpGathers = 0;
            for (const CollectiveUse& u : rec.uses())
                tpGathers += u.collective == Collective::AllGather && u.ranks == 2 &&
                             u.stride == 1 && u.bytes == 256.0 * 1024 * 2;
            QCOMPARE(tpGathers, 1);
            if (round == 0) {
                first = rec.uses();
                firstEval = e;
                continue;
            }
            for (size_t i = 0; i < first.size(); ++i) {
                QCOMPARE(int(rec.uses()[i].collective), int(first[i].collective));
                QVERIFY(rec.uses()[i].bytes == first[i].bytes);
                QCOMPARE(rec.uses()[i].ranks, first[i].ranks);
                QCOMPARE(rec.uses()[i].stride, first[i].stride);
            }
            QVERIFY(e.iteration_s == firstEval.iteration_s);
        }
    }

    /// Between measured sizes the busbw is interpolated linearly over log size and no flag is
    /// raised; beyond the largest size (16 GiB) busbw is held and the call is flagged, as is a
    /// size below the smallest.
    void extrapolationFlag_data() {
        QTest::addColumn<double>("bytes");
        QTest::addColumn<double>("busbwGBps");
        QTest::addColumn<bool>("extrapolated");
        const double w = std::log(1e6 / 524288.0) / std::log(2.0);
        QTest::newRow("1e6 B, between 512 KiB and 1 MiB")
            << 1e6 << 8.67 + w * (16.21 - 8.67) << false;
        QTest::newRow("1 GiB, a measured size") << 1073741824.0 << 440.96 << false;
        QTest::newRow("16 GiB, the largest size") << 17179869184.0 << 487.26 << false;
        QTest::newRow("32 GiB, beyond") << 34359738368.0 << 487.26 << true;
        QTest::newRow("1 TiB, far beyond") << 1099511627776.0 << 487.26 << true;
    }
    void extrapolationFlag() {
        QFETCH(double, bytes);
        QFETCH(double, busbwGBps);
        QFETCH(bool, extrapolated);
        const Hardware hw = withCurves({kAr2x8});
        CollectiveRecorder rec;
        const double t = collectiveTime(hw, Collective::AllReduce, bytes, 16, 1);
        QCOMPARE(rec.calls(), 1LL);
        QCOMPARE(rec.measuredCalls(), 1LL);
        QCOMPARE(rec.extrapolatedCalls(), extrapolated ? 1LL : 0LL);
        QCOMPARE(rec.uses().front().extrapolated, extrapolated);
        const double expected = bytes * 2.0 * 15.0 / 16.0 / (busbwGBps * 1e9);
        QVERIFY2(std::abs(t / expected - 1.0) < 1e-12,
                 qPrintable(QString::number(t / expected - 1.0)));
    }

    /// Below the smallest measured size (8 B) the call is flagged too; rows printed as 0.00
    /// GB/s take their busbw from the time column, so small messages cost the measured time.
    void smallSizesUseTheTimeColumn() {
        const Hardware hw = withCurves({kAr2x8});
        CollectiveRecorder rec;
        // 8 B: best of 69.12 us (out-of-place) and 72.43 us (in-place).
        QVERIFY(std::abs(collectiveTime(hw, Collective::AllReduce, 8, 16, 1) - 69.12e-6) < 1e-12);
        QCOMPARE(rec.extrapolatedCalls(), 0LL);
        // 4 B: below the smallest size, latency-bound: the 8 B time, flagged.
        QVERIFY(std::abs(collectiveTime(hw, Collective::AllReduce, 4, 16, 1) - 69.12e-6) < 1e-12);
        QCOMPARE(rec.extrapolatedCalls(), 1LL);
    }

    /// Curve choice: a direct curve beats the all_reduce stand-in; the nearest rank count in
    /// log wins; curves serve only their scope (intra-node groups stay analytical when only
    /// multi-node curves exist, and the reverse).
    void curveChoice_data() {
        QTest::addColumn<int>("collective");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("stride");
        QTest::addColumn<QString>("curve");  // file of the chosen curve, "" = analytical
        QTest::addColumn<bool>("standIn");
        QTest::addColumn<bool>("rescaled");
        QTest::newRow("RS 80: direct 10x8")
            << int(Collective::ReduceScatter) << 80 << 1 << kRs10x8 << false << false;
        QTest::newRow("AG 80: all_reduce 10x8 stands in")
            << int(Collective::AllGather) << 80 << 1 << kAr10x8 << true << false;
        QTest::newRow("AR 16: 2x8")
            << int(Collective::AllReduce) << 16 << 1 << kAr2x8 << false << false;
        QTest::newRow("AR 24: 2x8 is nearer")
            << int(Collective::AllReduce) << 24 << 1 << kAr2x8 << false << true;
        QTest::newRow("AR 48: 10x8 is nearer")
            << int(Collective::AllReduce) << 48 << 1 << kAr10x8 << false << true;
        QTest::newRow("AR 16 stride 8: 16 nodes")
            << int(Collective::AllReduce) << 16 << 8 << kAr2x8 << false << true;
        QTest::newRow("AR 8 in a node: analytical")
            << int(Collective::AllReduce) << 8 << 1 << "" << false << false;
        QTest::newRow("A2A 8 in a node: 1x8")
            << int(Collective::AllToAll) << 8 << 1 << kA2a1x8 << false << false;
        QTest::newRow("A2A 16 across nodes: analytical")
            << int(Collective::AllToAll) << 16 << 1 << "" << false << false;
    }
    void curveChoice() {
        QFETCH(int, collective);
        QFETCH(int, ranks);
        QFETCH(int, stride);
        QFETCH(QString, curve);
        QFETCH(bool, standIn);
        QFETCH(bool, rescaled);
        const Hardware hw = withCurves({kAr2x8, kAr10x8, kRs10x8, kA2a1x8});
        QVERIFY(hw.measured);
        QCOMPARE(hw.measured->curves().size(), size_t(4));
        const auto c = Collective(collective);
        CollectiveUse use;
        const double t = hw.measured->timeOf(hw, c, 1 << 30, ranks, stride, &use);
        if (curve.isEmpty()) {
            QCOMPARE(use.curve, -1);
            QCOMPARE(t, analyticalCollectiveTime(hw, c, 1 << 30, ranks, stride));
            return;
        }
        QVERIFY(use.curve >= 0);
        QCOMPARE(QString::fromStdString(hw.measured->curves()[size_t(use.curve)].source),
                 QString::fromStdString(ncclTestsFile(curve.toStdString())));
        QCOMPARE(use.standIn, standIn);
        QCOMPARE(use.rescaled, rescaled);
        QVERIFY(t > 0 && std::isfinite(t));
    }

    /// Rank-count rescaling through the analytical model: the 2x8 all-reduce curve predicts the
    /// 10x8 run's busbw at 1 GiB (346.56 GB/s measured, the better half) much better than
    /// holding busbw constant (441 GB/s, +27 %).
    void rescalingPredictsTheLargerRun() {
        const Hardware hw = withCurves({kAr2x8});
        const auto cmp = compareBusBandwidth(hw, Collective::AllReduce, 80, {1073741824.0});
        QVERIFY(cmp.rescaled);
        QCOMPARE(cmp.curveRanks, 16);
        const double predicted = cmp.samples.front().measuredBusbw_Bps / 1e9;
        const double measured10x8 = 346.56;
        qInfo("2x8 curve rescaled to 80 ranks at 1 GiB: %.1f GB/s; 10x8 measured %.1f GB/s",
              predicted, measured10x8);
        QVERIFY2(std::abs(predicted / measured10x8 - 1.0) < 0.15,
                 qPrintable(QString::number(predicted)));
    }

    /// The sampler the GUI plots: at the curve's own run the measured line is the file's busbw;
    /// the analytical line is S x factor / analytical time; no curve -> NaN.
    void compareBusBandwidthSamples() {
        const Hardware hw = withCurves({kAr2x8});
        const auto sizes = logSpacedSizes(1024, 17179869184.0, 25);
        QCOMPARE(sizes.size(), size_t(25));
        QCOMPARE(sizes.front(), 1024.0);
        QCOMPARE(sizes.back(), 17179869184.0);
        QCOMPARE(sizes[10], 1048576.0 * 1.0);  // 2^10 .. 2^34 in 24 steps of 2^1: 2^20
        const auto cmp = compareBusBandwidth(hw, Collective::AllReduce, 16, {1073741824.0, 4e10});
        QCOMPARE(cmp.curve, 0);
        QVERIFY(!cmp.rescaled && !cmp.standIn);
        QCOMPARE(cmp.nodes, 2);
        QCOMPARE(cmp.minMeasuredBytes, 8.0);
        QCOMPARE(cmp.maxMeasuredBytes, 17179869184.0);
        QVERIFY(std::abs(cmp.samples[0].measuredBusbw_Bps - 440.96e9) < 1e-3);
        QVERIFY(!cmp.samples[0].extrapolated);
        QVERIFY(cmp.samples[1].extrapolated);
        const double an = analyticalCollectiveTime(hw, Collective::AllReduce, 1073741824.0, 16, 1);
        QCOMPARE(cmp.samples[0].analyticalBusbw_Bps, 1073741824.0 * 1.875 / an);
        const auto none = compareBusBandwidth(hw, Collective::AllToAll, 16, {1e6});
        QCOMPARE(none.curve, -1);
        QVERIFY(std::isnan(none.samples[0].measuredBusbw_Bps));
        QVERIFY(none.samples[0].analyticalBusbw_Bps > 0);
        QVERIFY(logSpacedSizes(0, 10, 5).empty());
    }

    /// A log that ends in an NCCL error is refused with its line, through the scenario path.
    void ncclErrorRefusedWithLine() {
        QTemporaryDir dir;
        std::ifstream in(ncclTestsFile(kAr2x8));
        std::stringstream ss;
        ss << in.rdbuf();
        std::string text = ss.str();
        int lines = 0;
        for (char ch : text) lines += ch == '\n';
        text += "node01: Test NCCL failure all_reduce.cu:44 'unhandled system error'\n";
        const std::string log = dir.filePath(QStringLiteral("failed.txt")).toStdString();
        std::ofstream(log) << text;
        const std::string scen = dir.filePath(QStringLiteral("s.json")).toStdString();
        std::ofstream(scen)
            << R"({"mosaic": {"hardware": "h100", "nccl_tests_files": ["failed.txt"]}})";
        Diagnostics d(scen);
        QVERIFY(!loadScenarioFile(scen, d));
        QCOMPARE(d.items().size(), size_t(1));
        const auto& issue = d.items().front();
        QCOMPARE(QString::fromStdString(issue.path),
                 QStringLiteral("$.mosaic.nccl_tests_files[0]"));
        const std::string line = "line " + std::to_string(lines + 1);
        QVERIFY2(issue.message.find(line) != std::string::npos, issue.message.c_str());
        QVERIFY2(issue.message.find("NCCL error reported") != std::string::npos,
                 issue.message.c_str());
        QVERIFY2(issue.message.find("failed.txt") != std::string::npos, issue.message.c_str());
        // A missing file is named with where it was looked for.
        std::ofstream(scen) << R"({"mosaic": {"nccl_tests_files": ["absent.txt"]}})";
        Diagnostics d2(scen);
        QVERIFY(!loadScenarioFile(scen, d2));
        QCOMPARE(QString::fromStdString(d2.items().front().path),
                 QStringLiteral("$.mosaic.nccl_tests_files[0]"));
        QVERIFY(d2.items().front().message.find("absent.txt") != std::string::npos);
    }

    /// A relative file is found next to the scenario and written back resolved; a scenario
    /// without the key writes no such key and stays analytical.
    void scenarioKey() {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(QString::fromStdString(ncclTestsFile(kAr2x8)),
                            dir.filePath(QStringLiteral("ar.txt"))));
        const std::string scen = dir.filePath(QStringLiteral("s.json")).toStdString();
        std::ofstream(scen)
            << R"({"mosaic": {"hardware": "h100", "nodes": 2, "nccl_tests_files": ["ar.txt"]}})";
        Diagnostics d(scen);
        const auto s = loadScenarioFile(scen, d);
        QVERIFY2(s, d.str().c_str());
        QVERIFY(s->mosaic->hardware.measured);
        QCOMPARE(s->mosaic->hardware.measured->curves().size(), size_t(1));
        QCOMPARE(s->mosaic->ncclTestsFiles.front(),
                 dir.filePath(QStringLiteral("ar.txt")).toStdString());
        const std::string text = scenarioToJson(*s);
        QVERIFY(text.find("\"nccl_tests_files\"") != std::string::npos);
        Diagnostics d2;
        const auto again = parseScenario(text, d2);
        QVERIFY2(again, d2.str().c_str());
        QCOMPARE(scenarioToJson(*again), text);
        QVERIFY(again->mosaic->hardware.measured);
        const std::string plain = scenarioToJson(defaultScenario());
        QVERIFY(plain.find("nccl_tests_files") == std::string::npos);
        QVERIFY(!defaultScenario().mosaic->hardware.measured);
    }

    /// Curves the model cannot use are skipped with a note; a file with none is an error.
    void unusableCurves() {
        io::NcclImport imp;
        io::NcclCurve c;
        c.collective = io::Collective::Broadcast;
        c.ranks = 8;
        io::NcclPoint p;
        p.bytes = 1024;
        p.busbw_Bps = 2e9;
        c.points.push_back(p);
        imp.curves = {c, c};
        imp.curves[1].collective = io::Collective::AllReduce;
        imp.curves[1].ranks = 0;
        MeasuredCollectives m;
        const auto notes = m.add(imp, "x.txt");
        QVERIFY(m.empty());
        QCOMPARE(notes.size(), size_t(2));
        QVERIFY(notes[0].find("broadcast") != std::string::npos);
        QVERIFY(notes[1].find("rank count") != std::string::npos);
    }
    /// choose() bisects a rank-ordered index; it picks what a scan of every curve picks: the
    /// curve of the collective and scope whose rank count is nearest by ratio, the larger one on
    /// a tie (e.g. 4 and 16 for 8 ranks: 16). Checked on curve sets added in shuffled order.
    void chooseMatchesAScanOfEveryCurve() {
        std::mt19937 rng(7);
        for (int trial = 0; trial < 40; ++trial) {
            std::vector<int> ranks = {2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 96, 128, 256};
            std::shuffle(ranks.begin(), ranks.end(), rng);
            ranks.resize(std::size_t(1 + trial % 9));
            io::NcclImport imp;
            for (int r : ranks)
                for (io::Collective kind : {io::Collective::AllReduce, io::Collective::AllToAll}) {
                    io::NcclCurve c;
                    c.collective = kind;
                    c.ranks = r;
                    io::NcclPoint p;
                    p.bytes = 1 << 20;
                    p.busbw_Bps = 1e9 * r;
                    c.points.push_back(p);
                    if ((r + trial) % 3 != 0 || kind == io::Collective::AllReduce)
                        imp.curves.push_back(c);
                }
            MeasuredCollectives m;
            m.add(imp, "set.txt");
            for (int gpn : {1, 4, 8})
                for (Collective c :
                     {Collective::AllReduce, Collective::AllGather, Collective::AllToAll})
                    for (int want = 1; want <= 300; want += (want < 40 ? 1 : 7))
                        for (bool spans : {false, true}) {
                            // The plain scan: every curve, in insertion order.
                            auto scan = [&](Collective kind) {
                                int best = -1;
                                double bestDist = 0;
                                for (std::size_t i = 0; i < m.curves().size(); ++i) {
                                    const auto& mc = m.curves()[i];
                                    if (mc.collective != kind || (mc.curve.ranks > gpn) != spans)
                                        continue;
                                    const double a = mc.curve.ranks, b = std::max(1, want);
                                    const double dist = a > b ? a / b : b / a;
                                    if (best < 0 || dist < bestDist ||
                                        (dist == bestDist &&
                                         mc.curve.ranks >
                                             m.curves()[std::size_t(best)].curve.ranks)) {
                                        best = int(i);
                                        bestDist = dist;
                                    }
                                }
                                return best;
                            };
                            int expected = scan(c);
                            bool standIn = false;
                            if (expected < 0 && c == Collective::AllGather) {
                                expected = scan(Collective::AllReduce);
                                standIn = expected >= 0;
                            }
                            const CurveChoice got = m.choose(c, want, spans, gpn);
                            QCOMPARE(got.index, expected);
                            QCOMPARE(got.standIn, standIn);
                        }
        }
    }

    /// The interpolation with precomputed log sizes equals the one that takes the logs itself,
    /// bit for bit, inside, below and above the measured sizes.
    void precomputedLogSizesGiveTheSameBusBandwidth() {
        io::NcclCurve c;
        for (double b : {1024.0, 4096.0, 65536.0, 3.0e6, 1.0e9}) {
            io::NcclPoint p;
            p.bytes = b;
            p.busbw_Bps = 1e8 * std::sqrt(b);
            c.points.push_back(p);
        }
        const std::vector<double> logs = io::logSizes(c);
        QCOMPARE(logs.size(), c.points.size());
        for (double b : {10.0, 1024.0, 2000.0, 4096.0, 5.0e5, 3.0e6, 7.7e8, 1.0e9, 4.0e9}) {
            const io::BusBandwidth a = io::effectiveBusBandwidth(c, b);
            const io::BusBandwidth f = io::effectiveBusBandwidth(c, b, logs);
            QCOMPARE(f.busbw_Bps, a.busbw_Bps);
            QCOMPARE(f.extrapolated, a.extrapolated);
        }
        // Between 4096 and 65536 B at 16384 B (halfway in log size): the mean of the two.
        QCOMPARE(io::effectiveBusBandwidth(c, 16384.0, logs).busbw_Bps,
                 1e8 * (std::sqrt(4096.0) + std::sqrt(65536.0)) / 2);
    }
};

TANDEM_TEST_APPLESS_MAIN(TstMosaicMeasured)
#include "tst_mosaic_measured.moc"
