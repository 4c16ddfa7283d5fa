#pragma once
// `plan` as a pipeline of values, shared by `tandem-cli plan` and the GUI's plan panel:
// PlanRequest -> runPlan -> PlanReport, then planReportToJson (the `--json` output),
// planReportMegatron (the `--emit megatron` launch script) and the CLI's text printer, each made
// from the report [2608.10605 Sec. 5, App. E].
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/enum_names.h"
#include "io/hf_config.h"
#include "mosaic/collectives.h"
#include "mosaic/imported_geometry.h"
#include "mosaic/perf_model.h"
#include "mosaic/plan.h"

namespace tandem::mosaic {

/// What `plan` costs: a geometry on a cluster, either the best layouts of the grid or given
/// layouts. The caller has checked its inputs (flags, files, precision).
struct PlanRequest {
    Geometry geometry;
    Cluster cluster;
    /// The Hugging Face config the geometry came from, and its mapping (importedGeometry);
    /// nullopt for Tandem's MODEL.json or a geometry of the search.
    std::optional<io::ModelImport> hf;
    ImportedGeometry mapped;
    /// Layouts to cost as given (`--layout`, `--megatron-args`, a GUI selection); empty: the
    /// best `top` feasible layouts of `grid` (planLayouts).
    std::vector<Plan> layouts;
    /// The given layouts name no recomputation mode (`--layout` without a ckpt key): each is
    /// costed with the least recomputation that fits (chooseLayoutRecomputation).
    bool leastRecomputation = false;
    LayoutGrid grid;
    int top = 10;
    /// Notes of the measured nccl-tests curves' loader (printed with the curves).
    std::vector<std::string> ncclNotes;
    /// Tokens to train, for daysToTarget (0: no target).
    double tokenTarget = 0;
    /// Share of wall time spent training (eta_good, (0, 1]), for daysToTarget.
    double goodput = 1;
    /// What the co-running jobs of the scenario do to this job (coRunNote of
    /// `mosaic.background`; the cluster's hardware already carries their curves); "" without
    /// co-running jobs (the CLI's plan has none).
    std::string coRunNote;
    /// When no layout is feasible: look for the nearest working cluster and count why the
    /// grid's layouts were cut (one planLayouts per GPU count tried; off for an interactive
    /// view that only shows feasible plans).
    bool explainInfeasible = true;
};

/// Where the time of one collective call came from.
enum class TimeSource {
    Analytical,  ///< the analytical collective model
    Measured,    ///< a measured nccl-tests curve
};
/// The words of TimeSource: "analytical", "measured".
const EnumTable<TimeSource>& timeSourceNames();

/// The collectives of one layout costed under measured curves (a CollectiveRecorder around a
/// re-evaluation): call counts and each distinct use.
struct PlanCollectives {
    long long calls = 0, measured = 0, extrapolated = 0;
    std::vector<CollectiveUse> uses;
};

/// One costed layout of a plan.
struct PlanLayout {
    Plan plan;
    PlanEval eval;
    int globalBatch = 0;  ///< sequences this layout runs (planGlobalBatch)
    /// Memory per GPU of each kind of pipeline stage (layoutStageMemory); empty when the plan
    /// is structurally invalid.
    std::vector<StageMemory> stages;
    /// Measured curves only: the layout's collectives; nullopt on the analytical model.
    std::optional<PlanCollectives> collectives;
    /// Wall-clock days to train PlanRequest::tokenTarget at this layout's rate and the goodput;
    /// NaN when there is no target or the layout is infeasible.
    double daysToTarget = 0;
    /// The recomputation mode was chosen (PlanRequest::leastRecomputation), not given.
    bool ckptChosen = false;
    /// A given layout that does not fit in device memory: memoryRemedy, the same layout with
    /// the recomputation, distributed-optimizer or FSDP setting that fits, and its memory per
    /// GPU (GB); nullopt when no such setting fits (remedyChecked) or it was not looked for.
    bool remedyChecked = false;
    std::optional<Plan> fitsWith;
    double fitsWithMemoryGB = 0;
};

/// Everything `plan` reports.
struct PlanReport {
    PlanRequest request;
    std::vector<PlanLayout> layouts;  ///< best first (or as given)
    bool anyFeasible = false;
    /// When nothing fits: nearestWorkingDevices (0 when none within kNearestNodesSpan nodes).
    int nearestDevices = 0;
    /// When the grid has no feasible layout (no layouts listed): why its layouts were cut
    /// (countRejections).
    std::optional<PlanRejections> rejections;
    /// networkExtrapolation of the cluster's node count; "" within the fitted scope.
    std::string networkNote;
    /// calibrationHardwareNote of the cluster's stack on its hardware; "" when it fits.
    std::string stackNote;
    /// overlapNote of the cluster's stack for the model: what the costing hides.
    std::string overlapNote;
    /// pipelineSplitNote of the first layout (the one --emit writes): how its layers are split
    /// where PP x VP does not divide them, or that its launch script is not runnable; "" for an
    /// even split or no layout.
    std::string pipelineNote;
    /// A feasible layout runs a global batch other than the one asked for (rounded).
    bool roundedBatch = false;
    int nodes = 0;  ///< ceil(devices / GPUs per node)
};

/// How `stack` overlaps communication with compute, as the costing applies it (PerfModel
/// assemble): the fraction of the TP collectives hidden behind the GEMMs (Stack::tpOverlap), for
/// an MoE model `g` the fraction of the expert all-to-all hidden (Stack::a2aOverlap) or, with
/// shared experts and where longer, their compute, and the data-parallel reduce-scatter /
/// all-gather behind one micro-batch's compute. One sentence, for the plan's outputs.
std::string overlapNote(const Stack& stack, const Geometry& g);

/// Costs `r` [2608.10605 Sec. 5]: the given layouts (evaluateLayout; with
/// PlanRequest::leastRecomputation each at the least recomputation that fits, and one that does
/// not fit in memory with its memoryRemedy) or the best `top` of the grid (planLayouts), each
/// with its stage memory, its collectives when the hardware has
/// measured curves, and the days to the token target; when nothing fits, the nearest working
/// cluster and the rejection counts. Deterministic; no errors (an infeasible plan says why).
PlanReport runPlan(const PlanRequest& r);

/// `tandem-cli plan --json`: planToJson of the layouts plus nearest_working_devices (nothing
/// fits), model_source (a Hugging Face config), measured_collectives with each layout's
/// collectives (measured curves), network_note (an extrapolation), stack_note (a stack
/// calibrated on other hardware, PlanReport::stackNote), overlap_note (overlapNote),
/// pipeline_note (PlanReport::pipelineNote, where there is one) and, with a token target,
/// token_target {tokens, goodput} and each layout's days_to_target (null when infeasible);
/// a given layout costed at a chosen recomputation has ckpt_chosen true, and one that does not
/// fit in memory fits_with {change, layout, memory_GB} (null when no setting fits).
nlohmann::ordered_json planReportToJson(const PlanReport& r);

/// The first layout as a bash launch script of Megatron-LM: the exact bytes `tandem-cli plan
/// --emit megatron` prints, which the GUI copies and saves as its .sh file. `#!/usr/bin/env
/// bash`, a `#` header naming the model (N_act, N_tot, S, vocabulary), the hardware and node
/// count, the training stack and precision, the layout (layoutString) with its batch and the
/// predicted tokens/s per GPU, iteration time, MFU and memory, the overlap the costing assumes
/// (overlapNote), then one `# Note:` line per note (PlanReport::pipelineNote, megatronArguments'
/// vocabulary note, the network extrapolation note, the stack's calibration-hardware note, a
/// rounded global batch); `set -euo pipefail`;
/// torchrun's GPUs per node and node count as PET_NPROC_PER_NODE / PET_NNODES defaults (torchrun
/// reads its options from PET_* variables); then `torchrun pretrain_gpt.py` with megatronArguments'
/// flags one per line and the script's own arguments
/// ("$@") last. parseMegatronArguments reads it back to the same plan. "" when the first layout
/// is missing or infeasible. `notes` (optional) gets the pipeline note and megatronArguments'
/// notes.
std::string planReportMegatron(const PlanReport& r, std::vector<std::string>* notes = nullptr);

/// Wall-clock days to train `tokens` at `tokensPerSPerGpu` on `devices` GPUs with `goodput`
/// of the wall time training: tokens / (rate x devices x goodput) / 86400. NaN when `tokens`
/// <= 0 or the rate is not positive.
double daysToTokens(double tokens, double tokensPerSPerGpu, int devices, double goodput);

}  // namespace tandem::mosaic
