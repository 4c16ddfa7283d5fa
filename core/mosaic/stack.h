#pragma once
// Training stacks as data: the software efficiencies, overlap rules, memory rules and layout
// rules the performance model (perf_model.h) applies on top of a hardware sheet, and the compute
// precision of the GEMMs. Two stacks are built in:
//  - `mosaic-paper`: the "fairly basic Megatron-Core stack" of arXiv:2608.10605 Sec. 5 as
//    Tandem reproduces it (the hardware sheet's calibrated efficiencies, the Eq. 11 CPU
//    dispatch floor, chi_sys of Eq. 15, EP | DP, no interleaving);
//  - `megatron-core`: NVIDIA Megatron-Core as the Megatron-Bridge performance recipes run it
//    (kernel-table GEMMs x fitted factors, fitted attention and per-expert time, TP / EP overlap,
//    interleaved 1F1B, expert-parallel folding, distributed optimizer, FSDP, FP8 / MXFP8 / NVFP4).
#include <limits>
#include <string>
#include <vector>

#include "common/enum_names.h"

namespace tandem::mosaic {

/// Compute precision of the linear layers (GEMMs). Attention, the LM head, the router and the
/// norms stay in BF16 in every recipe (Transformer Engine runs only Linear layers in FP8/FP4).
enum class Precision {
    Bf16,   ///< BF16 everywhere
    Fp8,    ///< FP8 with per-tensor (delayed or current) scaling, or 128x128 block scaling (Hopper)
    Mxfp8,  ///< MXFP8: FP8 E4M3 with one E8M0 scale per 32 elements (Blackwell)
    Nvfp4,  ///< NVFP4: FP4 E2M1 with one FP8 scale per 16 elements (Blackwell)
};
constexpr int kPrecisionCount = 4;

/// The word of each precision, in enum order: "bf16", "fp8", "mxfp8", "nvfp4" (scenario files,
/// CSV cells, --precision, messages).
const EnumTable<Precision>& precisionNames();
/// The other spellings parsePrecision() reads, lower-cased, each with its precision: the
/// Megatron-Bridge FP8 recipe names "fp8-cs" (per-tensor current scaling), "fp8-ds" and "fp8-sc"
/// -> fp8 (per-tensor or block scaling); "fp8-mx" -> mxfp8 (tests/data/megatron-bridge/README.md).
const EnumTable<Precision>& precisionAliases();
/// The word of `p` (precisionNames()).
const char* precisionName(Precision p);
/// "bf16, fp8, mxfp8 or nvfp4": every precisionName() in enum order, as messages list them.
std::string precisionNameList();
/// The precision `text` names, ignoring case: a word of precisionNames() or of
/// precisionAliases() (e.g. "BF16", "FP8-CS", "FP8-MX", "MXFP8", "NVFP4"). False for anything
/// else, `out` then untouched.
bool parsePrecision(const std::string& text, Precision& out);

/// What calibrating a stack to a user's measured runs found (mosaic/calibrate.h): errors are
/// median |predicted / measured - 1| of tokens/s per GPU over those runs.
struct StackCalibration {
    int runs = 0;          ///< runs calibrated to; 0: not a calibrated stack
    std::string base;      ///< the built-in stack whose rules it keeps ("megatron-core")
    std::string hardware;  ///< hardware the runs ran on
    double medianAbsErrorBefore = 0, medianAbsErrorAfter = 0;
    double leaveOneRunOut = std::numeric_limits<double>::quiet_NaN();  ///< NaN: not measured
    /// stackFitParameters() names: `refitted`, those some of the runs depend on
    /// (parametersDependedOn, reality.h); `kept`, the rest, left at the base's values. Both
    /// empty in files written before the split was recorded.
    std::vector<std::string> refitted, kept;
    /// False when the refit was declined (calibrateStack): it predicted the user's runs left out
    /// no better than the base predicts them (leaveOneRunOut >= medianAbsErrorBefore), so the
    /// stack keeps the base's constants and medianAbsErrorAfter equals medianAbsErrorBefore.
    bool adopted = true;
    /// The stack the calibration started from and, declined, kept the constants of: `base`, or
    /// a stack calibrated before (a file's name); empty: `base`. Not written to stack files: a
    /// declined check of a calibrated stack keeps that stack's own calibration (calibrateStack).
    std::string from;
};

/// A training stack. Every member is data; the perf model has one code path for all stacks.
/// Members whose mosaic-paper value is neutral (0 overlap, factor 1) leave the model of
/// arXiv:2608.10605 bit for bit unchanged.
struct Stack {
    std::string name = "mosaic-paper";
    std::string description;
    /// For a stack calibrated to a user's runs (`tandem-cli calibrate`, stack_file.h): what the
    /// calibration measured; `runs` 0 for the built-in stacks.
    StackCalibration calibration;

