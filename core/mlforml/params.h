#pragma once
// Inputs of the ML-for-ML engine [2608.06046 Sec. 3]: the foreground job, the shared fabric, the
// background traffic, the progress model and the policies. Defaults are the paper's scenario 1
// (Sec. 3.2) as calibrated in docs/MODEL-ML-FOR-ML.md; each calibrated default names the figure
// it was fitted to. Units inside the struct are SI; JSON keys carry units and are converted once
// in readParams/writeParams.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/enum_names.h"
#include "common/field_table.h"
#include "common/json_reader.h"
#include "fabric/background_job.h"
#include "fabric/topology.h"
#include "mlforml/knobs.h"

namespace tandem::mlforml {

/// Where the background traffic of a run comes from (`scenario`).
enum class ScenarioKind {
    Sweep,    ///< "sweep": scenario 1, one point per entry of background_jobs [Sec. 3.2]
    Poisson,  ///< "poisson": scenario 2, Poisson arrivals of background jobs [Sec. 3.3]
    Trace,    ///< "trace": a measured background load (io/load_trace.h)
};
/// "sweep", "poisson", "trace".
const EnumTable<ScenarioKind>& scenarioKindNames();
const char* name(ScenarioKind k);

/// How the foreground meets the background (`mode`).
enum class ReplayMode {
    Replay,      ///< "replay": the background is recorded once and replayed (open loop, paper)
    ClosedLoop,  ///< "closed_loop": foreground and background share one simulation
};
/// "replay", "closed_loop".
const EnumTable<ReplayMode>& replayModeNames();
const char* name(ReplayMode m);

/// How the training loop reads exposed DP times (`exposure_sampling`).
enum class ExposureSampling {
    Offsets,  ///< "offsets": samples of the offset replays, re-drawn every sample period
    Series,   ///< "series": one long replay per combination, read in wall-clock order
};
/// "offsets", "series".
const EnumTable<ExposureSampling>& exposureSamplingNames();
const char* name(ExposureSampling s);

/// How a precision slows progress (`progress.precision_model`).
enum class PrecisionModel {
    Kappa,           ///< "kappa": progress divided by kappa_p
    NoiseInflation,  ///< "noise_inflation": Bnoise_p = Bnoise * (1 + omega_p)
};
/// "kappa", "noise_inflation".
const EnumTable<PrecisionModel>& precisionModelNames();
const char* name(PrecisionModel m);

/// A data-parallel background job (fabric/background_job.h; the same keys in both
/// workspaces).
using BackgroundJob = fabric::BackgroundJob;

/// Progress (training-efficiency) model [MODEL.md A4; McCandlish et al. 2018].
/// dS per update = 1 / (1 + Bnoise_p / B) / kappa_p, B = g * microbatch * DP workers;
/// loss L(S) = lossFloor + A (S + lossOffset)^(-lossExponent), A chosen so that Static
/// (baseline combination) reaches lMin after staticUpdates updates [2608.06046 Fig. 2].
struct ProgressModel {
    /// Kappa: precision divides progress by kappa_p (default, fits Fig. 2c/2d);
    /// NoiseInflation: Bnoise_p = Bnoise * (1 + omega_p).
    PrecisionModel precisionModel = PrecisionModel::Kappa;
    /// Bnoise in sequences: 1.9 x B(GA4) at the default 46 x 8 GPUs, fitted to Decoupled/Joint
    /// = 1.42 at N = 4 (Fig. 2d). Absolute, so the foreground size changes the GA trade-off.
    double criticalBatchSequences = 2797;
    double kappaMxfp4 = 1.3;  ///< progress cost of MXFP4 (Static/Joint, Knob-GA/Joint, Sec. 3.2)
    double kappaFp8 = 1.05;   ///< FP8 / MXFP8 (beyond the paper; assumption)
    double omegaMxfp4 = 0.6;  ///< noise inflation of MXFP4 (alternative model)
    double omegaFp8 = 0.1;    ///< noise inflation of FP8 / MXFP8
    double lMin = 2.55048;    ///< Static's final eval loss [2608.06046 Sec. 3.1]
    double staticUpdates = 10000;  ///< updates of the Static run that ends at lMin
    /// Data-parallel nodes of that Static run (`static_nodes`; 0 = the foreground's own): the
    /// loss curve is a property of the model and data, so it is calibrated once on the paper's
    /// cluster (46 nodes, the foreground_nodes default) and a larger foreground, whose larger
    /// global batch makes more progress per update, needs fewer updates [McCandlish et al.
    /// 2018]. 0 renormalises the curve to every foreground size (Static then always needs
    /// static_updates updates, and batch growth never helps).
    int staticNodes = 46;
    double lossFloor = 2.4523;  ///< L_inf (fitted: 1.02 L_min at ~4.3k Static updates)
    double lossExponent = 0.5;  ///< alpha of the loss curve
    double lossOffset = 0;      ///< S0, progress units
};

/// Most background-alone time before the last replay starts, s: record_warmup_s + (start_offsets
/// - 1) x offset_spacing_s, and each of the two alone. Warm-up passes the background jobs'
/// start-up (a few cycles of compute and sync: seconds; GPT-13B's cycle is ~10 s) and offsets
/// sample the phase of that cycle; 600 s covers dozens of cycles of any training job, and every
/// second beyond it is background simulated again by every replay (the paper: 5 s and 4 x
/// 0.25 s).
constexpr double kMaxRecordLead_s = 600;

/// All inputs of one ML-for-ML run (the `ml_for_ml` object of a scenario).
struct Params {
    /// Sweep (scenario 1: one point per entry of backgroundJobs), Poisson (scenario 2), Trace
    /// (a measured background load, a load trace as io/load_trace.h reads it).
    ScenarioKind scenario = ScenarioKind::Sweep;
    std::vector<int> backgroundJobs = {4, 8, 12, 16};  ///< N per point (sweep)
    BackgroundJob backgroundJob;                       ///< model of each background job

