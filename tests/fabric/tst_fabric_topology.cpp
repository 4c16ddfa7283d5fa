// The fabric as built [docs/MODEL-NETWORK.md]: presets, placement, and the routes and rates of
// ring and hierarchical all-reduce on leaf/spine, rail-optimised, NVL72 and three-tier fat-tree
// fabrics and over planes (hand-computed).
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

class TestFabricTopology : public QObject {
    Q_OBJECT
private slots:
    void presetsAreKnown() {
        QCOMPARE(topologyPresetNames().front(), std::string("paper-fabric"));
        Topology t;
        QVERIFY(topologyPreset("leaf-spine-4to1", t));
        QVERIFY(t.kind == FabricKind::LeafSpine);
        QCOMPARE(t.oversubscription, 4.0);
        QVERIFY(topologyPreset("leaf-spine-2to1", t));
        QCOMPARE(t.oversubscription, 2.0);
        QVERIFY(!topologyPreset("fat-tree", t));
        QVERIFY(Topology{} == Topology{});
        QVERIFY(Topology{}.kind == FabricKind::Shared);
        QCOMPARE(std::string(name(FabricKind::LeafSpine)), std::string("leaf_spine"));
    }

    void placementPolicies() {
        // 4 leaves of 4 nodes; one background job of 3 nodes then a 4-node foreground.
        Topology t = leafSpine(16, 4, 1.0);
        Placement pl;
        FabricPlan f = buildFabric(t, pl, 1, 3, 4, 10e9, 8);
        QCOMPARE(f.jobNodes[0], (std::vector<int>{0, 1, 2}));
        QCOMPARE(f.jobNodes[1], (std::vector<int>{3, 4, 5, 6}));
        pl.foreground = PlacementPolicy::Spread;
        f = buildFabric(t, pl, 1, 3, 4, 10e9, 8);
        QCOMPARE(f.jobNodes[1], (std::vector<int>{3, 4, 8, 12}));
        pl.foreground = PlacementPolicy::Random;
        pl.seed = 7;
        f = buildFabric(t, pl, 1, 3, 4, 10e9, 8);
        const std::set<int> s(f.jobNodes[1].begin(), f.jobNodes[1].end());
        QCOMPARE(s.size(), size_t(4));
        for (int n : s) QVERIFY(n >= 3 && n < 16);
        QCOMPARE(buildFabric(t, pl, 1, 3, 4, 10e9, 8).jobNodes[1], f.jobNodes[1]);  // seeded
        pl.foreground = PlacementPolicy::Explicit;
        pl.foregroundNodes = {15, 3, 9, 6};
        f = buildFabric(t, pl, 1, 3, 4, 10e9, 8);
        QCOMPARE(f.jobNodes[1], pl.foregroundNodes);
    }

    void placementErrors_data() {
        QTest::addColumn<std::vector<int>>("list");
        QTest::addColumn<int>("fgNodes");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("reason");
        QTest::newRow("too many nodes")
            << std::vector<int>{} << 14 << "ml_for_ml.topology.nodes"
            << "the fabric has 16 nodes, the jobs need 17 (1 background jobs x 3 + 14 foreground)";
        QTest::newRow("wrong length")
            << std::vector<int>{4, 5} << 4 << "ml_for_ml.placement.foreground_nodes"
            << "lists 2 nodes, the job has 4";
        QTest::newRow("off the fabric")
            << std::vector<int>{4, 5, 6, 16} << 4 << "ml_for_ml.placement.foreground_nodes"
            << "node 16 is not on the fabric (nodes 0..15)";
        QTest::newRow("taken by background")
            << std::vector<int>{1, 5, 6, 7} << 4 << "ml_for_ml.placement.foreground_nodes"
            << "node 1 is already taken (a node runs one job)";
        QTest::newRow("repeated") << std::vector<int>{5, 5, 6, 7} << 4
                                  << "ml_for_ml.placement.foreground_nodes"
                                  << "node 5 is already taken (a node runs one job)";
    }