    // ---- Efficiencies ------------------------------------------------------------------------
    /// When true, the efficiencies below replace the hardware sheet's calibration constants
    /// (the sheet then supplies only peaks, bandwidths and latencies).
    bool ownEfficiencies = false;
    double denseGemmMax = 0.61;  ///< large dense GEMM ceiling (fraction of the precision's peak)
    /// Tokens (GEMM rows M) at half the dense GEMM ceiling; <= 0: the hardware sheet's value.
    double denseMHalf = 0;
    double groupedGemmMax = 0.47;  ///< grouped (expert) GEMM ceiling
    double groupedWidthHalf =
        3100;  ///< expert width d_expert / ETP at half grouped-GEMM efficiency
    double attentionEfficiency = 0.40;  ///< flash attention fwd + bwd, fraction of the BF16 peak
    double elementwiseBytesPerTokenPerD = 215;  ///< HBM bytes per token per d of pointwise ops
    double activationMemoryFactor = 1.3;        ///< allocator and framework buffers x activations
    /// GEMM efficiencies by shape from the kernel tables (mosaic/kernel_efficiency.h,
    /// resources/kernels/) for the hardware sheet and GEMM precision: denseGemmMax and
    /// groupedGemmMax then scale the tables' dense and grouped GEMM efficiency (the stack's
    /// fraction of the published kernel speed), the M and width halves are not used, and the MoE
    /// token permutation, the experts' SwiGLU and, below BF16, every Linear's casts to the GEMM
    /// precision are HBM terms of their own (perf_model.cpp). Off, or on hardware without a table
    /// row: the analytical curves (Hardware::denseGemmMax, ...).
    bool kernelTables = false;
    /// Fixed time per local expert, per GEMM pass of its MLP (fc1 and fc2, each forward, data
    /// and weight gradient: 6) and per MoE layer and micro-batch, us (kernel-table stacks only):
    /// each expert's GEMM launches and tails and its share of the routing bookkeeping, which are
    /// not GEMM efficiency. Fitted (megatron-core).
    double expertFixedUs = 0;
    /// The local experts' MLP as one fused kernel replayed from a full-iteration CUDA graph
    /// (Megatron-Bridge `cutedsl_fused_grouped_mlp=True` with `cuda_graph_impl="full_iteration"`,
    /// the GB200 MXFP8 MoE recipes from the 26.06 container on): fc1, the SwiGLU, the casts to
    /// the GEMM precision and fc2 of every local expert in one launch, so no fixed time per local
    /// expert (expertFixedUs) and no HBM pass of the experts' own (their SwiGLU and casts run in
    /// the GEMM epilogues). Kernel-table stacks only, and only at MXFP8 or NVFP4 (the kernel is
    /// a block-scaled grouped GEMM: Blackwell); at another precision the experts are costed
    /// unfused.
    bool fusedGroupedMlp = false;
    /// The expert dispatcher sends a token once to each remote node that holds any of its K
    /// experts and fans it out over NVLink there (Megatron's flex dispatcher with the DeepEP or
    /// HybridEP backend, `--moe-token-dispatcher-type flex`), instead of once per expert (NCCL
    /// all-to-all): the bytes an EP group spanning nodes puts on the network shrink by
    /// dispatchPayloadShare. No effect inside one node.
    bool hierarchicalDispatch = false;
    /// Fused (flash) attention: the attention scores are never stored and the core runs as one
    /// kernel at attentionEfficiency of the BF16 peak over the causal half of the square. Off
    /// (Megatron-LM before flash attention, arXiv:2205.05198): QK^T and the product with V run
    /// as batched GEMMs over the whole square at attentionEfficiency, the masked softmax and its
    /// dropout stream the scores through HBM (perf_model_detail.h: 9 bytes per score forward, 11
    /// backward), and checkpointing None keeps 5 bytes per score for the backward (softmax
    /// output 2, dropout mask 1, dropout output 2) [2205.05198 Sec. 4.1, Eq. 1].
    bool flashAttention = true;
    /// GEMM efficiency of each precision relative to BF16 at the same shape (index = Precision):
    /// time = FLOPs / (peak_precision x eff_BF16(shape) x factor). Quantisation / scaling
    /// kernels and the smaller arithmetic intensity make FP8/FP4 GEMMs reach less of their peak.
    double precisionGemmFactor[kPrecisionCount] = {1, 1, 1, 1};

