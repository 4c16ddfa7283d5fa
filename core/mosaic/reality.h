#pragma once
// `tandem-cli reproduce reality` and `tandem-cli fit-stack`: the performance model under a
// training stack against measured Megatron-Core runs (Megatron-Bridge performance summary,
// NeMo 25.11-26.08 on DGX-H100 and DGX-GB200; tests/data/megatron-bridge/, PROVENANCE.md).
// Every run is costed with its published layout; the run's recompute setting is not published,
// so the least recomputation that fits is used (none, selective, super-selective, full).
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/cancel.h"
#include "common/check.h"
#include "common/diagnostics.h"
#include "common/enum_names.h"
#include "mosaic/korthikanti.h"
#include "mosaic/perf_model.h"
#include "mosaic/search.h"

namespace tandem::mosaic {

/// One published measured run (one CSV row). Integer fields absent in the source ("n/a" or
/// empty) are 0 here.
struct MeasuredRun {
    int line = 0;  ///< 1-based line in the CSV
    std::string container, system, model, precisionText, note;
    int gpus = 0, gbs = 0, mbs = 0, seqLen = 0;
    int fsdp = -1;  ///< -1 not given, 0 DDP + distributed optimizer, > 0 FSDP
    int tp = 0, pp = 0, cp = 0, vp = 0, ep = 0, ga = 0;
    double tokensPerSPerGpu = 0;       ///< measured
    double modelTflopsPerSPerGpu = 0;  ///< measured, Megatron's model-FLOPs count
    std::string footnote;  ///< the source's footnote marker on the row ("gpt-oss-note"), or ""
};

/// Why the source table itself disowns run `r` (a footnote of the Megatron-Bridge performance
/// summary marking a known regression of that container), or "" when it does not. Such a run
/// measures a software defect, not the stack the model costs, so it is listed as not
/// expressible and never fitted.
std::string measuredRunFlaggedBySource(const MeasuredRun& r);

/// Parses the Megatron-Bridge CSV (header `container,system,model,gpus,precision,gbs,mbs,
/// seq_len,fsdp,tp,pp,cp,vp,ep,ga,tokens_per_s_per_gpu,model_tflops_per_s_per_gpu,note`;
/// "n/a" and empty = absent; a footnote marker "[^...]" after a number is kept in
/// MeasuredRun::footnote). Errors
/// name the line and the column; rows with errors are skipped.
std::vector<MeasuredRun> parseMeasuredRuns(const std::string& csv, Diagnostics& diag);
/// The shipped measured runs (tests/data/megatron-bridge/measured-throughput.csv, compiled in).
const std::vector<MeasuredRun>& shippedMeasuredRuns();

/// Position of `system` in the table of measured systems and the built-in hardware each is
/// costed on (0 = "DGX-H100" on "h100", 1 = "DGX-GB200" on "gb200-nvl72"); -1 for a system not
/// in it. Charts colour a system by this index.
int measuredSystemIndex(const std::string& system);

/// The settings of a measured run's Megatron-Bridge recipe that the cost model prices and the
/// published table does not state. Defaults: the stack as it is.
struct MeasuredRecipe {
    /// The local experts' MLP fused under a full-iteration CUDA graph (Stack::fusedGroupedMlp).
    bool fusedGroupedMlp = false;
    /// The expert all-to-all overlapped with another micro-batch's compute
    /// (`moe_a2a_overlap`, Megatron's `--overlap-moe-expert-parallel-comm`); false: none of it
    /// is hidden (Stack::a2aOverlap taken as 0).
    bool a2aOverlap = true;
    /// The flex dispatcher (HybridEP or DeepEP backend): one copy of a token per remote node
    /// (Stack::hierarchicalDispatch).
    bool hierarchicalDispatch = false;
};

/// The recipe of shipped measured run `r` (model geometry `g`): Megatron-Bridge's performance
/// presets (scripts/performance/configs/*/*workload_base_configs.py) at the release of the
/// run's container: 25.11 v0.2.0, 26.02 v0.3.0, 26.02.01 v0.3.1, 26.04 v0.4.0, 26.04.01 v0.4.1,
/// 26.06 v0.5.0, 26.06.01 v0.5.1, 26.08 v0.6.0 (src/megatron/bridge/perf_recipes).
/// - Fused grouped MLP (`cutedsl_fused_grouped_mlp=True`, `cuda_graph_impl="full_iteration"`):
///   the GB200 FP8_MX presets of Qwen3 30B-A3B and 235B-A22B, DeepSeek-V3 and GPT-OSS 120B
///   from v0.5.0 (26.06) on; no earlier release, no H100 or BF16 preset.
/// - All-to-all overlap (`moe_a2a_overlap=True`): those same fused presets; GPT-OSS 120B on
///   GB200 from v0.4.0 (26.04) on; Qwen3 235B-A22B on H100 in every release; Qwen3 30B-A3B on
///   H100 in its PP 2 presets (v0.2.0, v0.3.0); no other MoE preset of these models.
/// - Flex dispatcher (`moe_flex_dispatcher_backend` "hybridep" or "deepep"): every GB200 MoE
///   preset but GPT-OSS 120B's before v0.4.0; on H100 Qwen3 30B-A3B from v0.3.0 (DeepEP, then
///   HybridEP) and Qwen3 235B-A22B in v0.3.1 (DeepEP); not GPT-OSS 120B on H100. It matters
///   only where an EP group spans nodes (on GB200 none leaves the 72-GPU NVLink domain).
/// Dense models: the defaults.
MeasuredRecipe measuredRunRecipe(const MeasuredRun& r, const Geometry& g);

/// A measured run as the performance model costs it.
struct RealityCase {
    MeasuredRun run;
    bool expressible = false;
    std::string reason;  ///< why not expressible (empty when expressible)
    Geometry geometry;
    Cluster cluster;  ///< hardware of the system, devices, B_global, T_seq, precision, stack
    Plan plan;        ///< the published layout (ckpt chosen by choosePlans)
    /// What the run's recipe changes in the stack that costs it: measuredRunRecipe for the
    /// shipped runs (realityCases); a user's run keeps the defaults (the stack as it is).
    MeasuredRecipe recipe;
};

/// Sets `c`'s stack to `stack` with the case's own recipe applied (RealityCase::recipe): the
/// one way a fit or a check puts a stack on a measured case.
void setCaseStack(RealityCase& c, const Stack& stack);

/// Geometry of a Megatron-Bridge model name from its Hugging Face config (Llama 3 8B / 70B /
/// 3.1 405B, DeepSeek-V3 with or without its MTP layer, Qwen3 30B-A3B / 235B-A22B, gpt-oss
/// 120B). False with `reason` for models a transformer cost model cannot express (Nemotron 3:
/// hybrid Mamba-Transformer layers; DeepSeek-V4: no published config and attention the
/// geometry does not describe) or unknown names.
bool measuredModelGeometry(const std::string& model, Geometry& g, std::string& reason);

/// `r` as a case under `stack` (not yet costed): on `hardware` when given, else on the
/// built-in hardware of its system (measuredSystemIndex); with `geometry` when given (a user's
/// log states its model), else the geometry of its model name (measuredModelGeometry). Not
/// expressible, with the reason, when neither names what it needs.
RealityCase realityCase(const MeasuredRun& r, const Stack& stack,
                        const Hardware* hardware = nullptr, const Geometry* geometry = nullptr);
/// Every shipped run mapped to a case under `stack`, with its recipe (measuredRunRecipe; not
/// yet costed).
std::vector<RealityCase> realityCases(const Stack& stack);

/// Sets each expressible case's checkpointing to the least recomputation that fits memory
/// (chooseLeastRecomputation, plan.h: the rule `plan --layout` without a ckpt key uses too;
/// memory does not depend on the fitted constants). A case where none fits keeps Full.
void choosePlans(std::vector<RealityCase>& cases);

/// One case costed.
struct RealityRow {
    size_t caseIndex = 0;  ///< into the costed cases
    PlanEval eval;
    double error = 0;  ///< predicted / measured - 1 (tokens/s/GPU)
};
std::vector<RealityRow> costCases(const std::vector<RealityCase>& cases);

/// Summary of rows: median |error| over the feasible rows (an infeasible row has no prediction;
/// NaN when none is feasible), share of all rows within +-25 % (an infeasible row is not), and
/// how many are feasible.
struct RealitySummary {
    int rows = 0, feasible = 0, within25 = 0;
    double medianAbsError = 0, shareWithin25 = 0;
};
RealitySummary summarize(const std::vector<RealityRow>& rows);

/// Result of fitting a stack's constants (stackFitParameters()) to every expressible case at
/// once: minimises sum sqrt(1 + (ln(pred/meas) / 0.1)^2) (soft-L1 on the log error) with a
/// deterministic Nelder-Mead from the fixed start `start` inside each parameter's range.
struct StackFit {
    Stack stack;
    std::vector<double> values;  ///< in stackFitParameters() order
    double objective = 0;
    int evaluations = 0;
};
/// The stackFitParameters() that `objective` depends on at `at`: moving the constant by half its
/// range (down where up would leave the range) changes the objective. A constant none of the
/// objective's runs exercises (e.g. the NVFP4 factor with no NVFP4 run) is left out. One
/// objective evaluation per constant plus one.
std::vector<StackFitParameter> parametersDependedOn(
    const Stack& at, const std::function<double(const Stack&)>& objective);
/// `excluded` (optional): cases it returns true for take no part in the fit (leave-out
/// validation, leaveOutErrors); a constant the remaining cases do not depend on (its value
/// moved by half its range leaves the objective unchanged) is not fitted and keeps `start`'s
/// value. `cancel` (optional) is polled once per objective evaluation
/// (throws tandem::Cancelled).
StackFit fitStack(const Stack& start, int maxEvaluations = 4000,
                  const std::function<bool(const RealityCase&)>& excluded = {},
                  const tandem::CancelFlag* cancel = nullptr);
/// The minimiser behind fitStack and fitStackToKorthikanti: deterministic Nelder-Mead over
/// `params` scaled to [0, 1] within their ranges (clamped), starting at `start`'s values, on
/// `objective` (any finite function of the stack); stops after `maxEvaluations` or when the
/// simplex's values agree to 1e-9 relative.
StackFit minimizeStack(const Stack& start, const std::vector<StackFitParameter>& params,
                       const std::function<double(const Stack&)>& objective,
                       int maxEvaluations = 4000);
/// The fit objective for `stack` over `cases` (re-costs them under `stack`): the soft-L1 sum
/// over the expressible cases of sqrt(1 + r^2) - 1 with r = ln(predicted / measured) / 0.1
/// (1e3 for a layout the stack calls infeasible). Dimensionless.
double fitObjective(const Stack& stack, std::vector<RealityCase>& cases);
/// Weight of fitPrior: 20 objective units per whole range of a constant, squared. Chosen by
/// leave-one-group-out error over 0, 2, 5, 10, 20, 30 and 50 (docs/MODEL-MOSAIC.md, section
/// "Prior"): without it, a refit on one system alone pushes the overlaps to their bound 1.
inline constexpr double kFitPriorWeight = 20.0;
/// The Gaussian prior of the megatron-core fit: kFitPriorWeight x ((value - start) / (high -
/// low))^2 summed over stackFitParameters(), i.e. a pull of each constant towards its fit start
/// (the kernel tables' level 1 for the precision factors, mid-range for the overlaps; stack.h)
/// that 90 runs outweigh where they identify the constant and that holds it where they barely
/// do. fitStack and calibrateStack add it to fitObjective. Dimensionless, >= 0.
double fitPrior(const Stack& stack);
/// The same soft-L1 log-error objective over the eight Table 5 iteration times of
/// arXiv:2205.05198 costed under `stack` (costKorthikantiPoints).
double korthikantiFitObjective(const Stack& stack);
/// The megatron-lm-2022 fit: megatronLm2022FitParameters() of `start` minimising
/// korthikantiFitObjective (minimizeStack). The memory points take no part: memory does not
/// depend on the fitted constants.
StackFit fitStackToKorthikanti(const Stack& start, int maxEvaluations = 2000);

/// The model family of a measured model name, the group leave-one-family-out holds back:
/// "Llama 3" (LLAMA3_8B, LLAMA3_70B, LLAMA3.1_405B), "DeepSeek-V3" (with and without MTP),
/// "Qwen3" (30B-A3B, 235B-A22B), "gpt-oss" (GPT OSS 120B); the name itself for any other.
std::string measuredModelFamily(const std::string& model);

/// Which runs one leave-out validation holds back.
enum class LeaveOutKind {
    System,       ///< every run of one measured system (DGX-H100, DGX-GB200)
    ModelFamily,  ///< every run of one model family (measuredModelFamily)
};
/// The words of LeaveOutKind: "system", "model_family".
const EnumTable<LeaveOutKind>& leaveOutKindNames();

/// One group held back: the stack's free constants refitted without it (fitStack from
/// megatronCoreFitStart() with the group excluded), then the group's runs predicted.
struct LeaveOutGroup {
    LeaveOutKind kind = LeaveOutKind::System;
    std::string name;                  ///< the system or the family
    std::vector<double> values;        ///< the refitted constants, stackFitParameters() order
    double objective = 0;              ///< of the refit, over the runs it kept
    std::vector<RealityRow> rows;      ///< the group's runs costed under the refit (caseIndex into
                                       ///< LeaveOutReport::cases)
    std::vector<RealityRow> inSample;  ///< the same runs under the stored (all-run) constants
    double medianAbsError = 0, maxAbsError = 0, medianError = 0;  ///< of `rows`
    double inSampleMedianAbsError = 0;                            ///< of `inSample`
};

/// Every leave-one-system-out and leave-one-family-out refit, in system then family order
/// (each kind's groups sorted by name).
struct LeaveOutReport {
    std::vector<RealityCase> cases;  ///< the cases the rows index (choosePlans applied)
    std::vector<LeaveOutGroup> groups;
    /// Median |error| over every held-back prediction of each kind.
    double medianAbsErrorSystems = 0, medianAbsErrorFamilies = 0;
    int maxEvaluations = 0;
};

/// Runs the leave-out validations: one fitStack per group (up to `threads` at once, each on
/// its own copy of the cases; the result does not depend on `threads`), `maxEvaluations` per
/// refit. Polls `cancel` per objective evaluation (throws tandem::Cancelled). Slow: one full
/// fit per group (docs/MODEL-MOSAIC.md gives the time).
LeaveOutReport leaveOutErrors(int maxEvaluations = 4000, int threads = 1,
                              const tandem::CancelFlag* cancel = nullptr);

/// {"max_evaluations", "overall": {"system": {median_abs_error},
/// "model_family": {...}}, "groups": [{kind, name, rows, median_abs_error, max_abs_error,
/// median_error, in_sample_median_abs_error, constants {name: value}, runs: [{line, model,
/// system, precision, measured, predicted, error, in_sample_error}]}]}.
nlohmann::ordered_json leaveOutToJson(const LeaveOutReport& r);

/// The full `reproduce reality` report under the megatron-core stack: one check per
/// expressible run (measured tokens/s/GPU, predicted, band +-25 %), then
/// the Korthikanti et al. 2022 checks (korthikanti.*, band +-10 %), then the summary checks
/// reality.median_abs_error (<= 0.15), reality.share_within_25pct (>= 0.85) and
/// reality.feasible_share (= 1).
struct RealityReport {
    Report report;
    std::vector<RealityRow> rows;
    std::vector<RealityCase> cases;
    RealitySummary summary;
    /// The Korthikanti et al. 2022 points (mosaic/korthikanti.h), expressible or not.
    std::vector<KorthikantiResult> korthikanti;
};
RealityReport reproduceReality();

/// Which runs a reality check shows; an empty field matches every run. `precision` is the
/// word of the run's costed precision (precisionName: "bf16", "fp8", ...); `stack` is the
/// software release the run was measured with (the CSV's `container`, e.g. "26.04").
struct RealityFilter {
    std::string system, model, precision, stack;
};

/// The distinct values of each RealityFilter field over the report's rows (the costed,
/// expressible runs), each list sorted.
struct RealityFilterValues {
    std::vector<std::string> systems, models, precisions, stacks;
};
RealityFilterValues realityFilterValues(const RealityReport& r);

/// True when case `c` (its run's system, model and container, its cluster's precision) matches
/// every non-empty field of `f`; a user's run (user_runs.h) is matched alike.
bool realityCaseMatches(const RealityCase& c, const RealityFilter& f);

/// True when row `row` of `r` matches every non-empty field of `f` (realityCaseMatches of its
/// case).
bool realityRowMatches(const RealityReport& r, const RealityRow& row, const RealityFilter& f);

/// The rows of `r` (feasible or not) that match `f`, in report order.
std::vector<RealityRow> filterRealityRows(const RealityReport& r, const RealityFilter& f);

/// The summary (median |error|, share within +-25 %) of the rows matching `f`:
/// summarize(filterRealityRows(r, f)); with an empty filter it equals r.summary.
RealitySummary summarizeRealityFilter(const RealityReport& r, const RealityFilter& f);

/// The measured system whose built-in hardware is `hardware` ("h100" -> "DGX-H100",
/// "gb200-nvl72" -> "DGX-GB200"); "" for hardware no measured run used.
std::string measuredSystemOfHardware(const std::string& hardware);

/// A plan as the reality check places it among the measured runs.
struct RealityPlan {
    std::string hardware;    ///< built-in hardware name of the envelope
    std::string system;      ///< measuredSystemOfHardware(hardware), "" when none
    int gpus = 0;            ///< devices of the cluster
    double totalParams = 0;  ///< N_tot of the geometry, parameters
    std::string precision;   ///< precisionName of the envelope's precision
    /// Tandem's tokens/s per GPU of the plan under `stack` (PlanEval); 0 when the plan does not
    /// fit under it (`reason` says why).
    double predicted = 0;
    /// The training stack `predicted` is costed with: the measured runs' (megatron-core), so
    /// that the plan is drawn beside runs costed the same way.
    std::string stack;
    std::string reason;            ///< why the plan is infeasible under `stack` ("" when it fits)
    std::string scenarioStack;     ///< the envelope's stack
    double scenarioPredicted = 0;  ///< tokens/s per GPU under the envelope's stack
};
/// The plan of candidate `c` on envelope `e` (its hardware, devices, N_tot, precision), its
/// layout costed again (evaluateLayout on clusterOf(e)) under `runs`, the stack the measured runs
/// are costed with, for `predicted`; the candidate's own tokens/s per GPU under e.stack for
/// `scenarioPredicted` (the same number when the stacks are the same).
RealityPlan realityPlan(const Envelope& e, const Candidate& c,
                        const Stack& runs = megatronCoreStack());

/// One measured run ranked by its nearness to a plan.
struct RealityNeighbour {
    size_t row = 0;           ///< into RealityReport::rows
    bool sameSystem = false;  ///< measured on the plan's system
    double distance = 0;      ///< |log2(GPUs ratio)| + |log2(N_tot ratio)| + precision term
};

/// The `k` feasible rows of `r` matching `filter` (realityRowMatches; the reality check's
/// filter boxes) nearest to `plan`. Rule: runs on the plan's system come first
/// (all of them, before any run on another system); within each group the distance
/// |log2(gpus_run / gpus_plan)| + |log2(N_tot,run / N_tot,plan)| + (1 if the precision
/// differs, else 0) ranks them, smallest first (one doubling of GPUs, one doubling of model
/// size and a different precision weigh the same), ties in report order. Fewer than `k` when the
/// report has fewer feasible rows; empty for a plan without GPUs or parameters.
std::vector<RealityNeighbour> nearestRealityRuns(const RealityReport& r, const RealityPlan& plan,
                                                 int k = 3, const RealityFilter& filter = {});

/// The errors of the nearest runs: the largest and the median |predicted / measured - 1|.
struct RealityNeighbourSummary {
    int runs = 0, sameSystem = 0;
    double maxAbsError = 0, medianAbsError = 0;
};
RealityNeighbourSummary summarizeNeighbours(const RealityReport& r,
                                            const std::vector<RealityNeighbour>& nearest);

/// {"paper", "checks": [...], "stack", "conventions", "summary", "split": {"system", "precision",
/// "model", "dense_moe", "mbs"} (each group: rows, median_abs_error, max_abs_error, median_error,
/// share_within_25pct), "rows": [...] (each with its "recipe": {fused_grouped_mlp,
/// a2a_overlap}, measuredRunRecipe), "not_expressible": [...],
/// "korthikanti_2022": [...]} (the checks have reproduce mosaic's shape).
nlohmann::ordered_json realityToJson(const RealityReport& r);

}  // namespace tandem::mosaic
