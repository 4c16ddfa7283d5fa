#pragma once
// `tandem-cli plan MODEL.json --devices N --gbs B --seqlen T [--hardware NAME]
// [--layout tp,ep,pp,cp,dp,mbs,ckpt]`: cost any MoE or dense geometry on a cluster and list
// the best feasible layouts [2608.10605 Sec. 5, App. E]. The layout as text is
// mosaic/layout_form.h, as Megatron arguments mosaic/megatron_args.h.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mosaic/geometry.h"
#include "mosaic/perf_model.h"

namespace tandem {
class JsonReader;
}

namespace tandem::mosaic {

/// The one wording of "no layout is feasible on this cluster" shared by the CLI and the GUI:
/// "No feasible layout on this cluster", followed by ": " and `reason` when `reason` is not empty
/// (the rule that cut the layouts, e.g. PlanEval::reason). No final full stop.
std::string noFeasibleLayoutText(std::string_view reason = {});

/// Reads MODEL.json into a counted Geometry. Two forms:
///  - ladder seed: {"q": 12, "experts": 96, "top_k": 2, "expert_split_factor": 4}
///    (optional "vocab", default 50257);
///  - explicit: {"layers", "hidden", "heads", "kv_heads", "ffn_width", "vocab", "experts",
///    "top_k", "expert_width", "shared_experts", "dense_layers"} (experts 0 = dense), checked
///    by checkModelShape (model_shape.h), the check Hugging Face configs pass too: kv_heads
///    divides heads, hidden a multiple of heads, 1 <= top_k <= experts with expert_width > 0,
///    dense_layers <= layers, ffn_width > 0 when a block is dense, the model-file limits.
/// Errors go to r.diagnostics() with JSON paths; returns false if any. Calls r.finish().
bool readPlanModel(JsonReader& r, Geometry& g);

/// Feasible layouts of the grid, best (highest MFU) first, at most `top` (<= 0: all). Every
/// checkpointing mode is listed as its own layout. The grid is resolved as layout_grid "auto"
/// (mosaic/layout_grid.h): when no layout of `grid` fits the cluster's mesh and batch rules,
/// the grid derived from the cluster is used and each layout runs its rounded global batch
/// (PlanEval::microbatches x DP x B_micro).
std::vector<std::pair<Plan, PlanEval>> planLayouts(const Geometry& g, const Cluster& c,
                                                   const LayoutGrid& grid = {}, int top = 10);

/// Why the layouts of a grid were rejected: how many were tried, how many were cut per reason
/// (the reason text without its numbers, e.g. "does not fit in device memory", "EP must
/// divide DP", "TP must divide the attention heads"), and the smallest memory need among the
/// layouts that passed the structural rules against the usable device memory (GB = 1e9 bytes).
struct PlanRejections {
    int tried = 0;
    int feasible = 0;
    std::vector<std::pair<std::string, int>> byReason;  ///< most frequent first, ties by name
    /// The entry of byReason counting the memory rule (kDoesNotFitInMemory); -1 when none.
    int memoryReason = -1;
    double smallestMemoryGB = 0;  ///< 0 when no layout passed the structural rules
    double capacityGB = 0;        ///< usable memory per device
    LayoutGridRule layoutGrid = LayoutGridRule::Listed;  ///< the grid the layouts came from
};

/// Evaluates every layout of `grid` and counts the rejection reasons [2608.10605 Sec. 5,
/// App. D.1]; used to explain "no feasible layout". Cost: one evaluation per layout.
PlanRejections countRejections(const Geometry& g, const Cluster& c, const LayoutGrid& grid = {});

/// When no layout of `grid` is feasible on `c`: the nearest GPU count that is a whole number of
/// nodes (c.hardware.gpusPerNode) with a feasible layout, the smaller one on a tie, searching
/// up to kNearestNodesSpan nodes each way; 0 if none. One planLayouts per count tried.
int nearestWorkingDevices(const Geometry& g, const Cluster& c, const LayoutGrid& grid = {});

/// One line per reason ("  412 of 600 layouts: does not fit in device memory (smallest need
/// 95.3 GB > 80 GB usable)"), most frequent first.
std::string rejectionSummary(const PlanRejections& r);

/// One given layout (feasible or not, with the reason). When DP x B_micro does not divide
/// B_global the layout runs its rounded batch (roundedGlobalBatch; infeasible if DP x B_micro
/// exceeds B_global).
PlanEval evaluateLayout(const Geometry& g, const Cluster& c, const Plan& p);

/// The recomputation modes a layout without a recomputation key is tried with, least
/// recomputation first: none, selective, super-selective, full (core-attn is costed only when
/// named). Each recomputes a superset of the one before it.
const std::vector<Checkpointing>& leastRecomputationOrder();

/// Sets `p.ckpt` to the first mode of leastRecomputationOrder() under which `m` finds `p`
/// feasible (PerfModel::quick: structure and memory; memory does not depend on the fitted
/// constants) and returns true; when none is, sets Full (the least memory) and returns false.
/// The one rule for a layout whose recomputation is not known: `plan --layout` without a
/// `ckpt` key (chooseLayoutRecomputation) and the measured runs of the reality check
/// (choosePlans, reality.h).
bool chooseLeastRecomputation(const PerfModel& m, Plan& p);

/// chooseLeastRecomputation on the model evaluateLayout costs `p` with (its batch rounded when
/// DP x B_micro does not divide B_global).
bool chooseLayoutRecomputation(const Geometry& g, const Cluster& c, Plan& p);

/// What makes a layout that does not fit in device memory fit, changing only its recomputation,
/// distributed optimizer or FSDP setting: the first feasible plan of (1) the layout's own
/// optimizer and FSDP settings with each mode of leastRecomputationOrder(), (2) the distributed
/// optimizer on (when off), each mode, (3) FSDP on with the distributed optimizer (when the
/// stack allows FSDP and it is off), each mode. Each try is one evaluateLayout. Empty when
/// `p` is feasible, is cut by another rule than memory, or no such setting fits.
std::optional<Plan> memoryRemedy(const Geometry& g, const Cluster& c, const Plan& p);

/// The settings `to` changes from `from` among ckpt, distopt and fsdp, in the named layout form
/// ("fsdp=1,ckpt=selective"); "" when none differs.
std::string remedyChange(const Plan& from, const Plan& to);

/// Memory per GPU of each kind of pipeline stage of one given layout (PerfModel::stageMemory)
/// on the batch evaluateLayout runs it with; empty when the layout is structurally invalid.
std::vector<StageMemory> layoutStageMemory(const Geometry& g, const Cluster& c, const Plan& p);

/// {"model": geometry, "cluster": {..., global_batch_sequences (requested)}, "layouts": [{tp,
/// ep, pp, cp, dp, mbs, ckpt, mfu, iteration_s, memory_GB, breakdown_s {...}, chi_sys,
/// global_batch_sequences (the batch this layout runs), feasible, reason}, ...]} best first.
nlohmann::ordered_json planToJson(const Geometry& g, const Cluster& c,
                                  const std::vector<std::pair<Plan, PlanEval>>& layouts);

}  // namespace tandem::mosaic
