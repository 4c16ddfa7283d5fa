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

// Link layout, per plane: Ecmp::Equal has one up and one down bundle per leaf (2L links);
// Hash, or a fabric with failures, one per (leaf, spine) and direction (2LS). Rail-optimised,
// each of a unit's R rail leaves has its own (2LR, 2LRS), the rails of a unit next to each
// other. Tiers 3 then hold each pod spine's core uplink and downlink bundle (2 x pods x S; per
// core under Hash or with failures: 2 x pods x S x C). Planes repeat the whole block; NIC links
// (one per job) follow the last plane.
struct Layout {
    int leaves = 0, spines = 1;
    int rails = 1;  ///< rail leaves per leaf (unit): 1 unless rails are "optimised"
    bool hash = false;
    bool perSpine = false;  ///< one bundle per spine (and per core): hashed ECMP or failures
    int planes = 1;
    int pods = 0;  ///< tiers 3: pods of leavesPerPod leaves; 0 = two tiers
    int leavesPerPod = 1;
    int cores = 1;
    /// Fraction of each bundle's capacity left (failures), per plane: a rail leaf's bundle to
    /// each spine of its pod [(plane, leaf x rails + rail) x spines + spine] and a pod spine's
    /// bundle to each core [(plane, pod x spines + spine) x cores + core]; empty = none failed.
    std::vector<double> leafFrac, coreFrac;
    /// Capacity fraction of each rail leaf switch, [(plane x leaves + leaf) x rails + rail];
    /// empty = none failed.
    std::vector<double> leafSwitch;
    bool failures() const { return !leafFrac.empty(); }
    int leafBundles() const { return rails * (perSpine ? spines : 1); }  // per leaf and direction
    long long leafLinksPerPlane() const { return 2LL * leaves * leafBundles(); }
    long long coreLinksPerPlane() const {
        return pods > 0 ? 2LL * pods * spines * (perSpine ? cores : 1) : 0;
    }
    long long perPlane() const { return leafLinksPerPlane() + coreLinksPerPlane(); }
    int base(int plane) const { return static_cast<int>(plane * perPlane()); }
    int up(int leaf, int rail, int spine, int plane = 0) const {
        return base(plane) + (leaf * rails + rail) * (perSpine ? spines : 1) +
               (perSpine ? spine : 0);
    }
    int down(int leaf, int rail, int spine, int plane = 0) const {
        return up(leaf, rail, spine, plane) + leaves * leafBundles();
    }
    /// Core uplink / downlink bundle of spine `spine` of pod `pod` (to core `core`).
    int coreUp(int pod, int spine, int core, int plane) const {
        return base(plane) + static_cast<int>(leafLinksPerPlane()) +
               (pod * spines + spine) * (perSpine ? cores : 1) + (perSpine ? core : 0);
    }
    int coreDown(int pod, int spine, int core, int plane) const {
        return coreUp(pod, spine, core, plane) + pods * spines * (perSpine ? cores : 1);
    }
    int count() const { return static_cast<int>(planes * perPlane()); }
    int podOf(int leaf) const { return pods > 0 ? leaf / leavesPerPod : 0; }
    /// Capacity fraction left of rail leaf (leaf, rail)'s bundle to spine s of its pod.
    double leafF(int plane, int leaf, int rail, int s) const {
        return leafFrac.empty() ? 1.0
                                : leafFrac[(static_cast<std::size_t>(plane) * leaves * rails +
                                            leaf * rails + rail) *
                                               spines +
                                           s];
    }
    double coreF(int plane, int pod, int s, int c) const {
        return coreFrac.empty()
                   ? 1.0
                   : coreFrac[(static_cast<std::size_t>(plane) * pods * spines + pod * spines + s) *
                                  cores +
                              c];
    }
};

