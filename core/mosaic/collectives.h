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

/// Bytes on the wire per rank divided by the buffer size S, for n ranks (0 for n <= 1):
/// io::busBandwidthFactor of the nccl-tests collective.
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

/// Per-step latencies of NCCL's ring with the Simple protocol, s [NCCL src/graph/tuning.cc
/// (v2.19-2.21): hwLat NET Ring Simple 14.0 us, NVLink Ring Simple 3.4 us]. A collective across
/// nodes pays one per step on top of the hardware's fixed start-up (Hardware::interLatency_s).
constexpr double kNetStepLatency_s = 14.0e-6;
constexpr double kNvlinkStepLatency_s = 3.4e-6;
/// NCCL's latencies of its in-switch algorithms, Simple protocol, s [NVIDIA/nccl
/// src/graph/tuning.cc (v2.19-2.21) hwLat]: NVLS 23 us on NVLink plus 18 us on the network
/// (latency = intra + inter, independent of rank count); CollNet Direct 31 us on the network,
/// 3.7 us on NVLink, plus 0.4 us of arity serialisation per local rank.
constexpr double kNvlsLatency_s = 23.0e-6;
constexpr double kNvlsNetLatency_s = 18.0e-6;
constexpr double kCollNetNetLatency_s = 31.0e-6;
constexpr double kCollNetNvlinkLatency_s = 3.7e-6;
constexpr double kCollNetArityLatency_s = 0.4e-6;
/// NCCL's algorithm bandwidth of CollNet Direct all-reduce inside a node, as a share of the
/// NVLink rate: its bus bandwidth x 0.85 on compute capability 9.0 and later (Hopper,
/// Blackwell), x 0.5 from bus to algorithm bandwidth [NVIDIA/nccl src/graph/tuning.cc
/// (v2.19-2.21), ncclTopoTuneModel].
constexpr double kCollNetDirectNvlinkShare = 0.85 * 0.5;

/// The algorithm analyticalCollectiveCost chose.
enum class CollectiveAlgorithm {
    Ring,     ///< one ring over every rank (inside one node: the NVLink collective)
    Tree,     ///< hierarchical all-reduce: NVLink stage, network stage on 1/ranksPerNode
    Direct,   ///< all-to-all: every peer at once
    Nvls,     ///< all-reduce reduced in the NVSwitch (NVLink SHARP), one NVLink domain
    CollNet,  ///< all-reduce reduced in the network switches (SHARP) across nodes
};
/// "ring", "tree", "direct", "NVLS", "CollNet".
const EnumTable<CollectiveAlgorithm>& collectiveAlgorithmNames();

/// What bounds a collective's time (analyticalCollectiveCost).
enum class CollectiveBound {
    Latency,  ///< the fixed and per-step latencies exceed the transfer time
    NvLink,   ///< the NVLink stage is the slower one
    Network,  ///< the NIC stage is the slower one
};
/// "latency", "NVLink", "NIC".
const EnumTable<CollectiveBound>& collectiveBoundNames();

/// One collective's time split into its fixed part and its bytes part, s, and the bytes part
/// split into its stages, so that a network simulation can replace the network stage's time by
/// its own (fair shares under other traffic) and keep everything else (collectiveTransfer).
struct CollectiveCost {
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    CollectiveBound bound = CollectiveBound::NvLink;  ///< the binding stage
    double latency_s = 0;                             ///< start-up and per-step latencies
    double transfer_s = 0;                            ///< bytes over the binding stage's bandwidth
    double bytes = 0;                                 ///< S, per rank
    double nvlink_s = 0;  ///< the NVLink stage alone (the whole transfer inside one node), s
    /// Bytes each node's NICs put on the scale-out network (0 inside one node) and the rate the
    /// model gives them: ranksPerNode x NIC line rate x interBusEfficiency x ramp, B/s (the
    /// all-to-all: x alltoallNicEfficiency where the node sets it).
    double networkBytesPerNode = 0;
    double networkBytesPerS = 0;
    /// How the two stages combine: pipelined chunk by chunk (tree, CollNet: pipelinedStages)
    /// or concurrent (ring, all-to-all: the slower one).
    bool pipelined = false;
};

/// The transfer time of `cost` when its network stage takes `network_s` (the idle model's
/// network_s is networkBytesPerNode / networkBytesPerS): the NVLink stage and the network
/// stage combined as the algorithm does (see CollectiveCost::pipelined), s.
double collectiveTransfer(const CollectiveCost& cost, double network_s);

/// Wall time of `cost` when its network stage takes `network_s`: latency_s +
/// collectiveTransfer, s. The fabric simulation times a collective with this, its network
/// stage from the max-min fair shares of its flows (docs/MODEL-NETWORK.md section 4).
double collectiveTimeWithNetwork(const CollectiveCost& cost, double network_s);

/// The one analytical collective model (docs/MODEL-NETWORK.md section 4), for a group of `size`
/// ranks `stride` apart and `bytes` = S per rank (nccl-tests size):
/// - inside one node: intraLatency_s + S x busFactor / (NVLink x intraBusEfficiency x ramp);
/// - all-to-all across nodes: interLatency_s + one network step + max(share leaving the node /
///   NIC rate, NVLink share / NVLink rate), the NIC rate at alltoallNicEfficiency of the line
///   rate where the node sets it (direct sends), else at interBusEfficiency;
/// - reduce-scatter / all-gather across nodes: NCCL's ring, the only algorithm it has for them
///   across nodes: interLatency_s + n-1 network steps and N-n NVLink steps, plus S x (N-1)/N over
///   min(NVLink rate, ranksPerNode x NIC rate) (a node's rails carry the ring);
/// - all-reduce across nodes: the faster of the ring (2(N-1) steps, 2n across the network) and
///   the hierarchical tree (NVLink reduce-scatter, the shards all-reduced across nodes at the NIC
///   rate, NVLink all-gather, pipelined chunk by chunk: pipelinedStages; latency 2((p-1) NVLink +
///   ceil(log2 n) network steps));
/// - NCCL's in-switch algorithms where the hardware has them, taken when faster (as NCCL's
///   tuner takes the fastest algorithm):
///   - NVLS (hw.nvlsEfficiency > 0), all-reduce inside one NVLink domain: kNvlsLatency_s +
///     S x busFactor / (2 x nvlsEfficiency x NVLink x ramp): NCCL's NVLS bus bandwidth is twice
///     nvlsEfficiency x the NVLink rate, with no 2(n-1)/n penalty on the bytes each GPU moves
///     [NVIDIA/nccl src/graph/tuning.cc, nvls.cc];
///   - CollNet / SHARP (hw.sharp), all-reduce across nodes: the network reduces, so each GPU's
///     NIC carries its S/p shard once each way instead of 2(n-1)/n times; the NVLink stage is
///     NVLS where the node has it, else NCCL's CollNet Direct at kCollNetDirectNvlinkShare of
///     the NVLink rate (S over it); the two stages pipelined (pipelinedStages); latency
///     interLatency_s + NCCL's NVLS (23 + 18 us) or CollNet Direct (2 x (3.7 + 0.4 (p-1)) + 31 us)
///     latency, independent of the node count.
/// Rates are derated by the size ramp S / (S + rampHalfBytes); the NIC rate is
/// nicBytesPerS x interBusEfficiency. size <= 1 or bytes <= 0 -> zero cost.
CollectiveCost analyticalCollectiveCost(const Hardware& hw, Collective c, double bytes, int size,
                                        int stride);

/// analyticalCollectiveCost's latency + transfer, s.
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
