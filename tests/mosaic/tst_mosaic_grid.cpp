// Layout grids of any cluster size (mosaic/layout_grid.h): the rounded global batch by hand, the
// derived PP and EP lists, the auto rule (paper envelopes keep the paper grid), non-power-of-two
// clusters getting a layout, and the no-feasible diagnosis (rules, nearest node count).
#include <QtTest>
#include <cstdlib>
#include <set>

#include "common/json_reader.h"
#include "mosaic/layout_grid.h"
#include "mosaic/plan.h"
#include "mosaic/report.h"
#include "mosaic/reproduce.h"
#include "mosaic/search.h"
#include "test_main.h"

using namespace tandem::mosaic;

class TestMosaicGrid : public QObject {
    Q_OBJECT
private slots:
    void roundedBatch_data();
    void roundedBatch();
    void derivedGrid();
    void autoKeepsPaperGrid();
    void batchTablesPartitionLayouts();
    void nonPowerOfTwoClusterGetsLayout_data();
    void nonPowerOfTwoClusterGetsLayout();
    void planOnHundredGpus();
    void listedGridOnOddClusterExplainsItself();
    void nearestWorkingDevicesIsNearest();
    void envelopeKey();
    void noFeasibleWording_data();
    void noFeasibleWording();
};

void TestMosaicGrid::roundedBatch_data() {
    QTest::addColumn<int>("requested");
    QTest::addColumn<int>("dp");
    QTest::addColumn<int>("mbs");
    QTest::addColumn<int>("used");
    // By hand: n_mb = floor(B / (DP B_micro) + 1/2), B' = n_mb DP B_micro.
    QTest::newRow("divides") << 1024 << 8 << 4 << 1024;           // 32 microbatches
    QTest::newRow("24 ranks") << 1024 << 24 << 1 << 1032;         // 42.67 -> 43 x 24
    QTest::newRow("24 ranks x 4") << 1024 << 24 << 4 << 1056;     // 10.67 -> 11 x 96
    QTest::newRow("3 ranks down") << 1024 << 3 << 1 << 1023;      // 341.33 -> 341 x 3
    QTest::newRow("20 ranks x 4") << 1024 << 20 << 4 << 1040;     // 12.8 -> 13 x 80
    QTest::newRow("tie to larger") << 1000 << 16 << 1 << 1008;    // 62.5 -> 63 x 16
    QTest::newRow("one microbatch") << 100 << 100 << 1 << 100;    // exactly one
    QTest::newRow("ranks exceed batch") << 100 << 101 << 1 << 0;  // fewer sequences than ranks
    QTest::newRow("ranks x mbs exceed") << 100 << 60 << 2 << 0;
    QTest::newRow("bad input") << 0 << 8 << 1 << 0;
}

void TestMosaicGrid::roundedBatch() {
    QFETCH(int, requested);
    QFETCH(int, dp);
    QFETCH(int, mbs);
    QFETCH(int, used);
    QCOMPARE(roundedGlobalBatch(requested, dp, mbs), used);
    if (used > 0) {
        QCOMPARE(used % (dp * mbs), 0);
        QVERIFY(2 * std::abs(used - requested) <= dp * mbs);
    }
}

/// 24 p6-b200 nodes = 192 GPUs, TP {1,2,4,8} x CP {1,2}: N / (TP CP) in {192, 96, 48, 24, 12},
/// so PP = the divisors of 192 up to 64; EP = every divisor of 192.
void TestMosaicGrid::derivedGrid() {
    Cluster c;
    c.devices = 192;
    const LayoutGrid g = derivedLayoutGrid(c, LayoutGrid{});
    QCOMPARE(g.pp, (std::vector<int>{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}));
    QCOMPARE(g.ep, (std::vector<int>{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 192}));
    QCOMPARE(g.tp, LayoutGrid{}.tp);
    QCOMPARE(g.mbs, LayoutGrid{}.mbs);
    // A prime GPU count: only PP 1 and N itself when N <= 64; EP 1 or N.
    c.devices = 31;
    const LayoutGrid p = derivedLayoutGrid(c, LayoutGrid{});
    QCOMPARE(p.pp, (std::vector<int>{1, 31}));
    QCOMPARE(p.ep, (std::vector<int>{1, 31}));
}

/// The paper's envelopes (powers of two) resolve to the listed grid with an exact batch, so
/// `reproduce mosaic` keeps its numbers; 24 nodes resolve to the derived grid and say why.
void TestMosaicGrid::autoKeepsPaperGrid() {
    for (const Envelope& e : {table3Envelope(), fig1Envelope()}) {
        const LayoutSpace s = layoutSpaceOf(e);
        QVERIFY(s.rule == LayoutGridRule::Listed);
        QVERIFY(!s.roundBatch && s.note.empty());
        QCOMPARE(s.grid.pp, e.ppValues);
        QCOMPARE(s.grid.ep, e.epValues);
    }
    Envelope odd = table3Envelope();
    odd.nodes = 24;
    const LayoutSpace s = layoutSpaceOf(odd);
    QVERIFY(s.rule == LayoutGridRule::Derived);
    QVERIFY(s.roundBatch);
    QVERIFY(s.note.find("192 GPUs") != std::string::npos);
    odd.layoutGrid = LayoutGridRule::Listed;
    QVERIFY(layoutSpaceOf(odd).rule == LayoutGridRule::Listed);
}

