// The analytical collective model against published nccl-tests runs (MODEL.md B4, "Published
// points ... Collectives"): its peak bus bandwidth for each copied log in tests/data/nccl, read
// from the file, must lie in the band; the NCCL bus-factor conventions; the pipelined
// hierarchical stages by hand.
#include <QtTest>
#include <cmath>
#include <optional>
#include <string>

#include "common/diagnostics.h"
#include "io/nccl_tests.h"
#include "mosaic/collectives.h"
#include "mosaic/hardware.h"
#include "test_data.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::mosaic;

namespace {

/// The `c` curve of tests/data/nccl/`file` (ranks > 1, points); std::nullopt with `why` set
/// when the file does not import cleanly or holds no usable such curve.
std::optional<io::NcclCurve> loadCurve(const QString& file, Collective c, std::string& why) {
    Diagnostics d;
    const auto imp = io::loadNcclTestsFile(test::ncclTestsFile(file.toStdString()), d);
    if (!imp || !d.ok()) {
        why = d.str();
        return std::nullopt;
    }
    const io::NcclCurve* curve = io::findCurve(*imp, widen(ncclCollectives(), c));
    if (!curve || curve->ranks <= 1 || curve->points.empty()) {
        why = file.toStdString() + ": no usable " + collectiveName(c) + " curve";
        return std::nullopt;
    }
    return *curve;
}

/// S x busFactor / analytical time, bytes/s.
double analyticalBusbw(const Hardware& hw, Collective c, double bytes, int ranks) {
    return bytes * busFactor(c, ranks) / analyticalCollectiveTime(hw, c, bytes, ranks, 1);
}

}  // namespace

class TstMosaicCollectives : public QObject {
    Q_OBJECT
private slots:
    /// nccl-tests PERFORMANCE.md: all-reduce 2(n-1)/n, reduce-scatter / all-gather /
    /// all-to-all (n-1)/n, nothing for a single rank.
    void busFactors_data() {
        QTest::addColumn<int>("collective");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<double>("factor");
        QTest::newRow("all_reduce 16") << int(Collective::AllReduce) << 16 << 30.0 / 16;
        QTest::newRow("all_reduce 80") << int(Collective::AllReduce) << 80 << 158.0 / 80;
        QTest::newRow("all_reduce 2") << int(Collective::AllReduce) << 2 << 1.0;
        QTest::newRow("reduce_scatter 80") << int(Collective::ReduceScatter) << 80 << 79.0 / 80;
        QTest::newRow("all_gather 8") << int(Collective::AllGather) << 8 << 7.0 / 8;
        QTest::newRow("alltoall 80") << int(Collective::AllToAll) << 80 << 79.0 / 80;
        QTest::newRow("alltoall 1") << int(Collective::AllToAll) << 1 << 0.0;
        QTest::newRow("all_reduce 0") << int(Collective::AllReduce) << 0 << 0.0;
    }
    void busFactors() {
        QFETCH(int, collective);
        QFETCH(int, ranks);
        QFETCH(double, factor);
        QCOMPARE(busFactor(Collective(collective), ranks), factor);
        // The same convention as the nccl-tests reader's.
        if (ranks > 1)
            QCOMPARE(
                io::busBandwidthFactor(widen(ncclCollectives(), Collective(collective)), ranks),
                factor);
    }

    /// Two stages of 3 ms and 1 ms: one chunk -> their sum; 100 chunks -> 3 + 1/100 ms.
    void collectiveNamesRoundTrip() {
        // The nccl-tests words, each read back to its collective; other nccl-tests collectives
        // are not costed.
        QCOMPARE(
            enumNames(collectiveNames()),
            (std::vector<std::string>{"all_reduce", "reduce_scatter", "all_gather", "alltoall"}));
        for (const auto& e : collectiveNames()) {
            QVERIFY(enumFromName(collectiveNames(), collectiveName(e.value)) == e.value);
            // The same word as the nccl-tests collective it is, which narrows back to it.
            const io::Collective nccl = widen(ncclCollectives(), e.value);
            QCOMPARE(std::string(io::name(nccl)), std::string(collectiveName(e.value)));
            QVERIFY(narrow(ncclCollectives(), nccl) == e.value);
        }
        QVERIFY(!enumFromName(collectiveNames(), "broadcast"));
        for (io::Collective other :
             {io::Collective::Broadcast, io::Collective::Reduce, io::Collective::SendRecv,
              io::Collective::Scatter, io::Collective::Gather, io::Collective::Hypercube})
            QVERIFY(!narrow(ncclCollectives(), other));
    }