    // Poisson arrivals [2608.06046 Sec. 3.3].
    double arrivalRatePerS = 0.002;         ///< `arrival_rate_per_s`
    int maxBackgroundJobs = 5;              ///< at most this many at once; later arrivals wait
    double backgroundJobDuration_s = 1500;  ///< run length of each arriving job, s
    /// Start of the arrival process relative to the foreground's start, s (<= 0; JSON
    /// `arrivals_start_s`): 0 = the foreground starts on an idle fabric; a value of a few job
    /// durations before 0 = it joins a cluster whose GPT-13B population is already in steady state.
    double arrivalsStart_s = 0;
    /// Independent arrival schedules (seeded from `seed`) run and averaged ("poisson"): one
    /// point per schedule; `reproduce` averages first-crossing times and pools knob shares over
    /// them, because one run spans too few job lifetimes to be seed-stable (`poisson_schedules`).
    int poissonSchedules = 1;
    /// Independently seeded recordings per background level ("poisson", series sampling),
    /// replayed one after another into one exposure series, so that the exposed-DP statistics
    /// of a level do not hinge on one recording's phase alignment (`exposure_recordings`).
    int exposureRecordings = 1;
    // Trace input.
    std::string traceFile;  ///< load trace file ("trace"; io::parseLoadTrace)
    int traceFlows = 64;    ///< node-flows the traced load counts as in fair sharing
    /// Training loss log shown with its fit (`loss_log_file`, optional; "" = none; File >
    /// Import). Shown only: the progress curve's keys hold a fit the user applied.
    std::string lossLogFile;

    // Foreground job: GPT-2 Large on A100 [2608.06046 Sec. 3.1].
    std::string foregroundModel = "GPT-2 Large";
    double foregroundParameters = 774e6;  ///< gradient values per sync
    int foregroundNodes = 46;             ///< fitted: BF16 share 73 % at N = 4 (Fig. 2a)
    int gpusPerNode = 8;
    double microbatchSequences = 1;       ///< sequences per GPU per microbatch
    double microbatchCompute_s = 0.0593;  ///< T_c, s [Sec. 3.1] (`microbatch_compute_ms`)
    std::vector<Precision> precisions = {Precision::Bf16,
                                         Precision::Mxfp4};  ///< p; first = baseline
    std::vector<int> gradientAccumulations = {4, 16};        ///< g; first = baseline

