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

const EnumTable<CollectiveAlgorithm>& collectiveAlgorithmNames() {
    static const EnumTable<CollectiveAlgorithm> t = {{CollectiveAlgorithm::Ring, "ring"},
                                                     {CollectiveAlgorithm::Tree, "tree"},
                                                     {CollectiveAlgorithm::Direct, "direct"},
                                                     {CollectiveAlgorithm::Nvls, "NVLS"},
                                                     {CollectiveAlgorithm::CollNet, "CollNet"}};
    return t;
}

const EnumTable<CollectiveBound>& collectiveBoundNames() {
    static const EnumTable<CollectiveBound> t = {{CollectiveBound::Latency, "latency"},
                                                 {CollectiveBound::NvLink, "NVLink"},
                                                 {CollectiveBound::Network, "NIC"}};
    return t;
}

double collectiveTransfer(const CollectiveCost& cost, double network_s) {
    return cost.pipelined ? pipelinedStages(cost.nvlink_s, network_s, cost.bytes)
                          : std::max(cost.nvlink_s, network_s);
}

double collectiveTimeWithNetwork(const CollectiveCost& cost, double network_s) {
    return cost.latency_s + collectiveTransfer(cost, network_s);
}

namespace {
/// One candidate algorithm: its latency, NVLink stage, the bytes a node sends over the network
/// and how the stages combine; its transfer at the model's network rate is filled in here.
CollectiveCost candidate(CollectiveAlgorithm algorithm, double bytes, double latency,
                         double nvlink_s, double networkBytesPerNode, double networkBytesPerS,
                         bool pipelined) {
    CollectiveCost c;
    c.algorithm = algorithm;
    c.bytes = bytes;
    c.latency_s = latency;
    c.nvlink_s = nvlink_s;
    c.networkBytesPerNode = networkBytesPerNode;
    c.networkBytesPerS = networkBytesPerS;
    c.pipelined = pipelined;
    const double network_s = networkBytesPerS > 0 ? networkBytesPerNode / networkBytesPerS : 0.0;
    c.transfer_s = collectiveTransfer(c, network_s);
    c.bound = c.latency_s > c.transfer_s ? CollectiveBound::Latency
              : nvlink_s >= network_s    ? CollectiveBound::NvLink
                                         : CollectiveBound::Network;
    return c;
}

/// The faster of `best` and `other` (`best` on a tie: the earlier candidate).
void takeFaster(CollectiveCost& best, const CollectiveCost& other) {
    if (other.latency_s + other.transfer_s < best.latency_s + best.transfer_s) best = other;
}
}  // namespace

CollectiveCost analyticalCollectiveCost(const Hardware& hw, Collective c, double bytes, int size,
                                        int stride) {
    if (size <= 1 || bytes <= 0) return CollectiveCost{};
    const double ramp = bytes / (bytes + hw.rampHalfBytes);
    const double nv = hw.nvlinkBytesPerS * hw.intraBusEfficiency * ramp;
    const GroupSpan g = groupSpan(size, stride, hw.gpusPerNode);
    // NVLS: the NVSwitch reduces, each GPU's NVLink carries S once each way; NCCL's bus
    // bandwidth for it is 2 x nvlsEfficiency x the NVLink rate.
    const bool nvls = c == Collective::AllReduce && hw.nvlsEfficiency > 0;
    const double nvlsBus = 2.0 * hw.nvlsEfficiency * hw.nvlinkBytesPerS * ramp;
    if (g.nodes <= 1) {
        CollectiveCost cost = candidate(CollectiveAlgorithm::Ring, bytes, hw.intraLatency_s,
                                        bytes * busFactor(c, size) / nv, 0, 0, false);
        if (nvls)
            takeFaster(cost, candidate(CollectiveAlgorithm::Nvls, bytes, kNvlsLatency_s,
                                       bytes * busFactor(c, size) / nvlsBus, 0, 0, false));
        return cost;
    }
    const int p = g.ranksPerNode, n = g.nodes;
    // A node's p NICs: the rate the network stage runs at on an idle fabric.
    const double nic = hw.nicBytesPerS * hw.interBusEfficiency * ramp;
    const double nodeNic = p * nic;
    if (c == Collective::AllToAll) {
        // Every peer at once: the share that leaves the node crosses its NICs in parallel with
        // the NVLink share. Direct sends (no reduction, no ring or tree dependency) run at the
        // node's all-to-all share of the NIC line rate.
        const double outside = bytes * double(size - p) / size;
        const double inside = bytes * double(p - 1) / size;
        const double a2aEfficiency =
            hw.alltoallNicEfficiency > 0 ? hw.alltoallNicEfficiency : hw.interBusEfficiency;
        return candidate(CollectiveAlgorithm::Direct, bytes, hw.interLatency_s + kNetStepLatency_s,
                         inside / nv, p * outside, p * hw.nicBytesPerS * a2aEfficiency * ramp,
                         false);
    }
    // Ring over all ranks in placement order: each node's p rails carry the ring's bytes, so the
    // slower of NVLink and p NICs bounds it; 2(N-1) steps for all-reduce (2n of them cross the
    // network), N-1 for reduce-scatter / all-gather (n-1 cross it).
    const bool allReduce = c == Collective::AllReduce;
    const int steps = allReduce ? 2 * (size - 1) : size - 1;
    const int netSteps = allReduce ? 2 * n : n - 1;
    const double ringBytes = bytes * busFactor(c, size);
    CollectiveCost cost = candidate(CollectiveAlgorithm::Ring, bytes,
                                    hw.interLatency_s + kNetStepLatency_s * netSteps +
                                        kNvlinkStepLatency_s * std::max(0, steps - netSteps),
                                    ringBytes / nv, ringBytes, nodeNic, false);
    if (!allReduce) return cost;
    // All-reduce also has NCCL's hierarchical algorithms (tree, NVLS tree): an NVLink
    // reduce-scatter on the full buffer, the shards all-reduced across nodes at the per-GPU NIC
    // rate, an NVLink all-gather, pipelined chunk by chunk; a tree's latency grows with
    // log2(nodes). NCCL takes the faster.
    const double intra = p > 1 ? bytes * busFactor(c, p) / nv : 0.0;
    takeFaster(cost,
               candidate(CollectiveAlgorithm::Tree, bytes,
                         hw.interLatency_s + 2.0 * (kNvlinkStepLatency_s * (p - 1) +
                                                    kNetStepLatency_s * std::ceil(std::log2(n))),
                         intra, bytes * busFactor(c, n), nodeNic, true));
    if (hw.sharp) {
        // CollNet / SHARP: the switches reduce, so each GPU's NIC sends its S/p shard once and
        // receives the reduced shard once (a node's NICs carry S); inside the node NVLS, or
        // NCCL's CollNet Direct at its share of NVLink; latency independent of the node count.
        const double latency =
            hw.interLatency_s + (nvls ? kNvlsLatency_s + kNvlsNetLatency_s
                                      : 2.0 * (std::min(1, p - 1) * kCollNetNvlinkLatency_s +
                                               (p - 1) * kCollNetArityLatency_s) +
                                            kCollNetNetLatency_s);
        takeFaster(cost, candidate(CollectiveAlgorithm::CollNet, bytes, latency,
                                   nvls ? bytes * busFactor(c, p) / nvlsBus
                                        : bytes / (kCollNetDirectNvlinkShare * nv),
                                   bytes, nodeNic, true));
    }
    return cost;
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
