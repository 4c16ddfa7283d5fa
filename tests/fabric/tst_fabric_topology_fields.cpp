// The topology and placement keys (fabric/topology.h) are read and written from their field
// tables: for every key, a value at each bound of its row (every word of a word key) is
// accepted, the value just outside is refused at the key's own path, the writer writes exactly
// the table's keys in the table's order, and a topology and a placement off their defaults read
// back equal. The same holds for the keys of `mosaic.background` (mosaic::backgroundFields()).
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/diagnostics.h"
#include "common/json_reader.h"
#include "fabric/topology.h"
#include "mosaic/background.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::fabric;
using tandem::mosaic::BackgroundField;
using tandem::mosaic::backgroundFields;
using tandem::mosaic::BackgroundLoad;

namespace {

/// The errors of reading `obj` as a topology object at `$.topology`.
std::vector<Issue> topologyErrors(const nlohmann::json& obj) {
    Diagnostics d;
    Topology t;
    readTopology(JsonReader(obj, "$.topology", d), t);
    return d.items();
}

/// The errors of reading `obj` as a placement object at `$.placement`.
std::vector<Issue> placementErrors(const nlohmann::json& obj) {
    Diagnostics d;
    Placement pl;
    readPlacement(JsonReader(obj, "$.placement", d), pl);
    return d.items();
}

/// The errors of reading `obj` as `mosaic.background` at `$.background`.
std::vector<Issue> backgroundErrors(const nlohmann::json& obj) {
    Diagnostics d;
    BackgroundLoad b;
    mosaic::readBackground(JsonReader(obj, "$.background", d), b);
    return d.items();
}

/// The value just beyond `bound` in direction `dir` (+1 above, -1 below): the next integer of an
/// integer key, else one part in a million.
template <class T>
double beyond(const FabricField<T>& f, double bound, int dir) {
    if (f.integer) return bound + dir;
    return bound + dir * (bound != 0 ? std::fabs(bound) * 1e-6 : 1e-6);
}

/// `{"<key>": v}` (an integer key written as an integer), with `extra` merged in.
template <class T>
nlohmann::json objectWith(const FabricField<T>& f, double v, nlohmann::json extra) {
    if (f.integer)
        extra[f.key] = static_cast<long long>(v);
    else
        extra[f.key] = v;
    return extra;
}

/// Checks the numeric bounds of every integer or number row of `rows`: `read` gives the errors of
/// an object, `extra` is merged into each (the keys the row needs to be used), `prefix` is the
/// object's path. Returns the number of bounds checked.
template <class T>
int checkBounds(const std::vector<FabricField<T>>& rows,
                std::vector<Issue> (*read)(const nlohmann::json&), const nlohmann::json& extra,
                const std::string& prefix) {
    int bounds = 0;
    for (const FabricField<T>& f : rows) {
        if (!f.get) continue;  // not an integer or number key
        for (int side : {-1, 1}) {
            const double bound = side < 0 ? f.range.min : f.range.max;
            if (!std::isfinite(bound)) continue;
            ++bounds;
            const bool exclusive = side < 0 ? f.range.minExclusive : f.range.maxExclusive;
            const double inside = exclusive ? beyond(f, bound, -side) : bound;
            const double outside = exclusive ? bound : beyond(f, bound, side);
            const auto ok = read(objectWith(f, inside, extra));
            const std::string why = std::string(f.key) + " = " + std::to_string(inside) +
                                    (ok.empty() ? "" : ": " + ok.front().str());
            if (!ok.empty()) {
                QTest::qFail(why.c_str(), __FILE__, __LINE__);
                return -1;
            }
            const auto bad = read(objectWith(f, outside, extra));
            if (bad.size() != 1 || bad.front().path != prefix + "." + f.key) {
                const std::string msg = std::string(f.key) + " = " + std::to_string(outside) +
                                        " not refused at its path";
                QTest::qFail(msg.c_str(), __FILE__, __LINE__);
                return -1;
            }
        }
    }
    return bounds;
}

/// Every word of every word row is accepted, a word outside them is refused at the key's path.
template <class T>
bool checkWords(const std::vector<FabricField<T>>& rows,
                std::vector<Issue> (*read)(const nlohmann::json&), const nlohmann::json& extra,
                const std::string& prefix) {
    for (const FabricField<T>& f : rows) {
        if (!f.getWord) continue;
        if (f.words.empty()) return false;
        for (const std::string& w : f.words) {
            nlohmann::json o = extra;
            o[f.key] = w;
            if (!read(o).empty()) return false;
        }
        nlohmann::json o = extra;
        o[f.key] = "no-such-word";
        const auto bad = read(o);
        if (bad.size() != 1 || bad.front().path != prefix + "." + f.key) return false;
    }
    return true;
}

template <class T>
std::vector<std::string> tableKeys(const std::vector<FabricField<T>>& rows) {
    std::vector<std::string> keys;
    for (const auto& f : rows) keys.emplace_back(f.key);
    return keys;
}

std::vector<std::string> keysOf(const nlohmann::ordered_json& j) {
    std::vector<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
    return keys;
}

/// A leaf_spine topology with every key off its default.
Topology offDefaultTopology() {
    Topology t;
    t.preset = "leaf-spine-2to1";
    t.kind = FabricKind::LeafSpine;
    t.nodes = 2048;
    t.nodesPerLeaf = 32;
    t.rails = Rails::Optimised;
    t.spines = 8;
    t.oversubscription = 2.5;
    t.ecmp = Ecmp::Hash;
    t.allreduce = AllReduceAlgorithm::Hierarchical;
    t.tiers = 3;
    t.leavesPerPod = 4;
    t.cores = 4;
    t.spineOversubscription = 1.5;
    t.planes = 2;
    t.failed = {{"core1", 0.5}, {"plane0-pod1-spine2", 0.0}};
    return t;
}

/// An explicit placement with every key off its default.
Placement offDefaultPlacement() {
    Placement pl;
    pl.foreground = PlacementPolicy::Explicit;
    pl.background = PlacementPolicy::Explicit;
    pl.seed = 42;
    pl.foregroundNodes = {4, 5, 6, 7};
    pl.backgroundNodes = {{0, 1}, {2, 3}};
    return pl;
}

}  // namespace