    // ---- Host and system terms ---------------------------------------------------------------
    /// CPU dispatch floor of Eq. 11 [2608.10605] (off: kernels are launched ahead of the GPU,
    /// CUDA graphs).
    bool cpuDispatchFloor = true;
    /// chi_sys of Eq. 15 [2608.10605] (off: chi = 1).
    bool systemFactor = true;
    /// Host terms of the paper's stack (t_host per microbatch, per MoE layer); off: 0.
    bool hostTerms = true;

    // ---- Overlap rules -----------------------------------------------------------------------
    double tpOverlap = 0;  ///< fraction of the TP (sequence-parallel) collectives hidden by GEMMs
    double a2aOverlap =
        0;  ///< fraction of the expert all-to-all hidden (besides the shared expert)

    // ---- Layout rules ------------------------------------------------------------------------
    /// Expert-parallel folding [Megatron-Core MoE "parallel folding"]: the expert mesh
    /// EP x ETP x EDP covers the same GPUs as TP x CP x DP, so EP may exceed DP. Off: EP | DP
    /// and experts are replicated over TP [2608.10605 App. D.1].
    bool expertFolding = false;
    bool interleaving = false;  ///< interleaved 1F1B (VP > 1) allowed
    bool fsdp = false;          ///< fully sharded data parallel allowed

