#pragma once
// Which (TP, CP, PP) of a layout grid tile the devices: the one rule PerfModel::enumerate,
// LayoutTable and meshDataParallelDegrees share [2608.10605 App. D.1: N_dev = TP CP PP DP].
#include <vector>

#include "mosaic/perf_model.h"

namespace tandem::mosaic {

/// A (TP, CP, PP) of a grid whose product divides the devices, with DP = N_dev / (TP CP PP).
struct MeshDegrees {
    int tp = 1, cp = 1, pp = 1, dp = 1;
};

/// Every (TP, CP, PP) of `grid` with degrees whose product is in [1, devices] and divides
/// `devices`, in grid order (TP outermost, PP innermost), repeats kept. O(|TP| |CP| |PP|), no
/// errors.
std::vector<MeshDegrees> tilingMeshes(const LayoutGrid& grid, int devices);

}  // namespace tandem::mosaic
