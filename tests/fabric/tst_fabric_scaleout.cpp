// Idle-fabric collectives of the fluid model against nccl-tests logs [docs/MODEL-NETWORK.md
// section 4]: bus bandwidth of the inter-node part of all-reduce and all-to-all, sizes >= 64
// MiB, within 15 % on every log whose hardware is a built-in; the stored stack constants are
// the fit's optimum over those logs.
#include <QtTest>
#include <cmath>
#include <map>
#include <stdexcept>

#include "common/diagnostics.h"
#include "fabric/scaleout.h"
#include "io/nccl_tests.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::fabric;

namespace {

const char* kMatched[][2] = {
    {"A100-all_reduce-2x8-awsome-distributed-training.txt", "p4de-efa"},
    {"H100-all_reduce-2x8-awsome-distributed-training.txt", "p5-efa"},
    {"H100-all_reduce-2x8-gcp-a3mega-lessizzmore.txt", "a3-mega"},
    {"H100-all_reduce-10x8-nccl-tests-cluster.txt", "h100-ib-8x400g"},
    {"H100-alltoall-10x8-nccl-tests-cluster.txt", "h100-ib-8x400g"},
};

std::vector<MeasuredCollective> rowsOf(const std::string& file, const ScaleOutHardware& hw) {
    tandem::Diagnostics d;
    const auto imp =
        tandem::io::loadNcclTestsFile(std::string(TANDEM_TEST_DATA) + "/nccl/" + file, d);
    if (!imp) return {};
    std::vector<MeasuredCollective> out;
    for (const auto& c : imp->curves)
        for (const auto& r : measuredRows(c, hw)) out.push_back(r);
    return out;
}

}  // namespace

