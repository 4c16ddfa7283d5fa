#include "mosaic/search.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <future>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "mosaic/layout_grid.h"
#include "mosaic/layout_table.h"
#include "mosaic/memory_model.h"
#include "mosaic/scaling_law.h"

namespace tandem::mosaic {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct GeoResult {
    Geometry g;
    bool fits = false;
    Plan plan;
    QuickEval eval;
    PlanEval full;  // evaluate(plan) with breakdown, when fits
};

using Costed = std::shared_ptr<const std::vector<GeoResult>>;
/// Costings by costingKey, most recent last; an entry whose costing is still under way holds
/// the future the computing call fulfils.
struct CostingEntry {
    EnvelopeKey key;
    std::shared_future<Costed> future;
    std::uint64_t id;  ///< which costing of `key` (a failed one is forgotten, a new one added)
};
std::mutex costingsMutex;
std::vector<CostingEntry> costings;
std::uint64_t costingsAdded = 0;

// Bin index of sparsity s for bin centres c (edges at midpoints), -1 outside.
int binOf(const std::vector<double>& c, double s) {
    if (c.empty()) return -1;
    const size_t n = c.size();
    const double lo = n > 1 ? c[0] - 0.5 * (c[1] - c[0]) : c[0] - 0.005;
    const double hi = n > 1 ? c[n - 1] + 0.5 * (c[n - 1] - c[n - 2]) : c[0] + 0.005;
    if (s < lo || s >= hi) return -1;
    for (size_t i = 0; i + 1 < n; ++i)
        if (s < 0.5 * (c[i] + c[i + 1])) return int(i);
    return int(n - 1);
}

}  // namespace

double feasibleBoundarySparsity(const std::vector<FrontierPoint>& computeOptimal) {
    double boundary = kNaN;
    bool started = false;
    for (const FrontierPoint& p : computeOptimal) {
        if (p.feasible) {
            boundary = p.sparsity;
            started = true;
        } else if (started) {
            break;  // the red region starts here
        }
    }
    return boundary;
}

double deliverableTokens(const Envelope& e, double mfu, double nAct) {
    return tokensForModelFlops(e.deliverableModelFlops(mfu), nAct);
}

CandidateScore scoreCandidate(const Envelope& e, const Geometry& g, double mfu) {
    CandidateScore s;
    s.deliverableTokens = deliverableTokens(e, mfu, g.nAct);
    s.reachesTppMin = s.deliverableTokens >= e.tppMin * g.nAct;
    s.completesAStep = s.deliverableTokens >= double(e.globalBatch) * e.seqLen;
    s.tokens = std::min(s.deliverableTokens, e.tppMax * g.nAct);
    s.splitG = g.splitG >= 1 ? g.splitG : 1;
    s.loss = e.law.loss(g.nTot, g.sparsity, s.tokens, s.splitG);
    s.extrapolated = isExtrapolated(g.nTot, g.sparsity, s.tokens, s.splitG);
    return s;
}

