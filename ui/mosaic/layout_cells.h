#pragma once
// The PP x EP grid of one geometry's layouts, reduced to one cell per (PP, EP) for the heatmap
// [2608.10605 Sec. 5, App. D.1]. Plain C++ (no Qt): computed on the worker thread.
#include <string>
#include <vector>

#include "mosaic/envelope.h"
#include "mosaic/geometry.h"
#include "mosaic/perf_model.h"

namespace tandem::ui {

/// One (PP, EP) cell: the best feasible plan over the other axes (TP, CP, micro-batch,
/// checkpointing; DP follows from the device count), or why none is feasible.
struct LayoutCell {
    int pp = 1, ep = 1;
    bool feasible = false;  ///< some plan of the cell fits memory
    bool anyValid = false;  ///< some plan of the cell is structurally valid (else marked X)
    mosaic::Plan plan;      ///< best feasible plan (max MFU); when infeasible, the valid plan
                            ///< with the least memory
    mosaic::PlanEval eval;  ///< its evaluation (memoryGB set also when out of memory)
    std::string reason;     ///< why infeasible (empty when feasible)
};

/// Cells row-major: index = ppIndex * ep.size() + epIndex.
struct LayoutCells {
    std::vector<int> pp;  ///< envelope's pipeline_parallel_values
    std::vector<int> ep;  ///< envelope's expert_parallel_values
    std::vector<LayoutCell> cells;
    double maxMfu = 0;  ///< over feasible cells, in [0, 1]
    /// Index of the cell holding `p` (same PP and EP), -1 if none.
    int indexOf(const mosaic::Plan& p) const;
    /// Index of the feasible cell with the highest MFU, -1 if none.
    int bestIndex() const;
};

/// Reduces every structurally valid plan of the envelope's layout grid for `g` to PP x EP
/// cells, as mosaic::evaluatePlans would: per cell the feasible plan of the highest MFU (ties:
/// the first in enumeration order), else the valid plan of the least memory (ties: the first).
/// The plans are compared on PerfModel::quick (mosaic::quickEvaluateSpace) and only each cell's
/// chosen plan is evaluated in full. Cost: one quick evaluation per plan (a few thousand, ~1 ms)
/// and one full evaluation per cell.
LayoutCells layoutCells(const mosaic::Geometry& g, const mosaic::Envelope& e);

/// "TP 1, EP 8, PP 8, CP 1, DP 32": a plan's parallel axes.
std::string planAxesLabel(const mosaic::Plan& p);
/// "TP 1, EP 8, PP 8, CP 1, DP 32, mb 4, selective" for a plan (planAxesLabel, micro-batch,
/// checkpointing).
std::string planLabel(const mosaic::Plan& p);

}  // namespace tandem::ui
