// Co-running jobs beside the MoE job on one leaf/spine fabric (mosaic/background.h): slowdowns
// computed by hand on an idle fabric, the idle non-blocking case identical to no background,
// the example's sweep over background jobs, and the reader's errors.
#include <QtTest>
#include <cmath>
#include <fstream>
#include <sstream>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "mosaic/background.h"
#include "mosaic/collectives.h"
#include "mosaic/measured_collectives.h"
#include "mosaic/search.h"
#include "scenario/scenario.h"
#include "sweep/sweep.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::mosaic;

namespace {

BackgroundLoad idleOn(const char* preset, fabric::PlacementPolicy foregroundPlacement) {
    BackgroundLoad b;
    fabric::topologyPreset(preset, b.topology);
    b.topology.nodes = 256;
    b.placement.foreground = foregroundPlacement;
    return b;
}

const CoRunSlowdown& find(const CoRunModel& m, int nodes, fabric::Collective c) {
    for (const auto& s : m.slowdowns)
        if (s.groupNodes == nodes && s.traffic == c) return s;
    qFatal("no slowdown for %d nodes", nodes);
}

std::string exampleText() {
    std::ifstream in(std::string(TANDEM_EXAMPLES) + "/mosaic-background.json");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> readErrors(const std::string& backgroundJson, int nodes = 32) {
    const std::string text = R"({"mosaic": {"nodes": )" + std::to_string(nodes) +
                             R"(, "background": )" + backgroundJson + "}}";
    Diagnostics d;
    (void)parseScenario(text, d);
    std::vector<std::string> paths;
    for (const auto& it : d.items()) paths.push_back(it.path + ": " + it.message);
    return paths;
}

bool anyStartsWith(const std::vector<std::string>& v, const std::string& prefix) {
    for (const auto& s : v)
        if (s.rfind(prefix, 0) == 0) return true;
    return false;
}

}  // namespace

class TstMosaicBackground : public QObject {
    Q_OBJECT
private slots:
    /// Idle 4:1 fabric, the 32-node job packed on two leaves of 16: the all-to-all of the whole
    /// job sends 16 x 16/31 node-rates up each leaf against 16/4 of uplink, a slowdown of
    /// 256/31/4 = 2.0645 at every size; groups of 16 (one leaf each) and the ring (one hop per
    /// leaf) are not slowed.
    void idleOversubscribedByHand() {
        const Hardware hw = builtinHardware("p6-b200");
        const CoRunModel m =
            coRunModel(hw, 32, idleOn("leaf-spine-4to1", fabric::PlacementPolicy::Packed));
        const auto& a2a = find(m, 32, fabric::Collective::AllToAll);
        for (double s : a2a.slowdown)
            QVERIFY2(std::abs(s - 256.0 / 31 / 4) < 1e-9, qPrintable(QString::number(s)));
        for (double s : find(m, 16, fabric::Collective::AllToAll).slowdown) QCOMPARE(s, 1.0);
        for (double s : find(m, 32, fabric::Collective::AllReduce).slowdown) QCOMPARE(s, 1.0);
        QVERIFY(m.curves);
        // The engine then takes the whole job's all-to-all 2.06 x longer beyond its latency.
        Hardware on = hw;
        on.measured = m.curves;
        const double S = 256e6;
        const double t0 = analyticalCollectiveTime(hw, Collective::AllToAll, S, 256, 1);
        const double t1 = collectiveTime(on, Collective::AllToAll, S, 256, 1);
        const double latency =
            analyticalCollectiveCost(hw, Collective::AllToAll, S, 256, 1).latency_s;
        QVERIFY2(std::abs((t1 - latency) / (t0 - latency) - 256.0 / 31 / 4) < 0.02,
                 qPrintable(QString("%1 vs %2").arg(t1).arg(t0)));
        // Inside a node nothing changes.
        QCOMPARE(collectiveTime(on, Collective::AllToAll, S, 8, 1),
                 analyticalCollectiveTime(hw, Collective::AllToAll, S, 8, 1));
    }