/// Thrown by crossLeaves when failures leave no path between two leaves (buildFabric names the
/// job and the `failed` key).
struct NoPath {
    int from, to, plane;
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

// One rail's part `x` of a transfer from leaf `a` to leaf `b` in plane `p`, over the per-spine
// bundles (Hash or failures): at every switch the traffic goes to the next hops that still reach
// `b`, split in proportion to the capacity left on the bundle to each (Equal: ECMP over the
// working member cables) or, Hash, one of them drawn from `hash`. Throws NoPath when none is
// left.
void crossPerSpine(RouteSum& r, const Layout& lay, int p, int a, int b, int rail, double x,
                   SplitMix64& hash) {
    const int S = lay.spines, C = lay.cores;
    const int A = lay.podOf(a), B = lay.podOf(b);
    const bool core = lay.pods > 0 && A != B;
    // Spines of the destination pod that still reach leaf b, and cores that reach one of them.
    std::vector<double> toB(S), coreToB(core ? C : 0);
    for (int s = 0; s < S; ++s) toB[s] = lay.leafF(p, b, rail, s);
    if (core)
        for (int c = 0; c < C; ++c)
            for (int s = 0; s < S && coreToB[c] == 0; ++s)
                if (toB[s] > 0 && lay.coreF(p, B, s, c) > 0) coreToB[c] = 1;
    // Weight of each next hop among those that reach b; picks one (Hash) or splits (Equal).
    auto spread = [&](const std::vector<double>& w, auto&& use) {
        double sum = 0;
        int live = 0;
        for (double v : w)
            if (v > 0) sum += v, ++live;
        if (live == 0) throw NoPath{a, b, p};
        if (lay.hash) {
            // Uniform over the working next hops (a draw per flow, as per-flow ECMP hashes).
            std::uint64_t pick = hash.next() % static_cast<std::uint64_t>(live);
            for (int i = 0; i < static_cast<int>(w.size()); ++i)
                if (w[i] > 0 && pick-- == 0) return use(i, 1.0);
            return;
        }
        for (int i = 0; i < static_cast<int>(w.size()); ++i)
            if (w[i] > 0) use(i, w[i] / sum);
    };
    std::vector<double> first(S);
    for (int s = 0; s < S; ++s) {
        const double f = lay.leafF(p, a, rail, s);
        if (!core) {
            first[s] = toB[s] > 0 ? f : 0.0;
        } else {
            bool reach = false;
            for (int c = 0; c < C && !reach; ++c)
                reach = coreToB[c] > 0 && lay.coreF(p, A, s, c) > 0;
            first[s] = reach ? f : 0.0;
        }
    }
    // Up the source leaf, then (between pods) up a spine to the cores: what arrives at each
    // core is then sent down once per core, so the work is O(spines x cores) per transfer.
    std::vector<double> atCore(core ? C : 0), second(core ? C : 0), third(core ? S : 0);
    spread(first, [&](int s, double ws) {
        r.add(lay.up(a, rail, s, p), x * ws);
        if (!core) {
            r.add(lay.down(b, rail, s, p), x * ws);
            return;
        }
        for (int c = 0; c < C; ++c) second[c] = coreToB[c] > 0 ? lay.coreF(p, A, s, c) : 0.0;
        spread(second, [&](int c, double wc) {
            r.add(lay.coreUp(A, s, c, p), x * ws * wc);
            atCore[c] += x * ws * wc;
        });
    });
    if (!core) return;
    std::vector<double> down(S);
    for (int c = 0; c < C; ++c) {
        if (!(atCore[c] > 0)) continue;
        for (int t = 0; t < S; ++t) third[t] = toB[t] > 0 ? lay.coreF(p, B, t, c) : 0.0;
        spread(third, [&](int t, double wt) {
            r.add(lay.coreDown(B, t, c, p), atCore[c] * wt);
            down[t] += atCore[c] * wt;
        });
    }
    for (int t = 0; t < S; ++t)
        if (down[t] > 0) r.add(lay.down(b, rail, t, p), down[t]);
}

// Cross-leaf traffic of one (source leaf -> destination leaf) transfer carrying `share` bytes
// per wire byte, 1/planes of it in each plane: split evenly over spines ("equal") or `rails`
// flows each hashed onto a spine. Rail-optimised (lay.rails == rails), rail k's 1/rails of it
// leaves through rail leaf k of the source unit and enters through rail leaf k of the
// destination unit. Tiers 3: between pods it also crosses the source pod's spines' core
// uplinks and the destination pod's spines' core downlinks, 1/spines of it on each spine.
void crossLeaves(RouteSum& r, const Layout& lay, int from, int to, double share, int rails,
                 SplitMix64& hash) {
    const bool core = lay.pods > 0 && lay.podOf(from) != lay.podOf(to);
    if (!lay.perSpine) {
        for (int p = 0; p < lay.planes; ++p) {
            const double x = lay.planes == 1 ? share : share / lay.planes;
            for (int k = 0; k < lay.rails; ++k) {
                r.add(lay.up(from, k, 0, p), lay.rails == 1 ? x : x / lay.rails);
                r.add(lay.down(to, k, 0, p), lay.rails == 1 ? x : x / lay.rails);
            }
            if (core)
                for (int s = 0; s < lay.spines; ++s) {
                    r.add(lay.coreUp(lay.podOf(from), s, 0, p), x / lay.spines);
                    r.add(lay.coreDown(lay.podOf(to), s, 0, p), x / lay.spines);
                }
        }
        return;
    }
    for (int p = 0; p < lay.planes; ++p) {
        const double x = lay.planes == 1 ? share : share / lay.planes;
        if (!lay.hash) {
            // Failures under equal ECMP: each rail leaf's part spread by the capacity left.
            for (int k = 0; k < lay.rails; ++k)
                crossPerSpine(r, lay, p, from, to, k, lay.rails == 1 ? x : x / lay.rails, hash);
            continue;
        }
        for (int k = 0; k < rails; ++k) {
            const int rail = lay.rails == 1 ? 0 : k;
            if (!core && !lay.failures()) {
                // The two-tier draw of one spine per flow, as before failures and tiers.
                const int s =
                    static_cast<int>(hash.next() % static_cast<std::uint64_t>(lay.spines));
                r.add(lay.up(from, rail, s, p), x / rails);
                r.add(lay.down(to, rail, s, p), x / rails);
            } else {
                crossPerSpine(r, lay, p, from, to, rail, x / rails, hash);
            }
        }
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

// The link layout of `t` without its failures (cheap: no per-link state).
Layout layoutOf(const Topology& t, int gpusPerNode) {
    Layout lay;
    lay.leaves = (t.nodes + t.nodesPerLeaf - 1) / t.nodesPerLeaf;
    lay.spines = t.spines;
    lay.rails = t.rails == Rails::Optimised ? std::max(1, gpusPerNode) : 1;
    lay.hash = t.ecmp == Ecmp::Hash;
    lay.perSpine = lay.hash || !t.failed.empty();
    lay.planes = std::max(1, t.planes);
    if (t.tiers >= 3) {
        lay.leavesPerPod = std::max(1, t.leavesPerPod);
        lay.pods = (lay.leaves + lay.leavesPerPod - 1) / lay.leavesPerPod;
        lay.cores = std::max(1, t.cores);
    }
    return lay;
}

// Reads "<prefix><n>" with 0 <= n < bound (digits only, no sign or leading zero).
bool indexed(const std::string& tok, const char* prefix, long long bound, int& out) {
    const std::string pre(prefix);
    if (tok.size() <= pre.size() || tok.compare(0, pre.size(), pre) != 0) return false;
    const std::string digits = tok.substr(pre.size());
    if (digits.size() > 9 || (digits.size() > 1 && digits[0] == '0')) return false;
    for (char ch : digits)
        if (ch < '0' || ch > '9') return false;
    const long long n = std::stoll(digits);
    if (n >= bound) return false;
    out = static_cast<int>(n);
    return true;
}

// The switch and link names of `t` a `failed` entry may use, for its error message.
std::string failureNames(const Topology& t, const Layout& lay) {
    const std::string leaf = lay.rails > 1 ? "su0..su" + std::to_string(lay.leaves - 1) +
                                                 "-rail0..rail" + std::to_string(lay.rails - 1)
                                           : "leaf0..leaf" + std::to_string(lay.leaves - 1);
    const std::string spine =
        (lay.pods > 0 ? "pod0..pod" + std::to_string(lay.pods - 1) + "-" : "") + "spine0..spine" +
        std::to_string(lay.spines - 1);
    std::string out = "switches " + leaf + ", " + spine;
    if (lay.pods > 0) out += ", core0..core" + std::to_string(lay.cores - 1);
    out += "; links <leaf>-spine<s>";
    if (lay.pods > 0) out += ", pod<p>-spine<s>-core<c>";
    if (t.planes > 1)
        out += "; optionally prefixed plane0..plane" + std::to_string(t.planes - 1) + "-";
    return out;
}

// Name of leaf (rails "optimised": unit) `leaf`: "leaf3" or "su3".
std::string leafName(const Topology& t, int leaf) {
    return (t.rails == Rails::Optimised ? "su" : "leaf") + std::to_string(leaf);
}

// Resolves `t.failed` into lay's capacity fractions. Throws FabricError at "failed[i].name"
// (relative to the topology object) for a name the fabric does not have or one listed twice.
void applyFailures(const Topology& t, Layout& lay) {
    if (t.failed.empty()) return;
    const int P = lay.planes, L = lay.leaves, R = lay.rails, S = lay.spines, C = lay.cores;
    const int pods = lay.pods;
    lay.leafFrac.assign(static_cast<std::size_t>(P) * L * R * S, 1.0);
    if (pods > 0) lay.coreFrac.assign(static_cast<std::size_t>(P) * pods * S * C, 1.0);
    lay.leafSwitch.assign(static_cast<std::size_t>(P) * L * R, 1.0);
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < t.failed.size(); ++i) {
        const LinkFailure& f = t.failed[i];
        const std::string key = "failed[" + std::to_string(i) + "].name";
        if (std::find(seen.begin(), seen.end(), f.name) != seen.end())
            throw FabricError(key, "\"" + f.name + "\" is listed twice");
        seen.push_back(f.name);
        std::vector<std::string> tok;
        for (std::size_t at = 0;;) {
            const std::size_t dash = f.name.find('-', at);
            tok.push_back(f.name.substr(at, dash == std::string::npos ? dash : dash - at));
            if (dash == std::string::npos) break;
            at = dash + 1;
        }
        int plane = -1;
        std::size_t k = 0;
        if (P > 1 && indexed(tok[0], "plane", P, plane)) k = 1;
        // A leaf (rail leaf) at tok[k..]: its index leaf x rails + rail, or -1.
        auto leafAt = [&](std::size_t& at) {
            int l = 0, r = 0;
            if (R == 1 && at < tok.size() && indexed(tok[at], "leaf", L, l)) {
                at += 1;
                return l;
            }
            if (R > 1 && at + 1 < tok.size() && indexed(tok[at], "su", L, l) &&
                indexed(tok[at + 1], "rail", R, r)) {
                at += 2;
                return l * R + r;
            }
            return -1;
        };
        std::size_t at = k;
        const int leaf = leafAt(at);
        const std::size_t left = tok.size() - at;
        int pod = -1, spine = -1, core = -1;
        bool ok = false;
        if (leaf >= 0) {
            ok = left == 0 || (left == 1 && indexed(tok[at], "spine", S, spine));
        } else if (pods > 0) {
            ok = (left == 1 && indexed(tok[at], "core", C, core)) ||
                 (left >= 2 && left <= 3 && indexed(tok[at], "pod", pods, pod) &&
                  indexed(tok[at + 1], "spine", S, spine) &&
                  (left == 2 || indexed(tok[at + 2], "core", C, core)));
        } else {
            ok = left == 1 && indexed(tok[at], "spine", S, spine);
        }
        if (!ok)
            throw FabricError(key, "the fabric has no link or switch \"" + f.name + "\" (" +
                                       failureNames(t, lay) + ")");
        for (int p = 0; p < P; ++p) {
            if (plane >= 0 && p != plane) continue;
            auto leafBundle = [&](int lr, int s) -> double& {
                return lay.leafFrac[(static_cast<std::size_t>(p) * L * R + lr) * S + s];
            };
            auto coreBundle = [&](int pd, int s, int c) -> double& {
                return lay.coreFrac[(static_cast<std::size_t>(p) * pods + pd) * S * C +
                                    static_cast<std::size_t>(s) * C + c];
            };
            if (leaf >= 0) {  // a leaf switch or one of its bundles
                if (spine < 0)
                    lay.leafSwitch[static_cast<std::size_t>(p) * L * R + leaf] *= f.capacity;
                for (int s = 0; s < S; ++s)
                    if (spine < 0 || s == spine) leafBundle(leaf, s) *= f.capacity;
            } else if (core >= 0 && pod < 0) {  // a core switch
                for (int pd = 0; pd < pods; ++pd)
                    for (int s = 0; s < S; ++s) coreBundle(pd, s, core) *= f.capacity;
            } else if (core >= 0) {  // a spine's bundle to a core
                coreBundle(pod, spine, core) *= f.capacity;
            } else {  // a spine switch: its leaf bundles (and core bundles)
                for (int l = 0; l < L; ++l)
                    if (pods == 0 || l / lay.leavesPerPod == pod)
                        for (int r = 0; r < R; ++r) leafBundle(l * R + r, spine) *= f.capacity;
                if (pods > 0)
                    for (int c = 0; c < C; ++c) coreBundle(pod, spine, c) *= f.capacity;
            }
        }
    }
}

}  // namespace

long long fabricLeafLinks(const Topology& t, int gpusPerNode) {
    const Layout lay = layoutOf(t, gpusPerNode);
    return lay.planes * lay.perPlane();
}

FabricError::FabricError(std::string key, std::string reason)
    : std::invalid_argument(key + ": " + reason),
      m_key(std::move(key)),
      m_reason(std::move(reason)) {}

Route concurrentGroupsRoute(const Topology& t, const std::vector<int>& nodes, int groupSize,
                            Collective c, int nicLink, int gpusPerNode, std::uint64_t salt,
                            const FabricKeys& keys) {
    Layout lay = layoutOf(t, gpusPerNode);
    applyFailures(t, lay);
    const int rails = std::max(1, gpusPerNode);
    const int step = std::max(2, groupSize);
    SplitMix64 hash(salt * 0x9E3779B97F4A7C15ull + 29);
    RouteSum sum;
    double nic = 0;
    for (size_t first = 0; first < nodes.size(); first += static_cast<size_t>(step)) {
        const std::vector<int> group(
            nodes.begin() + static_cast<std::ptrdiff_t>(first),
            nodes.begin() + static_cast<std::ptrdiff_t>(std::min(nodes.size(), first + step)));
        Route r;
        try {
            r = c == Collective::AllReduce
                    ? allReduceRoute(t, group, nicLink, lay, rails, salt + first)
                    : allToAllRoute(group, nicLink, lay, t.nodesPerLeaf, rails, hash);
        } catch (const NoPath& np) {
            throw FabricError(keys.topology + ".failed",
                              "disconnects a group of the foreground's " + std::string(name(c)) +
                                  ": no working path from " + leafName(t, np.from) + " to " +
                                  leafName(t, np.to) +
                                  (lay.planes > 1 ? " in plane " + std::to_string(np.plane) : ""));
        }
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
    const int flowsPerHop = gpusPerNode * std::max(1, t.planes);
    if (t.ecmp == Ecmp::Hash && flowsPerHop > kMaxHashedFlowsPerHop) {
        const bool planes = t.planes > 1 && gpusPerNode <= kMaxHashedFlowsPerHop;
        throw FabricError(keys.topology + (planes ? ".planes" : ".ecmp"),
                          "\"hash\" simulates one flow per rail " +
                              std::string(t.planes > 1 ? "and plane " : "") +
                              "of every ring hop; " + std::to_string(gpusPerNode) +
                              " GPUs per node" +
                              (t.planes > 1 ? " x " + std::to_string(t.planes) + " planes" : "") +
                              " are more than the " + std::to_string(kMaxHashedFlowsPerHop) +
                              " a node-count sweep holds within its time bound: use \"equal\"" +
                              (planes ? " or fewer planes" : ""));
    }
    Layout lay = layoutOf(t, gpusPerNode);
    const long long links = fabricLeafLinks(t, gpusPerNode);
    if (links > kMaxFabricLinks) {
        if (t.planes <= 1 && t.tiers <= 2 && t.failed.empty()) {
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
        // Planes, a core tier or failures: the planes multiply, so they are named first.
        const std::string key = t.planes > 1 ? ".planes" : t.tiers > 2 ? ".cores" : ".nodes";
        throw FabricError(
            keys.topology + key,
            std::to_string(links) + " switch links (" +
                (lay.planes > 1 ? std::to_string(lay.planes) + " planes x " : std::string()) +
                std::to_string(lay.leafLinksPerPlane()) + " leaf links + " +
                std::to_string(lay.coreLinksPerPlane()) + " core links" +
                (lay.planes > 1 ? " per plane" : "") +
                (lay.perSpine ? "; hashed ECMP or failures hold one link per spine and core" : "") +
                ") exceed the limit of " + std::to_string(kMaxFabricLinks) +
                " links a simulation holds within its time and memory bounds: fewer planes, "
                "leaves, spines or cores");
    }
    try {
        applyFailures(t, lay);
    } catch (const FabricError& e) {
        throw FabricError(keys.topology + "." + e.key(), e.reason());
    }
    FabricPlan plan;
    // A leaf's uplinks carry K x node NIC / oversubscription each way, split over the spines
    // (Ecmp::Hash: one bundle per spine); rail-optimised, each rail leaf's carry one rail's
    // part of that (one NIC per node). Each plane has 1/planes of every capacity. Tiers 3: the
    // spines of a pod carry its leaves' uplink capacity / spine_oversubscription to the core,
    // split over the spines (and per core under Hash or failures). A failed bundle keeps its
    // fraction of its capacity.
    const double nic = lay.planes > 1 ? nicBytesPerS / lay.planes : nicBytesPerS;
    const double uplink = t.nodesPerLeaf * nic / t.oversubscription;
    double bundle = lay.rails > 1 ? uplink / lay.rails : uplink;
    if (lay.perSpine) bundle /= t.spines;
    double coreBundle = lay.leavesPerPod * uplink / t.spineOversubscription / t.spines;
    if (lay.perSpine) coreBundle /= lay.cores;
    plan.linkCapacity.assign(lay.count(), bundle);
    plan.linkNames.resize(lay.count());
    for (int p = 0; p < lay.planes; ++p) {
        const std::string pl = lay.planes > 1 ? "plane" + std::to_string(p) + "-" : "";
        for (int l = 0; l < lay.leaves; ++l)
            for (int k = 0; k < lay.rails; ++k)
                for (int s = 0; s < (lay.perSpine ? lay.spines : 1); ++s) {
                    const std::string sp = lay.perSpine ? "-spine" + std::to_string(s) : "";
                    const std::string leaf =
                        pl + (t.rails == Rails::Optimised
                                  ? "su" + std::to_string(l) + "-rail" + std::to_string(k)
                                  : "leaf" + std::to_string(l));
                    plan.linkNames[lay.up(l, k, s, p)] = leaf + "-up" + sp;
                    plan.linkNames[lay.down(l, k, s, p)] = leaf + "-down" + sp;
                    if (lay.failures()) {
                        const double f = lay.leafF(p, l, k, s);
                        plan.linkCapacity[lay.up(l, k, s, p)] *= f;
                        plan.linkCapacity[lay.down(l, k, s, p)] *= f;
                    }
                }
        for (int a = 0; a < lay.pods; ++a)
            for (int s = 0; s < lay.spines; ++s)
                for (int c = 0; c < (lay.perSpine ? lay.cores : 1); ++c) {
                    const std::string co = lay.perSpine ? "-core" + std::to_string(c) : "";
                    const std::string spine =
                        pl + "pod" + std::to_string(a) + "-spine" + std::to_string(s);
                    const double f = lay.coreF(p, a, s, c);
                    plan.linkNames[lay.coreUp(a, s, c, p)] = spine + "-up" + co;
                    plan.linkNames[lay.coreDown(a, s, c, p)] = spine + "-down" + co;
                    plan.linkCapacity[lay.coreUp(a, s, c, p)] = coreBundle * f;
                    plan.linkCapacity[lay.coreDown(a, s, c, p)] = coreBundle * f;
                }
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
        const int nicLink = static_cast<int>(plan.linkCapacity.size());
        plan.linkCapacity.push_back(nicBytesPerS);
        const bool fg = j + 1 == plan.jobNodes.size();
        plan.linkNames.push_back(jobName(fg ? kForegroundJob : static_cast<int>(j)) + "-nic");
        const std::string job = jobName(fg ? kForegroundJob : static_cast<int>(j));
        try {
            plan.jobRoutes.push_back(
                allReduceRoute(t, plan.jobNodes[j], nicLink, lay, rails, j + 1));
        } catch (const NoPath& np) {
            throw FabricError(keys.topology + ".failed",
                              "disconnects " + job + ": no working path from " +
                                  leafName(t, np.from) + " to " + leafName(t, np.to) +
                                  (lay.planes > 1 ? " in plane " + std::to_string(np.plane) : ""));
        }
        // A leaf switch at 0 cuts its nodes off (traffic between leaves fails above).
        if (!lay.leafSwitch.empty() && plan.jobNodes[j].size() > 1)
            for (int v : plan.jobNodes[j])
                for (int p = 0; p < lay.planes; ++p)
                    for (int k = 0; k < lay.rails; ++k)
                        if (lay.leafSwitch[(static_cast<std::size_t>(p) * lay.leaves +
                                            v / t.nodesPerLeaf) *
                                               lay.rails +
                                           k] == 0)
                            throw FabricError(
                                keys.topology + ".failed",
                                "disconnects " + job + ": node " + std::to_string(v) +
                                    " is under the failed switch " +
                                    (lay.planes > 1 ? "plane" + std::to_string(p) + "-" : "") +
                                    leafName(t, v / t.nodesPerLeaf) +
                                    (lay.rails > 1 ? "-rail" + std::to_string(k) : ""));
    }
    return plan;
}

}  // namespace tandem::fabric
