#include "mlforml/exposure.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tandem::mlforml {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kReplayCap_s = 3600.0;  // a sync slower than this counts as never finishing
// Series replays stop once one sync has been pending this long: under an open-loop backlog
// that only grows it would never finish while the level lasts (a level lasts minutes), and
// every later sample of the series is unbounded as well.
constexpr double kUnboundedSync_s = 600.0;
constexpr double kSeriesStep_s = 10.0;
constexpr double kP95Span_s = 60.0;  // background-alone span over which the p95 is taken
constexpr size_t kMaxLoadPoints = 2000;
}  // namespace

std::vector<Combo> actionSpace(const Params& p) {
    std::vector<Combo> v;
    for (int g : p.gradientAccumulations)
        for (Precision pr : p.precisions) v.push_back({g, pr});
    return v;
}

double foregroundWireBytes(const Params& p, Precision precision) {
    return fabric::ringWireBytesPerNode(p.foregroundParameters * bytesPerValue(precision),
                                        p.foregroundNodes);
}

double percentileBytesPerWindow(const std::vector<double>& t, const std::vector<double>& v,
                                double t0, double t1, double window_s, double quantile) {
    if (!(t1 > t0) || !(window_s > 0) || t.empty()) return 0.0;
    const size_t n = static_cast<size_t>(std::floor((t1 - t0) / window_s));
    if (n == 0) return 0.0;
    std::vector<double> bytes(n, 0.0);
    for (size_t i = 0; i < t.size(); ++i) {
        const double a = std::max(t[i], t0);
        const double b = std::min(i + 1 < t.size() ? t[i + 1] : t1, t0 + n * window_s);
        if (!(b > a) || v[i] == 0) continue;
        size_t w = static_cast<size_t>((a - t0) / window_s);
        double x = a;
        while (x < b && w < n) {
            const double end = std::min(b, t0 + (w + 1) * window_s);
            bytes[w] += v[i] * (end - x);
            x = end;
            ++w;
        }
    }
    std::sort(bytes.begin(), bytes.end());
    const double pos = quantile * (n - 1);
    const size_t lo = static_cast<size_t>(std::floor(pos));
    const size_t hi = std::min(n - 1, lo + 1);
    return bytes[lo] + (bytes[hi] - bytes[lo]) * (pos - lo);
}

