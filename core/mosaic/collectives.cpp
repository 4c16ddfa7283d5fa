#include "mosaic/collectives.h"

#include <algorithm>
#include <cmath>

#include "mosaic/measured_collectives.h"

namespace tandem::mosaic {
namespace {

thread_local CollectiveRecorder* tRecorder = nullptr;

}  // namespace

const EnumSubset<Collective, io::Collective>& ncclCollectives() {
    static const EnumSubset<Collective, io::Collective> s = {
        {Collective::AllReduce, io::Collective::AllReduce},
        {Collective::ReduceScatter, io::Collective::ReduceScatter},
        {Collective::AllGather, io::Collective::AllGather},
        {Collective::AllToAll, io::Collective::AllToAll}};
    return s;
}
const EnumTable<Collective>& collectiveNames() {
    static const EnumTable<Collective> t = subsetNames(ncclCollectives(), io::collectiveNames());
    return t;
}
const char* collectiveName(Collective c) { return enumName(collectiveNames(), c); }

double busFactor(Collective c, int n) {
    return io::busBandwidthFactor(widen(ncclCollectives(), c), n);
}

GroupSpan groupSpan(int size, int stride, int gpusPerNode) {
    GroupSpan s;
    if (size <= 1) return s;
    stride = std::max(1, stride);
    if (stride >= gpusPerNode) {
        s.ranksPerNode = 1;
    } else {
        s.ranksPerNode = std::max(1, std::min(size, gpusPerNode / stride));
    }
    s.nodes = (size + s.ranksPerNode - 1) / s.ranksPerNode;
    return s;
}

double collectiveTime(const Hardware& hw, Collective c, double bytes, int size, int stride) {
    if (!hw.measured) return analyticalCollectiveTime(hw, c, bytes, size, stride);
    if (CollectiveRecorder* rec = tRecorder) {
        CollectiveUse use;
        const double t = hw.measured->timeOf(hw, c, bytes, size, stride, &use);
        rec->add(use);
        return t;
    }
    return hw.measured->timeOf(hw, c, bytes, size, stride);
}

double pipelinedStages(double first_s, double second_s, double bytes) {
    const double slower = std::max(first_s, second_s), faster = std::min(first_s, second_s);
    const double chunks = std::max(1.0, bytes / kPipelineChunkBytes);
    return slower + faster / chunks;
}

namespace {
/// `cost` bound by `stage`, or by latency where the latencies exceed the transfer time.
CollectiveCost withBound(CollectiveCost cost, CollectiveBound stage) {
    cost.bound = cost.latency_s > cost.transfer_s ? CollectiveBound::Latency : stage;
    return cost;
}
}  // namespace

const EnumTable<CollectiveBound>& collectiveBoundNames() {
    static const EnumTable<CollectiveBound> t = {{CollectiveBound::Latency, "latency"},
                                                 {CollectiveBound::NvLink, "NVLink"},
                                                 {CollectiveBound::Network, "NIC"}};
    return t;
}

CollectiveCost analyticalCollectiveCost(const Hardware& hw, Collective c, double bytes, int size,
                                        int stride) {
    CollectiveCost cost;
    if (size <= 1 || bytes <= 0) return cost;
    const double ramp = bytes / (bytes + hw.rampHalfBytes);
    const double nv = hw.nvlinkBytesPerS * hw.intraBusEfficiency * ramp;
    const GroupSpan g = groupSpan(size, stride, hw.gpusPerNode);
    if (g.nodes <= 1) {
        cost.algorithm = CollectiveAlgorithm::Ring;
        cost.latency_s = hw.intraLatencyS;
        cost.transfer_s = bytes * busFactor(c, size) / nv;
        return withBound(cost, CollectiveBound::NvLink);
    }
    const double nic = hw.nicBytesPerS * hw.interBusEfficiency * ramp;
    const int p = g.ranksPerNode, n = g.nodes;
    if (c == Collective::AllToAll) {
        // Every peer at once: the share that leaves the node crosses the NIC in parallel with
        // the NVLink share.
        const double outside = bytes * double(size - p) / size;
        const double inside = bytes * double(p - 1) / size;
        cost.algorithm = CollectiveAlgorithm::Direct;
        cost.latency_s = hw.interLatencyS + kNetStepLatencyS;
        cost.transfer_s = std::max(outside / nic, inside / nv);
        return withBound(cost, outside / nic >= inside / nv ? CollectiveBound::Network
                                                            : CollectiveBound::NvLink);
    }
    // Ring over all ranks in placement order: each node's p rails carry the ring's bytes, so the
    // slower of NVLink and p NICs bounds it; 2(N-1) steps for all-reduce (2n of them cross the
    // network), N-1 for reduce-scatter / all-gather (n-1 cross it).
    const bool allReduce = c == Collective::AllReduce;
    const int steps = allReduce ? 2 * (size - 1) : size - 1;
    const int netSteps = allReduce ? 2 * n : n - 1;
    const double ringLatency = hw.interLatencyS + kNetStepLatencyS * netSteps +
                               kNvlinkStepLatencyS * std::max(0, steps - netSteps);
    const double ringTransfer = bytes * busFactor(c, size) / std::min(nv, p * nic);
    cost.algorithm = CollectiveAlgorithm::Ring;
    cost.latency_s = ringLatency;
    cost.transfer_s = ringTransfer;
    const CollectiveBound ringBound =
        nv <= p * nic ? CollectiveBound::NvLink : CollectiveBound::Network;
    if (!allReduce) return withBound(cost, ringBound);
    // All-reduce also has NCCL's hierarchical algorithms (tree, NVLS tree): an NVLink
    // reduce-scatter on the full buffer, the shards all-reduced across nodes at the per-GPU NIC
    // rate, an NVLink all-gather, pipelined chunk by chunk; a tree's latency grows with
    // log2(nodes). NCCL takes the faster.
    const double intra = p > 1 ? bytes * busFactor(c, p) / nv : 0.0;
    const double inter = bytes / p * busFactor(c, n) / nic;
    const double treeLatency =
        hw.interLatencyS +
        2.0 * (kNvlinkStepLatencyS * (p - 1) + kNetStepLatencyS * std::ceil(std::log2(n)));
    const double treeTransfer = pipelinedStages(intra, inter, bytes);
    if (treeLatency + treeTransfer < ringLatency + ringTransfer) {
        cost.algorithm = CollectiveAlgorithm::Tree;
        cost.latency_s = treeLatency;
        cost.transfer_s = treeTransfer;
        return withBound(cost, intra >= inter ? CollectiveBound::NvLink : CollectiveBound::Network);
    }
    return withBound(cost, ringBound);
}

double analyticalCollectiveTime(const Hardware& hw, Collective c, double bytes, int size,
                                int stride) {
    const CollectiveCost cost = analyticalCollectiveCost(hw, c, bytes, size, stride);
    return cost.latency_s + cost.transfer_s;
}

CollectiveRecorder::CollectiveRecorder(std::size_t maxUses)
    : m_maxUses(maxUses), m_previous(tRecorder) {
    tRecorder = this;
}

CollectiveRecorder::~CollectiveRecorder() { tRecorder = m_previous; }

CollectiveRecorder* CollectiveRecorder::current() { return tRecorder; }

void CollectiveRecorder::add(const CollectiveUse& u) {
    ++m_calls;
    if (u.curve >= 0) ++m_measured;
    if (u.curve >= 0 && u.extrapolated) ++m_extrapolated;
    if (m_uses.size() >= m_maxUses) return;
    for (const auto& o : m_uses)
        if (o.collective == u.collective && o.bytes == u.bytes && o.ranks == u.ranks &&
            o.stride == u.stride)
            return;
    m_uses.push_back(u);
}

}  // namespace tandem::mosaic
