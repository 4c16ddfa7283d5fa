#include "mlforml/simulate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "common/diagnostics.h"
#include "common/json_reader.h"
#include "common/number_format.h"
#include "mlforml/background_trace.h"
#include "mlforml/exposure.h"
#include "mlforml/progress.h"
#include "mlforml/schedule.h"
#include "mlforml/training.h"

namespace tandem::mlforml {

namespace {

std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t salt) {
    fabric::SplitMix64 g(seed * 0x9E3779B97F4A7C15ull ^ (salt + 0x632BE59BD9B4E019ull));
    return g.next();
}

/// Poisson arrivals at `rate` /s, each job busy for `duration` s, at most `maxJobs` at once
/// (later arrivals wait for a free slot), arriving from `arrivalsStart` (s, <= 0) on, observed
/// over [0, horizon). Returns the piecewise-constant
/// number of active jobs as segment starts and levels [2608.06046 Sec. 3.3].
void poissonSchedule(double rate, double duration, int maxJobs, double arrivalsStart,
                     double horizon, std::uint64_t seed, std::vector<double>& segStart,
                     std::vector<int>& level) {
    segStart.assign(1, 0.0);
    level.assign(1, 0);
    if (!(rate > 0) || maxJobs <= 0) return;
    fabric::SplitMix64 rng(seed);
    std::vector<double> arrivals;
    // Arrivals start at `arrivalsStart` <= 0: 0 = the foreground starts on an idle fabric ("zero to
    // five co-running jobs" [Sec. 3.3]); earlier = jobs already running at t = 0.
    const double t0 = std::min(0.0, arrivalsStart);
    double t = t0;
    while (arrivals.size() < 1000000) {
        t += -std::log(1.0 - rng.uniform()) / rate;
        if (t >= horizon) break;
        arrivals.push_back(t);
    }
    // Event list of (time, +1 start / -1 end); a job starts when a slot is free.
    std::vector<double> ends;  // end times of running jobs
    std::vector<std::pair<double, int>> events;
    for (double a : arrivals) {
        std::sort(ends.begin(), ends.end());
        double start = a;
        // drop jobs that ended before this arrival
        while (!ends.empty() && ends.front() <= start) ends.erase(ends.begin());
        if (static_cast<int>(ends.size()) >= maxJobs) {
            start = ends.front();  // wait for the first one to leave
            ends.erase(ends.begin());
        }
        ends.push_back(start + duration);
        events.push_back({start, +1});
        events.push_back({start + duration, -1});
    }
    std::sort(events.begin(), events.end());
    int k = 0;
    for (const auto& e : events) {
        k += e.second;
        if (e.first >= horizon) break;
        if (e.first <= 0) {
            level.front() = k;
            continue;
        }
        if (segStart.back() == e.first)
            level.back() = k;
        else {
            segStart.push_back(e.first);
            level.push_back(k);
        }
    }
}

/// Appends the exposure series of `b` (another recording of the same level) after `a`'s:
/// samples and their times follow a's series, durations add, means are sample-weighted, the
/// p95 volume is the larger one, the mean load is averaged. Offsets-mode tables (no series)
/// just pool their samples.
void appendSeries(ExposureTable& a, const ExposureTable& b) {
    const size_t n = a.samples.size();
    for (size_t c = 0; c < n && c < b.samples.size(); ++c) {
        const double na = static_cast<double>(a.samples[c].size());
        const double nb = static_cast<double>(b.samples[c].size());
        if (na + nb > 0) a.mean[c] = (a.mean[c] * na + b.mean[c] * nb) / (na + nb);
        if (c < a.sampleTimes.size() && c < b.sampleTimes.size()) {
            for (double t : b.sampleTimes[c]) a.sampleTimes[c].push_back(a.seriesDuration[c] + t);
            a.seriesDuration[c] += b.seriesDuration[c];
        }
        a.samples[c].insert(a.samples[c].end(), b.samples[c].begin(), b.samples[c].end());
    }
    a.bgP95BytesPer50ms = std::max(a.bgP95BytesPer50ms, b.bgP95BytesPer50ms);
    a.bgMeanBytesPerS = 0.5 * (a.bgMeanBytesPerS + b.bgMeanBytesPerS);
    a.eventsSimulated += b.eventsSimulated;
    fabric::mergeLinkUsage(a.links, b.links);
}

/// What every kind of run shares: the progress curve, the knob combinations (the action space,
/// then the fixed combinations that policies name) and a Result with the target losses and
/// combination labels filled.
struct Run {
    explicit Run(const Params& params) : p(params), curve(params), combos(actionSpace(params)) {
        nAction = static_cast<int>(combos.size());
        for (const auto& spec : p.policies) {
            if (spec.policy != Policy::Fixed) continue;
            if (std::find(combos.begin(), combos.end(), spec.combo) == combos.end())
                combos.push_back(spec.combo);
        }
        res.targetFactors = p.targetFactors;
        for (double f : p.targetFactors) res.targetLosses.push_back(f * p.progress.lMin);
        for (const auto& c : combos) res.comboLabels.push_back(c.label());
    }

