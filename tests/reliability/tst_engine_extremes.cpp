// Engine invariants at the extremes of every control: 1 GPU, 1 node, zero background,
// 16+ background jobs, bandwidth at the GUI's slider ends, 10 GB gradients, 512 experts, a 1-day
// and a 365-day window. Each run must give a sensible result or a clear "not reached" /
// "infeasible" answer within its horizon, never NaN or negative times, achieved rates above
// capacity, MFU above 100 % or memory above the device's. Horizons are small so the suite stays
// within seconds.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "fabric/fabric_sim.h"
#include "fabric/fluid.h"
#include "mlforml/presets.h"
#include "mlforml/simulate.h"
#include "mosaic/collectives.h"
#include "mosaic/plan.h"
#include "mosaic/search.h"
#include "scenario/scenario.h"
#include "test_main.h"

Q_DECLARE_METATYPE(tandem::mlforml::Params)
Q_DECLARE_METATYPE(tandem::mosaic::Envelope)

using namespace tandem;
using namespace tandem::mlforml;
using namespace tandem::fabric;

namespace {

/// Scenario 1 shrunk to one point, one offset, a short replay and a 2-day horizon.
Params smallMl(int background) {
    Params p = scenario1Params();
    p.backgroundJobs = {background};
    p.startOffsets = 1;
    p.replayIterations = 3;
    p.policies = {Policy::Static, Policy::Decoupled, Policy::Joint};
    p.horizon_s = 2 * 86400.0;
    return p;
}

/// Checks every invariant of an ML-for-ML result; returns "" or the first violation.
QString mlInvariants(const Params& p, const Result& r) {
    if (r.points.empty()) return "no points";
    for (const auto& pt : r.points) {
        for (double s : {pt.dpShareBf16, pt.dpShareMxfp4})
            if (!std::isnan(s) && (s < 0 || s > 1))
                return QString("DP share %1 outside [0, 1]").arg(s);
        if (std::isnan(pt.dpShareBf16)) return "BF16 DP share is NaN";
        for (double t : pt.meanSyncBeyondOverlap_s)
            if (!(t >= 0)) return QString("exposed DP time %1 negative or NaN").arg(t);
        if (!(pt.bgP95GBPer50ms >= 0)) return "background p95 negative or NaN";
        for (const auto& run : pt.policies) {
            if (run.endTime_s < 0 || run.endTime_s > p.horizon_s * (1 + 1e-9))
                return QString("%1 ends at %2 s, horizon %3 s")
                    .arg(run.policy.c_str())
                    .arg(run.endTime_s)
                    .arg(p.horizon_s);
            if (run.syncBeyondOverlapShare < 0 || run.syncBeyondOverlapShare > 1)
                return "exposed share outside [0, 1]";
            for (size_t i = 0; i < run.time_s.size(); ++i) {
                if (!std::isfinite(run.time_s[i]) || !std::isfinite(run.loss[i]))
                    return "NaN in a trajectory";
                if (i && run.time_s[i] < run.time_s[i - 1]) return "trajectory time goes backwards";
                if (i && run.loss[i] > run.loss[i - 1] + 1e-12)
                    return "loss rises along a trajectory";
            }
            // First crossings: finite and within the horizon, or NaN ("not reached"); a lower
            // (harder) target is never reached earlier than a higher one.
            std::vector<std::pair<double, double>> byTarget;  // (target loss, time)
            for (size_t k = 0; k < run.firstCrossing_s.size(); ++k) {
                const double t = run.firstCrossing_s[k];
                if (!std::isnan(t) && (t <= 0 || t > p.horizon_s * (1 + 1e-9)))
                    return QString("%1 crossing %2 s outside (0, horizon]")
                        .arg(run.policy.c_str())
                        .arg(t);
                byTarget.emplace_back(r.targetLosses[k], t);
            }
            std::sort(byTarget.begin(), byTarget.end());
            for (size_t k = 1; k < byTarget.size(); ++k) {
                const double harder = byTarget[k - 1].second, easier = byTarget[k].second;
                if (std::isnan(easier) && !std::isnan(harder))
                    return "harder target reached, easier not";
                if (!std::isnan(harder) && harder < easier)
                    return "first crossing not monotone in the target";
            }
        }
    }
    return {};
}

/// Checks a MOSAIC search result; returns "" or the first violation.
QString moeInvariants(const mosaic::Envelope& e, const mosaic::SearchResult& r) {
    const double memGB = e.hardware.memoryBytes / 1e9;
    for (const auto& c : r.candidates) {
        const auto& ev = c.eval;
        if (!ev.feasible) return "infeasible candidate listed";
        if (!(ev.mfu > 0 && ev.mfu <= 1)) return QString("MFU %1 outside (0, 1]").arg(ev.mfu);
        if (!(ev.iteration_s > 0) || !std::isfinite(ev.iteration_s))
            return "iteration time not positive";
        if (ev.memoryGB > memGB * (1 + 1e-9))
            return QString("memory %1 GB above %2 GB").arg(ev.memoryGB).arg(memGB);
        const auto& b = ev.breakdown;
        for (double x : {b.compute_s, b.dispatch_s, b.a2a_s, b.dpBeyondCompute_s, b.bubble_s,
                         b.vocab_s, b.other_s})
            if (!(x >= 0)) return "negative or NaN breakdown component";
        const auto& p = c.plan;
        if (p.tp * p.cp * p.pp * p.dp != e.devices()) return "plan does not cover the devices";
        if (p.dp % p.ep != 0) return "EP does not divide DP";
        if (c.geometry.topK > c.geometry.experts) return "K > E in a candidate";
        if (!(c.tokens > 0) || !std::isfinite(c.loss)) return "tokens or loss invalid";
    }
    if (r.optimum >= 0 && !std::isfinite(r.clusterOptimalSparsity))
        return "optimum without a sparsity";
    if (r.optimum < 0 && !std::isnan(r.clusterOptimalSparsity))
        return "no optimum but a cluster-optimal S";
    for (const auto& f : r.clusterOptimal)
        if (f.feasible != std::isfinite(f.loss))
            return "frontier point feasibility and loss disagree";
    return {};
}

mosaic::Envelope smallEnvelope() {
    mosaic::Envelope e;
    e.nodes = 4;
    e.days = 5;
    e.qValues = {8, 10};
    e.topKValues = {1, 2};
    e.expertValues = {16, 64};
    return e;
}

}  // namespace

