#include "ui/mosaic/layout_cells.h"

#include "mosaic/layout_grid.h"
#include "mosaic/search.h"

namespace tandem::ui {

int LayoutCells::indexOf(const mosaic::Plan& p) const {
    for (size_t i = 0; i < cells.size(); ++i)
        if (cells[i].pp == p.pp && cells[i].ep == p.ep) return static_cast<int>(i);
    return -1;
}

int LayoutCells::bestIndex() const {
    int best = -1;
    for (size_t i = 0; i < cells.size(); ++i)
        if (cells[i].feasible &&
            (best < 0 || cells[i].eval.mfu > cells[static_cast<size_t>(best)].eval.mfu))
            best = static_cast<int>(i);
    return best;
}

std::string planAxesLabel(const mosaic::Plan& p) {
    return "TP " + std::to_string(p.tp) + ", EP " + std::to_string(p.ep) + ", PP " +
           std::to_string(p.pp) + ", CP " + std::to_string(p.cp) + ", DP " + std::to_string(p.dp);
}

std::string planLabel(const mosaic::Plan& p) {
    return planAxesLabel(p) + ", mb " + std::to_string(p.mbs) + ", " +
           mosaic::checkpointingName(p.ckpt);
}

LayoutCells layoutCells(const mosaic::Geometry& g, const mosaic::Envelope& e) {
    LayoutCells out;
    // The searched grid: the listed values, or the grid derived from the cluster [layout_grid.h].
    const mosaic::LayoutSpace space = mosaic::layoutSpaceOf(e);
    out.pp = space.grid.pp;
    out.ep = space.grid.ep;
    out.cells.resize(out.pp.size() * out.ep.size());
    for (size_t i = 0; i < out.pp.size(); ++i)
        for (size_t j = 0; j < out.ep.size(); ++j) {
            LayoutCell& c = out.cells[i * out.ep.size() + j];
            c.pp = out.pp[i];
            c.ep = out.ep[j];
        }
    // Each cell's plan is chosen on the quick evaluation of every plan (the same feasibility,
    // MFU and memory as the full one), then only the chosen plans are evaluated in full.
    const mosaic::Cluster cluster = mosaic::clusterOf(e);
    std::vector<mosaic::QuickEval> chosen(out.cells.size());
    for (const auto& [plan, q] : mosaic::quickEvaluateSpace(g, cluster, space)) {
        const int idx = out.indexOf(plan);
        if (idx < 0) continue;
        LayoutCell& c = out.cells[static_cast<size_t>(idx)];
        mosaic::QuickEval& best = chosen[static_cast<size_t>(idx)];
        const bool first = !c.anyValid;
        c.anyValid = true;
        if (q.feasible) {
            if (!c.feasible || q.mfu > best.mfu) {
                c.feasible = true;
                c.plan = plan;
                best = q;
            }
        } else if (!c.feasible && (first || q.memoryBytes / 1e9 < best.memoryBytes / 1e9)) {
            c.plan = plan;  // the least memory, compared in GB as PlanEval::memoryGB
            best = q;
        }
    }
    for (LayoutCell& c : out.cells) {
        if (!c.anyValid) continue;
        c.eval = mosaic::PerfModel(g, mosaic::clusterForPlan(cluster, c.plan, space.roundBatch))
                     .evaluate(c.plan);
        c.reason = c.feasible ? std::string() : c.eval.reason;
    }
    for (LayoutCell& c : out.cells) {
        if (c.feasible) out.maxMfu = std::max(out.maxMfu, c.eval.mfu);
        if (c.anyValid) continue;
        // No plan of the grid is valid here: report why for the simplest plan of the cell.
        mosaic::Plan p;
        p.pp = c.pp;
        p.ep = c.ep;
        if (cluster.devices % c.pp != 0) {
            c.reason = "PP must divide the device count";
            continue;
        }
        p.dp = cluster.devices / c.pp;
        // On its own batch when the grid rounds B_global (layout_grid.h).
        const mosaic::PerfModel model(g, mosaic::clusterForPlan(cluster, p, space.roundBatch));
        const char* err = model.structuralError(p);
        c.reason = err ? err : "no combination of TP, CP and micro-batch of the grid is valid";
    }
    return out;
}

}  // namespace tandem::ui