/// Every layout of the derived grid lands in exactly one batch table, the one of its own rounded
/// batch; the tables come nearest batch first.
void TestMosaicGrid::batchTablesPartitionLayouts() {
    Cluster c;
    c.devices = 192;
    const LayoutSpace s = resolveLayoutSpace(c, LayoutGrid{}, LayoutGridRule::Derived);
    const auto tables = batchTables(c, s);
    QVERIFY(tables.size() > 1);
    std::set<std::tuple<int, int, int, int, int>> seen;
    int last = -1;
    for (const auto& bt : tables) {
        const int gap = std::abs(bt.cluster.globalBatch - c.globalBatch);
        QVERIFY(gap >= last);
        last = gap;
        for (const auto& g : bt.table.groups())
            for (int bi = g.batchBegin; bi < g.batchEnd; ++bi) {
                const int mbs = bt.table.batches()[size_t(bi)].mbs;
                QCOMPARE(roundedGlobalBatch(c.globalBatch, g.dp, mbs), bt.cluster.globalBatch);
                QVERIFY(seen.insert({g.tp, g.cp, g.pp, g.ep, mbs}).second);
            }
    }
    // ... and every layout that passes the cluster rules with some batch is in one of them.
    int expected = 0;
    for (int tp : s.grid.tp)
        for (int cp : s.grid.cp)
            for (int pp : s.grid.pp) {
                if (192 % (tp * cp * pp) != 0) continue;
                const int dp = 192 / (tp * cp * pp);
                if (tp > 8 || 2048 % cp != 0) continue;
                for (int ep : s.grid.ep)
                    for (int mbs : s.grid.mbs)
                        if (dp % ep == 0 && roundedGlobalBatch(1024, dp, mbs) > 0) ++expected;
            }
    QCOMPARE(int(seen.size()), expected);
}

void TestMosaicGrid::nonPowerOfTwoClusterGetsLayout_data() {
    QTest::addColumn<int>("nodes");
    QTest::newRow("24 nodes") << 24;
    QTest::newRow("3 nodes") << 3;
    QTest::newRow("9 nodes") << 9;
}

/// Today's grid found nothing at these node counts (no DP x B_micro of it divides 1024); the
/// derived grid does, and each candidate's batch is its layout's rounded batch.
void TestMosaicGrid::nonPowerOfTwoClusterGetsLayout() {
    QFETCH(int, nodes);
    Envelope e = table3Envelope();
    e.nodes = nodes;
    Envelope listed = e;
    listed.layoutGrid = LayoutGridRule::Listed;
    QVERIFY(search(listed).candidates.empty());
    const SearchResult r = search(e);
    QVERIFY(r.layoutGrid == LayoutGridRule::Derived);
    QVERIFY(!r.candidates.empty());
    QCOMPARE(r.globalBatchRequested, 1024);
    QVERIFY(r.rejections.empty() && r.nearestWorkingNodes == 0);
    for (const Candidate& c : r.candidates) {
        QCOMPARE(c.globalBatch, roundedGlobalBatch(1024, c.plan.dp, c.plan.mbs));
        QCOMPARE(c.globalBatch, c.eval.microbatches * c.plan.dp * c.plan.mbs);
        QCOMPARE(c.plan.tp * c.plan.cp * c.plan.pp * c.plan.dp, 8 * nodes);
    }
    const auto j = searchToJson(r);
    QCOMPARE(j["layout_grid"].get<std::string>(), std::string("derived"));
    QCOMPARE(j["global_batch_sequences_requested"].get<int>(), 1024);
    QCOMPARE(j["candidates"][0]["global_batch_sequences"].get<int>(), r.candidates[0].globalBatch);
}

/// 100 GPUs (not a whole number of 8-GPU nodes, 4 x 25): the q12 E96 K2 G4 model gets layouts;
/// the first one runs TP1 PP5 DP20 B_micro 4, i.e. 1024 / 80 = 12.8 -> 13 microbatches = 1040.
void TestMosaicGrid::planOnHundredGpus() {
    const Geometry g = ladderGeometry(12, 96, 2, 4);
    Cluster c;
    c.devices = 100;
    const auto layouts = planLayouts(g, c, LayoutGrid{}, 5);
    QVERIFY(!layouts.empty());
    for (const auto& [p, ev] : layouts) {
        QVERIFY(ev.feasible);
        QCOMPARE(planGlobalBatch(p, ev), roundedGlobalBatch(1024, p.dp, p.mbs));
    }
    Plan p;
    p.tp = 1;
    p.ep = 4;
    p.pp = 5;
    p.cp = 1;
    p.dp = 20;
    p.mbs = 4;
    p.ckpt = Checkpointing::Full;
    const PlanEval ev = evaluateLayout(g, c, p);
    QVERIFY2(ev.feasible, ev.reason.c_str());
    QCOMPARE(ev.microbatches, 13);
    QCOMPARE(planGlobalBatch(p, ev), 1040);
    const auto j = planToJson(g, c, {{p, ev}});
    QCOMPARE(j["layouts"][0]["global_batch_sequences"].get<int>(), 1040);
    QCOMPARE(j["cluster"]["global_batch_sequences"].get<int>(), 1024);
}