class TstEngineExtremes : public QObject {
    Q_OBJECT
private slots:
    void mlForMl_data() {
        QTest::addColumn<Params>("params");
        QTest::addColumn<bool>("expectReached");  // Joint reaches the easiest target
        {
            Params p = smallMl(8);
            p.foregroundNodes = 1;
            p.gpusPerNode = 1;
            QTest::newRow("1 GPU") << p << true;
        }
        {
            Params p = smallMl(8);
            p.foregroundNodes = 1;
            QTest::newRow("1 node") << p << true;
        }
        QTest::newRow("zero background") << smallMl(0) << true;
        QTest::newRow("16 background jobs") << smallMl(16) << true;
        QTest::newRow("32 background jobs (slider end)") << smallMl(32) << true;
        {
            Params p = smallMl(4);
            p.fabricBytesPerS = 1e9;  // fabric slider's low end, 1 GB/s
            p.horizon_s = 86400;
            QTest::newRow("fabric 1 GB/s") << p << false;
        }
        {
            Params p = smallMl(16);
            p.fabricBytesPerS = 100000e9;  // fabric slider's high end
            p.nicBytesPerS = 1000e9;       // NIC spin box's high end
            QTest::newRow("fabric and NIC at the top") << p << true;
        }
        {
            Params p = smallMl(4);
            p.nicBytesPerS = 0.1e9;  // NIC spin box's low end
            p.horizon_s = 86400;
            QTest::newRow("NIC 0.1 GB/s") << p << false;
        }
        {
            Params p = smallMl(4);
            p.foregroundParameters = 5e9;          // 10 GB of BF16 gradients per sync
            p.backgroundJob.gradientBytes = 10e9;  // and 10 GB background syncs
            p.horizon_s = 86400;
            QTest::newRow("10 GB gradients") << p << false;
        }
        {
            Params p = smallMl(4);
            p.foregroundNodes = 128;  // foreground slider's high end
            QTest::newRow("128 foreground nodes") << p << true;
        }
        {
            Params p = smallMl(8);
            p.horizon_s = 86400;  // a 1-day window
            QTest::newRow("1-day horizon") << p << true;
        }
        {
            Params p = smallMl(8);
            p.horizon_s = 365 * 86400.0;  // a 365-day window: the run ends when the targets are met
            p.policies = {Policy::Joint};
            QTest::newRow("365-day horizon") << p << true;
        }
        {
            Params p = scenario2Params();  // Poisson arrivals, up to 5 GPT-13B jobs
            p.policies = {Policy::Joint};
            p.horizon_s = 86400;
            QTest::newRow("poisson, 1-day horizon") << p << true;
        }
    }

