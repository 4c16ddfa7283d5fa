#include "fabric/fluid.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "io/collective.h"

namespace tandem::fabric {

double ringWireBytesPerNode(double bytes, int nodes) {
    if (nodes <= 1) return 0.0;
    return io::busBandwidthFactor(io::Collective::AllReduce, nodes) * bytes;
}

FluidNetwork::FluidNetwork(double fabricBytesPerS, double nicBytesPerS, double ccEfficiency,
                           double ccDropPerFlow)
    : m_fabric(std::max(0.0, fabricBytesPerS)),
      m_nic(std::max(0.0, nicBytesPerS)),
      m_cc(ccEfficiency),
      m_ccDrop(ccDropPerFlow) {
    m_remaining.reserve(256);
    m_volume.reserve(256);
    m_flowGroup.reserve(256);
    m_flowTag.reserve(256);
    m_flowActive.reserve(256);
    m_active.reserve(256);
    m_freeSlots.reserve(256);
}

FluidNetwork::FluidNetwork(std::vector<double> linkBytesPerS, double ccEfficiency,
                           double ccDropPerFlow)
    : m_cc(ccEfficiency),
      m_ccDrop(ccDropPerFlow),
      m_linked(true),
      m_linkCap(std::move(linkBytesPerS)) {
    for (double& c : m_linkCap) c = std::max(0.0, c);
    m_linkLeft = m_linkCap;  // nothing loaded before the first filling
    m_linkWeight.resize(m_linkCap.size());
}

int FluidNetwork::addGroup(int nodes, const Route& route) {
    const int g = addGroup(nodes);
    if (m_groupRoute.size() < m_groupNodes.size()) m_groupRoute.resize(m_groupNodes.size());
    m_groupRoute[g] = route;
    return g;
}

int FluidNetwork::addGroup(int nodes) {
    m_groupNodes.push_back(std::max(1, nodes));
    m_groupCount.push_back(0);
    m_groupRate.push_back(0.0);
    m_groupMinRemaining.push_back(std::numeric_limits<double>::infinity());
    m_order.reserve(m_groupNodes.size());
    return static_cast<int>(m_groupNodes.size()) - 1;
}

int FluidNetwork::startFlow(int group, double bytesPerNode, int tag) {
    int id;
    if (!m_freeSlots.empty()) {
        id = m_freeSlots.back();
        m_freeSlots.pop_back();
    } else {
        id = static_cast<int>(m_remaining.size());
        m_remaining.push_back(0);
        m_volume.push_back(0);
        m_flowGroup.push_back(0);
        m_flowTag.push_back(0);
        m_flowActive.push_back(0);
    }
    m_remaining[id] = bytesPerNode;
    m_volume[id] = bytesPerNode;
    m_flowGroup[id] = group;
    m_flowTag[id] = tag;
    m_flowActive[id] = 1;
    m_active.push_back(id);
    ++m_groupCount[group];
    m_groupMinRemaining[group] = std::min(m_groupMinRemaining[group], bytesPerNode);
    m_maxVolume = std::max(m_maxVolume, bytesPerNode);
    return id;
}

void FluidNetwork::buildLinkGroups() {
    // Groups per link over every route (routes never change): CSR, plus the links any route
    // crosses. Inactive groups stay listed and are skipped as frozen.
    const size_t G = m_groupRoute.size();
    std::vector<int> count(m_linkCap.size() + 1, 0);
    for (const Route& r : m_groupRoute)
        for (const LinkUse& u : r) ++count[u.link];
    m_usedLinks.clear();
    m_linkStart.assign(m_linkCap.size() + 1, 0);
    for (size_t l = 0; l < m_linkCap.size(); ++l) {
        if (count[l] > 0) m_usedLinks.push_back(static_cast<int>(l));
        m_linkStart[l + 1] = m_linkStart[l] + count[l];
    }
    m_linkGroups.assign(static_cast<size_t>(m_linkStart.back()), 0);
    std::vector<int> fill(m_linkStart.begin(), m_linkStart.end() - 1);
    for (size_t g = 0; g < G; ++g)
        for (const LinkUse& u : m_groupRoute[g]) m_linkGroups[fill[u.link]++] = static_cast<int>(g);
    m_csrGroups = G;
}

void FluidNetwork::recomputeLinkedRates() {
    // Progressive filling [Bertsekas & Gallager, Data Networks, Sec. 6.5.2]: every active,
    // unfrozen group's per-node rate rises by the same amount until some link is full; the
    // groups crossing a full link freeze; repeat. A group with k active flows counts k times on
    // each of its links (per-flow fairness, as on the shared fabric). Only links some route
    // crosses are visited and each lists its groups (built once), so a call costs
    // O(active route entries + rounds x links still loaded).
    const size_t G = m_groupCount.size();
    m_groupRoute.resize(G);
    if (m_csrGroups != G) buildLinkGroups();
    m_frozen.assign(G, 1);
    for (int l : m_usedLinks) {
        m_linkWeight[l] = 0.0;
        m_linkLeft[l] = m_linkCap[l];
    }
    size_t unfrozen = 0;
    for (size_t g = 0; g < G; ++g) {
        m_groupRate[g] = 0.0;
        if (m_groupCount[g] <= 0) continue;
        m_frozen[g] = 0;
        ++unfrozen;
        for (const LinkUse& u : m_groupRoute[g]) m_linkWeight[u.link] += m_groupCount[g] * u.share;
    }
    m_touched.clear();
    for (int l : m_usedLinks)
        if (m_linkWeight[l] > 0) m_touched.push_back(l);
    const size_t active = unfrozen;
    double level = 0.0;
    std::vector<int>& live = m_touched;  // links still carrying unfrozen groups
    while (unfrozen > 0 && !live.empty()) {
        double step = std::numeric_limits<double>::infinity();
        for (int l : live) step = std::min(step, std::max(0.0, m_linkLeft[l]) / m_linkWeight[l]);
        level += step;
        for (int l : live) m_linkLeft[l] -= step * m_linkWeight[l];
        // Freeze every group on a full link (within rounding of its capacity).
        for (int l : live) {
            if (m_linkLeft[l] > 1e-12 * m_linkCap[l] || m_linkWeight[l] <= 0) continue;
            for (int k = m_linkStart[l]; k < m_linkStart[l + 1]; ++k) {
                const int g = m_linkGroups[k];
                if (m_frozen[g]) continue;
                m_frozen[g] = 1;
                --unfrozen;
                m_groupRate[g] = level;
                for (const LinkUse& u : m_groupRoute[g])
                    m_linkWeight[u.link] -= m_groupCount[g] * u.share;
            }
        }
        size_t w = 0;
        for (int l : live) {
            if (m_linkWeight[l] < 1e-12) {
                m_linkWeight[l] = 0.0;
                continue;
            }
            live[w++] = l;
        }
        live.resize(w);
    }
    const double eff = m_cc / (1.0 + m_ccDrop * (static_cast<double>(active) - 1.0));
    for (size_t g = 0; g < G; ++g) {
        if (m_groupCount[g] <= 0) continue;
        // A group that crosses no link (one node: intra-node only) is never network-bound.
        if (!m_frozen[g])
            m_groupRate[g] =
                m_groupRoute[g].empty() ? std::numeric_limits<double>::infinity() : level;
        m_groupRate[g] *= eff;
    }
    m_usageEff = eff;
    if (m_trackUsage) updateLinkLoads(eff);
}

void FluidNetwork::recomputeRates() {
    if (m_linked) {
        recomputeLinkedRates();
        return;
    }
    // Progressive filling: all node-flows rise together; a group freezes when its NIC is full
    // (k flows share one NIC per node: cap nic/k), the rest freeze when the fabric is full.
    m_order.clear();
    double weight = 0.0;
    for (size_t g = 0; g < m_groupCount.size(); ++g) {
        m_groupRate[g] = 0.0;
        if (m_groupCount[g] > 0) {
            m_order.push_back(static_cast<int>(g));
            weight += double(m_groupCount[g]) * m_groupNodes[g];
        }
    }
    if (m_order.empty()) {
        if (m_trackUsage) updateLinkLoads(1.0);
        return;
    }
    std::sort(m_order.begin(), m_order.end(), [this](int a, int b) {
        return m_groupCount[a] > m_groupCount[b] || (m_groupCount[a] == m_groupCount[b] && a < b);
    });
    const double eff = m_cc / (1.0 + m_ccDrop * (static_cast<double>(m_order.size()) - 1.0));
    double fabricLeft = m_fabric;
    size_t i = 0;
    for (; i < m_order.size(); ++i) {
        const int g = m_order[i];
        const double cap = m_nic / m_groupCount[g];
        const double level = weight > 0 ? fabricLeft / weight : 0.0;
        if (cap <= level) {
            m_groupRate[g] = cap * eff;
            const double w = double(m_groupCount[g]) * m_groupNodes[g];
            fabricLeft -= w * cap;
            weight -= w;
        } else {
            break;
        }
    }
    if (i < m_order.size()) {
        const double level = weight > 0 ? std::max(0.0, fabricLeft) / weight : 0.0;
        for (; i < m_order.size(); ++i) m_groupRate[m_order[i]] = level * eff;
    }
    m_usageEff = eff;
    if (m_trackUsage) updateLinkLoads(eff);
}

void FluidNetwork::trackLinkUsage() {
    if (m_trackUsage) return;
    m_trackUsage = true;
    updateLinkLoads(m_usageEff);  // the current loads, as the last filling left them
}

size_t FluidNetwork::usageLinks() const {
    return m_linked ? m_linkCap.size() : 1 + m_groupNodes.size();
}

double FluidNetwork::usageCapacity(size_t l) const {
    if (m_linked) return m_linkCap[l];
    return l == 0 ? m_fabric : m_nic;
}

void FluidNetwork::usageLinksOfGroup(int g, std::vector<int>& out) const {
    if (!m_linked) {
        out.push_back(0);
        out.push_back(1 + g);
        return;
    }
    if (g < static_cast<int>(m_groupRoute.size()))
        for (const LinkUse& u : m_groupRoute[g]) out.push_back(u.link);
}

void FluidNetwork::LinkState::flush(double clock) {
    const double dur = clock - since;
    if (!(dur > 0)) return;
    area += util * dur;
    peak = std::max(peak, util);
    if (full) saturated += dur;
    since = clock;
}

void FluidNetwork::updateLinkLoads(double eff) {
    // Each loaded link's utilisation holds from its last change to now: a link whose load
    // changed adds that interval and takes the new load. Linked: one pass over the links any
    // route crosses, a link's load being its capacity less what the filling left of it (the
    // filling resets every such link to its capacity first); shared: O(groups).
    const size_t L = usageLinks();
    if (m_linkState.size() < L) m_linkState.resize(L);
    m_usageEff = eff;
    const double clock = m_usageClock;
    // Takes link l's new load (bytes/s, > 0) against capacity `cap`.
    auto set = [this, eff, clock](LinkState& st, double load, double cap) {
        const double util = std::min(load, cap) * eff / cap;  // rounding never above full
        const bool full = load >= cap * (1.0 - kSaturationTolerance);
        if (st.loaded && st.util == util && st.full == full) return;
        if (st.loaded) st.flush(clock);
        st.util = util;
        st.full = full;
        st.since = clock;
        st.loaded = true;
    };
    auto close = [clock](LinkState& st) {
        if (!st.loaded) return;
        st.flush(clock);
        st.loaded = false;
        st.util = 0.0;
        st.full = false;
    };
    if (m_linked) {
        for (int l : m_usedLinks) {
            const double cap = m_linkCap[l];
            const double load = cap - std::max(0.0, m_linkLeft[l]);
            if (load > 0 && cap > 0)
                set(m_linkState[l], load, cap);
            else
                close(m_linkState[l]);
        }
        return;
    }
    ++m_usageEpoch;
    m_nextLoaded.clear();
    auto setShared = [&](int l, double load, double cap) {
        if (!(load > 0) || !std::isfinite(load) || !(cap > 0)) return;
        set(m_linkState[l], load, cap);
        m_linkState[l].epoch = m_usageEpoch;
        m_nextLoaded.push_back(l);
    };
    double fabric = 0.0;
    for (size_t g = 0; g < m_groupCount.size(); ++g) {
        if (m_groupCount[g] <= 0) continue;
        const double fair = eff > 0 ? m_groupRate[g] / eff : 0.0;
        if (!(fair > 0) || !std::isfinite(fair)) continue;
        fabric += double(m_groupCount[g]) * m_groupNodes[g] * fair;
        setShared(1 + static_cast<int>(g), m_groupCount[g] * fair, m_nic);
    }
    setShared(0, fabric, m_fabric);
    // Links no longer loaded close their interval.
    for (int l : m_loadedLinks)
        if (m_linkState[l].epoch != m_usageEpoch) close(m_linkState[l]);
    m_loadedLinks.swap(m_nextLoaded);
}

void FluidNetwork::accumulateUsage(double dt) {
    if (!m_trackUsage || !(dt > 0)) return;
    m_usageClock += dt;
    if (m_usageGroupSent.size() < m_groupCount.size())
        m_usageGroupSent.resize(m_groupCount.size(), 0);
    for (size_t g = 0; g < m_groupCount.size(); ++g)
        if (m_groupCount[g] > 0 && m_groupRate[g] > 0) m_usageGroupSent[g] = 1;
}

void FluidNetwork::usageTotals(std::vector<double>& area, std::vector<double>& peak,
                               std::vector<double>& saturated) const {
    const size_t L = usageLinks();
    area.assign(L, 0.0);
    peak.assign(L, 0.0);
    saturated.assign(L, 0.0);
    for (size_t l = 0; l < L && l < m_linkState.size(); ++l) {
        LinkState st = m_linkState[l];
        if (st.loaded) st.flush(m_usageClock);  // the open interval, on a copy
        area[l] = st.area;
        peak[l] = st.peak;
        saturated[l] = st.saturated;
    }
}

void FluidNetwork::advance(double dt) {
    if (dt <= 0) return;
    std::fill(m_groupMinRemaining.begin(), m_groupMinRemaining.end(),
              std::numeric_limits<double>::infinity());
    for (int f : m_active) {
        const int g = m_flowGroup[f];
        m_remaining[f] -= m_groupRate[g] * dt;
        m_groupMinRemaining[g] = std::min(m_groupMinRemaining[g], m_remaining[f]);
    }
}

double FluidNetwork::timeToNextCompletion() const {
    // Within a group every flow has the same rate, so its first completion is its smallest
    // remaining volume over that rate (the same value a per-flow minimum gives).
    double best = std::numeric_limits<double>::infinity();
    for (size_t g = 0; g < m_groupCount.size(); ++g) {
        const double r = m_groupRate[g];
        if (m_groupCount[g] > 0 && r > 0)
            best = std::min(best, std::max(0.0, m_groupMinRemaining[g]) / r);
    }
    return best;
}

void FluidNetwork::collectFinished(std::vector<int>& done, double timeResolution_s) {
    // A flow of group g is finished when its remaining bytes are <= its own rounding tolerance
    // or <= the bytes it moves in one clock resolution (rate x resolution).
    const double res = std::max(0.0, timeResolution_s);
    auto finishedAt = [&](int g, double remaining, double volume) {
        return remaining <= 1e-9 * volume + 1e-3 || remaining <= m_groupRate[g] * res;
    };
    // Nothing can be finished while every group's smallest remaining volume is above the
    // largest tolerance of its flows.
    bool any = false;
    for (size_t g = 0; g < m_groupCount.size() && !any; ++g)
        any = m_groupCount[g] > 0 &&
              finishedAt(static_cast<int>(g), m_groupMinRemaining[g], m_maxVolume);
    if (!any) return;
    // One pass: remove finished flows and recompute each group's minimum over the rest (every
    // remaining flow reaches the else branch exactly once).
    std::fill(m_groupMinRemaining.begin(), m_groupMinRemaining.end(),
              std::numeric_limits<double>::infinity());
    for (size_t i = 0; i < m_active.size();) {
        const int f = m_active[i];
        if (finishedAt(m_flowGroup[f], m_remaining[f], m_volume[f])) {
            done.push_back(f);
            m_flowActive[f] = 0;
            --m_groupCount[m_flowGroup[f]];
            m_freeSlots.push_back(f);
            m_active[i] = m_active.back();
            m_active.pop_back();
        } else {
            double& m = m_groupMinRemaining[m_flowGroup[f]];
            m = std::min(m, m_remaining[f]);
            ++i;
        }
    }
}

double FluidNetwork::fabricRate(int firstGroup, int lastGroup) const {
    double s = 0;
    for (int g = firstGroup; g < lastGroup; ++g)
        s += m_groupRate[g] * m_groupCount[g] * m_groupNodes[g];
    return s;
}

}  // namespace tandem::fabric