    /// What the co-running jobs do, in one line, from the model. 8 jobs of 8 nodes packed
    /// beside a 32-node job packed on leaves 0 and 1 (16 nodes each) of a 4:1 fabric: no job of
    /// theirs reaches those leaves, so no link is shared and every curve is the one with no
    /// jobs (the job's own all-to-all, 2.06x on the uplinks, is named as its own). Non-blocking:
    /// "no slowdown", no curves. The job spread over the 16 leaves (2 nodes each): the packed
    /// jobs fill the 14 nodes left leaf by leaf, and the second, fourth and sixth cross from leaf
    /// 0 to 1, 1 to 2 and 2 to 3, so leaves 0-3's uplink and downlink (8 links) are shared, but
    /// 2 node rates of the job and 1 of theirs fit a leaf's uplink of 16 / 4. The example's 16
    /// jobs at random beside its spread job share links and slow it.
    void coRunSentenceSaysWhatTheJobsShare() {
        const Hardware hw = builtinHardware("p6-b200");
        BackgroundLoad b = idleOn("leaf-spine-4to1", fabric::PlacementPolicy::Packed);
        const CoRunModel none = coRunModel(hw, 32, b);
        b.jobs = 8;
        const CoRunModel apart = coRunModel(hw, 32, b);
        QCOMPARE(apart.sharedLinks, 0);
        QCOMPARE(apart.slowdowns.size(), none.slowdowns.size());
        for (size_t i = 0; i < apart.slowdowns.size(); ++i)  // equal up to the trace's rounding
            for (size_t k = 0; k < apart.slowdowns[i].slowdown.size(); ++k)
                QVERIFY(std::abs(apart.slowdowns[i].slowdown[k] - none.slowdowns[i].slowdown[k]) <
                        1e-9);
        QCOMPARE(coRunSentence(apart, b),
                 std::string("8 co-running jobs share no link with this job under packed "
                             "placement: no slowdown from them (its own collective groups, "
                             "sharing uplinks, slow it by up to 2.06x)"));
        QCOMPARE(coRunNote(hw, 32, b), coRunSentence(apart, b));

        BackgroundLoad flat = idleOn("leaf-spine", fabric::PlacementPolicy::Packed);
        flat.jobs = 8;
        const CoRunModel idle = coRunModel(hw, 32, flat);
        QVERIFY(!idle.curves);
        QCOMPARE(coRunSentence(idle, flat),
                 std::string("8 co-running jobs share no link with this job under packed "
                             "placement: no slowdown"));
        flat.jobs = 0;
        QCOMPARE(coRunNote(hw, 32, flat), std::string());

        b.placement.foreground = fabric::PlacementPolicy::Spread;
        const CoRunModel spread = coRunModel(hw, 32, b);
        QCOMPARE(spread.sharedLinks, 8);
        QVERIFY(spread.largestSlowdown < 1 + 1e-9);  // 2 + 1 node rates under a 4-node uplink
        QCOMPARE(coRunSentence(spread, b),
                 std::string("8 co-running jobs share 8 links with this job under spread "
                             "placement of this job, packed of theirs but slow none of its "
                             "collectives"));
        // The example at 16 jobs placed at random: shared uplinks that slow it.
        Diagnostics d;
        const auto ex = parseScenario(exampleText(), d);
        QVERIFY2(ex && ex->mosaic && ex->mosaic->background, d.str().c_str());
        BackgroundLoad busy = *ex->mosaic->background;
        busy.jobs = 16;
        const CoRunModel slowed = coRunModel(ex->mosaic->hardware, ex->mosaic->nodes, busy);
        QVERIFY(slowed.sharedLinks > 0 && slowed.largestSlowdown > 1.05);
        QCOMPARE(coRunSentence(slowed, busy),
                 "16 co-running jobs share " + std::to_string(slowed.sharedLinks) +
                     " links with this job under spread placement of this job, random of "
                     "theirs: its collectives slow down by up to " +
                     formatFixed(slowed.largestSlowdown, 2) + "x");
    }

