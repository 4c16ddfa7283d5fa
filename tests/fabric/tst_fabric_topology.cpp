// The leaf/spine fabric [docs/MODEL-NETWORK.md]: placement, routes of ring and hierarchical
// all-reduce, max-min fair rates by progressive filling (hand-computed), the scenario keys, and
// the foreground-size behaviour on a non-blocking and a 4:1 fabric.
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
#include "mlforml/params.h"
#include "mlforml/report.h"
#include "mlforml/simulate.h"
#include "test_main.h"

using namespace tandem::mlforml;
using namespace tandem::fabric;

namespace {

Topology leafSpine(int nodes, int perLeaf, double ratio,
                   AllReduceAlgorithm allreduce = AllReduceAlgorithm::Ring,
                   Ecmp ecmp = Ecmp::Equal) {
    Topology t;
    topologyPreset("leaf-spine", t);
    t.nodes = nodes;
    t.nodesPerLeaf = perLeaf;
    t.spines = 4;
    t.oversubscription = ratio;
    t.allreduce = allreduce;
    t.ecmp = ecmp;
    return t;
}

double shareOn(const Route& r, int link) {
    for (const LinkUse& u : r)
        if (u.link == link) return u.share;
    return 0.0;
}

/// The foreground alone on `t`, placed explicitly on `ring` (ring order), NIC `nic` bytes/s per
/// node, 8 GB on the wire per node after 0.1 s of compute: the plan, its exposed transfer time
/// (s) and the use of every link from the end of the compute on.
struct LoneRing {
    FabricPlan plan;
    double seconds = 0;
    std::vector<LinkUsage> links;
    /// The link named `name`, or a failure naming it.
    const LinkUsage& link(const std::string& name) const {
        for (const LinkUsage& u : links)
            if (u.link == name) return u;
        throw std::invalid_argument("no link " + name);
    }
    int index(const std::string& name) const {
        const auto it = std::find(plan.linkNames.begin(), plan.linkNames.end(), name);
        if (it == plan.linkNames.end()) throw std::invalid_argument("no link " + name);
        return static_cast<int>(it - plan.linkNames.begin());
    }
};
LoneRing loneRing(const Topology& t, const std::vector<int>& ring, double nic, int gpus = 1) {
    Placement pl;
    pl.foreground = PlacementPolicy::Explicit;
    pl.foregroundNodes = ring;
    LoneRing out;
    out.plan = buildFabric(t, pl, 0, 1, static_cast<int>(ring.size()), nic, gpus);
    FabricSim sim(out.plan, 1.0, 0.0);
    ForegroundSpec fg;
    fg.nodes = static_cast<int>(ring.size());
    fg.bytesPerNode = 8e9;
    fg.computeS = 0.1;
    fg.iterations = 1;
    sim.setForeground(fg);
    sim.trackLinkUsage(0.1);
    sim.run(100);
    out.seconds = sim.exposedDpTimes().at(0);
    out.links = sim.linkUsage();
    return out;
}

Params readScenario(const nlohmann::json& mlForMl, tandem::Diagnostics& d) {
    Params p;
    tandem::JsonReader r(mlForMl, "$.ml_for_ml", d);
    readParams(r, p);
    return p;
}

/// Joint's time to 1.01 L_min (s) on `preset` with `fgNodes` foreground nodes: a GPT-2 Large
/// foreground spread over the leaves next to 8 packed GPT-1B jobs on a 128-node fabric (8
/// leaves of 16; the packed jobs fill leaves 0-3 and send nothing over uplinks, so the
/// foreground is spread over the other 4 leaves alone), the per-GPU micro-batch fixed at one
/// sequence.
double jointTime(const char* preset, int fgNodes) {
    Params p;
    p.backgroundJobs = {8};
    p.foregroundNodes = fgNodes;
    p.policies = {Policy::Joint};
    p.targetFactors = {1.01};
    topologyPreset(preset, p.topology);
    p.topology.nodes = 128;
    p.placement.foreground = PlacementPolicy::Spread;
    p.placement.background = PlacementPolicy::Packed;
    p.progress.criticalBatchSequences = 1000;
    const Result res = simulate(p);
    return res.points.at(0).policies.at(0).firstCrossing_s.at(0);
}

}  // namespace

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
            fg.computeS = 0.1;
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
        fg.computeS = 0.1;
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
            QVERIFY2(std::fabs(u[l].observedS - 1.1) < 1e-12, qPrintable(what));
            QVERIFY2(std::fabs(u[l].meanUtilisation() - want[l].mean) < 1e-9, qPrintable(what));
            QVERIFY2(std::fabs(u[l].peakUtilisation - want[l].peak) < 1e-9, qPrintable(what));
            QVERIFY2(std::fabs(u[l].saturatedS - want[l].full) < 1e-9, qPrintable(what));
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
                                 QCOMPARE(std::stod(c[3]), u[l].observedS);
                                 QCOMPARE(std::stod(c[4]), u[l].meanUtilisation());
                                 QCOMPARE(std::stod(c[5]), u[l].peakUtilisation);
                                 QCOMPARE(std::stod(c[6]), u[l].saturatedS);
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
        fg.computeS = 0;
        fg.bytesPerNode = 3.75e9;
        shared.setForeground(fg);
        shared.trackLinkUsage(0.0);
        shared.run(100);
        const std::vector<LinkUsage> s = shared.linkUsage();
        QCOMPARE(s.size(), size_t(3));
        QCOMPARE(s[0].link, std::string("fabric"));
        QCOMPARE(s[1].link, std::string("bg0-nic"));
        QCOMPARE(s[2].link, std::string("foreground-nic"));
        QVERIFY(std::fabs(s[0].observedS - 1.0) < 1e-12);
        QVERIFY(std::fabs(s[0].meanUtilisation() - 1.0) < 1e-9);
        QVERIFY(std::fabs(s[0].saturatedS - 1.0) < 1e-9);
        QCOMPARE(s[0].jobs, both);
        QVERIFY(std::fabs(s[1].peakUtilisation - 0.375) < 1e-9);
        QCOMPARE(s[1].saturatedS, 0.0);
        QCOMPARE(s[2].jobs, std::vector<int>{kForegroundJob});
    }

    void linkUsageMergesReplays() {
        // Two records of one fabric: seconds add, peaks take the larger, jobs the union; records
        // of different fabrics are refused.
        std::vector<LinkUsage> a = {{"leaf0-up", 10e9, 1.0, 0.5, 0.5, 0.0, {0}}};
        const std::vector<LinkUsage> b = {{"leaf0-up", 10e9, 2.0, 2.0, 1.0, 2.0, {kForegroundJob}}};
        mergeLinkUsage(a, b);
        QCOMPARE(a[0].observedS, 3.0);
        QCOMPARE(a[0].meanUtilisation(), 2.5 / 3.0);
        QCOMPARE(a[0].peakUtilisation, 1.0);
        QCOMPARE(a[0].saturatedS, 2.0);
        QCOMPARE(a[0].jobs, (std::vector<int>{kForegroundJob, 0}));
        const std::vector<LinkUsage> other = {{"leaf1-up", 10e9, 1.0, 0, 0, 0, {}}};
        QVERIFY_THROWS_EXCEPTION(std::logic_error, mergeLinkUsage(a, other));
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
        fg.computeS = 0.1;
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

TANDEM_TEST_GUILESS_MAIN(TestFabricTopology)
#include "tst_fabric_topology.moc"