    /// Runs every policy of p.policies against `net` into `pt` (levelJobs[i]: background jobs
    /// of the schedule's level i).
    void runPolicies(PointResult& pt, const NetworkSchedule& net, const std::vector<int>& levelJobs,
                     const CancelFlag* cancel) const {
        for (const auto& spec : p.policies)
            pt.policies.push_back(runPolicy(spec, p, curve, combos, nAction, net, res.targetLosses,
                                            levelJobs, cancel));
    }

    /// The paper's DP share of a GA-4 step, BF16 and MXFP4, from pt.meanSyncBeyondOverlap_s
    /// [2608.06046 Fig. 2a]: exposed / (4 T_c + exposed); 1 when a sync never finished.
    void fillShares(PointResult& pt) const {
        pt.dpShareBf16 = pt.dpShareMxfp4 = std::nan("");
        for (size_t c = 0; c < combos.size(); ++c) {
            if (combos[c].g != 4) continue;
            const double e = pt.meanSyncBeyondOverlap_s[c];
            const double share = e / (4 * p.microbatchCompute_s + e);
            if (combos[c].p == Precision::Bf16) pt.dpShareBf16 = std::isfinite(e) ? share : 1.0;
            if (combos[c].p == Precision::Mxfp4) pt.dpShareMxfp4 = std::isfinite(e) ? share : 1.0;
        }
    }