    /// An idle non-blocking fabric slows nothing: no curves, and the search equals the one
    /// without a background to the last bit.
    void idleNonBlockingIsIdle() {
        Envelope e;
        const SearchResult plain = search(e);
        e.background = idleOn("leaf-spine", fabric::PlacementPolicy::Spread);
        const CoRunModel m = coRunModel(e.hardware, e.nodes, *e.background);
        QCOMPARE(m.largestSlowdown, 1.0);
        QVERIFY(!m.curves);
        const SearchResult r = search(e);
        QCOMPARE(r.candidates.size(), plain.candidates.size());
        QCOMPARE(r.candidates[0].loss, plain.candidates[0].loss);
    }

    /// More co-running jobs never make a collective faster: the long-transfer slowdown of the
    /// example's whole-job all-to-all and ring is non-decreasing in the job count, and above 1.
    void slowdownGrowsWithJobs() {
        Diagnostics d;
        const auto s = parseScenario(exampleText(), d);
        QVERIFY2(s && s->mosaic && s->mosaic->background, d.str().c_str());
        double prevA2a = 0, prevRing = 0;
        for (int jobs : {0, 4, 8, 16}) {
            BackgroundLoad b = *s->mosaic->background;
            b.jobs = jobs;
            const CoRunModel m = coRunModel(s->mosaic->hardware, s->mosaic->nodes, b);
            const double a2a = find(m, 32, fabric::Collective::AllToAll).slowdown.back();
            const double ring = find(m, 32, fabric::Collective::AllReduce).slowdown.back();
            QVERIFY2(a2a >= prevA2a - 1e-9 && ring >= prevRing - 1e-9,
                     qPrintable(QString("jobs %1: a2a %2 ring %3").arg(jobs).arg(a2a).arg(ring)));
            if (jobs == 16) QVERIFY2(a2a > 1.05 && ring > 1.05, qPrintable(QString::number(a2a)));
            prevA2a = a2a;
            prevRing = ring;
        }
    }

