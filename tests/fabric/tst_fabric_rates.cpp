// Max-min fair rates on the leaf/spine fabric [docs/MODEL-NETWORK.md]: progressive filling
// (hand-computed), an oversubscribed uplink, the use of each link over time, and the
// foreground-size behaviour on a non-blocking and a 4:1 fabric.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "common/csv.h"
#include "common/diagnostics.h"
#include "common/json_reader.h"
#include "fabric/fabric_sim.h"
#include "fabric/fluid.h"
#include "fabric/topology.h"
#include "fabric_fixtures.h"
#include "mlforml/params.h"
#include "mlforml/report.h"
#include "mlforml/simulate.h"
#include "test_main.h"

using namespace fabric_fixtures;

class TestFabricRates : public QObject {
    Q_OBJECT
private slots:
    void progressiveFilling_data() {
        // Links: 0 (10 GB/s) and 1. Group A crosses 0 and 1, B only 0, C link 0 with share 2.
        QTest::addColumn<double>("link1");
        QTest::addColumn<double>("rateA");
        QTest::addColumn<double>("rateBC");
        // Link 0 fills first: (1 + 1 + 2) r = 10 -> every group freezes at 2.5 GB/s.
        QTest::newRow("shared link binds") << 4e9 << 2.5e9 << 2.5e9;
        // Link 1 binds A at 1; B and C share link 0's other 9: (1 + 2) r = 9 -> 3 GB/s.
        QTest::newRow("A's own link binds") << 1e9 << 1e9 << 3e9;
    }

    void progressiveFilling() {
        QFETCH(double, link1);
        QFETCH(double, rateA);
        QFETCH(double, rateBC);
        FluidNetwork net(std::vector<double>{10e9, link1}, 1.0, 0.0);
        const int a = net.addGroup(2, {{0, 1.0}, {1, 1.0}});
        const int b = net.addGroup(2, {{0, 1.0}});
        const int c = net.addGroup(2, {{0, 2.0}});
        const int fa = net.startFlow(a, 1e9, 0), fb = net.startFlow(b, 1e9, 1),
                  fc = net.startFlow(c, 1e9, 2);
        net.recomputeRates();
        QCOMPARE(net.flowRate(fa), rateA);
        QCOMPARE(net.flowRate(fb), rateBC);
        QCOMPARE(net.flowRate(fc), rateBC);
        if (link1 != 1e9) return;
        // A second flow of B counts twice on link 0: 2 r_B + 2 r_C = 9 -> 2.25 each.
        const int fb2 = net.startFlow(b, 1e9, 3);
        net.recomputeRates();
        QCOMPARE(net.flowRate(fb2), 2.25e9);
        QCOMPARE(net.flowRate(fc), 2.25e9);
        // Event-driven: the next completion is B's or C's 1 GB at 2.25 GB/s.
        QVERIFY(std::fabs(net.timeToNextCompletion() - 1e9 / 2.25e9) < 1e-12);
    }

    void oversubscribedUplinkSlowsSpreadRing() {
        // A lone 8-node ring, 8 GB on the wire per node, NIC 10 GB/s, leaves of 4: packed it is
        // NIC-bound (0.8 s) at 4:1 as well (one hop per 10 GB/s uplink); spread, 4 hops share
        // each leaf's 10 GB/s uplink: 2.5 GB/s, 3.2 s.
        for (PlacementPolicy fgPlacement : {PlacementPolicy::Packed, PlacementPolicy::Spread}) {
            Placement pl;
            pl.foreground = fgPlacement;
            const FabricPlan f = buildFabric(leafSpine(8, 4, 4.0), pl, 0, 1, 8, 10e9, 8);
            FabricSim sim(f, 1.0, 0.0);
            ForegroundSpec fg;
            fg.nodes = 8;
            fg.bytesPerNode = 8e9;
            fg.compute_s = 0.1;
            fg.iterations = 1;
            sim.setForeground(fg);
            sim.run(100);
            const double expected = fgPlacement == PlacementPolicy::Packed ? 0.8 : 3.2;
            QVERIFY2(std::fabs(sim.exposedDpTimes().at(0) - expected) < 1e-9,
                     qPrintable(QString::number(sim.exposedDpTimes().at(0))));
        }
    }

