#pragma once
// Co-running jobs beside the MoE job on one leaf/spine fabric (`mosaic.background`;
// docs/MODEL-NETWORK.md, "The papers joined"). The fluid network of ML-for-ML [2608.06046
// Sec. 3.2; fabric/] turns the background into the collective time-against-size curves the MoE
// job sees, and the MOSAIC performance model consumes them exactly as it consumes imported
// nccl-tests curves [2608.10605 Sec. 5.3, 5.4; mosaic/measured_collectives.h].
//
// How the curves are made, per group size n (2, 4, 8, ... nodes and the whole job) and traffic
// pattern (ring all-reduce, all-to-all):
//  1. The fabric is built with the MoE job placed first (so its nodes do not depend on how
//     many jobs run beside it) and the background jobs on the nodes left (fabric::buildFabric);
//     the MoE job's nodes are cut into groups of n that all run the collective at once
//     (fabric::concurrentGroupsRoute).
//  2. The MoE job is kept on the wire (its busiest phase: back-to-back chunks of 1/8 of a
//     background cycle) while the background jobs alternate compute and ring all-reduce, closed
//     loop (fabric::FabricSim). The chunks' times give the job's rate over 24 background cycles.
//  3. A transfer of the bytes the job's NICs move in D seconds on an idle, non-blocking fabric
//     takes T(D) on that trace (averaged over 128 start times, the trace repeated); the
//     slowdown is T(D) / D (1 on an idle non-blocking fabric; above 1 when an oversubscribed
//     uplink or a hashed spine path is shared, by the background or by the job's own groups).
//  4. Curve of collective c over n x gpusPerNode packed ranks at size S: the time the engine
//     would use without background, t0 = collectiveTime(hw, c, S, ranks, 1) (analytical, or the
//     imported nccl-tests curves), becomes latency + (t0 - latency) x slowdown(t0 - latency).
// When no slowdown exceeds 1 the hardware is returned unchanged (exactly the idle result).
#include <exception>  // before common/cancel.h, which uses std::exception
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/cancel.h"
#include "common/field_table.h"
#include "fabric/background_job.h"
#include "fabric/topology.h"
#include "mosaic/hardware.h"

namespace tandem {
class JsonReader;
}

namespace tandem::mosaic {

/// The jobs that share the MoE job's fabric (JSON object `mosaic.background`).
struct BackgroundLoad {
    int jobs = 0;               ///< `jobs`: co-running data-parallel jobs, in [0, 1024]
    fabric::BackgroundJob job;  ///< `job`: each one (same keys as ml_for_ml.background_job)
    /// `topology`: a leaf_spine fabric (default preset "leaf-spine-4to1", 1024 nodes); the MoE
    /// job's node NICs are the envelope's hardware (gpus_per_node x nic_Gbps_per_gpu).
    fabric::Topology topology = defaultTopology();
    /// `placement`: "foreground" is the MoE job, "background" the co-running jobs.
    fabric::Placement placement;

