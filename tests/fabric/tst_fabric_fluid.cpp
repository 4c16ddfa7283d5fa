// Hand-checkable cases of the fluid network and the event-driven simulation [MODEL.md A3].
#include <QtTest>
#include <cmath>

#include "fabric/fabric_sim.h"
#include "fabric/fluid.h"
#include "mlforml/exposure.h"
#include "test_main.h"

using namespace tandem::mlforml;
using namespace tandem::fabric;

namespace {

/// Foreground job on `nodes` nodes: `iterations` times `compute_s` s of compute, then a sync of
/// `bytesPerNode` wire bytes per node; starts at 0, no overlap.
ForegroundSpec foreground(int nodes, double bytesPerNode, double compute_s, int iterations) {
    ForegroundSpec fg;
    fg.nodes = nodes;
    fg.bytesPerNode = bytesPerNode;
    fg.compute_s = compute_s;
    fg.iterations = iterations;
    return fg;
}

/// `count` live background jobs of `nodes` nodes each: `compute_s` s of compute, then a sync of
/// `bytesPerNode` wire bytes per node in one burst, no jitter.
LiveJobSpec liveJobs(int count, int nodes, double bytesPerNode, double compute_s) {
    LiveJobSpec bg;
    bg.count = count;
    bg.nodes = nodes;
    bg.bytesPerNode = bytesPerNode;
    bg.compute_s = compute_s;
    return bg;
}

}  // namespace

class TestFabricFluid : public QObject {
    Q_OBJECT
private slots:
    void ringVolume_data() {
        QTest::addColumn<double>("bytes");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<double>("expected");
        QTest::newRow("1 node: no inter-node traffic") << 1e9 << 1 << 0.0;
        QTest::newRow("2 nodes: V") << 1e9 << 2 << 1e9;
        QTest::newRow("8 nodes: 7/4 V") << 2e9 << 8 << 3.5e9;
    }
    void ringVolume() {
        QFETCH(double, bytes);
        QFETCH(int, nodes);
        QFETCH(double, expected);
        QCOMPARE(ringWireBytesPerNode(bytes, nodes), expected);
    }

    void twoEqualFlowsShareOneLink() {
        // Fabric 10 GB/s is the bottleneck (NICs 100 GB/s): each 1-node flow gets half.
        FluidNetwork net(10e9, 100e9);
        const int a = net.addGroup(1), b = net.addGroup(1);
        const int fa = net.startFlow(a, 1e9, 0), fb = net.startFlow(b, 1e9, 1);
        net.recomputeRates();
        QCOMPARE(net.flowRate(fa), 5e9);
        QCOMPARE(net.flowRate(fb), 5e9);
        QCOMPARE(net.timeToNextCompletion(), 0.2);
    }

    void nicCapAndWaterFilling() {
        // Group A has two flows on its NIC (cap 4/2 = 2 each); B takes the remaining fabric.
        FluidNetwork net(10e9, 4e9);
        const int a = net.addGroup(1), b = net.addGroup(1);
        const int f1 = net.startFlow(a, 1e9, 0);
        net.startFlow(a, 1e9, 1);
        const int f3 = net.startFlow(b, 1e9, 2);
        net.recomputeRates();
        QCOMPARE(net.flowRate(f1), 2e9);
        QCOMPARE(net.flowRate(f3), 4e9);  // NIC-capped even though 6 GB/s of fabric is left
        QVERIFY(net.fabricRate(0, 2) <= 10e9 * (1 + 1e-12));
    }

    void flowAloneFinishesInVolumeOverRate() {
        // One foreground sync of 2 nodes, V = 1 GB -> 1 GB per node at 5 GB/s NIC: 0.2 s.
        FabricSim sim(1e12, 5e9, 1.0, 0.0);
        sim.setForeground(foreground(2, ringWireBytesPerNode(1e9, 2), 0.1, 3));
        sim.run(100);
        QVERIFY(sim.foregroundDone());
        QCOMPARE(sim.exposedDpTimes().size(), size_t(3));
        for (double e : sim.exposedDpTimes()) QVERIFY(std::fabs(e - 0.2) < 1e-9);
        QVERIFY(std::fabs(sim.now() - 3 * 0.3) < 1e-9);
    }

    void oneNodeMeansZeroDpTime() {
        FabricSim sim(1e12, 5e9, 1.0, 0.0);
        sim.setForeground(foreground(1, ringWireBytesPerNode(3e9, 1), 0.05, 4));
        sim.run(100);
        QVERIFY(sim.foregroundDone());
        for (double e : sim.exposedDpTimes()) QCOMPARE(e, 0.0);
    }

    void overlapWindowHidesTransfer() {
        // 0.2 s transfer, 0.15 s of it hidden behind compute: 0.05 s exposed.
        FabricSim sim(1e12, 5e9, 1.0, 0.0);
        ForegroundSpec fg = foreground(2, 1e9, 0.3, 2);
        fg.overlap_s = 0.15;
        sim.setForeground(fg);
        sim.run(100);
        for (double e : sim.exposedDpTimes()) QVERIFY(std::fabs(e - 0.05) < 1e-9);
    }