class TestTopologyFields : public QObject {
    Q_OBJECT
private slots:
    // The numeric keys accept each bound and refuse the value just beyond it.
    void topologyBounds() {
        // nodes, nodes_per_leaf, spines, oversubscription, tiers, leaves_per_pod, cores,
        // spine_oversubscription, planes: both ends.
        QCOMPARE(
            checkBounds(topologyFields(), topologyErrors, {{"kind", "leaf_spine"}}, "$.topology"),
            18);
    }
    void placementBounds() {
        QCOMPARE(checkBounds(placementFields(), placementErrors, nlohmann::json::object(),
                             "$.placement"),
                 2);  // seed: 0 and 2^53 - 1
    }
    void words() {
        QVERIFY(
            checkWords(topologyFields(), topologyErrors, {{"kind", "leaf_spine"}}, "$.topology"));
        QVERIFY(checkWords(placementFields(), placementErrors,
                           {{"foreground_nodes", {0}}, {"background_nodes", {{1}}}},
                           "$.placement"));
        QCOMPARE(topologyFields().front().words, topologyPresetNames());
    }

    // The node lists accept ids at both ends of the row's range and refuse one beyond either,
    // at the key's path (an entry of foreground_nodes at its index), and hold at most maxItems.
    void nodeLists() {
        int lists = 0;
        for (const PlacementField& f : placementFields()) {
            if (!f.read) continue;  // not a node list
            ++lists;
            const bool nested = std::string(f.key) == "background_nodes";
            const std::string path = "$.placement." + std::string(f.key);
            auto with = [&](std::vector<long long> ids) {
                nlohmann::json list = ids;
                return nlohmann::json{{f.key, nested ? nlohmann::json::array({list}) : list}};
            };
            const auto lo = static_cast<long long>(f.range.min);
            const auto hi = static_cast<long long>(f.range.max);
            QCOMPARE(lo, 0LL);
            QCOMPARE(hi, kMaxFabricNodes - 1);
            QVERIFY(placementErrors(with({lo, hi})).empty());
            for (long long out : {lo - 1, hi + 1}) {
                const auto bad = placementErrors(with({out}));
                QCOMPARE(bad.size(), size_t(1));
                QCOMPARE(bad.front().path, nested ? path : path + "[0]");
            }
            // At most maxItems entries.
            nlohmann::json full = nlohmann::json::array(), over;
            for (size_t i = 0; i < f.maxItems; ++i)
                full.push_back(nested ? nlohmann::json::array({0}) : nlohmann::json(i));
            over = full;
            over.push_back(nested ? nlohmann::json::array({0}) : nlohmann::json(0));
            QVERIFY(placementErrors({{f.key, full}}).empty());
            const auto bad = placementErrors({{f.key, over}});
            QCOMPARE(bad.size(), size_t(1));
            QCOMPARE(bad.front().path, path);
        }
        QCOMPARE(lists, 2);
    }