namespace {

/// Best plan of `g` over the batch tables (max MFU; ties to the earlier table, i.e. the batch
/// nearer to the requested one). `hints[i]` is the previous best plan of table i, if any.
/// `shared`: scratch for the terms the tables have in common (used when there are several).
bool bestOverTables(const Geometry& g, const std::vector<BatchTable>& tables,
                    std::vector<Plan>& hints, std::vector<char>& haveHint, Plan& plan,
                    QuickEval& eval, PlanEval& full, PerfModel::SharedTerms& shared) {
    bool found = false;
    size_t at = 0;
    const bool share = tables.size() > 1;
    if (share) shared.reset(tables.front().sharedGroups, tables.front().sharedShapes);
    for (size_t i = 0; i < tables.size(); ++i) {
        const PerfModel m(g, tables[i].cluster);
        Plan p;
        QuickEval q;
        // A later table wins only with a strictly higher MFU: the best so far bounds its search.
        if (!m.best(tables[i].table, p, q, haveHint[i] ? &hints[i] : nullptr,
                    found ? eval.mfu : -std::numeric_limits<double>::infinity(),
                    share ? &shared : nullptr))
            continue;
        hints[i] = p;
        haveHint[i] = 1;
        if (!found || q.mfu > eval.mfu) {
            found = true;
            plan = p;
            eval = q;
            at = i;
        }
    }
    if (found) full = PerfModel(g, tables[at].cluster).evaluate(plan);
    return found;
}

/// Why each geometry of a search without candidates was cut: one reason per geometry, the
/// first rule in the order cluster -> geometry mesh -> memory -> TPP floor that removes all of
/// its layouts.
std::vector<std::pair<std::string, int>> geometryRejections(const Envelope& e,
                                                            const std::vector<BatchTable>& tables,
                                                            const LayoutSpace& space,
                                                            int memoryFeasibleCut,
                                                            const tandem::CancelFlag* cancel) {
    std::map<std::string, int> counts;
    if (tables.empty()) {
        counts
            ["no layout passes the cluster's mesh and batch rules (TP CP PP DP = N_dev, TP within "
             "a node, "
             "EP | DP, CP | T_seq, " +
             std::string(space.roundBatch ? "DP x B_micro <= B_global"
                                          : "DP x B_micro | B_global") +
             ")"] = 1;
    } else {
        for (int q : e.qValues)
            for (int E : e.expertValues)
                for (int K : e.topKValues) {
                    if (K > E) continue;
                    for (int G : e.splitValues) {
                        const Geometry g = ladderGeometry(q, E, K, G);
                        if (g.sparsity < e.minSparsity || g.dExpert < 1) continue;
                        throwIfCancelled(cancel);
                        bool structural = false, memory = false;
                        for (const BatchTable& bt : tables) {
                            const PerfModel m(g, bt.cluster);
                            for (const Plan& p : m.enumerate(space.grid)) {
                                if (space.roundBatch &&
                                    roundedGlobalBatch(e.globalBatch, p.dp, p.mbs) !=
                                        bt.cluster.globalBatch)
                                    continue;
                                structural = true;
                                if (m.quick(p).feasible) memory = true;
                                if (memory) break;
                            }
                            if (memory) break;
                        }
                        if (!structural)
                            ++counts
                                ["no layout passes the geometry's mesh rules (TP | heads, EP | E, "
                                 "PP <= layers)"];
                        else if (!memory)
                            ++counts["every layout exceeds device memory"];
                    }
                }
        if (memoryFeasibleCut > 0)
            counts
                ["fits memory but its MFU cannot deliver TPP_min x N_act tokens in the window (Eq. "
                 "25)"] += memoryFeasibleCut;
    }
    std::vector<std::pair<std::string, int>> out(counts.begin(), counts.end());
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    return out;
}

/// search() without the no-candidate diagnosis (used by it for the neighbouring node counts).
SearchResult searchOnce(const Envelope& e, const tandem::CancelFlag* cancel, bool diagnose,
                        int threads);

/// Fills fits/plan/eval/full of every entry of `geos` (its geometry set) with bestOverTables,
/// on up to `threads` threads. Each thread takes blocks of consecutive geometries and keeps its
/// own hints (the previous geometry's best plan per table), which only speed the MFU bound up:
/// the results do not depend on the thread count. Polls `cancel` per geometry; the first
/// exception of any thread is rethrown here after every thread has stopped.
void bestPlanPerGeometry(std::vector<GeoResult>& geos, const std::vector<BatchTable>& tables,
                         int threads, const tandem::CancelFlag* cancel) {
    constexpr std::size_t kBlock = 8;  // consecutive geometries share hints
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto work = [&]() {
        std::vector<Plan> hints(tables.size());
        std::vector<char> haveHint(tables.size(), 0);
        PerfModel::SharedTerms shared;
        try {
            for (std::size_t b = next.fetch_add(kBlock); b < geos.size() && !stop;
                 b = next.fetch_add(kBlock))
                for (std::size_t i = b; i < std::min(geos.size(), b + kBlock) && !stop; ++i) {
                    throwIfCancelled(cancel);
                    GeoResult& r = geos[i];
                    r.fits = bestOverTables(r.g, tables, hints, haveHint, r.plan, r.eval, r.full,
                                            shared);
                }
        } catch (...) {
            std::lock_guard<std::mutex> lock(errorMutex);
            if (!error) error = std::current_exception();
            stop = true;
        }
    };
    const std::size_t blocks = (geos.size() + kBlock - 1) / kBlock;
    const std::size_t n =
        std::min<std::size_t>(std::max(1, threads), std::max<std::size_t>(1, blocks));
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < n; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    if (error) std::rethrow_exception(error);
}

}  // namespace

