// The one collective model against the shipped nccl-tests logs [docs/MODEL-NETWORK.md section 4]:
// every log whose node is a built-in, sizes >= 64 MiB; the stored network constants of each
// scale-out network are the fit's optimum over its logs; leave-one-log-out where a network has
// more than one log; the logs' nodes are named on the command line by their own names.
#include <QtTest>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "common/json_reader.h"
#include "fabric/fabric_sim.h"
#include "io/nccl_tests.h"
#include "mosaic/hardware.h"
#include "mosaic/network_fit.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::mosaic;

namespace {

/// Every shipped log, the built-in it ran on, and its largest |error| at sizes >= 64 MiB with
/// the stored constants (in-sample, %), rounded up to 0.1 %.
struct ShippedLog {
    const char* file;
    const char* hardware;
    double maxAbsErrorPct;
};
const ShippedLog kLogs[] = {
    {"A100-all_reduce-2x8-awsome-distributed-training.txt", "p4de-efa", 3.7},
    {"A100-alltoall-1x8-superbenchmark.txt", "a100", 17.5},
    {"A100-reduce_scatter-1x8-superbenchmark.txt", "a100", 7.2},
    {"GB200-all_reduce-18x4-coreweave.txt", "gb200-nvl72", 21.1},
    {"GB200-all_reduce-36x4-coreweave.txt", "gb200-nvl72", 13.1},
    {"H100-all_reduce-10x8-nccl-tests-cluster.txt", "h100-ib-8x400g", 20.3},
    {"H100-reduce_scatter-10x8-nccl-tests-cluster.txt", "h100-ib-8x400g", 20.3},
    {"H100-alltoall-10x8-nccl-tests-cluster.txt", "h100-ib-8x400g", 20.3},
    {"H100-all_reduce-8x8-coreweave-sharp.txt", "h100-ib-8x400g", 11.1},
    {"H100-all_reduce-2x8-awsome-distributed-training.txt", "p5-efa", 3.3},
    {"H100-all_reduce-2x8-gcp-a3mega-lessizzmore.txt", "a3-mega", 0.5},
};

std::vector<NetworkRow> rowsOf(const std::string& file) {
    Diagnostics d;
    const auto imp = io::loadNcclTestsFile(std::string(TANDEM_TEST_DATA) + "/nccl/" + file, d);
    std::vector<NetworkRow> out;
    if (!imp) return out;
    for (const auto& c : imp->curves)
        for (const auto& r : networkRows(c, file)) out.push_back(r);
    return out;
}

double worstError(const Hardware& hw, const std::vector<NetworkRow>& rows) {
    double w = 0;
    for (const auto& r : rows) w = std::max(w, std::fabs(busBandwidthError(hw, r)));
    return w;
}

}  // namespace

class TestMosaicNetworkFit : public QObject {
    Q_OBJECT
private slots:
    /// The nodes of the logs are named on the command line; the aliases are the same node.
    void nodesByName() {
        QCOMPARE(builtinHardware("h100-ib-8x400g").name, std::string("h100"));
        QCOMPARE(builtinHardware("p4de-efa").name, std::string("a100"));
        const Hardware p5 = builtinHardware("p5-efa"), a3 = builtinHardware("a3-mega");
        // p5: 32 x 100 Gb/s EFA for 8 GPUs = 50 GB/s each; A3 Mega: 200 Gb/s = 25 GB/s each.
        QCOMPARE(p5.nicBytesPerS, 32 * 100e9 / 8 / 8);
        QCOMPARE(a3.nicBytesPerS, 200e9 / 8);
        QCOMPARE(p5.peakFlops, builtinHardware("h100").peakFlops);
    }

    /// Every log within its stated in-sample error; the list covers every shipped log but the
    /// H100 2x8 all-to-all of a cluster whose NICs are not stated (docs: not expressible).
    void shippedLogs() {
        std::vector<std::string> wrong;
        for (const auto& l : kLogs) {
            const auto rows = rowsOf(l.file);
            QVERIFY2(rows.size() >= 5, l.file);
            const double w = worstError(builtinHardware(l.hardware), rows);
            qInfo("%-55s %-15s max |error| %.2f %%", l.file, l.hardware, 100 * w);
            if (w > l.maxAbsErrorPct / 100 || w <= l.maxAbsErrorPct / 100 - 0.002)
                wrong.push_back(l.file);  // above its bound, or the table is not current
        }
        QVERIFY2(wrong.empty(), wrong.empty() ? "" : wrong.front().c_str());
    }

