#pragma once
// The ML-for-ML engine entry point [2608.06046 Sec. 3]: measures the foreground's exposed DP
// time under the background traffic of each point (fluid network, MODEL.md A3), then runs every
// policy's training loop (progress model A4, greedy per-interval rule A5) and reports
// first-crossing times, trajectories and knob shares.
#include <cstdint>
#include <exception>  // before common/cancel.h, which uses std::exception
#include <string>
#include <vector>

#include "common/cancel.h"
#include "fabric/fabric_sim.h"
#include "mlforml/params.h"

namespace tandem::mlforml {

/// A run of consecutive updates in one knob combination: [t0_s, t1_s), index into
/// Result::comboLabels.
struct ComboSegment {
    double t0_s;
    double t1_s;
    int combo;
};

/// One policy's training run at one point.
struct PolicyRun {
    std::string policy;            ///< its label (PolicySpec::label): "Static", ..., "Oracle", or a
                                   ///< fixed combination's ("GA16-MXFP4")
    Policy kind = Policy::Static;  ///< which controller ran
    /// Trajectory (at most ~2000 points): wall-clock s, optimizer updates, eval loss.
    std::vector<double> time_s, updates, loss;
    /// First-crossing time per target (s); NaN = not reached within the horizon.
    std::vector<double> firstCrossing_s;
    std::vector<double> comboShare;      ///< per Result::comboLabels, fraction of updates
    std::vector<ComboSegment> timeline;  ///< merged runs of one combination
    /// Exposed DP time (the sync beyond the overlap window [2608.06046 Sec. 3.1]) / wall-clock
    /// over the run, 0..1.
    double syncBeyondOverlapShare = 0;
    std::vector<double> dpShareTime_s, dpShare;  ///< exposed DP share per decision interval
    /// Share of updates per combination per background level: scenario "poisson" index k =
    /// k active background jobs (0..max_background_jobs); "sweep"/"trace" one row. Rows of
    /// levels that never occurred during the run are empty. [Sec. 3.3]
    std::vector<std::vector<double>> comboShareByBackground;
    /// Updates per background level (same indexing as comboShareByBackground), for pooling
    /// shares over several schedules.
    std::vector<long long> updatesByBackground;
    long long totalUpdates = 0;
    double endTime_s = 0;
    /// Why the run stopped before its targets, for the not-reached note: the combination
    /// (index into Result::comboLabels) whose next update could not be simulated, -1 if none;
    /// nextUpdateEnd_s is when that update would end, s (+inf: its gradient sync never finishes
    /// because the fabric's open-loop backlog under this background grows without end; finite and
    /// above horizon_s: it ends after the simulated window).
    int stoppedCombo = -1;
    double nextUpdateEnd_s = 0;
};

/// One point: a background condition (scenario 1: N jobs; scenario 2: one Poisson schedule
/// per point, poisson_schedules of them;
/// trace: the trace).
struct PointResult {
    int backgroundJobs = 0;     ///< N (sweep), max concurrent (poisson), 0 (trace)
    int schedule = 0;           ///< poisson: index of the arrival schedule (0..poisson_schedules-1)
    std::string label;          ///< e.g. "N=8 GPT-1B"
    double bgP95GBPer50ms = 0;  ///< background volume, 95th percentile per 50 ms, GB [Sec. 3.2]
    double dpShareBf16 = 0;     ///< exposed DP share of the GA4-BF16 iteration, 0..1 [Fig. 2a]
    double dpShareMxfp4 = 0;    ///< same for GA4-MXFP4; NaN when that combination is not offered
    /// Mean exposed DP time (the sync beyond the overlap window) per combination (s), per
    /// Result::comboLabels (scenario 1: the
    /// paper's T_dp(p, z) averaged over offsets; poisson: over the schedule).
    std::vector<double> meanSyncBeyondOverlap_s;
    std::vector<PolicyRun> policies;
    std::vector<double> loadTime_s, loadBytesPerS;  ///< background load over time
};

/// The first run of `kind` in `pt` (the named policies occur at most once), or nullptr.
const PolicyRun* findRun(const PointResult& pt, Policy kind);

/// How the fabric's links were used under one background condition (links.csv).
struct LinkTable {
    int backgroundJobs = 0;  ///< the condition: N (sweep), the level (poisson), 0 (trace)
    /// Per link, summed over every foreground replay of the condition (ExposureTable::links).
    std::vector<fabric::LinkUsage> links;
};

struct Result {
    std::vector<double> targetFactors;
    std::vector<double> targetLosses;
    std::vector<std::string> comboLabels;  ///< action space, g-major, e.g. "GA4-BF16"
    std::vector<PointResult> points;
    /// Link use per background condition measured, in measurement order.
    std::vector<LinkTable> links;
    /// Flow start and finish events processed by the fluid network, summed over every
    /// recording and replay of every point (JSON `events_simulated`; the benchmark divides it
    /// by the run time for mlforml_events_per_s).
    std::uint64_t eventsSimulated = 0;
};

/// Runs the scenario; `recordLinks` also fills Result::links (`tandem-cli run`; a little work
/// per flow event, so the curves, sweeps and the GUI leave it off). Deterministic in p (including
/// p.seed). Throws tandem::Cancelled when `cancel` is set (polled between replays and policy
/// intervals) and tandem::ValidationError when a trace file cannot be read or parsed.
Result simulate(const Params& p, const tandem::CancelFlag* cancel = nullptr,
                bool recordLinks = false);

}  // namespace tandem::mlforml