    void mlForMl() {
        QFETCH(Params, params);
        QFETCH(bool, expectReached);
        const Result r = simulate(params);
        const QString bad = mlInvariants(params, r);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        const PolicyRun* joint = nullptr;
        for (const auto& run : r.points[0].policies)
            if (run.policy == "Joint") joint = &run;
        QVERIFY(joint);
        double easiest = std::nan("");
        for (size_t k = 0; k < r.targetLosses.size(); ++k)
            if (r.targetLosses[k] ==
                *std::max_element(r.targetLosses.begin(), r.targetLosses.end()))
                easiest = joint->firstCrossing_s[k];
        if (expectReached)
            QVERIFY2(std::isfinite(easiest), "Joint never reached the easiest target");
        // Either way the answer is explicit: a time, or NaN = "not reached within the horizon".
        QVERIFY(std::isnan(easiest) || easiest > 0);
    }

    void singleNodeHasNoExposedNetworkTime() {
        // One node: the all-reduce stays on NVLink, so nothing is exposed on the fabric.
        Params p = smallMl(16);
        p.foregroundNodes = 1;
        const Result r = simulate(p);
        QCOMPARE(r.points[0].dpShareBf16, 0.0);
    }

    void moreBackgroundNeverHelps() {
        // Exposed DP share is monotone in the background: 0 <= N=4 <= N=16 <= N=32.
        Params p = smallMl(0);
        p.backgroundJobs = {0, 4, 16, 32};
        const Result r = simulate(p);
        QVERIFY(mlInvariants(p, r).isEmpty());
        for (size_t i = 1; i < r.points.size(); ++i)
            QVERIFY2(r.points[i].dpShareBf16 >= r.points[i - 1].dpShareBf16 - 1e-9,
                     qPrintable(QString::fromStdString(r.points[i].label)));
    }

    void fluidRatesNeverExceedCapacity() {
        // Max-min fair rates: the sum over flows never exceeds the fabric, no node exceeds its
        // NIC, and a lone flow gets exactly min(NIC, fabric / nodes) (a simulated bus
        // bandwidth above the link's is impossible).
        for (double fabric : {1e9, 100e9, 490e9, 1e14}) {
            FluidNetwork net(fabric, 12.5e9);
            std::vector<int> groups, flows;
            for (int nodes : {1, 2, 8, 8, 50, 128}) groups.push_back(net.addGroup(nodes));
            for (size_t g = 0; g < groups.size(); ++g)
                flows.push_back(net.startFlow(groups[g], 10e9 * double(g + 1), int(g)));
            net.recomputeRates();
            double total = 0;
            for (int f : flows) {
                QVERIFY(net.flowRate(f) >= 0);
                QVERIFY(net.flowRate(f) <= 12.5e9 * (1 + 1e-12));
                total += net.flowRate(f) * net.groupNodes(net.flowGroup(f));
            }
            QVERIFY2(total <= fabric * (1 + 1e-9),
                     qPrintable(QString("%1 > %2").arg(total).arg(fabric)));
            QCOMPARE(net.fabricRate(0, int(groups.size())), total);
        }
        FluidNetwork lone(100e9, 12.5e9);
        const int g = lone.addGroup(16);
        const int f = lone.startFlow(g, 1e9, 0);
        lone.recomputeRates();
        QCOMPARE(lone.flowRate(f), std::min(12.5e9, 100e9 / 16));
    }

    void runWithoutUpdatesSaysWhy_data() {
        QTest::addColumn<Params>("params");
        {
            // Regression (16384 foreground nodes): Joint ended "no optimizer update finished"
            // without a cause; its first update (GA4-BF16, the baseline it starts from) loads the
            // 300 GB/s fabric beyond its rate, so the open-loop backlog never drains.
            Params p = scenario1Params();
            p.backgroundJobs = {4};
            p.fabricBytesPerS = 300e9;
            p.foregroundNodes = 16384;
            p.policies = {Policy::Joint};
            QTest::newRow("16384 foreground nodes, Joint") << p;
        }
    }
    void runWithoutUpdatesSaysWhy() {
        QFETCH(Params, params);
        const Result r = simulate(params);
        QCOMPARE(r.points.size(), size_t(1));
        const auto& run = r.points[0].policies.at(0);
        QCOMPARE(run.totalUpdates, 0LL);
        QCOMPARE(run.stoppedCombo, 0);
        QCOMPARE(r.comboLabels.at(0), std::string("GA4-BF16"));
        QVERIFY(std::isinf(run.nextUpdateEnd_s));
    }