    // On the shared fabric, each leaf_spine key off its default is an error at that key.
    void sharedFabricRefusesLeafSpineKeys() {
        const nlohmann::ordered_json leafSpine = writeTopology(offDefaultTopology());
        int keys = 0;
        for (const TopologyField& f : topologyFields()) {
            if (!f.leafSpineOnly) continue;
            ++keys;
            const auto bad = topologyErrors(
                {{"kind", "shared"}, {f.key, nlohmann::json::parse(leafSpine[f.key].dump())}});
            QCOMPARE(bad.size(), size_t(1));
            QCOMPARE(bad.front().path, "$.topology." + std::string(f.key));
        }
        QCOMPARE(keys, 13);
    }

    // `failed`: a list of at most maxItems {"name", "capacity"} objects, the capacity in the
    // row's range [0, 1]; each wrong entry is refused at its own path.
    void failedList() {
        const TopologyField& f = field(topologyFields(), "failed", "$.topology");
        QCOMPARE(f.range.min, 0.0);
        QCOMPARE(f.range.max, 1.0);
        auto with = [](nlohmann::json list) {
            return topologyErrors({{"kind", "leaf_spine"}, {"failed", list}});
        };
        QVERIFY(with({{{"name", "spine0"}, {"capacity", 0}}, {{"name", "leaf1"}, {"capacity", 1}}})
                    .empty());
        struct Bad {
            nlohmann::json list;
            std::string path;
        };
        const std::vector<Bad> bad = {
            {"spine0", "$.topology.failed"},
            {{"spine0"}, "$.topology.failed[0]"},
            {{{{"capacity", 0}}}, "$.topology.failed[0].name"},
            {{{{"name", "spine0"}, {"capacity", 2}}}, "$.topology.failed[0].capacity"},
            {{{{"name", "spine0"}, {"capacity", 0}}, {{"name", "spine1"}, {"fraction", 0}}},
             "$.topology.failed[1].fraction"},
        };
        for (const Bad& b : bad) {
            const auto e = with(b.list);
            QVERIFY2(e.size() == 1 && e.front().path == b.path, b.list.dump().c_str());
        }
        nlohmann::json many = nlohmann::json::array();
        for (size_t i = 0; i <= f.maxItems; ++i)
            many.push_back({{"name", "spine0"}, {"capacity", 0}});
        const auto e = with(many);
        QCOMPARE(e.size(), size_t(1));
        QCOMPARE(e.front().path, std::string("$.topology.failed"));
    }

