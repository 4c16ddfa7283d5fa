#include "mosaic/layout_grid.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "mosaic/layout_table.h"
#include "mosaic/mesh_tiling.h"

namespace tandem::mosaic {
namespace {

/// Deepest pipeline of the derived grid (Megatron-scale runs go to PP 64, e.g. the 1T model of
/// arXiv:2205.05198 Table 3).
constexpr int kMaxDerivedPp = 64;
/// Largest expert-parallel degree of the derived grid (the envelope's limit on E and EP).
constexpr int kMaxDerivedEp = 4096;

}  // namespace

int roundedGlobalBatch(int requested, int dp, int mbs) {
    if (requested <= 0 || dp <= 0 || mbs <= 0) return 0;
    const long long unit = 1LL * dp * mbs;
    if (unit > requested) return 0;
    const long long nmb = (requested + unit / 2) / unit;  // nearest, ties to the larger
    return int(nmb * unit);
}

std::vector<MeshDegrees> tilingMeshes(const LayoutGrid& grid, int devices) {
    std::vector<MeshDegrees> out;
    for (int tp : grid.tp)
        for (int cp : grid.cp)
            for (int pp : grid.pp) {
                const long long inner = 1LL * tp * cp * pp;
                if (inner < 1 || inner > devices || devices % inner != 0) continue;
                out.push_back({tp, cp, pp, int(devices / inner)});
            }
    return out;
}

std::vector<int> meshDataParallelDegrees(const Cluster& c, const LayoutGrid& grid) {
    std::vector<int> out;
    for (const MeshDegrees& m : tilingMeshes(grid, c.devices)) out.push_back(m.dp);
    return out;
}

LayoutGrid derivedLayoutGrid(const Cluster& c, const LayoutGrid& base) {
    LayoutGrid g = base;
    const int n = c.devices;
    std::set<int> pp, ep;
    for (int tp : base.tp)
        for (int cp : base.cp) {
            if (tp < 1 || cp < 1 || n % (1LL * tp * cp) != 0) continue;
            const int rest = n / (tp * cp);
            for (int p = 1; p <= kMaxDerivedPp && p <= rest; ++p)
                if (rest % p == 0) pp.insert(p);
        }
    for (long long d = 1; d * d <= n; ++d)
        if (n % d == 0) {
            if (d <= kMaxDerivedEp) ep.insert(int(d));
            if (n / d <= kMaxDerivedEp) ep.insert(int(n / d));
        }
    g.pp.assign(pp.begin(), pp.end());
    g.ep.assign(ep.begin(), ep.end());
    if (g.pp.empty()) g.pp = {1};
    if (g.ep.empty()) g.ep = {1};
    return g;
}

LayoutSpace resolveLayoutSpace(const Cluster& c, const LayoutGrid& listed, LayoutGridRule rule) {
    LayoutSpace s;
    if (rule == LayoutGridRule::Auto) {
        if (!LayoutTable(c, listed).groups().empty()) {
            rule = LayoutGridRule::Listed;
        } else {
            rule = LayoutGridRule::Derived;
            s.note = "no layout of the listed grid fits " + std::to_string(c.devices) +
                     " GPUs with B_global " + std::to_string(c.globalBatch) +
                     " (TP CP PP DP = N_dev with DP x B_micro dividing B_global); using the grid "
                     "derived from the "
                     "cluster with B_global rounded per layout";
        }
    }
    s.rule = rule;
    if (rule == LayoutGridRule::Derived) {
        s.grid = derivedLayoutGrid(c, listed);
        s.roundBatch = true;
    } else {
        s.grid = listed;
    }
    return s;
}

LayoutSpace layoutSpaceOf(const Envelope& e) {
    return resolveLayoutSpace(clusterOf(e), layoutGridOf(e), e.layoutGrid);
}

std::vector<BatchTable> batchTables(const Cluster& c, const LayoutSpace& space) {
    std::vector<BatchTable> out;
    if (!space.roundBatch) {
        LayoutTable t(c, space.grid);
        if (!t.groups().empty()) out.push_back({c, std::move(t)});
        return out;
    }
    std::set<int> batches;
    for (int dp : meshDataParallelDegrees(c, space.grid))
        for (int mbs : space.grid.mbs)
            if (const int b = roundedGlobalBatch(c.globalBatch, dp, mbs)) batches.insert(b);
    std::vector<int> order(batches.begin(), batches.end());
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return std::abs(a - c.globalBatch) < std::abs(b - c.globalBatch);
    });
    for (int b : order) {
        Cluster cb = c;
        cb.globalBatch = b;
        LayoutTable t(cb, space.grid, c.globalBatch);
        if (!t.groups().empty()) out.push_back({cb, std::move(t)});
    }
    if (out.size() > 1) {
        LayoutTable::SharedIds ids;
        for (BatchTable& bt : out) bt.table.shareIds(ids);
        for (BatchTable& bt : out) {
            bt.sharedGroups = static_cast<int>(ids.groups.size());
            bt.sharedShapes = static_cast<int>(ids.shapes.size());
        }
    }
    return out;
}

