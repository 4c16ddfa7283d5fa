#pragma once
// The fabric of an ML-for-ML scenario as the network view draws it: which leaves (or
// rail-optimised scalable units) hold which job's nodes, how busy each leaf's links to the
// spines were, and the busiest links, all read from one background condition's link record
// (Result::links, the table `tandem-cli run --out` writes as links.csv) and the placement of
// buildFabric [docs/MODEL-NETWORK.md sections 2-3]. No figure is computed twice: every
// utilisation is a fabric::LinkUsage of the record, copied.
#include <string>
#include <vector>

#include "fabric/fabric_sim.h"
#include "mlforml/params.h"
#include "mlforml/simulate.h"

namespace tandem::mlforml {

/// Occupant of a node in NetworkGroup::nodeJobs when no job of the condition runs on it.
constexpr int kIdleNode = -2;

/// One leaf switch (rails "none") or one rail leaf of a scalable unit (rails "optimised") and
/// its links to the spine tier.
struct NetworkLeaf {
    std::string name;  ///< "leaf3", "su2-rail5": the prefix of its links' names
    /// Its uplink and downlink bundles (one each under ecmp "equal", one per spine under
    /// "hash"), as recorded.
    std::vector<fabric::LinkUsage> up, down;
    double upMean = 0;    ///< largest mean utilisation of `up`, 0..1
    double downMean = 0;  ///< largest mean utilisation of `down`, 0..1
};

/// One group the view draws: a leaf and its nodes, or a scalable unit, its rail leaves and its
/// nodes (the unit's nodes are cabled to every one of its rail leaves).
struct NetworkGroup {
    int index = 0;      ///< leaf (rails "none") or unit (rails "optimised") index
    int firstNode = 0;  ///< node ids firstNode .. firstNode + nodeJobs.size() - 1
    /// Per node: fabric::kForegroundJob, background job j (0-based) or kIdleNode.
    std::vector<int> nodeJobs;
    std::vector<NetworkLeaf> leaves;  ///< one leaf, or the unit's rail leaves in rail order
};

/// What the network view shows for one background condition.
struct NetworkMap {
    bool shared = true;           ///< paper-fabric (or no leaf link recorded): no leaves drawn
    bool railOptimised = false;   ///< topology rails "optimised": groups are scalable units
    int backgroundJobs = 0;       ///< the condition (LinkTable::backgroundJobs)
    int nodes = 0;                ///< nodes of the fabric (topology `nodes`)
    int nodesPerLeaf = 0;         ///< topology `nodes_per_leaf`
    int spines = 0;               ///< topology `spines`
    int gpusPerNode = 0;          ///< GPUs (rails) per node
    double oversubscription = 1;  ///< topology `oversubscription`
    bool hashedEcmp = false;      ///< ecmp "hash": one uplink per spine
    int groupsTotal = 0;          ///< leaves, or scalable units, of the whole fabric
    /// Groups worth showing, most first: the one holding the busiest leaf link, then the
    /// foreground's groups and the other used groups in turn (each by its busiest leaf link),
    /// so a foreground spread over many leaves does not hide the background's; at most
    /// `maxGroups`.
    std::vector<NetworkGroup> groups;
    /// Background jobs that moved bytes in the record (ascending); the foreground is
    /// fabric::kForegroundJob and always shown.
    std::vector<int> activeJobs;
    /// Links outside the leaves: "fabric" (the shared capacity) and the jobs' NIC links.
    std::vector<fabric::LinkUsage> otherLinks;
    /// The links of the record that carried bytes (a job crossed them, mean utilisation above 0)
    /// ranked by mean utilisation (then seconds at 100 %, then name), at most kBusiestLinks; the
    /// first is the bottleneck. Empty when no link carried anything: an idle link is never named.
    std::vector<fabric::LinkUsage> busiest;
};

/// Links NetworkMap::busiest holds.
constexpr int kBusiestLinks = 5;

/// The link record of condition `backgroundJobs` in `r` (LinkTable::backgroundJobs), or the
/// first when none matches; nullptr when `r` has no record (simulate without recordLinks).
const LinkTable* linkTableFor(const Result& r, int backgroundJobs);

/// The map of `table` (a record of simulate(p, ..., true)) on p's fabric: the placement is
/// buildFabric(p)'s (the one the record was simulated on), the leaves of node n are n /
/// nodes_per_leaf. At most `maxGroups` (>= 1) groups. Throws fabric::FabricError as
/// buildFabric does (naming the ml_for_ml.topology / placement key).
NetworkMap networkMap(const Params& p, const LinkTable& table, int maxGroups);

}  // namespace tandem::mlforml
