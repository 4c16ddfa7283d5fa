#include <algorithm>
#include <array>
#include <cmath>

#include "mosaic/collectives.h"
#include "mosaic/kernel_efficiency.h"
#include "mosaic/memory_model.h"
#include "mosaic/perf_model.h"
#include "mosaic/perf_model_detail.h"

// The per-shape terms of the perf model: the kernel-table efficiencies of one
// (TP, CP, B_micro, EP x ETP, ETP) shape, the compute, attention and pointwise terms that depend
// on the shape only (PerfModel::shapeCompute) and its TP and CP collectives (shapeCollectives),
// kept per thread (cachedShape) for PerfModel::shapeTerms.

namespace tandem::mosaic {

using detail::kScoreBytesBwd;
using detail::kScoreBytesFwd;
using detail::sat;

/// Efficiencies (fraction of the peak they run at, the stack's factor included) of one shape's
/// GEMMs, fwd + bwd (GemmEfficiency::denseLinear / groupedLinear).
struct PerfModel::KernelEffs {
    double qkv = 0, out = 0;          // attention projections (GEMM precision)
    double fc1 = 0, fc2 = 0;          // dense FFN
    double shared1 = 0, shared2 = 0;  // shared expert
    double routed1 = 0, routed2 = 0;  // routed experts (grouped)
    double router = 0, head = 0;      // BF16: router, LM head
};

PerfModel::KernelEffs PerfModel::kernelEffs(int tpDegree, int cpDegree, int mbs, int epEtp,
                                            int etpDegree) const {
    const Geometry& g = m_g;
    const GemmEfficiency& lo = *m_kernelLow;
    const GemmEfficiency& bf = *m_kernelBf16;
    const double dMax = m_c.hardware.denseGemmMax, gMax = m_c.hardware.groupedGemmMax;
    const double tp = tpDegree, d = g.dModel, e = g.experts;
    const double T = double(m_c.seqLen) * mbs / cpDegree;
    const double kv = m_kvDim;
    KernelEffs k;
    k.qkv = dMax * lo.denseLinear(T, d, (m_qDim + 2 * kv) / tp);
    k.out = dMax * lo.denseLinear(T, m_qDim / tp, d);
    const double ff = double(g.dFf);
    k.fc1 = dMax * lo.denseLinear(T, d, double(g.denseFfnMatrices - 1) * ff / tp);
    k.fc2 = dMax * lo.denseLinear(T, ff / tp, d);
    k.head = dMax * bf.denseLinear(T, d, double(g.vocab) / tp);
    if (g.experts > 0) {
        const double dexp = g.dExpert, topK = g.topK;
        k.shared1 = dMax * lo.denseLinear(T, d, 2 * dexp / tp);
        k.shared2 = dMax * lo.denseLinear(T, dexp / tp, d);
        k.router = dMax * bf.denseLinear(T, d, e);
        const bool fold = m_c.stack.expertFolding;
        const double tile =
            fold ? std::ceil(double(epEtp) * T * topK / (tp * e)) : std::ceil(T * topK / e);
        const double width = fold ? dexp / etpDegree : dexp;
        const double groups = fold ? std::max(1.0, e * etpDegree / epEtp) : e;
        k.routed1 = gMax * lo.groupedLinear(groups, tile, d, 2 * width);
        k.routed2 = gMax * lo.groupedLinear(groups, tile, width, d);
    }
    return k;
}

const PerfModel::Shape& PerfModel::cachedShape(int tpDegree, int cpDegree, int mbs, bool dense,
                                               int epEtp, int etpDegree) const {
    // Only a folding stack's expert tile depends on the expert mesh (shapeCompute).
    if (!m_c.stack.expertFolding) epEtp = etpDegree = 1;
    struct Entry {
        unsigned long long id = 0;  // 0: empty
        int tp = 0, cp = 0, mbs = 0, epEtp = 0, etp = 0;
        bool dense = false;
        Shape shape;
    };
    // Open addressing over 1024 entries per thread (a layout grid has a few hundred shapes),
    // Fibonacci hashing of the packed key. A key probes kProbes slots from its home slot; a
    // new shape takes the first empty one, else the first that holds another model's shape
    // (models built earlier on this thread leave theirs behind), else the home slot.
    constexpr size_t kSlots = 1024, kProbes = 4;
    thread_local std::array<Entry, kSlots> cache;
    const unsigned long long key =
        (m_shapeCacheId << 44) ^ (static_cast<unsigned long long>(tpDegree) << 33) ^
        (static_cast<unsigned long long>(cpDegree) << 22) ^
        (static_cast<unsigned long long>(mbs) << 11) ^
        (static_cast<unsigned long long>(epEtp) * 2654435761ull) ^
        (static_cast<unsigned long long>(etpDegree) << 55) ^ (dense ? 1ull << 63 : 0ull);
    const size_t home = size_t((key * 0x9E3779B97F4A7C15ull) >> 54);
    Entry* slot = nullptr;
    for (size_t i = 0; i < kProbes; ++i) {
        Entry& en = cache[(home + i) % kSlots];
        if (en.id == m_shapeCacheId && en.tp == tpDegree && en.cp == cpDegree && en.mbs == mbs &&
            en.epEtp == epEtp && en.etp == etpDegree && en.dense == dense)
            return en.shape;
        if (en.id == 0) {
            slot = &en;
            break;
        }
        if (!slot && en.id != m_shapeCacheId) slot = &en;
    }
    if (!slot) slot = &cache[home];
    slot->id = m_shapeCacheId;
    slot->tp = tpDegree;
    slot->cp = cpDegree;
    slot->mbs = mbs;
    slot->epEtp = epEtp;
    slot->etp = etpDegree;
    slot->dense = dense;
    shapeCompute(tpDegree, cpDegree, mbs, dense, slot->shape, epEtp, etpDegree);
    if (!m_c.hardware.measured) shapeCollectives(tpDegree, cpDegree, slot->shape);
    return slot->shape;
}

void PerfModel::shapeTerms(int tpDegree, int cpDegree, int mbs, bool dense, Shape& s, int epEtp,
                           int etpDegree) const {
    s = cachedShape(tpDegree, cpDegree, mbs, dense, epEtp, etpDegree);
    // Measured curves: costed on each call (not cached), so that a CollectiveRecorder sees
    // every use.
    if (m_c.hardware.measured) shapeCollectives(tpDegree, cpDegree, s);
}

void PerfModel::shapeCollectives(int tpDegree, int cpDegree, Shape& s) const {
    // Tensor parallel (sequence parallel) all-gather, used 8 or 12 times per layer (AG + RS
    // around attention and FFN, fwd and bwd, + fwd again if full).
    const Hardware& hw = m_c.hardware;
    const double T = s.T, d = m_g.dModel;
    s.tpCollective =
        tpDegree > 1 ? collectiveTime(hw, Collective::AllGather, T * d * kBf16, tpDegree, 1) : 0.0;
    // Context parallel: KV all-gather fwd and reduce-scatter bwd, partly hidden by attention.
    s.cpLayer = 0;
    if (cpDegree > 1) {
        const double kvBytes = cpDegree * T * 2 * m_kvDim * kBf16 / tpDegree;
        s.cpLayer = std::max(
            0.0, 2 * collectiveTime(hw, Collective::AllGather, kvBytes, cpDegree, tpDegree) -
                     s.attnCore);
    }
}

void PerfModel::shapeCompute(int tpDegree, int cpDegree, int mbs, bool dense, Shape& s, int epEtp,
                             int etpDegree) const {
    const Geometry& g = m_g;
    const Hardware& hw = m_c.hardware;
    const double peak = hw.peakFlops, tp = tpDegree;
    const double d = g.dModel, dexp = g.dExpert, k = g.topK, e = g.experts, v = g.vocab;
    const double kv = m_kvDim;
    const double T = double(m_c.seqLen) * mbs / cpDegree;
    s.T = T;
    s.tokensMem = T / tp;
    s.tpReplicas = 0;

    auto effDense = [&](double m, double w) {
        return hw.denseGemmMax * sat(m, hw.denseMHalf) * sat(w, hw.denseWidthHalf);
    };
    // fwd+bwd GEMM time for `params` weights applied to T tokens (3 x 2 FLOPs per MAC).
    auto gemm = [&](double params, double eff) { return 6.0 * T * params / tp / (peak * eff); };
    // The same for the Linear layers, which run at the GEMM precision's peak (the router, the
    // LM head and attention itself stay in BF16).
    const double lowPeak = m_gemmPeak;
    auto gemmLow = [&](double params, double eff) {
        return 6.0 * T * params / tp / (lowPeak * eff);
    };

    // Kernel tables (Stack::kernelTables): each Linear at its own shape's efficiency.
    KernelEffs effs;
    if (m_kernelLow) effs = kernelEffs(tpDegree, cpDegree, mbs, epEtp, etpDegree);
    const KernelEffs* ke = m_kernelLow ? &effs : nullptr;
    // fwd + bwd time of an in x out Linear (per-rank sizes) on T tokens at efficiency `eff`.
    auto lin = [&](double in, double out, double pk, double eff) {
        return 6.0 * T * in * out / (pk * eff);
    };
    const double qkvOut = (m_qDim + 2 * kv) / tp;
    const double attnProj =
        ke ? lin(d, qkvOut, lowPeak, ke->qkv) + lin(m_qDim / tp, d, lowPeak, ke->out)
           : gemmLow(m_attnParams, effDense(T, d / tp));
    // Flash attention: one fused kernel over the causal half of the square, backward 2.5 x the
    // forward. Without it: QK^T and the product with V as batched GEMMs over the whole square
    // (backward 2 x), and the softmax and dropout streaming every score through HBM.
    double attnCoreFwd = 2.0 * T * m_c.seqLen * m_qDim / tp / (peak * hw.attentionEfficiency);
    double attnCore = 3.5 * attnCoreFwd;
    if (!m_c.stack.flashAttention) {
        const double gemmFwd = 4.0 * T * m_c.seqLen * m_qDim / tp / (peak * hw.attentionEfficiency);
        const double scores = T * m_c.seqLen * double(g.nHead) / tp;
        attnCoreFwd = gemmFwd + scores * kScoreBytesFwd / hw.hbmBytesPerS;
        attnCore = 3.0 * gemmFwd + scores * (kScoreBytesFwd + kScoreBytesBwd) / hw.hbmBytesPerS;
    }
    // Pointwise (memory-bound) passes of a layer. The analytical curves: the hardware sheet's
    // lump of bytes per token per d, fitted with the paper's unfused stack, where it holds
    // every non-GEMM pass of the layer, the experts' SwiGLU, router and token permutation
    // included [2608.10605 Sec. 5.3: "MoE top-k routing and element-wise operations (silu,
    // residual add)"]. Kernel-table stacks count the expert passes as terms of their own
    // (permute, expertPointwise below), so the rest is counted byte by byte, each byte once
    // (BF16, fwd + bwd): two RMSNorms (forward reads and writes d, backward reads x and the
    // output gradient and writes the input gradient: 10 d each), two residual adds (read 2 d,
    // write d, forward and backward: 12 d each) and RoPE on q and k (read and write, forward
    // and backward: 8 (q + kv)); the MoE layer adds its FP32 router scores (softmax and top-k
    // over E: 24 E) and its shared experts' SwiGLU, the dense layer its FFN's activation.
    const double layerPassBytes = 44.0 * d + 8.0 * (m_qDim + kv);
    const double pointwise = ke ? T * layerPassBytes / tp / hw.hbmBytesPerS
                                : T * d * hw.elementwiseBytesPerTokenPerD / tp / hw.hbmBytesPerS;
    // Below BF16 (kernel-table stacks), Transformer Engine casts each Linear's input and output
    // gradient to the GEMM precision: read BF16, write row- and column-wise 1-byte copies,
    // 4 bytes per element over HBM. Attention: the QKV input d and its output gradient
    // q + 2 kv, the output projection's input q and output gradient d.
    const bool lowCast = ke && m_c.precision != Precision::Bf16;
    const double attnCast =
        lowCast ? T * (2 * d + 2 * m_qDim + 2 * kv) * 4.0 / tp / hw.hbmBytesPerS : 0.0;
    s.attnCore = attnCore;
    s.shared = 0;
    s.moeLayer = 0;
    s.denseLayer = 0;
    for (int i = 0; i < kCheckpointingCount; ++i) s.moeRecompute[i] = s.denseRecompute[i] = 0;
    if (m_moeLayers > 0) {  // every stage holds MoE layers (layers per stage >= 1)
        const double sh = g.sharedExperts;
        const double shared = m_sharedParams <= 0 ? 0.0
                              : ke ? sh * (lin(d, 2 * dexp / tp, lowPeak, ke->shared1) +
                                           lin(dexp / tp, d, lowPeak, ke->shared2))
                                   : gemmLow(m_sharedParams, effDense(T, dexp / tp));
        const double router =
            ke ? lin(d, e, peak, ke->router) / tp : gemm(m_routerParams, effDense(T, e));
        // Per-expert tile M [2608.10605 Sec. 5.3]; folded (Megatron-Core): the EP x ETP ranks'
        // T / TP tokens each, K assignments per token, over E experts; width d_expert / ETP.
        const double tile = m_c.stack.expertFolding ? std::ceil(double(epEtp) * T * k / (tp * e))
                                                    : std::ceil(T * k / e);
        const double width = m_c.stack.expertFolding ? dexp / etpDegree : dexp;
        const double effG =
            hw.groupedGemmMax * sat(tile, hw.groupedMHalf) * sat(width, hw.groupedWidthHalf);
        const double routed =
            ke ? k / tp *
                     (lin(d, 2 * dexp, lowPeak, ke->routed1) + lin(dexp, d, lowPeak, ke->routed2))
               : gemmLow(k * m_expertParams, effG);
        // Token permutation and unpermutation around the experts (kernel-table stacks: its own
        // memory-bound term): read and write of T K d BF16 elements each way, fwd and bwd.
        const double permute = ke ? 8.0 * T * k * d * kBf16 / tp / hw.hbmBytesPerS : 0.0;
        // The experts' own memory-bound passes (kernel-table stacks), per routed token: the
        // SwiGLU over the fc1 output (forward reads 2 d_expert and writes d_expert BF16
        // elements, backward reads d_expert + 2 d_expert and writes 2 d_expert: 16 d_expert
        // bytes), and below BF16 the casts of fc1's input d, fc2's input d_expert, fc2's output
        // gradient d and fc1's output gradient 2 d_expert (8 d + 12 d_expert bytes).
        const bool fused = ke && fusedGroupedMlpApplies(m_c.stack, m_c.precision);
        const double expertPointwise =
            ke && !fused ? T * k * (16.0 * dexp + (lowCast ? 8.0 * d + 12.0 * dexp : 0.0)) / tp /
                               hw.hbmBytesPerS
                         : 0.0;
        const double localExperts =
            m_c.stack.expertFolding ? std::max(1.0, e * etpDegree / epEtp) : e;
        const double perExpert =
            ke && !fused ? localExperts * 6.0 * m_c.stack.expertFixedUs * 1e-6 : 0.0;
        // The shared experts' casts: inputs d and d_expert, output gradients d and 2 d_expert.
        const double sharedCast =
            lowCast ? T * sh * (2 * d + 3 * dexp) * 4.0 / tp / hw.hbmBytesPerS : 0.0;
        // Kernel-table stacks: the FP32 router scores and the shared experts' SwiGLU (16
        // d_expert bytes per token, as the routed experts' below).
        const double moePointwise =
            pointwise + (ke ? T * (24.0 * e + 16.0 * sh * dexp) / tp / hw.hbmBytesPerS : 0.0);
        const double moeLayer = attnProj + attnCore + shared + router + routed + moePointwise +
                                permute + perExpert + expertPointwise + attnCast + sharedCast;
        s.shared = shared;
        s.moeLayer = moeLayer;
        s.moeRecompute[ckptRank(Checkpointing::CoreAttention)] = attnCoreFwd;
        s.moeRecompute[ckptRank(Checkpointing::Selective)] = attnCoreFwd + moePointwise / 3;
        s.moeRecompute[ckptRank(Checkpointing::SuperSelective)] =
            attnCoreFwd + (moePointwise + expertPointwise) / 3 + (routed + shared + sharedCast) / 3;
        s.moeRecompute[ckptRank(Checkpointing::Full)] = moeLayer / 3;
    }
    if (dense) {  // used only by stages that hold dense layers
        const double ff = double(g.dFf);
        const double ffn = ke ? lin(d, double(g.denseFfnMatrices - 1) * ff / tp, lowPeak, ke->fc1) +
                                    lin(ff / tp, d, lowPeak, ke->fc2)
                              : gemmLow(m_denseFfnParams, effDense(T, ff / tp));
        // The dense FFN's casts: inputs d and d_ff, output gradients d and (matrices - 1) d_ff.
        const double ffnCast =
            lowCast ? T * (2 * d + double(g.denseFfnMatrices) * ff) * 4.0 / tp / hw.hbmBytesPerS
                    : 0.0;
        // Kernel-table stacks: the FFN's activation over its d_ff (/ TP) outputs, SwiGLU 16 d_ff
        // bytes (as the experts'), GeLU 10 d_ff (forward reads and writes d_ff, backward reads
        // the input and the output gradient and writes the input gradient).
        const double densePointwise =
            pointwise +
            (ke ? T * (g.denseFfnMatrices >= 3 ? 16.0 : 10.0) * ff / tp / hw.hbmBytesPerS : 0.0);
        const double denseLayer = attnProj + attnCore + ffn + densePointwise + attnCast + ffnCast;
        s.denseLayer = denseLayer;
        s.denseRecompute[ckptRank(Checkpointing::CoreAttention)] = attnCoreFwd;
        s.denseRecompute[ckptRank(Checkpointing::Selective)] = attnCoreFwd + densePointwise / 3;
        s.denseRecompute[ckptRank(Checkpointing::SuperSelective)] =
            attnCoreFwd + densePointwise / 3 + (ffn + ffnCast) / 3;
        s.denseRecompute[ckptRank(Checkpointing::Full)] = denseLayer / 3;
    }
    // Expert all-to-all payload (the TP and CP collectives: shapeCollectives).
    s.a2aBytes = T * k * d * kBf16 / tp;
    s.tpCollective = s.cpLayer = 0;
    s.p2pBytes = T * d * kBf16 / tp;
    // Vocabulary stages [Eq. 13].
    s.tLast = (ke ? lin(d, v / tp, peak, ke->head) : gemm(v * d, effDense(T, v / tp))) +
              T * v / tp * 4.0 * 6.0 / hw.hbmBytesPerS;
    s.tFirst = T * d * kBf16 * 3.0 / tp / hw.hbmBytesPerS;
}

}  // namespace tandem::mosaic
