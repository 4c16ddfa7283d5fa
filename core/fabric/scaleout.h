#pragma once
// Scale-out node hardware and idle-fabric collectives from the fluid model
// [docs/MODEL-NETWORK.md section 4]: the inter-node part of an NCCL all-reduce or all-to-all
// over n nodes is a flow of wire bytes through each node's NICs on an otherwise idle
// non-blocking fabric, plus one fixed start-up time per collective. Checked against nccl-tests
// logs (io/nccl_tests.h) of the same hardware.
#include <string>
#include <vector>

#include "fabric/topology.h"
#include "io/nccl_tests.h"

namespace tandem::fabric {

/// One built-in scale-out node and its NCCL stack constants (fitted by fitStackConstants to
/// every measured row >= 64 MiB of the logs named in docs/MODEL-NETWORK.md, all at once).
struct ScaleOutHardware {
    std::string name;  ///< e.g. "p5-efa"
    std::string gpu;   ///< GPU model, as nccl-tests' device lines print it
    int gpusPerNode = 8;
    int nicsPerNode = 8;             ///< scale-out NICs (rails)
    double nicBytesPerS = 0;         ///< line rate of one NIC, bytes/s
    double latencyS = 0;             ///< fixed time of one collective, s (fitted)
    double allReduceEfficiency = 1;  ///< achieved / line rate of all-reduce traffic (fitted)
    double allToAllEfficiency = 1;   ///< same for all-to-all (fitted; 0 = no measurement)
    std::string source;              ///< where the NIC figures come from
    double nodeBytesPerS() const { return nicsPerNode * nicBytesPerS; }
};

/// The built-in scale-out nodes.
const std::vector<ScaleOutHardware>& scaleOutHardware();
/// The built-in of that name, nullptr if none.
const ScaleOutHardware* findScaleOutHardware(const std::string& name);

/// Wire bytes each node's NICs carry for one collective of `bytes` per rank (the nccl-tests
/// `size` column) over `nodes` nodes of `gpusPerNode` GPUs: all-reduce (reduce-scatter over
/// NVLink, the shards all-reduced across nodes, all-gather over NVLink) 2(n-1)/n x bytes;
/// all-to-all gpusPerNode x (n-1)/n x bytes (the part that leaves the node). 0 for one node.
double interNodeWireBytes(Collective c, int nodes, int gpusPerNode, double bytes);

/// nccl-tests bus bandwidth of a collective of `bytes` per rank over `ranks` GPUs taking
/// `seconds`: 2(N-1)/N x bytes / t (all-reduce), (N-1)/N x bytes / t (all-to-all), bytes/s.
double busBandwidth(Collective c, int ranks, double bytes, double seconds);

/// Time of one collective on an idle non-blocking fabric of `nodes` nodes of `hw`, s: the
/// fluid network (FabricSim on a one-leaf leaf_spine fabric, NIC rate x the collective's
/// efficiency) moves the inter-node wire bytes, plus hw.latencyS. Throws std::invalid_argument
/// when `hw` has no efficiency for `c` (no log measured it).
double idleCollectiveTime(const ScaleOutHardware& hw, Collective c, int nodes, double bytes);

/// One measured row for the fit.
struct MeasuredCollective {
    Collective collective;
    int nodes = 0;
    double bytes = 0;      ///< per rank
    double busbw_Bps = 0;  ///< measured bus bandwidth
};

/// Rows of an nccl-tests curve on `hw` usable for the check: all-reduce or all-to-all, over
/// more than one node (ranks a multiple of hw.gpusPerNode), sizes >= minBytes. Empty when the
/// curve is another collective or a single node.
std::vector<MeasuredCollective> measuredRows(const io::NcclCurve& curve, const ScaleOutHardware& hw,
                                             double minBytes = 64.0 * 1024 * 1024);

/// Fitted stack constants and the largest |relative error| of bus bandwidth over the rows.
struct StackFit {
    double latencyS = 0, allReduceEfficiency = 1, allToAllEfficiency = 1;
    double maxAbsError = 0;
};
/// Fits latency and the two efficiencies of `hw` to every row at once, minimising the largest
/// |model / measured - 1| of bus bandwidth (latency in [0, 5 ms], efficiencies in (0, 1]).
/// The analytic form of idleCollectiveTime is used (the fluid model's idle-fabric time is the
/// wire bytes over the NIC rate).
StackFit fitStackConstants(const ScaleOutHardware& hw, const std::vector<MeasuredCollective>& rows);

}  // namespace tandem::fabric
