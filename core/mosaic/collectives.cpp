#include "mosaic/collectives.h"

#include <algorithm>

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
    if (n <= 1) return 0.0;
    const double f = double(n - 1) / n;
    return c == Collective::AllReduce ? 2.0 * f : f;
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

double analyticalCollectiveTime(const Hardware& hw, Collective c, double bytes, int size,
                                int stride) {
    if (size <= 1 || bytes <= 0) return 0.0;
    const double ramp = bytes / (bytes + hw.rampHalfBytes);
    const double nv = hw.nvlinkBytesPerS * hw.intraBusEfficiency * ramp;
    const GroupSpan g = groupSpan(size, stride, hw.gpusPerNode);
    if (g.nodes <= 1) return hw.intraLatencyS + bytes * busFactor(c, size) / nv;
    const double nic = hw.nicBytesPerS * hw.interBusEfficiency * ramp;
    if (c == Collective::AllToAll) {
        const double outside = bytes * double(size - g.ranksPerNode) / size;
        const double inside = bytes * double(g.ranksPerNode - 1) / size;
        return hw.interLatencyS + std::max(outside / nic, inside / nv);
    }
    // Hierarchical: intra-node stage on the full buffer, inter-node stage on 1/ranksPerNode of
    // it, pipelined chunk by chunk through both stages (NCCL's channels), so they overlap.
    const double intra = g.ranksPerNode > 1 ? bytes * busFactor(c, g.ranksPerNode) / nv : 0.0;
    const double inter = bytes / g.ranksPerNode * busFactor(c, g.nodes) / nic;
    return hw.interLatencyS + pipelinedStages(intra, inter, bytes);
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