    void pipelinedStagesByHand() {
        QCOMPARE(pipelinedStages(3e-3, 1e-3, kPipelineChunkBytes / 2), 4e-3);
        QCOMPARE(pipelinedStages(1e-3, 3e-3, kPipelineChunkBytes), 4e-3);
        QCOMPARE(pipelinedStages(3e-3, 1e-3, 100 * kPipelineChunkBytes), 3e-3 + 1e-5);
        QCOMPARE(pipelinedStages(0.0, 2e-3, 8 * kPipelineChunkBytes), 2e-3);
    }

    /// 16 ranks on two nodes of 8, no ramp or fixed latency, NIC efficiency 0.9: NVLink stage
    /// 1 GiB x 2 x 7/8 at 450 GB/s = 4.1757 ms, NIC stage 1/8 GiB x 1 at 45 GB/s = 2.9826 ms;
    /// 256 chunks of 4 MiB: t = 4.1757 + 2.9826 / 256 ms (the sum, 7.158 ms, was the model
    /// before), plus the tree's steps 2 (7 x 3.4 + 1 x 14) us = 75.6 us.
    void hierarchicalAllReduceByHand() {
        Hardware hw = builtinHardware("h100");
        hw.rampHalfBytes = 0;
        hw.interLatency_s = 0;
        hw.interBusEfficiency = 0.9;
        const double treeSteps = 2 * (7 * kNvlinkStepLatency_s + kNetStepLatency_s);
        const double S = 1073741824.0;
        const double intra = S * 1.75 / (450e9 * hw.intraBusEfficiency);
        const double inter = S / 8 * 1.0 / (50e9 * 0.9);
        QCOMPARE(hw.intraBusEfficiency, 1.0);
        const double t = analyticalCollectiveTime(hw, Collective::AllReduce, S, 16, 1);
        QVERIFY2(std::abs(t - (treeSteps + intra + inter / 256)) < 1e-15,
                 qPrintable(QString::number(t, 'g', 12)));
        QVERIFY(std::abs(intra - 4.17566e-3) < 1e-8);
        QVERIFY(std::abs(inter - 2.98262e-3) < 1e-8);
        // Reduce-scatter is NCCL's ring across nodes: 15/16 S over min(450, 8 x 45) GB/s, 15
        // steps of which one crosses the network.
        const double rs = analyticalCollectiveTime(hw, Collective::ReduceScatter, S, 16, 1);
        const double rsByHand = 14 * kNvlinkStepLatency_s + kNetStepLatency_s + S * 15 / 16 / 360e9;
        QVERIFY2(std::abs(rs - rsByHand) < 1e-15, qPrintable(QString::number(rs, 'g', 12)));
    }