    void flowsShorterThanTheClockResolutionFinish_data() {
        // A foreground sync alone on the network, started late enough that its rest after one
        // step needs less than one ulp of the clock (now + dt == now): the exposed DP time is
        // bytes / rate to within a few ulps, and every iteration finishes.
        QTest::addColumn<double>("bytesPerSecond");  // fabric and NIC
        QTest::addColumn<double>("bytesPerNode");
        QTest::addColumn<double>("start_s");
        QTest::newRow("1e9 GB/s, 3 GB at 5 s") << 1e18 << 3e9 << 5.0;
        QTest::newRow("1e9 GB/s, 3 GB at 3000 s") << 1e18 << 3e9 << 3000.0;
        QTest::newRow("10 GB/s, 1.25 B at 3000 s") << 10e9 << 1.25 << 3000.0;
        QTest::newRow("10 GB/s, 1.25 B at 600 s") << 10e9 << 1.25 << 600.0;
        QTest::newRow("100 GB/s, 1.25 B at 3000 s") << 100e9 << 1.25 << 3000.0;
        QTest::newRow("1000 GB/s, 1.25 B at 3000 s") << 1000e9 << 1.25 << 3000.0;
        QTest::newRow("1000 GB/s, 10 B at 600 s") << 1000e9 << 10.0 << 600.0;
    }
    void flowsShorterThanTheClockResolutionFinish() {
        QFETCH(double, bytesPerSecond);
        QFETCH(double, bytesPerNode);
        QFETCH(double, start_s);
        FabricSim sim(bytesPerSecond, bytesPerSecond, 1.0, 0.0);
        ForegroundSpec fg;
        fg.nodes = 2;  // rate = min(NIC, fabric / 2) = fabric / 2
        fg.bytesPerNode = bytesPerNode;
        fg.compute_s = 0.1;
        fg.start_s = start_s;
        fg.iterations = 5;
        sim.setForeground(fg);
        sim.run(start_s + 100);
        QVERIFY(sim.foregroundDone());
        QCOMPARE(sim.exposedDpTimes().size(), size_t(5));
        const double expected = bytesPerNode / (bytesPerSecond / 2);
        const double ulp =
            std::nextafter(start_s + 1, std::numeric_limits<double>::infinity()) - (start_s + 1);
        for (double e : sim.exposedDpTimes())
            QVERIFY2(std::abs(e - expected) <= 4 * ulp,
                     qPrintable(QString("exposed %1 s, expected %2 s")
                                    .arg(e, 0, 'g', 17)
                                    .arg(expected, 0, 'g', 17)));
    }

