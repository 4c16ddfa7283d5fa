// tandem-cli bench [--json]: times the engine's main operations (median and p95 over repeats).
// Single thread, whatever build it is run from (the figures in docs/PERFORMANCE.md are Release).
#include <sys/resource.h>

#include <QCommandLineParser>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "common/number_format.h"
#include "fabric/fluid.h"
#include "mlforml/reproduce.h"
#include "mlforml/simulate.h"
#include "mosaic/background.h"
#include "mosaic/geometry.h"
#include "mosaic/layout_grid.h"
#include "mosaic/layout_table.h"
#include "mosaic/perf_model.h"
#include "mosaic/reality.h"
#include "mosaic/search.h"
#include "output.h"

namespace cli {
namespace {

using Clock = std::chrono::steady_clock;

struct Timing {
    double median = 0, p95 = 0;  ///< seconds
    int repeats = 0;
};

/// Runs `fn` `repeats` times (after one warm-up) and returns median and p95 wall time, s.
Timing timeIt(int repeats, const std::function<void()>& fn) {
    fn();
    std::vector<double> t;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = Clock::now();
        fn();
        t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    Timing r;
    r.repeats = repeats;
    r.median = t[t.size() / 2];
    r.p95 = t[std::min(t.size() - 1, static_cast<size_t>(0.95 * static_cast<double>(t.size())))];
    return r;
}

double peakRssMB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux reports KiB
}

/// One scenario-1 point [2608.06046 Sec. 3.2]: N = 16, five policies, one start offset,
/// run to 1.005 x L_min.
tandem::mlforml::Params mlforPoint(int offsets) {
    tandem::mlforml::Params p;
    p.backgroundJobs = {16};
    p.startOffsets = offsets;
    p.targetFactors = {1.005};
    return p;
}

/// ns per plan evaluation over every plan of the Table 4 optimum's grid [2608.10605 Table 4].
struct PlanEvalBench {
    Timing perEval;  ///< seconds per evaluation
    size_t plans = 0;
};
PlanEvalBench benchPlanEval(int sweeps) {
    namespace m = tandem::mosaic;
    const m::Envelope env;
    const m::PerfModel model(m::ladderGeometry(12, 96, 2, 4), m::clusterOf(env));
    const auto plans = model.enumerate(m::layoutGridOf(env));
    PlanEvalBench b;
    b.plans = plans.size();
    volatile double sink = 0;
    const Timing t = timeIt(15, [&] {
        for (int s = 0; s < sweeps; ++s)
            for (const auto& p : plans) sink = sink + model.quick(p).mfu;
    });
    const double n = static_cast<double>(plans.size()) * sweeps;
    b.perEval = {t.median / n, t.p95 / n, t.repeats};
    return b;
}

/// Drives the fluid network alone [MODEL.md A3]: 16 background groups of 8 nodes and a
/// 46-node foreground share the fabric; every finished flow is replaced at once, so each event
/// is one completion + one start + one water-filling. Returns seconds for `events` events.
double fluidEvents(std::uint64_t events) {
    tandem::fabric::FluidNetwork net(490e9, 10.7e9);
    std::vector<int> groups;
    for (int g = 0; g < 16; ++g) groups.push_back(net.addGroup(8));
    groups.push_back(net.addGroup(46));
    std::uint64_t k = 0;
    auto bytes = [&](int g) {
        return 1e9 *
               (1.0 + 0.37 * static_cast<double>((k * 7 + static_cast<std::uint64_t>(g)) % 11));
    };
    for (int g : groups) net.startFlow(g, bytes(g), g);
    net.recomputeRates();
    std::vector<int> done;
    const auto t0 = Clock::now();
    while (k < events) {
        net.advance(net.timeToNextCompletion());
        done.clear();
        net.collectFinished(done);
        for (int f : done) {
            const int g = net.flowGroup(f);
            net.startFlow(g, bytes(g), g);
            ++k;
        }
        net.recomputeRates();
    }
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

int benchCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Time the engine's main operations, single-threaded: median and p95 over repeats, "
        "counts and rates, and rows that double the work to show cost grows linearly."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    const QCommandLineOption quick(QStringLiteral("quick"),
                                   QStringLiteral("Fewer repeats (a smoke run)."));
    parser.addOptions({json, quick});
    int code = kExitOk;
    if (!parseArgs(parser, args, &code)) return code;
    if (!noPositionalArgs(parser, QStringLiteral("bench"), &code)) return code;
    const int reps = parser.isSet(quick) ? 3 : 11;

    namespace ml = tandem::mlforml;
    namespace m = tandem::mosaic;
    nlohmann::ordered_json j;
    std::vector<std::vector<std::string>> rows;
    int missed = 0;
    // A target written "<= X unit" is checked against the median; the row says met or MISSED.
    auto row = [&](const std::string& key, const std::string& what, double median, double p95,
                   const std::string& unit, const std::string& target) {
        j[key] = median;
        if (p95 >= 0) j[key + "_p95"] = p95;
        std::string status;
        if (target.rfind("<= ", 0) == 0) {
            const double limit = tandem::scanNumber(target.substr(3)).value;
            const bool met = median <= limit;
            status = met ? "met" : "MISSED";
            missed += met ? 0 : 1;
            j[key + "_target_met"] = met;
        }
        rows.push_back({key, fixed(median, 3) + " " + unit,
                        p95 >= 0 ? fixed(p95, 3) + " " + unit : "", target, status, what});
    };

    // ML-for-ML [2608.06046].
    const ml::Params one = mlforPoint(1), two = mlforPoint(2);
    std::uint64_t events1 = 0, events2 = 0;
    const Timing tPoint = timeIt(reps, [&] { events1 = ml::simulate(one).eventsSimulated; });
    row("mlforml_point_ms", "scenario-1 point N=16, 5 policies, 1 offset, to 1.005 L_min",
        1e3 * tPoint.median, 1e3 * tPoint.p95, "ms", "<= 20 ms");
    j["mlforml_point_events"] = events1;
    j["mlforml_events_per_s"] = static_cast<double>(events1) / tPoint.median;
    rows.push_back({"mlforml_events_per_s", fixed(static_cast<double>(events1) / tPoint.median, 0),
                    "", "", "", std::to_string(events1) + " flow events in the point above"});
    const Timing tPoint2 = timeIt(reps, [&] { events2 = ml::simulate(two).eventsSimulated; });
    row("mlforml_point_2offsets_ms",
        "same with 2 start offsets (" + std::to_string(events2) + " events: " +
            fixed(static_cast<double>(events2) /
                      static_cast<double>(std::max<std::uint64_t>(events1, 1)),
                  2) +
            "x the events)",
        1e3 * tPoint2.median, 1e3 * tPoint2.p95, "ms",
        "time ratio " + fixed(tPoint2.median / tPoint.median, 2));
    j["mlforml_point_2offsets_events"] = events2;
    // The same point on a 1024-node leaf/spine fabric (64 leaves of 16, 4:1, 16 spines), every
    // job placed at random so that the 16 jobs' rings cross most leaves: equal-split ECMP (128
    // uplink bundles), and per-flow hashing (2048 bundles, each ring hop's 8 rails hashed).
    ml::Params fabric = one;
    tandem::fabric::topologyPreset("leaf-spine-4to1", fabric.topology);
    fabric.placement.foreground = fabric.placement.background =
        tandem::fabric::PlacementPolicy::Random;
    std::uint64_t eventsFabric = 0;
    const Timing tFabric =
        timeIt(reps, [&] { eventsFabric = ml::simulate(fabric).eventsSimulated; });
    row("mlforml_fabric1024_point_ms",
        "the point above on a 1024-node 4:1 leaf/spine fabric, 16 co-running jobs placed at "
        "random, equal-split ECMP (" +
            std::to_string(eventsFabric) + " events)",
        1e3 * tFabric.median, 1e3 * tFabric.p95, "ms", "<= 100 ms");
    j["mlforml_fabric1024_point_events"] = eventsFabric;
    fabric.topology.ecmp = tandem::fabric::Ecmp::Hash;
    const Timing tHash = timeIt(reps, [&] { (void)ml::simulate(fabric); });
    row("mlforml_fabric1024_hash_point_ms", "same with per-flow hashed ECMP (2048 uplink bundles)",
        1e3 * tHash.median, 1e3 * tHash.p95, "ms", "");
    const std::uint64_t nEvents = parser.isSet(quick) ? 100000 : 400000;
    std::vector<double> f1, f2;
    for (int i = 0; i < 5; ++i) {
        f1.push_back(fluidEvents(nEvents));
        f2.push_back(fluidEvents(2 * nEvents));
    }
    std::sort(f1.begin(), f1.end());
    std::sort(f2.begin(), f2.end());
    row("mlforml_fluid_ns_per_event", std::to_string(nEvents) + " fluid-network events (17 groups)",
        1e9 * f1[2] / static_cast<double>(nEvents), 1e9 * f1[4] / static_cast<double>(nEvents),
        "ns", "");
    row("mlforml_fluid_2x_events_s", "twice the events: time ratio " + fixed(f2[2] / f1[2], 2),
        f2[2], f2[4], "s", "~2x (linear)");
    j["mlforml_fluid_time_ratio_2x"] = f2[2] / f1[2];
    const Timing tRepro =
        timeIt(parser.isSet(quick) ? 1 : 3, [&] { (void)ml::reproduceMlForMl(); });
    row("mlforml_reproduce_s", "whole `reproduce ml-for-ml`", tRepro.median, tRepro.p95, "s",
        "<= 2 s");

    // MOSAIC [2608.10605].
    const PlanEvalBench pe = benchPlanEval(20);
    const PlanEvalBench pe2 = benchPlanEval(40);
    row("mosaic_plan_eval_ns",
        "one (geometry, plan) evaluation, " + std::to_string(pe.plans) +
            " plans of the Table 4 optimum",
        1e9 * pe.perEval.median, 1e9 * pe.perEval.p95, "ns", "<= 200 ns");
    j["mosaic_plans_per_s"] = 1.0 / pe.perEval.median;
    rows.push_back({"mosaic_plans_per_s", fixed(1.0 / pe.perEval.median, 0), "", "", "",
                    "plan evaluations per second"});
    row("mosaic_plan_eval_2x_ns", "same loop over twice as many plans (per evaluation)",
        1e9 * pe2.perEval.median, 1e9 * pe2.perEval.p95, "ns",
        "per-eval ratio " + fixed(pe2.perEval.median / pe.perEval.median, 2));
    const m::Envelope table3;
    const Timing tSearch = timeIt(parser.isSet(quick) ? 1 : 5,
                                  [&] { m::clearSearchCostings(), (void)m::search(table3); });
    row("mosaic_table3_search_s", "full Table 3 search, both frontiers", tSearch.median,
        tSearch.p95, "s", "<= 0.3 s");
    m::Envelope slider = table3;
    slider.nodes = 16;
    const Timing tFrontier =
        timeIt(reps, [&] { m::clearSearchCostings(), (void)m::search(slider); });
    row("mosaic_frontier_ms", "both frontiers after a cluster-size slider move (16 nodes)",
        1e3 * tFrontier.median, 1e3 * tFrontier.p95, "ms", "<= 30 ms");
    // A training-window move keeps the cluster's costing and only re-scores the geometries.
    m::Envelope window = slider;
    (void)m::search(window);
    int step = 0;
    const Timing tWindow = timeIt(reps, [&] {
        window.days = 10 + (++step % 20);
        (void)m::search(window);
    });
    row("mosaic_window_rescore_ms",
        "both frontiers after a training-window slider move (16 nodes, costing kept)",
        1e3 * tWindow.median, 1e3 * tWindow.p95, "ms", "");
    m::Envelope threaded = slider;
    threaded.nodes = 24;  // derived grid: the costliest slider positions
    const Timing tThreads = timeIt(parser.isSet(quick) ? 1 : 5, [&] {
        m::clearSearchCostings();
        (void)m::search(threaded, nullptr, 2);
    });
    row("mosaic_derived_grid_2threads_s", "the 24-node search on 2 threads (the GUI's)",
        tThreads.median, tThreads.p95, "s", "");
    // 24 nodes: no layout of the paper's grid divides B_global, so the derived grid (PP and EP
    // from the divisors of 192, B_global rounded per layout) is searched.
    m::Envelope odd = table3;
    odd.nodes = 24;
    const Timing tOdd = timeIt(parser.isSet(quick) ? 1 : 5,
                               [&] { m::clearSearchCostings(), (void)m::search(odd); });
    row("mosaic_derived_grid_search_s",
        "Table 3 search on 24 nodes (derived layout grid, rounded B_global)", tOdd.median, tOdd.p95,
        "s", "<= 0.3 s");
    // The papers joined (mosaic/background.h): the Table 3 job spread over a 256-node 4:1
    // leaf/spine fabric beside 16 GPT-1B-class jobs placed at random (examples/mosaic-background).
    m::Envelope joined = table3;
    m::BackgroundLoad bg;
    bg.jobs = 16;
    bg.topology.nodes = 256;
    bg.placement.foreground = tandem::fabric::PlacementPolicy::Spread;
    bg.placement.background = tandem::fabric::PlacementPolicy::Random;
    joined.background = bg;
    double largest = 1;
    const Timing tCurves = timeIt(
        reps, [&] { largest = m::coRunModel(joined.hardware, joined.nodes, bg).largestSlowdown; });
    row("mosaic_corun_curves_ms",
        "one co-run curve set: 32 nodes beside 16 jobs on a 256-node 4:1 fabric (10 fluid "
        "traces, largest slowdown " +
            fixed(largest, 2) + "x)",
        1e3 * tCurves.median, 1e3 * tCurves.p95, "ms", "<= 50 ms");
    const Timing tJoined = timeIt(parser.isSet(quick) ? 1 : 5, [&] {
        m::clearSearchCostings();
        (void)m::search(joined);
    });
    row("mosaic_corun_search_s", "the Table 3 search beside those 16 jobs (curves cached)",
        tJoined.median, tJoined.p95, "s", "<= 0.3 s");

    // The megatron-core stack on DeepSeek-V3 (MXFP8, 1024 GB200 GPUs, 4096 sequences of 4096).
    {
        std::string reason;
        m::Geometry dsv3;
        m::measuredModelGeometry("DeepSeekV3 (w/o MTP)", dsv3, reason);
        m::Cluster c;
        c.hardware = m::builtinHardware("gb200-nvl72");
        c.devices = 1024;
        c.globalBatch = 4096;
        c.seqLen = 4096;
        c.stack = m::megatronCoreStack();
        c.precision = m::Precision::Mxfp8;
        const m::PerfModel model(dsv3, c);
        const m::LayoutGrid grid;
        const auto plans = model.enumerate(grid);
        volatile double sink = 0;
        const Timing t = timeIt(reps, [&] {
            for (int s = 0; s < 20; ++s)
                for (const auto& p : plans) sink = sink + model.quick(p).mfu;
        });
        const double n = double(plans.size()) * 20;
        row("megatron_plan_eval_ns",
            "one megatron-core evaluation, DeepSeek-V3 MXFP8 on 1024 GB200 (" +
                std::to_string(plans.size()) + " plans)",
            1e9 * t.median / n, 1e9 * t.p95 / n, "ns", "<= 150 ns");
        const Timing tFree = timeIt(parser.isSet(quick) ? 1 : 5, [&] {
            m::Plan best;
            m::QuickEval ev;
            (void)model.best(grid, best, ev);
        });
        row("megatron_free_search_s", "best layout of DeepSeek-V3 on 1024 GB200, full default grid",
            tFree.median, tFree.p95, "s", "<= 0.5 s");
        // The grid derived from the cluster: PP every divisor up to 64, EP every divisor of
        // N_dev (layout_grid.h), the search `plan` runs when the listed grid has no layout.
        const m::LayoutGrid derived = m::derivedLayoutGrid(c, grid);
        const m::LayoutTable table(c, derived);
        const Timing tDerived = timeIt(parser.isSet(quick) ? 1 : 5, [&] {
            m::Plan best;
            m::QuickEval ev;
            (void)model.best(table, best, ev);
        });
        row("megatron_derived_grid_search_s",
            "best layout of DeepSeek-V3 on 1024 GB200, grid derived from the cluster (" +
                std::to_string(derived.pp.size()) + " PP x " + std::to_string(derived.ep.size()) +
                " EP values)",
            tDerived.median, tDerived.p95, "s", "<= 0.5 s");
    }

    row("cli_peak_rss_MB", "peak resident set of this process", peakRssMB(), -1, "MB", "<= 64 MB");
    j["targets_missed"] = missed;

    if (parser.isSet(json)) {
        print("%s\n", j.dump(2).c_str());
    } else {
        printTable({"operation", "median", "p95", "target", "status", "what"}, rows);
        print("%d target(s) missed (timings depend on machine load; run on a quiet machine)\n",
              missed);
    }
    return kExitOk;
}

}  // namespace cli
