#pragma once
// Analytical performance model: MFU, iteration time, memory per GPU and a per-component time
// breakdown for one (geometry, execution plan) on a cluster [2608.10605 Sec. 5, Eq. 1, 11-15,
// App. D.1; MODEL.md B4]. Efficiencies are Tandem's analytical curves (hardware.h), calibrated to
// published points (docs/MODEL-MOSAIC.md). All times in seconds, memory in bytes inside.
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "mosaic/envelope.h"
#include "mosaic/geometry.h"
#include "mosaic/hardware.h"
#include "mosaic/stack.h"

namespace tandem::mosaic {

class LayoutTable;
class GemmEfficiency;

/// Execution plan P_l = (TP, EP, PP, CP, DP, B_micro, A_ckpt) [2608.10605 Table 1]. Dense mesh
/// N_dev = TP CP PP DP; MoE layers split DP = EP x EDP (EP must divide DP) [App. D.1, Eq. 24].
/// With a stack that folds expert parallelism (Stack::expertFolding, Megatron-Core) the MoE
/// layers use their own mesh EP x ETP x EDP = TP x CP x DP, so EP may exceed DP.
struct Plan {
    int tp = 1, ep = 1, pp = 1, cp = 1, dp = 1, mbs = 1;
    Checkpointing ckpt = Checkpointing::None;
    int vp = 1;         ///< virtual pipeline stages per GPU (interleaved 1F1B; 1 = plain 1F1B)
    int etp = 1;        ///< expert tensor parallelism (folding stacks only)
    bool fsdp = false;  ///< fully sharded data parallel (params, grads, optimizer over DP x CP)
    /// Distributed optimizer (ZeRO-1): FP32 master weights and AdamW moments sharded over
    /// DP x CP (experts: EDP x CP); false = replicated on every data-parallel rank.
    bool distributedOptimizer = true;
    /// Sequence parallelism [Korthikanti et al. 2022 Sec. 4.2.2; Megatron `--sequence-parallel`]:
    /// the norms' and dropouts' activations sharded over TP as well. Off, with TP > 1, the
    /// activations outside the TP-split GEMMs are replicated on every TP rank (per layer
    /// s b h (10 + 24/t) bytes instead of 34 s b h / t, Eq. 2 vs. Eq. 3); the TP collectives
    /// move the same bytes (an all-reduce for each all-gather + reduce-scatter pair). Megatron-Core
    /// requires it for MoE layers with TP > 1.
    bool sequenceParallel = true;
    /// Uneven pipeline split [Megatron `--decoder-first-pipeline-num-layers`,
    /// `--decoder-last-pipeline-num-layers`]: layers on the first / last stage, 0 = the even
    /// split. The other stages share the remaining layers exactly (Megatron's rule: they must
    /// divide evenly). Needs PP >= 2; costed with VP = 1.
    int firstStageLayers = 0, lastStageLayers = 0;
};

/// Per-iteration wall time by component, s; the fields sum to PlanEval::iteration_s (each is
/// already multiplied by chi_sys).
struct Breakdown {
    double compute_s = 0;   ///< GEMMs, attention, pointwise, recomputation (n_mb microbatches)
    double dispatch_s = 0;  ///< CPU dispatch floor beyond compute, Eq. 11, plus host terms
    double a2a_s = 0;       ///< expert all-to-all not hidden behind the shared expert
    /// DP/EDP reduce-scatter + all-gather time beyond one microbatch's compute, which hides the
    /// rest: max(0, T_dp - t_compute,mb) [2608.10605 MODEL.md B]; not ML-for-ML's exposed DP
    /// time (a sync beyond the overlap window).
    double dpBeyondCompute_s = 0;
    double bubble_s = 0;  ///< pipeline fill/drain, Eq. 12
    double vocab_s = 0;   ///< embedding, LM head and cross-entropy stage imbalance, Eq. 13
    double other_s = 0;   ///< TP/CP collectives, pipeline send/recv, optimizer step
};

/// Peak memory per GPU of the fullest pipeline stage by kind, GB (1e9 bytes); sums to memoryGB.
struct MemoryBreakdown {
    double weights = 0;      ///< BF16 parameters + low-precision (FP8/FP4) weight copies
    double gradients = 0;    ///< FP32 main gradients
    double optimizer = 0;    ///< FP32 master weights + AdamW moments (sharded per the stack)
    double activations = 0;  ///< in-flight microbatches x the recompute mode's per-layer bytes
    double other = 0;        ///< logits, all-to-all buffers, FSDP gather buffers
};

/// Peak memory per GPU of one kind of pipeline stage (the first, the middle ones, the last),
/// GB (1e9 bytes); `memory` sums to `totalGB`.
struct StageMemory {
    int firstStage = 0;  ///< 0-based index of the first pipeline stage this row stands for
    int lastStage = 0;   ///< ... and of the last one (middle stages: 1 to PP - 2)
    /// Transformer blocks on each of these stages. An even split without stated first / last
    /// stages balances an uneven L: the first and middle rows hold ceil(L / PP) (the fullest
    /// middle stage), the last floor(L / PP).
    int layers = 0;
    MemoryBreakdown memory;
    double totalGB = 0;
};

/// structuralError's message when EP does not divide DP (a stack without expert-parallel
/// folding, App. D.1); compared by address, so evaluate() can add the two degrees.
extern const char* const kEpMustDivideDp;

/// PlanEval::rule of a plan whose peak memory exceeds the device's usable memory; compared by
/// address.
extern const char* const kDoesNotFitInMemory;

/// Result of costing one plan. When infeasible, `reason` says why and only memoryGB may be set.
struct PlanEval {
    bool feasible = false;
    std::string reason;  ///< why infeasible (empty when feasible)
    /// The rule that cut the plan, without the plan's numbers (a static string: structuralError's
    /// message, "does not fit in device memory", or the impossible-result rule); nullptr when
    /// feasible. Rejection counts group by it.
    const char* rule = nullptr;
    double mfu = 0;          ///< Eq. 1, in [0, 1]
    double iteration_s = 0;  ///< t_iter after chi_sys, s
    /// Analytical t_iter before chi_sys (Eq. 14's t_iter^analytic), s; App. E's listing
    /// reports this one ("Analytical MFU").
    double analytic_iteration_s = 0;
    double memoryGB = 0;     ///< peak memory per GPU, GB (1e9 bytes)
    MemoryBreakdown memory;  ///< memoryGB by kind
    /// B_global T_seq / (t_iter N_dev): trained tokens per second per GPU (convention-free).
    double tokensPerSPerGpu = 0;
    /// Megatron's model-FLOPs count per token (modelFlopsPerToken) x tokensPerSPerGpu / 1e12.
    double modelTflopsPerSPerGpu = 0;
    Breakdown breakdown;
    double chi = 1;        ///< chi_sys of Eq. 15
    int microbatches = 0;  ///< n_mb = B_global / (DP B_micro)
};

/// Model FLOPs utilization [2608.10605 Eq. 1; MODEL.md B4]: F_model / (t_iter N_dev F_peak).
/// `flopsPerIteration` = F_model = 6 N_act B_global T_seq, FLOP (recomputation earns no
/// credit); `iteration_s` = t_iter, s; `devices` = N_dev; `peakFlops` = F_peak per device,
/// FLOP/s. Dimensionless; in [0, 1] for a physical plan (PerfModel refuses a plan outside).
/// Plain arithmetic, no checks: a zero denominator gives inf or NaN.
double modelFlopsUtilization(double flopsPerIteration, double iteration_s, int devices,
                             double peakFlops);

/// The cluster and batch shape a geometry is costed on.
struct Cluster {
    Hardware hardware;
    int devices = 256;                      ///< N_dev
    int globalBatch = 1024;                 ///< B_global, sequences
    int seqLen = 2048;                      ///< T_seq, tokens
    Stack stack;                            ///< training software (default: mosaic-paper)
    Precision precision = Precision::Bf16;  ///< GEMM precision
};
/// The cluster of an envelope.
Cluster clusterOf(const Envelope& e);
/// Dense tensor-core FLOP/s per GPU of `h` at GEMM precision `p` (BF16: peakFlops; FP8 and
/// MXFP8: peakFp8Flops; NVFP4: peakFp4Flops); 0 when the device has no such peak. MXFP8 also
/// needs block-scaled (microscaling) tensor cores, which came with FP4 (Blackwell): 0 on a
/// device without an FP4 peak (H100, H200, H800, A100).
double precisionPeakFlops(const Hardware& h, Precision p);
/// Why hardware `h` cannot run GEMMs in precision `p`, or "" when it can (its peak for `p` is
/// > 0): "h100 has no FP4 peak (peak_fp4_TFLOPs_per_s is 0): use bf16, fp8, mxfp8".
std::string precisionUnsupported(const Hardware& h, Precision p);

/// Discrete layout grids to enumerate.
struct LayoutGrid {
    std::vector<int> tp{1, 2, 4, 8}, cp{1, 2}, pp{1, 2, 4, 8, 16}, ep{1, 2, 4, 8, 16, 32, 64},
        mbs{1, 2, 4};
    std::vector<Checkpointing> ckpt{Checkpointing::None, Checkpointing::Selective,
                                    Checkpointing::SuperSelective, Checkpointing::Full};
};
/// The layout grids of an envelope.
LayoutGrid layoutGridOf(const Envelope& e);

/// Fast result of the hot path (no strings).
struct QuickEval {
    bool feasible = false;
    const char* reason = nullptr;  ///< static string when infeasible
    double mfu = 0, iteration_s = 0, memoryBytes = 0;
};

/// Cost model for one geometry on one cluster; per-geometry terms are computed once in the
/// constructor so that a plan costs ~100 ns. Thread-compatible (const methods only).
class PerfModel {
public:
    PerfModel(const Geometry& g, const Cluster& c);