    static fabric::Topology defaultTopology();
};

bool operator==(const BackgroundLoad& a, const BackgroundLoad& b);

/// Reads `mosaic.background` into `b` (every key optional). Errors at the key's path: jobs
/// outside [0, 1024], a topology of kind "shared" (the MoE workspace needs leaves and uplinks),
/// any error of readBackgroundJob / readTopology / readPlacement. Calls r.finish().
void readBackground(tandem::JsonReader r, BackgroundLoad& b);
nlohmann::ordered_json writeBackground(const BackgroundLoad& b);

/// A key of `mosaic.background` (tandem::Field, common/field_table.h).
using BackgroundField = tandem::Field<BackgroundLoad>;
/// Every key of `mosaic.background`, in the order readBackground reads and writeBackground
/// writes them: `jobs` (an integer in [0, 1024]), then the objects `job`
/// (fabric::backgroundJobFields()), `topology` (fabric::topologyFields(), of kind leaf_spine)
/// and `placement` (fabric::placementFields()), each read and written by its row.
const std::vector<BackgroundField>& backgroundFields();

/// Most co-running jobs `b`'s fabric holds beside a MoE job of `moeNodes` nodes: the number of
/// explicit node lists for an "explicit" background placement, else (topology nodes - moeNodes)
/// / job nodes, at most the 1024 `jobs` allows; 0 when not even one fits. What the GUI's
/// co-running-job levels and slider stop at (buildFabric rejects one more).
int maxBackgroundJobs(const BackgroundLoad& b, int moeNodes);

/// Scenario keys named by errors about the background fabric.
fabric::FabricKeys backgroundFabricKeys();

/// One slowdown curve of the co-run model (step 3 above).
struct CoRunSlowdown {
    int groupNodes = 0;  ///< n, nodes per group
    fabric::Collective traffic = fabric::Collective::AllReduce;
    std::vector<double> idleSeconds;  ///< D, ascending
    std::vector<double> slowdown;     ///< T(D) / D, >= 1 up to rounding
};

/// The co-run model of one MoE job of `nodes` nodes of `hw` beside `bg`.
struct CoRunModel {
    /// Curves for collectiveTime() (step 4), with every intra-node curve of hw.measured kept;
    /// nullptr when no slowdown exceeds 1 (use hw unchanged).
    std::shared_ptr<const MeasuredCollectives> curves;
    std::vector<CoRunSlowdown> slowdowns;  ///< per group size and traffic pattern
    double largestSlowdown = 1;            ///< max over every curve
    /// Fabric links (leaf and spine bundles, not NICs) the MoE job's routes cross that a
    /// co-running job's route crosses too, over every group size and pattern traced: 0 when the
    /// placement keeps the jobs apart (the background then cannot slow the job).
    int sharedLinks = 0;
};

/// Builds the co-run model (steps 1-4). Throws std::invalid_argument naming the key when the
/// fabric cannot hold the jobs (mosaic.background.topology.nodes) or a placement list is
/// wrong, std::runtime_error beyond the simulation's event budget, tandem::Cancelled when
/// `cancel` is raised. Deterministic. Cost: ~1-20 ms for 32 nodes and 16 jobs (bench
/// `mosaic_corun_curves_ms`).
CoRunModel coRunModel(const Hardware& hw, int nodes, const BackgroundLoad& bg,
                      const tandem::CancelFlag* cancel = nullptr);

/// Most leaf links the MoE job's summed route may cross in the co-run model: 8192. Its cost
/// grows with those links (every flow event refills them): on 65536 leaves x 8 spines under
/// hashed ECMP a 512-node MoE job (8192 links) took 11-27 s, 1024 nodes 45 s, 2048 over 60 s;
/// under "equal" 4096 nodes (8192 links) 6-11 s (docs/MODEL-NETWORK.md section 7).
constexpr long long kMaxCoRunRouteLinks = 8192;

/// Upper bound of the leaf links the MoE job of `nodes` nodes crosses on `bg`'s fabric, from
/// the keys alone: 2 x min(nodes, leaves) x (spines under hashed ECMP, else 1).
long long coRunRouteLinks(int nodes, const BackgroundLoad& bg);

/// Throws fabric::FabricError at "mosaic.nodes" when coRunRouteLinks(nodes, bg) exceeds
/// kMaxCoRunRouteLinks, saying the limit and what to lower.
void checkCoRunSize(int nodes, const BackgroundLoad& bg);

/// Report block of a co-run model for `mosaic_result.json`: {"jobs", "largest_slowdown",
/// "curves_attached", "slowdowns": [{"group_nodes", "traffic" ("all_reduce" | "alltoall"),
/// "idle_s": [...], "slowdown": [...]}]} at idle durations of 1 ms, 10 ms, 100 ms, 1 s, 10 s.
nlohmann::ordered_json coRunReport(const CoRunModel& m, const BackgroundLoad& bg);

/// What `bg`'s jobs do to the MoE job, in one line (MODEL.md A7), from the co-run model `m`:
/// "8 co-running jobs share no link with this job under packed placement: no slowdown";
/// "... share 12 links with this job under random placement but slow none of its
/// collectives"; "... share 12 links ...: its collectives slow down by up to 1.23x". A slowdown
/// without shared links is the job's own groups' (it says so). "" when bg has no jobs. The
/// placement is named once when both jobs use the same policy, else "spread placement of this
/// job, random of theirs".
std::string coRunSentence(const CoRunModel& m, const BackgroundLoad& bg);

/// coRunSentence of the co-run model of a MoE job of `nodes` nodes of `hw` beside `bg`, kept
/// with hardwareUnderBackground's cached curves (a search has built it: no second model).
/// "" when bg has no jobs. Same errors as coRunModel.
std::string coRunNote(const Hardware& hw, int nodes, const BackgroundLoad& bg,
                      const tandem::CancelFlag* cancel = nullptr);

/// `hw` with the co-run curves of coRunModel attached (hw unchanged when none slows down).
/// The last few models are cached (keyed by every input), so a search, its heatmap and a
/// slider that moves another quantity build them once. Same errors as coRunModel.
Hardware hardwareUnderBackground(const Hardware& hw, int nodes, const BackgroundLoad& bg,
                                 const tandem::CancelFlag* cancel = nullptr);

}  // namespace tandem::mosaic