class TestScaleOut : public QObject {
    Q_OBJECT
private slots:
    void wireBytes() {
        // 2 nodes: all-reduce S, all-to-all 8 x S / 2; one node: nothing leaves it.
        QCOMPARE(interNodeWireBytes(Collective::AllReduce, 2, 8, 1e9), 1e9);
        QCOMPARE(interNodeWireBytes(Collective::AllToAll, 2, 8, 1e9), 4e9);
        QCOMPARE(interNodeWireBytes(Collective::AllReduce, 1, 8, 1e9), 0.0);
        QCOMPARE(busBandwidth(Collective::AllReduce, 16, 1e9, 1.0), 1.875e9);
        QCOMPARE(busBandwidth(Collective::AllToAll, 16, 1e9, 1.0), 0.9375e9);
        // An efficiency no log measured is refused, not taken as "never finishes".
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            idleCollectiveTime(*findScaleOutHardware("p5-efa"), Collective::AllToAll, 2, 1e9));
        // Hand case: 2 p5 nodes, 1 GiB all-reduce: 2^30 B at 0.633 x 400 GB/s + latency.
        const ScaleOutHardware& p5 = *findScaleOutHardware("p5-efa");
        const double t = idleCollectiveTime(p5, Collective::AllReduce, 2, 1073741824.0);
        QVERIFY(std::fabs(t - (p5.latencyS + 1073741824.0 / (p5.allReduceEfficiency * 400e9))) <
                1e-9 * t);
    }

    void collectiveNamesRoundTrip() {
        // The nccl-tests words of the two collectives, each read back to its value.
        QCOMPARE(enumNames(collectiveNames()),
                 (std::vector<std::string>{"all_reduce", "alltoall"}));
        for (const auto& e : collectiveNames())
            QVERIFY(enumFromName(collectiveNames(), name(e.value)) == e.value);
        QVERIFY(!enumFromName(collectiveNames(), "all_gather"));
        for (const auto& e : collectiveNames())
            QCOMPARE(std::string(tandem::io::name(widen(ncclCollectives(), e.value))),
                     std::string(e.name));
        // A curve of either collective gives rows of it; another collective gives none.
        const ScaleOutHardware& p5 = *findScaleOutHardware("p5-efa");
        tandem::io::NcclCurve curve;
        curve.ranks = 16;
        curve.points.push_back({});
        curve.points.back().bytes = 1e9;
        curve.points.back().busbw_Bps = 100e9;
        curve.collective = tandem::io::Collective::AllToAll;
        const auto rows = measuredRows(curve, p5);
        QCOMPARE(rows.size(), size_t(1));
        QVERIFY(rows[0].collective == Collective::AllToAll);
        QCOMPARE(rows[0].nodes, 2);
        curve.collective = tandem::io::Collective::AllReduce;
        QVERIFY(measuredRows(curve, p5).at(0).collective == Collective::AllReduce);
        curve.collective = tandem::io::Collective::AllGather;
        QVERIFY(measuredRows(curve, p5).empty());
    }

    void measuredLog_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("hardware");
        for (const auto& m : kMatched) QTest::newRow(m[0]) << m[0] << m[1];
    }
    void measuredLog() {
        QFETCH(QString, file);
        QFETCH(QString, hardware);
        const ScaleOutHardware* hw = findScaleOutHardware(hardware.toStdString());
        QVERIFY(hw);
        const auto rows = rowsOf(file.toStdString(), *hw);
        QVERIFY2(rows.size() >= 5, "too few rows >= 64 MiB");
        double worst = 0;
        QString msg;
        for (const auto& r : rows) {
            const double t = idleCollectiveTime(*hw, r.collective, r.nodes, r.bytes);
            const double model = busBandwidth(r.collective, r.nodes * hw->gpusPerNode, r.bytes, t);
            const double err = model / r.busbw_Bps - 1;
            worst = std::max(worst, std::fabs(err));
            msg +=
                QString(" %1MiB:%2%").arg(r.bytes / 1048576, 0, 'f', 0).arg(100 * err, 0, 'f', 1);
        }
        qInfo("%s on %s, busbw error:%s", qPrintable(file), qPrintable(hardware), qPrintable(msg));
        QVERIFY2(worst <= 0.15, qPrintable(msg));
    }

    void storedConstantsAreTheFit() {
        std::map<std::string, std::vector<MeasuredCollective>> byHw;
        for (const auto& m : kMatched) {
            const auto rows = rowsOf(m[0], *findScaleOutHardware(m[1]));
            byHw[m[1]].insert(byHw[m[1]].end(), rows.begin(), rows.end());
        }
        for (const auto& [name, rows] : byHw) {
            const ScaleOutHardware& hw = *findScaleOutHardware(name);
            const StackFit f = fitStackConstants(hw, rows);
            qInfo(
                "%s: latency %.6f s, all-reduce efficiency %.4f, all-to-all %.4f, max |error| %.1f "
                "%%",
                name.c_str(), f.latencyS, f.allReduceEfficiency, f.allToAllEfficiency,
                100 * f.maxAbsError);
            QVERIFY2(std::fabs(hw.latencyS - f.latencyS) <= 2e-6 + 0.01 * f.latencyS, name.c_str());
            QVERIFY2(std::fabs(hw.allReduceEfficiency - f.allReduceEfficiency) <= 0.002,
                     name.c_str());
            QVERIFY2(std::fabs(hw.allToAllEfficiency - f.allToAllEfficiency) <= 0.002,
                     name.c_str());
        }
    }

    void unmatchedLogsAreListed_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("interNodeRows");
        // No scale-out part: one node, or one NVLink domain.
        QTest::newRow("A100-alltoall-1x8-superbenchmark.txt")
            << "A100-alltoall-1x8-superbenchmark.txt" << 0;
        QTest::newRow("A100-reduce_scatter-1x8-superbenchmark.txt")
            << "A100-reduce_scatter-1x8-superbenchmark.txt" << 0;
        QTest::newRow("H100-reduce_scatter-10x8-nccl-tests-cluster.txt")
            << "H100-reduce_scatter-10x8-nccl-tests-cluster.txt" << 0;
    }
    void unmatchedLogsAreListed() {
        QFETCH(QString, file);
        QFETCH(int, interNodeRows);
        QCOMPARE(int(rowsOf(file.toStdString(), *findScaleOutHardware("h100-ib-8x400g")).size()),
                 interNodeRows);
    }
};

TANDEM_TEST_GUILESS_MAIN(TestScaleOut)
#include "tst_fabric_scaleout.moc"