    /// Structural validity of a plan (mesh product, EP | DP, EP | E, integer n_mb, TP | heads,
    /// TP within a node, PP <= layers, CP | T_seq); nullptr when valid, else the reason.
    const char* structuralError(const Plan& p) const;
    /// Peak memory per GPU, bytes: weights (bf16), gradients (fp32 accumulation), AdamW master
    /// and moments (fp32, sharded over DP for dense and EDP for expert weights), activations of
    /// the in-flight microbatches per checkpointing mode, logits on the last stage.
    double memoryBytes(const Plan& p) const;
    /// Peak memory per GPU of each kind of pipeline stage of `p`, in pipeline order (first,
    /// middle, last; one row when PP = 1), as memoryBytes counts it: the largest totalGB is
    /// PlanEval::memoryGB. Structurally invalid plans are not checked.
    std::vector<StageMemory> stageMemory(const Plan& p) const;
    /// Full evaluation with breakdown and reason. A costing that is physically impossible (MFU
    /// outside [0, 1], a step time that is not positive and finite) is infeasible with the reason,
    /// never reported; quick() and best() refuse it alike.
    PlanEval evaluate(const Plan& p) const;
    /// Hot path: structure and memory checked first, costed only if it fits.
    QuickEval quick(const Plan& p) const;
    /// Every structurally valid plan of the grid, all checkpointing modes (GUI heatmap, CLI).
    std::vector<Plan> enumerate(const LayoutGrid& grid) const;
    /// Best feasible plan (max MFU; ties -> first in enumeration order). For each layout only
    /// the first checkpointing mode of the grid that fits memory is costed (the grid lists them
    /// from least to most recomputation, and recomputation never lowers iteration time).
    /// Returns false if none. Builds a LayoutTable and calls the overload below.
    bool best(const LayoutGrid& grid, Plan& plan, QuickEval& eval) const;
    /// Same result as best(grid, ...) for the grid `table` was built from, bit for bit, with
    /// or without `hint`. The table must come from this model's cluster (same devices, GPUs per
    /// node, B_global, T_seq; otherwise returns false). Exact pruning only:
    ///  - terms that depend only on (TP, CP, B_micro) or on (TP, CP, PP, DP, EP) are computed
    ///    once each;
    ///  - a (TP, CP, PP, DP, EP) group whose weights, gradients and optimizer state alone exceed
    ///    device memory is skipped (every other memory term is >= 0);
    ///  - a layout whose MFU upper bound (iteration time without recomputation, exposed
    ///    collectives, p2p and chi's all-to-all share, all >= 0) cannot beat the best so far is
    ///    skipped before its memory is checked.
    /// `hint` (optional, e.g. the previous geometry's best plan) is tried first so that the
    /// bound prunes early; it never changes the result.
    /// `mfuToBeat`: only plans of MFU strictly above it count (e.g. the best of the batch tables
    /// searched before this one, which wins ties); the result is that of the unbounded search
    /// when its best exceeds `mfuToBeat`, else false. Layouts whose upper bound does not exceed
    /// it are skipped.
    /// `shared` (optional): the terms of this geometry that do not depend on B_global (static
    /// memory and times of each (TP, CP, PP, DP, EP), the (TP, CP, B_micro) shapes), kept across
    /// the batch tables of one rounded layout space, whose groups and shapes must be numbered
    /// together (LayoutTable::shareIds) and whose models differ only in B_global. Reset it
    /// (SharedTerms::reset) for each geometry. It never changes the result, only what is
    /// computed again.
    struct SharedTerms;
    bool best(const LayoutTable& table, Plan& plan, QuickEval& eval, const Plan* hint = nullptr,
              double mfuToBeat = -std::numeric_limits<double>::infinity(),
              SharedTerms* shared = nullptr) const;