    // ---- Memory rules ------------------------------------------------------------------------
    /// Extra bytes per GEMM weight for the low-precision copies Transformer Engine keeps
    /// (index = Precision): FP8 1 (the FP8 weight), MXFP8 2 + 2/32 (row- and column-wise copies
    /// with their E8M0 scales), NVFP4 1 + 2/16 (two FP4 copies with FP8 scales).
    double lowPrecisionWeightBytes[kPrecisionCount] = {0, 0, 0, 0};
    /// Linear-layer inputs saved for the backward in the GEMM precision (1 byte) instead of
    /// BF16 when the precision is not BF16 (Transformer Engine).
    bool lowPrecisionActivations = false;
    /// The low-precision copy of lowPrecisionWeightBytes is the GEMM weight itself, with no BF16
    /// copy beside it (index = Precision): Megatron-Core's `--fp8-param-gather` (Transformer
    /// Engine FP8 parameters; the FP32 master weights stay in the optimizer).
    bool lowPrecisionParams[kPrecisionCount] = {false, false, false, false};
    /// Bytes per main gradient (the data-parallel gradient buffer every rank keeps whole): 4 when
    /// gradients are accumulated and reduced in FP32 (`--accumulate-allreduce-grads-in-fp32`,
    /// Megatron-Bridge `grad_reduce_in_fp32`), 2 in BF16. With BF16 main gradients the optimizer
    /// keeps an FP32 copy of its shard of them (optimizerBytesPerParam).
    double mainGradBytes = 4.0;
};

/// Share of the expert all-to-all's network bytes a hierarchical dispatcher
/// (Stack::hierarchicalDispatch) sends: distinct remote nodes a token reaches over the copies
/// it would send one per remote expert, for `experts` experts spread evenly over the `nodes`
/// nodes an EP group spans and `topK` distinct experts per token chosen uniformly (balanced
/// routing): (nodes - 1) (1 - C(E - E/nodes, K) / C(E, K)) / (K (nodes - 1) / nodes). 1 for
/// nodes <= 1. E.g. 128 experts, top-8, 2 nodes: 0.249 (one copy to the other node instead of
/// four). Dimensionless, in (0, 1].
double dispatchPayloadShare(int experts, int topK, int nodes);

/// Whether `s`'s fused grouped MLP (Stack::fusedGroupedMlp) takes effect at GEMM precision `p`:
/// the kernel is a block-scaled grouped GEMM, so MXFP8 or NVFP4 only (the cost model further
/// needs the kernel tables, Stack::kernelTables).
bool fusedGroupedMlpApplies(const Stack& s, Precision p);

/// Bytes per parameter of optimizer state under `s` (sharded over data parallelism by the
/// distributed optimizer): FP32 master weight and the two AdamW moments (12 B), plus the FP32
/// copy of the main gradient when the main gradients are narrower than FP32 (4 B). Megatron-Core
/// distributed optimizer documentation (docs.nvidia.com/megatron-core/developer-guide/latest/
/// distrib_optimizer.html): bytes per parameter 6 + 12/d for BF16 parameters with FP32
/// gradients, 4 + 16/d for 16-bit parameters and gradients (d = data-parallel size).
double optimizerBytesPerParam(const Stack& s);

/// The stack of arXiv:2608.10605 as Tandem reproduces it (default of `reproduce mosaic` and
/// the paper presets).
Stack mosaicPaperStack();
/// Megatron-Core as run by the Megatron-Bridge recipes, with the constants fitted to the
/// measured runs (mosaic/reality.h, `tandem-cli fit-stack`; docs/MODEL-MOSAIC.md).
Stack megatronCoreStack();
/// The megatron-core stack with its fitted members at the fit's fixed starting point
/// (grouped 0.5, expert fixed 10 us, attention 0.4, MXFP8 and NVFP4 factors 1 (the kernel
/// tables as they stand: a precision no run identifies keeps them), all-to-all and TP overlap
/// 0.5): where `tandem-cli fit-stack` starts, so the fit does not depend on the stored result.
Stack megatronCoreFitStart();
/// Megatron-LM as Korthikanti et al. 2022 ran it on Selene's DGX A100 (arXiv:2205.05198): no
/// flash attention, TP collectives not overlapped, no interleaving limits beyond Megatron's,
/// the distributed optimizer not yet used; constants fitted to the paper's Table 5 iteration
/// times (fitStackToKorthikanti, korthikanti.h; docs/MODEL-MOSAIC.md).
Stack megatronLm2022Stack();
/// The megatron-lm-2022 stack with its fitted members at the fit's fixed start (dense 0.7 with
/// the sheet's M half 800, attention 0.4).
Stack megatronLm2022FitStart();
/// "mosaic-paper", "megatron-core", "megatron-lm-2022".
std::vector<std::string> stackNames();
/// Whether `name` is one of stackNames() (a calibrated or file stack may not take one).
bool isBuiltinStack(const std::string& name);
/// Built-in stack by name; throws std::invalid_argument naming the known stacks.
Stack builtinStack(const std::string& name);

/// The fitted members of the megatron-core stack, in a fixed order (fit vector <-> stack).
struct StackFitParameter {
    const char* name;          ///< e.g. "grouped_gemm_max"
    double& (*ref)(Stack& s);  ///< the member it sets
    double low, high;          ///< the physical range the fit keeps the value in
    double start;  ///< where the fit starts (megatronCoreFitStart, megatronLm2022FitStart)
};
/// grouped_gemm_max (the stack's fraction of the kernel tables' grouped GEMM efficiency),
/// expert_fixed_us, attention_efficiency, mxfp8_gemm_factor, nvfp4_gemm_factor, tp_overlap,
/// a2a_overlap: the megatron-core fit to the measured Megatron-Bridge runs (reality.h). The dense
/// GEMM factor and the FP8 factor are not fitted: they are 1, the kernel tables' measured
/// achievable efficiency (MAMF x shape) as it stands.
const std::vector<StackFitParameter>& stackFitParameters();
/// dense_gemm_max, dense_gemm_m_half, attention_efficiency: the megatron-lm-2022 fit to the Table 5
/// iteration times of arXiv:2205.05198 (dense BF16 models only, so no expert, precision or
/// all-to-all constant can be identified there).
const std::vector<StackFitParameter>& megatronLm2022FitParameters();

}  // namespace tandem::mosaic