    void linkUsageTwoJobsOnOneUplink() {
        // 12 nodes, leaves of 4 (3 leaves), NIC 10 GB/s, 4:1: each leaf's uplink and downlink
        // carry 4 x 10 / 4 = 10 GB/s. A background job on nodes {0, 4} and the foreground on
        // {1, 5}: each 2-node ring sends one hop up and one down at leaves 0 and 1 (share 1);
        // leaf 2 is crossed by nobody. The background sends 10 GB per node at t = 0, alone at
        // min(NIC, uplink) = 10 GB/s until the foreground's 5 GB start at 0.1 s (1 GB done);
        // then both share every leaf link at 5 GB/s: the foreground ends at 1.1 s, where the
        // simulation stops. By hand over [0, 1.1] s:
        //  - leaf0/leaf1 up and down: 10 GB/s throughout: mean 1, peak 1, full 1.1 s, both jobs;
        //  - bg0-nic: 10/10 for 0.1 s, 5/10 for 1 s: mean 0.6/1.1, peak 1, full 0.1 s;
        //  - foreground-nic: 0 for 0.1 s, 5/10 for 1 s: mean 0.5/1.1, peak 0.5, never full;
        //  - leaf2 up and down: 0, no job.
        Placement pl;
        pl.foreground = PlacementPolicy::Explicit;
        pl.background = PlacementPolicy::Explicit;
        pl.foregroundNodes = {1, 5};
        pl.backgroundNodes = {{0, 4}};
        const FabricPlan f = buildFabric(leafSpine(12, 4, 4.0), pl, 1, 2, 2, 10e9, 8);
        const std::vector<std::string> names = {"leaf0-up",   "leaf1-up",      "leaf2-up",
                                                "leaf0-down", "leaf1-down",    "leaf2-down",
                                                "bg0-nic",    "foreground-nic"};
        QCOMPARE(f.linkNames, names);
        const std::vector<Transfer> list = {{0.0, 0, 10e9}};
        FabricSim sim(f, 1.0, 0.0);
        sim.replayList(&list, 1, 2);
        ForegroundSpec fg;
        fg.nodes = 2;
        fg.bytesPerNode = 5e9;
        fg.compute_s = 0.1;
        fg.iterations = 1;
        sim.setForeground(fg);
        sim.trackLinkUsage(0.0);
        sim.run(100);
        QVERIFY(std::fabs(sim.now() - 1.1) < 1e-12);
        const std::vector<LinkUsage> u = sim.linkUsage();
        QCOMPARE(u.size(), names.size());
        // Routed only: leaf2's bundles, on no route, are left out; the rest is the same record.
        const std::vector<LinkUsage> routed = sim.linkUsage(true);
        QCOMPARE(routed.size(), names.size() - 2);
        for (size_t i = 0, l = 0; i < routed.size(); ++i, ++l) {
            if (names[l] == "leaf2-up" || names[l] == "leaf2-down") ++l;
            QCOMPARE(routed[i].link, names[l]);
            QCOMPARE(routed[i].utilisationSeconds, u[l].utilisationSeconds);
            QCOMPARE(routed[i].jobs, u[l].jobs);
        }
        struct Want {
            double mean, peak, full;
            std::vector<int> jobs;
        };
        const std::vector<int> both = {kForegroundJob, 0};
        const std::vector<Want> want = {{1, 1, 1.1, both},
                                        {1, 1, 1.1, both},
                                        {0, 0, 0, {}},
                                        {1, 1, 1.1, both},
                                        {1, 1, 1.1, both},
                                        {0, 0, 0, {}},
                                        {0.6 / 1.1, 1, 0.1, {0}},
                                        {0.5 / 1.1, 0.5, 0, {kForegroundJob}}};
        for (size_t l = 0; l < u.size(); ++l) {
            const QString what = QString::fromStdString(u[l].link);
            QCOMPARE(u[l].link, names[l]);
            QCOMPARE(u[l].capacityBytesPerS, 10e9);
            QVERIFY2(std::fabs(u[l].observed_s - 1.1) < 1e-12, qPrintable(what));
            QVERIFY2(std::fabs(u[l].meanUtilisation() - want[l].mean) < 1e-9, qPrintable(what));
            QVERIFY2(std::fabs(u[l].peakUtilisation - want[l].peak) < 1e-9, qPrintable(what));
            QVERIFY2(std::fabs(u[l].saturated_s - want[l].full) < 1e-9, qPrintable(what));
            QCOMPARE(u[l].jobs, want[l].jobs);
        }

        // links.csv round trip: the header, one row per link, every field read back.
        Result res;
        res.links.push_back({1, u});
        const std::string csv = linksCsv(res);
        const std::vector<std::string> columns = {"background_jobs",   "link",
                                                  "capacity_GBps",     "observed_s",
                                                  "mean_utilisation",  "peak_utilisation",
                                                  "seconds_at_100pct", "jobs"};
        tandem::Diagnostics d;
        size_t rows = 0;
        // The rows in link order, leaf2-up (2) and leaf2-down (5) skipped.
        const std::vector<size_t> listed = {0, 1, 3, 4, 6, 7};
        tandem::readCsvTable(csv, columns, d,
                             [&](const std::vector<std::string>& c, const std::string&, int) {
                                 const size_t l = listed.at(rows++);
                                 QCOMPARE(c[0], std::string("1"));
                                 QCOMPARE(c[1], names[l]);
                                 QCOMPARE(std::stod(c[2]), 10.0);
                                 QCOMPARE(std::stod(c[3]), u[l].observed_s);
                                 QCOMPARE(std::stod(c[4]), u[l].meanUtilisation());
                                 QCOMPARE(std::stod(c[5]), u[l].peakUtilisation);
                                 QCOMPARE(std::stod(c[6]), u[l].saturated_s);
                             });
        QVERIFY2(d.ok(), qPrintable(QString::fromStdString(csv)));
        // Only the links some flow crossed: leaf2's two bundles (no job) are left out.
        QCOMPARE(rows, names.size() - 2);
        QVERIFY(csv.find(",leaf0-up,10,1.1,1,1,1.1,foreground;bg0\n") != std::string::npos);
        QVERIFY(csv.find("leaf2") == std::string::npos);
        QVERIFY(csv.find(",foreground-nic,10,1.1,") != std::string::npos);

        // The shared paper-fabric: one 15 GB/s capacity that both 2-node jobs cross with 2
        // node-flows each (4 r = 15: 3.75 GB/s per node), NICs of 10 GB/s at 37.5 %. Both start
        // at once; the foreground's 3.75 GB end at 1 s, the fabric full all along.
        FabricSim shared(15e9, 10e9, 1.0, 0.0);
        const std::vector<Transfer> both0 = {{0.0, 0, 10e9}};
        shared.replayList(&both0, 1, 2);
        fg.compute_s = 0;
        fg.bytesPerNode = 3.75e9;
        shared.setForeground(fg);
        shared.trackLinkUsage(0.0);
        shared.run(100);
        const std::vector<LinkUsage> s = shared.linkUsage();
        QCOMPARE(s.size(), size_t(3));
        QCOMPARE(s[0].link, std::string("fabric"));
        QCOMPARE(s[1].link, std::string("bg0-nic"));
        QCOMPARE(s[2].link, std::string("foreground-nic"));
        QVERIFY(std::fabs(s[0].observed_s - 1.0) < 1e-12);
        QVERIFY(std::fabs(s[0].meanUtilisation() - 1.0) < 1e-9);
        QVERIFY(std::fabs(s[0].saturated_s - 1.0) < 1e-9);
        QCOMPARE(s[0].jobs, both);
        QVERIFY(std::fabs(s[1].peakUtilisation - 0.375) < 1e-9);
        QCOMPARE(s[1].saturated_s, 0.0);
        QCOMPARE(s[2].jobs, std::vector<int>{kForegroundJob});
    }