    // The key and the reason are data (FabricError); what() joins them as "key: reason".
    void placementErrors() {
        QFETCH(std::vector<int>, list);
        QFETCH(int, fgNodes);
        QFETCH(QString, key);
        QFETCH(QString, reason);
        Placement pl;
        if (!list.empty()) {
            pl.foreground = PlacementPolicy::Explicit;
            pl.foregroundNodes = list;
        }
        try {
            buildFabric(leafSpine(16, 4, 1.0), pl, 1, 3, fgNodes, 10e9, 8);
            QFAIL("no error");
        } catch (const FabricError& e) {
            QCOMPARE(QString::fromStdString(e.key()), key);
            QCOMPARE(QString::fromStdString(e.reason()), reason);
            QCOMPARE(QString(e.what()), key + ": " + reason);
        }
    }

    void ringRoutes() {
        // 8 nodes, leaves of 4, 2:1: uplink bundles of 4 x 10 / 2 = 20 GB/s.
        Topology t = leafSpine(8, 4, 2.0);
        Placement pl;
        FabricPlan f = buildFabric(t, pl, 0, 1, 8, 10e9, 8);  // packed: 0..7
        QCOMPARE(f.linkCapacity[0], 20e9);                    // leaf 0 up
        // Packed ring crosses each leaf boundary once: one hop up out of each leaf.
        const Route& r = f.jobRoutes.back();
        QCOMPARE(shareOn(r, 0), 1.0);             // leaf 0 up
        QCOMPARE(shareOn(r, 1), 1.0);             // leaf 1 up
        QCOMPARE(shareOn(r, 2), 1.0);             // leaf 0 down
        pl.foreground = PlacementPolicy::Spread;  // 0, 4, 1, 5, ...: every hop crosses
        f = buildFabric(t, pl, 0, 1, 8, 10e9, 8);
        QCOMPARE(shareOn(f.jobRoutes.back(), 0), 4.0);
        // Hierarchical on the spread placement: 2 leaves, m = 4: per S, NIC 2*3/4 + 2*1/2/4 =
        // 1.75 against the ring's 2*7/8 = 1.75 (share 1); uplinks 2*(1/2) / 1.75 per leaf.
        t.allreduce = AllReduceAlgorithm::Hierarchical;
        f = buildFabric(t, pl, 0, 1, 8, 10e9, 8);
        QCOMPARE(shareOn(f.jobRoutes.back(), f.linkCapacity.size() - 1), 1.0);
        QVERIFY(std::fabs(shareOn(f.jobRoutes.back(), 0) - 1.0 / 1.75) < 1e-12);
        // Per-flow hashing: one bundle per spine; the 8 rails of the 4 crossing hops land on
        // spines, shares summing to the equal split's 4.
        t.allreduce = AllReduceAlgorithm::Ring;
        t.ecmp = Ecmp::Hash;
        f = buildFabric(t, pl, 0, 1, 8, 10e9, 8);
        QCOMPARE(f.linkCapacity[0], 5e9);
        double up0 = 0;
        for (int s = 0; s < 4; ++s) up0 += shareOn(f.jobRoutes.back(), s);
        QVERIFY(std::fabs(up0 - 4.0) < 1e-12);
    }

