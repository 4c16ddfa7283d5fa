#include "mlforml/presets.h"

namespace tandem::mlforml {

Params scenario1Params() { return Params{}; }

Params scenario2Params() {
    // GPT-13B neighbours: 13e9 BF16 values per sync over 64 nodes, 5 s (+-10 %) of compute
    // between syncs. Their syncs are long (tens of seconds once several overlap), so the
    // foreground is replayed for 300 iterations per combination and read as a time series
    // ("series"): bursts keep their duration and the open-loop backlog reaches its equilibrium.
    // Chosen by hand-search against Sec. 3.3 (docs/MODEL-ML-FOR-ML.md lists what still misses).
    Params p;
    p.scenario = "poisson";
    p.backgroundJobs = {5};
    p.backgroundJob.model = "GPT-13B";
    p.backgroundJob.nodes = 64;
    p.backgroundJob.gradientBytes = 26e9;
    p.backgroundJob.computeS = 5.0;
    p.backgroundJob.computeJitter = 0.1;
    p.arrivalRatePerS = 0.002;
    p.maxBackgroundJobs = 5;
    p.backgroundJobDurationS = 1500;  // 0.002 /s x 1500 s ~ 2.7-3 jobs active [Sec. 3.3]
    p.replayIterations = 300;
    p.exposureSampling = "series";
    // One Joint run (~1.5 h here) spans only a few job lifetimes, so one arrival schedule and
    // one recording per level are not seed-stable (ratios moved by up to 0.9 between seeds).
    // reproduce averages 64 schedules over 8 recordings per level: Decoupled/Joint and
    // Knob-Precision/Joint then move by <= 0.03 between seeds, Knob-GA/Joint and Static/Joint
    // by up to ~0.13 (docs/MODEL-ML-FOR-ML.md, section 6).
    p.poissonSchedules = 64;
    p.exposureRecordings = 8;
    p.horizonS = 400000;
    return p;
}

}  // namespace tandem::mlforml