    // Network [MODEL.md A3].
    double fabricBytesPerS =
        490e9;  ///< shared fabric (`fabric_GBps`): Fig. 2a shares, p95 at N >= 8
    double nicBytesPerS =
        10.7e9;                 ///< per-node NIC (`nic_GBps`, 85.6 Gb/s): p95 at N = 4 (Sec. 3.2)
    double ccEfficiency = 1.0;  ///< achieved / max-min rate, (0, 1]
    double ccEfficiencyDropPerFlow = 0;  ///< efficiency / (1 + drop * (competing groups - 1))
    double overlapWindow_s = 0;  ///< transfer hidden behind the last backward (`overlap_window_ms`)
    /// The fabric (`topology`; default "paper-fabric" = fabric_GBps + nic_GBps above) and where
    /// the jobs sit on it (`placement`; leaf_spine only). On a leaf_spine fabric nic_GBps is
    /// each node's scale-out bandwidth, split over one NIC per GPU (rails) and fabric_GBps is
    /// not used.
    fabric::Topology topology;
    fabric::Placement placement;
    ReplayMode mode = ReplayMode::Replay;  ///< open loop (paper) or closed loop
    int replayWarmupIterations = 1;        ///< foreground iterations discarded per replay
    int replayIterations = 7;  ///< measured iterations per offset: BF16/MXFP4 7.3 at N=16 (Fig. 2a)
    int startOffsets = 4;      ///< replays per point at different start offsets [Sec. 3.2]
    double offsetSpacing_s = 0.25;  ///< spacing of the start offsets, s
    double recordWarmup_s = 5;      ///< background-alone time before the foreground starts, s
    /// How the training loop reads exposed DP times: Offsets (samples of the offset replays,
    /// re-drawn every samplePeriod_s; scenario 1) or Series (one long replay per combination,
    /// read in wall-clock order so bursts of long background syncs keep their duration;
    /// scenario 2).
    ExposureSampling exposureSampling = ExposureSampling::Offsets;

    // Controller [2608.06046 Sec. 2.3-2.4].
    /// The policies compared, each read once from its word (`policies`; parsePolicy).
    std::vector<PolicySpec> policies = {Policy::Static, Policy::KnobPrecision, Policy::KnobGa,
                                        Policy::Decoupled, Policy::Joint};
    std::vector<double> targetFactors = {1.005, 1.01, 1.015, 1.02};  ///< x L_min [Sec. 3.3]
    double decisionInterval_s = 60;  ///< greedy rule re-evaluated every interval
    double historyWindow_s = 120;    ///< observations averaged by the estimator
    double telemetryDelay_s = 5;     ///< observation becomes visible this late
    double samplePeriod_s = 10;      ///< network phase held this long in the training loop

