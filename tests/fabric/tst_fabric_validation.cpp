// Failures and the scenario keys of the fabric [docs/MODEL-NETWORK.md]: failed links spread
// their flows over the rest or are refused, the keys read, write and refuse bad values, and
// hashed-ECMP fabrics are checked against the link limit before they are built.
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

class TestFabricValidation : public QObject {
    Q_OBJECT
private slots:
    /// Failures on two tiers: 8 nodes, leaves of 4, 2 spines, non-blocking, NIC 10 GB/s: a
    /// leaf's bundle to each spine is 4 x 10 / 2 = 20 GB/s. The ring 0,4,1,5,2,6,3,7 crosses
    /// between the leaves on all 8 hops: 4 hops out of and 4 into each leaf, r per node.
    void failuresSpreadOverTheRest_data() {
        QTest::addColumn<QString>("ecmp");
        QTest::addColumn<QString>("failed");
        QTest::addColumn<double>("capacity");
        QTest::addColumn<double>("seconds");
        // Unfailed: a leaf's 40 GB/s of uplinks carry 4r: the NIC binds, r = 10, 0.8 s.
        QTest::newRow("none") << "equal"
                              << "" << 1.0 << 0.8;
        // Spine 0 down: every hop over spine 1, 4r <= 20: r = 5, 1.6 s.
        QTest::newRow("spine down, equal") << "equal"
                                           << "spine0" << 0.0 << 1.6;
        QTest::newRow("spine down, hash") << "hash"
                                          << "spine0" << 0.0 << 1.6;
        // Spine 1 at a quarter (5 GB/s per leaf): split 20 : 5 = 0.8 : 0.2, so 3.2r <= 20 and
        // 0.8r <= 5: r = 6.25, 8 / 6.25 = 1.28 s.
        QTest::newRow("spine at a quarter") << "equal"
                                            << "spine1" << 0.25 << 1.28;
        // Half of leaf0's cables to spine 0 (10 GB/s): leaf0 sends 1/3 : 2/3, within bounds
        // (4r/3 <= 10 -> r <= 7.5); leaf1 does not see it and sends 1/2 : 1/2, so leaf0's
        // spine-0 downlink carries 2r <= 10: r = 5, 1.6 s.
        QTest::newRow("half a bundle") << "equal"
                                       << "leaf0-spine0" << 0.5 << 1.6;
    }

    void failuresSpreadOverTheRest() {
        QFETCH(QString, ecmp);
        QFETCH(QString, failed);
        QFETCH(double, capacity);
        QFETCH(double, seconds);
        Topology t = leafSpine(8, 4, 1.0, AllReduceAlgorithm::Ring,
                               ecmp == "hash" ? Ecmp::Hash : Ecmp::Equal);
        t.spines = 2;
        if (!failed.isEmpty()) t.failed = {{failed.toStdString(), capacity}};
        const LoneRing a = loneRing(t, {0, 4, 1, 5, 2, 6, 3, 7}, 10e9);
        QVERIFY2(std::fabs(a.seconds - seconds) < 1e-9, qPrintable(QString::number(a.seconds)));
        if (failed == "leaf0-spine0") {
            QCOMPARE(a.plan.linkCapacity[a.index("leaf0-up-spine0")], 10e9);
            QCOMPARE(a.plan.linkCapacity[a.index("leaf0-down-spine0")], 10e9);
            QCOMPARE(a.plan.linkCapacity[a.index("leaf1-up-spine0")], 20e9);
            const Route& r = a.plan.jobRoutes.back();
            QVERIFY(std::fabs(shareOn(r, a.index("leaf0-up-spine0")) - 4.0 / 3) < 1e-12);
            QVERIFY(std::fabs(shareOn(r, a.index("leaf0-up-spine1")) - 8.0 / 3) < 1e-12);
            QCOMPARE(shareOn(r, a.index("leaf0-down-spine0")), 2.0);
            QVERIFY(std::fabs(a.link("leaf0-down-spine0").peakUtilisation - 1.0) < 1e-9);
        }
    }

