#include "mosaic/collectives.h"

#include <algorithm>

namespace tandem::mosaic {

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
    // Hierarchical: intra-node stage on the full buffer, inter-node stage on 1/ranksPerNode of it.
    const double intra = g.ranksPerNode > 1 ? bytes * busFactor(c, g.ranksPerNode) / nv : 0.0;
    const double inter = bytes / g.ranksPerNode * busFactor(c, g.nodes) / nic;
    return hw.interLatencyS + intra + inter;
}

}  // namespace tandem::mosaic
