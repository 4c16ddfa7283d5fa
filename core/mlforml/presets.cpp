#include "mlforml/presets.h"

namespace tandem::mlforml {

Params scenario1Params() { return Params{}; }

Params scenario2Params() {
    // GPT-13B neighbours: 13e9 BF16 values (26 GB) per sync over 56 nodes, 5 s (+-3 %) of
    // compute between syncs, each sync put on the wire as 8 bucket bursts 50 ms apart (a
    // bucketed all-reduce). Under the open-loop backlog every outstanding bucket is a flow with
    // its own fair share, so a backlogged GPT-13B job out-weighs the foreground's one flow per
    // node: BF16 syncs, which build the backlog 3.8x faster than MXFP4 ones, lose much more than
    // their byte ratio (super-linear exposure). The foreground is replayed for 300 iterations per
    // combination and read as a time series ("series"): bursts keep their duration and the
    // backlog reaches its level. Node count, burst count and gap, jitter were chosen by a search
    // against Sec. 3.3 scored on all scenario-2 rows over three seeds
    // (docs/MODEL-ML-FOR-ML.md, section 6, lists what still misses and why).
    Params p;
    p.scenario = ScenarioKind::Poisson;
    p.backgroundJobs = {5};
    p.backgroundJob.model = "GPT-13B";
    p.backgroundJob.nodes = 56;
    p.backgroundJob.gradientBytes = 26e9;
    p.backgroundJob.compute_s = 5.0;
    p.backgroundJob.computeJitter = 0.03;
    p.backgroundJob.syncBursts = 8;
    p.backgroundJob.burstGap_s = 0.05;
    p.arrivalRatePerS = 0.002;
    p.maxBackgroundJobs = 5;
    p.backgroundJobDuration_s = 1500;  // 0.002 /s x 1500 s ~ 2.7-3 jobs active [Sec. 3.3]
    p.replayIterations = 300;
    p.exposureSampling = ExposureSampling::Series;
    // One Joint run (~1.5 h here) spans only a few job lifetimes, so one arrival schedule and
    // one recording per level are not seed-stable. reproduce averages 64 schedules over 32
    // recordings per level: Decoupled/Joint and Knob-Precision/Joint then move by <= 0.04
    // between seeds 1-3, Knob-GA/Joint and Static/Joint by up to ~0.17 and ~0.30
    // (docs/MODEL-ML-FOR-ML.md, section 6).
    p.poissonSchedules = 64;
    p.exposureRecordings = 32;
    p.horizon_s = 400000;
    return p;
}

}  // namespace tandem::mlforml
