#pragma once
// The cluster network as data [MODEL.md A3; docs/MODEL-NETWORK.md]: either the calibrated
// single shared capacity of [2608.06046 Sec. 3.2] ("paper-fabric") or a two-tier leaf/spine
// fabric of nodes with one NIC per GPU (rails), leaf switches of K nodes whose uplinks set an
// oversubscription ratio, and a spine tier (or, three tiers, pods of leaves with their own spines
// under a core tier); the rails either all go to one leaf per node or, rail-optimised, GPU i of
// every node of a scalable unit to the unit's rail leaf i. The switch fabric may come in several
// planes, and links and switches may have failed. Jobs are placed
// on nodes (packed, spread, random or explicit lists) and each job's all-reduce is turned into a
// route: the links it crosses and how many bytes each carries per byte a node puts on the wire. The
// fluid network (fabric/fluid.h) shares those links max-min fairly.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/enum_names.h"
#include "common/field_table.h"
#include "common/json_reader.h"
#include "fabric/fluid.h"
#include "io/collective.h"

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

/// How a node's GPU NICs (rails) meet the leaves (`rails`).
enum class Rails {
    /// "none": every NIC of a node goes to the node's one leaf; a leaf has nodes_per_leaf nodes.
    None,
    /// "optimised": rail-optimised [NVIDIA DGX SuperPOD reference architecture]: a scalable unit
    /// of nodes_per_leaf nodes has one rail leaf per GPU of a node (gpus_per_node); GPU i of
    /// every node of the unit is cabled to rail leaf i, and every rail leaf has its own uplinks
    /// to the spines. Traffic between GPUs of one rail in one unit turns at its rail leaf.
    Optimised,
};
/// "none", "optimised".
const EnumTable<Rails>& railsNames();
const char* name(Rails r);

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

/// One failed link or switch of a leaf_spine fabric (an entry of `failed`): its name and the
/// fraction of its capacity left.
struct LinkFailure {
    /// A switch: "leaf3" (rails "optimised": "su1-rail3"), "spine5" (tiers 3: "pod1-spine5"),
    /// "core2"; or a cable bundle between two of them, both directions: "leaf3-spine5"
    /// ("su1-rail3-spine5"; tiers 3: spine 5 of the leaf's pod), "pod1-spine5-core2". With planes
    /// > 1 a "plane1-" prefix names one plane's copy; without it every plane's.
    std::string name;
    /// Fraction of the capacity left, in [0, 1] (0 = down). A switch scales every cable bundle it
    /// terminates; fractions of one bundle multiply.
    double capacity = 0.0;
};
bool operator==(const LinkFailure& a, const LinkFailure& b);

