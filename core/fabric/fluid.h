#pragma once
// Flow-level fluid network with max-min fair rates [MODEL.md A3]: one shared fabric that every
// inter-node flow crosses, and one NIC per node. A "group" is one data-parallel job's node set:
// each of its flows is a ring all-reduce that moves `bytesPerNode` through each of `nodes` NICs,
// so it counts as `nodes` node-flows on the fabric (per-flow fairness). Rates are recomputed by
// water-filling whenever a flow starts or finishes (event-driven; no time steps).
// With explicit links (a leaf/spine fabric, fabric/topology.h) every group carries a route
// instead, and the rates are max-min fair over every link of every route (progressive
// filling, docs/MODEL-NETWORK.md).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tandem::fabric {

/// One link a group's flows cross: `share` bytes cross link `link` per byte a node of the group
/// puts on the wire (> 0; e.g. the number of ring hops of the job that leave one leaf).
struct LinkUse {
    int link = 0;
    double share = 1.0;
};
using Route = std::vector<LinkUse>;

/// Bytes each node puts on the wire for a ring all-reduce of `bytes` over `nodes` nodes
/// [NCCL bus bandwidth: 2(n-1)/n]; 0 for one node (intra-node NVLink only, not modelled).
double ringWireBytesPerNode(double bytes, int nodes);

class FluidNetwork {
public:
    /// fabric, nic in bytes/s (>= 0; 0 means nothing ever moves). ccEfficiency in (0, 1] scales
    /// achieved rates; it is divided by (1 + ccDropPerFlow * (active groups - 1)).
    FluidNetwork(double fabricBytesPerS, double nicBytesPerS, double ccEfficiency = 1.0,
                 double ccDropPerFlow = 0.0);

    /// A network of explicit links (capacities in bytes/s, each >= 0): groups then carry routes
    /// (addGroup(nodes, route)) and rates are max-min fair over every link.
    FluidNetwork(std::vector<double> linkBytesPerS, double ccEfficiency, double ccDropPerFlow);

    /// Adds a NIC group of `nodes` nodes (>= 1); returns its id.
    int addGroup(int nodes);
    /// Adds a group whose flows cross `route` (network of explicit links; link ids index the
    /// capacities given to the constructor); returns its id.
    int addGroup(int nodes, const Route& route);
    /// True when the network has explicit links.
    bool hasLinks() const { return m_linked; }
    /// Starts a flow of `bytesPerNode` (> 0) in `group`; returns the flow id. Rates are stale
    /// until recomputeRates().
    int startFlow(int group, double bytesPerNode, int tag);
    /// Water-filling over the active flows: O(G log G) in the number of active groups; with
    /// explicit links, progressive filling: every unfrozen group's per-node rate rises
    /// together until a link is full, whose groups freeze (at most G rounds of O(route sizes)).
    void recomputeRates();
    /// Moves every active flow forward by dt seconds at its current rate.
    void advance(double dt);
    /// Seconds until the first active flow completes at current rates (+inf if none can).
    double timeToNextCompletion() const;
    /// Removes finished flows and appends their ids to `done`: a flow is finished when its
    /// remaining bytes are within rounding of zero (1e-9 of its volume + 1e-3 B) or would take at
    /// most `timeResolution_s` at its rate. The caller passes the spacing of representable clock
    /// values at the current time (one ulp of `now`): a completion closer than that cannot be
    /// given a later event time (now + dt == now), so it happens now, at most one ulp early.
    /// Without it a flow whose rest needs less than an ulp never finishes (the clock stops).
    /// Call recomputeRates() afterwards when anything finished.
    void collectFinished(std::vector<int>& done, double timeResolution_s = 0);

    int flowGroup(int flow) const { return m_flowGroup[flow]; }
    int flowTag(int flow) const { return m_flowTag[flow]; }
    bool flowActive(int flow) const { return m_flowActive[flow] != 0; }
    /// Per-node rate of a flow, bytes/s.
    double flowRate(int flow) const { return m_groupRate[m_flowGroup[flow]]; }
    int groupNodes(int g) const { return m_groupNodes[g]; }
    int groupFlows(int g) const { return m_groupCount[g]; }
    /// Total bytes/s through the fabric from flows of groups [first, last).
    double fabricRate(int firstGroup, int lastGroup) const;
    size_t activeFlows() const { return m_active.size(); }