    // The writers write the table's keys in its order; an off-default value reads back equal.
    void topologyRoundTrip() {
        const Topology t = offDefaultTopology();
        const nlohmann::ordered_json j = writeTopology(t);
        QCOMPARE(keysOf(j), tableKeys(topologyFields()));
        // `rails` is written only when not "none", the keys after `allreduce` only off their
        // defaults: a topology without them writes the bytes it wrote before they existed.
        std::vector<std::string> withoutRails = tableKeys(topologyFields());
        for (const char* key : {"rails", "tiers", "leaves_per_pod", "cores",
                                "spine_oversubscription", "planes", "failed"})
            withoutRails.erase(std::find(withoutRails.begin(), withoutRails.end(), key));
        QCOMPARE(keysOf(writeTopology(Topology{})), withoutRails);
        QCOMPARE(writeTopology(Topology{}).dump(),
                 std::string(R"({"preset":"paper-fabric","kind":"shared","nodes":1024,)"
                             R"("nodes_per_leaf":16,"spines":16,"oversubscription":1.0,)"
                             R"("ecmp":"equal","allreduce":"ring"})"));
        Topology rails;
        QVERIFY(topologyPreset("rail-optimised", rails));
        QCOMPARE(writeTopology(rails)["rails"].get<std::string>(), std::string("optimised"));
        const nlohmann::json in = nlohmann::json::parse(j.dump());
        Diagnostics d;
        Topology back;
        readTopology(JsonReader(in, "$.topology", d), back);
        QVERIFY2(d.ok(), d.str().c_str());
        QVERIFY(back == t);
    }
    void placementRoundTrip() {
        const Placement pl = offDefaultPlacement();
        const nlohmann::ordered_json j = writePlacement(pl);
        QCOMPARE(keysOf(j), tableKeys(placementFields()));
        // The node lists are written only when they hold nodes.
        const std::vector<std::string> table = tableKeys(placementFields());
        const std::vector<std::string> scalars(table.begin(), table.begin() + 3);
        QCOMPARE(keysOf(writePlacement(Placement{})), scalars);
        QCOMPARE(writePlacement(Placement{}).dump(),
                 std::string(R"({"foreground":"packed","background":"packed","seed":1})"));
        const nlohmann::json in = nlohmann::json::parse(j.dump());
        Diagnostics d;
        Placement back;
        readPlacement(JsonReader(in, "$.placement", d), back);
        QVERIFY2(d.ok(), d.str().c_str());
        QVERIFY(back == pl);
    }

    // mosaic.background: `jobs` accepts [0, 1024], refuses one beyond either end at its path; the
    // writer writes the table's keys in order and an off-default load reads back equal.
    void backgroundJobs() {
        QCOMPARE(checkBounds(backgroundFields(), backgroundErrors, nlohmann::json::object(),
                             "$.background"),
                 2);
        BackgroundLoad b;
        b.jobs = 7;
        b.job.nodes = 4;
        b.topology = offDefaultTopology();
        b.placement.seed = 9;
        b.placement.background = PlacementPolicy::Spread;
        const nlohmann::ordered_json j = mosaic::writeBackground(b);
        QCOMPARE(keysOf(j), tableKeys(backgroundFields()));
        const nlohmann::json in = nlohmann::json::parse(j.dump());
        Diagnostics d;
        BackgroundLoad back;
        mosaic::readBackground(JsonReader(in, "$.background", d), back);
        QVERIFY2(d.ok(), d.str().c_str());
        QVERIFY(back == b);
        // A shared fabric is refused at the topology key.
        const auto bad = backgroundErrors({{"topology", {{"preset", "paper-fabric"}}}});
        QCOMPARE(bad.size(), size_t(1));
        QCOMPARE(bad.front().path, std::string("$.background.topology"));
    }
};

TANDEM_TEST_APPLESS_MAIN(TestTopologyFields)
#include "tst_fabric_topology_fields.moc"