    void railOptimisedRoutesAndRates_data() {
        // 2 scalable units of 4 nodes, 2 GPUs (rails) per node, NIC 10 GB/s per node (5 per
        // GPU), spines 2. Each unit has one rail leaf per GPU; a rail leaf's uplink bundle
        // carries 4 nodes x 5 GB/s / ratio. Links: up (su 0 rail 0, su 0 rail 1, su 1 rail 0,
        // su 1 rail 1) = 0..3, down = 4..7, the job's NIC 8. A ring all-reduce of 8 GB over n
        // nodes puts 2(n-1)/n x 8 GB on the wire per node.
        QTest::addColumn<int>("nodes");            // ring length
        QTest::addColumn<bool>("spread");          // placement: spread (every hop crosses units)
        QTest::addColumn<double>("ratio");         // oversubscription
        QTest::addColumn<double>("railUpShare");   // share on su0-rail0-up (= on every rail link)
        QTest::addColumn<double>("railCapacity");  // bytes/s of a rail leaf's uplink bundle
        QTest::addColumn<double>("rate");          // max-min fair per-node rate, bytes/s
        QTest::addColumn<double>("seconds");       // one all-reduce's time
        // One unit's 4 nodes: the ring's hops turn at the rail leaves, no spine bytes; NIC-bound:
        // 12 GB at 10 GB/s.
        QTest::newRow("one unit") << 4 << false << 1.0 << 0.0 << 20e9 << 10e9 << 1.2;
        // Packed over both units: hops 3 -> 4 and 7 -> 0 cross, each rail carries half of a
        // hop: 0.5 per rail link, 5 of its 20 GB/s; NIC-bound: 14 GB at 10 GB/s.
        QTest::newRow("two units packed") << 8 << false << 1.0 << 0.5 << 20e9 << 10e9 << 1.4;
        // Spread 0, 4, 1, 5, ...: all 8 hops cross, 4 out of each unit, 2 per rail link;
        // non-blocking it still runs at the NIC's 10 GB/s (2 x 10 = 20 GB/s, the link's full).
        QTest::newRow("two units spread") << 8 << true << 1.0 << 2.0 << 20e9 << 10e9 << 1.4;
        // 4:1: a rail leaf's uplinks carry 4 x 5 / 4 = 5 GB/s; 2 r = 5 -> 2.5 GB/s, 14 / 2.5 s.
        QTest::newRow("two units spread 4:1") << 8 << true << 4.0 << 2.0 << 5e9 << 2.5e9 << 5.6;
    }

    void railOptimisedRoutesAndRates() {
        QFETCH(int, nodes);
        QFETCH(bool, spread);
        QFETCH(double, ratio);
        QFETCH(double, railUpShare);
        QFETCH(double, railCapacity);
        QFETCH(double, rate);
        QFETCH(double, seconds);
        Topology t;
        QVERIFY(topologyPreset("rail-optimised", t));
        t.nodes = 8;
        t.nodesPerLeaf = 4;
        t.spines = 2;
        t.oversubscription = ratio;
        QCOMPARE(fabricLeafLinks(t, 2), 8LL);
        Placement pl;
        pl.foreground = spread ? PlacementPolicy::Spread : PlacementPolicy::Packed;
        const FabricPlan f = buildFabric(t, pl, 0, 1, nodes, 10e9, 2);
        QCOMPARE(f.linkCapacity.size(), std::size_t(9));
        QCOMPARE(f.linkNames[1], std::string("su0-rail1-up"));
        QCOMPARE(f.linkNames[6], std::string("su1-rail0-down"));
        QCOMPARE(f.linkNames[8], std::string("foreground-nic"));
        for (int l = 0; l < 8; ++l) QCOMPARE(f.linkCapacity[size_t(l)], railCapacity);
        QCOMPARE(f.linkCapacity[8], 10e9);
        // Every rail of every unit carries the same share up and down; the NIC share 1.
        const Route& r = f.jobRoutes.back();
        QCOMPARE(shareOn(r, 8), 1.0);
        for (int l = 0; l < 8; ++l) QCOMPARE(shareOn(r, l), railUpShare);
        QCOMPARE(r.size(), railUpShare > 0 ? std::size_t(9) : std::size_t(1));
        // Max-min fair rate of the lone job, then one all-reduce of 8 GB in the event loop.
        FluidNetwork net(f.linkCapacity, 1.0, 0.0);
        const int flow = net.startFlow(net.addGroup(nodes, r), 1e9, 0);
        net.recomputeRates();
        QCOMPARE(net.flowRate(flow), rate);
        FabricSim sim(f, 1.0, 0.0);
        ForegroundSpec fg;
        fg.nodes = nodes;
        fg.bytesPerNode = ringWireBytesPerNode(8e9, nodes);
        fg.compute_s = 0.1;
        fg.iterations = 1;
        sim.setForeground(fg);
        sim.run(100);
        QVERIFY2(std::fabs(sim.exposedDpTimes().at(0) - seconds) < 1e-9,
                 qPrintable(QString::number(sim.exposedDpTimes().at(0))));
    }

