#pragma once
// Which layouts a search enumerates on a cluster, and the global batch each one runs
// [2608.10605 Table 3, App. D.1; MODEL.md B5; docs/MODEL-MOSAIC.md section 4]. The paper's
// grids are powers of two (PP up to 16, EP up to 64) with an exact global batch: on a cluster
// whose GPU count has an odd factor (24 nodes, 100 GPUs, one NVL72 rack) no layout of them
// divides B_global, so nothing is feasible. The derived grid takes PP and EP from the divisors
// of the cluster and rounds B_global per layout to the nearest multiple of DP x B_micro.
#include <string>
#include <utility>
#include <vector>

#include "mosaic/envelope.h"
#include "mosaic/layout_table.h"
#include "mosaic/perf_model.h"

namespace tandem::mosaic {

/// The layouts of a search: the axis lists, and whether B_global is rounded per layout.
struct LayoutSpace {
    LayoutGrid grid;
    /// false: a layout is valid only if DP x B_micro divides B_global (the paper's rule);
    /// true: it runs roundedGlobalBatch(B_global, DP, B_micro) sequences.
    bool roundBatch = false;
    LayoutGridRule rule = LayoutGridRule::Listed;  ///< the rule used (Auto resolved)
    /// Why `rule` was chosen when the envelope asked for Auto (empty otherwise).
    std::string note;
};

/// Global batch a layout runs when `requested` sequences are asked for and the batch is
/// rounded: the multiple of DP x B_micro nearest to `requested` (n_mb = floor(requested /
/// (DP B_micro) + 1/2)), ties to the larger; 0 when DP x B_micro exceeds `requested` (fewer
/// sequences than data-parallel ranks times the micro-batch). Example: 1024 sequences on DP 24,
/// B_micro 1: 1024 / 24 = 42.67 -> 43 microbatches -> 1032 sequences. O(1), no errors
/// (0 for non-positive arguments).
int roundedGlobalBatch(int requested, int dp, int mbs);

/// DP = N_dev / (TP CP PP) of every (TP, CP, PP) of `grid` that tiles c.devices, in grid order
/// (TP, CP, PP), one entry per combination (repeats kept). O(|TP| |CP| |PP|).
std::vector<int> meshDataParallelDegrees(const Cluster& c, const LayoutGrid& grid);

/// The derived grid of `c`: TP, CP, B_micro and checkpointing from `base`; PP every value in
/// [1, 64] that divides N_dev / (TP CP) for some TP and CP of `base` (uneven stages: a stage
/// holds ceil(L / PP) layers, PerfModel); EP every divisor of N_dev up to 4096 (the mesh rules
/// EP | DP and EP | E pick the valid ones per layout and geometry). Ascending lists. O(64 |TP|
/// |CP| + sqrt N_dev).
LayoutGrid derivedLayoutGrid(const Cluster& c, const LayoutGrid& base);

/// Resolves `rule` for cluster `c` with the listed grid `listed`: Listed -> listed, exact batch;
/// Derived -> derivedLayoutGrid, rounded batch; Auto -> Listed when some layout of `listed`
/// passes the cluster's mesh and batch rules (the paper's envelopes: their numbers stay the
/// paper grid's), else Derived, with `note` saying why.
LayoutSpace resolveLayoutSpace(const Cluster& c, const LayoutGrid& listed, LayoutGridRule rule);

/// The layout space of an envelope (its listed grids and `layout_grid` rule).
LayoutSpace layoutSpaceOf(const Envelope& e);

/// One batch size of a rounded layout space: the cluster with B_global set to that batch and
/// the table of the layouts whose rounded batch it is (exactly those; see LayoutTable).
struct BatchTable {
    Cluster cluster;
    LayoutTable table;
    /// Distinct groups and shapes over all the tables of the space (LayoutTable::shareIds numbers
    /// them when there is more than one table; 0 otherwise).
    int sharedGroups = 0, sharedShapes = 0;
};

/// The tables of a layout space on `c`: one with c's own B_global when !space.roundBatch; one
/// per distinct rounded batch otherwise, nearest to the requested batch first (ties: smaller
/// batch first). Tables without a layout are left out, so the result is empty when no layout
/// passes the cluster's rules. With several tables their groups and shapes are numbered
/// across them (LayoutTable::shareIds, BatchTable::sharedGroups). Cluster-only; build once
/// per search.
std::vector<BatchTable> batchTables(const Cluster& c, const LayoutSpace& space);

/// The cluster a plan is costed on: `c` with B_global replaced by the plan's rounded batch when
/// `roundBatch` (unchanged when the rounded batch is 0: the plan is then rejected by the batch
/// rule of PerfModel::structuralError).
Cluster clusterForPlan(const Cluster& c, const Plan& p, bool roundBatch);

/// Every structurally valid plan of the space for one geometry with its evaluation on its own
/// batch, in enumeration order (TP, CP, PP, EP, B_micro, checkpointing); plus, per plan, the
/// global batch it runs. Infeasible (memory) plans are included with their reason.
std::vector<std::pair<Plan, PlanEval>> evaluateSpace(const Geometry& g, const Cluster& c,
                                                     const LayoutSpace& space);
/// evaluateSpace with PerfModel::quick (no breakdown, no strings; ~50x cheaper): the same plans
/// in the same order, each with the feasibility, MFU, iteration time and memory that
/// evaluate() gives it (quick and evaluate share memoryBytes and the costing). For choosing
/// among the plans before evaluating the chosen ones in full.
std::vector<std::pair<Plan, QuickEval>> quickEvaluateSpace(const Geometry& g, const Cluster& c,
                                                           const LayoutSpace& space);

/// Global batch a costed plan runs: n_mb x DP x B_micro (0 when not costed).
int planGlobalBatch(const Plan& p, const PlanEval& e);

}  // namespace tandem::mosaic