    void tinyFlowsGiveTheIdleNetworkResult_data() {
        // A background of 1 kB/s (1.25 B per node per 10 ms chunk) and a network of 1e9 GB/s
        // ended every policy with "no optimizer update finished": the clock stopped on a rest
        // of a few bytes. Each now matches its reference (an idle trace; a foreground alone)
        // to 1e-6, and every policy trains.
        QTest::addColumn<QByteArray>("trace");       // empty: scenario 1 with params below
        QTest::addColumn<QByteArray>("reference");   // the same without that load
        QTest::addColumn<double>("bandwidth_GBps");  // fabric and NIC; 0: scenario 1's
        QTest::newRow("trace of 1 kB/s over an hour")
            << QByteArray("time_s,bytes_per_s\n0,1000\n1800,1000\n")
            << QByteArray("time_s,bytes_per_s\n0,0\n1800,0\n") << 0.0;
        QTest::newRow("trace of 1 kB/s, 1000 GB/s network")
            << QByteArray("time_s,bytes_per_s\n0,1000\n1800,1000\n")
            << QByteArray("time_s,bytes_per_s\n0,0\n1800,0\n") << 1000.0;
        QTest::newRow("fabric and NIC at 1e9 GB/s") << QByteArray() << QByteArray() << 1e9;
    }
    void tinyFlowsGiveTheIdleNetworkResult() {
        QFETCH(QByteArray, trace);
        QFETCH(QByteArray, reference);
        QFETCH(double, bandwidth_GBps);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Params p = smallMl(4);
        p.policies = {Policy::Static, Policy::KnobPrecision, Policy::Joint};
        p.startOffsets = 4;
        Params ref = p;
        if (!trace.isEmpty()) {
            const std::string a = dir.filePath("load.csv").toStdString(),
                              b = dir.filePath("idle.csv").toStdString();
            std::ofstream(a) << trace.constData();
            std::ofstream(b) << reference.constData();
            p.scenario = ref.scenario = tandem::mlforml::ScenarioKind::Trace;
            p.traceFile = a;
            ref.traceFile = b;
            if (bandwidth_GBps > 0)
                p.fabricBytesPerS = p.nicBytesPerS = ref.fabricBytesPerS = ref.nicBytesPerS =
                    bandwidth_GBps * 1e9;
        } else {
            p.fabricBytesPerS = p.nicBytesPerS = bandwidth_GBps * 1e9;
            ref.backgroundJobs = {0};
            ref.fabricBytesPerS = ref.nicBytesPerS = bandwidth_GBps * 1e9;
        }
        const Result r = simulate(p);
        const Result base = simulate(ref);
        QVERIFY(mlInvariants(p, r).isEmpty());
        for (const auto& run : r.points[0].policies) {
            QVERIFY2(run.totalUpdates > 0, run.policy.c_str());
            QVERIFY2(std::isfinite(run.firstCrossing_s.back()), run.policy.c_str());
        }
        for (size_t c = 0; c < r.points[0].meanSyncBeyondOverlap_s.size(); ++c) {
            const double e = r.points[0].meanSyncBeyondOverlap_s[c],
                         e0 = base.points[0].meanSyncBeyondOverlap_s[c];
            QVERIFY2(
                std::isfinite(e) && std::abs(e - e0) <= 1e-6 * e0 + 1e-12,
                qPrintable(
                    QString("%1: %2 s against %3 s").arg(r.comboLabels[c].c_str()).arg(e).arg(e0)));
        }
        const auto& t = r.points[0].policies[0].firstCrossing_s;  // Static
        const auto& t0 = base.points[0].policies[0].firstCrossing_s;
        for (size_t k = 0; k < t.size(); ++k)
            QVERIFY2(std::abs(t[k] - t0[k]) <= 1e-6 * t0[k],
                     qPrintable(QString("%1 s against %2 s").arg(t[k]).arg(t0[k])));
    }

    void eventStormsFailInsteadOfHanging_data() {
        // Background jobs that cycle every microsecond used up the recording's event budget; the
        // replays then waited for it forever (validate accepts both). Now the run stops with an
        // error naming the keys.
        QTest::addColumn<Params>("params");
        {
            Params p = smallMl(4);
            p.backgroundJob.compute_s = 1e-6;
            p.backgroundJob.gradientBytes = 0;
            QTest::newRow("4 jobs, 1 us compute, no sync") << p;
        }
        {
            Params p = smallMl(1000);
            p.backgroundJob.compute_s = 1e-5;
            p.backgroundJob.gradientBytes = 1;
            QTest::newRow("1000 jobs, 10 us compute, 1-byte syncs") << p;
        }
    }
    void eventStormsFailInsteadOfHanging() {
        QFETCH(Params, params);
        try {
            (void)simulate(params);
            QFAIL("the run finished without reaching its event budget");
        } catch (const std::runtime_error& e) {
            const QString why = QString::fromUtf8(e.what());
            QVERIFY2(why.contains("needs more than") && why.contains("background_job.compute_ms"),
                     e.what());
        }
    }

    void tenGigabyteBuffersHaveExactWireVolume() {
        // > 2 GB (int32) buffers: 2(n-1)/n of 10 GB, never wrapped, negative or zero.
        QCOMPARE(ringWireBytesPerNode(10e9, 2), 10e9);
        QCOMPARE(ringWireBytesPerNode(10e9, 50), 2.0 * 49.0 / 50.0 * 10e9);
        QCOMPARE(ringWireBytesPerNode(4294967296.0 * 3, 4), 1.5 * 4294967296.0 * 3);
        QCOMPARE(ringWireBytesPerNode(10e9, 1), 0.0);
    }

