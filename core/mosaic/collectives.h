#pragma once
// Collective timing with the NCCL bus-bandwidth conventions [nccl-tests doc/PERFORMANCE.md;
// MODEL.md B4]: for a buffer of S bytes per rank on n ranks, all-reduce moves 2(n-1)/n S per
// rank, reduce-scatter and all-gather (n-1)/n S, all-to-all (n-1)/n S.
#include "mosaic/hardware.h"

namespace tandem::mosaic {

enum class Collective { AllReduce, ReduceScatter, AllGather, AllToAll };

/// Bytes on the wire per rank divided by the buffer size S, for n ranks (0 for n <= 1).
double busFactor(Collective c, int n);

/// How a group of `size` ranks whose members are `stride` ranks apart sits on nodes of
/// `gpusPerNode` GPUs: ranks per node and nodes spanned.
struct GroupSpan {
    int ranksPerNode = 1;
    int nodes = 1;
};
GroupSpan groupSpan(int size, int stride, int gpusPerNode);

/// Wall time, s, of one collective over `size` ranks `stride` apart, `bytes` = S the buffer
/// per rank (nccl-tests "size"). Inside one node: NVLink bus bandwidth. Across nodes:
/// hierarchical, NVLink stage plus a scale-out stage at the per-GPU NIC rate (all-to-all: the
/// share of the buffer that leaves the node crosses the NIC, in parallel with the NVLink
/// share). Bandwidth is derated by the size ramp S / (S + rampHalfBytes). size <= 1 -> 0.
double collectiveTime(const Hardware& hw, Collective c, double bytes, int size, int stride);

}  // namespace tandem::mosaic
