#include "mlforml/params.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "mlforml/knobs.h"

namespace tandem::mlforml {
namespace {

constexpr double kGB = 1e9;
constexpr double kMs = 1e-3;

std::vector<int> toInts(const std::vector<long long>& v) {
    return std::vector<int>(v.begin(), v.end());
}
std::vector<long long> toLongs(const std::vector<int>& v) {
    return std::vector<long long>(v.begin(), v.end());
}

/// Largest lists and sizes the reader accepts. Each covers every realistic plan (the paper's
/// runs use 4 background sizes, 5 policies, 2 precisions, 4 targets, <= 64 nodes per job and
/// at most 300 replay iterations at 4 offsets) with a wide margin, and keeps a valid scenario
/// from running for minutes without output.
constexpr size_t kMaxListEntries = 64;      ///< background_jobs, policies, gradient_accumulations
constexpr size_t kMaxTargetFactors = 16;    ///< target_factors
constexpr long long kMaxNodes = fabric::kMaxJobNodes;  ///< foreground_nodes
constexpr long long kMaxReplayIterations = 1000;  ///< replay_iterations, replay_warmup_iterations
/// replay_iterations x start_offsets: scenario 1 replays 7 x 4, scenario 2 300 x 4.
constexpr long long kMaxReplays = 4096;
/// Background-alone time before the last replay starts, s: record_warmup_s + (start_offsets - 1)
/// x offset_spacing_s, and each of the two alone. Warm-up passes the background jobs' start-up
/// (a few cycles of compute and sync: seconds; GPT-13B's cycle is ~10 s) and offsets sample the
/// phase of that cycle; 600 s covers dozens of cycles of any training job, and every second
/// beyond it is background simulated again by every replay (the paper: 5 s and 4 x 0.25 s).
constexpr double kMaxRecordLeadS = 600;
/// Largest network rate, GB/s (fabric_GBps, nic_GBps): 1 EB/s, a million times today's largest
/// fabrics; above it the bytes/s conversion and the event arithmetic lose their meaning.
constexpr double kMaxBandwidthGBps = 1e9;
/// Expected Poisson arrivals, arrival_rate_per_s x (horizon_s - arrivals_start_s): the schedule
/// is drawn up front (the paper's scenario 2 has ~800 arrivals).
constexpr double kMaxExpectedArrivals = 1e5;
/// Network phases per decision interval, decision_interval_s / sample_period_s: the Oracle
/// averages every phase of each interval (the paper: 60 s / 10 s = 6).
constexpr double kMaxPhasesPerDecision = 1e4;

/// Longest single phase, ms (background_job.compute_ms and burst_gap_ms, microbatch_compute_ms,
/// overlap_window_ms): one hour; a training step's compute or gap takes milliseconds to seconds.
constexpr double kMaxPhaseMs = 3.6e6;
/// Shortest compute phase, ms (background_job.compute_ms, microbatch_compute_ms): 1 us, the
/// launch latency of a single GPU kernel.
constexpr double kMinPhaseMs = 1e-3;
/// Slowest non-zero network rate, GB/s (fabric_GBps, nic_GBps): 1 MB/s, below any link a
/// training job is run over (0 stays allowed and is warned about).
constexpr double kMinBandwidthGBps = 1e-3;
/// Largest foreground model, gradient values: 1e13, five times the largest models trained.
constexpr double kMaxParameters = 1e13;
/// Shortest controller and run time span, s (decision_interval_s, history_window_s,
/// sample_period_s, horizon_s): 1 ms, shorter than the compute of one microbatch.
constexpr double kMinSpanS = 1e-3;
/// Largest time span, s (durations, windows, delays, intervals): horizon_s's own limit.
constexpr double kMaxSpanS = 1e9;

const char* kMinPhaseWhy = "1 us, the launch latency of one GPU kernel (a physical bound)";
const char* kMaxPhaseWhy =
    "one hour; a training step's compute phase or gap lasts milliseconds to seconds (a physical "
    "bound)";
const char* kSpanWhy = "31 years, the limit of horizon_s (a physical bound)";
const char* kShortSpanWhy =
    "1 ms, shorter than the compute of one microbatch; telemetry and decisions act on whole "
    "iterations (a physical bound)";

void readProgress(JsonReader r, ProgressModel& m) {
    if (!r.isObject()) return;
    m.precisionModel = r.string("precision_model", m.precisionModel, {"kappa", "noise_inflation"});
    m.criticalBatchSequences =
        r.number("critical_batch_sequences", m.criticalBatchSequences, Range::nonNegative());
    m.kappaMxfp4 = r.number("kappa_mxfp4", m.kappaMxfp4, Range::atLeast(1e-3));
    m.kappaFp8 = r.number("kappa_fp8", m.kappaFp8, Range::atLeast(1e-3));
    m.omegaMxfp4 = r.number("omega_mxfp4", m.omegaMxfp4, Range::nonNegative());
    m.omegaFp8 = r.number("omega_fp8", m.omegaFp8, Range::nonNegative());
    const char* kFactorWhy =
        "a precision that costs 1000 times the progress (or noise) of BF16 does not train (a "
        "physical bound)";
    requireAtMost(r, "critical_batch_sequences", m.criticalBatchSequences, 1e9, " sequences",
                  "1e9 sequences, a thousand times the largest global batches trained (a physical "
                  "bound)");
    requireAtMost(r, "kappa_mxfp4", m.kappaMxfp4, 1e3, "", kFactorWhy);
    requireAtMost(r, "kappa_fp8", m.kappaFp8, 1e3, "", kFactorWhy);
    requireAtMost(r, "omega_mxfp4", m.omegaMxfp4, 1e3, "", kFactorWhy);
    requireAtMost(r, "omega_fp8", m.omegaFp8, 1e3, "", kFactorWhy);
    m.lMin = r.number("l_min", m.lMin, Range::positive());
    requireAtMost(r, "l_min", m.lMin, 100, " nats",
                  "a cross-entropy loss per token; an untrained model over a 1e6-token "
                  "vocabulary starts near 14 (a physical bound)");
    m.staticUpdates = r.number("static_updates", m.staticUpdates, Range::closed(1, 1e9));
    m.staticNodes =
        static_cast<int>(r.integer("static_nodes", m.staticNodes, Range::closed(0, kMaxNodes)));
    m.lossFloor = r.number("loss_floor", m.lossFloor, Range::nonNegative());
    m.lossExponent = r.number("loss_exponent", m.lossExponent, {0.0, 5.0, true, false});
    m.lossOffset = r.number("loss_offset", m.lossOffset, Range::nonNegative());
    requireAtMost(r, "loss_offset", m.lossOffset, 1e9, "",
                  "progress units are updates; static_updates' own limit (a physical bound)");
    if (!(m.lossFloor < m.lMin))
        r.diagnostics().error(r.childPath("loss_floor"),
                              "must be below l_min (the loss Static reaches); got " +
                                  formatNumber(m.lossFloor) + " >= " + formatNumber(m.lMin));
    r.finish();
}

bool isPolicy(const std::string& s) {
    const auto& names = policyNames();
    if (std::find(names.begin(), names.end(), s) != names.end()) return true;
    Combo c;
    return parseComboLabel(s, c);
}

}  // namespace

void readParams(JsonReader& r, Params& p) {
    auto& d = r.diagnostics();
    p.scenario = r.string("scenario", p.scenario, {"sweep", "poisson", "trace"});
    if (r.arrayWithin("background_jobs", kMaxListEntries)) {
        p.backgroundJobs = toInts(r.integers("background_jobs", toLongs(p.backgroundJobs),
                                             Range::closed(0, 1000), 1));
        r.requireDistinct("background_jobs", p.backgroundJobs);
    }
    fabric::readBackgroundJob(r.object("background_job"), p.backgroundJob);
    p.arrivalRatePerS = r.number("arrival_rate_per_s", p.arrivalRatePerS, Range::nonNegative());
    requireAtMost(r, "arrival_rate_per_s", p.arrivalRatePerS, 1e3, " /s",
                  "a thousand training jobs a second, beyond any cluster's scheduler (a physical "
                  "bound)");
    p.maxBackgroundJobs =
        static_cast<int>(r.integer("max_background_jobs", p.maxBackgroundJobs, Range::closed(0, 64)));
    p.backgroundJobDurationS =
        r.number("background_job_duration_s", p.backgroundJobDurationS, Range::positive());
    requireAtMost(r, "background_job_duration_s", p.backgroundJobDurationS, kMaxSpanS, " s", kSpanWhy);
    p.arrivalsStartS = r.number("arrivals_start_s", p.arrivalsStartS, Range::closed(-1e7, 0));
    p.poissonSchedules =
        static_cast<int>(r.integer("poisson_schedules", p.poissonSchedules, Range::closed(1, 256)));
    p.exposureRecordings = static_cast<int>(
        r.integer("exposure_recordings", p.exposureRecordings, Range::closed(1, 64)));
    p.traceFile = r.string("trace_file", p.traceFile);
    p.traceFlows = static_cast<int>(r.integer("trace_flows", p.traceFlows, Range::closed(1, 1e6)));

    p.foregroundModel = r.string("foreground_model", p.foregroundModel);
    p.foregroundParameters =
        r.number("foreground_parameters", p.foregroundParameters, Range::positive());
    requireAtLeast(r, "foreground_parameters", p.foregroundParameters, 1, "",
                   "a gradient has at least one value (a physical bound)");
    requireAtMost(r, "foreground_parameters", p.foregroundParameters, kMaxParameters, "",
                  "1e13 gradient values, five times the largest models trained (a physical bound)");
    p.foregroundNodes =
        static_cast<int>(r.integer("foreground_nodes", p.foregroundNodes, Range::closed(1, kMaxNodes)));
    p.gpusPerNode = static_cast<int>(r.integer("gpus_per_node", p.gpusPerNode, Range::closed(1, 1024)));
    p.microbatchSequences =
        r.number("microbatch_sequences", p.microbatchSequences, Range::positive());
    requireAtMost(r, "microbatch_sequences", p.microbatchSequences, 1e5, "",
                  "1e5 sequences per GPU, far beyond any accelerator's memory (a physical bound)");
    p.microbatchComputeS =
        r.number("microbatch_compute_ms", p.microbatchComputeS / kMs, Range::positive()) * kMs;
    requireAtLeast(r, "microbatch_compute_ms", p.microbatchComputeS / kMs, kMinPhaseMs, " ms",
                   kMinPhaseWhy);
    requireAtMost(r, "microbatch_compute_ms", p.microbatchComputeS / kMs, kMaxPhaseMs, " ms",
                  kMaxPhaseWhy);
    if (r.arrayWithin("precisions", kMaxListEntries)) {
        p.precisions = r.strings("precisions", p.precisions, knownPrecisions());
        r.requireDistinct("precisions", p.precisions);
    }
    if (p.precisions.empty()) d.error(r.childPath("precisions"), "must list at least one precision");
    if (r.arrayWithin("gradient_accumulations", kMaxListEntries)) {
        p.gradientAccumulations = toInts(r.integers(
            "gradient_accumulations", toLongs(p.gradientAccumulations), Range::closed(1, 4096), 1));
        r.requireDistinct("gradient_accumulations", p.gradientAccumulations);
    }

    const char* kBandwidthWhy =
        "1 EB/s, a million times the largest fabrics built (a physical bound)";
    // Checked in GB/s, before the conversion that would overflow (1e300 GB/s).
    const double fabricGBps =
        r.number("fabric_GBps", p.fabricBytesPerS / kGB, Range::nonNegative());
    const char* kSlowWhy =
        "1 MB/s, slower than any link a training job runs over; 0 (no network) is allowed and "
        "warned about (a physical bound)";
    if (fabricGBps != 0)
        requireAtLeast(r, "fabric_GBps", fabricGBps, kMinBandwidthGBps, " GB/s", kSlowWhy);
    requireAtMost(r, "fabric_GBps", fabricGBps, kMaxBandwidthGBps, " GB/s", kBandwidthWhy);
    p.fabricBytesPerS = std::min(fabricGBps, kMaxBandwidthGBps) * kGB;
    const double nicGBps = r.number("nic_GBps", p.nicBytesPerS / kGB, Range::nonNegative());
    if (nicGBps != 0) requireAtLeast(r, "nic_GBps", nicGBps, kMinBandwidthGBps, " GB/s", kSlowWhy);
    requireAtMost(r, "nic_GBps", nicGBps, kMaxBandwidthGBps, " GB/s", kBandwidthWhy);
    p.nicBytesPerS = std::min(nicGBps, kMaxBandwidthGBps) * kGB;
    p.ccEfficiency = r.number("cc_efficiency", p.ccEfficiency, {0.0, 1.0, true, false});
    p.ccEfficiencyDropPerFlow =
        r.number("cc_efficiency_drop_per_flow", p.ccEfficiencyDropPerFlow, Range::nonNegative());
    requireAtMost(r, "cc_efficiency_drop_per_flow", p.ccEfficiencyDropPerFlow, 10, "",
                  "at 10 two competing groups already keep 1/11 of their fair share, worse than "
                  "any congestion control measured (a physical bound)");
    p.overlapWindowS =
        r.number("overlap_window_ms", p.overlapWindowS / kMs, Range::nonNegative()) * kMs;
    requireAtMost(r, "overlap_window_ms", p.overlapWindowS / kMs, kMaxPhaseMs, " ms", kMaxPhaseWhy);
    p.mode = r.string("mode", p.mode, {"replay", "closed_loop"});
    p.replayWarmupIterations = static_cast<int>(
        r.integer("replay_warmup_iterations", p.replayWarmupIterations, Range::closed(0, kMaxReplayIterations)));
    p.replayIterations =
        static_cast<int>(r.integer("replay_iterations", p.replayIterations, Range::closed(1, kMaxReplayIterations)));
    p.startOffsets = static_cast<int>(r.integer("start_offsets", p.startOffsets, Range::closed(1, 64)));
    p.offsetSpacingS = r.number("offset_spacing_s", p.offsetSpacingS, Range::nonNegative());
    requireAtMost(r, "offset_spacing_s", p.offsetSpacingS, kMaxRecordLeadS, " s",
                  "start offsets sample the phase of the background jobs' cycle (seconds); a "
                  "wider spacing only simulates more background time (a physical bound)");
    p.recordWarmupS = r.number("record_warmup_s", p.recordWarmupS, Range::nonNegative());
    requireAtMost(r, "record_warmup_s", p.recordWarmupS, kMaxRecordLeadS, " s",
                  "the warm-up passes the background jobs' start-up, a few cycles of compute and "
                  "sync (seconds); a longer one only simulates more background time (a physical "
                  "bound)");
    p.exposureSampling = r.string("exposure_sampling", p.exposureSampling, {"offsets", "series"});

    if (r.arrayWithin("policies", kMaxListEntries)) {
        p.policies = r.strings("policies", p.policies);
        r.requireDistinct("policies", p.policies);
    }
    for (size_t i = 0; i < p.policies.size(); ++i) {
        if (isPolicy(p.policies[i])) continue;
        std::string msg = "unknown policy \"" + p.policies[i] +
                          "\": use Static, Knob-Precision, Knob-GA, Decoupled, Joint, Oracle or "
                          "a combination such as \"GA16-MXFP4\"";
        const auto hint = closestMatch(p.policies[i], policyNames());
        if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        d.error(r.childPath("policies") + "[" + std::to_string(i) + "]", msg);
    }
    if (p.policies.empty()) d.error(r.childPath("policies"), "must list at least one policy");
    if (r.arrayWithin("target_factors", kMaxTargetFactors)) {
        p.targetFactors = r.numbers("target_factors", p.targetFactors, Range::positive(), 1);
        for (size_t i = 0; i < p.targetFactors.size(); ++i)
            if (p.targetFactors[i] > 10)
                d.error(r.childPath("target_factors") + "[" + std::to_string(i) + "]",
                        "must be at most 10 (got " + formatNumber(p.targetFactors[i]) +
                            "): a target ten times the loss Static reaches is met before "
                            "training starts (a physical bound)");
        r.requireDistinct("target_factors", p.targetFactors);
    }
    p.decisionIntervalS = r.number("decision_interval_s", p.decisionIntervalS, Range::positive());
    p.historyWindowS = r.number("history_window_s", p.historyWindowS, Range::positive());
    p.telemetryDelayS = r.number("telemetry_delay_s", p.telemetryDelayS, Range::nonNegative());
    requireAtLeast(r, "decision_interval_s", p.decisionIntervalS, kMinSpanS, " s", kShortSpanWhy);
    requireAtMost(r, "decision_interval_s", p.decisionIntervalS, kMaxSpanS, " s", kSpanWhy);
    requireAtLeast(r, "history_window_s", p.historyWindowS, kMinSpanS, " s", kShortSpanWhy);
    requireAtMost(r, "history_window_s", p.historyWindowS, kMaxSpanS, " s", kSpanWhy);
    requireAtMost(r, "telemetry_delay_s", p.telemetryDelayS, kMaxSpanS, " s", kSpanWhy);
    p.samplePeriodS = r.number("sample_period_s", p.samplePeriodS, Range::positive());
    requireAtLeast(r, "sample_period_s", p.samplePeriodS, kMinSpanS, " s", kShortSpanWhy);
    requireAtMost(r, "sample_period_s", p.samplePeriodS, kMaxSpanS, " s", kSpanWhy);
    readProgress(r.object("progress"), p.progress);
    p.seed = static_cast<std::uint64_t>(r.integer("seed", static_cast<long long>(p.seed),
                                                  Range::closed(0, 9007199254740991.0)));
    p.horizonS = r.number("horizon_s", p.horizonS, {0.0, 1e9, true, false});
    requireAtLeast(r, "horizon_s", p.horizonS, kMinSpanS, " s", kShortSpanWhy);

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
                "replay_iterations x start_offsets = " + std::to_string(p.replayIterations) + " x " +
                    std::to_string(p.startOffsets) + " must be at most " + std::to_string(kMaxReplays) +
                    " replayed iterations per point");
    const double lead = p.recordWarmupS + (p.startOffsets - 1) * p.offsetSpacingS;
    if (p.recordWarmupS <= kMaxRecordLeadS && p.offsetSpacingS <= kMaxRecordLeadS &&
        lead > kMaxRecordLeadS)
        d.error(
            r.childPath("offset_spacing_s"),
            "the last replay starts record_warmup_s + (start_offsets - 1) x offset_spacing_s = " +
                formatNumber(lead) + " s into the background recording; at most " +
                formatNumber(kMaxRecordLeadS) +
                " s (a bound on the work: every replay simulates the background up to its start)");
    const double arrivals = p.arrivalRatePerS * (p.horizonS - p.arrivalsStartS);
    if (p.scenario == "poisson" && arrivals > kMaxExpectedArrivals)
        d.error(r.childPath("arrival_rate_per_s"),
                "arrival_rate_per_s x (horizon_s - arrivals_start_s) = " + formatNumber(arrivals) +
                    " expected arrivals; at most " + formatNumber(kMaxExpectedArrivals) +
                    " (a bound on the work: the whole schedule is drawn before the run; the "
                    "paper's scenario 2 has ~800)");
    const double phases = p.decisionIntervalS / p.samplePeriodS;
    if (phases > kMaxPhasesPerDecision)
        d.error(r.childPath("sample_period_s"),
                "decision_interval_s / sample_period_s = " + formatNumber(phases) +
                    " network phases per decision; at most " + formatNumber(kMaxPhasesPerDecision) +
                    " (a bound on the work: the Oracle averages every phase of each interval)");
    if (p.scenario != "trace" && !p.traceFile.empty())
        d.error(r.childPath("trace_file"),
                "only used when scenario is \"trace\" (scenario is \"" + p.scenario +
                    "\"): set scenario to \"trace\" or remove trace_file");
    if (p.scenario == "trace" && p.traceFile.empty())
        d.error(r.childPath("trace_file"), "is required when scenario is \"trace\"");
    if (p.scenario == "sweep" && p.backgroundJobs.empty())
        d.error(r.childPath("background_jobs"), "must list at least one N for scenario \"sweep\"");
    fabric::readTopology(r.object("topology"), p.topology);
    fabric::readPlacement(r.object("placement"), p.placement);
    if (p.topology.kind == "shared" && !(p.placement == fabric::Placement{}))
        d.error(r.childPath("placement"),
                "only used by a leaf_spine fabric; the shared paper-fabric has no placement");
    if (p.topology.kind == "leaf_spine" && d.ok()) {
        if (p.scenario == "trace") {
            d.error(r.childPath("topology"),
                    "a load trace has no placement on a leaf_spine fabric; use the "
                    "\"paper-fabric\" topology with scenario \"trace\"");
        } else {
            try {
                buildFabric(p);
            } catch (const std::invalid_argument& e) {
                // Messages start with the key below ml_for_ml ("ml_for_ml.topology.nodes: ...").
                std::string msg = e.what();
                const std::string prefix = "ml_for_ml.";
                const size_t colon = msg.find(": ");
                std::string key = colon == std::string::npos ? "topology" : msg.substr(0, colon);
                if (key.rfind(prefix, 0) == 0) key = key.substr(prefix.size());
                d.error(r.path() + "." + key,
                        colon == std::string::npos ? msg : msg.substr(colon + 2));
            }
        }
    }
    r.finish();
}