namespace {

/// The fabric of `p` as a simulator: the placed leaf/spine fabric when `plan` is given, else the
/// shared paper-fabric (fabric_GBps + nic_GBps).
fabric::FabricSim makeFabricSim(const Params& p, const fabric::FabricPlan* plan) {
    return plan ? fabric::FabricSim(*plan, p.ccEfficiency, p.ccEfficiencyDropPerFlow)
                : fabric::FabricSim(p.fabricBytesPerS, p.nicBytesPerS, p.ccEfficiency,
                                    p.ccEfficiencyDropPerFlow);
}

/// `count` modelled background jobs of p.backgroundJob, their phases drawn from `seed`.
fabric::LiveJobSpec modelledJobs(const Params& p, int count, std::uint64_t seed) {
    const BackgroundJob& bj = p.backgroundJob;
    fabric::LiveJobSpec live;
    live.count = count;
    live.nodes = bj.nodes;
    live.bytesPerNode = fabric::ringWireBytesPerNode(bj.gradientBytes, bj.nodes);
    live.compute_s = bj.compute_s;
    live.jitter = bj.computeJitter;
    live.syncBursts = bj.syncBursts;
    live.burstGap_s = bj.burstGap_s;
    live.seed = seed;
    return live;
}

/// Runs the background-alone recording `rec` over the warm-up and kP95Span_s and fills the
/// table's p95 bytes per 50 ms, mean load and decimated load curve from its rate log.
void recordBackgroundLoad(const Params& p, fabric::FabricSim& rec, ExposureTable& tab) {
    rec.run(p.recordWarmup_s + kP95Span_s);
    const auto& rt = rec.rateTimes();
    const auto& rv = rec.rateValues();
    const double a = p.recordWarmup_s, b = p.recordWarmup_s + kP95Span_s;
    tab.bgP95BytesPer50ms = percentileBytesPerWindow(rt, rv, a, b, 0.05, 0.95);
    double area = 0;
    for (size_t i = 0; i < rt.size(); ++i) {
        const double lo = std::max(rt[i], a);
        const double hi = std::min(i + 1 < rt.size() ? rt[i + 1] : b, b);
        if (hi > lo) area += rv[i] * (hi - lo);
    }
    tab.bgMeanBytesPerS = area / kP95Span_s;
    const size_t stride = std::max<size_t>(1, rt.size() / kMaxLoadPoints + 1);
    for (size_t i = 0; i < rt.size(); i += stride) {
        tab.loadTime_s.push_back(rt[i]);
        tab.loadBytesPerS.push_back(rv[i]);
    }
}

/// Runs the foreground of every combination at every start offset (one long replay in series
/// sampling) against the background that `attach` puts on a fresh simulator, and fills the
/// table's samples, means and (series) sample times [2608.06046 Sec. 3.1-3.2].
template <class MakeSim, class Attach>
void replayForeground(const Params& p, const std::vector<Combo>& combos, MakeSim makeSim,
                      Attach attach, const tandem::CancelFlag* cancel, bool recordLinks,
                      ExposureTable& tab) {
    const int iters = p.replayWarmupIterations + p.replayIterations;
    const bool series = p.exposureSampling == ExposureSampling::Series;
    const int offsets = series ? 1 : p.startOffsets;
    tab.samples.assign(combos.size(), {});
    tab.mean.assign(combos.size(), 0.0);
    if (series) {
        tab.sampleTimes.assign(combos.size(), {});
        tab.seriesDuration.assign(combos.size(), 0.0);
    }
    for (size_t c = 0; c < combos.size(); ++c) {
        auto& out = tab.samples[c];
        out.reserve(static_cast<size_t>(offsets) * p.replayIterations);
        for (int k = 0; k < offsets; ++k) {
            throwIfCancelled(cancel);
            fabric::FabricSim sim = makeSim();
            sim.setCancel(cancel);
            attach(sim);
            fabric::ForegroundSpec fg;
            fg.nodes = p.foregroundNodes;
            fg.bytesPerNode = foregroundWireBytes(p, combos[c].p);
            fg.compute_s = combos[c].g * p.microbatchCompute_s;
            fg.overlap_s = p.overlapWindow_s;
            fg.start_s = p.recordWarmup_s + k * p.offsetSpacing_s;
            fg.iterations = iters;
            sim.setForeground(fg);
            if (recordLinks) sim.trackLinkUsage(fg.start_s);
            const double until = fg.start_s + std::min(p.horizon_s, kReplayCap_s);
            if (!series) {
                sim.run(until);
            } else {
                while (!sim.foregroundDone() && sim.now() < until) {
                    sim.run(std::min(until, sim.now() + kSeriesStep_s));
                    if (sim.now() - sim.iterationStarts().back() > kUnboundedSync_s) break;
                }
            }
            tab.eventsSimulated += sim.eventsProcessed();
            // The links the jobs' routes cross (links.csv lists those some flow crossed).
            if (recordLinks) fabric::mergeLinkUsage(tab.links, sim.linkUsage(true));
            const auto& e = sim.exposedDpTimes();
            for (int i = p.replayWarmupIterations; i < iters; ++i)
                out.push_back(i < static_cast<int>(e.size()) ? e[i] : kInf);
            if (series) {
                const auto& st = sim.iterationStarts();
                const int w = p.replayWarmupIterations;
                const double t0 = w < static_cast<int>(st.size()) ? st[w] : fg.start_s;
                for (int i = w; i < iters; ++i)
                    tab.sampleTimes[c].push_back(i < static_cast<int>(st.size()) ? st[i] - t0
                                                                                 : kInf);
                tab.seriesDuration[c] = sim.now() - t0;
            }
        }
        double s = 0;
        for (double x : out) s += x;
        tab.mean[c] = out.empty() ? 0.0 : s / out.size();
    }
}

}  // namespace

ExposureTable measureExposure(const Params& p, const std::vector<Combo>& combos, int backgroundJobs,
                              std::uint64_t seed, const tandem::CancelFlag* cancel,
                              bool recordLinks) {
    ExposureTable tab;
    tab.backgroundJobs = backgroundJobs;
    const fabric::LiveJobSpec live = modelledJobs(p, backgroundJobs, seed);
    // On a leaf/spine fabric every job follows its placed route; the shared fabric has none.
    const bool linked = p.topology.kind == fabric::FabricKind::LeafSpine;
    const fabric::FabricPlan plan = linked ? buildFabric(p) : fabric::FabricPlan{};
    const auto makeSim = [&] { return makeFabricSim(p, linked ? &plan : nullptr); };
    // Background alone: the recording that open-loop replays read (extended on demand).
    fabric::FabricSim rec = makeSim();
    rec.addLiveJobs(live, true);
    rec.setCancel(cancel);
    if (live.count > 0) recordBackgroundLoad(p, rec, tab);
    const auto attach = [&](fabric::FabricSim& sim) {
        if (p.mode == ReplayMode::ClosedLoop)
            sim.addLiveJobs(live, false);
        else if (live.count > 0)
            sim.replayFrom(&rec, live.count, live.nodes);
    };
    replayForeground(p, combos, makeSim, attach, cancel, recordLinks, tab);
    tab.eventsSimulated += rec.eventsProcessed();  // the recording, as extended by the replays
    return tab;
}

ExposureTable measureTraceExposure(const Params& p, const std::vector<Combo>& combos,
                                   const std::vector<fabric::Transfer>& transfers, int traceJobs,
                                   int traceNodes, const tandem::CancelFlag* cancel,
                                   bool recordLinks) {
    ExposureTable tab;
    const auto makeSim = [&] { return makeFabricSim(p, nullptr); };
    const auto attach = [&](fabric::FabricSim& sim) {
        sim.replayList(&transfers, traceJobs, traceNodes);
    };
    replayForeground(p, combos, makeSim, attach, cancel, recordLinks, tab);
    return tab;
}

}  // namespace tandem::mlforml