    /// validate refuses a failure naming no link or switch of the fabric, a fraction outside
    /// [0, 1], one that cuts a job off, and hashed flows past the bound with planes; each at
    /// its key with the reason.
    void failuresRefused_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("reason");
        QTest::newRow("no such spine")
            << R"({"topology": {"preset": "leaf-spine", "failed": [{"name": "spine16", "capacity": 0}]}})"
            << "$.ml_for_ml.topology.failed[0].name"
            << "the fabric has no link or switch \"spine16\"";
        QTest::newRow("pod on two tiers")
            << R"({"topology": {"preset": "leaf-spine", "failed": [{"name": "pod0-spine1", "capacity": 0}]}})"
            << "$.ml_for_ml.topology.failed[0].name"
            << "no link or switch \"pod0-spine1\"";
        QTest::newRow("fraction above 1")
            << R"({"topology": {"preset": "leaf-spine", "failed": [{"name": "spine1", "capacity": 1.5}]}})"
            << "$.ml_for_ml.topology.failed[0].capacity"
            << "";
        QTest::newRow("fraction below 0")
            << R"({"topology": {"preset": "leaf-spine", "failed": [{"name": "spine1", "capacity": -0.1}]}})"
            << "$.ml_for_ml.topology.failed[0].capacity"
            << "";
        QTest::newRow("listed twice")
            << R"({"topology": {"preset": "leaf-spine", "failed": [{"name": "spine1", "capacity": 0}, {"name": "spine1", "capacity": 0.5}]}})"
            << "$.ml_for_ml.topology.failed[1].name"
            << "listed twice";
        // The packed background job 0 sits on nodes 0-7 of leaf 0.
        QTest::newRow("leaf switch down under a job")
            << R"({"topology": {"preset": "leaf-spine", "failed": [{"name": "leaf0", "capacity": 0}]}})"
            << "$.ml_for_ml.topology.failed"
            << "disconnects bg0: node 0 is under the failed switch leaf0";
        // Leaves of 4, one spine: job 0 spans leaves 0 and 1, whose only path is cut.
        QTest::newRow("no path left")
            << R"({"topology": {"preset": "leaf-spine", "nodes_per_leaf": 4, "spines": 1, "failed": [{"name": "leaf1-spine0", "capacity": 0}]}})"
            << "$.ml_for_ml.topology.failed"
            << "disconnects bg0: no working path from leaf0 to leaf1";
        // 65536 leaves of 1 node x 4 spines x 2 directions = 524288 leaf links; 1024 pods of 64
        // leaves x 4 spines x 65 cores x 2 = 532480 core links: past 2^20 = 1048576.
        QTest::newRow("core links beyond the link limit")
            << R"({"topology": {"preset": "leaf-spine", "nodes": 65536, "nodes_per_leaf": 1, "spines": 4, "ecmp": "hash", "tiers": 3, "leaves_per_pod": 64, "cores": 65}})"
            << "$.ml_for_ml.topology.cores"
            << "1056768 switch links (524288 leaf links + 532480 core links; hashed ECMP";
        // 16 planes x 2 x 65536 leaves = 2097152.
        QTest::newRow("planes beyond the link limit")
            << R"({"topology": {"preset": "leaf-spine", "nodes": 65536, "nodes_per_leaf": 1, "planes": 16}})"
            << "$.ml_for_ml.topology.planes"
            << "2097152 switch links (16 planes x 131072 leaf links + 0 core links per plane)";
        QTest::newRow("hashed flows x planes")
            << R"({"topology": {"preset": "leaf-spine", "ecmp": "hash", "planes": 2}})"
            << "$.ml_for_ml.topology.planes"
            << "8 GPUs per node x 2 planes";
    }

    void failuresRefused() {
        QFETCH(QString, json);
        QFETCH(QString, path);
        QFETCH(QString, reason);
        tandem::Diagnostics d;
        readScenario(nlohmann::json::parse(json.toStdString()), d);
        bool found = false;
        for (const auto& i : d.items())
            found = found || (i.path == path.toStdString() &&
                              i.message.find(reason.toStdString()) != std::string::npos);
        QVERIFY2(found, d.str().c_str());
    }

    /// The MoE workspace's groups are routed after the fabric is built: a group whose leaves
    /// lost every path is refused at the key it was read from, naming the collective.
    void groupsRouteRefusesCutOffGroup() {
        Topology t = leafSpine(8, 4, 1.0);
        t.spines = 1;
        t.failed = {{"leaf1-spine0", 0.0}};
        FabricKeys keys;
        keys.topology = "mosaic.background.topology";
        try {
            concurrentGroupsRoute(t, {0, 4}, 2, Collective::AllToAll, 99, 1, 1, keys);
            QFAIL("a cut-off group was routed");
        } catch (const FabricError& e) {
            QCOMPARE(e.key(), std::string("mosaic.background.topology.failed"));
            QVERIFY2(e.reason().find("alltoall: no working path from leaf0 to leaf1") !=
                         std::string::npos,
                     e.what());
        }
        // Spine 0 at half: the all-to-all of {0, 4} sends 1 node-share each way, all of it on
        // the one spine (share 1 on leaf0-up-spine0, whose capacity is 4 x 10 / 1 x 0.5).
        t.failed = {{"leaf1-spine0", 0.5}};
        const Route r = concurrentGroupsRoute(t, {0, 4}, 2, Collective::AllToAll, 99, 1, 1);
        QCOMPARE(shareOn(r, 0), 1.0);   // leaf0-up-spine0
        QCOMPARE(shareOn(r, 99), 1.0);  // the NIC
    }

    void scenarioKeys() {
        tandem::Diagnostics d;
        Params p = readScenario(
            {{"topology", {{"preset", "leaf-spine-2to1"}, {"nodes", 256}, {"ecmp", "hash"}}},
             {"placement", {{"foreground", "random"}, {"seed", 3}}}},
            d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(p.topology.oversubscription, 2.0);
        QCOMPARE(p.topology.nodes, 256);
        QVERIFY(p.topology.ecmp == Ecmp::Hash);
        QVERIFY(p.placement.foreground == PlacementPolicy::Random);
        QCOMPARE(p.placement.seed, std::uint64_t(3));
        // Round trip.
        tandem::Diagnostics d2;
        const Params q = readScenario(nlohmann::json::parse(writeParams(p).dump()), d2);
        QVERIFY(d2.ok());
        QVERIFY(q.topology == p.topology);
        QVERIFY(q.placement == p.placement);
        // The default writes neither key (paper-fabric scenarios keep their bytes).
        const Params defaults;
        const auto written = writeParams(defaults);
        QVERIFY(!written.contains("topology"));
        QVERIFY(!written.contains("placement"));
    }

    /// The new keys validate, save and reopen unchanged; a fabric without them writes none.
    void fabricKeysRoundTrip() {
        tandem::Diagnostics d;
        const Params p = readScenario({{"topology",
                                        {{"preset", "leaf-spine"},
                                         {"tiers", 3},
                                         {"leaves_per_pod", 16},
                                         {"cores", 8},
                                         {"spine_oversubscription", 2.0},
                                         {"planes", 2},
                                         {"failed",
                                          {{{"name", "plane1-pod0-spine3"}, {"capacity", 0.5}},
                                           {{"name", "core2"}, {"capacity", 0}},
                                           {{"name", "leaf5-spine1"}, {"capacity", 0.25}}}}}}},
                                      d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(p.topology.tiers, 3);
        QCOMPARE(p.topology.leavesPerPod, 16);
        QCOMPARE(p.topology.cores, 8);
        QCOMPARE(p.topology.spineOversubscription, 2.0);
        QCOMPARE(p.topology.planes, 2);
        QCOMPARE(p.topology.failed.size(), size_t(3));
        QCOMPARE(p.topology.failed[0].name, std::string("plane1-pod0-spine3"));
        QCOMPARE(p.topology.failed[2].capacity, 0.25);
        tandem::Diagnostics d2;
        const Params q = readScenario(nlohmann::json::parse(writeParams(p).dump()), d2);
        QVERIFY2(d2.ok(), d2.str().c_str());
        QVERIFY(q.topology == p.topology);
        Params plain;
        topologyPreset("leaf-spine", plain.topology);
        const auto written = writeParams(plain)["topology"];
        for (const char* key :
             {"tiers", "leaves_per_pod", "cores", "spine_oversubscription", "planes", "failed"})
            QVERIFY2(!written.contains(key), key);
    }

    void scenarioKeyErrors_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("path");
        QTest::newRow("ratio below 1")
            << R"({"topology": {"preset": "leaf-spine", "oversubscription": 0.5}})"
            << "$.ml_for_ml.topology.oversubscription";
        QTest::newRow("unknown preset") << R"({"topology": {"preset": "torus"}})"
                                        << "$.ml_for_ml.topology.preset";
        QTest::newRow("fabric too small")
            << R"({"topology": {"preset": "leaf-spine", "nodes": 64}})"
            << "$.ml_for_ml.topology.nodes";
        QTest::newRow("explicit without list")
            << R"({"topology": {"preset": "leaf-spine"}, "placement": {"foreground": "explicit"}})"
            << "$.ml_for_ml.placement.foreground_nodes";
        QTest::newRow("explicit list too short")
            << R"({"topology": {"preset": "leaf-spine"}, "placement": {"foreground": "explicit", "foreground_nodes": [500, 501]}})"
            << "$.ml_for_ml.placement.foreground_nodes";
        QTest::newRow("oversubscription on the shared fabric")
            << R"({"topology": {"oversubscription": 4}})"
            << "$.ml_for_ml.topology.oversubscription";
        QTest::newRow("placement on the shared fabric")
            << R"({"placement": {"foreground": "spread"}})"
            << "$.ml_for_ml.placement";
        QTest::newRow("hashed ECMP beyond the link limit")
            << R"({"topology": {"preset": "leaf-spine", "nodes": 65536, "nodes_per_leaf": 1, "spines": 9, "ecmp": "hash"}})"
            << "$.ml_for_ml.topology.spines";
        QTest::newRow("hashed ECMP, 4096 spines")
            << R"({"topology": {"preset": "leaf-spine", "nodes": 65536, "nodes_per_leaf": 1, "spines": 4096, "ecmp": "hash"}})"
            << "$.ml_for_ml.topology.spines";
        QTest::newRow("unknown rails")
            << R"({"topology": {"preset": "leaf-spine", "rails": "yes"}})"
            << "$.ml_for_ml.topology.rails";
        QTest::newRow("rails on the shared fabric") << R"({"topology": {"rails": "optimised"}})"
                                                    << "$.ml_for_ml.topology.rails";
        // 65536 units of one node with 72 rail leaves each: 2 x 65536 x 72 links.
        QTest::newRow("rail leaves beyond the link limit")
            << R"({"gpus_per_node": 72, "topology": {"preset": "rail-optimised", "nodes": 65536, "nodes_per_leaf": 1}})"
            << "$.ml_for_ml.topology.nodes";
        QTest::newRow("nvl72 with 8-GPU nodes") << R"({"topology": {"preset": "nvl72"}})"
                                                << "$.ml_for_ml.gpus_per_node";
        // 72 flows per ring hop under hashed ECMP: past the sweep's time bound.
        QTest::newRow("hashed ECMP on NVL72 racks")
            << R"({"gpus_per_node": 72, "nic_GBps": 3600, "background_jobs": [1], "foreground_nodes": 4, "topology": {"preset": "nvl72", "ecmp": "hash"}})"
            << "$.ml_for_ml.topology.ecmp";
        QTest::newRow("trace has no placement")
            << R"({"scenario": "trace", "trace_file": "x.csv", "topology": {"preset": "leaf-spine"}})"
            << "$.ml_for_ml.topology";
    }

    void scenarioKeyErrors() {
        QFETCH(QString, json);
        QFETCH(QString, path);
        tandem::Diagnostics d;
        readScenario(nlohmann::json::parse(json.toStdString()), d);
        QVERIFY(!d.ok());
        bool found = false;
        for (const auto& i : d.items()) found = found || i.path == path.toStdString();
        QVERIFY2(found, d.str().c_str());
    }

    void hashedFabricAtLinkLimitValidatesAndRuns() {
        // 65536 leaves of one node under 8 spines, hashed ECMP: 2 x 65536 x 8 = 2^20 leaf links,
        // exactly the limit. It validates, holds that many links plus one NIC link per job, and
        // a spread ring's route lists each (leaf, spine) link it crosses once.
        tandem::Diagnostics d;
        Params p = readScenario({{"background_jobs", {2}},
                                 {"foreground_nodes", 16},
                                 {"topology",
                                  {{"preset", "leaf-spine-4to1"},
                                   {"nodes", 65536},
                                   {"nodes_per_leaf", 1},
                                   {"spines", 8},
                                   {"ecmp", "hash"}}},
                                 {"placement", {{"foreground", "spread"}}}},
                                d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(fabricLeafLinks(p.topology, p.gpusPerNode), kMaxFabricLinks);
        const FabricPlan plan = buildFabric(p);
        QCOMPARE(plan.linkCapacity.size(), std::size_t(kMaxFabricLinks) + 3);  // + 3 NIC links
        const Route& fg = plan.jobRoutes.back();
        // 16 crossing hops x 8 rails, an up and a down link each, plus the NIC: at most 257
        // entries; each hop leaves its own leaf, so at least 16 up and 16 down links.
        QVERIFY2(fg.size() >= 33 && fg.size() <= 257, qPrintable(QString::number(fg.size())));
        std::set<int> links;
        double upShares = 0;
        for (const LinkUse& u : fg) {
            QVERIFY(links.insert(u.link).second);  // every link once
            if (u.link < kMaxFabricLinks / 2) upShares += u.share;
        }
        QVERIFY(std::fabs(upShares - 16.0) < 1e-9);  // one wire byte up per hop
        p.policies = {Policy::Joint};
        p.targetFactors = {1.01};
        const Result res = simulate(p);
        QVERIFY(std::isfinite(res.points.at(0).policies.at(0).firstCrossing_s.at(0)));
    }

    void linkLimitIsCheckedBeforeBuilding_data() {
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("perLeaf");
        QTest::addColumn<int>("spines");
        QTest::addColumn<bool>("hash");
        QTest::addColumn<long long>("links");
        QTest::addColumn<bool>("refused");
        QTest::newRow("at the limit") << 65536 << 1 << 8 << true << (1LL << 20) << false;
        QTest::newRow("one spine more") << 65536 << 1 << 9 << true << 9LL * 131072 << true;
        QTest::newRow("256 spines") << 65536 << 1 << 256 << true << 256LL * 131072 << true;
        QTest::newRow("4096 spines") << 65536 << 1 << 4096 << true << 4096LL * 131072 << true;
        // 4096 spines over 128 leaves (2048 nodes, 16 per leaf): 2^20 links, accepted.
        QTest::newRow("fewer leaves") << 2048 << 16 << 4096 << true << (1LL << 20) << false;
        // Equal split: one bundle per leaf and direction, whatever the spines.
        QTest::newRow("equal split") << 65536 << 1 << 4096 << false << 131072LL << false;
    }

    void linkLimitIsCheckedBeforeBuilding() {
        QFETCH(int, nodes);
        QFETCH(int, perLeaf);
        QFETCH(int, spines);
        QFETCH(bool, hash);
        QFETCH(long long, links);
        QFETCH(bool, refused);
        Topology t = leafSpine(nodes, perLeaf, 4.0, AllReduceAlgorithm::Ring,
                               hash ? Ecmp::Hash : Ecmp::Equal);
        t.spines = spines;
        QCOMPARE(fabricLeafLinks(t, 8), links);
        Placement pl;
        pl.foreground = PlacementPolicy::Spread;
        const FabricKeys keys{"mosaic.background.topology", "mosaic.background.placement"};
        try {
            const FabricPlan f = buildFabric(t, pl, 1, 8, 8, 10e9, 8, keys, true);
            QVERIFY(!refused);
            QCOMPARE(static_cast<long long>(f.linkCapacity.size()), links + 2);
        } catch (const FabricError& e) {
            QVERIFY2(refused, e.what());
            QCOMPARE(QString::fromStdString(e.key()),
                     QStringLiteral("mosaic.background.topology.spines"));
            QVERIFY2(e.reason().find("limit of 1048576 links") != std::string::npos, e.what());
        }
    }
};

TANDEM_TEST_GUILESS_MAIN(TestFabricValidation)
#include "tst_fabric_validation.moc"