    /// `tandem-cli sweep examples/mosaic-background.json --vary mosaic.background.jobs=0,4,8,16`:
    /// one row per level, the optimum's loss never improves as jobs are added, and it moves
    /// between 0 and 16 jobs.
    void exampleSweep() {
        sweep::Axis axis;
        std::string error;
        QVERIFY(sweep::parseAxis("mosaic.background.jobs=0,4,8,16", axis, error));
        Diagnostics d;
        const sweep::Table t = sweep::run(exampleText(), {axis}, sweep::Shard{}, 0, d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(t.rows.size(), size_t(4));
        auto col = [&](const char* name) {
            for (size_t i = 0; i < t.header.size(); ++i)
                if (t.header[i] == name) return i;
            qFatal("no column %s", name);
        };
        const size_t loss = col("moe.optimum_loss"), layout = col("moe.optimum_layout");
        const size_t sparsity = col("moe.cluster_optimal_sparsity");
        double prev = 0;
        for (const auto& row : t.rows) {
            const double l = std::stod(row[loss]);
            QVERIFY2(l >= prev, row[loss].c_str());
            prev = l;
        }
        const auto& first = t.rows.front();
        const auto& last = t.rows.back();
        QVERIFY(std::stod(last[loss]) > std::stod(first[loss]) + 1e-3);
        QVERIFY(!first[layout].empty() && !first[sparsity].empty());
    }

    /// Written and read back, a background is the same; the envelope writes it only when set.
    void roundTrip() {
        BackgroundLoad b = idleOn("leaf-spine-2to1", fabric::PlacementPolicy::Random);
        b.jobs = 12;
        b.job.gradientBytes = 26e9;
        b.job.compute_s = 0.4;
        b.placement.seed = 7;
        Diagnostics d;
        const nlohmann::json j = writeBackground(b);
        BackgroundLoad back;
        readBackground(JsonReader(j, "$.mosaic.background", d), back);
        QVERIFY2(d.ok(), d.str().c_str());
        QVERIFY(back == b);
        Envelope e;
        QVERIFY(!writeEnvelope(e).contains("background"));
        e.background = b;
        QCOMPARE(writeEnvelope(e)["background"]["jobs"].get<int>(), 12);
    }

    /// Bad backgrounds are refused at their key.
    void readerErrors() {
        QVERIFY(anyStartsWith(readErrors(R"({"jobs": -1})"), "$.mosaic.background.jobs"));
        QVERIFY(anyStartsWith(readErrors(R"({"jobs": 2000})"), "$.mosaic.background.jobs"));
        QVERIFY(anyStartsWith(readErrors(R"({"topology": {"preset": "paper-fabric"}})"),
                              "$.mosaic.background.topology"));
        QVERIFY(anyStartsWith(readErrors(R"({"job": {"compute_ms": 0}})"),
                              "$.mosaic.background.job.compute_ms"));
        // 1024-node fabric, 40 jobs of 8 + 800 nodes of MoE job: does not fit.
        QVERIFY(anyStartsWith(readErrors(R"({"jobs": 40})", 800),
                              "$.mosaic.background.topology.nodes"));
        QVERIFY(anyStartsWith(readErrors(R"({"jobz": 4})"), "$.mosaic.background.jobz"));
        QVERIFY(readErrors(R"({"jobs": 16})").empty());
    }

    /// The fabric and the MoE job's route are bounded before anything is built: hashed ECMP
    /// over 65536 leaves and 4096 spines holds 2^29 leaf links (refused at the spines); 8 spines
    /// hold 2^20, the limit, and a 32-node MoE job crosses at most 2 x 32 x 8 = 512 of them;
    /// 1024 nodes would cross 16384, above the co-run model's 8192 (refused at mosaic.nodes).
    void sizeLimits_data() {
        QTest::addColumn<int>("spines");
        QTest::addColumn<QString>("ecmp");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<long long>("routeLinks");
        QTest::addColumn<QString>("refusedAt");
        QTest::newRow("4096 spines")
            << 4096 << "hash" << 32 << 262144LL << "$.mosaic.background.topology.spines";
        QTest::newRow("9 spines") << 9 << "hash" << 32 << 576LL
                                  << "$.mosaic.background.topology.spines";
        QTest::newRow("8 spines, 32 nodes") << 8 << "hash" << 32 << 512LL << "";
        QTest::newRow("8 spines, 512 nodes") << 8 << "hash" << 512 << 8192LL << "";
        QTest::newRow("8 spines, 1024 nodes") << 8 << "hash" << 1024 << 16384LL << "$.mosaic.nodes";
        QTest::newRow("equal, 4096 nodes") << 4096 << "equal" << 4096 << 8192LL << "";
        QTest::newRow("equal, 8192 nodes")
            << 4096 << "equal" << 8192 << 16384LL << "$.mosaic.nodes";
    }
    void sizeLimits() {
        QFETCH(int, spines);
        QFETCH(QString, ecmp);
        QFETCH(int, nodes);
        QFETCH(long long, routeLinks);
        QFETCH(QString, refusedAt);
        const std::string topology =
            "{\"jobs\": 8, \"topology\": {\"preset\": \"leaf-spine-4to1\", \"nodes\": 65536, "
            "\"nodes_per_leaf\": 1, \"spines\": " +
            std::to_string(spines) + ", \"ecmp\": \"" + ecmp.toStdString() +
            "\"}, \"placement\": {\"foreground\": \"spread\"}}";
        const std::vector<std::string> errors = readErrors(topology, nodes);
        if (refusedAt.isEmpty()) {
            QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().c_str());
        } else {
            QVERIFY2(errors.size() == 1 && anyStartsWith(errors, refusedAt.toStdString() + ": "),
                     errors.empty() ? "accepted" : errors.front().c_str());
            QVERIFY2(errors.front().find("limit of") != std::string::npos, errors.front().c_str());
        }
        BackgroundLoad b;
        fabric::topologyPreset("leaf-spine-4to1", b.topology);
        b.topology.nodes = 65536;
        b.topology.nodesPerLeaf = 1;
        b.topology.spines = spines;
        b.topology.ecmp = ecmp == QLatin1String("hash") ? fabric::Ecmp::Hash : fabric::Ecmp::Equal;
        QCOMPARE(coRunRouteLinks(nodes, b), routeLinks);
    }
};

TANDEM_TEST_APPLESS_MAIN(TstMosaicBackground)
#include "tst_mosaic_background.moc"
