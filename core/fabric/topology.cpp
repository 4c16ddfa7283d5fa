#include "fabric/topology.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "common/json_reader.h"
#include "fabric/fabric_sim.h"  // SplitMix64

namespace tandem::fabric {

namespace {

Topology leafSpine(const char* name, double ratio) {
    Topology t;
    t.preset = name;
    t.kind = FabricKind::LeafSpine;
    t.nodes = 1024;
    t.nodesPerLeaf = 16;
    t.spines = 16;
    t.oversubscription = ratio;
    return t;
}

// Rail-optimised two tiers of the NVIDIA DGX SuperPOD reference architecture with DGX B200
// (4 scalable units): 128 nodes of 8 GPUs, 32 per unit, each unit's 8 rail leaves (32 leaves)
// under 16 spines, non-blocking (1024 node-leaf and 1024 leaf-spine cables).
Topology railOptimised() {
    Topology t = leafSpine("rail-optimised", 1.0);
    t.nodes = 128;
    t.nodesPerLeaf = 32;
    t.rails = Rails::Optimised;
    return t;
}

// GB200 NVL72 racks as nodes (72 GPUs in one NVLink domain, one NIC per GPU: gpus_per_node 72)
// on the rail-optimised scale-out of the DGX SuperPOD with DGX GB200: a scalable unit of 8
// racks, 128 racks (9216 GPUs, the architecture's stated size), non-blocking.
Topology nvl72() {
    Topology t = leafSpine(kNvl72Preset, 1.0);
    t.nodes = 128;
    t.nodesPerLeaf = 8;
    t.rails = Rails::Optimised;
    return t;
}

const std::vector<Topology>& presets() {
    static const std::vector<Topology> v = {Topology{},
                                            leafSpine("leaf-spine", 1.0),
                                            leafSpine("leaf-spine-2to1", 2.0),
                                            leafSpine("leaf-spine-4to1", 4.0),
                                            railOptimised(),
                                            nvl72()};
    return v;
}

// Free nodes in the order a policy takes them.
std::vector<int> takeNodes(PlacementPolicy policy, const std::vector<char>& used, int count,
                           int leafSize, SplitMix64& rng) {
    std::vector<int> freeNodes;
    for (int i = 0; i < static_cast<int>(used.size()); ++i)
        if (!used[i]) freeNodes.push_back(i);
    if (policy == PlacementPolicy::Spread) {
        // Round-robin over leaves: the lowest free node of leaf 0, of leaf 1, ..., then again.
        const int leaves = (static_cast<int>(used.size()) + leafSize - 1) / leafSize;
        std::vector<std::vector<int>> byLeaf(leaves);
        for (int n : freeNodes) byLeaf[n / leafSize].push_back(n);
        std::vector<int> order;
        for (size_t round = 0; order.size() < freeNodes.size(); ++round)
            for (auto& l : byLeaf)
                if (round < l.size()) order.push_back(l[round]);
        freeNodes.swap(order);
    } else if (policy == PlacementPolicy::Random) {
        for (size_t i = freeNodes.size(); i > 1; --i)  // Fisher-Yates
            std::swap(freeNodes[i - 1], freeNodes[rng.next() % i]);
    }
    freeNodes.resize(std::min<size_t>(freeNodes.size(), static_cast<size_t>(count)));
    return freeNodes;
}

void checkExplicit(const std::vector<int>& list, int expected, int fabricNodes,
                   std::vector<char>& used, const std::string& key) {
    if (static_cast<int>(list.size()) != expected)
        throw FabricError(key, "lists " + std::to_string(list.size()) + " nodes, the job has " +
                                   std::to_string(expected));
    for (int n : list) {
        if (n < 0 || n >= fabricNodes)
            throw FabricError(key, "node " + std::to_string(n) +
                                       " is not on the fabric (nodes 0.." +
                                       std::to_string(fabricNodes - 1) + ")");
        if (used[n])
            throw FabricError(
                key, "node " + std::to_string(n) + " is already taken (a node runs one job)");
        used[n] = 1;
    }
}

// Link layout: Ecmp::Equal has one up and one down bundle per leaf (2L links); Hash one per
// (leaf, spine) and direction (2LS). Rail-optimised, each of a unit's R rail leaves has its own
// (2LR, 2LRS under Hash), the rails of a unit next to each other. NIC links (one per job)
// follow.
struct Layout {
    int leaves = 0, spines = 1;
    int rails = 1;  ///< rail leaves per leaf (unit): 1 unless rails are "optimised"
    bool hash = false;
    int bundles() const { return rails * (hash ? spines : 1); }  // per leaf and direction
    int up(int leaf, int rail, int spine) const {
        return (leaf * rails + rail) * (hash ? spines : 1) + (hash ? spine : 0);
    }
    int down(int leaf, int rail, int spine) const {
        return leaves * bundles() + up(leaf, rail, spine);
    }
    int count() const { return 2 * leaves * bundles(); }
};

// A route being summed: every link once, in the order it was first added, with an index so that
// adding to a long route (a spread ring crossing thousands of leaves) stays linear.
struct RouteSum {
    Route r;
    std::unordered_map<int, std::size_t> at;
    void add(int link, double share) {
        const auto [it, fresh] = at.emplace(link, r.size());
        if (fresh)
            r.push_back({link, share});
        else
            r[it->second].share += share;
    }
};

// Cross-leaf traffic of one (source leaf -> destination leaf) transfer carrying `share` bytes
// per wire byte: split evenly over spines ("equal") or `rails` flows each hashed onto a spine.
// Rail-optimised (lay.rails == rails), rail k's 1/rails of it leaves through rail leaf k of the
// source unit and enters through rail leaf k of the destination unit.
void crossLeaves(RouteSum& r, const Layout& lay, int from, int to, double share, int rails,
                 SplitMix64& hash) {
    if (!lay.hash) {
        for (int k = 0; k < lay.rails; ++k) {
            r.add(lay.up(from, k, 0), lay.rails == 1 ? share : share / lay.rails);
            r.add(lay.down(to, k, 0), lay.rails == 1 ? share : share / lay.rails);
        }
        return;
    }
    for (int k = 0; k < rails; ++k) {
        const int s = static_cast<int>(hash.next() % static_cast<std::uint64_t>(lay.spines));
        const int rail = lay.rails == 1 ? 0 : k;
        r.add(lay.up(from, rail, s), share / rails);
        r.add(lay.down(to, rail, s), share / rails);
    }
}

Route allReduceRoute(const Topology& t, const std::vector<int>& nodes, int nicLink,
                     const Layout& lay, int rails, std::uint64_t salt) {
    RouteSum r;
    const int n = static_cast<int>(nodes.size());
    if (n <= 1) return r.r;
    SplitMix64 hash(salt * 0x9E3779B97F4A7C15ull + 17);
    const int K = t.nodesPerLeaf;
    if (t.allreduce == AllReduceAlgorithm::Ring) {
        // Every node sends the ring's wire bytes to its successor in placement order.
        r.r.push_back({nicLink, 1.0});
        for (int i = 0; i < n; ++i) {
            const int a = nodes[i] / K, b = nodes[(i + 1) % n] / K;
            if (a != b) crossLeaves(r, lay, a, b, 1.0, rails, hash);
        }
        return r.r;
    }
    // Hierarchical: per leaf m nodes; reduce-scatter and all-gather inside the leaf move
    // 2(m-1)/m S through each node's NIC; the m shards of S/m are all-reduced across the L
    // leaves the job spans (m parallel rings, 2(L-1)/L S/m per node, every byte crossing the
    // leaf's uplinks). Shares are relative to the ring's wire bytes 2(n-1)/n S.
    std::vector<int> leafOrder;
    // Nodes per leaf the job spans (a map: a job touches few of a large fabric's leaves).
    std::unordered_map<int, int> perLeaf;
    for (int v : nodes) {
        if (perLeaf[v / K]++ == 0) leafOrder.push_back(v / K);
    }
    const int L = static_cast<int>(leafOrder.size());
    const double ringBytes = 2.0 * (n - 1) / n;  // per S
    double busiest = 0;
    for (int leaf : leafOrder) {
        const int m = perLeaf[leaf];
        const double nic = 2.0 * (m - 1) / m + (L > 1 ? 2.0 * (L - 1) / L / m : 0.0);
        busiest = std::max(busiest, nic);
    }
    r.r.push_back({nicLink, busiest / ringBytes});
    if (L > 1) {
        // Each leaf's m shard rings send 2(L-1)/L S / m per node out of the leaf: per leaf
        // 2(L-1)/L S in total, to the next leaf in the shard rings' order.
        for (int i = 0; i < L; ++i) {
            const double share = 2.0 * (L - 1) / L / ringBytes;
            crossLeaves(r, lay, leafOrder[i], leafOrder[(i + 1) % L], share, rails, hash);
        }
    }
    return r.r;
}

Route allToAllRoute(const std::vector<int>& nodes, int nicLink, const Layout& lay, int K, int rails,
                    SplitMix64& hash) {
    RouteSum r;
    const int m = static_cast<int>(nodes.size());
    if (m <= 1) return r.r;
    r.r.push_back({nicLink, 1.0});
    std::vector<int> leafOrder;
    std::unordered_map<int, int> perLeaf;  // nodes per leaf the group spans
    for (int v : nodes)
        if (perLeaf[v / K]++ == 0) leafOrder.push_back(v / K);
    std::vector<int> count;  // perLeaf in leafOrder
    for (int a : leafOrder) count.push_back(perLeaf[a]);
    for (size_t i = 0; i < leafOrder.size(); ++i)
        for (size_t j = 0; j < leafOrder.size(); ++j)
            if (i != j)
                crossLeaves(r, lay, leafOrder[i], leafOrder[j],
                            double(count[i]) * count[j] / (m - 1), rails, hash);
    return r.r;
}

Layout layoutOf(const Topology& t, int gpusPerNode) {
    Layout lay;
    lay.leaves = (t.nodes + t.nodesPerLeaf - 1) / t.nodesPerLeaf;
    lay.spines = t.spines;
    lay.rails = t.rails == Rails::Optimised ? std::max(1, gpusPerNode) : 1;
    lay.hash = t.ecmp == Ecmp::Hash;
    return lay;
}

}  // namespace

const EnumTable<FabricKind>& fabricKindNames() {
    static const EnumTable<FabricKind> t = {{FabricKind::Shared, "shared"},
                                            {FabricKind::LeafSpine, "leaf_spine"}};
    return t;
}
const char* name(FabricKind k) { return enumName(fabricKindNames(), k); }

const EnumTable<Ecmp>& ecmpNames() {
    static const EnumTable<Ecmp> t = {{Ecmp::Equal, "equal"}, {Ecmp::Hash, "hash"}};
    return t;
}
const char* name(Ecmp e) { return enumName(ecmpNames(), e); }

const EnumTable<Rails>& railsNames() {
    static const EnumTable<Rails> t = {{Rails::None, "none"}, {Rails::Optimised, "optimised"}};
    return t;
}
const char* name(Rails r) { return enumName(railsNames(), r); }

const EnumTable<AllReduceAlgorithm>& allReduceAlgorithmNames() {
    static const EnumTable<AllReduceAlgorithm> t = {
        {AllReduceAlgorithm::Ring, "ring"}, {AllReduceAlgorithm::Hierarchical, "hierarchical"}};
    return t;
}
const char* name(AllReduceAlgorithm a) { return enumName(allReduceAlgorithmNames(), a); }

const EnumTable<PlacementPolicy>& placementPolicyNames() {
    static const EnumTable<PlacementPolicy> t = {{PlacementPolicy::Packed, "packed"},
                                                 {PlacementPolicy::Spread, "spread"},
                                                 {PlacementPolicy::Random, "random"},
                                                 {PlacementPolicy::Explicit, "explicit"}};
    return t;
}
const char* name(PlacementPolicy p) { return enumName(placementPolicyNames(), p); }

const EnumSubset<Collective, io::Collective>& ncclCollectives() {
    static const EnumSubset<Collective, io::Collective> s = {
        {Collective::AllReduce, io::Collective::AllReduce},
        {Collective::AllToAll, io::Collective::AllToAll}};
    return s;
}
const EnumTable<Collective>& collectiveNames() {
    static const EnumTable<Collective> t = subsetNames(ncclCollectives(), io::collectiveNames());
    return t;
}
const char* name(Collective c) { return enumName(collectiveNames(), c); }

long long fabricLeafLinks(const Topology& t, int gpusPerNode) {
    const Layout lay = layoutOf(t, gpusPerNode);
    return 2LL * lay.leaves * lay.rails * (lay.hash ? lay.spines : 1);
}

FabricError::FabricError(std::string key, std::string reason)
    : std::invalid_argument(key + ": " + reason),
      m_key(std::move(key)),
      m_reason(std::move(reason)) {}

Route concurrentGroupsRoute(const Topology& t, const std::vector<int>& nodes, int groupSize,
                            Collective c, int nicLink, int gpusPerNode, std::uint64_t salt) {
    const Layout lay = layoutOf(t, gpusPerNode);
    const int rails = std::max(1, gpusPerNode);
    const int step = std::max(2, groupSize);
    SplitMix64 hash(salt * 0x9E3779B97F4A7C15ull + 29);
    RouteSum sum;
    double nic = 0;
    for (size_t first = 0; first < nodes.size(); first += static_cast<size_t>(step)) {
        const std::vector<int> group(
            nodes.begin() + static_cast<std::ptrdiff_t>(first),
            nodes.begin() + static_cast<std::ptrdiff_t>(std::min(nodes.size(), first + step)));
        const Route r = c == Collective::AllReduce
                            ? allReduceRoute(t, group, nicLink, lay, rails, salt + first)
                            : allToAllRoute(group, nicLink, lay, t.nodesPerLeaf, rails, hash);
        for (const LinkUse& u : r) {
            if (u.link == nicLink)
                nic = std::max(nic, u.share);
            else
                sum.add(u.link, u.share);
        }
    }
    if (nic > 0) sum.r.insert(sum.r.begin(), LinkUse{nicLink, nic});
    return sum.r;
}

const std::vector<std::string>& topologyPresetNames() {
    static const std::vector<std::string> v = [] {
        std::vector<std::string> names;
        for (const auto& t : presets()) names.push_back(t.preset);
        return names;
    }();
    return v;
}

bool topologyPreset(const std::string& name, Topology& out) {
    for (const auto& t : presets())
        if (t.preset == name) {
            out = t;
            return true;
        }
    return false;
}

namespace {

/// Most node lists `background_nodes` holds: one per background job.
constexpr std::size_t kMaxNodeLists = 1024;
/// Largest `seed`: 2^53 - 1, the largest integer a double (a JSON reader's number) holds exactly.
constexpr double kMaxSeed = 9007199254740991.0;

const char* kA3 = "MODEL.md A3";
const char* kNetwork = "docs/MODEL-NETWORK.md";

template <class T>
FabricField<T> wordRow(const char* key, bool leafSpineOnly, const char* description,
                       const char* source, std::vector<std::string> words,
                       std::string (*getWord)(const T&), void (*setWord)(T&, const std::string&)) {
    return {key,
            FabricFieldShape::Word,
            "",
            Range{},
            0,
            std::move(words),
            leafSpineOnly,
            description,
            source,
            nullptr,
            nullptr,
            getWord,
            setWord,
            nullptr,
            nullptr};
}

template <class T>
FabricField<T> numberRow(const char* key, FabricFieldShape shape, const char* unit, Range range,
                         bool leafSpineOnly, const char* description, const char* source,
                         double (*get)(const T&), void (*set)(T&, double)) {
    return {key,    shape, unit, range,   0,       {},      leafSpineOnly, description,
            source, get,   set,  nullptr, nullptr, nullptr, nullptr};
}

// `m` below is a member name, which cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
// A Word row of enum member `m` whose words are `table`'s names.
#define TANDEM_ENUM_MEMBER(T, m, table)                                    \
    enumNames(table()), [](const T& v) { return std::string(name(v.m)); }, \
        [](T& v, const std::string& w) { v.m = enumFromName(table(), w).value_or(v.m); }
// Get and set of a numeric member `m`.
#define TANDEM_NUMBER_MEMBER(T, m)                       \
    [](const T& v) { return static_cast<double>(v.m); }, \
        [](T& v, double x) { v.m = static_cast<decltype(v.m)>(x); }
// NOLINTEND(bugprone-macro-parentheses)

void readForegroundNodes(JsonReader& r, const PlacementField& f, Placement& pl) {
    if (!r.arrayWithin(f.key, f.maxItems)) return;
    pl.foregroundNodes.clear();
    for (long long v : r.integers(f.key, {}, f.range))
        pl.foregroundNodes.push_back(static_cast<int>(v));
}

void writeForegroundNodes(const PlacementField& f, const Placement& pl, nlohmann::ordered_json& j) {
    if (!pl.foregroundNodes.empty()) j[f.key] = pl.foregroundNodes;
}

void readBackgroundNodes(JsonReader& r, const PlacementField& f, Placement& pl) {
    const nlohmann::json* raw = r.raw(f.key);
    if (!raw) return;
    pl.backgroundNodes.clear();
    bool ok = raw->is_array() && raw->size() <= f.maxItems;
    if (ok)
        for (const auto& job : *raw) {
            std::vector<int> list;
            ok = job.is_array();
            if (!ok) break;
            for (const auto& v : job) {
                ok = v.is_number_integer() && f.range.contains(double(v.get<long long>()));
                if (!ok) break;
                list.push_back(v.get<int>());
            }
            if (!ok) break;
            pl.backgroundNodes.push_back(std::move(list));
        }
    if (!ok)
        r.diagnostics().error(r.childPath(f.key),
                              "must be at most " + std::to_string(f.maxItems) +
                                  " lists of node ids (integers in [" +
                                  std::to_string(static_cast<long long>(f.range.min)) + ", " +
                                  std::to_string(static_cast<long long>(f.range.max)) + "])");
}

void writeBackgroundNodes(const PlacementField& f, const Placement& pl, nlohmann::ordered_json& j) {
    if (!pl.backgroundNodes.empty()) j[f.key] = pl.backgroundNodes;
}

PlacementField nodeListRow(const char* key, std::size_t maxItems, const char* description,
                           void (*read)(JsonReader&, const PlacementField&, Placement&),
                           void (*write)(const PlacementField&, const Placement&,
                                         nlohmann::ordered_json&)) {
    return {key,        FabricFieldShape::NodeList,
            "node ids", Range::closed(0, kMaxFabricNodes - 1),
            maxItems,   {},
            false,      description,
            kNetwork,   nullptr,
            nullptr,    nullptr,
            nullptr,    read,
            write};
}

}  // namespace

const std::vector<TopologyField>& topologyFields() {
    using I = FabricFieldShape;
    static const std::vector<TopologyField> t = {
        wordRow<Topology>(
            "preset", false,
            "built-in topology the description starts from; the other keys override it", kNetwork,
            topologyPresetNames(), [](const Topology& v) { return v.preset; },
            [](Topology& v, const std::string& w) {
                if (w != v.preset) topologyPreset(w, v);
            }),
        wordRow<Topology>("kind", false,
                          "shared: the single capacity of the paper's fabric; leaf_spine: two "
                          "tiers of switches",
                          "2608.06046 Sec. 3.2; docs/MODEL-NETWORK.md",
                          TANDEM_ENUM_MEMBER(Topology, kind, fabricKindNames)),
        numberRow<Topology>("nodes", I::Integer, "nodes", Range::closed(1, kMaxFabricNodes), true,
                            "nodes attached to the fabric", kNetwork,
                            TANDEM_NUMBER_MEMBER(Topology, nodes)),
        numberRow<Topology>("nodes_per_leaf", I::Integer, "nodes", Range::closed(1, 4096), true,
                            "nodes under one leaf switch (rails optimised: the nodes of one "
                            "scalable unit, one port each on every rail leaf)",
                            kNetwork, TANDEM_NUMBER_MEMBER(Topology, nodesPerLeaf)),
        [] {
            TopologyField f = wordRow<Topology>(
                "rails", true,
                "none: a node's NICs go to its one leaf; optimised: GPU i of every node of a "
                "scalable unit (nodes_per_leaf nodes) goes to the unit's rail leaf i, one rail "
                "leaf per GPU of a node",
                "NVIDIA DGX SuperPOD reference architecture; docs/MODEL-NETWORK.md",
                TANDEM_ENUM_MEMBER(Topology, rails, railsNames));
            // Written only when not "none": a scenario written before the key keeps its bytes.
            f.write = [](const TopologyField& row, const Topology& v, nlohmann::ordered_json& j) {
                if (v.rails != Rails::None) j[row.key] = row.getWord(v);
            };
            return f;
        }(),
        numberRow<Topology>("spines", I::Integer, "switches", Range::closed(1, 4096), true,
                            "spine switches; every leaf has one uplink bundle to each", kNetwork,
                            TANDEM_NUMBER_MEMBER(Topology, spines)),
        numberRow<Topology>("oversubscription", I::Number, "", Range::closed(1, 64), true,
                            "leaf downlink over uplink capacity (1 = non-blocking)", kNetwork,
                            TANDEM_NUMBER_MEMBER(Topology, oversubscription)),
        wordRow<Topology>("ecmp", true, "how a leaf spreads traffic over its spine uplinks",
                          kNetwork, TANDEM_ENUM_MEMBER(Topology, ecmp, ecmpNames)),
        wordRow<Topology>("allreduce", true, "all-reduce algorithm of every job", kA3,
                          TANDEM_ENUM_MEMBER(Topology, allreduce, allReduceAlgorithmNames)),
    };
    return t;
}

const std::vector<PlacementField>& placementFields() {
    static const std::vector<PlacementField> t = {
        wordRow<Placement>("foreground", false, "how the foreground job's nodes are chosen",
                           kNetwork,
                           TANDEM_ENUM_MEMBER(Placement, foreground, placementPolicyNames)),
        wordRow<Placement>("background", false, "how the background jobs' nodes are chosen",
                           kNetwork,
                           TANDEM_ENUM_MEMBER(Placement, background, placementPolicyNames)),
        numberRow<Placement>("seed", FabricFieldShape::Integer, "", Range::closed(0, kMaxSeed),
                             false, "shuffle seed of the \"random\" placement", kNetwork,
                             TANDEM_NUMBER_MEMBER(Placement, seed)),
        nodeListRow("foreground_nodes", static_cast<std::size_t>(kMaxFabricNodes),
                    "\"explicit\": the foreground's node ids, in ring order", readForegroundNodes,
                    writeForegroundNodes),
        nodeListRow("background_nodes", kMaxNodeLists,
                    "\"explicit\": one list of node ids per background job, in ring order",
                    readBackgroundNodes, writeBackgroundNodes),
    };
    return t;
}

#undef TANDEM_ENUM_MEMBER
#undef TANDEM_NUMBER_MEMBER

void readTopology(JsonReader r, Topology& t) {
    if (!r.isObject()) return;
    for (const TopologyField& f : topologyFields()) readFabricField(r, f, t);
    if (t.kind == FabricKind::Shared) {
        // The shared fabric has no leaves: a leaf_spine value here would be silently ignored.
        const Topology def;
        for (const TopologyField& f : topologyFields()) {
            if (!f.leafSpineOnly) continue;
            const bool differs = f.shape == FabricFieldShape::Word ? f.getWord(t) != f.getWord(def)
                                                                   : f.get(t) != f.get(def);
            if (differs)
                r.diagnostics().error(r.childPath(f.key),
                                      "only used by a leaf_spine fabric (kind is \"shared\", the "
                                      "single-capacity paper-fabric); choose a leaf-spine preset");
        }
    }
    r.finish();
}

void readPlacement(JsonReader r, Placement& pl) {
    if (!r.isObject()) return;
    for (const PlacementField& f : placementFields()) readFabricField(r, f, pl);
    const char* foregroundNodes = nullptr;
    const char* backgroundNodes = nullptr;
    for (const PlacementField& f : placementFields()) {
        if (f.read == readForegroundNodes) foregroundNodes = f.key;
        if (f.read == readBackgroundNodes) backgroundNodes = f.key;
    }
    if (pl.foreground == PlacementPolicy::Explicit && pl.foregroundNodes.empty())
        r.diagnostics().error(r.childPath(foregroundNodes),
                              "placement \"explicit\" needs the foreground's node list");
    if (pl.background == PlacementPolicy::Explicit && pl.backgroundNodes.empty())
        r.diagnostics().error(r.childPath(backgroundNodes),
                              "placement \"explicit\" needs one node list per background job");
    r.finish();
}

nlohmann::ordered_json writeTopology(const Topology& t) {
    nlohmann::ordered_json j;
    for (const TopologyField& f : topologyFields()) writeFabricField(f, t, j);
    return j;
}

nlohmann::ordered_json writePlacement(const Placement& pl) {
    nlohmann::ordered_json j;
    for (const PlacementField& f : placementFields()) writeFabricField(f, pl, j);
    return j;
}

bool operator==(const Topology& a, const Topology& b) {
    return a.preset == b.preset && a.kind == b.kind && a.nodes == b.nodes &&
           a.nodesPerLeaf == b.nodesPerLeaf && a.rails == b.rails && a.spines == b.spines &&
           a.oversubscription == b.oversubscription && a.ecmp == b.ecmp &&
           a.allreduce == b.allreduce;
}

bool operator==(const Placement& a, const Placement& b) {
    return a.foreground == b.foreground && a.background == b.background && a.seed == b.seed &&
           a.foregroundNodes == b.foregroundNodes && a.backgroundNodes == b.backgroundNodes;
}

std::string jobName(int job) {
    return job == kForegroundJob ? std::string("foreground") : "bg" + std::to_string(job);
}

FabricPlan buildFabric(const Topology& t, const Placement& pl, int backgroundJobs,
                       int backgroundNodes, int foregroundNodes, double nicBytesPerS,
                       int gpusPerNode, const FabricKeys& keys, bool foregroundFirst) {
    auto keyOf = [&keys](const char* key) { return keys.placement + "." + key; };
    const long long need =
        static_cast<long long>(backgroundJobs) * backgroundNodes + foregroundNodes;
    if (need > t.nodes)
        throw FabricError(keys.topology + ".nodes",
                          "the fabric has " + std::to_string(t.nodes) + " nodes, the jobs need " +
                              std::to_string(need) + " (" + std::to_string(backgroundJobs) +
                              " background jobs x " + std::to_string(backgroundNodes) + " + " +
                              std::to_string(foregroundNodes) + " foreground)");
    if (t.ecmp == Ecmp::Hash && gpusPerNode > kMaxHashedFlowsPerHop)
        throw FabricError(keys.topology + ".ecmp",
                          "\"hash\" simulates one flow per rail of every ring hop; " +
                              std::to_string(gpusPerNode) + " GPUs per node are more than the " +
                              std::to_string(kMaxHashedFlowsPerHop) +
                              " a node-count sweep holds within its time bound: use \"equal\"");
    const Layout lay = layoutOf(t, gpusPerNode);
    const long long links = fabricLeafLinks(t, gpusPerNode);
    if (links > kMaxFabricLinks) {
        const bool hash = t.ecmp == Ecmp::Hash;
        const long long most =
            hash ? std::max(0LL, kMaxFabricLinks / (2LL * lay.leaves * lay.rails)) : 0;
        const std::string railLeaves =
            lay.rails > 1 ? " x " + std::to_string(lay.rails) + " rail leaves" : "";
        // Hashed ECMP names the spines, unless even one spine is too many: then the leaves.
        const bool spinesKey = hash && most >= 1;
        throw FabricError(
            keys.topology + (spinesKey ? ".spines" : ".nodes"),
            std::to_string(links) + " leaf links (" +
                (hash ? "2 x " + std::to_string(lay.leaves) + " leaves" + railLeaves + " x " +
                            std::to_string(t.spines) +
                            " spines: hashed ECMP holds one link per leaf, spine and direction"
                      : "2 x " + std::to_string(lay.leaves) + " leaves" + railLeaves) +
                ") exceed the limit of " + std::to_string(kMaxFabricLinks) +
                " links a simulation holds within its time and memory bounds" +
                (spinesKey ? "; at most " + std::to_string(most) + " spines with " +
                                 std::to_string(lay.leaves) + " leaves" + railLeaves +
                                 ", or fewer leaves (nodes / nodes_per_leaf), or ecmp \"equal\""
                 : hash ? "; even one spine is too many: fewer leaves (nodes / nodes_per_leaf) "
                          "or ecmp \"equal\""
                        : ""));
    }
    FabricPlan plan;
    // A leaf's uplinks carry K x node NIC / oversubscription each way, split over the spines
    // (Ecmp::Hash: one bundle per spine); rail-optimised, each rail leaf's carry one rail's
    // part of that (one NIC per node).
    const double uplink = t.nodesPerLeaf * nicBytesPerS / t.oversubscription;
    double bundle = lay.rails > 1 ? uplink / lay.rails : uplink;
    if (lay.hash) bundle /= t.spines;
    plan.linkCapacity.assign(lay.count(), bundle);
    plan.linkNames.resize(lay.count());
    for (int l = 0; l < lay.leaves; ++l)
        for (int k = 0; k < lay.rails; ++k)
            for (int s = 0; s < (lay.hash ? lay.spines : 1); ++s) {
                const std::string sp = lay.hash ? "-spine" + std::to_string(s) : "";
                const std::string leaf =
                    t.rails == Rails::Optimised
                        ? "su" + std::to_string(l) + "-rail" + std::to_string(k)
                        : "leaf" + std::to_string(l);
                plan.linkNames[lay.up(l, k, s)] = leaf + "-up" + sp;
                plan.linkNames[lay.down(l, k, s)] = leaf + "-down" + sp;
            }
    std::vector<char> used(t.nodes, 0);
    SplitMix64 rng(pl.seed * 0xD1B54A32D192ED03ull + 5);
    auto place = [&](PlacementPolicy policy, const std::vector<int>* list, int count,
                     const std::string& key) {
        if (policy == PlacementPolicy::Explicit) {
            checkExplicit(*list, count, t.nodes, used, key);
            return *list;
        }
        std::vector<int> v = takeNodes(policy, used, count, t.nodesPerLeaf, rng);
        for (int n : v) used[n] = 1;
        return v;
    };
    // The foreground may take its nodes first, so that its placement does not depend on how
    // many background jobs there are; it stays the last job of the plan either way.
    std::vector<int> foreground;
    if (foregroundFirst)
        foreground =
            place(pl.foreground, &pl.foregroundNodes, foregroundNodes, keyOf("foreground_nodes"));
    for (int j = 0; j < backgroundJobs; ++j) {
        static const std::vector<int> kNone;
        const std::vector<int>* list = nullptr;
        if (pl.background == PlacementPolicy::Explicit) {
            if (j >= static_cast<int>(pl.backgroundNodes.size()))
                throw FabricError(keyOf("background_nodes"),
                                  "lists " + std::to_string(pl.backgroundNodes.size()) +
                                      " jobs, the scenario runs up to " +
                                      std::to_string(backgroundJobs));
            list = &pl.backgroundNodes[j];
        }
        plan.jobNodes.push_back(place(pl.background, list ? list : &kNone, backgroundNodes,
                                      keyOf("background_nodes") + "[" + std::to_string(j) + "]"));
    }
    if (foregroundFirst)
        plan.jobNodes.push_back(std::move(foreground));
    else
        plan.jobNodes.push_back(
            place(pl.foreground, &pl.foregroundNodes, foregroundNodes, keyOf("foreground_nodes")));
    const int rails = std::max(1, gpusPerNode);
    for (size_t j = 0; j < plan.jobNodes.size(); ++j) {
        const int nic = static_cast<int>(plan.linkCapacity.size());
        plan.linkCapacity.push_back(nicBytesPerS);
        const bool fg = j + 1 == plan.jobNodes.size();
        plan.linkNames.push_back(jobName(fg ? kForegroundJob : static_cast<int>(j)) + "-nic");
        plan.jobRoutes.push_back(allReduceRoute(t, plan.jobNodes[j], nic, lay, rails, j + 1));
    }
    return plan;
}

}  // namespace tandem::fabric
