#include "mlforml/params.h"

#include <algorithm>
#include <stdexcept>

#include "common/json_reader.h"
#include "common/number_format.h"

namespace tandem::mlforml {
namespace {

/// Bounds on the work of the cross-field checks: each covers every realistic plan with a wide
/// margin and keeps a valid scenario from running for minutes without output.

/// replay_iterations x start_offsets: scenario 1 replays 7 x 4, scenario 2 300 x 4.
constexpr long long kMaxReplays = 4096;
/// Expected Poisson arrivals, arrival_rate_per_s x (horizon_s - arrivals_start_s): the schedule
/// is drawn up front (the paper's scenario 2 has ~800 arrivals).
constexpr double kMaxExpectedArrivals = 1e5;
/// Network phases per decision interval, decision_interval_s / sample_period_s: the Oracle
/// averages every phase of each interval (the paper: 60 s / 10 s = 6).
constexpr double kMaxPhasesPerDecision = 1e4;

}  // namespace

const EnumTable<ScenarioKind>& scenarioKindNames() {
    static const EnumTable<ScenarioKind> t = {{ScenarioKind::Sweep, "sweep"},
                                              {ScenarioKind::Poisson, "poisson"},
                                              {ScenarioKind::Trace, "trace"}};
    return t;
}
const char* name(ScenarioKind k) { return enumName(scenarioKindNames(), k); }

const EnumTable<ReplayMode>& replayModeNames() {
    static const EnumTable<ReplayMode> t = {{ReplayMode::Replay, "replay"},
                                            {ReplayMode::ClosedLoop, "closed_loop"}};
    return t;
}
const char* name(ReplayMode m) { return enumName(replayModeNames(), m); }

const EnumTable<ExposureSampling>& exposureSamplingNames() {
    static const EnumTable<ExposureSampling> t = {{ExposureSampling::Offsets, "offsets"},
                                                  {ExposureSampling::Series, "series"}};
    return t;
}
const char* name(ExposureSampling s) { return enumName(exposureSamplingNames(), s); }

const EnumTable<PrecisionModel>& precisionModelNames() {
    static const EnumTable<PrecisionModel> t = {
        {PrecisionModel::Kappa, "kappa"}, {PrecisionModel::NoiseInflation, "noise_inflation"}};
    return t;
}
const char* name(PrecisionModel m) { return enumName(precisionModelNames(), m); }

bool operator==(const ProgressModel& a, const ProgressModel& b) {
    return a.precisionModel == b.precisionModel &&
           a.criticalBatchSequences == b.criticalBatchSequences && a.kappaMxfp4 == b.kappaMxfp4 &&
           a.kappaFp8 == b.kappaFp8 && a.omegaMxfp4 == b.omegaMxfp4 && a.omegaFp8 == b.omegaFp8 &&
           a.lMin == b.lMin && a.staticUpdates == b.staticUpdates &&
           a.staticNodes == b.staticNodes && a.lossFloor == b.lossFloor &&
           a.lossExponent == b.lossExponent && a.lossOffset == b.lossOffset;
}

bool operator==(const Params& a, const Params& b) {
    return a.scenario == b.scenario && a.backgroundJobs == b.backgroundJobs &&
           a.backgroundJob == b.backgroundJob && a.arrivalRatePerS == b.arrivalRatePerS &&
           a.maxBackgroundJobs == b.maxBackgroundJobs &&
           a.backgroundJobDuration_s == b.backgroundJobDuration_s &&
           a.arrivalsStart_s == b.arrivalsStart_s && a.poissonSchedules == b.poissonSchedules &&
           a.exposureRecordings == b.exposureRecordings && a.traceFile == b.traceFile &&
           a.lossLogFile == b.lossLogFile && a.traceFlows == b.traceFlows &&
           a.foregroundModel == b.foregroundModel &&
           a.foregroundParameters == b.foregroundParameters &&
           a.foregroundNodes == b.foregroundNodes && a.gpusPerNode == b.gpusPerNode &&
           a.microbatchSequences == b.microbatchSequences &&
           a.microbatchCompute_s == b.microbatchCompute_s && a.precisions == b.precisions &&
           a.gradientAccumulations == b.gradientAccumulations &&
           a.fabricBytesPerS == b.fabricBytesPerS && a.nicBytesPerS == b.nicBytesPerS &&
           a.ccEfficiency == b.ccEfficiency &&
           a.ccEfficiencyDropPerFlow == b.ccEfficiencyDropPerFlow &&
           a.overlapWindow_s == b.overlapWindow_s && a.topology == b.topology &&
           a.placement == b.placement && a.mode == b.mode &&
           a.replayWarmupIterations == b.replayWarmupIterations &&
           a.replayIterations == b.replayIterations && a.startOffsets == b.startOffsets &&
           a.offsetSpacing_s == b.offsetSpacing_s && a.recordWarmup_s == b.recordWarmup_s &&
           a.exposureSampling == b.exposureSampling && a.policies == b.policies &&
           a.targetFactors == b.targetFactors && a.decisionInterval_s == b.decisionInterval_s &&
           a.historyWindow_s == b.historyWindow_s && a.telemetryDelay_s == b.telemetryDelay_s &&
           a.samplePeriod_s == b.samplePeriod_s && a.progress == b.progress && a.seed == b.seed &&
           a.horizon_s == b.horizon_s;
}

namespace {

/// The loss floor lies below the loss Static reaches (progress section).
void checkLossFloor(JsonReader& r, const ProgressModel& m) {
    if (!(m.lossFloor < m.lMin))
        r.diagnostics().error(r.childPath("loss_floor"),
                              "must be below l_min (the loss Static reaches); got " +
                                  formatNumber(m.lossFloor) + " >= " + formatNumber(m.lMin));
}

}  // namespace

void readParams(JsonReader& r, Params& p) {
    auto& d = r.diagnostics();
    readFields(r, paramFields(), p, [&p](JsonReader& sub, const char* section) {
        if (std::string(section) == "progress") checkLossFloor(sub, p.progress);
    });

    // Cross-field checks.
    for (size_t i = 0; i < p.targetFactors.size(); ++i) {
        const double target = p.targetFactors[i] * p.progress.lMin;
        if (!(target > p.progress.lossFloor))
            d.error(r.childPath("target_factors") + "[" + std::to_string(i) + "]",
                    "target loss " + formatNumber(target) +
                        " is not above the reachable loss (progress.loss_floor = " +
                        formatNumber(p.progress.lossFloor) + ")");
    }
    if (static_cast<long long>(p.replayIterations) * p.startOffsets > kMaxReplays)
        d.error(r.childPath("replay_iterations"),
                "replay_iterations x start_offsets = " + std::to_string(p.replayIterations) +
                    " x " + std::to_string(p.startOffsets) + " must be at most " +
                    std::to_string(kMaxReplays) + " replayed iterations per point");
    const double lead = p.recordWarmup_s + (p.startOffsets - 1) * p.offsetSpacing_s;
    if (p.recordWarmup_s <= kMaxRecordLead_s && p.offsetSpacing_s <= kMaxRecordLead_s &&
        lead > kMaxRecordLead_s)
        d.error(
            r.childPath("offset_spacing_s"),
            "the last replay starts record_warmup_s + (start_offsets - 1) x offset_spacing_s = " +
                formatNumber(lead) + " s into the background recording; at most " +
                formatNumber(kMaxRecordLead_s) +
                " s (a bound on the work: every replay simulates the background up to its start)");
    // The controllers act once per decision interval: a run shorter than one never decides
    // (checked once both spans passed their own bounds).
    const bool spansOk = std::none_of(d.items().begin(), d.items().end(), [&](const Issue& i) {
        return i.path == r.childPath("horizon_s") || i.path == r.childPath("decision_interval_s");
    });
    if (spansOk && p.horizon_s < p.decisionInterval_s)
        d.error(r.childPath("horizon_s"),
                "must be at least one decision interval (decision_interval_s = " +
                    formatNumber(p.decisionInterval_s) + " s; got " + formatNumber(p.horizon_s) +
                    " s): the run would end before any policy makes its first decision");
    const double arrivals = p.arrivalRatePerS * (p.horizon_s - p.arrivalsStart_s);
    if (p.scenario == ScenarioKind::Poisson && arrivals > kMaxExpectedArrivals)
        d.error(r.childPath("arrival_rate_per_s"),
                "arrival_rate_per_s x (horizon_s - arrivals_start_s) = " + formatNumber(arrivals) +
                    " expected arrivals; at most " + formatNumber(kMaxExpectedArrivals) +
                    " (a bound on the work: the whole schedule is drawn before the run; the "
                    "paper's scenario 2 has ~800)");
    const double phases = p.decisionInterval_s / p.samplePeriod_s;
    if (phases > kMaxPhasesPerDecision)
        d.error(r.childPath("sample_period_s"),
                "decision_interval_s / sample_period_s = " + formatNumber(phases) +
                    " network phases per decision; at most " + formatNumber(kMaxPhasesPerDecision) +
                    " (a bound on the work: the Oracle averages every phase of each interval)");
    if (p.scenario != ScenarioKind::Trace && !p.traceFile.empty())
        d.error(r.childPath("trace_file"),
                "only used when scenario is \"trace\" (scenario is \"" +
                    std::string(name(p.scenario)) +
                    "\"): set scenario to \"trace\" or remove trace_file");
    if (p.scenario == ScenarioKind::Trace && p.traceFile.empty())
        d.error(r.childPath("trace_file"), "is required when scenario is \"trace\"");
    if (p.scenario == ScenarioKind::Sweep && p.backgroundJobs.empty())
        d.error(r.childPath("background_jobs"), "must list at least one N for scenario \"sweep\"");
    if (p.topology.kind == fabric::FabricKind::Shared && !(p.placement == fabric::Placement{}))
        d.error(r.childPath("placement"),
                "only used by a leaf_spine fabric; the shared paper-fabric has no placement");
    if (p.topology.preset == fabric::kNvl72Preset && p.gpusPerNode != fabric::kNvl72Gpus)
        d.error(r.childPath("gpus_per_node"),
                "is " + std::to_string(p.gpusPerNode) + "; the \"" + fabric::kNvl72Preset +
                    "\" topology's node is one NVL72 rack of " +
                    std::to_string(fabric::kNvl72Gpus) +
                    " GPUs (one NVLink domain, one NIC per GPU): set gpus_per_node " +
                    std::to_string(fabric::kNvl72Gpus) +
                    " and nic_GBps 3600 (GB200: 72 x 400 Gb/s) or 7200 (GB300: 72 x 800 Gb/s)");
    if (p.topology.kind == fabric::FabricKind::LeafSpine && d.ok()) {
        if (p.scenario == ScenarioKind::Trace) {
            d.error(r.childPath("topology"),
                    "a load trace has no placement on a leaf_spine fabric; use the "
                    "\"paper-fabric\" topology with scenario \"trace\"");
        } else {
            try {
                // The errors name this reader's JSON paths of the two objects.
                buildFabric(p, {r.childPath("topology"), r.childPath("placement")});
            } catch (const fabric::FabricError& e) {
                d.error(e.key(), e.reason());
            }
        }
    }
    r.finish();
}

bool applyTopologyPreset(Params& p, const std::string& preset) {
    if (!fabric::topologyPreset(preset, p.topology)) return false;
    if (preset == fabric::kNvl72Preset && p.gpusPerNode != fabric::kNvl72Gpus) {
        p.gpusPerNode = fabric::kNvl72Gpus;
        p.nicBytesPerS = fabric::kNvl72Gpus * 400e9 / 8;  // one 400 Gb/s NIC per GPU
    }
    return true;
}

int concurrentBackgroundJobs(const Params& p) {
    if (p.scenario == ScenarioKind::Poisson) return p.maxBackgroundJobs;
    if (p.scenario == ScenarioKind::Trace) return 0;
    int n = 0;
    for (int v : p.backgroundJobs) n = std::max(n, v);
    return n;
}

fabric::FabricPlan buildFabric(const Params& p, const fabric::FabricKeys& keys) {
    return fabric::buildFabric(p.topology, p.placement, concurrentBackgroundJobs(p),
                               p.backgroundJob.nodes, p.foregroundNodes, p.nicBytesPerS,
                               p.gpusPerNode, keys);
}

nlohmann::ordered_json writeParams(const Params& p) { return writeFields(paramFields(), p); }

}  // namespace tandem::mlforml