/// A fabric description (JSON object `ml_for_ml.topology`).
struct Topology {
    /// Built-in the description started from (`preset`): "paper-fabric", "leaf-spine",
    /// "leaf-spine-2to1", "leaf-spine-4to1", "rail-optimised", "nvl72"
    /// (topologyPresetNames()).
    std::string preset = "paper-fabric";
    FabricKind kind = FabricKind::Shared;  ///< shared paper-fabric or two tiers (`kind`)
    int nodes = 1024;                      ///< nodes attached to the fabric (leaf_spine)
    /// K, nodes under one leaf switch; rail-optimised: nodes of one scalable unit (each of its
    /// rail leaves has one port to each of them).
    int nodesPerLeaf = 16;
    Rails rails = Rails::None;  ///< one leaf per node, or rail-optimised units (`rails`)
    /// Spine switches (tiers 3: of each pod); every leaf has one uplink bundle to each.
    int spines = 16;
    /// Leaf downlink over uplink capacity (>= 1; 1 = non-blocking): a leaf's uplinks carry
    /// K x nic_GBps / oversubscription in each direction.
    double oversubscription = 1.0;
    Ecmp ecmp = Ecmp::Equal;  ///< how a leaf spreads traffic over its spine uplinks (`ecmp`)
    /// All-reduce algorithm of every job (`allreduce`).
    AllReduceAlgorithm allreduce = AllReduceAlgorithm::Ring;
    /// Switch tiers (`tiers`): 2 = leaf/spine; 3 = a fat tree: leaves grouped in pods of
    /// leavesPerPod, each pod with its own `spines` spines, and a core tier of `cores` switches
    /// to which every spine has one uplink bundle. Traffic between leaves of one pod turns at
    /// the pod's spines, between pods it crosses the core.
    int tiers = 2;
    int leavesPerPod = 8;  ///< tiers 3: leaves (rails "optimised": units) of one pod
    int cores = 16;        ///< tiers 3: core (super-spine) switches
    /// tiers 3: a pod's spine downlink over core-uplink capacity (>= 1; 1 = non-blocking): the
    /// spines of a pod carry leavesPerPod leaf uplinks' capacity / this ratio to the core.
    double spineOversubscription = 1.0;
    /// Independent copies of the leaf/spine(/core) fabric (`planes`); every node's NIC bandwidth
    /// is split evenly over them and each plane carries 1/planes of every flow.
    int planes = 1;
    /// Failed links and switches (`failed`); empty = none.
    std::vector<LinkFailure> failed;
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

/// Most nodes a fabric has (`nodes`); node ids of a placement are in [0, kMaxFabricNodes - 1].
constexpr long long kMaxFabricNodes = 65536;

/// Most leaf links (uplink and downlink bundles) a fabric may hold: 2^20. Hashed ECMP holds one
/// per leaf, spine and direction, so the links grow with leaves x spines; at this limit (65536
/// leaves x 8 spines) `tandem-cli run` of examples/mlforml-fabric-scaling.json's jobs takes
/// 0.7 s and 182 MB, `scaling` 18 s and 182 MB; 2^21 links took 30 s, 256 spines 3 GB per
/// fabric (docs/MODEL-NETWORK.md section 6). buildFabric refuses more, naming the key.
constexpr long long kMaxFabricLinks = 1LL << 20;
/// Most GPUs per node times planes (flows per ring hop) under hashed ECMP: each rail's flow of
/// each hop in each plane is simulated on its own, and a node-count sweep (`scaling`) over 72-GPU
/// NVL72 racks with hashed ECMP took 89 s of CPU, past the 60 s bound; 8-GPU nodes at the link
/// limit take 42 s.
constexpr int kMaxHashedFlowsPerHop = 8;

/// One key of a topology (`T` = Topology) or placement (`T` = Placement) object (tandem::Field,
/// common/field_table.h): the single definition its reader, writer and checks take the key, unit,
/// range and meaning from. A word key (a preset name or an enum's names) has `words`, `getWord`
/// and `setWord`, an integer or number key `get` and `set`; a node list or the `failed` list its
/// own `read` and `write` (`range`: each node id or capacity, `maxItems`: most entries). Word and
/// numeric keys are looked at only when present (onlyWhenPresent).
template <class T>
using FabricField = tandem::Field<T>;
/// A key of `ml_for_ml.topology` / `mosaic.background.topology`.
using TopologyField = FabricField<Topology>;
/// A key of `ml_for_ml.placement` / `mosaic.background.placement`.
using PlacementField = FabricField<Placement>;

/// Every key of a topology object, in the order the reader reads and the writer writes them:
/// `preset` (topologyPresetNames(); applied before the other keys), `kind`, `nodes` in
/// [1, kMaxFabricNodes], `nodes_per_leaf` in [1, 4096], `rails`, `spines` in [1, 4096],
/// `oversubscription` in [1, 64], `ecmp`, `allreduce`, `tiers` in [2, 3], `leaves_per_pod` in
/// [1, 4096], `cores` in [1, 4096], `spine_oversubscription` in [1, 64], `planes` in [1, 16],
/// `failed` (at most 4096 entries {"name", "capacity" in [0, 1]}); the keys after `allreduce`
/// are written only off their defaults.
const std::vector<TopologyField>& topologyFields();
/// Every key of a placement object, in the order the reader reads and the writer writes them:
/// `foreground`, `background` (placementPolicyNames()), `seed` in [0, 2^53 - 1],
/// `foreground_nodes` (at most kMaxFabricNodes ids) and `background_nodes` (at most 1024
/// lists), ids in [0, kMaxFabricNodes - 1]; the two lists are written only when not empty.
const std::vector<PlacementField>& placementFields();

/// Name of the built-in topology of GB200/GB300 NVL72 racks: one node is one rack of kNvl72Gpus
/// GPUs sharing one NVLink domain, each GPU with its own NIC (a scenario on it must say
/// gpus_per_node = kNvl72Gpus; ml_for_ml refuses another value at that key).
constexpr const char* kNvl72Preset = "nvl72";
/// GPUs of an NVL72 rack: 18 compute trays x 4 GPUs [NVIDIA DGX SuperPOD with DGX GB200].
constexpr int kNvl72Gpus = 72;

/// Names of the built-in topologies, in menu order; the first is the default.
const std::vector<std::string>& topologyPresetNames();
/// The built-in topology `name`; false when there is none of that name.
bool topologyPreset(const std::string& name, Topology& out);

/// Reads `ml_for_ml.topology` into `t` (starting from `preset` when given, then every other key
/// overriding it). Ranges (physical): nodes in [1, 65536], nodes_per_leaf in [1, 4096], spines
/// in [1, 4096], oversubscription in [1, 64] (a ratio below 1 only adds unused uplinks);
/// errors name the key. Every key is read from its topologyFields() row; a shared fabric with a
/// leaf_spine-only key off its default is an error at that key. Calls r.finish().
void readTopology(tandem::JsonReader r, Topology& t);
/// Reads a placement object into `pl` from placementFields() (absent keys leave `pl` as it
/// is); a policy "explicit" without its node list is an error at the list's key. Calls
/// r.finish().
void readPlacement(tandem::JsonReader r, Placement& pl);
/// Every key of topologyFields(), in its order; `rails` only when not "none" (so scenarios
/// written before the key keep their bytes).
nlohmann::ordered_json writeTopology(const Topology& t);
/// Every key of placementFields(), in its order (the node lists only when not empty).
nlohmann::ordered_json writePlacement(const Placement& pl);
bool operator==(const Topology& a, const Topology& b);
bool operator==(const Placement& a, const Placement& b);

/// Job id of the foreground in link reports (fabric/fabric_sim.h LinkUsage::jobs); background jobs
/// are 0, 1, ...
constexpr int kForegroundJob = -1;

/// Readable name of job `job` in link reports: "foreground" (kForegroundJob) or "bg<j>".
std::string jobName(int job);

/// A fabric built for a set of jobs: link capacities (bytes/s) and, per job, its node list (ring
/// order) and route. Job order: background jobs 0..B-1, then the foreground.
struct FabricPlan {
    std::vector<double> linkCapacity;
    std::vector<std::vector<int>> jobNodes;
    std::vector<Route> jobRoutes;
    /// Stable readable names: "leaf2-up", "leaf2-down" (equal ECMP), "leaf2-up-spine5" (hashed
    /// ECMP or a fabric with failures), rail-optimised "su2-rail3-up", "su2-rail3-down-spine5";
    /// tiers 3 also "pod1-spine2-up", "pod1-spine2-down" (a spine's core uplinks; per core
    /// "pod1-spine2-up-core3" under hashed ECMP or with failures); planes > 1 prefix each with
    /// "plane1-"; "bg3-nic" /
    /// "foreground-nic" (one node's NIC of that job: its nodes all move the same bytes, so the
    /// fabric holds one NIC link per job).
    std::vector<std::string> linkNames;
};

/// The collective whose traffic a route carries.
enum class Collective { AllReduce, AllToAll };
/// Each collective a route carries and the nccl-tests collective it is.
const EnumSubset<Collective, io::Collective>& ncclCollectives();
/// "all_reduce", "alltoall": the nccl-tests words (io::collectiveNames()) of ncclCollectives().
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

/// Switch links a leaf_spine fabric `t` of nodes with `gpusPerNode` GPUs holds, computed from
/// its keys alone: 2 x leaves (up and down bundle of each leaf) under ecmp "equal", 2 x leaves x
/// spines under "hash" or with failures; leaves = ceil(nodes / nodes_per_leaf), times
/// gpusPerNode rail leaves per unit when rails are "optimised"; tiers 3 add 2 x pods x spines
/// core bundles (x cores under "hash" or with failures); all times planes. buildFabric refuses a
/// fabric above kMaxFabricLinks.
long long fabricLeafLinks(const Topology& t, int gpusPerNode);

/// Places `backgroundJobs` jobs of `backgroundNodes` nodes and a foreground of
/// `foregroundNodes` nodes on a leaf_spine topology whose nodes carry `nicBytesPerS` of
/// scale-out each (`gpusPerNode` rails), and routes every job's all-reduce. A leaf's (rails
/// "optimised": a rail leaf's) uplinks carry its nodes' NIC bytes/s (one rail's share) over the
/// oversubscription. Errors
/// (FabricError, naming the key): more nodes needed than the fabric has
/// (<keys.topology>.nodes), explicit lists of the wrong length, with repeated, out-of-range
/// or shared node ids (<keys.placement>.*), more than kMaxFabricLinks leaf links
/// (<keys.topology>.spines under hashed ECMP, .nodes otherwise; checked before anything is
/// built). `foregroundFirst`: the foreground takes its nodes
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
/// leaf_spine topology covering every node id; `gpusPerNode` rails (Ecmp::Hash flows and the
/// rail leaves of rails "optimised", where a node's bytes to another unit are split evenly over
/// its rails: NCCL's PXN first moves them over NVLink to the GPU on the destination's rail),
/// `salt` seeds its hashing. Throws FabricError at <keys.topology>.failed when failures leave two
/// leaves of a group without a working path.
Route concurrentGroupsRoute(const Topology& t, const std::vector<int>& nodes, int groupSize,
                            Collective c, int nicLink, int gpusPerNode, std::uint64_t salt,
                            const FabricKeys& keys = FabricKeys{});

}  // namespace tandem::fabric
