// The scenario keys of the fabric (fabric/topology.h): the names of its enums, the presets,
// the topology and placement field rows with their read and write, and equality.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "common/json_reader.h"
#include "fabric/topology.h"

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

/// A word key: one of `words` (getWord / setWord), looked at only when present.
template <class T>
FabricField<T> wordRow(const char* key, bool leafSpineOnly, const char* description,
                       const char* source, std::vector<std::string> words,
                       std::string (*getWord)(const T&), void (*setWord)(T&, const std::string&)) {
    FabricField<T> f{"", key, "", "", 1, false, Range{}, {}, {}, description, source};
    f.words = std::move(words);
    f.getWord = getWord;
    f.setWord = setWord;
    f.leafSpineOnly = leafSpineOnly;
    f.onlyWhenPresent = true;
    return f;
}

/// An integer or number key in `range` (get / set), looked at only when present.
template <class T>
FabricField<T> numberRow(const char* key, bool integer, const char* unit, Range range,
                         bool leafSpineOnly, const char* description, const char* source,
                         double (*get)(const T&), void (*set)(T&, double)) {
    FabricField<T> f{"", key, unit, "", 1, integer, range, {}, {}, description, source, get, set};
    f.leafSpineOnly = leafSpineOnly;
    f.onlyWhenPresent = true;
    return f;
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
    PlacementField f{
        "",   key, "node ids",  "",       1,       true,    Range::closed(0, kMaxFabricNodes - 1),
        {},   {},  description, kNetwork, nullptr, nullptr, read,
        write};
    f.maxItems = maxItems;
    return f;
}

/// A numeric topology row written only off its default (a key added after scenarios were
/// saved: they keep their bytes).
TopologyField offDefaultRow(TopologyField f) {
    f.writeWhenDefault = false;
    return f;
}

/// Most entries of `failed`.
constexpr std::size_t kMaxFailures = 4096;

void readFailures(JsonReader& r, const TopologyField& f, Topology& t) {
    if (!r.arrayWithin(f.key, f.maxItems)) return;
    const nlohmann::json* raw = r.raw(f.key);
    if (!raw) return;
    if (!raw->is_array()) {
        r.diagnostics().error(r.childPath(f.key),
                              "must be a list of {\"name\", \"capacity\"} entries");
        return;
    }
    t.failed.clear();
    for (std::size_t i = 0; i < raw->size(); ++i) {
        const std::string path = r.childPath(f.key) + "[" + std::to_string(i) + "]";
        JsonReader e((*raw)[i], path, r.diagnostics());
        if (!e.isObject()) {
            r.diagnostics().error(path,
                                  "must be an object {\"name\": link or switch, \"capacity\": "
                                  "fraction left in [0, 1]}");
            continue;
        }
        LinkFailure lf;
        lf.name = e.string("name", "");
        if (lf.name.empty())
            r.diagnostics().error(e.childPath("name"),
                                  "is required: the failed link or switch (e.g. \"spine3\", "
                                  "\"leaf2-spine5\", \"pod1-spine2-core0\")");
        lf.capacity = e.number("capacity", 0.0, f.range);
        e.finish();
        t.failed.push_back(std::move(lf));
    }
}

void writeFailures(const TopologyField& f, const Topology& t, nlohmann::ordered_json& j) {
    if (t.failed.empty()) return;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const LinkFailure& lf : t.failed) {
        nlohmann::ordered_json e;
        e["name"] = lf.name;
        e["capacity"] = jsonNumber(lf.capacity);
        list.push_back(e);
    }
    j[f.key] = list;
}

}  // namespace

bool operator==(const LinkFailure& a, const LinkFailure& b) {
    return a.name == b.name && a.capacity == b.capacity;
}

