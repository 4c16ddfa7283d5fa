#include "mlforml/network_map.h"

#include <algorithm>
#include <map>
#include <set>

namespace tandem::mlforml {

namespace {
// "leaf3-up", "su2-rail5-down-spine7" -> prefix "leaf3" / "su2-rail5", up or down; false for
// a link outside the leaves ("fabric", "bg2-nic").
bool splitLeafLink(const std::string& name, std::string& prefix, bool& up) {
    for (const char* dir : {"-up", "-down"}) {
        const std::string d(dir);
        const size_t at = name.find(d);
        if (at == std::string::npos) continue;
        const size_t end = at + d.size();
        if (end != name.size() && name.compare(end, 6, "-spine") != 0) continue;
        prefix = name.substr(0, at);
        up = d == "-up";
        return true;
    }
    return false;
}

/// Whether `u` moved bytes while recorded: some job crossed it and its utilisation integral is
/// above 0.
bool carried(const fabric::LinkUsage& u) { return !u.jobs.empty() && u.utilisationSeconds > 0; }

bool busier(const fabric::LinkUsage& a, const fabric::LinkUsage& b) {
    if (a.meanUtilisation() != b.meanUtilisation())
        return a.meanUtilisation() > b.meanUtilisation();
    if (a.saturated_s != b.saturated_s) return a.saturated_s > b.saturated_s;
    return a.link < b.link;
}

double busiestMean(const std::vector<fabric::LinkUsage>& links) {
    double m = 0;
    for (const auto& u : links) m = std::max(m, u.meanUtilisation());
    return m;
}
}  // namespace

const LinkTable* linkTableFor(const Result& r, int backgroundJobs) {
    for (const LinkTable& t : r.links)
        if (t.backgroundJobs == backgroundJobs) return &t;
    return r.links.empty() ? nullptr : &r.links.front();
}

NetworkMap networkMap(const Params& p, const LinkTable& table, int maxGroups) {
    NetworkMap m;
    m.backgroundJobs = table.backgroundJobs;
    m.nodes = p.topology.nodes;
    m.nodesPerLeaf = p.topology.nodesPerLeaf;
    m.spines = p.topology.spines;
    m.gpusPerNode = p.gpusPerNode;
    m.oversubscription = p.topology.oversubscription;
    m.hashedEcmp = p.topology.ecmp == fabric::Ecmp::Hash;
    m.railOptimised = p.topology.rails == fabric::Rails::Optimised;

    std::set<int> jobs;
    std::map<std::string, NetworkLeaf> leaves;
    for (const fabric::LinkUsage& u : table.links) {
        for (int j : u.jobs)
            if (j != fabric::kForegroundJob) jobs.insert(j);
        std::string prefix;
        bool up = false;
        if (!splitLeafLink(u.link, prefix, up)) {
            m.otherLinks.push_back(u);
            continue;
        }
        NetworkLeaf& leaf = leaves[prefix];
        leaf.name = prefix;
        (up ? leaf.up : leaf.down).push_back(u);
    }
    m.activeJobs.assign(jobs.begin(), jobs.end());
    // Only links that carried bytes rank: an idle link (nothing moved, e.g. a zero-capacity one
    // whose zero load counts as "full") is never the bottleneck.
    for (const fabric::LinkUsage& u : table.links)
        if (carried(u)) m.busiest.push_back(u);
    std::sort(m.busiest.begin(), m.busiest.end(), busier);
    if (m.busiest.size() > static_cast<size_t>(kBusiestLinks)) m.busiest.resize(kBusiestLinks);
    for (auto& [name, leaf] : leaves) {
        leaf.upMean = busiestMean(leaf.up);
        leaf.downMean = busiestMean(leaf.down);
    }
    m.shared = p.topology.kind != fabric::FabricKind::LeafSpine || leaves.empty();
    if (m.shared) return m;

    const int K = std::max(1, m.nodesPerLeaf);
    m.groupsTotal = (m.nodes + K - 1) / K;
    // Who sits on each node: the plan's job order is background 0..B-1, then the foreground.
    const fabric::FabricPlan plan = buildFabric(p);
    std::map<int, int> jobOfNode;
    for (size_t j = 0; j < plan.jobNodes.size(); ++j) {
        const bool fg = j + 1 == plan.jobNodes.size();
        const int job = fg ? fabric::kForegroundJob : static_cast<int>(j);
        if (!fg && !jobs.count(job)) continue;  // placed, but not running in this condition
        for (int n : plan.jobNodes[j]) jobOfNode[n] = job;
    }
    const auto makeGroup = [&](int g) {
        NetworkGroup grp;
        grp.index = g;
        grp.firstNode = g * K;
        const int count = std::min(K, m.nodes - grp.firstNode);
        for (int n = grp.firstNode; n < grp.firstNode + count; ++n) {
            const auto it = jobOfNode.find(n);
            grp.nodeJobs.push_back(it == jobOfNode.end() ? kIdleNode : it->second);
        }
        const int rails = m.railOptimised ? std::max(1, m.gpusPerNode) : 1;
        for (int k = 0; k < rails; ++k) {
            const std::string name = m.railOptimised
                                         ? "su" + std::to_string(g) + "-rail" + std::to_string(k)
                                         : "leaf" + std::to_string(g);
            const auto it = leaves.find(name);
            NetworkLeaf leaf = it == leaves.end() ? NetworkLeaf{} : it->second;
            leaf.name = name;
            grp.leaves.push_back(std::move(leaf));
        }
        return grp;
    };
    // Groups in the order they are worth showing: the bottleneck's, then the foreground's and
    // the other jobs' groups in turn, each list by its busiest leaf link, so that a foreground
    // spread over many leaves does not hide the leaves the background loads.
    std::vector<int> order;
    const auto add = [&](int g) {
        if (g >= 0 && g < m.groupsTotal && std::find(order.begin(), order.end(), g) == order.end())
            order.push_back(g);
    };
    for (const fabric::LinkUsage& u : m.busiest) {
        std::string prefix;
        bool up = false;
        if (!splitLeafLink(u.link, prefix, up)) continue;
        add(std::stoi(prefix.substr(prefix.find_first_of("0123456789"))));
        break;
    }
    std::set<int> fgGroups, otherGroups;
    for (const auto& [n, job] : jobOfNode)
        (job == fabric::kForegroundJob ? fgGroups : otherGroups).insert(n / K);
    const auto byUse = [&](const std::set<int>& groups) {
        std::vector<std::pair<double, int>> v;
        for (int g : groups) {
            double busiest = 0;
            for (const NetworkLeaf& l : makeGroup(g).leaves)
                busiest = std::max({busiest, l.upMean, l.downMean});
            v.push_back({-busiest, g});
        }
        std::sort(v.begin(), v.end());
        return v;
    };
    const auto fgOrder = byUse(fgGroups), otherOrder = byUse(otherGroups);
    for (size_t i = 0; i < std::max(fgOrder.size(), otherOrder.size()); ++i) {
        if (i < fgOrder.size()) add(fgOrder[i].second);
        if (i < otherOrder.size()) add(otherOrder[i].second);
    }
    for (int g : order) {
        if (static_cast<int>(m.groups.size()) >= std::max(1, maxGroups)) break;
        m.groups.push_back(makeGroup(g));
    }
    return m;
}

}  // namespace tandem::mlforml