    void collectivesAboveTwoGigabytes() {
        // MOSAIC collectives on buffers around and above 2^31 bytes: positive, finite, growing
        // with the size, and never faster than the link (achieved bus bandwidth <= NVLink, the
        // fastest link of the node).
        const auto hw = mosaic::builtinHardware("p6-b200");
        for (auto c : {mosaic::Collective::AllReduce, mosaic::Collective::ReduceScatter,
                       mosaic::Collective::AllGather, mosaic::Collective::AllToAll}) {
            for (int size : {8, 64}) {
                double prev = 0;
                for (double bytes : {1e9, 2147483647.0, 2147483648.0, 4294967296.0, 10e9}) {
                    const double t = mosaic::collectiveTime(hw, c, bytes, size, 1);
                    QVERIFY2(std::isfinite(t) && t > prev,
                             qPrintable(QString("%1 B on %2: %3 s").arg(bytes).arg(size).arg(t)));
                    const double achieved = bytes * mosaic::busFactor(c, size) / t;
                    QVERIFY(achieved <= hw.nvlinkBytesPerS * (1 + 1e-12));
                    prev = t;
                }
            }
        }
    }

    void mosaic_data() {
        QTest::addColumn<mosaic::Envelope>("envelope");
        QTest::addColumn<bool>("expectFeasible");
        QTest::newRow("small envelope") << smallEnvelope() << true;
        {
            auto e = smallEnvelope();
            e.nodes = 1;
            e.hardware = mosaic::builtinHardware("h100");
            QTest::newRow("1 node H100 (too small for q 8-10)") << e << false;
        }
        {
            auto e = smallEnvelope();
            e.nodes = 1;
            e.hardware.gpusPerNode = 1;  // 1 GPU
            e.qValues = {8};
            QTest::newRow("1 GPU") << e << false;
        }
        {
            auto e = smallEnvelope();
            e.days = 1;  // D* < 40 N_act for every geometry: infeasible, said so
            QTest::newRow("1-day window, 4 nodes") << e << false;
        }
        {
            auto e = smallEnvelope();
            e.days = 1;
            e.nodes = 64;
            QTest::newRow("1-day window, 64 nodes") << e << true;
        }
        {
            auto e = smallEnvelope();
            e.days = 365;
            QTest::newRow("365-day window") << e << true;
        }
        {
            auto e = smallEnvelope();
            e.expertValues = {512};
            e.topKValues = {2, 8};
            QTest::newRow("512 experts, 4 nodes (no memory)") << e << false;
        }
        {
            auto e = smallEnvelope();
            e.expertValues = {512};
            e.topKValues = {2, 8};
            e.nodes = 64;
            e.qValues = {8};
            QTest::newRow("512 experts, 64 nodes") << e << true;
        }
        {
            auto e = smallEnvelope();
            e.nodes = 256;  // cluster slider's high end
            e.days = 90;    // window slider's high end
            QTest::newRow("256 nodes, 90 days") << e << true;
        }
        {
            auto e = smallEnvelope();
            e.globalBatch = 1;  // not divisible by any DP > 1
            QTest::newRow("global batch 1") << e << false;
        }
    }

    void mosaic() {
        QFETCH(mosaic::Envelope, envelope);
        QFETCH(bool, expectFeasible);
        const auto r = mosaic::search(envelope);
        const QString bad = moeInvariants(envelope, r);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        // Infeasible is an explicit answer: no optimum, NaN cluster-optimal sparsity, every
        // cluster-optimal bin marked infeasible.
        if (r.optimum < 0) {
            QVERIFY(std::isnan(r.clusterOptimalSparsity));
            for (const auto& f : r.clusterOptimal) QVERIFY(!f.feasible);
        }
        QCOMPARE(r.optimum >= 0, expectFeasible);
    }

    void plan512Experts() {
        // A 512-expert model costed on 8 and 64 GPUs: either feasible layouts within memory
        // and MFU <= 1, or none (the CLI prints "No feasible layout").
        mosaic::Geometry g = mosaic::ladderGeometry(8, 512, 8, 8);
        for (int devices : {8, 64}) {
            mosaic::Cluster c;
            c.devices = devices;
            for (const auto& [p, ev] : mosaic::planLayouts(g, c, {}, 0)) {
                QVERIFY(ev.mfu > 0 && ev.mfu <= 1);
                QVERIFY(ev.memoryGB * 1e9 <= c.hardware.memoryBytes * (1 + 1e-9));
                QCOMPARE(p.dp % p.ep, 0);
            }
        }
    }
};

TANDEM_TEST_APPLESS_MAIN(TstEngineExtremes)
#include "tst_engine_extremes.moc"