    /// Starts recording link usage (off by default: no cost without it). The links are the
    /// explicit links, or on the shared fabric link 0 = the shared capacity and link 1 + g = the
    /// NIC of group g (one node's NIC; every node of a group moves the same bytes).
    void trackLinkUsage();
    /// True once trackLinkUsage() was called.
    bool tracksLinkUsage() const { return m_trackUsage; }
    /// Adds `dt` seconds (> 0) at the current rates to the usage record: per link the
    /// utilisation-seconds (bytes/s carried over capacity, after the congestion-control
    /// efficiency), the peak utilisation, and the seconds the link was full (its max-min fair
    /// load, before the efficiency, within a relative kSaturationTolerance of its capacity: a
    /// bottleneck of the fair share); per group whether it moved bytes. O(groups): a link's
    /// interval is added when its load changes (at recomputeRates, O(links any route crosses)
    /// or O(groups) on the shared fabric) or when the totals are read.
    void accumulateUsage(double dt);
    /// Links of the usage record: the explicit links, or 1 + groups on the shared fabric.
    size_t usageLinks() const;
    /// Capacity of usage link `l`, bytes/s.
    double usageCapacity(size_t l) const;
    /// Appends the usage links on group `g`'s path to `out`: its route, or on the shared
    /// fabric the shared link and the group's own NIC.
    void usageLinksOfGroup(int g, std::vector<int>& out) const;
    /// Usage recorded so far, one entry per usage link (zeros when tracking is off): seconds
    /// covered; per link utilisation-seconds, peak utilisation and seconds full (into the
    /// three vectors); per group whether it moved bytes.
    double usageObserved_s() const { return m_usageClock; }
    void usageTotals(std::vector<double>& utilisationSeconds, std::vector<double>& peak,
                     std::vector<double>& saturated_s) const;
    const std::vector<char>& usageGroupSent() const { return m_usageGroupSent; }
    /// A link counts as full when its fair load is within this fraction of its capacity (the
    /// filling freezes a link within 1e-12 of it).
    static constexpr double kSaturationTolerance = 1e-9;

private:
    void updateLinkLoads(double eff);
    /// One link's usage record: its utilisation and fullness since `since` (usage clock, s),
    /// and the totals up to then.
    struct LinkState {
        double util = 0, since = 0, area = 0, peak = 0, saturated = 0;
        std::uint64_t epoch = 0;  // shared: the updateLinkLoads call that last saw it loaded
        bool full = false, loaded = false;
        /// Adds the interval [since, clock) to the totals; since = clock.
        void flush(double clock);
    };
    void recomputeLinkedRates();
    void buildLinkGroups();

    double m_fabric = 0, m_nic = 0, m_cc = 1, m_ccDrop = 0;
    bool m_linked = false;
    std::vector<double> m_linkCap;                 // explicit links: capacity, bytes/s
    std::vector<Route> m_groupRoute;               // per group (explicit links only)
    std::vector<double> m_linkLeft, m_linkWeight;  // scratch of progressive filling
    std::vector<char> m_frozen;                    // scratch: per group
    std::vector<int> m_touched;                    // scratch: loaded links of this filling
    // Groups per link over every route (CSR: m_linkGroups[m_linkStart[l] .. m_linkStart[l+1])),
    // the links any route crosses, and how many groups the structure covers.
    std::vector<int> m_linkStart, m_linkGroups, m_usedLinks;
    size_t m_csrGroups = 0;
    std::vector<int> m_groupNodes, m_groupCount;
    std::vector<double> m_groupRate;
    std::vector<double> m_remaining, m_volume;
    std::vector<int> m_flowGroup, m_flowTag;
    std::vector<char> m_flowActive;
    std::vector<int> m_active;     // active flow ids
    std::vector<int> m_freeSlots;  // reusable flow ids
    std::vector<int> m_order;      // scratch: active groups sorted by NIC cap
    // Per group, the smallest remaining bytes of its active flows (+inf without flows), kept
    // up to date by startFlow/advance/collectFinished: every flow of a group moves at the group's
    // rate, so the next completion and "is anything finished" need only these (O(groups)).
    std::vector<double> m_groupMinRemaining;
    double m_maxVolume = 0;  // largest flow volume ever started (finish tolerance bound)

    // Link usage record (trackLinkUsage): per usage link its state, the usage clock (s), and on
    // the shared fabric the links with load (and scratch for the next list).
    bool m_trackUsage = false;
    double m_usageEff = 1.0, m_usageClock = 0.0;
    std::uint64_t m_usageEpoch = 0;
    std::vector<LinkState> m_linkState;
    std::vector<int> m_loadedLinks, m_nextLoaded;  // shared fabric: the links with load
    std::vector<char> m_usageGroupSent;
};

}  // namespace tandem::fabric