void clearSearchCostings() {
    std::lock_guard<std::mutex> lock(costingsMutex);
    costings.clear();
}

SearchResult search(const Envelope& e, const tandem::CancelFlag* cancel, int threads) {
    return searchOnce(e, cancel, true, threads);
}

std::vector<SearchResult> searchPerBackgroundLevel(const Envelope& e, const std::vector<int>& jobs,
                                                   const tandem::CancelFlag* cancel, int threads) {
    std::vector<SearchResult> out;
    Envelope level = e;
    level.background = backgroundOrIdle(e);
    for (int j : jobs) {
        level.background->jobs = j;
        out.push_back(search(level, cancel, threads));
    }
    return out;
}

namespace {

/// Removes costing `id` from the cache if it is still there (a costing that failed or was
/// cancelled is not kept).
void forgetCosting(std::uint64_t id) {
    std::lock_guard<std::mutex> lock(costingsMutex);
    costings.erase(std::remove_if(costings.begin(), costings.end(),
                                  [&](const CostingEntry& c) { return c.id == id; }),
                   costings.end());
}

/// Costs every ladder geometry of `e` (bestPlanPerGeometry).
Costed costAll(const Envelope& e, const Cluster& cluster, const LayoutSpace& space,
               const tandem::CancelFlag* cancel, int threads) {
    auto geos = std::make_shared<std::vector<GeoResult>>();
    for (int q : e.qValues)
        for (int E : e.expertValues)
            for (int K : e.topKValues) {
                if (K > E) continue;
                for (int G : e.splitValues) {
                    GeoResult r;
                    r.g = ladderGeometry(q, E, K, G);
                    if (r.g.sparsity < e.minSparsity || r.g.dExpert < 1) continue;
                    geos->push_back(std::move(r));
                }
            }
    bestPlanPerGeometry(*geos, batchTables(cluster, space), threads, cancel);
    return geos;
}

/// Every ladder geometry of `e` with its best plan (bestPlanPerGeometry). The last few costings
/// are kept by costingKey, so a change of the training window, goodput or law (a slider) only
/// re-scores them. A costing of the same key already under way (another thread's search or
/// prepareSearch) is waited for, polling `cancel`, instead of computed twice; when that call
/// is cancelled or fails with tandem::Cancelled, this one computes it. Same errors as search().
Costed costedGeometries(const Envelope& e, const Cluster& cluster, const LayoutSpace& space,
                        const tandem::CancelFlag* cancel, int threads) {
    constexpr std::size_t kCacheEntries = 6;
    const EnvelopeKey key = costingKey(e);
    for (;;) {
        std::promise<Costed> promise;
        std::shared_future<Costed> future;
        std::uint64_t id = 0;
        bool mine = false;
        {
            std::lock_guard<std::mutex> lock(costingsMutex);
            auto it = std::find_if(costings.begin(), costings.end(),
                                   [&](const CostingEntry& c) { return c.key == key; });
            if (it != costings.end()) {
                std::rotate(it, it + 1, costings.end());
                future = costings.back().future;
                id = costings.back().id;
            } else {
                future = promise.get_future().share();
                id = ++costingsAdded;
                mine = true;
                costings.push_back({key, future, id});
                if (costings.size() > kCacheEntries) costings.erase(costings.begin());
            }
        }
        if (mine) {
            try {
                Costed geos = costAll(e, cluster, space, cancel, threads);
                promise.set_value(geos);
                return geos;
            } catch (...) {
                promise.set_exception(std::current_exception());
                forgetCosting(id);
                throw;
            }
        }
        while (future.wait_for(std::chrono::milliseconds(2)) != std::future_status::ready)
            throwIfCancelled(cancel);
        try {
            return future.get();
        } catch (const tandem::Cancelled&) {
            forgetCosting(id);  // the computing call was cancelled: cost it here
            throwIfCancelled(cancel);
        }
    }
}

}  // namespace

