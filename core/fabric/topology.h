#pragma once
// The cluster network as data [MODEL.md A3; docs/MODEL-NETWORK.md]: either the calibrated
// single shared capacity of [2608.06046 Sec. 3.2] ("paper-fabric") or a two-tier leaf/spine
// fabric of nodes with one NIC per GPU (rails), leaf switches of K nodes whose uplinks set an
// oversubscription ratio, and a spine tier. Jobs are placed on nodes (packed, spread, random or
// explicit lists) and each job's all-reduce is turned into a route: the links it crosses and
// how many bytes each carries per byte a node puts on the wire. The fluid network
// (fabric/fluid.h) shares those links max-min fairly.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/enum_names.h"
#include "fabric/fluid.h"

namespace tandem {
class JsonReader;
}

namespace tandem::fabric {

/// What kind of fabric a topology is (`kind`).
enum class FabricKind {
    /// "shared": one capacity (ml_for_ml.fabric_GBps) that every inter-node flow crosses, plus
    /// one NIC per node (ml_for_ml.nic_GBps) [2608.06046 Sec. 3.2].
    Shared,
    LeafSpine,  ///< "leaf_spine": nodes under leaf switches, leaves under a spine tier
};
/// "shared", "leaf_spine".
const EnumTable<FabricKind>& fabricKindNames();
const char* name(FabricKind k);

/// How a leaf spreads traffic over its spine uplinks (`ecmp`).
enum class Ecmp {
    Equal,  ///< "equal": every byte split evenly, the ideal of ECMP/packet spraying
    /// "hash": each rail's flow of each ring hop is hashed onto one spine, as per-flow ECMP
    /// does; collisions share one uplink.
    Hash,
};
/// "equal", "hash".
const EnumTable<Ecmp>& ecmpNames();
const char* name(Ecmp e);

/// The all-reduce algorithm of every job (`allreduce`).
enum class AllReduceAlgorithm {
    Ring,  ///< "ring": one ring in placement order
    /// "hierarchical": reduce-scatter inside each leaf, all-reduce of the shards across
    /// leaves, all-gather inside each leaf.
    Hierarchical,
};
/// "ring", "hierarchical".
const EnumTable<AllReduceAlgorithm>& allReduceAlgorithmNames();
const char* name(AllReduceAlgorithm a);

/// How a job's nodes are chosen (`placement.foreground`, `placement.background`).
enum class PlacementPolicy {
    Packed,    ///< "packed": lowest free nodes, leaf by leaf
    Spread,    ///< "spread": round-robin over leaves
    Random,    ///< "random": a seeded shuffle of the free nodes
    Explicit,  ///< "explicit": the node lists of the placement
};
/// "packed", "spread", "random", "explicit".
const EnumTable<PlacementPolicy>& placementPolicyNames();
const char* name(PlacementPolicy p);

/// A fabric description (JSON object `ml_for_ml.topology`).
struct Topology {
    /// Built-in the description started from (`preset`): "paper-fabric", "leaf-spine",
    /// "leaf-spine-2to1", "leaf-spine-4to1" (topologyPresetNames()).
    std::string preset = "paper-fabric";
    FabricKind kind = FabricKind::Shared;  ///< shared paper-fabric or two tiers (`kind`)
    int nodes = 1024;                      ///< nodes attached to the fabric (leaf_spine)
    int nodesPerLeaf = 16;                 ///< K, nodes under one leaf switch
    int spines = 16;  ///< spine switches; every leaf has one uplink bundle to each
    /// Leaf downlink over uplink capacity (>= 1; 1 = non-blocking): a leaf's uplinks carry
    /// K x nic_GBps / oversubscription in each direction.
    double oversubscription = 1.0;
    Ecmp ecmp = Ecmp::Equal;  ///< how a leaf spreads traffic over its spine uplinks (`ecmp`)
    /// All-reduce algorithm of every job (`allreduce`).
    AllReduceAlgorithm allreduce = AllReduceAlgorithm::Ring;
};

/// Where the jobs sit (JSON object `ml_for_ml.placement` or `mosaic.background.placement`).
/// In ML-for-ML the background jobs are placed first (in job order, the most a scenario can run
/// at once), the foreground on the nodes left; the MoE job is placed first (buildFabric's
/// `foregroundFirst`).
struct Placement {
    /// How the foreground's and the background jobs' nodes are chosen (Explicit: the node lists
    /// below).
    PlacementPolicy foreground = PlacementPolicy::Packed;
    PlacementPolicy background = PlacementPolicy::Packed;
    std::uint64_t seed = 1;                         ///< shuffle seed of "random"
    std::vector<int> foregroundNodes;               ///< "explicit": node ids, ring order
    std::vector<std::vector<int>> backgroundNodes;  ///< "explicit": one list per job
};

/// Names of the built-in topologies, in menu order; the first is the default.
const std::vector<std::string>& topologyPresetNames();
/// The built-in topology `name`; false when there is none of that name.
bool topologyPreset(const std::string& name, Topology& out);

/// Reads `ml_for_ml.topology` into `t` (starting from `preset` when given, then every other key
/// overriding it). Ranges (physical): nodes in [1, 65536], nodes_per_leaf in [1, 4096], spines
/// in [1, 4096], oversubscription in [1, 64] (a ratio below 1 only adds unused uplinks);
/// errors name the key. Calls r.finish().
void readTopology(tandem::JsonReader r, Topology& t);
void readPlacement(tandem::JsonReader r, Placement& pl);
nlohmann::ordered_json writeTopology(const Topology& t);
nlohmann::ordered_json writePlacement(const Placement& pl);
bool operator==(const Topology& a, const Topology& b);
bool operator==(const Placement& a, const Placement& b);

/// A fabric built for a set of jobs: link capacities (bytes/s) and, per job, its node list (ring
/// order) and route. Job order: background jobs 0..B-1, then the foreground.
struct FabricPlan {
    std::vector<double> linkCapacity;
    std::vector<std::vector<int>> jobNodes;
    std::vector<Route> jobRoutes;
    std::vector<std::string> linkNames;  ///< e.g. "nic job 3", "leaf 2 up", "leaf 2 up spine 5"
};

/// The collective whose traffic a route carries.
enum class Collective { AllReduce, AllToAll };
/// "all_reduce", "alltoall": the nccl-tests names, as io::NcclCurve::collective holds them.
const EnumTable<Collective>& collectiveNames();
const char* name(Collective c);

/// An error of buildFabric: the scenario key it is about (e.g. "ml_for_ml.topology.nodes",
/// "mosaic.background.placement.background_nodes[2]") and the reason, as data; what() is
/// "<key>: <reason>".
class FabricError : public std::invalid_argument {
public:
    FabricError(std::string key, std::string reason);
    const std::string& key() const { return m_key; }
    const std::string& reason() const { return m_reason; }

private:
    std::string m_key, m_reason;
};

/// Scenario keys the errors of buildFabric name: the topology and placement objects the fabric
/// was read from, e.g. "ml_for_ml.topology" or "mosaic.background.topology".
struct FabricKeys {
    std::string topology = "ml_for_ml.topology";
    std::string placement = "ml_for_ml.placement";
};

/// Places `backgroundJobs` jobs of `backgroundNodes` nodes and a foreground of
/// `foregroundNodes` nodes on a leaf_spine topology whose nodes carry `nicBytesPerS` of
/// scale-out each (`gpusPerNode` rails), and routes every job's all-reduce. Errors
/// (FabricError, naming the key): more nodes needed than the fabric has
/// (<keys.topology>.nodes), explicit lists of the wrong length, with repeated, out-of-range
/// or shared node ids (<keys.placement>.*). `foregroundFirst`: the foreground takes its nodes
/// before the background jobs (its placement then does not depend on their count; the MoE
/// workspace's job is placed so); by default it takes the nodes they leave.
FabricPlan buildFabric(const Topology& t, const Placement& pl, int backgroundJobs,
                       int backgroundNodes, int foregroundNodes, double nicBytesPerS,
                       int gpusPerNode, const FabricKeys& keys = FabricKeys{},
                       bool foregroundFirst = false);

/// Route of `groupSize`-node groups of one job running the same collective at once: `nodes`
/// (the job's nodes, placement order) cut into consecutive groups of `groupSize` (the last one
/// may be smaller), each routed as collective `c` (all-reduce: ring or hierarchical as
/// t.allreduce says; all-to-all: every node sends 1/(m-1) of its wire bytes to each other
/// member, so a leaf with a of a group's m nodes sends a (m - a)/(m - 1) node-shares up), the
/// leaf and spine shares of all groups summed. All groups then move at one rate, the pace of
/// the slowest link, as the synchronous steps of one training job do. The node's NIC link
/// `nicLink` carries share 1 (each node belongs to one group). `groupSize` >= 2; `t` must be a
/// leaf_spine topology covering every node id; `gpusPerNode` rails for Ecmp::Hash, `salt`
/// seeds its hashing.
Route concurrentGroupsRoute(const Topology& t, const std::vector<int>& nodes, int groupSize,
                            Collective c, int nicLink, int gpusPerNode, std::uint64_t salt);

}  // namespace tandem::fabric
