#pragma once
// The MOSAIC search [2608.10605 Sec. 2.2, 7.3, App. D.2; MODEL.md B5, B7]: enumerate the
// envelope's ladder geometries, take each one's best feasible plan (max MFU), fix D by Eq. 25
// within the TPP grid, score Eq. 10, and build the compute-optimal and cluster-optimal
// frontiers over sparsity. Exact enumeration, no MINLP solver.
#include <exception>  // before common/cancel.h, which uses std::exception
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/cancel.h"
#include "mosaic/envelope.h"
#include "mosaic/geometry.h"
#include "mosaic/perf_model.h"

namespace tandem::mosaic {

/// One feasible (geometry, plan, D) of the search.
struct Candidate {
    Geometry geometry;
    Plan plan;                  ///< best feasible plan (max MFU)
    PlanEval eval;              ///< its full evaluation (with breakdown)
    double tokens = 0;          ///< D = min(D* of Eq. 25, TPP_max N_act), tokens
    double loss = 0;            ///< Eq. 10 at D, nats
    bool extrapolated = false;  ///< outside the law's calibrated range (Table 6)
    /// Global batch the plan runs, sequences: the envelope's B_global, or with a derived layout
    /// grid the nearest multiple of DP x B_micro (mosaic/layout_grid.h).
    int globalBatch = 0;
};

/// One sparsity bin of a frontier (bin centres = Envelope::frontierSparsity; bin edges are the
/// midpoints between centres).
struct FrontierPoint {
    double sparsity = 0;
    double loss = 0;  ///< NaN if infeasible
    bool feasible = false;
    bool extrapolated = false;
    int candidate = -1;  ///< index into SearchResult::candidates or -1
};

struct SearchResult {
    /// L*(S) under the model-FLOPs budget (Eq. 16) at the largest G of the grid, evaluated at
    /// each bin centre. Each point is realized by the best geometry of its sparsity bin (any q,
    /// E, K, G: the cluster-optimal candidate of the bin, Fig. 1 caption); `feasible` says
    /// whether the cluster delivers the budget with it (C_peak eta_good MFU* >= C_model).
    std::vector<FrontierPoint> computeOptimal;
    /// Lowest loss over candidates whose sparsity falls in each bin (B7); infeasible when empty.
    std::vector<FrontierPoint> clusterOptimal;
    double computeOptimalSparsity =
        0;  ///< argmin of computeOptimal (a boundary in the law's range)
    double clusterOptimalSparsity = 0;  ///< sparsity of the optimum candidate (NaN if none)
    double naiveOnClusterLoss = 0;      ///< compute-optimal choice (S_max bin) re-scored on the
                                        ///< cluster; NaN if no geometry of that bin fits
    std::vector<Candidate> candidates;  ///< feasible, best (lowest loss) first
    int optimum = -1;                   ///< index into candidates, -1 none
    double deviceMemoryGB = 0;          ///< usable memory per device, GB
    double modelBudgetFlops = 0;        ///< C_model used by the compute-optimal frontier
    double peakBudgetFlops = 0;         ///< C_peak = F_peak N_dev T_train
    int geometriesSearched = 0;         ///< ladder geometries with S >= min_sparsity
    int geometriesMemoryFeasible = 0;   ///< of which some plan fits memory
    LayoutGridRule layoutGrid =
        LayoutGridRule::Listed;    ///< grid searched (the envelope's Auto resolved)
    std::string layoutGridNote;    ///< why Auto chose the derived grid (empty otherwise)
    int globalBatchRequested = 0;  ///< the envelope's B_global, sequences
    /// When nothing is feasible: which rule cut the geometries, most frequent first (geometries
    /// per reason: the cluster's mesh and batch rules, the geometry's mesh rules, device memory,
    /// or the TPP floor of Eq. 25); empty when some candidate exists.
    std::vector<std::pair<std::string, int>> rejections;
    /// When nothing is feasible: the nearest node count (same hardware, window and grids) whose
    /// search has a candidate, the smaller one on a tie; 0 if none within kNearestNodesSpan.
    int nearestWorkingNodes = 0;
};

/// How far (in nodes, each way) search() looks for a node count that works when none does.
constexpr int kNearestNodesSpan = 16;

/// The one wording of "no geometry of the search has a feasible layout" shared by the CLI and
/// the GUI: "No geometry has a feasible layout on " + `where` ("this cluster", "24 nodes"). The
/// layout-level wording is noFeasibleLayoutText (mosaic/plan.h). No final full stop.
std::string noFeasibleGeometryText(std::string_view where = "this cluster");

/// Runs the search on `e` over layoutSpaceOf(e) (each plan on its own rounded batch with a
/// derived grid). Polls `cancel` once per geometry (throws tandem::Cancelled). When no geometry
/// has a candidate, fills `rejections` and `nearestWorkingNodes` (up to 2 kNearestNodesSpan more
/// searches). Deterministic: same envelope -> identical result, whatever `threads` is.
/// `threads` (>= 1; less counts as 1): the geometries are costed on up to that many threads
/// (the calling one included); the GUI passes its core count, batch callers that already run
/// points in parallel (sweeps) keep 1.
SearchResult search(const Envelope& e, const tandem::CancelFlag* cancel = nullptr, int threads = 1);

/// search() keeps the costing of the last few clusters (every geometry's best plan; what the
/// envelope holds besides T_train, goodput, the TPP bounds, C_model, Eq. 10's law and the
/// frontier bins), so that a change of only those re-scores it. This drops them: for
/// benchmarks that time cold searches, and tests.
void clearSearchCostings();

/// Costs `e`'s geometries into the kept costings without scoring them, so that a later
/// search() whose envelope differs from `e` only in what scoring reads (T_train, goodput, the
/// TPP bounds, C_model, the law, the frontier bins) re-scores instead of costing: for costing a
/// neighbouring slider stop while the user looks at the current one. A search() of the same
/// costing started while this runs waits for it instead of costing it twice (and costs it
/// itself if this is cancelled). `cancel` and `threads` as search(); throws what search() throws.
void prepareSearch(const Envelope& e, const tandem::CancelFlag* cancel = nullptr, int threads = 1);

/// One search per background level: `e` with background.jobs set to each entry of `jobs` (in
/// order; every entry >= 0). Without a background in `e` the levels use BackgroundLoad's
/// defaults (a 1024-node 4:1 leaf/spine fabric). For the charts of the cluster optimum against
/// co-running jobs (docs/MODEL-NETWORK.md section 7). Same errors and `threads` as search().
std::vector<SearchResult> searchPerBackgroundLevel(const Envelope& e, const std::vector<int>& jobs,
                                                   const tandem::CancelFlag* cancel = nullptr,
                                                   int threads = 1);

/// Every structurally valid plan of the envelope's layout grid for one geometry, each with its
/// evaluation (infeasible ones carry a reason). For the GUI's PP x EP heatmap.
std::vector<std::pair<Plan, PlanEval>> evaluatePlans(const Geometry& g, const Envelope& e);

/// Best plan of one geometry on the envelope's cluster; eval.feasible false if none fits.
std::pair<Plan, PlanEval> bestPlan(const Geometry& g, const Envelope& e);

/// Feasible boundary S_feas^max of a compute-optimal frontier [2608.10605 Fig. 1, Sec. 2.2]: the
/// C_model prescription "becomes infeasible beyond S_feas^max = 0.96", "configurations beyond the
/// feasible boundary ... deliver fewer C_deliverable FLOPs (red region)". Walks the bins in the
/// given order (ascending sparsity) from the first deliverable one (`feasible`) and returns the
/// sparsity of the last bin before the first undeliverable one, i.e. where the red region
/// starts; a deliverable bin above that (an island inside the red region) does not move it.
/// NaN when no bin is deliverable. O(bins), no errors.
double feasibleBoundarySparsity(const std::vector<FrontierPoint>& computeOptimal);

/// D* of Eq. 25 (before the TPP cap): C_peak eta_good MFU / (6 N_act), tokens; `nAct` in
/// parameters [2608.10605 Eq. 25].
double deliverableTokens(const Envelope& e, double mfu, double nAct);

/// How a (geometry, MFU) scores on an envelope: the search's candidates, a layout picked on the
/// GUI's heatmap and an imported model are all scored by scoreCandidate.
struct CandidateScore {
    double deliverableTokens = 0;  ///< D* of Eq. 25 at the MFU, tokens
    double tokens = 0;             ///< D = min(D*, TPP_max N_act), tokens [Sec. 7.3]
    double splitG = 1;             ///< G Eq. 10 is evaluated at: the geometry's, 1 when dense
    double loss = 0;               ///< Eq. 10 at (N_tot, S, D, G), nats
    bool extrapolated = false;     ///< (N_tot, S, D, G) outside the law's range (Table 6)
    bool reachesTppMin = false;    ///< D* >= TPP_min N_act (the search keeps only these)
    /// D* >= B_global T_seq: at least one whole optimizer step fits the training window (the
    /// search keeps only these; a step longer than the window delivers no tokens at all).
    bool completesAStep = false;
};

/// Scores geometry `g` at `mfu` on `e` [2608.10605 Eq. 25, Eq. 10, Sec. 7.3; MODEL.md B5]: D
/// from Eq. 25 capped at TPP_max N_act, loss from Eq. 10 with `e.law`. A dense geometry (G
/// undefined, splitG < 1) is one full-width expert and is scored at G = 1. No errors; an MFU of
/// 0 gives D = 0 and a NaN loss (Eq. 10 needs D > 0).
CandidateScore scoreCandidate(const Envelope& e, const Geometry& g, double mfu);

}  // namespace tandem::mosaic