void prepareSearch(const Envelope& e, const tandem::CancelFlag* cancel, int threads) {
    throwIfCancelled(cancel);
    const Cluster cluster = clusterOf(e);
    costedGeometries(e, cluster, layoutSpaceOf(e), cancel, threads);
}

namespace {

SearchResult searchOnce(const Envelope& e, const tandem::CancelFlag* cancel, bool diagnose,
                        int threads) {
    throwIfCancelled(cancel);  // also when the costing is kept
    SearchResult res;
    const Cluster cluster = clusterOf(e);
    const LayoutSpace space = layoutSpaceOf(e);
    res.layoutGrid = space.rule;
    res.layoutGridNote = space.note;
    res.globalBatchRequested = e.globalBatch;
    res.deviceMemoryGB = e.hardware.memoryBytes / 1e9;
    res.peakBudgetFlops = e.peakBudgetFlops();
    res.modelBudgetFlops = e.modelBudgetFlops();

    const std::shared_ptr<const std::vector<GeoResult>> costed =
        costedGeometries(e, cluster, space, cancel, threads);
    const std::vector<GeoResult>& geos = *costed;
    res.geometriesSearched = int(geos.size());

    for (const auto& r : geos) {
        if (!r.fits) continue;
        ++res.geometriesMemoryFeasible;
        const CandidateScore score = scoreCandidate(e, r.g, r.eval.mfu);
        // Cannot reach the smallest TPP, or not even one step fits the window.
        if (!score.reachesTppMin || !score.completesAStep) continue;
        Candidate c;
        c.geometry = r.g;
        c.plan = r.plan;
        c.eval = r.full;
        c.tokens = score.tokens;
        c.loss = score.loss;
        c.extrapolated = score.extrapolated;
        c.globalBatch = planGlobalBatch(c.plan, c.eval);
        res.candidates.push_back(c);
    }
    std::stable_sort(res.candidates.begin(), res.candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.loss < b.loss; });
    res.optimum = res.candidates.empty() ? -1 : 0;
    res.clusterOptimalSparsity =
        res.candidates.empty() ? kNaN : res.candidates[0].geometry.sparsity;

    // Cluster-optimal frontier.
    const auto& centres = e.frontierSparsity;
    res.clusterOptimal.resize(centres.size());
    for (size_t i = 0; i < centres.size(); ++i) {
        res.clusterOptimal[i].sparsity = centres[i];
        res.clusterOptimal[i].loss = kNaN;
    }
    for (size_t ci = 0; ci < res.candidates.size(); ++ci) {
        const int b = binOf(centres, res.candidates[ci].geometry.sparsity);
        if (b < 0) continue;
        auto& fp = res.clusterOptimal[size_t(b)];
        if (!fp.feasible) {  // candidates are sorted: the first one in a bin is its best
            fp.feasible = true;
            fp.loss = res.candidates[ci].loss;
            fp.extrapolated = res.candidates[ci].extrapolated;
            fp.candidate = int(ci);
        }
    }