    /// Peak analytical bus bandwidth (at the file's sizes) against the file's max busbw, for
    /// the hardware file of that GPU; group = the run's ranks, packed (stride 1).
    void peakAgainstMeasured_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<int>("collective");
        QTest::addColumn<double>("band");  // relative
        QTest::newRow("H100 2x8 all_reduce")
            << "H100-all_reduce-2x8-awsome-distributed-training.txt"
            << "p5-efa" << int(Collective::AllReduce) << 0.15;
        QTest::newRow("H100 10x8 all_reduce") << "H100-all_reduce-10x8-nccl-tests-cluster.txt"
                                              << "h100" << int(Collective::AllReduce) << 0.20;
        QTest::newRow("H100 10x8 alltoall") << "H100-alltoall-10x8-nccl-tests-cluster.txt"
                                            << "h100" << int(Collective::AllToAll) << 0.20;
        QTest::newRow("A100 2x8 all_reduce")
            << "A100-all_reduce-2x8-awsome-distributed-training.txt"
            << "a100" << int(Collective::AllReduce) << 0.20;
        QTest::newRow("A100 1x8 alltoall") << "A100-alltoall-1x8-superbenchmark.txt"
                                           << "a100" << int(Collective::AllToAll) << 0.20;
        QTest::newRow("A100 1x8 reduce_scatter")
            << "A100-reduce_scatter-1x8-superbenchmark.txt"
            << "a100" << int(Collective::ReduceScatter) << 0.20;
    }
    void peakAgainstMeasured() {
        QFETCH(QString, file);
        QFETCH(QString, hardware);
        QFETCH(int, collective);
        QFETCH(double, band);
        std::string why;
        const auto curve = loadCurve(file, Collective(collective), why);
        QVERIFY2(curve, why.c_str());
        const Hardware hw = builtinHardware(hardware.toStdString());
        double peak = 0;
        for (const auto& p : curve->points)
            if (p.bytes > 0)
                peak = std::max(peak,
                                analyticalBusbw(hw, Collective(collective), p.bytes, curve->ranks));
        const double measured = curve->peakBusbw_Bps;
        qInfo("%s: %d ranks, analytical peak %.1f GB/s, measured max %.1f GB/s (%+.1f %%)",
              qPrintable(file), curve->ranks, peak / 1e9, measured / 1e9,
              100 * (peak / measured - 1));
        QVERIFY(measured > 0);
        QVERIFY2(std::abs(peak / measured - 1) <= band,
                 qPrintable(QString::number(peak / measured, 'f', 3)));
    }

    /// The size ramp (ramp_half_MB 20 in the h100 and a100 files, fitted to these logs; was 4):
    /// over the sizes from 1 MiB up, the geometric mean of analytical / measured busbw lies
    /// within exp(+-band). Inside one node the band is 0.2 (0.82-1.22). Across nodes the
    /// network's fixed start-up is fitted at sizes >= 64 MiB (docs/MODEL-NETWORK.md section 4),
    /// where the model is within 4 % on both 2 x 8 logs; below 64 MiB it is slower than measured
    /// (NCCL switches to its low-latency protocols there), geometric mean 0.71-0.74: band 0.35.
    void rampAgainstMeasured_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<int>("collective");
        QTest::addColumn<double>("band");
        QTest::newRow("H100 2x8 all_reduce")
            << "H100-all_reduce-2x8-awsome-distributed-training.txt"
            << "p5-efa" << int(Collective::AllReduce) << 0.35;
        QTest::newRow("A100 2x8 all_reduce")
            << "A100-all_reduce-2x8-awsome-distributed-training.txt"
            << "a100" << int(Collective::AllReduce) << 0.35;
        QTest::newRow("A100 1x8 alltoall") << "A100-alltoall-1x8-superbenchmark.txt"
                                           << "a100" << int(Collective::AllToAll) << 0.2;
        QTest::newRow("A100 1x8 reduce_scatter") << "A100-reduce_scatter-1x8-superbenchmark.txt"
                                                 << "a100" << int(Collective::ReduceScatter) << 0.2;
    }
    void rampAgainstMeasured() {
        QFETCH(QString, file);
        QFETCH(QString, hardware);
        QFETCH(int, collective);
        QFETCH(double, band);
        std::string why;
        const auto curve = loadCurve(file, Collective(collective), why);
        QVERIFY2(curve, why.c_str());
        const Hardware hw = builtinHardware(hardware.toStdString());
        double sumLog = 0;
        int n = 0;
        for (const auto& p : curve->points) {
            if (p.bytes < 1048576.0) continue;
            const double an = analyticalBusbw(hw, Collective(collective), p.bytes, curve->ranks);
            sumLog += std::log(an / p.busbw_Bps);
            ++n;
            if (p.bytes == 67108864.0)
                qInfo("%s at 64 MiB: analytical %.1f GB/s, measured %.1f GB/s", qPrintable(file),
                      an / 1e9, p.busbw_Bps / 1e9);
        }
        QVERIFY(n >= 10);
        const double meanLog = sumLog / n;
        qInfo("%s: geometric mean analytical / measured over %d sizes >= 1 MiB: %.3f",
              qPrintable(file), n, std::exp(meanLog));
        QVERIFY2(std::abs(meanLog) <= band, qPrintable(QString::number(std::exp(meanLog), 'f', 3)));
    }

    /// The pipelined model never undercuts the slower stage and never exceeds the old sum, at
    /// every measured size of the H100 2x8 run (ramp and latency included).
    void pipelinedBetweenSlowerStageAndSum() {
        std::string why;
        const auto curve =
            loadCurve(QStringLiteral("H100-all_reduce-2x8-awsome-distributed-training.txt"),
                      Collective::AllReduce, why);
        QVERIFY2(curve, why.c_str());
        const Hardware hw = builtinHardware("p5-efa");
        int trees = 0;
        for (const auto& p : curve->points) {
            const double S = p.bytes;
            const double ramp = S / (S + hw.rampHalfBytes);
            const double intra = S * 1.75 / (hw.nvlinkBytesPerS * hw.intraBusEfficiency * ramp);
            const double inter = S / 8 / (hw.nicBytesPerS * hw.interBusEfficiency * ramp);
            const CollectiveCost cost =
                analyticalCollectiveCost(hw, Collective::AllReduce, S, 16, 1);
            if (cost.algorithm != CollectiveAlgorithm::Tree) continue;  // small sizes: the ring
            const double t = cost.transfer_s;
            ++trees;
            QVERIFY(t >= std::max(intra, inter) * (1 - 1e-12));
            QVERIFY(t <= (intra + inter) * (1 + 1e-12));
        }
        QVERIFY(trees >= 5);
    }
};

TANDEM_TEST_APPLESS_MAIN(TstMosaicCollectives)
#include "tst_mosaic_collectives.moc"