    /// The stored constants of each scale-out network are fitNetworkConstants' optimum over
    /// every row of its logs (largest |error| within 0.05 percentage points of the optimum).
    void storedConstantsAreTheFit() {
        std::map<std::string, std::vector<NetworkRow>> byNode;
        for (const auto& l : kLogs)
            for (const auto& r : rowsOf(l.file))
                byNode[builtinHardware(l.hardware).name].push_back(r);
        std::vector<std::string> drifted;
        for (const char* node : {"h100", "a100", "p5-efa", "a3-mega"}) {
            const Hardware hw = builtinHardware(node);
            const NetworkFit fit = fitNetworkConstants(hw, byNode[node]);
            qInfo(
                "%-8s fitted inter latency %.2f us, efficiency %.5f, max |error| %.2f %%; stored "
                "%.2f us, %.5f",
                node, fit.interLatency_s * 1e6, fit.interBusEfficiency, 100 * fit.maxAbsError,
                hw.interLatency_s * 1e6, hw.interBusEfficiency);
            std::vector<NetworkRow> across;
            for (const auto& r : byNode[node])
                if (groupSpan(r.ranks, 1, hw.gpusPerNode).nodes > 1) across.push_back(r);
            if (worstError(hw, across) > fit.maxAbsError + 5e-4) drifted.push_back(node);
        }
        QVERIFY2(drifted.empty(), drifted.empty() ? "" : drifted.front().c_str());
        // A node whose logs never leave one NVLink domain cannot be fitted.
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            fitNetworkConstants(builtinHardware("a100"),
                                rowsOf("A100-reduce_scatter-1x8-superbenchmark.txt")));
    }

    /// Leave one log out on the InfiniBand node (the only network with several logs): fit on
    /// the others, predict it. Largest |error| per log, %, rounded up to 0.1 %.
    void leaveOneLogOut() {
        const std::pair<const char*, double> expected[] = {
            {"H100-all_reduce-10x8-nccl-tests-cluster.txt", 25.5},
            {"H100-reduce_scatter-10x8-nccl-tests-cluster.txt", 28.6},
            {"H100-alltoall-10x8-nccl-tests-cluster.txt", 25.5},
            {"H100-all_reduce-8x8-coreweave-sharp.txt", 11.1},
        };
        for (const auto& [left, bound] : expected) {
            std::vector<NetworkRow> others;
            for (const auto& [file, unused] : expected)
                if (std::string(file) != left)
                    for (const auto& r : rowsOf(file)) others.push_back(r);
            Hardware hw = builtinHardware("h100");
            const NetworkFit fit = fitNetworkConstants(hw, others);
            hw.interLatency_s = fit.interLatency_s;
            hw.interBusEfficiency = fit.interBusEfficiency;
            const double w = worstError(hw, rowsOf(left));
            qInfo("leave out %-50s max |error| %.2f %%", left, 100 * w);
            QVERIFY2(w <= bound / 100, left);
            QVERIFY2(w > bound / 100 - 0.002, left);
        }
    }

    /// The same leave-one-log-out with the CoreWeave log costed with SHARP on (its cluster has
    /// it; NetworkRow::sharp): that log is then predicted within 7.8 % instead of 11.0 %, but it
    /// no longer pins the NIC efficiency (the NVLink stage binds it), so the all-to-all left out
    /// is predicted worse (31.0 % instead of 25.4 %). Largest |error| per log, %, rounded up to
    /// 0.1 %, and the in-sample fit.
    void leaveOneLogOutWithSharp() {
        const std::pair<const char*, double> expected[] = {
            {"H100-all_reduce-10x8-nccl-tests-cluster.txt", 25.5},
            {"H100-reduce_scatter-10x8-nccl-tests-cluster.txt", 28.5},
            {"H100-alltoall-10x8-nccl-tests-cluster.txt", 31.0},
            {"H100-all_reduce-8x8-coreweave-sharp.txt", 7.8},
        };
        auto rowsWithSharp = [](const std::string& file) {
            auto rows = rowsOf(file);
            for (auto& r : rows) r.sharp = file == "H100-all_reduce-8x8-coreweave-sharp.txt";
            return rows;
        };
        std::vector<NetworkRow> all;
        for (const auto& [file, unused] : expected)
            for (const auto& r : rowsWithSharp(file)) all.push_back(r);
        const NetworkFit inSample = fitNetworkConstants(builtinHardware("h100"), all);
        qInfo("SHARP on for the CoreWeave log: in-sample %.2f %% (%.2f us, %.5f)",
              100 * inSample.maxAbsError, inSample.interLatency_s * 1e6,
              inSample.interBusEfficiency);
        QVERIFY(inSample.maxAbsError <= 20.3 / 100);
        QVERIFY(inSample.maxAbsError > 20.3 / 100 - 0.002);
        for (const auto& [left, bound] : expected) {
            std::vector<NetworkRow> others;
            for (const auto& [file, unused] : expected)
                if (std::string(file) != left)
                    for (const auto& r : rowsWithSharp(file)) others.push_back(r);
            Hardware hw = builtinHardware("h100");
            const NetworkFit fit = fitNetworkConstants(hw, others);
            hw.interLatency_s = fit.interLatency_s;
            hw.interBusEfficiency = fit.interBusEfficiency;
            const double w = worstError(hw, rowsWithSharp(left));
            qInfo("SHARP: leave out %-50s max |error| %.2f %%", left, 100 * w);
            QVERIFY2(w <= bound / 100, left);
            QVERIFY2(w > bound / 100 - 0.002, left);
        }
    }

    /// The form the 10 x 8 logs point to (docs/MODEL-NETWORK.md section 4, "What the logs
    /// say"), not the shipped constants: the all-to-all at the NICs' line rate
    /// (alltoall_nic_efficiency 1: direct sends, 0.92 measured) and the CoreWeave log costed with
    /// SHARP, as its cluster ran it. In-sample 14.8 % (169.14 us, 0.73242); left out: the
    /// all-reduce 15.4 %, the reduce-scatter 18.7 %, the all-to-all 8.3 %, the CoreWeave log
    /// 5.1 % (shipped form: 25.4, 28.5, 25.4, 11.0 %). Largest |error| per log, %, rounded up.
    void lineRateAllToAllWithSharpLeaveOneLogOut() {
        const std::pair<const char*, double> expected[] = {
            {"H100-all_reduce-10x8-nccl-tests-cluster.txt", 15.4},
            {"H100-reduce_scatter-10x8-nccl-tests-cluster.txt", 18.7},
            {"H100-alltoall-10x8-nccl-tests-cluster.txt", 8.3},
            {"H100-all_reduce-8x8-coreweave-sharp.txt", 5.1},
        };
        auto rows = [](const std::string& file) {
            auto r = rowsOf(file);
            for (auto& x : r) x.sharp = file == "H100-all_reduce-8x8-coreweave-sharp.txt";
            return r;
        };
        Hardware form = builtinHardware("h100");
        form.alltoallNicEfficiency = 1.0;
        std::vector<NetworkRow> all;
        for (const auto& [file, unused] : expected)
            for (const auto& r : rows(file)) all.push_back(r);
        const NetworkFit inSample = fitNetworkConstants(form, all);
        qInfo("line-rate all-to-all, SHARP log: in-sample %.3f %% (%.2f us, %.5f)",
              100 * inSample.maxAbsError, inSample.interLatency_s * 1e6,
              inSample.interBusEfficiency);
        QVERIFY(inSample.maxAbsError <= 0.148 && inSample.maxAbsError > 0.146);
        QVERIFY(std::fabs(inSample.interLatency_s - 169.14e-6) < 0.05e-6);
        QVERIFY(std::fabs(inSample.interBusEfficiency - 0.73242) < 5e-5);
        std::vector<std::string> wrong;
        for (const auto& [left, bound] : expected) {
            std::vector<NetworkRow> others;
            for (const auto& [file, unused] : expected)
                if (std::string(file) != left)
                    for (const auto& r : rows(file)) others.push_back(r);
            Hardware hw = form;
            const NetworkFit fit = fitNetworkConstants(hw, others);
            hw.interLatency_s = fit.interLatency_s;
            hw.interBusEfficiency = fit.interBusEfficiency;
            const double w = worstError(hw, rows(left));
            qInfo("line-rate all-to-all, SHARP log: leave out %-50s max |error| %.3f %%", left,
                  100 * w);
            if (w > bound / 100 || w <= bound / 100 - 0.002) wrong.push_back(left);
        }
        QVERIFY2(wrong.empty(), wrong.empty() ? "" : wrong.front().c_str());
    }

    /// The H100 10 x 8 reduce-scatter log fitted alone by any start-up + bytes / rate curve
    /// (a grid over 0-3 ms and 200-500 GB/s of bus bandwidth, no ramp) still errs 14.8 % at
    /// sizes >= 64 MiB (best: 600 us, 293 GB/s, below its own 315-323 GB/s plateau): its 128
    /// and 256 MiB rows have the same bus bandwidth (147.6 and 153.5 GB/s), its 512 MiB row 214.
    /// No model of that shape can predict it within 15 % from other logs.
    void reduceScatterAloneFloor() {
        const auto rows = rowsOf("H100-reduce_scatter-10x8-nccl-tests-cluster.txt");
        QCOMPARE(rows.size(), size_t(8));
        double best = INFINITY, bestA = 0, bestB = 0;
        for (int i = 0; i <= 300; ++i)
            for (int j = 0; j <= 300; ++j) {
                const double a = i * 10e-6, B = 200e9 + j * 1e9;
                double w = 0;
                for (const auto& r : rows) {
                    const double wire = r.bytes * busFactor(r.collective, r.ranks);
                    w = std::max(w, std::fabs(wire / (a + wire / B) / r.busbw_Bps - 1));
                }
                if (w < best) best = w, bestA = a, bestB = B;
            }
        qInfo("reduce-scatter 10 x 8 alone: %.2f %% at %.0f us, %.0f GB/s", 100 * best, bestA * 1e6,
              bestB / 1e9);
        QVERIFY(best > 0.146 && best < 0.149);
        QVERIFY(bestB < 300e9);
    }

    /// `alltoall_nic_efficiency`: read from a hardware file, written back only when set, and the
    /// all-to-all across nodes runs its network stage at that share of the line rate. By hand,
    /// 80 ranks on 10 nodes, 1 GiB: each node sends 8 x 72/80 S through 8 NICs of 50 GB/s.
    void alltoallEfficiencyKey() {
        Diagnostics d;
        const nlohmann::json file = {{"name", "h100"}, {"alltoall_nic_efficiency", 1.0}};
        JsonReader r(file, "$", d);
        const Hardware h = readHardware(r);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(h.alltoallNicEfficiency, 1.0);
        QCOMPARE(writeHardware(h)["alltoall_nic_efficiency"].get<double>(), 1.0);
        QVERIFY(!writeHardware(builtinHardware("h100")).contains("alltoall_nic_efficiency"));
        QVERIFY(!networkFitScope(h).has_value());  // a changed network: no log measured it
        const double S = 1 << 30, ramp = S / (S + 20e6);
        const CollectiveCost lineRate = analyticalCollectiveCost(h, Collective::AllToAll, S, 80, 1);
        QVERIFY(std::fabs(lineRate.networkBytesPerS - 8 * 50e9 * ramp) < 1.0);
        QVERIFY(std::fabs(lineRate.transfer_s - 8 * S * 72 / 80 / (8 * 50e9 * ramp)) < 1e-12);
        const CollectiveCost shipped =
            analyticalCollectiveCost(builtinHardware("h100"), Collective::AllToAll, S, 80, 1);
        QVERIFY(std::fabs(shipped.transfer_s * 0.87758 / lineRate.transfer_s - 1) < 1e-9);
        Diagnostics bad;
        const nlohmann::json badFile = {{"name", "h100"}, {"alltoall_nic_efficiency", 1.5}};
        JsonReader rb(badFile, "$", bad);
        readHardware(rb);
        QVERIFY(!bad.ok());
        QVERIFY(bad.str().find("alltoall_nic_efficiency") != std::string::npos);
    }

    /// What each node's constants were fitted on, and the sentence where a prediction leaves it.
    void extrapolationIsNamed() {
        const auto ib = networkFitScope(builtinHardware("h100"));
        QVERIFY(ib.has_value());
        QCOMPARE(ib->network, std::string("InfiniBand"));
        // 10 x 8 runs and the 8 x 8 excerpt, whose busbw / algbw says 96 ranks: 12 nodes.
        QCOMPARE(ib->minNodes, 10);
        QCOMPARE(ib->maxNodes, 12);
        QCOMPARE(networkFitScope(builtinHardware("p5-efa"))->maxNodes, 2);
        QVERIFY(!networkFitScope(builtinHardware("p6-b200")));  // the paper's node: no log
        Hardware changed = builtinHardware("h100");
        changed.nicBytesPerS = 100e9;  // a hardware file with 800 Gb/s NICs: no log measured it
        QVERIFY(!networkFitScope(changed));

        QCOMPARE(networkExtrapolation(builtinHardware("h100"), 1), std::string());
        QCOMPARE(networkExtrapolation(builtinHardware("h100"), 11), std::string());
        const std::string far = networkExtrapolation(builtinHardware("h100"), 128);
        QVERIFY2(far.find("128 nodes") != std::string::npos &&
                     far.find("10-12 nodes on InfiniBand") != std::string::npos,
                 far.c_str());
        const std::string two = networkExtrapolation(builtinHardware("a3-mega"), 4);
        QVERIFY2(two.find("runs of 2 nodes") != std::string::npos, two.c_str());
        const std::string none = networkExtrapolation(builtinHardware("p6-b200"), 2);
        QVERIFY2(none.find("fitted to no nccl-tests log") != std::string::npos, none.c_str());
    }

    /// The stage that bounds a collective: NIC across the 10 x 8 InfiniBand run at 1 GiB,
    /// NVLink inside a node, latency for a tiny buffer.
    void boundingStage() {
        const Hardware h100 = builtinHardware("h100");
        const double GiB = 1 << 30;
        QCOMPARE(int(analyticalCollectiveCost(h100, Collective::AllReduce, GiB, 80, 1).bound),
                 int(CollectiveBound::Network));
        QCOMPARE(int(analyticalCollectiveCost(h100, Collective::AllReduce, GiB, 8, 1).bound),
                 int(CollectiveBound::NvLink));
        QCOMPARE(int(analyticalCollectiveCost(h100, Collective::AllReduce, 1024, 80, 1).bound),
                 int(CollectiveBound::Latency));
    }

    /// Reduce-scatter and all-gather across nodes are NCCL's ring: on 2 nodes of 8 GPUs with
    /// one 400 Gb/s NIC each, a node's 8 NICs carry (N-1)/N S, so the bus bandwidth stays below
    /// 8 x 50 GB/s = 400 GB/s (a hierarchical all-gather would claim 750 GB/s); by hand with
    /// no latency, no ramp and efficiency 1: t = 15/16 S / min(450, 400) GB/s.
    void ringBoundAcrossNodes() {
        Hardware hw = builtinHardware("h100");
        hw.interLatency_s = 0;
        hw.rampHalfBytes = 0;
        hw.interBusEfficiency = 1;
        const double S = 1 << 30;
        const CollectiveCost c = analyticalCollectiveCost(hw, Collective::AllGather, S, 16, 1);
        QCOMPARE(int(c.algorithm), int(CollectiveAlgorithm::Ring));
        QVERIFY(std::fabs(c.transfer_s - 15.0 / 16 * S / 400e9) < 1e-12);
        // 15 steps, one of them across the network: 14 x 3.4 us + 14 us.
        QVERIFY(std::fabs(c.latency_s - (14 * kNvlinkStepLatency_s + kNetStepLatency_s)) < 1e-12);
        // All-reduce on the same nodes takes the hierarchical tree: the NIC stage carries S/8.
        const CollectiveCost ar = analyticalCollectiveCost(hw, Collective::AllReduce, S, 16, 1);
        QCOMPARE(int(ar.algorithm), int(CollectiveAlgorithm::Tree));
        // Latency grows with the ring's steps: 1,024 ranks of reduce-scatter pay 1,023 steps.
        const CollectiveCost big =
            analyticalCollectiveCost(hw, Collective::ReduceScatter, S, 1024, 1);
        QVERIFY(std::fabs(big.latency_s - (127 * kNetStepLatency_s + 896 * kNvlinkStepLatency_s)) <
                1e-12);
    }

    /// NVLS inside one NVLink domain (hw.nvlsEfficiency > 0): NCCL's bus bandwidth 2 x
    /// nvlsEfficiency x NVLink with its 23 us latency, taken where faster than the ring; by hand
    /// on 8 H100 (450 GB/s, efficiency 1, no ramp), S = 1 GiB: ring 12 us + 1.75 S / 450 GB/s =
    /// 4.188 ms, NVLS 23 us + 1.75 S / 765 GB/s = 2.479 ms. Off (the default), the ring.
    void nvlsInsideOneNode() {
        Hardware hw = builtinHardware("h100");
        hw.rampHalfBytes = 0;
        const double S = 1 << 30;
        const CollectiveCost ring = analyticalCollectiveCost(hw, Collective::AllReduce, S, 8, 1);
        QCOMPARE(int(ring.algorithm), int(CollectiveAlgorithm::Ring));
        QVERIFY(std::fabs(ring.latency_s + ring.transfer_s - (12e-6 + 1.75 * S / 450e9)) < 1e-12);
        hw.nvlsEfficiency = 0.85;
        const CollectiveCost nvls = analyticalCollectiveCost(hw, Collective::AllReduce, S, 8, 1);
        QCOMPARE(int(nvls.algorithm), int(CollectiveAlgorithm::Nvls));
        QVERIFY(std::fabs(nvls.latency_s - 23e-6) < 1e-15);
        QVERIFY(std::fabs(nvls.transfer_s - 1.75 * S / 765e9) < 1e-12);
        QVERIFY(std::fabs(nvls.latency_s + nvls.transfer_s - 2.4791e-3) < 1e-6);
        // Reduce-scatter has no NVLS here (NCCL: all-reduce only without CollNet): the ring.
        QCOMPARE(int(analyticalCollectiveCost(hw, Collective::ReduceScatter, S, 8, 1).algorithm),
                 int(CollectiveAlgorithm::Ring));
        // A 4 KiB all-reduce: the ring's 12 us beats NVLS's 23 us.
        QCOMPARE(int(analyticalCollectiveCost(hw, Collective::AllReduce, 4096, 8, 1).algorithm),
                 int(CollectiveAlgorithm::Ring));
    }

    /// CollNet / SHARP across nodes (hw.sharp): each GPU's NIC carries its S/8 shard once each
    /// way, and inside the node NCCL's CollNet Direct runs at 0.85 x 0.5 of NVLink. By hand on
    /// 16 H100 nodes with 200 Gb/s per GPU (128 ranks; no start-up, no ramp, efficiencies 1),
    /// S = 1 GiB, 256 chunks of 4 MiB: the tree's network stage 1.875 S / 200 GB/s = 10.07 ms;
    /// CollNet's NVLink stage S / 191.25 GB/s = 5.614 ms, network stage S / 8 / 25 GB/s =
    /// 5.369 ms, pipelined 5.614 + 5.369 / 256 = 5.635 ms, latency 2 x (3.7 + 7 x 0.4) + 31 =
    /// 44 us. With NVLS as well the NVLink stage is 1.75 S / 765 GB/s = 2.456 ms, the network
    /// binds (5.369 + 2.456 / 256 = 5.378 ms) and the latency is 23 + 18 us.
    void sharpAcrossNodes() {
        Hardware hw = builtinHardware("h100");
        hw.interLatency_s = 0;
        hw.rampHalfBytes = 0;
        hw.interBusEfficiency = 1;
        hw.nicBytesPerS = 25e9;
        const double S = 1 << 30;
        const CollectiveCost tree = analyticalCollectiveCost(hw, Collective::AllReduce, S, 128, 1);
        QCOMPARE(int(tree.algorithm), int(CollectiveAlgorithm::Tree));
        QVERIFY(std::fabs(tree.networkBytesPerNode - 1.875 * S) < 1e-3);
        QVERIFY(std::fabs(tree.transfer_s - (1.875 * S / 200e9 + 1.75 * S / 450e9 / 256)) < 1e-12);
        hw.sharp = true;
        const CollectiveCost cn = analyticalCollectiveCost(hw, Collective::AllReduce, S, 128, 1);
        QCOMPARE(int(cn.algorithm), int(CollectiveAlgorithm::CollNet));
        QCOMPARE(int(cn.bound), int(CollectiveBound::NvLink));
        QVERIFY(std::fabs(cn.latency_s - 44e-6) < 1e-12);
        QVERIFY(std::fabs(cn.networkBytesPerNode - S) < 1e-3);
        const double nvStage = S / (0.425 * 450e9), netStage = S / 8 / 25e9;
        QVERIFY(std::fabs(cn.transfer_s - (nvStage + netStage / 256)) < 1e-12);
        QVERIFY(std::fabs(cn.transfer_s - 5.6353e-3) < 1e-6);
        hw.nvlsEfficiency = 0.85;
        const CollectiveCost both = analyticalCollectiveCost(hw, Collective::AllReduce, S, 128, 1);
        QCOMPARE(int(both.algorithm), int(CollectiveAlgorithm::CollNet));
        QCOMPARE(int(both.bound), int(CollectiveBound::Network));
        QVERIFY(std::fabs(both.latency_s - 41e-6) < 1e-12);
        QVERIFY(std::fabs(both.transfer_s - (netStage + 1.75 * S / 765e9 / 256)) < 1e-12);
        QVERIFY(std::fabs(both.transfer_s - 5.3783e-3) < 1e-6);
        // Reduce-scatter and all-gather keep the ring: SHARP reduces, it does not shard.
        QCOMPARE(int(analyticalCollectiveCost(hw, Collective::AllGather, S, 128, 1).algorithm),
                 int(CollectiveAlgorithm::Ring));
    }

    /// The CoreWeave H100 log ran on a SHARP cluster. Modelled with SHARP on, the switches
    /// halve the network's bytes and NCCL's CollNet Direct rate inside the node (0.85 x 0.5 of
    /// NVLink) binds: 375 GB/s at 8 GiB against 386 GB/s measured, max |error| 7.7 % where the
    /// tree with SHARP off errs 11.0 %. NVLS at NCCL's Blackwell 0.74, by contrast, predicts
    /// 1,329 GB/s for the one-rack GB200 log that measured 847 GB/s (a ring's shape): +119 %.
    void inSwitchReductionAgainstTheLogs() {
        Hardware hw = builtinHardware("h100");
        const auto sharpRows = rowsOf("H100-all_reduce-8x8-coreweave-sharp.txt");
        QVERIFY(worstError(hw, sharpRows) > 0.109 && worstError(hw, sharpRows) < 0.111);
        hw.sharp = true;
        const double withSharp = worstError(hw, sharpRows);
        qInfo("CoreWeave H100 8x8 with SHARP on: max |error| %.1f %%", 100 * withSharp);
        QVERIFY(withSharp > 0.076 && withSharp <= 0.078);
        Hardware gb = builtinHardware("gb200-nvl72");
        const auto rack = rowsOf("GB200-all_reduce-18x4-coreweave.txt");
        gb.nvlsEfficiency = 0.74;
        const double withNvls = worstError(gb, rack);
        qInfo("GB200 one rack with NVLS 0.74: max |error| %.1f %%", 100 * withNvls);
        QVERIFY(withNvls > 1.19 && withNvls < 1.20);
    }

    /// `sharp` and `nvls_efficiency` in a hardware file: read, written back only when set, and
    /// an impossible share refused naming the key.
    void inSwitchKeysInHardwareFiles() {
        {
            Diagnostics d;
            const nlohmann::json j = {{"name", "h100"}, {"sharp", true}, {"nvls_efficiency", 0.85}};
            JsonReader r(j, "$", d);
            const Hardware h = readHardware(r);
            QVERIFY2(d.ok(), d.str().c_str());
            QVERIFY(h.sharp);
            QCOMPARE(h.nvlsEfficiency, 0.85);
            const auto w = writeHardware(h);
            QCOMPARE(w["sharp"].get<bool>(), true);
            QCOMPARE(w["nvls_efficiency"].get<double>(), 0.85);
        }
        const auto plain = writeHardware(builtinHardware("h100"));
        QVERIFY(!plain.contains("sharp") && !plain.contains("nvls_efficiency"));
        Diagnostics d;
        const nlohmann::json bad = {{"name", "h100"}, {"nvls_efficiency", 1.5}};
        JsonReader r(bad, "$", d);
        readHardware(r);
        QVERIFY(!d.ok());
        QVERIFY2(d.str().find("nvls_efficiency") != std::string::npos, d.str().c_str());
    }

    /// Done-when 2 of issue 27: the fabric simulation times a collective with the same model.
    /// On an idle fabric whose node NICs run at the model's rate, the foreground's sync (its
    /// bytes through the fluid network, latency and NVLink stage from collectiveTimeWithNetwork)
    /// equals analyticalCollectiveTime for every row of every shipped log; without the model's
    /// sync time the fluid flow alone misses the latency.
    void fabricSimulationMatchesTheModel() {
        int rowsChecked = 0, latencyRows = 0;
        for (const auto& l : kLogs) {
            const Hardware hw = builtinHardware(l.hardware);
            for (const auto& row : rowsOf(l.file)) {
                const CollectiveCost cost =
                    analyticalCollectiveCost(hw, row.collective, row.bytes, row.ranks, 1);
                const double model =
                    analyticalCollectiveTime(hw, row.collective, row.bytes, row.ranks, 1);
                auto simulate = [&](bool withModel) {
                    fabric::FabricSim sim(
                        1e18, cost.networkBytesPerS > 0 ? cost.networkBytesPerS : 1.0, 1.0, 0.0);
                    fabric::ForegroundSpec fg;
                    fg.nodes = groupSpan(row.ranks, 1, hw.gpusPerNode).nodes;
                    fg.bytesPerNode = cost.networkBytesPerNode;
                    fg.iterations = 1;
                    if (withModel)
                        fg.syncTime = [&](double network_s) {
                            return collectiveTimeWithNetwork(cost, network_s);
                        };
                    sim.setForeground(fg);
                    sim.run(1e3);
                    return sim.exposedDpTimes().at(0);
                };
                const double fabricTime = simulate(true);
                if (std::fabs(fabricTime / model - 1) > 1e-9)
                    QFAIL((std::string(l.file) + ": fabric " + std::to_string(fabricTime) +
                           " s, model " + std::to_string(model) + " s")
                              .c_str());
                if (simulate(false) < model - 0.5 * cost.latency_s) ++latencyRows;
                ++rowsChecked;
            }
        }
        QCOMPARE(rowsChecked, 80);
        QCOMPARE(latencyRows, rowsChecked);
    }

    /// Under other traffic the fabric simulation keeps the model's latency and NVLink stage and
    /// takes the network stage from the max-min fair shares. By hand: the H100 10 x 8 all-reduce
    /// of 1 GiB (tree; each node sends 1.8 S through NICs the model runs at R = 8 x 50 GB/s x
    /// 0.87758 x ramp) shares a paper-fabric of capacity 10 R with a 10-node job whose transfer
    /// outlasts it: 20 node-flows on 10 R, each gets R / 2, so the network stage takes twice its
    /// idle time and the sync collectiveTimeWithNetwork(cost, 2 x idle).
    void fabricSharesOnlyTheNetworkStage() {
        const Hardware hw = builtinHardware("h100");
        const double S = 1 << 30;
        const CollectiveCost cost = analyticalCollectiveCost(hw, Collective::AllReduce, S, 80, 1);
        QCOMPARE(int(cost.algorithm), int(CollectiveAlgorithm::Tree));
        QVERIFY(std::fabs(cost.networkBytesPerNode - 1.8 * S) < 1e-3);
        const double R = cost.networkBytesPerS;
        QVERIFY(std::fabs(R - 8 * 50e9 * 0.87758 * S / (S + 20e6)) < 1.0);
        const double idle = cost.networkBytesPerNode / R;
        fabric::FabricSim sim(10 * R, R, 1.0, 0.0);
        const std::vector<fabric::Transfer> other = {{0.0, 0, 1e15}};
        sim.replayList(&other, 1, 10);
        fabric::ForegroundSpec fg;
        fg.nodes = 10;
        fg.bytesPerNode = cost.networkBytesPerNode;
        fg.iterations = 1;
        fg.syncTime = [&](double network_s) { return collectiveTimeWithNetwork(cost, network_s); };
        sim.setForeground(fg);
        sim.run(1e3);
        const double shared = sim.exposedDpTimes().at(0);
        const double expected = collectiveTimeWithNetwork(cost, 2 * idle);
        QVERIFY2(std::fabs(shared / expected - 1) < 1e-9,
                 (std::to_string(shared) + " vs " + std::to_string(expected)).c_str());
        // Against the idle model: the latency and NVLink stage are the same, only the network
        // stage doubled (the tree's network stage binds here).
        QVERIFY(std::fabs(shared - analyticalCollectiveTime(hw, Collective::AllReduce, S, 80, 1) -
                          idle) < 1e-6 * shared);
    }
};

TANDEM_TEST_APPLESS_MAIN(TestMosaicNetworkFit)
#include "tst_mosaic_network_fit.moc"