int concurrentBackgroundJobs(const Params& p) {
    if (p.scenario == "poisson") return p.maxBackgroundJobs;
    if (p.scenario == "trace") return 0;
    int n = 0;
    for (int v : p.backgroundJobs) n = std::max(n, v);
    return n;
}

fabric::FabricPlan buildFabric(const Params& p) {
    return fabric::buildFabric(p.topology, p.placement, concurrentBackgroundJobs(p),
                               p.backgroundJob.nodes, p.foregroundNodes, p.nicBytesPerS,
                               p.gpusPerNode);
}

nlohmann::ordered_json writeParams(const Params& p) {
    nlohmann::ordered_json j;
    j["scenario"] = p.scenario;
    j["background_jobs"] = p.backgroundJobs;
    j["background_job"] = fabric::writeBackgroundJob(p.backgroundJob);
    j["arrival_rate_per_s"] = p.arrivalRatePerS;
    j["max_background_jobs"] = p.maxBackgroundJobs;
    j["background_job_duration_s"] = p.backgroundJobDurationS;
    j["arrivals_start_s"] = p.arrivalsStartS;
    j["poisson_schedules"] = p.poissonSchedules;
    j["exposure_recordings"] = p.exposureRecordings;
    j["trace_file"] = p.traceFile;
    j["trace_flows"] = p.traceFlows;
    j["foreground_model"] = p.foregroundModel;
    j["foreground_parameters"] = p.foregroundParameters;
    j["foreground_nodes"] = p.foregroundNodes;
    j["gpus_per_node"] = p.gpusPerNode;
    j["microbatch_sequences"] = p.microbatchSequences;
    j["microbatch_compute_ms"] = p.microbatchComputeS / kMs;
    j["precisions"] = p.precisions;
    j["gradient_accumulations"] = p.gradientAccumulations;
    j["fabric_GBps"] = p.fabricBytesPerS / kGB;
    j["nic_GBps"] = p.nicBytesPerS / kGB;
    if (!(p.topology == fabric::Topology{})) j["topology"] = fabric::writeTopology(p.topology);
    if (!(p.placement == fabric::Placement{})) j["placement"] = fabric::writePlacement(p.placement);
    j["cc_efficiency"] = p.ccEfficiency;
    j["cc_efficiency_drop_per_flow"] = p.ccEfficiencyDropPerFlow;
    j["overlap_window_ms"] = p.overlapWindowS / kMs;
    j["mode"] = p.mode;
    j["replay_warmup_iterations"] = p.replayWarmupIterations;
    j["replay_iterations"] = p.replayIterations;
    j["start_offsets"] = p.startOffsets;
    j["offset_spacing_s"] = p.offsetSpacingS;
    j["record_warmup_s"] = p.recordWarmupS;
    j["exposure_sampling"] = p.exposureSampling;
    j["policies"] = p.policies;
    j["target_factors"] = p.targetFactors;
    j["decision_interval_s"] = p.decisionIntervalS;
    j["history_window_s"] = p.historyWindowS;
    j["telemetry_delay_s"] = p.telemetryDelayS;
    j["sample_period_s"] = p.samplePeriodS;
    nlohmann::ordered_json m;
    m["precision_model"] = p.progress.precisionModel;
    m["critical_batch_sequences"] = p.progress.criticalBatchSequences;
    m["kappa_mxfp4"] = p.progress.kappaMxfp4;
    m["kappa_fp8"] = p.progress.kappaFp8;
    m["omega_mxfp4"] = p.progress.omegaMxfp4;
    m["omega_fp8"] = p.progress.omegaFp8;
    m["l_min"] = p.progress.lMin;
    m["static_updates"] = p.progress.staticUpdates;
    if (p.progress.staticNodes != ProgressModel{}.staticNodes)
        m["static_nodes"] = p.progress.staticNodes;
    m["loss_floor"] = p.progress.lossFloor;
    m["loss_exponent"] = p.progress.lossExponent;
    m["loss_offset"] = p.progress.lossOffset;
    j["progress"] = m;
    j["seed"] = p.seed;
    j["horizon_s"] = p.horizonS;
    return j;
}

}  // namespace tandem::mlforml
