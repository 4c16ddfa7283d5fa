#pragma once
// Collective timing with the NCCL bus-bandwidth conventions [nccl-tests doc/PERFORMANCE.md;
// MODEL.md B4]: for a buffer of S bytes per rank on n ranks, all-reduce moves 2(n-1)/n S per
// rank, reduce-scatter and all-gather (n-1)/n S, all-to-all (n-1)/n S.
//
// Two sources of timings, chosen per call by collectiveTime():
//  - analytical (the default): latency + S x factor / (bus bandwidth x efficiency x ramp);
//  - measured nccl-tests curves attached to the hardware (Hardware::measured, see
//    mosaic/measured_collectives.h), as the paper costs collectives from measured bus-bandwidth
//    curves [2608.10605 Sec. 5.3, 5.4].
#include <cstddef>
#include <string>
#include <vector>

#include "common/enum_names.h"
#include "io/collective.h"
#include "mosaic/hardware.h"

namespace tandem::mosaic {

/// The collectives the model costs.
enum class Collective { AllReduce, ReduceScatter, AllGather, AllToAll };

/// Each collective the model costs and the nccl-tests collective that measures it; narrow() of
/// any other nccl-tests collective (broadcast, sendrecv, ...) is nullopt.
const EnumSubset<Collective, io::Collective>& ncclCollectives();
/// nccl-tests words of the collectives (io::collectiveNames()): "all_reduce", "reduce_scatter",
/// "all_gather", "alltoall".
const EnumTable<Collective>& collectiveNames();
/// nccl-tests word of a collective (collectiveNames()).
const char* collectiveName(Collective c);

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
/// per rank (nccl-tests "size"). Uses the measured curve of `hw.measured` when one applies to
/// this collective and scope (see MeasuredCollectives::timeOf), else analyticalCollectiveTime.
/// With `hw.measured` null (the default) this is exactly analyticalCollectiveTime.
/// size <= 1 or bytes <= 0 -> 0.
double collectiveTime(const Hardware& hw, Collective c, double bytes, int size, int stride);

/// Pipeline granularity of the hierarchical model, bytes: NCCL moves a buffer through its
/// channels in steps of its per-channel staging buffer (NCCL_BUFFSIZE, 4 MiB by default
/// [NCCL environment variables documentation]).
constexpr double kPipelineChunkBytes = 4.0 * 1024 * 1024;

/// Time, s, of two pipelined stages that take `first_s` and `second_s` alone on a buffer of
/// `bytes` cut into P = max(1, bytes / kPipelineChunkBytes) chunks: the slower stage plus the
/// pipeline fill, max + min / P. One chunk (small buffers) -> the sum; large buffers -> the
/// slower stage. Both times >= 0.
double pipelinedStages(double first_s, double second_s, double bytes);

/// The analytical model alone, s. Inside one node: latency + S x busFactor / (NVLink x
/// intraBusEfficiency x ramp). Across nodes, all-reduce / reduce-scatter / all-gather are
/// hierarchical: an NVLink stage on the full buffer (busFactor over the ranks per node) and a
/// scale-out stage on 1/ranksPerNode of it at the per-GPU NIC rate (busFactor over the nodes),
/// pipelined chunk by chunk as NCCL's channels do, so the stages overlap:
/// t = interLatency + pipelinedStages(t_intra, t_inter, S). Was their sum, which gave half the
/// measured bus bandwidth on H100 2x8 / 10x8 (docs: nccl-tests files in tests/data/nccl,
/// tst_mosaic_collectives). All-to-all: the share of the buffer that leaves the node crosses
/// the NIC in parallel with the NVLink share (max). Bandwidth is derated by the size ramp
/// S / (S + rampHalfBytes). size <= 1 or bytes <= 0 -> 0.
double analyticalCollectiveTime(const Hardware& hw, Collective c, double bytes, int size,
                                int stride);

/// One collectiveTime() call on hardware with measured curves, as a CollectiveRecorder saw it.
struct CollectiveUse {
    Collective collective = Collective::AllReduce;
    double bytes = 0;           ///< S, buffer per rank (nccl-tests size), bytes
    int ranks = 0;              ///< group size
    int stride = 1;             ///< rank distance of the group's members
    int nodes = 1;              ///< nodes the group spans (groupSpan)
    int curve = -1;             ///< index into MeasuredCollectives::curves(); -1 = analytical
    bool standIn = false;       ///< an all_reduce curve used for reduce_scatter / all_gather
    bool rescaled = false;      ///< group size or placement differs from the curve's own run
    bool extrapolated = false;  ///< bytes outside the curve's measured sizes
    double time_s = 0;          ///< the time used, s
    double analytical_s = 0;    ///< the analytical model's time for the same call, s
};

/// Records, on the current thread and while it lives, every collectiveTime() call made on
/// hardware that has measured curves (the analytical default path is never recorded and
/// never slowed). Nested recorders: the innermost one records; the outer one resumes when it
/// is destroyed. Use it around PerfModel::evaluate() of one plan to list which collectives
/// came from measured curves and whether any was extrapolated beyond the measured sizes, or
/// around a whole search with maxUses = 0 to count only.
class CollectiveRecorder {
public:
    /// Keeps at most `maxUses` distinct uses (same collective, bytes, ranks and stride are one
    /// use) in call order; counters always count every call.
    explicit CollectiveRecorder(std::size_t maxUses = 64);
    ~CollectiveRecorder();
    CollectiveRecorder(const CollectiveRecorder&) = delete;
    CollectiveRecorder& operator=(const CollectiveRecorder&) = delete;

    long long calls() const { return m_calls; }                     ///< every recorded call
    long long measuredCalls() const { return m_measured; }          ///< calls costed from a curve
    long long extrapolatedCalls() const { return m_extrapolated; }  ///< ... beyond measured sizes
    const std::vector<CollectiveUse>& uses() const { return m_uses; }

    /// Used by collectiveTime(); the recorder of this thread or nullptr.
    static CollectiveRecorder* current();
    /// Adds one call (collectiveTime() does this).
    void add(const CollectiveUse& u);

private:
    std::size_t m_maxUses;
    long long m_calls = 0, m_measured = 0, m_extrapolated = 0;
    std::vector<CollectiveUse> m_uses;
    CollectiveRecorder* m_previous = nullptr;
};

}  // namespace tandem::mosaic