    void largeGradientNoOverflow() {
        // 4 GB gradient in FP32-equivalent bytes over 64 nodes next to 16 background jobs:
        // finite, non-negative times and an achieved rate that never exceeds the NIC.
        tandem::mlforml::Params p;
        p.foregroundParameters = 4e9 / 2.0;  // 4 GB in BF16
        p.foregroundNodes = 64;
        p.replayIterations = 2;
        p.startOffsets = 1;
        const auto combos = actionSpace(p);
        const auto tab = measureExposure(p, combos, 16, 3, nullptr);
        for (size_t c = 0; c < combos.size(); ++c)
            for (double e : tab.samples[c]) {
                QVERIFY(std::isfinite(e));
                QVERIFY(e >= 0);
                const double wire = foregroundWireBytes(p, combos[c].p);
                QVERIFY(wire / e <= p.nicBytesPerS * (1 + 1e-9));
            }
    }

    void latencyLikeComputeGapStaysSane() {
        // A 10 ms gap between syncs and a 4 GB sync on a slow fabric: time only moves forward.
        FabricSim sim(50e9, 12.5e9, 1.0, 0.0);
        sim.addLiveJobs(liveJobs(3, 4, ringWireBytesPerNode(4e9, 4), 0.010), true);
        sim.run(20);
        double last = -1;
        for (const auto& t : sim.transfers()) {
            QVERIFY(t.start_s >= last);
            last = t.start_s;
        }
        for (double r : sim.rateValues()) QVERIFY(r <= 50e9 * (1 + 1e-9));
        QVERIFY(!sim.transfers().empty());
    }

    void burstySyncIsSplitWithGaps() {
        // One job alone, 4 nodes, 8 GB per node per sync in 4 bursts of 2 GB with 100 ms gaps,
        // NIC 10 GB/s: burst 0.2 s, gap 0.1 s -> bursts start at t0, t0 + 0.3, + 0.6, + 0.9;
        // compute (1 s) follows the last burst (ends t0 + 1.1), next sync at t0 + 2.1.
        FabricSim sim(1e12, 10e9, 1.0, 0.0);
        LiveJobSpec bg = liveJobs(1, 4, 8e9, 1.0);
        bg.syncBursts = 4;
        bg.burstGap_s = 0.1;
        sim.addLiveJobs(bg, true);
        sim.run(5);
        const auto& tr = sim.transfers();
        QVERIFY(tr.size() >= 8);
        const double t0 = tr[0].start_s;
        const double expect[8] = {0, 0.3, 0.6, 0.9, 2.1, 2.4, 2.7, 3.0};
        for (int i = 0; i < 8; ++i) {
            QCOMPARE(tr[i].bytesPerNode, 2e9);
            QVERIFY2(std::fabs(tr[i].start_s - t0 - expect[i]) < 1e-6,
                     qPrintable(QString("burst %1 at %2").arg(i).arg(tr[i].start_s - t0)));
        }
        // One burst is the old behaviour: a single 8 GB transfer per cycle.
        FabricSim one(1e12, 10e9, 1.0, 0.0);
        bg.syncBursts = 1;
        one.addLiveJobs(bg, true);
        one.run(5);
        QCOMPARE(one.transfers()[0].bytesPerNode, 8e9);
        QVERIFY(std::fabs(one.transfers()[1].start_s - one.transfers()[0].start_s - 1.8) < 1e-6);
    }

    void zeroBandwidthDoesNotHang() {
        FabricSim sim(0.0, 0.0, 1.0, 0.0);
        sim.setForeground(foreground(4, 1e9, 0.1, 2));
        sim.run(50);
        QVERIFY(!sim.foregroundDone());
        QVERIFY(sim.exposedDpTimes().empty());
        QCOMPARE(sim.now(), 50.0);
    }

    void percentileOfConstantRate() {
        // 100 GB/s for 10 s -> every 50 ms window holds 5 GB.
        const double p95 = percentileBytesPerWindow({0.0}, {100e9}, 0, 10, 0.05, 0.95);
        QVERIFY(std::fabs(p95 - 5e9) < 1e-3 * 5e9);
    }

    void openLoopReplayBuildsBacklog() {
        // Replaying the same recording with a foreground added leaves background flows
        // unfinished (backlog) while the closed-loop recording never has more than one per job.
        FabricSim rec(100e9, 12.5e9, 1.0, 0.0);
        rec.addLiveJobs(liveJobs(4, 4, 2e9, 0.05), true);
        FabricSim rep(100e9, 12.5e9, 1.0, 0.0);
        rep.replayFrom(&rec, 4, 4);
        ForegroundSpec fg = foreground(16, 4e9, 0.1, 4);
        fg.start_s = 1.0;
        rep.setForeground(fg);
        rep.run(1000);
        QVERIFY(rep.foregroundDone());
        const auto& e = rep.exposedDpTimes();
        QCOMPARE(e.size(), size_t(4));
        // Alone the sync would take 4 GB / (100/16 GB/s) = 0.64 s; sharing makes it longer.
        for (double x : e) QVERIFY(x > 0.64);
    }
};

TANDEM_TEST_APPLESS_MAIN(TestFabricFluid)
#include "tst_fabric_fluid.moc"