    void railOptimisedKeepsHopsOnTheirRail() {
        // The same 4-node ring on leaves of the same port count: a rail leaf has one port per
        // node of its unit (4); a leaf of the "none" fabric takes both NICs of each node, so 2
        // nodes. The packed ring over nodes 0..3 turns inside the rail leaves (no uplink bytes)
        // but crosses between the two "none" leaves twice (1 -> 2, 3 -> 0).
        Topology rails;
        QVERIFY(topologyPreset("rail-optimised", rails));
        rails.nodes = 8;
        rails.nodesPerLeaf = 4;
        rails.spines = 2;
        Topology none = rails;
        none.rails = Rails::None;
        none.nodesPerLeaf = 2;
        const FabricPlan a = buildFabric(rails, Placement{}, 0, 1, 4, 10e9, 2);
        const FabricPlan b = buildFabric(none, Placement{}, 0, 1, 4, 10e9, 2);
        QCOMPARE(a.jobRoutes.back().size(), std::size_t(1));  // the NIC only
        QCOMPARE(shareOn(b.jobRoutes.back(), 0), 1.0);        // leaf 0 up
        QCOMPARE(shareOn(b.jobRoutes.back(), 1), 1.0);        // leaf 1 up
        QCOMPARE(b.linkNames[0], std::string("leaf0-up"));
        // Hashed ECMP: each rail's flow goes up its own rail leaf to one spine; the two flows
        // of the packed 8-ring's hop 3 -> 4 put 0.5 on rail 0 and 0.5 on rail 1 of unit 0, over
        // spine bundles of 20 / 2 spines = 10 GB/s; the links are (unit, rail, spine): rail 0
        // of unit 0 is links 0 and 1, rail 1 links 2 and 3.
        rails.ecmp = Ecmp::Hash;
        QCOMPARE(fabricLeafLinks(rails, 2), 16LL);
        const FabricPlan h = buildFabric(rails, Placement{}, 0, 1, 8, 10e9, 2);
        QCOMPARE(h.linkCapacity[0], 10e9);
        QCOMPARE(h.linkNames[3], std::string("su0-rail1-up-spine1"));
        QCOMPARE(shareOn(h.jobRoutes.back(), 0) + shareOn(h.jobRoutes.back(), 1), 0.5);
        QCOMPARE(shareOn(h.jobRoutes.back(), 2) + shareOn(h.jobRoutes.back(), 3), 0.5);
    }

    void nvl72TwoRacks_data() {
        QTest::addColumn<int>("secondRack");  // node id of the second rack
        QTest::addColumn<bool>("spine");      // the racks are in different units
        QTest::newRow("one unit") << 1 << false;
        QTest::newRow("two units") << 8 << true;
    }

    void nvl72TwoRacks() {
        // Two GB200 NVL72 racks, each one node of 72 GPUs with a 400 Gb/s (50 GB/s) NIC per GPU:
        // 3600 GB/s per rack. An all-reduce of 7.2 GB across the two racks puts 2(2-1)/2 x 7.2
        // = 7.2 GB on the wire per rack, 100 MB through each NIC, 2 ms at line rate. In one
        // unit (8 racks) it turns at the 72 rail leaves; across units every rail leaf's uplinks
        // (8 racks x 50 GB/s = 400 GB/s) carry 1/72 of each rack's bytes: 50 GB/s, 100 MB.
        QFETCH(int, secondRack);
        QFETCH(bool, spine);
        Topology t;
        QVERIFY(topologyPreset("nvl72", t));
        QCOMPARE(t.nodesPerLeaf, 8);
        QVERIFY(t.rails == Rails::Optimised);
        t.nodes = 16;
        QCOMPARE(fabricLeafLinks(t, kNvl72Gpus), 2LL * 2 * 72);
        Placement pl;
        pl.foreground = PlacementPolicy::Explicit;
        pl.foregroundNodes = {0, secondRack};
        const double rack = 72 * 50e9;
        const FabricPlan f = buildFabric(t, pl, 0, 1, 2, rack, kNvl72Gpus);
        const int nic = int(f.linkCapacity.size()) - 1;
        QCOMPARE(f.linkCapacity[size_t(nic)], 3600e9);
        QCOMPARE(f.linkCapacity[0], 400e9);  // su0-rail0-up
        const Route& r = f.jobRoutes.back();
        QCOMPARE(r.size(), spine ? std::size_t(1 + 4 * 72) : std::size_t(1));
        const double wire = ringWireBytesPerNode(7.2e9, 2);
        QCOMPARE(wire, 7.2e9);
        FluidNetwork net(f.linkCapacity, 1.0, 0.0);
        const int flow = net.startFlow(net.addGroup(2, r), wire, 0);
        net.recomputeRates();
        QCOMPARE(net.flowRate(flow), 3600e9);  // the NICs bind
        QVERIFY(std::fabs(wire / net.flowRate(flow) - 2e-3) < 1e-15);
        QVERIFY(std::fabs(wire / kNvl72Gpus - 100e6) < 1e-6);  // bytes per NIC
        if (spine) {
            // Rail 5 of unit 0 up, rail 5 of unit 1 down: 1/72 of the rack's bytes and rate.
            for (const char* name : {"su0-rail5-up", "su1-rail5-down"}) {
                const auto it = std::find(f.linkNames.begin(), f.linkNames.end(), name);
                QVERIFY(it != f.linkNames.end());
                const int link = int(it - f.linkNames.begin());
                QVERIFY(std::fabs(shareOn(r, link) * wire - 100e6) < 1e-3);
                QVERIFY(std::fabs(shareOn(r, link) * net.flowRate(flow) - 50e9) < 1e-3);
            }
        }
        // A scenario on the nvl72 topology must make a node a rack of 72 GPUs.
        tandem::Diagnostics d;
        readScenario({{"topology", {{"preset", "nvl72"}}}}, d);
        QVERIFY(!d.ok());
        QCOMPARE(QString::fromStdString(d.items().front().path),
                 QStringLiteral("$.ml_for_ml.gpus_per_node"));
        tandem::Diagnostics ok;
        readScenario({{"topology", {{"preset", "nvl72"}, {"nodes", 256}}},
                      {"gpus_per_node", 72},
                      {"nic_GBps", 3600}},
                     ok);
        QVERIFY2(ok.ok(), ok.str().c_str());
    }

