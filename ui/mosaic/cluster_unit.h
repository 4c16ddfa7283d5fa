#pragma once
// What the MoE workspace's cluster-size control counts: nodes of a few GPUs, or racks on
// rack-scale hardware whose NVLink domain is a whole rack (gb200-nvl72, gb300-nvl72: 72 GPUs,
// mosaic::Hardware::gpusPerNode). Display-free.
#include <QString>

#include "mosaic/hardware.h"

namespace tandem::ui {

/// The unit of `mosaic.nodes` on one hardware.
struct ClusterUnit {
    bool rack = false;  ///< one unit is a rack (its NVLink domain spans 36 GPUs or more)
    int gpus = 8;       ///< GPUs per unit (gpusPerNode)
    QString singular;   ///< "node" / "rack"
    QString plural;     ///< "nodes" / "racks"
};

/// The unit of `h`: a rack when h.gpusPerNode >= kRackGpus, else a node.
ClusterUnit clusterUnit(const mosaic::Hardware& h);
/// The unit of hardware with `gpusPerUnit` GPUs per node (clusterUnit's rule).
ClusterUnit clusterUnitOf(int gpusPerUnit);
/// NVLink domains of this many GPUs or more are racks (NVL36, NVL72).
constexpr int kRackGpus = 36;

/// The cluster control's label: "1 rack (72 GPUs)", "4 racks (288 GPUs)"; nodes as before,
/// "1 node", "32 nodes".
QString clusterSizeText(int units, const ClusterUnit& u);

/// The whole number of units of `gpusPerUnit` GPUs nearest to `gpus` (the smaller one on a
/// tie), in [1, maxUnits].
int unitsNearestGpus(int gpus, int gpusPerUnit, int maxUnits);

/// The status line's sentence for a switch to hardware `h` whose unit differs from the one
/// before: "gb200-nvl72 counts racks of 72 GPUs: 256 GPUs became 4 racks (288 GPUs), the
/// nearest whole number of racks." or, when the GPU count is kept, "... 144 GPUs kept as 2 racks
/// (144 GPUs)." `before` is the GPU count before, `units` the new count of `h`'s unit.
QString unitChangeNote(const mosaic::Hardware& h, int before, int units);

}  // namespace tandem::ui