    const Params& p;
    ProgressCurve curve;
    std::vector<Combo> combos;
    int nAction = 0;
    Result res;
};

/// Scenario 1 [2608.06046 Sec. 3.2]: one point per N of p.backgroundJobs, each a fixed
/// background of N modelled jobs.
Result simulateSweep(const Params& p, const CancelFlag* cancel, bool recordLinks) {
    Run run(p);
    for (int n : p.backgroundJobs) {
        throwIfCancelled(cancel);
        ExposureTable tab = measureExposure(
            p, run.combos, n, mixSeed(p.seed, static_cast<std::uint64_t>(n)), cancel, recordLinks);
        run.res.eventsSimulated += tab.eventsSimulated;
        if (recordLinks) run.res.links.push_back({n, tab.links});
        PointResult pt;
        pt.backgroundJobs = n;
        pt.label = "N=" + std::to_string(n) + " " + p.backgroundJob.model;
        pt.bgP95GBPer50ms = tab.bgP95BytesPer50ms / 1e9;
        pt.meanSyncBeyondOverlap_s = tab.mean;
        pt.loadTime_s = tab.loadTime_s;
        pt.loadBytesPerS = tab.loadBytesPerS;
        run.fillShares(pt);
        const NetworkSchedule net({std::move(tab)}, {0.0}, {0}, p.samplePeriod_s,
                                  mixSeed(p.seed, 1000 + static_cast<std::uint64_t>(n)));
        run.runPolicies(pt, net, {n}, cancel);
        run.res.points.push_back(std::move(pt));
    }
    return std::move(run.res);
}

/// Scenario 2 [2608.06046 Sec. 3.3]: the exposure per background level 0..max_background_jobs
/// is measured once (exposure_recordings recordings appended per level); every Poisson arrival
/// schedule reads the same tables. One point per schedule; schedule 0 keeps the seeds of a
/// single-schedule run.
Result simulatePoisson(const Params& p, const CancelFlag* cancel, bool recordLinks) {
    Run run(p);
    std::vector<ExposureTable> measured;
    std::vector<int> levelJobs;
    for (int k = 0; k <= p.maxBackgroundJobs; ++k) {
        throwIfCancelled(cancel);
        measured.push_back(
            measureExposure(p, run.combos, k, mixSeed(p.seed, 500 + k), cancel, recordLinks));
        for (int m = 1; m < p.exposureRecordings; ++m) {
            throwIfCancelled(cancel);
            const auto seed = mixSeed(p.seed, 500 + k + 1000 * static_cast<std::uint64_t>(m));
            appendSeries(measured.back(),
                         measureExposure(p, run.combos, k, seed, cancel, recordLinks));
        }
        run.res.eventsSimulated += measured.back().eventsSimulated;
        if (recordLinks) run.res.links.push_back({k, measured.back().links});
        levelJobs.push_back(k);
    }
    for (int sched = 0; sched < p.poissonSchedules; ++sched) {
        const auto salt = static_cast<std::uint64_t>(sched) * 1000;
        std::vector<double> segStart;
        std::vector<int> segLevel;
        poissonSchedule(p.arrivalRatePerS, p.backgroundJobDuration_s, p.maxBackgroundJobs,
                        p.arrivalsStart_s, p.horizon_s, mixSeed(p.seed, 77 + salt), segStart,
                        segLevel);
        std::vector<ExposureTable> levels = measured;
        PointResult pt;
        pt.backgroundJobs = p.maxBackgroundJobs;
        pt.schedule = sched;
        pt.label = "Poisson " + formatNumber(p.arrivalRatePerS) + "/s " + p.backgroundJob.model;
        if (p.poissonSchedules > 1)
            pt.label += ", schedule " + std::to_string(sched + 1) + " of " +
                        std::to_string(p.poissonSchedules);
        for (const auto& l : levels)
            pt.bgP95GBPer50ms = std::max(pt.bgP95GBPer50ms, l.bgP95BytesPer50ms / 1e9);
        const NetworkSchedule net(std::move(levels), segStart, segLevel, p.samplePeriod_s,
                                  mixSeed(p.seed, 999 + salt), p.exposureRecordings > 1);
        run.runPolicies(pt, net, levelJobs, cancel);
        // Time-weighted mean exposure and load over the longest run.
        double tEnd = 0;
        for (const auto& r : pt.policies) tEnd = std::max(tEnd, r.endTime_s);
        tEnd = std::max(tEnd, 1.0);
        pt.meanSyncBeyondOverlap_s.assign(run.combos.size(), 0.0);
        for (size_t i = 0; i < segStart.size() && segStart[i] < tEnd; ++i) {
            const double a = segStart[i];
            const double b = std::min(tEnd, i + 1 < segStart.size() ? segStart[i + 1] : tEnd);
            const auto& tab = net.levels()[segLevel[i]];
            for (size_t c = 0; c < run.combos.size(); ++c)
                pt.meanSyncBeyondOverlap_s[c] += tab.mean[c] * (b - a) / tEnd;
            pt.loadTime_s.push_back(a);
            pt.loadBytesPerS.push_back(tab.bgMeanBytesPerS);
        }
        run.fillShares(pt);
        run.res.points.push_back(std::move(pt));
    }
    return std::move(run.res);
}

/// A measured load replayed open loop, the foreground started at offsets spread over the
/// trace: one point.
Result simulateTrace(const Params& p, const CancelFlag* cancel, bool recordLinks) {
    Run run(p);
    Diagnostics diag;
    const auto trace = loadBackgroundTrace(p, p.traceFile, "$.ml_for_ml.trace_file", diag);
    if (!trace) throw ValidationError(diag);
    const double traceEnd = io::loadTraceEnd_s(*trace);
    const int nodes = traceNodes(p);
    const double until = std::min(p.horizon_s, std::max(600.0, 2 * traceEnd) + 3600.0);
    const std::vector<fabric::Transfer> transfers =
        traceToTransfers(*trace, kTraceJobs, nodes, kTraceChunk_s, until);
    Params q = p;
    q.recordWarmup_s = 0;
    q.offsetSpacing_s = traceEnd / std::max(1, p.startOffsets);
    ExposureTable tab =
        measureTraceExposure(q, run.combos, transfers, kTraceJobs, nodes, cancel, recordLinks);
    run.res.eventsSimulated += tab.eventsSimulated;
    if (recordLinks) run.res.links.push_back({0, tab.links});
    PointResult pt;
    pt.backgroundJobs = 0;
    pt.label = "trace " + p.traceFile;
    pt.meanSyncBeyondOverlap_s = tab.mean;
    for (size_t i = 0; i < trace->time_s.size() && i < 2000; ++i) {
        pt.loadTime_s.push_back(trace->time_s[i]);
        pt.loadBytesPerS.push_back(trace->bytesPerSecond[i]);
    }
    pt.bgP95GBPer50ms =
        percentileBytesPerWindow(trace->time_s, trace->bytesPerSecond, 0.0, traceEnd, 0.05, 0.95) /
        1e9;
    run.fillShares(pt);
    const NetworkSchedule net({std::move(tab)}, {0.0}, {0}, p.samplePeriod_s, mixSeed(p.seed, 4));
    run.runPolicies(pt, net, {0}, cancel);
    run.res.points.push_back(std::move(pt));
    return std::move(run.res);
}

}  // namespace

const PolicyRun* findRun(const PointResult& pt, Policy kind) {
    for (const auto& run : pt.policies)
        if (run.kind == kind) return &run;
    return nullptr;
}

Result simulate(const Params& p, const CancelFlag* cancel, bool recordLinks) {
    switch (p.scenario) {
        case ScenarioKind::Sweep:
            return simulateSweep(p, cancel, recordLinks);
        case ScenarioKind::Poisson:
            return simulatePoisson(p, cancel, recordLinks);
        case ScenarioKind::Trace:
            return simulateTrace(p, cancel, recordLinks);
    }
    throw std::invalid_argument("mlforml::simulate: unknown scenario kind");
}

}  // namespace tandem::mlforml