    void railOptimisedPresetIsTheSuperPod() {
        // DGX SuperPOD with DGX B200, 4 scalable units: 128 nodes, 32 per unit, 8 rail leaves
        // per unit (32 leaf switches: 64 up and down bundles), 16 spines, non-blocking.
        Topology t;
        QVERIFY(topologyPreset("rail-optimised", t));
        QVERIFY(t.kind == FabricKind::LeafSpine);
        QCOMPARE(t.nodes, 128);
        QCOMPARE(t.nodesPerLeaf, 32);
        QCOMPARE(t.spines, 16);
        QCOMPARE(t.oversubscription, 1.0);
        QCOMPARE(fabricLeafLinks(t, 8), 64LL);
        // The leaf-spine presets keep one leaf per node.
        QVERIFY(topologyPreset("leaf-spine-4to1", t));
        QVERIFY(t.rails == Rails::None);
        QCOMPARE(fabricLeafLinks(t, 8), 128LL);
    }

    /// Three tiers: 8 nodes, leaves of 2 (4 leaves), pods of 2 leaves (2 pods) with 2 spines
    /// each, 2 cores; NIC 10 GB/s, leaf 2:1, spine 4:1. Leaf bundle: 2 x 10 / 2 = 10 GB/s;
    /// a spine's core bundle: 2 leaves x 10 GB/s / 4 / 2 spines = 2.5 GB/s.
    void fatTreeRoutesAndRates() {
        Topology t = leafSpine(8, 2, 2.0);
        t.tiers = 3;
        t.leavesPerPod = 2;
        t.spines = 2;
        t.cores = 2;
        t.spineOversubscription = 4.0;
        QCOMPARE(fabricLeafLinks(t, 1), 16LL);  // 2 x 4 leaves + 2 x 2 pods x 2 spines
        // Ring 0 -> 2 -> 4 -> 0: leaf0 -> leaf1 turns at pod 0's spines; leaf1 -> leaf2 and
        // leaf2 -> leaf0 cross the core, half over each spine of the source and the destination
        // pod. Per node r bytes/s: leaf bundles carry r (<= 10), the spines' core bundles r/2
        // (<= 2.5): r = 5 GB/s, 8 GB in 1.6 s.
        const LoneRing a = loneRing(t, {0, 2, 4}, 10e9);
        const std::vector<std::string> names = {
            "leaf0-up",         "leaf1-up",         "leaf2-up",         "leaf3-up",
            "leaf0-down",       "leaf1-down",       "leaf2-down",       "leaf3-down",
            "pod0-spine0-up",   "pod0-spine1-up",   "pod1-spine0-up",   "pod1-spine1-up",
            "pod0-spine0-down", "pod0-spine1-down", "pod1-spine0-down", "pod1-spine1-down",
            "foreground-nic"};
        QCOMPARE(a.plan.linkNames, names);
        for (int l = 0; l < 8; ++l) QCOMPARE(a.plan.linkCapacity[l], 10e9);
        for (int l = 8; l < 16; ++l) QCOMPARE(a.plan.linkCapacity[l], 2.5e9);
        const Route& r = a.plan.jobRoutes.back();
        const std::vector<double> shares = {1, 1, 1, 0, 1, 1, 1, 0, .5, .5, .5, .5, .5, .5, .5, .5};
        for (int l = 0; l < 16; ++l) QVERIFY2(shareOn(r, l) == shares[l], names[l].c_str());
        QVERIFY2(std::fabs(a.seconds - 1.6) < 1e-9, qPrintable(QString::number(a.seconds)));
        // Peaks: a core bundle 5 / 2 / 2.5 = 1 (full), a leaf bundle 5 / 10.
        QVERIFY(std::fabs(a.link("pod0-spine0-up").peakUtilisation - 1.0) < 1e-9);
        QVERIFY(std::fabs(a.link("pod1-spine1-down").peakUtilisation - 1.0) < 1e-9);
        QVERIFY(std::fabs(a.link("leaf0-up").peakUtilisation - 0.5) < 1e-9);
        QVERIFY(a.link("leaf3-up").jobs.empty());
        // Within one pod (0 -> 2 -> 0) no core bundle is crossed: r = min(NIC, leaf) = 10 GB/s.
        const LoneRing b = loneRing(t, {0, 2}, 10e9);
        for (int l = 8; l < 16; ++l) QCOMPARE(shareOn(b.plan.jobRoutes.back(), l), 0.0);
        QVERIFY(std::fabs(b.seconds - 0.8) < 1e-9);
        // Core 0 down: every spine's core traffic takes core 1; its bundle per core is
        // 2.5 / 2 = 1.25 GB/s and carries r/2 (half of each crossing hop per source spine,
        // half per destination spine): r = 2.5 GB/s, 3.2 s.
        t.failed = {{"core0", 0.0}};
        const LoneRing c = loneRing(t, {0, 2, 4}, 10e9);
        QCOMPARE(c.plan.linkCapacity[c.index("pod0-spine0-up-core0")], 0.0);
        QCOMPARE(c.plan.linkCapacity[c.index("pod0-spine0-up-core1")], 1.25e9);
        QCOMPARE(shareOn(c.plan.jobRoutes.back(), c.index("pod0-spine1-up-core1")), 0.5);
        QCOMPARE(shareOn(c.plan.jobRoutes.back(), c.index("pod1-spine0-down-core1")), 0.5);
        QCOMPARE(shareOn(c.plan.jobRoutes.back(), c.index("pod0-spine1-up-core0")), 0.0);
        QVERIFY2(std::fabs(c.seconds - 3.2) < 1e-9, qPrintable(QString::number(c.seconds)));
        // Hashed ECMP: one bundle per spine and core; the hop leaf1 -> leaf2 (one flow of
        // 1 GPU) goes up one spine of pod 0 to one core: its shares out of pod 0 sum to 1.
        t.failed.clear();
        t.ecmp = Ecmp::Hash;
        const LoneRing h = loneRing(t, {0, 2, 4}, 10e9);
        double out0 = 0, in1 = 0;
        for (int s = 0; s < 2; ++s)
            for (int k = 0; k < 2; ++k) {
                const std::string sc = std::to_string(s) + "-up-core" + std::to_string(k);
                out0 += shareOn(h.plan.jobRoutes.back(), h.index("pod0-spine" + sc));
                in1 += shareOn(h.plan.jobRoutes.back(), h.index("pod1-spine" + std::to_string(s) +
                                                                "-down-core" + std::to_string(k)));
            }
        QCOMPARE(out0, 1.0);
        QCOMPARE(in1, 1.0);
        QCOMPARE(h.plan.linkCapacity[h.index("pod0-spine0-up-core1")], 1.25e9);
    }