const std::vector<TopologyField>& topologyFields() {
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
        numberRow<Topology>("nodes", true, "nodes", Range::closed(1, kMaxFabricNodes), true,
                            "nodes attached to the fabric", kNetwork,
                            TANDEM_NUMBER_MEMBER(Topology, nodes)),
        numberRow<Topology>("nodes_per_leaf", true, "nodes", Range::closed(1, 4096), true,
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
            f.writeWhenDefault = false;
            return f;
        }(),
        numberRow<Topology>("spines", true, "switches", Range::closed(1, 4096), true,
                            "spine switches; every leaf has one uplink bundle to each", kNetwork,
                            TANDEM_NUMBER_MEMBER(Topology, spines)),
        numberRow<Topology>("oversubscription", false, "", Range::closed(1, 64), true,
                            "leaf downlink over uplink capacity (1 = non-blocking)", kNetwork,
                            TANDEM_NUMBER_MEMBER(Topology, oversubscription)),
        wordRow<Topology>("ecmp", true, "how a leaf spreads traffic over its spine uplinks",
                          kNetwork, TANDEM_ENUM_MEMBER(Topology, ecmp, ecmpNames)),
        wordRow<Topology>("allreduce", true, "all-reduce algorithm of every job", kA3,
                          TANDEM_ENUM_MEMBER(Topology, allreduce, allReduceAlgorithmNames)),
        offDefaultRow(numberRow<Topology>(
            "tiers", true, "switch tiers", Range::closed(2, 3), true,
            "2: leaves and spines; 3: a fat tree, the leaves grouped in pods with their own "
            "spines (spines per pod) under a core tier",
            kNetwork, TANDEM_NUMBER_MEMBER(Topology, tiers))),
        offDefaultRow(
            numberRow<Topology>("leaves_per_pod", true, "leaves", Range::closed(1, 4096), true,
                                "tiers 3: leaves (rails optimised: scalable units) of one pod",
                                kNetwork, TANDEM_NUMBER_MEMBER(Topology, leavesPerPod))),
        offDefaultRow(numberRow<Topology>(
            "cores", true, "switches", Range::closed(1, 4096), true,
            "tiers 3: core (super-spine) switches; every spine has one uplink bundle to each",
            kNetwork, TANDEM_NUMBER_MEMBER(Topology, cores))),
        offDefaultRow(numberRow<Topology>(
            "spine_oversubscription", false, "", Range::closed(1, 64), true,
            "tiers 3: a pod's spine downlink over core-uplink capacity (1 = non-blocking)",
            kNetwork, TANDEM_NUMBER_MEMBER(Topology, spineOversubscription))),
        offDefaultRow(numberRow<Topology>(
            "planes", true, "planes", Range::closed(1, 16), true,
            "independent copies of the switch fabric; every NIC's bandwidth is split evenly "
            "over them and each carries 1/planes of every flow",
            kNetwork, TANDEM_NUMBER_MEMBER(Topology, planes))),
        [] {
            TopologyField f = numberRow<Topology>(
                "failed", false, "fraction", Range::closed(0, 1), true,
                "failed links and switches: a list of {\"name\", \"capacity\"} (the fraction "
                "of capacity left, 0 = down)",
                kNetwork, nullptr, nullptr);
            f.maxItems = kMaxFailures;
            f.read = readFailures;
            f.write = writeFailures;
            return f;
        }(),
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
        numberRow<Placement>("seed", true, "", Range::closed(0, kMaxSeed), false,
                             "shuffle seed of the \"random\" placement", kNetwork,
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
    readFields(r, topologyFields(), t);
    if (t.kind == FabricKind::Shared) {
        // The shared fabric has no leaves: a leaf_spine value here would be silently ignored.
        const Topology def;
        for (const TopologyField& f : topologyFields()) {
            if (!f.leafSpineOnly) continue;
            nlohmann::ordered_json a, b;
            writeField(f, t, a);
            writeField(f, def, b);
            if (a != b)
                r.diagnostics().error(r.childPath(f.key),
                                      "only used by a leaf_spine fabric (kind is \"shared\", the "
                                      "single-capacity paper-fabric); choose a leaf-spine preset");
        }
    }
    r.finish();
}

void readPlacement(JsonReader r, Placement& pl) {
    if (!r.isObject()) return;
    readFields(r, placementFields(), pl);
    if (pl.foreground == PlacementPolicy::Explicit && pl.foregroundNodes.empty())
        r.diagnostics().error(
            r.childPath(field(placementFields(), "foreground_nodes", "placement").key),
            "placement \"explicit\" needs the foreground's node list");
    if (pl.background == PlacementPolicy::Explicit && pl.backgroundNodes.empty())
        r.diagnostics().error(
            r.childPath(field(placementFields(), "background_nodes", "placement").key),
            "placement \"explicit\" needs one node list per background job");
    r.finish();
}

nlohmann::ordered_json writeTopology(const Topology& t) { return writeFields(topologyFields(), t); }

nlohmann::ordered_json writePlacement(const Placement& pl) {
    return writeFields(placementFields(), pl);
}

bool operator==(const Topology& a, const Topology& b) {
    return a.preset == b.preset && a.kind == b.kind && a.nodes == b.nodes &&
           a.nodesPerLeaf == b.nodesPerLeaf && a.rails == b.rails && a.spines == b.spines &&
           a.oversubscription == b.oversubscription && a.ecmp == b.ecmp &&
           a.allreduce == b.allreduce && a.tiers == b.tiers && a.leavesPerPod == b.leavesPerPod &&
           a.cores == b.cores && a.spineOversubscription == b.spineOversubscription &&
           a.planes == b.planes && a.failed == b.failed;
}

bool operator==(const Placement& a, const Placement& b) {
    return a.foreground == b.foreground && a.background == b.background && a.seed == b.seed &&
           a.foregroundNodes == b.foregroundNodes && a.backgroundNodes == b.backgroundNodes;
}

}  // namespace tandem::fabric
