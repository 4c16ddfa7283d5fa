#include "mlforml/exposure.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tandem::mlforml {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kReplayCapS = 3600.0;  // a sync slower than this counts as never finishing
// Series replays stop once one sync has been pending this long: under an open-loop backlog
// that only grows it would never finish while the level lasts (a level lasts minutes), and
// every later sample of the series is unbounded as well.
constexpr double kUnboundedSyncS = 600.0;
constexpr double kSeriesStepS = 10.0;
constexpr double kP95SpanS = 60.0;      // background-alone span over which the p95 is taken
constexpr size_t kMaxLoadPoints = 2000;
}  // namespace

std::vector<Combo> actionSpace(const Params& p) {
    std::vector<Combo> v;
    for (int g : p.gradientAccumulations)
        for (const auto& pr : p.precisions) v.push_back({g, pr});
    return v;
}

double foregroundWireBytes(const Params& p, const std::string& precision) {
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

ExposureTable measureExposure(const Params& p, const std::vector<Combo>& combos, int backgroundJobs,
                              std::uint64_t seed, const tandem::CancelFlag* cancel,
                              const std::vector<fabric::Transfer>* transfers, int traceJobs,
                              int traceNodes) {
    ExposureTable tab;
    tab.backgroundJobs = backgroundJobs;
    const BackgroundJob& bj = p.backgroundJob;
    fabric::LiveJobSpec live;
    live.count = transfers ? 0 : backgroundJobs;
    live.nodes = bj.nodes;
    live.bytesPerNode = fabric::ringWireBytesPerNode(bj.gradientBytes, bj.nodes);
    live.computeS = bj.computeS;
    live.jitter = bj.computeJitter;
    live.syncBursts = bj.syncBursts;
    live.burstGapS = bj.burstGapS;
    live.seed = seed;

    // On a leaf/spine fabric every job follows its placed route; the shared fabric has none.
    const bool linked = p.topology.kind == "leaf_spine" && !transfers;
    const fabric::FabricPlan plan = linked ? buildFabric(p) : fabric::FabricPlan{};
    auto makeSim = [&]() {
        return linked ? fabric::FabricSim(plan, p.ccEfficiency, p.ccEfficiencyDropPerFlow)
                      : fabric::FabricSim(p.fabricBytesPerS, p.nicBytesPerS, p.ccEfficiency,
                                          p.ccEfficiencyDropPerFlow);
    };
    // Background alone: the recording that open-loop replays read (extended on demand).
    fabric::FabricSim rec = makeSim();
    rec.addLiveJobs(live, true);
    rec.setCancel(cancel);
    if (live.count > 0) {
        rec.run(p.recordWarmupS + kP95SpanS);
        tab.bgP95BytesPer50ms = percentileBytesPerWindow(
            rec.rateTimes(), rec.rateValues(), p.recordWarmupS, p.recordWarmupS + kP95SpanS,
            0.05, 0.95);
        const auto& rt = rec.rateTimes();
        const auto& rv = rec.rateValues();
        double area = 0;
        const double a = p.recordWarmupS, b = p.recordWarmupS + kP95SpanS;
        for (size_t i = 0; i < rt.size(); ++i) {
            const double lo = std::max(rt[i], a);
            const double hi = std::min(i + 1 < rt.size() ? rt[i + 1] : b, b);
            if (hi > lo) area += rv[i] * (hi - lo);
        }
        tab.bgMeanBytesPerS = area / kP95SpanS;
        const size_t stride = std::max<size_t>(1, rt.size() / kMaxLoadPoints + 1);
        for (size_t i = 0; i < rt.size(); i += stride) {
            tab.loadTime_s.push_back(rt[i]);
            tab.loadBytesPerS.push_back(rv[i]);
        }
    }

    const int iters = p.replayWarmupIterations + p.replayIterations;
    const bool series = p.exposureSampling == "series";
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
            if (transfers) {
                sim.replayList(transfers, traceJobs, traceNodes);
            } else if (p.mode == "closed_loop") {
                sim.addLiveJobs(live, false);
            } else if (live.count > 0) {
                sim.replayFrom(&rec, live.count, live.nodes);
            }
            fabric::ForegroundSpec fg;
            fg.nodes = p.foregroundNodes;
            fg.bytesPerNode = foregroundWireBytes(p, combos[c].p);
            fg.computeS = combos[c].g * p.microbatchComputeS;
            fg.overlapS = p.overlapWindowS;
            fg.start_s = p.recordWarmupS + k * p.offsetSpacingS;
            fg.iterations = iters;
            sim.setForeground(fg);
            const double until = fg.start_s + std::min(p.horizonS, kReplayCapS);
            if (!series) {
                sim.run(until);
            } else {
                while (!sim.foregroundDone() && sim.now() < until) {
                    sim.run(std::min(until, sim.now() + kSeriesStepS));
                    if (sim.now() - sim.iterationStarts().back() > kUnboundedSyncS) break;
                }
            }
            tab.eventsSimulated += sim.eventsProcessed();
            const auto& e = sim.exposedDpTimes();
            for (int i = p.replayWarmupIterations; i < iters; ++i)
                out.push_back(i < static_cast<int>(e.size()) ? e[i] : kInf);
            if (series) {
                const auto& st = sim.iterationStarts();
                const int w = p.replayWarmupIterations;
                const double t0 = w < static_cast<int>(st.size()) ? st[w] : fg.start_s;
                for (int i = w; i < iters; ++i)
                    tab.sampleTimes[c].push_back(i < static_cast<int>(st.size()) ? st[i] - t0 : kInf);
                tab.seriesDuration[c] = sim.now() - t0;
            }
        }
        double s = 0;
        for (double x : out) s += x;
        tab.mean[c] = out.empty() ? 0.0 : s / out.size();
    }
    tab.eventsSimulated += rec.eventsProcessed();  // the recording, as extended by the replays
    return tab;
}

}  // namespace tandem::mlforml