    // Compute-optimal frontier: L*(S) of Eq. 16 at the largest G of the grid (the law falls
    // with G). Fig. 1's caption optimizes E and N_act at each sparsity and evaluates each
    // sparsity "at the token count supported by its own attainable peak MFU": each point is
    // realized by the best geometry of the grid in that sparsity bin (any q, E, K, G; lowest
    // loss on the cluster, i.e. the cluster-optimal frontier's candidate), and the cluster
    // delivers the prescription when C_peak eta_good MFU* >= C_model.
    const int gCo =
        e.splitValues.empty() ? 4 : *std::max_element(e.splitValues.begin(), e.splitValues.end());
    const double cModel = res.modelBudgetFlops;
    res.computeOptimal.resize(centres.size());
    double bestLoss = std::numeric_limits<double>::infinity();
    int bestBin = -1;
    for (size_t i = 0; i < centres.size(); ++i) {
        const double s = centres[i];
        const ComputeOptimum co = computeOptimum(e.law, cModel, s, gCo);
        auto& fp = res.computeOptimal[i];
        fp.sparsity = s;
        fp.loss = co.loss;
        fp.extrapolated = isExtrapolated(co.nTot, s, co.tokens, gCo);
        fp.candidate = res.clusterOptimal[i].candidate;
        fp.feasible =
            fp.candidate >= 0 &&
            e.deliverableModelFlops(res.candidates[size_t(fp.candidate)].eval.mfu) >= cModel;
        if (co.loss < bestLoss) {
            bestLoss = co.loss;
            bestBin = int(i);
        }
    }
    res.computeOptimalSparsity = bestBin >= 0 ? centres[size_t(bestBin)] : kNaN;
    // The compute-optimal choice (S_max) re-scored on the cluster: its realization's loss at
    // the D its own MFU delivers (Eq. 25, TPP cap); NaN when no geometry of that bin fits.
    res.naiveOnClusterLoss = kNaN;
    if (bestBin >= 0 && res.clusterOptimal[size_t(bestBin)].feasible)
        res.naiveOnClusterLoss = res.clusterOptimal[size_t(bestBin)].loss;

    if (diagnose && res.candidates.empty()) {
        res.rejections = geometryRejections(e, batchTables(cluster, space), space,
                                            res.geometriesMemoryFeasible, cancel);
        for (int d = 1; d <= kNearestNodesSpan && res.nearestWorkingNodes == 0; ++d)
            for (int nodes : {e.nodes - d, e.nodes + d}) {
                if (nodes < 1) continue;
                Envelope n = e;
                n.nodes = nodes;
                // Without the background (a neighbour the background's fabric cannot hold
                // would throw): the diagnosis asks which cluster size has a layout at all.
                n.background.reset();
                if (!searchOnce(n, cancel, false, threads).candidates.empty()) {
                    res.nearestWorkingNodes = nodes;
                    break;
                }
            }
    }
    return res;
}

}  // namespace

std::vector<std::pair<Plan, PlanEval>> evaluatePlans(const Geometry& g, const Envelope& e) {
    return evaluateSpace(g, clusterOf(e), layoutSpaceOf(e));
}

std::pair<Plan, PlanEval> bestPlan(const Geometry& g, const Envelope& e) {
    const std::vector<BatchTable> tables = batchTables(clusterOf(e), layoutSpaceOf(e));
    std::vector<Plan> hints(tables.size());
    std::vector<char> haveHint(tables.size(), 0);
    Plan p;
    QuickEval q;
    PlanEval full;
    PerfModel::SharedTerms shared;
    if (!bestOverTables(g, tables, hints, haveHint, p, q, full, shared)) {
        PlanEval none;
        none.reason = "no plan of the layout grid fits device memory";
        return {p, none};
    }
    return {p, full};
}

std::string noFeasibleGeometryText(std::string_view where) {
    return std::string("No geometry has a feasible layout on ").append(where);
}

}  // namespace tandem::mosaic