Cluster clusterForPlan(const Cluster& c, const Plan& p, bool roundBatch) {
    Cluster out = c;
    if (roundBatch)
        if (const int b = roundedGlobalBatch(c.globalBatch, p.dp, p.mbs)) out.globalBatch = b;
    return out;
}

namespace {

/// Every structurally valid plan of the space with `evaluate(model, plan)` on its own batch, in
/// enumeration order (evaluateSpace, quickEvaluateSpace).
template <class Eval, class Evaluate>
std::vector<std::pair<Plan, Eval>> evaluateSpaceWith(const Geometry& g, const Cluster& c,
                                                     const LayoutSpace& space, Evaluate evaluate) {
    std::vector<std::pair<Plan, Eval>> out;
    if (!space.roundBatch) {
        const PerfModel m(g, c);
        for (const Plan& p : m.enumerate(space.grid)) out.emplace_back(p, evaluate(m, p));
        return out;
    }
    // Each plan on its own batch: enumerate per rounded batch, then restore enumeration order.
    // Plans whose DP x B_micro exceeds B_global have no batch and are left out (structural).
    struct Entry {
        Plan p;
        Eval e;
        long long key;
    };
    std::vector<Entry> all;
    for (const BatchTable& bt : batchTables(c, space)) {
        const PerfModel m(g, bt.cluster);
        for (const Plan& p : m.enumerate(space.grid)) {
            if (roundedGlobalBatch(c.globalBatch, p.dp, p.mbs) != bt.cluster.globalBatch) continue;
            all.push_back({p, evaluate(m, p), 0});
        }
    }
    // Enumeration order of PerfModel::enumerate: TP, CP, PP, EP, B_micro, checkpointing (grid
    // order).
    auto index = [](const std::vector<int>& v, int x) {
        return (long long)(std::find(v.begin(), v.end(), x) - v.begin());
    };
    for (Entry& en : all) {
        const auto& gr = space.grid;
        long long k = index(gr.tp, en.p.tp);
        k = k * 64 + index(gr.cp, en.p.cp);
        k = k * 128 + index(gr.pp, en.p.pp);
        k = k * 8192 + index(gr.ep, en.p.ep);
        k = k * 64 + index(gr.mbs, en.p.mbs);
        k = k * 8 +
            (long long)(std::find(gr.ckpt.begin(), gr.ckpt.end(), en.p.ckpt) - gr.ckpt.begin());
        en.key = k;
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const Entry& a, const Entry& b) { return a.key < b.key; });
    for (Entry& en : all) out.emplace_back(en.p, std::move(en.e));
    return out;
}

}  // namespace

std::vector<std::pair<Plan, PlanEval>> evaluateSpace(const Geometry& g, const Cluster& c,
                                                     const LayoutSpace& space) {
    return evaluateSpaceWith<PlanEval>(
        g, c, space, [](const PerfModel& m, const Plan& p) { return m.evaluate(p); });
}

std::vector<std::pair<Plan, QuickEval>> quickEvaluateSpace(const Geometry& g, const Cluster& c,
                                                           const LayoutSpace& space) {
    return evaluateSpaceWith<QuickEval>(
        g, c, space, [](const PerfModel& m, const Plan& p) { return m.quick(p); });
}

int planGlobalBatch(const Plan& p, const PlanEval& e) { return e.microbatches * p.dp * p.mbs; }

}  // namespace tandem::mosaic