    ProgressModel progress;
    std::uint64_t seed = 1;
    double horizon_s = 400000;  ///< wall-clock limit of every simulated run, s
};

/// One key of the `ml_for_ml` object (tandem::Field, common/field_table.h): the single
/// definition its reader, writer and checks and the GUI's rows and tooltips take the key, unit,
/// range and meaning from. Numeric keys are read, checked and written from the columns; a key of
/// another shape (a string, an enum, a list, the topology) has its own `read` and `write`.
/// Table order is the canonical order of writeParams; the keys of a nested object (`section`
/// "background_job" or "progress") are consecutive. The `background_job` rows are the fabric's
/// (fabric::backgroundJobFields() through tandem::memberField), the keys `mosaic.background.job`
/// reads too.
using ParamField = tandem::Field<Params>;

/// Every key of the `ml_for_ml` object, in canonical order (see ParamField).
const std::vector<ParamField>& paramFields();

/// Every member equal (doubles compared exactly, as a saved file round-trips them).
bool operator==(const ProgressModel& a, const ProgressModel& b);
bool operator==(const Params& a, const Params& b);
inline bool operator!=(const Params& a, const Params& b) { return !(a == b); }

/// Reads the `ml_for_ml` object into `p` (starting from `p`'s current values, normally the
/// defaults). Every key is optional; type, range and unit checks and cross-field checks
/// (targets above the reachable loss, trace file for "trace", policy and combination names)
/// report errors in r.diagnostics() with their JSON path. Lists that are sets (background_jobs,
/// precisions, gradient_accumulations, policies, target_factors) reject a repeated entry
/// ("duplicate value X" at key[i]). Upper bounds that keep a valid scenario from running for
/// minutes: at most 64 entries in background_jobs, precisions, gradient_accumulations and
/// policies, at most 16 target_factors, foreground_nodes and background_job.nodes <= 16384,
/// background_job.sync_bursts <= 1024, replay_iterations and replay_warmup_iterations <= 1000,
/// start_offsets <= 64 and replay_iterations x start_offsets <= 4096; record_warmup_s and
/// offset_spacing_s <= 600 s and record_warmup_s + (start_offsets - 1) x offset_spacing_s <=
/// 600 s; fabric_GBps and nic_GBps <= 1e9; for "poisson", arrival_rate_per_s x (horizon_s -
/// arrivals_start_s) <= 1e5 expected arrivals; decision_interval_s / sample_period_s <= 1e4.
/// Physical bounds on every other number: fabric_GBps and nic_GBps 0 or >= 1e-3 (1 MB/s);
/// compute_ms and microbatch_compute_ms in [1e-3, 3.6e6] ms, burst_gap_ms and
/// overlap_window_ms <= 3.6e6 ms (one hour); gradient_GB <= 1e5; foreground_parameters in [1,
/// 1e13]; microbatch_sequences <= 1e5; cc_efficiency_drop_per_flow <= 10; arrival_rate_per_s
/// <= 1e3; time spans (decision_interval_s, history_window_s, sample_period_s, horizon_s)
/// >= 1e-3 s and (with background_job_duration_s, telemetry_delay_s) <= 1e9 s; target_factors
/// <= 10; kappa_* and omega_* <= 1e3, critical_batch_sequences <= 1e9, l_min <= 100,
/// loss_offset <= 1e9. A non-empty trace_file with a scenario other than "trace" is an error
/// (the file would be ignored). Each bound's message names the key, the value, the limit and
/// whether the limit is physical or a bound on the work. The trace file itself is checked by the
/// scenario reader (mlforml::loadBackgroundTrace). Calls r.finish() (unknown keys).
void readParams(tandem::JsonReader& r, Params& p);

/// Applies the built-in topology `preset` to p.topology (fabric::topologyPreset). The "nvl72"
/// preset's node is one rack, so it also sets gpus_per_node 72 and nic_GBps 3600 (GB200: 72 x
/// 400 Gb/s) when gpus_per_node is not 72 already, as readParams requires; the GUI's topology
/// menu applies presets through this. False for an unknown name (p unchanged).
bool applyTopologyPreset(Params& p, const std::string& preset);

/// Background jobs that can run at once (placed on the fabric): the largest N of "sweep",
/// max_background_jobs of "poisson", 0 for "trace".
int concurrentBackgroundJobs(const Params& p);

/// The fabric of `p` with every job placed and routed (fabric::buildFabric); only for a
/// leaf_spine topology. Throws fabric::FabricError naming the key below `keys` (by default
/// "ml_for_ml.topology" and "ml_for_ml.placement"; see fabric::buildFabric).
fabric::FabricPlan buildFabric(const Params& p,
                               const fabric::FabricKeys& keys = fabric::FabricKeys{});

/// Writes every key of `p` in canonical order (`topology` and `placement` only when they are
/// not the defaults, so that paper-fabric scenarios keep their bytes); readParams(writeParams(p))
/// == p and save -> load -> save is byte-identical.
nlohmann::ordered_json writeParams(const Params& p);

}  // namespace tandem::mlforml
