#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "common/field_table.h"
#include "common/json_reader.h"
#include "common/number_format.h"
#include "mlforml/knobs.h"
#include "mlforml/params.h"

// The field table of the `ml_for_ml` object (paramFields()): one row per key with its unit,
// range, bounds, meaning and source; params.cpp reads, writes and checks from it.

namespace tandem::mlforml {
namespace {

constexpr double kGB = 1e9;
constexpr double kMs = 1e-3;

/// Largest lists and sizes the reader accepts. Each covers every realistic plan (the paper's
/// runs use 4 background sizes, 5 policies, 2 precisions, 4 targets, <= 64 nodes per job and
/// at most 300 replay iterations at 4 offsets) with a wide margin, and keeps a valid scenario
/// from running for minutes without output.
constexpr size_t kMaxListEntries = 64;    ///< background_jobs, policies, gradient_accumulations
constexpr size_t kMaxTargetFactors = 16;  ///< target_factors
constexpr long long kMaxReplayIterations = 1000;  ///< replay_iterations, replay_warmup_iterations
/// Largest network rate, GB/s (fabric_GBps, nic_GBps): 1 EB/s, a million times today's largest
/// fabrics; above it the bytes/s conversion and the event arithmetic lose their meaning.
constexpr double kMaxBandwidthGBps = 1e9;

/// Slowest network rate, GB/s (fabric_GBps, nic_GBps): 1 MB/s, below any link a training job is
/// run over. 0 is refused: no gradient synchronisation could finish, every policy would report
/// "not reached" and the network view would have no traffic to name a bottleneck from.
constexpr double kMinBandwidthGBps = 1e-3;
/// Largest foreground model, gradient values: 1e13, five times the largest models trained.
constexpr double kMaxParameters = 1e13;
/// Shortest controller and run time span, s (decision_interval_s, history_window_s,
/// sample_period_s, horizon_s): 1 ms, shorter than the compute of one microbatch.
constexpr double kMinSpan_s = 1e-3;
/// Largest time span, s (durations, windows, delays, intervals): horizon_s's own limit.
constexpr double kMaxSpan_s = 1e9;

/// Row `f` of a set of integers (background_jobs, gradient_accumulations): at most
/// kMaxListEntries entries, each in f.range (readIntegerSet).
ParamField integerSetRow(ParamField f) {
    f.maxItems = kMaxListEntries;
    return f;
}

const char* kSpanWhy = "31 years, the limit of horizon_s (a physical bound)";
const char* kShortSpanWhy =
    "1 ms, shorter than the compute of one microbatch; telemetry and decisions act on whole "
    "iterations (a physical bound)";

/// "Static, Knob-Precision, ..., Oracle": the named policies as a message lists them.
std::string policyList() {
    std::string out;
    for (const auto& n : enumNames(policyNames())) out += (out.empty() ? "" : ", ") + n;
    return out;
}

/// The words of `policies` as the file writes them.
std::vector<std::string> policyWords(const std::vector<PolicySpec>& policies) {
    std::vector<std::string> out;
    for (const auto& spec : policies) out.push_back(spec.label());
    return out;
}

void readPolicies(JsonReader& r, Params& p) {
    auto& d = r.diagnostics();
    std::vector<std::string> words = policyWords(p.policies);
    if (r.arrayWithin("policies", kMaxListEntries)) {
        words = r.strings("policies", words);
        r.requireDistinct("policies", words);
    }
    std::vector<PolicySpec> specs;
    for (size_t i = 0; i < words.size(); ++i) {
        PolicySpec spec;
        if (parsePolicy(words[i], spec)) {
            specs.push_back(spec);
            continue;
        }
        std::string msg = "unknown policy \"" + words[i] + "\": use " + policyList() +
                          " or a combination such as \"GA16-MXFP4\"";
        const auto hint = closestMatch(words[i], enumNames(policyNames()));
        if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        d.error(r.childPath("policies") + "[" + std::to_string(i) + "]", msg);
    }
    p.policies = specs;
    if (words.empty()) d.error(r.childPath("policies"), "must list at least one policy");
}

void readTargetFactors(JsonReader& r, Params& p) {
    if (!r.arrayWithin("target_factors", kMaxTargetFactors)) return;
    p.targetFactors = r.numbers("target_factors", p.targetFactors, Range::positive(), 1);
    for (size_t i = 0; i < p.targetFactors.size(); ++i)
        if (p.targetFactors[i] > 10)
            r.diagnostics().error(r.childPath("target_factors") + "[" + std::to_string(i) + "]",
                                  "must be at most 10 (got " + formatNumber(p.targetFactors[i]) +
                                      "): a target ten times the loss Static reaches is met "
                                      "before training starts (a physical bound)");
    r.requireDistinct("target_factors", p.targetFactors);
}

}  // namespace

// Accessors of one member for the field table: MEMBER(backgroundJob.nodes) gives the get and
// set columns (SI values as doubles).
#define TANDEM_MEMBER(m)                                      \
    [](const Params& p) { return static_cast<double>(p.m); }, \
        [](Params& p, double v) { p.m = static_cast<decltype(p.m)>(v); }, nullptr, nullptr
// A set of integers of member `m` (readIntegerSet), written as the list.
#define TANDEM_INTEGER_SET(m)                                                             \
    nullptr, nullptr,                                                                     \
        [](JsonReader& r, const ParamField& f, Params& p) { readIntegerSet(r, f, p.m); }, \
        [](const ParamField& f, const Params& p, nlohmann::ordered_json& j) { j[f.key] = p.m; }
// A word of enum member `m`: one of `table`'s names (JsonReader::string with those words).
#define TANDEM_ENUM(m, table)                                     \
    nullptr, nullptr, nullptr, nullptr, true, enumNames(table()), \
        [](const Params& p) { return std::string(name(p.m)); },   \
        [](Params& p, const std::string& w) { p.m = enumFromName(table(), w).value_or(p.m); }
// Any string of member `m`.
#define TANDEM_TEXT(m)                                                                 \
    nullptr, nullptr, nullptr, nullptr, true, {}, [](const Params& p) { return p.m; }, \
        [](Params& p, const std::string& w) { p.m = w; }
// A key of another shape: its own read (JsonReader&, Params&) and write (const Params&, json&).
#define TANDEM_CUSTOM(readFn, writeFn)                                                     \
    nullptr, nullptr, [](JsonReader& r, const ParamField&, Params& p) { (readFn)(r, p); }, \
        [](const ParamField&, const Params& p, nlohmann::ordered_json& j) { (writeFn)(p, j); }

namespace {

/// The rows of the `ml_for_ml` object's own keys (every key but background_job's).
std::vector<ParamField> ownFields() {
    using R = Range;
    const char* kSec32 = "2608.06046 Sec. 3.2";
    const char* kSec33 = "2608.06046 Sec. 3.3";
    const char* kSec31 = "2608.06046 Sec. 3.1";
    const char* kSec24 = "2608.06046 Sec. 2.3-2.4";
    const char* kA3 = "MODEL.md A3";
    const char* kA4 = "MODEL.md A4; McCandlish et al. 2018";
    const char* kFactorWhy =
        "a precision that costs 1000 times the progress (or noise) of BF16 does not train (a "
        "physical bound)";
    const char* kBandwidthWhy =
        "1 EB/s, a million times the largest fabrics built (a physical bound)";
    const char* kSlowWhy =
        "1 MB/s, slower than any link a training job runs over (a physical bound)";
    /// The range of a link capacity (fabric_GBps, nic_GBps): above 0, with the reason.
    const R linkCapacity{0.0, std::numeric_limits<double>::infinity(), true, false,
                         "a link of capacity 0 or less carries nothing: no gradient "
                         "synchronisation could finish and every policy would report not "
                         "reached"};
    const char* kLeadWarmupWhy =
        "the warm-up passes the background jobs' start-up, a few cycles of compute and sync "
        "(seconds); a longer one only simulates more background time (a physical bound)";
    const char* kLeadSpacingWhy =
        "start offsets sample the phase of the background jobs' cycle (seconds); a wider spacing "
        "only simulates more background time (a physical bound)";
    const FieldBound none{};
    const std::vector<ParamField> t = {
        {"", "scenario", "", "", 1, false, R{}, none, none,
         "where the background comes from: sweep (scenario 1), poisson (scenario 2) or trace",
         "2608.06046 Sec. 3.2-3.3", TANDEM_ENUM(scenario, scenarioKindNames)},
        integerSetRow({"", "background_jobs", "jobs", "", 1, true, R::closed(0, 1000), none, none,
                       "N per point of a sweep: co-running background jobs", kSec32,
                       TANDEM_INTEGER_SET(backgroundJobs)}),
        // (the background_job rows follow here, see paramFields())
        {"", "arrival_rate_per_s", "1/s", " /s", 1, false, R::nonNegative(), none,
         FieldBound{1e3,
                    "a thousand training jobs a second, beyond any cluster's scheduler (a physical "
                    "bound)"},
         "Poisson arrival rate of background jobs", kSec33, TANDEM_MEMBER(arrivalRatePerS)},
        {"", "max_background_jobs", "jobs", "", 1, true, R::closed(0, 64), none, none,
         "background jobs at most at once; later arrivals wait", kSec33,
         TANDEM_MEMBER(maxBackgroundJobs)},
        {"", "background_job_duration_s", "s", " s", 1, false, R::positive(), none,
         FieldBound{kMaxSpan_s, kSpanWhy}, "run length of each arriving background job", kSec33,
         TANDEM_MEMBER(backgroundJobDuration_s)},
        {"", "arrivals_start_s", "s", " s", 1, false, R::closed(-1e7, 0), none, none,
         "start of the arrival process relative to the foreground's start (<= 0)", kSec33,
         TANDEM_MEMBER(arrivalsStart_s)},
        {"", "poisson_schedules", "schedules", "", 1, true, R::closed(1, 256), none, none,
         "independent arrival schedules run and averaged", kSec33, TANDEM_MEMBER(poissonSchedules)},
        {"", "exposure_recordings", "recordings", "", 1, true, R::closed(1, 64), none, none,
         "independently seeded recordings per background level, replayed one after another", kSec33,
         TANDEM_MEMBER(exposureRecordings)},
        {"", "trace_file", "", "", 1, false, R{}, none, none,
         "load trace replayed as the background (scenario trace)", "io/load_trace.h",
         TANDEM_TEXT(traceFile)},
        {"", "trace_flows", "flows", "", 1, true, R::closed(1, 1e6), none, none,
         "node-flows the traced load counts as in fair sharing", kA3, TANDEM_MEMBER(traceFlows)},
        {"", "loss_log_file", "", "", 1, false, R{}, none, none,
         "training loss log shown with its fitted loss curve (File > Import); written only when "
         "set",
         "io/loss_log.h",
         TANDEM_CUSTOM(
             [](JsonReader& r, Params& p) {
                 if (!r.has("loss_log_file")) {
                     r.raw("loss_log_file");  // known, for "did you mean" hints
                     return;
                 }
                 p.lossLogFile = r.string("loss_log_file", p.lossLogFile);
                 if (p.lossLogFile.empty())
                     r.diagnostics().error(r.childPath("loss_log_file"),
                                           "must be a file name (got an empty string)");
             },
             [](const Params& p, nlohmann::ordered_json& j) {
                 if (!p.lossLogFile.empty()) j["loss_log_file"] = p.lossLogFile;
             })},
        {"", "foreground_model", "", "", 1, false, R{}, none, none, "label of the foreground model",
         kSec31, TANDEM_TEXT(foregroundModel)},
        {"", "foreground_parameters", "values", "", 1, false, R::positive(),
         FieldBound{1, "a gradient has at least one value (a physical bound)"},
         FieldBound{
             kMaxParameters,
             "1e13 gradient values, five times the largest models trained (a physical bound)"},
         "gradient values per sync of the foreground", kSec31, TANDEM_MEMBER(foregroundParameters)},
        {"", "foreground_nodes", "nodes", "", 1, true, R::closed(1, fabric::kMaxJobNodes), none,
         none, "data-parallel nodes of the foreground", "fitted to 2608.06046 Fig. 2a",
         TANDEM_MEMBER(foregroundNodes)},
        {"", "gpus_per_node", "GPUs", "", 1, true, R::closed(1, 1024), none, none, "GPUs per node",
         kSec31, TANDEM_MEMBER(gpusPerNode)},
        {"", "microbatch_sequences", "sequences", "", 1, false, R::positive(), none,
         FieldBound{
             1e5, "1e5 sequences per GPU, far beyond any accelerator's memory (a physical bound)"},
         "sequences per GPU per microbatch", kSec31, TANDEM_MEMBER(microbatchSequences)},
        {"", "microbatch_compute_ms", "ms", " ms", kMs, false, R::positive(),
         FieldBound{fabric::kMinPhaseMs, fabric::kMinPhaseWhy},
         FieldBound{fabric::kMaxPhaseMs, fabric::kMaxPhaseWhy}, "T_c, compute of one microbatch",
         kSec31, TANDEM_MEMBER(microbatchCompute_s)},
        {"", "precisions", "", "", 1, false, R{}, none, none,
         "precisions p of the action space; the first is the baseline", kSec24,
         TANDEM_CUSTOM(
             [](JsonReader& r, Params& p) {
                 if (r.arrayWithin("precisions", kMaxListEntries)) {
                     p.precisions = r.choices("precisions", p.precisions, precisionNames());
                     r.requireDistinct("precisions", enumNames(precisionNames(), p.precisions));
                 }
                 if (p.precisions.empty())
                     r.diagnostics().error(r.childPath("precisions"),
                                           "must list at least one precision");
             },
             [](const Params& p, nlohmann::ordered_json& j) {
                 j["precisions"] = enumNames(precisionNames(), p.precisions);
             })},
        integerSetRow({"", "gradient_accumulations", "", "", 1, true, R::closed(1, 4096), none,
                       none,
                       "gradient accumulations g of the action space; the first is the baseline",
                       kSec24, TANDEM_INTEGER_SET(gradientAccumulations)}),
        {"", "fabric_GBps", "GB/s", " GB/s", kGB, false, linkCapacity,
         FieldBound{kMinBandwidthGBps, kSlowWhy}, FieldBound{kMaxBandwidthGBps, kBandwidthWhy},
         "capacity of the shared paper-fabric", "fitted to 2608.06046 Fig. 2a",
         TANDEM_MEMBER(fabricBytesPerS)},
        {"", "nic_GBps", "GB/s", " GB/s", kGB, false, linkCapacity,
         FieldBound{kMinBandwidthGBps, kSlowWhy}, FieldBound{kMaxBandwidthGBps, kBandwidthWhy},
         "per-node NIC bandwidth (scale-out bandwidth on a leaf_spine fabric)",
         "fitted to the p95 at N = 4, 2608.06046 Sec. 3.2", TANDEM_MEMBER(nicBytesPerS)},
        objectField<Params>("", "topology", "the fabric (paper-fabric, or a leaf_spine fabric)",
                            kA3, &Params::topology, fabric::readTopology, fabric::writeTopology,
                            false),
        objectField<Params>("", "placement", "where the jobs sit on a leaf_spine fabric", kA3,
                            &Params::placement, fabric::readPlacement, fabric::writePlacement,
                            false),
        {"", "cc_efficiency", "", "", 1, false, R{0.0, 1.0, true, false}, none, none,
         "achieved / max-min fair rate of congestion control", kA3, TANDEM_MEMBER(ccEfficiency)},
        {"", "cc_efficiency_drop_per_flow", "", "", 1, false, R::nonNegative(), none,
         FieldBound{
             10,
             "at 10 two competing groups already keep 1/11 of their fair share, worse than any "
             "congestion control measured (a physical bound)"},
         "efficiency / (1 + drop x (competing groups - 1))", kA3,
         TANDEM_MEMBER(ccEfficiencyDropPerFlow)},
        {"", "overlap_window_ms", "ms", " ms", kMs, false, R::nonNegative(), none,
         FieldBound{fabric::kMaxPhaseMs, fabric::kMaxPhaseWhy},
         "transfer hidden behind the last backward; only the sync beyond it is exposed", kA3,
         TANDEM_MEMBER(overlapWindow_s)},
        {"", "mode", "", "", 1, false, R{}, none, none,
         "replay (open loop, the paper) or closed_loop", kA3, TANDEM_ENUM(mode, replayModeNames)},
        {"", "replay_warmup_iterations", "iterations", "", 1, true,
         R::closed(0, kMaxReplayIterations), none, none,
         "foreground iterations discarded per replay", kSec32,
         TANDEM_MEMBER(replayWarmupIterations)},
        {"", "replay_iterations", "iterations", "", 1, true, R::closed(1, kMaxReplayIterations),
         none, none, "measured iterations per start offset", "fitted to 2608.06046 Fig. 2a",
         TANDEM_MEMBER(replayIterations)},
        {"", "start_offsets", "replays", "", 1, true, R::closed(1, 64), none, none,
         "replays per point at different start offsets", kSec32, TANDEM_MEMBER(startOffsets)},
        {"", "offset_spacing_s", "s", " s", 1, false, R::nonNegative(), none,
         FieldBound{kMaxRecordLead_s, kLeadSpacingWhy}, "spacing of the start offsets", kSec32,
         TANDEM_MEMBER(offsetSpacing_s)},
        {"", "record_warmup_s", "s", " s", 1, false, R::nonNegative(), none,
         FieldBound{kMaxRecordLead_s, kLeadWarmupWhy},
         "background-alone time before the foreground starts", kSec32,
         TANDEM_MEMBER(recordWarmup_s)},
        {"", "exposure_sampling", "", "", 1, false, R{}, none, none,
         "offsets (scenario 1) or series (one long replay read in wall-clock order, scenario 2)",
         "2608.06046 Sec. 3.2-3.3", TANDEM_ENUM(exposureSampling, exposureSamplingNames)},
        {"", "policies", "", "", 1, false, R{}, none, none,
         "controllers compared: Static, Knob-Precision, Knob-GA, Decoupled, Joint, Oracle or a "
         "fixed combination",
         kSec24,
         TANDEM_CUSTOM(readPolicies,
                       [](const Params& p, nlohmann::ordered_json& j) {
                           j["policies"] = policyWords(p.policies);
                       })},
        {"", "target_factors", "x L_min", "", 1, false, R::positive(), none,
         FieldBound{10, nullptr}, "target losses as multiples of the loss Static reaches", kSec33,
         TANDEM_CUSTOM(readTargetFactors,
                       [](const Params& p, nlohmann::ordered_json& j) {
                           j["target_factors"] = p.targetFactors;
                       })},
        {"", "decision_interval_s", "s", " s", 1, false, R::positive(),
         FieldBound{kMinSpan_s, kShortSpanWhy}, FieldBound{kMaxSpan_s, kSpanWhy},
         "the greedy rule is re-evaluated every interval", kSec24,
         TANDEM_MEMBER(decisionInterval_s)},
        {"", "history_window_s", "s", " s", 1, false, R::positive(),
         FieldBound{kMinSpan_s, kShortSpanWhy}, FieldBound{kMaxSpan_s, kSpanWhy},
         "observations averaged by the estimator", kSec24, TANDEM_MEMBER(historyWindow_s)},
        {"", "telemetry_delay_s", "s", " s", 1, false, R::nonNegative(), none,
         FieldBound{kMaxSpan_s, kSpanWhy}, "an observation becomes visible this late", kSec24,
         TANDEM_MEMBER(telemetryDelay_s)},
        {"", "sample_period_s", "s", " s", 1, false, R::positive(),
         FieldBound{kMinSpan_s, kShortSpanWhy}, FieldBound{kMaxSpan_s, kSpanWhy},
         "a network phase is held this long in the training loop", kA3,
         TANDEM_MEMBER(samplePeriod_s)},
        {"progress", "precision_model", "", "", 1, false, R{}, none, none,
         "kappa (progress divided by kappa_p) or noise_inflation (Bnoise x (1 + omega_p))", kA4,
         TANDEM_ENUM(progress.precisionModel, precisionModelNames)},
        {"progress", "critical_batch_sequences", "sequences", " sequences", 1, false,
         R::nonNegative(), none,
         FieldBound{
             1e9,
             "1e9 sequences, a thousand times the largest global batches trained (a physical "
             "bound)"},
         "critical batch Bnoise", "fitted to Decoupled/Joint = 1.42 at N = 4, 2608.06046 Fig. 2d",
         TANDEM_MEMBER(progress.criticalBatchSequences)},
        {"progress", "kappa_mxfp4", "", "", 1, false, R::atLeast(1e-3), none,
         FieldBound{1e3, kFactorWhy}, "progress cost of MXFP4", "2608.06046 Sec. 3.2, Fig. 2c/2d",
         TANDEM_MEMBER(progress.kappaMxfp4)},
        {"progress", "kappa_fp8", "", "", 1, false, R::atLeast(1e-3), none,
         FieldBound{1e3, kFactorWhy},
         "progress cost of FP8 / MXFP8 (an assumption beyond the paper)", kA4,
         TANDEM_MEMBER(progress.kappaFp8)},
        {"progress", "omega_mxfp4", "", "", 1, false, R::nonNegative(), none,
         FieldBound{1e3, kFactorWhy}, "noise inflation of MXFP4 (model noise_inflation)", kA4,
         TANDEM_MEMBER(progress.omegaMxfp4)},
        {"progress", "omega_fp8", "", "", 1, false, R::nonNegative(), none,
         FieldBound{1e3, kFactorWhy}, "noise inflation of FP8 / MXFP8 (model noise_inflation)", kA4,
         TANDEM_MEMBER(progress.omegaFp8)},
        {"progress", "l_min", "nats", " nats", 1, false, R::positive(), none,
         FieldBound{
             100,
             "a cross-entropy loss per token; an untrained model over a 1e6-token vocabulary "
             "starts near 14 (a physical bound)"},
         "Static's final eval loss", kSec31, TANDEM_MEMBER(progress.lMin)},
        {"progress", "static_updates", "updates", "", 1, false, R::closed(1, 1e9), none, none,
         "updates of the Static run that ends at l_min", "2608.06046 Fig. 2",
         TANDEM_MEMBER(progress.staticUpdates)},
        {"progress", "static_nodes", "nodes", "", 1, true, R::closed(0, fabric::kMaxJobNodes), none,
         none, "data-parallel nodes of that Static run (0 = the foreground's own)", kA4,
         TANDEM_MEMBER(progress.staticNodes), false},
        {"progress", "loss_floor", "nats", "", 1, false, R::nonNegative(), none, none,
         "L_inf, the loss the curve approaches", "fitted: 1.02 L_min at ~4.3k Static updates",
         TANDEM_MEMBER(progress.lossFloor)},
        {"progress", "loss_exponent", "", "", 1, false, R{0.0, 5.0, true, false}, none, none,
         "alpha of the loss curve", kA4, TANDEM_MEMBER(progress.lossExponent)},
        {"progress", "loss_offset", "progress units", "", 1, false, R::nonNegative(), none,
         FieldBound{1e9,
                    "progress units are updates; static_updates' own limit (a physical bound)"},
         "S0 of the loss curve", kA4, TANDEM_MEMBER(progress.lossOffset)},
        {"", "seed", "", "", 1, true, R::closed(0, 9007199254740991.0), none, none,
         "seed of every random draw (phases, arrivals, samples)", kA3, TANDEM_MEMBER(seed)},
        {"", "horizon_s", "s", " s", 1, false, R{0.0, 1e9, true, false},
         FieldBound{kMinSpan_s, kShortSpanWhy}, none, "wall-clock limit of every simulated run",
         kSec33, TANDEM_MEMBER(horizon_s)},
    };
    return t;
}

}  // namespace

const std::vector<ParamField>& paramFields() {
    static const std::vector<ParamField> t = [] {
        std::vector<ParamField> v = ownFields();
        std::vector<ParamField> job;
        for (const fabric::BackgroundJobField& f : fabric::backgroundJobFields())
            job.push_back(memberField(f, &Params::backgroundJob, "background_job"));
        const auto after = std::find_if(v.begin(), v.end(), [](const ParamField& f) {
            return std::string(f.key) == "background_jobs";
        });
        v.insert(after + 1, job.begin(), job.end());
        return v;
    }();
    return t;
}

#undef TANDEM_MEMBER
#undef TANDEM_CUSTOM
#undef TANDEM_ENUM
#undef TANDEM_TEXT
#undef TANDEM_INTEGER_SET

}  // namespace tandem::mlforml