    /// MFU of Eq. 1 [2608.10605]: 6 N_act B_global T_seq / (t_iter N_dev peak_BF16).
    double mfu(double iteration_s) const;
    /// Largest MFU (Eq. 1, over the BF16 peak) a step can physically reach at the cluster's GEMM
    /// precision: max(1, precision peak / BF16 peak); a plan above it is refused as impossible.
    double mfuCeiling() const;
    /// Megatron's model FLOPs per trained token (fwd + bwd): 6 x (active GEMM parameters + the
    /// LM head d V) + 6 T_seq n_head d_head per layer (causal attention, QK^T and AV at half
    /// the square) [Megatron-LM training.py num_floating_point_operations; Narayanan et al.
    /// 2021 Eq. 3 without recomputation]. Reproduces the model TFLOP/s/GPU Megatron-Bridge
    /// publishes for Llama 3 8B and 70B at 8192 tokens to 0.1 %.
    double modelFlopsPerToken() const;
    const Geometry& geometry() const { return m_g; }
    const Cluster& cluster() const { return m_c; }

private:
    struct Times;  // every term of one plan's iteration time
    struct Shape;  // terms that depend on (TP, CP, B_micro) only
    struct Group;  // terms that depend on (TP, CP, PP, DP, EP) only
    struct Stage;  // static memory of one pipeline stage of a group
    void cost(const Plan& p, Times& t) const;
    /// The terms of shape (TP, CP, B_micro, EP x ETP, ETP) into `s`, from the per-thread cache
    /// (cachedShape). Under measured collective curves (Hardware::measured) the TP and CP
    /// collectives are costed again on each call, so that a CollectiveRecorder sees every use.
    /// `dense`: also the dense-block terms (needed when some stage holds dense layers).
    /// `epEtp`, `etp`: the expert mesh, used by folding stacks only (per-expert tile, width).
    void shapeTerms(int tp, int cp, int mbs, bool dense, Shape& s, int epEtp = 1,
                    int etp = 1) const;
    /// The terms of a shape but its collectives (Shape::tpCollective and cpLayer are left 0):
    /// compute, attention, pointwise and vocabulary-stage times and the payloads.
    void shapeCompute(int tp, int cp, int mbs, bool dense, Shape& s, int epEtp, int etp) const;
    /// The shape's TP all-gather and exposed CP all-gather time into `s` (whose T and attnCore
    /// shapeCompute has set).
    void shapeCollectives(int tp, int cp, Shape& s) const;
    /// The terms of a shape from a per-thread cache of 1024 shapes keyed by this model
    /// (m_shapeCacheId) and the shape: shapeCompute's, and with analytical collectives (no
    /// measured curves) shapeCollectives' too: a plan evaluation then costs no shape term again
    /// (with kernel tables a shape interpolates them, ~1 us). The reference is valid until the
    /// next call on this thread. A model never changes after construction, so a cached shape is
    /// the computed one, bit for bit.
    const Shape& cachedShape(int tp, int cp, int mbs, bool dense, int epEtp, int etp) const;
    /// Layers of the first, a middle and the last pipeline stage of `p` (even split: ceil(L / PP)
    /// each, the last holding the rest; uneven: Plan::firstStageLayers / lastStageLayers and the
    /// rest split exactly). Returns the rule an uneven split breaks, else nullptr.
    const char* stageLayers(const Plan& p, int& first, int& middle, int& last) const;
    /// Static memory per stage; returns the largest stage's static bytes. `allStages`: also the
    /// middle stages of floor(L / PP) layers of an uneven split (Group::floorMiddleFrom; rows).
    double groupMemory(const Plan& p, Group& g, bool allStages = false) const;
    void groupTimes(const Plan& p, Group& g) const;
    void groupDpTime(const Plan& p, Group& g) const;
    double vocabTime(int pp, int nmb, const Shape& s) const;
    /// <= chi t_analytic of every checkpointing mode of (group, B_micro) when m_boundValid.
    double iterationLowerBound(const Plan& p, const Shape& s, const Group& g, int nmb) const;
    double memoryBytes(const Plan& p, MemoryBreakdown* out) const;
    /// Size of the expert data-parallel group (EDP x CP, or the folded TP CP DP / (EP ETP)).
    int expertDpGroup(const Plan& p) const;
    double memoryOf(const Group& g, const Shape& s, int nmb, Checkpointing ck,
                    MemoryBreakdown* out = nullptr,
                    std::vector<StageMemory>* stages = nullptr) const;
    void batchTimes(const Plan& p, const Shape& s, Group& g, int nmb) const;
    void assemble(const Plan& p, const Shape& s, const Group& g, Times& t) const;
    Geometry m_g;
    Cluster m_c;
    // Cached per-geometry terms (elements / FLOPs per token).
    double m_attnParams, m_sharedParams, m_expertParams, m_routerParams, m_denseFfnParams;
    double m_nActFlopsPerToken;
    int m_moeLayers, m_denseLayers;
    // Activation elements per token per layer (sequence-parallel, before / TP) by checkpointing
    // mode (index = enum value), MoE and dense blocks; and the no-checkpointing values of the
    // layer rematerialised during a full-checkpointing backward.
    double m_actMoe[kCheckpointingCount], m_actDense[kCheckpointingCount], m_actAttn, m_actMoeNone,
        m_actDenseNone;
    /// Of m_actDense, the elements every TP rank holds whole when sequence parallelism is off
    /// (norm inputs, the inputs of the column-parallel GEMMs, the block outputs).
    double m_actDenseReplicated[kCheckpointingCount];
    /// Attention-score elements per token per layer kept for the backward without flash
    /// attention (already in m_actMoe / m_actDense of mode None): 2.5 n_head T_seq.
    double m_actScores = 0;
    bool m_boundValid = false;  ///< hardware rates > 0 and latencies >= 0: the MFU bound holds
    double m_qDim = 0;          ///< n_head d_head (d on the ladder)
    double m_kvDim = 0;         ///< n_kv_head d_head (n_kv_head d / n_head on the ladder)
    double m_gemmPeak = 0;      ///< the precision's peak x the stack's precision factor, FLOP/s
    const char* m_precisionError = nullptr;  ///< the hardware has no peak for the precision
    /// Kernel-table GEMM efficiencies (Stack::kernelTables) at the GEMM precision and at BF16;
    /// null when the stack does not use them or the hardware has no table row.
    std::shared_ptr<const GemmEfficiency> m_kernelLow, m_kernelBf16;
    /// This model's key in the per-thread shape cache (cachedShape), unique per constructed
    /// model (> 0; copies share it: they cost the same).
    unsigned long long m_shapeCacheId = 0;
    struct KernelEffs;  // kernel-table efficiencies of one shape
    /// The kernel-table efficiencies of the GEMMs of shape (TP, CP, B_micro, EP x ETP, ETP) (the
    /// lookup interpolates the tables: ~1 us per shape; cachedShape keeps the result).
    KernelEffs kernelEffs(int tp, int cp, int mbs, int epEtp, int etp) const;
};

}  // namespace tandem::mosaic