/// The listed grid on 24 nodes: nothing fits; the result names the cluster rule that cut every
/// layout and the nearest node count whose listed grid works (16: 16 and 32 are both 8 away,
/// the smaller wins; 17-23 and 25-31 nodes all have an odd factor).
void TestMosaicGrid::listedGridOnOddClusterExplainsItself() {
    Envelope e = table3Envelope();
    e.nodes = 24;
    e.layoutGrid = LayoutGridRule::Listed;
    const SearchResult r = search(e);
    QVERIFY(r.candidates.empty());
    QCOMPARE(int(r.rejections.size()), 1);
    QVERIFY(r.rejections[0].first.find("cluster's mesh and batch rules") != std::string::npos);
    QCOMPARE(r.nearestWorkingNodes, 16);
    const auto j = searchToJson(r);
    QCOMPARE(j["nearest_working_nodes"].get<int>(), 16);
    QCOMPARE(j["rejections"][0]["geometries"].get<int>(), 1);
}

/// Contract of nearestWorkingDevices: the returned whole-node count has a feasible layout and
/// no whole-node count nearer to the request does (q12 E96 K2 G4, 327 B parameters, on one
/// 8 x H100 node: every layout is out of memory).
void TestMosaicGrid::nearestWorkingDevicesIsNearest() {
    const Geometry g = ladderGeometry(12, 96, 2, 4);
    Cluster c;
    c.hardware = builtinHardware("h100");
    c.devices = 8;
    QVERIFY(planLayouts(g, c, LayoutGrid{}, 1).empty());
    const int n = nearestWorkingDevices(g, c);
    QVERIFY(n > 8 && n % 8 == 0);
    Cluster t = c;
    t.devices = n;
    QVERIFY(!planLayouts(g, t, LayoutGrid{}, 1).empty());
    for (int d = 16; d < n; d += 8) {
        t.devices = d;
        QVERIFY2(planLayouts(g, t, LayoutGrid{}, 1).empty(), qPrintable(QString::number(d)));
    }
}

void TestMosaicGrid::envelopeKey() {
    tandem::Diagnostics d;
    const nlohmann::json j = {{"layout_grid", "derived"}};
    tandem::JsonReader r(j, "$", d);
    Envelope e;
    readEnvelope(r, e);
    QVERIFY2(d.ok(), d.str().c_str());
    QVERIFY(e.layoutGrid == LayoutGridRule::Derived);
    QCOMPARE(writeEnvelope(e)["layout_grid"].get<std::string>(), std::string("derived"));
    QVERIFY(!writeEnvelope(Envelope{}).contains("layout_grid"));  // the default keeps files' bytes
    tandem::Diagnostics bad;
    const nlohmann::json b = {{"layout_grid", "powers"}};
    tandem::JsonReader rb(b, "$", bad);
    Envelope eb;
    readEnvelope(rb, eb);
    QVERIFY(bad.str().find("$.layout_grid") != std::string::npos);
}

/// The one wording of "nothing feasible" that the CLI (plan, run) and the GUI (Plan page,
/// imported-model card, frontier legend, MFU charts) print: with and without a reason or place.
void TestMosaicGrid::noFeasibleWording_data() {
    QTest::addColumn<bool>("geometry");
    QTest::addColumn<QString>("arg");
    QTest::addColumn<QString>("expected");
    QTest::newRow("layout") << false << QString() << "No feasible layout on this cluster";
    QTest::newRow("layout, reason")
        << false << "does not fit in device memory"
        << "No feasible layout on this cluster: does not fit in device memory";
    QTest::newRow("geometry") << true << QString()
                              << "No geometry has a feasible layout on this cluster";
    QTest::newRow("geometry, place") << true << "24 nodes"
                                     << "No geometry has a feasible layout on 24 nodes";
}

void TestMosaicGrid::noFeasibleWording() {
    QFETCH(bool, geometry);
    QFETCH(QString, arg);
    QFETCH(QString, expected);
    const std::string a = arg.toStdString();
    const std::string text =
        geometry ? (arg.isEmpty() ? noFeasibleGeometryText() : noFeasibleGeometryText(a))
                 : noFeasibleLayoutText(a);
    QCOMPARE(QString::fromStdString(text), expected);
}

TANDEM_TEST_APPLESS_MAIN(TestMosaicGrid)
#include "tst_mosaic_grid.moc"