    void linkUsageMergesReplays() {
        // Two records of one fabric: seconds add, peaks take the larger, jobs the union; records
        // of different fabrics are refused.
        std::vector<LinkUsage> a = {{"leaf0-up", 10e9, 1.0, 0.5, 0.5, 0.0, {0}}};
        const std::vector<LinkUsage> b = {{"leaf0-up", 10e9, 2.0, 2.0, 1.0, 2.0, {kForegroundJob}}};
        mergeLinkUsage(a, b);
        QCOMPARE(a[0].observed_s, 3.0);
        QCOMPARE(a[0].meanUtilisation(), 2.5 / 3.0);
        QCOMPARE(a[0].peakUtilisation, 1.0);
        QCOMPARE(a[0].saturated_s, 2.0);
        QCOMPARE(a[0].jobs, (std::vector<int>{kForegroundJob, 0}));
        const std::vector<LinkUsage> other = {{"leaf1-up", 10e9, 1.0, 0, 0, 0, {}}};
        QVERIFY_THROWS_EXCEPTION(std::logic_error, mergeLinkUsage(a, other));
    }

    void foregroundNodesNonBlockingFallsMonotonically() {
        // Fixed per-GPU micro-batch: more nodes, larger global batch, fewer updates; a
        // non-blocking fabric keeps each update's sync time (ring bytes 2(n-1)/n S, NIC-bound).
        double prev = INFINITY;
        QString curve;
        for (int n = 8; n <= 64; n += 8) {
            const double t = jointTime("leaf-spine", n);
            curve += QString(" %1:%2").arg(n).arg(t, 0, 'f', 0);
            QVERIFY2(std::isfinite(t) && t < prev, qPrintable(curve));
            prev = t;
        }
        qInfo("non-blocking, Joint s to 1.01 L_min:%s", qPrintable(curve));
        // The gain is real: 64 nodes reach the target in under a third of 8 nodes' time.
        QVERIFY2(prev < jointTime("leaf-spine", 8) / 3, qPrintable(curve));
    }

    void foregroundNodesOversubscribedTurns() {
        // At 4:1 the spread ring's hops per leaf outgrow the uplinks: the curve has its minimum
        // strictly inside 8..64 and rises after it by more than 3 %.
        std::vector<double> t;
        QString curve;
        for (int n = 8; n <= 64; n += 8) {
            t.push_back(jointTime("leaf-spine-4to1", n));
            curve += QString(" %1:%2").arg(n).arg(t.back(), 0, 'f', 0);
        }
        qInfo("4:1, Joint s to 1.01 L_min:%s", qPrintable(curve));
        const size_t best = std::min_element(t.begin(), t.end()) - t.begin();
        QVERIFY2(best > 0 && best + 1 < t.size(), qPrintable(curve));
        QVERIFY2(t.back() > 1.03 * t[best], qPrintable(curve));
        // And it is the fabric: the non-blocking fabric at 64 nodes is faster than 4:1.
        QVERIFY2(jointTime("leaf-spine", 64) < 0.8 * t.back(), qPrintable(curve));
    }
};

TANDEM_TEST_GUILESS_MAIN(TestFabricRates)
#include "tst_fabric_rates.moc"