    /// Two planes: 8 nodes, leaves of 4, 2 spines, 4:1, NIC 10 GB/s split 5 + 5: each plane's
    /// leaf bundle 4 x 5 / 4 = 5 GB/s carries half of each flow.
    void planesSplitEveryFlow() {
        Topology t = leafSpine(8, 4, 4.0);
        t.spines = 2;
        t.planes = 2;
        // Ring 0 -> 4 -> 0: each plane's leaf bundles carry r/2 <= 5 and the NIC r <= 10:
        // r = 10 GB/s, 0.8 s, as on one plane of 10 GB/s bundles.
        const LoneRing a = loneRing(t, {0, 4}, 10e9);
        const std::vector<std::string> names = {
            "plane0-leaf0-up",   "plane0-leaf1-up",   "plane0-leaf0-down",
            "plane0-leaf1-down", "plane1-leaf0-up",   "plane1-leaf1-up",
            "plane1-leaf0-down", "plane1-leaf1-down", "foreground-nic"};
        QCOMPARE(a.plan.linkNames, names);
        for (int l = 0; l < 8; ++l) {
            QCOMPARE(a.plan.linkCapacity[l], 5e9);
            QCOMPARE(shareOn(a.plan.jobRoutes.back(), l), 0.5);
        }
        QVERIFY(std::fabs(a.seconds - 0.8) < 1e-9);
        QVERIFY(std::fabs(a.link("plane1-leaf1-down").peakUtilisation - 1.0) < 1e-9);
        t.planes = 1;
        QVERIFY(std::fabs(loneRing(t, {0, 4}, 10e9).seconds - 0.8) < 1e-9);
        // Spine 0 of plane 0 down: plane 0's half goes over its spine 1, whose bundle is
        // 5 / 2 = 2.5 GB/s: r/2 <= 2.5, r = 5 GB/s, 1.6 s; plane 1 still splits its half over
        // both spines (r/4 = 1.25 of 2.5: half full).
        t.planes = 2;
        t.failed = {{"plane0-spine0", 0.0}};
        const LoneRing f = loneRing(t, {0, 4}, 10e9);
        QCOMPARE(f.plan.linkCapacity[f.index("plane0-leaf0-up-spine0")], 0.0);
        QCOMPARE(f.plan.linkCapacity[f.index("plane1-leaf0-up-spine0")], 2.5e9);
        QCOMPARE(shareOn(f.plan.jobRoutes.back(), f.index("plane0-leaf0-up-spine1")), 0.5);
        QCOMPARE(shareOn(f.plan.jobRoutes.back(), f.index("plane1-leaf0-up-spine0")), 0.25);
        QVERIFY2(std::fabs(f.seconds - 1.6) < 1e-9, qPrintable(QString::number(f.seconds)));
        QVERIFY(std::fabs(f.link("plane1-leaf0-up-spine1").peakUtilisation - 0.5) < 1e-9);
        QVERIFY(f.link("plane0-leaf0-up-spine0").jobs.empty());
    }

    /// The GUI's topology menu applies presets through applyTopologyPreset: nvl72 makes a node a
    /// rack (72 GPUs, 72 x 400 Gb/s), so the scenario it saves validates.
    void nvl72PresetMakesANodeARack() {
        Params p;
        p.backgroundJobs = {1};
        p.foregroundNodes = 4;
        QVERIFY(applyTopologyPreset(p, "nvl72"));
        QCOMPARE(p.gpusPerNode, 72);
        QCOMPARE(p.nicBytesPerS, 3600e9);
        QCOMPARE(p.topology.preset, std::string("nvl72"));
        tandem::Diagnostics d;
        readScenario(nlohmann::json::parse(writeParams(p).dump()), d);
        QVERIFY2(d.ok(), d.str().c_str());
        Params q;
        QVERIFY(applyTopologyPreset(q, "rail-optimised"));
        QCOMPARE(q.gpusPerNode, 8);  // other presets leave the node alone
        QVERIFY(!applyTopologyPreset(q, "torus"));
    }
};

TANDEM_TEST_GUILESS_MAIN(TestFabricTopology)
#include "tst_fabric_topology.moc"
