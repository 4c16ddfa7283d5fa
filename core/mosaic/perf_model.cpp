#include "mosaic/perf_model.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "mosaic/collectives.h"
#include "mosaic/kernel_efficiency.h"
#include "mosaic/layout_table.h"
#include "mosaic/memory_model.h"
#include "mosaic/perf_model_detail.h"
#include "mosaic/scaling_law.h"

namespace tandem::mosaic {

using detail::kScoreBytesStored;
using detail::sat;

namespace {

/// Model FLOPs of one iteration, 6 N_act B_global T_seq [2608.10605 Eq. 1's numerator], FLOP.
double modelFlopsPerIteration(double flopsPerToken, const Cluster& c) {
    return flopsPerToken * double(c.globalBatch) * c.seqLen;
}

/// Last line of defence against a physically impossible costing (the hardware ranges of
/// readHardware keep the usual causes out): why a plan's step time or MFU cannot be, or nullptr.
/// `mfuCeiling`: the largest MFU the GEMM precision allows. MFU is counted against the BF16 peak
/// (Eq. 1), so an FP8 or FP4 run may exceed 1 up to its precision's peak over the BF16 one.
const char* impossibleResult(double mfu, double iteration_s, double mfuCeiling) {
    if (!(iteration_s > 0) || !std::isfinite(iteration_s))
        return "step time is not a positive finite number: the hardware constants cannot be costed";
    if (!(mfu >= 0 && mfu <= mfuCeiling))
        return "MFU above 100 % of the GEMM precision's peak: the efficiency and chi_sys constants "
               "make a step faster than the peak allows";
    return nullptr;
}

}  // namespace

const char* const kDoesNotFitInMemory = "does not fit in device memory";
const char* const kEpMustDivideDp = "EP must divide DP (DP = EP x EDP, App. D.1)";

double modelFlopsUtilization(double flopsPerIteration, double iteration_s, int devices,
                             double peakFlops) {
    return flopsPerIteration / (iteration_s * devices * peakFlops);
}

struct PerfModel::Times {
    int nmb = 0, layersStage = 0, moeStage = 0, denseStage = 0;
    double tokens = 0;        // per GPU per microbatch (before TP)
    double computeMb = 0;     // GEMM + attention + pointwise + recompute, per microbatch
    double a2aWireMb = 0;     // all-to-all wire time per microbatch (stage)
    double a2aExposedMb = 0;  // not hidden behind the shared expert
    double otherMb = 0;       // TP/CP collectives + pipeline p2p per microbatch
    double cmpMb = 0, dispMb = 0, tmb = 0;
    double bubble = 0, vocab = 0, dpBeyondCompute = 0, optimizer = 0, host = 0;
    double analytic = 0, chi = 1;
};

double precisionPeakFlops(const Hardware& h, Precision p) {
    // MXFP8 scales each block of 32 values: the block-scaled tensor cores that do this came
    // with FP4 (Blackwell); Hopper and Ada scale FP8 per tensor only.
    if (p == Precision::Mxfp8 && !(h.peakFp4Flops > 0)) return 0;
    return p == Precision::Bf16    ? h.peakFlops
           : p == Precision::Nvfp4 ? h.peakFp4Flops
                                   : h.peakFp8Flops;
}

std::string precisionUnsupported(const Hardware& h, Precision p) {
    if (precisionPeakFlops(h, p) > 0) return "";
    const bool fp4 = p == Precision::Nvfp4, bf16 = p == Precision::Bf16;
    std::string usable;
    for (const auto& e : precisionNames())
        if (precisionPeakFlops(h, e.value) > 0)
            usable += (usable.empty() ? "" : ", ") + std::string(e.name);
    if (p == Precision::Mxfp8 && h.peakFp8Flops > 0)
        return h.name +
               " has no MXFP8 (block-scaled FP8 needs the microscaling tensor cores that come "
               "with FP4; peak_fp4_TFLOPs_per_s is 0)" +
               (usable.empty() ? std::string() : ": use " + usable);
    return h.name + " has no " +
           (bf16  ? "BF16"
            : fp4 ? "FP4"
                  : "FP8") +
           " peak (" +
           (bf16  ? "peak_bf16_TFLOPs_per_s"
            : fp4 ? "peak_fp4_TFLOPs_per_s"
                  : "peak_fp8_TFLOPs_per_s") +
           " is 0)" + (usable.empty() ? std::string() : ": use " + usable);
}

PerfModel::PerfModel(const Geometry& g, const Cluster& c) : m_g(g), m_c(c) {
    // The stack supplies the software constants; the hardware sheet keeps peaks, bandwidths
    // and latencies (and, for stacks without their own efficiencies, the calibrated ones).
    const Stack& st = c.stack;
    Hardware& h = m_c.hardware;
    if (st.ownEfficiencies) {
        h.denseGemmMax = st.denseGemmMax;
        if (st.denseMHalf > 0) h.denseMHalf = st.denseMHalf;
        h.groupedGemmMax = st.groupedGemmMax;
        h.groupedWidthHalf = st.groupedWidthHalf;
        h.attentionEfficiency = st.attentionEfficiency;
        h.elementwiseBytesPerTokenPerD = st.elementwiseBytesPerTokenPerD;
        h.activationMemoryFactor = st.activationMemoryFactor;
    }
    if (!st.cpuDispatchFloor) h.dispatchGap_s = 0;
    if (!st.hostTerms) h.hostPerMicrobatch_s = h.hostPerIteration_s = h.hostPerMoeLayer_s = 0;
    if (!st.systemFactor) {
        h.cA2A = h.cPP = h.cOvl = 0;
        h.chiFloor = 1.0;
    }
    const int prec = int(c.precision);
    const double precisionPeak = precisionPeakFlops(h, c.precision);
    m_precisionError = precisionPeak > 0 ? nullptr : "the hardware has no peak for this precision";
    m_gemmPeak = precisionPeak * st.precisionGemmFactor[prec];
    if (st.kernelTables) {
        auto low = GemmEfficiency::forHardware(h.name, c.precision);
        auto bf16 = GemmEfficiency::forHardware(h.name, Precision::Bf16);
        if (low && bf16) {
            m_kernelLow = std::make_shared<const GemmEfficiency>(*low);
            m_kernelBf16 = std::make_shared<const GemmEfficiency>(*bf16);
        }
    }
    static std::atomic<unsigned long long> nextId{0};
    m_shapeCacheId = ++nextId;
    m_qDim = g.headDim > 0 ? double(g.nHead) * g.headDim : double(g.dModel);
    m_attnParams = attentionParams(g);
    m_expertParams = g.experts > 0 ? expertParams(g) : 0.0;
    m_sharedParams = g.experts > 0 ? g.sharedExperts * m_expertParams : 0.0;
    m_routerParams = g.experts > 0 ? double(g.dModel) * g.experts : 0.0;
    m_denseFfnParams = denseFfnParams(g);
    m_moeLayers = moeLayers(g);
    m_denseLayers = g.layers - m_moeLayers;
    m_nActFlopsPerToken = modelFlops(g.nAct, 1.0);
    // Activation elements per token per layer (sequence-parallel: divided by TP later).
    const double d = g.dModel, dexp = g.dExpert, k = g.topK, e = g.experts;
    m_kvDim = g.headDim > 0 ? double(g.nKvHead) * g.headDim
                            : double(g.nKvHead) * (g.nHead > 0 ? d / g.nHead : 0.0);
    const double kv = m_kvDim;
    const double sh = g.sharedExperts;
    // Attention block [Korthikanti et al. 2022 Sec. 4.1, 11 sbh without dropout masks and
    // scores (flash attention)]: norm input, QKV input, Q, K, V, output, out-proj input.
    const double aAttn = g.headDim > 0 ? 3 * d + 2 * m_qDim + 2 * kv : 5 * d + 2 * kv;
    const double aMoeNone = 2 * d + 2 * e + 2 * k * d + 3 * k * dexp + 3 * sh * dexp;
    // Dense FFN: norm input and fc1 input (2 d), then fc1's output(s) and the activation's
    // output: SwiGLU 2 d_ff + d_ff, GeLU d_ff + d_ff [Korthikanti et al. 2022 Sec. 4.1 without
    // dropout masks].
    const double aDenseNone = 2 * d + double(g.denseFfnMatrices) * double(g.dFf);
    m_actAttn = aAttn;
    m_actMoeNone = aMoeNone;
    m_actDenseNone = aDenseNone;
    m_actMoe[ckptRank(Checkpointing::None)] = aAttn + aMoeNone;
    m_actDense[ckptRank(Checkpointing::None)] = aAttn + aDenseNone;
    m_actMoe[ckptRank(Checkpointing::Selective)] = aAttn + aMoeNone - 2 * d - k * dexp - sh * dexp;
    m_actDense[ckptRank(Checkpointing::Selective)] = aAttn + aDenseNone - 2 * d - double(g.dFf);
    m_actMoe[ckptRank(Checkpointing::SuperSelective)] = aAttn + 3 * d + 2 * e + k * d;
    m_actDense[ckptRank(Checkpointing::SuperSelective)] = aAttn + 2 * d;
    m_actMoe[ckptRank(Checkpointing::Full)] = d;
    // iterationLowerBound drops terms that are >= 0 when every rate, latency and efficiency is.
    const Hardware& hw = m_c.hardware;
    m_boundValid = true;
    for (double x : {hw.peakFlops, m_gemmPeak, hw.hbmBytesPerS, hw.nvlinkBytesPerS, hw.nicBytesPerS,
                     hw.intraBusEfficiency, hw.interBusEfficiency, hw.denseGemmMax,
                     hw.groupedGemmMax, hw.attentionEfficiency, hw.chiFloor})
        if (!(x > 0)) m_boundValid = false;
    for (double x :
         {hw.intraLatency_s, hw.interLatency_s, hw.rampHalfBytes, hw.denseMHalf, hw.denseWidthHalf,
          hw.groupedMHalf, hw.groupedWidthHalf, hw.elementwiseBytesPerTokenPerD})
        if (!(x >= 0)) m_boundValid = false;
    m_actDense[ckptRank(Checkpointing::Full)] = d;
    if (c.stack.lowPrecisionActivations && c.precision != Precision::Bf16) {
        // Transformer Engine saves the FP8 / FP4-cast inputs of its Linear layers for the
        // weight gradient: 1 byte (half a BF16 element) for the inputs of QKV and the output
        // projection, the expert / FFN fc1 and, when kept, fc2.
        const double attnIn = d + m_qDim;
        const double moeFc1 = k * d + sh * d, moeFc2 = k * dexp + sh * dexp, ffn = double(g.dFf);
        m_actMoe[ckptRank(Checkpointing::None)] -= 0.5 * (attnIn + moeFc1 + moeFc2);
        m_actDense[ckptRank(Checkpointing::None)] -= 0.5 * (attnIn + d + ffn);
        m_actMoe[ckptRank(Checkpointing::Selective)] -= 0.5 * (attnIn + moeFc1);
        m_actDense[ckptRank(Checkpointing::Selective)] -= 0.5 * (attnIn + d);
        m_actMoe[ckptRank(Checkpointing::SuperSelective)] -= 0.5 * (attnIn + k * d);
        m_actDense[ckptRank(Checkpointing::SuperSelective)] -= 0.5 * attnIn;
    }
    // The attention core recomputed alone: with flash attention nothing more is dropped.
    m_actMoe[ckptRank(Checkpointing::CoreAttention)] = m_actMoe[ckptRank(Checkpointing::None)];
    m_actDense[ckptRank(Checkpointing::CoreAttention)] = m_actDense[ckptRank(Checkpointing::None)];
    // Without sequence parallelism each TP rank holds, whole: both norm inputs, the QKV and fc1
    // inputs and the attention block's output (5 d: Korthikanti et al. 2022 Eq. 2's 10 s b h
    // bytes); selective recomputation drops the MLP's two, full keeps the layer input.
    m_actDenseReplicated[ckptRank(Checkpointing::None)] = 5 * d;
    m_actDenseReplicated[ckptRank(Checkpointing::CoreAttention)] = 5 * d;
    m_actDenseReplicated[ckptRank(Checkpointing::Selective)] = 3 * d;
    m_actDenseReplicated[ckptRank(Checkpointing::SuperSelective)] = 5 * d;
    m_actDenseReplicated[ckptRank(Checkpointing::Full)] = d;
    if (!c.stack.flashAttention) {
        // Materialised attention scores, kept only when the attention core is not recomputed
        // [Korthikanti et al. 2022 Eq. 1: 5 a s^2 b bytes per layer].
        m_actScores = kScoreBytesStored / kBf16 * double(g.nHead) * double(c.seqLen);
        m_actMoe[ckptRank(Checkpointing::None)] += m_actScores;
        m_actDense[ckptRank(Checkpointing::None)] += m_actScores;
    }
}

int PerfModel::expertDpGroup(const Plan& p) const {
    return m_c.stack.expertFolding ? p.tp * p.cp * p.dp / (p.ep * p.etp) : (p.dp / p.ep) * p.cp;
}

double PerfModel::mfuCeiling() const {
    const double bf16 = m_c.hardware.peakFlops;
    const double precision = precisionPeakFlops(m_c.hardware, m_c.precision);
    return bf16 > 0 && precision > bf16 ? precision / bf16 : 1.0;
}

double PerfModel::mfu(double iteration_s) const {
    return modelFlopsUtilization(modelFlopsPerIteration(m_nActFlopsPerToken, m_c), iteration_s,
                                 m_c.devices, m_c.hardware.peakFlops);
}

double PerfModel::modelFlopsPerToken() const {
    const Geometry& g = m_g;
    const double gemmParams = g.nAct + double(g.vocab) * g.dModel;  // + the LM head
    return 6.0 * gemmParams + 6.0 * double(m_c.seqLen) * m_qDim * g.layers;
}

void PerfModel::groupTimes(const Plan& p, Group& gr) const {
    const Geometry& g = m_g;
    const Hardware& hw = m_c.hardware;
    const double tp = p.tp, d = g.dModel, e = g.experts, v = g.vocab;
    // The slowest stage sets the 1F1B pace: the one with the most layers.
    int nFirst = 0, nMiddle = 0, nLast = 0;
    stageLayers(p, nFirst, nMiddle, nLast);
    gr.layersStage = std::max({nFirst, nMiddle, nLast});
    gr.moeStage = std::min(gr.layersStage, m_moeLayers);
    gr.denseStage = gr.layersStage - gr.moeStage;
    // CPU dispatch floor [Eq. 11].
    const double eLoc = g.experts > 0 ? e / p.ep : 0.0;
    gr.dispMb = (gr.layersStage * hw.kernelsBase + gr.moeStage * hw.kernelsPerLocalExpert * eLoc) *
                    hw.dispatchGap_s +
                hw.hostPerMicrobatch_s;
    // Data-parallel reduce-scatter (fp32 grads) + all-gather (bf16 params); dense over DP x CP,
    // experts over EDP x CP; overlapped with one microbatch of compute.
    const double denseP = (gr.moeStage * (m_attnParams + m_sharedParams + m_routerParams) +
                           gr.denseStage * (m_attnParams + m_denseFfnParams) + v * d) /
                          tp;
    const double expertP = gr.moeStage * e * m_expertParams / (p.ep * p.etp);
    const int dpGroup = p.dp * p.cp, edpGroup = expertDpGroup(p);
    gr.pp = p.pp;
    gr.vp = p.vp;
    gr.denseP = denseP;
    gr.expertP = expertP;
    gr.dpTime = -1;  // groupDpTime
    gr.nmb = 0;
    gr.a2aCollective = gr.p2p = gr.vocab = 0;
    // AdamW step: ~32 bytes of HBM traffic per locally owned parameter.
    const double owned = denseP / std::max(1, dpGroup) + expertP / std::max(1, edpGroup);
    gr.optimizer = owned * 32.0 / hw.hbmBytesPerS;
    gr.host = hw.hostPerIteration_s + (p.ep > 1 ? hw.hostPerMoeLayer_s * gr.moeStage : 0.0);
    const int gpn = hw.gpusPerNode;
    const int epSpan =
        m_c.stack.expertFolding ? p.ep * p.etp : p.ep * p.tp;  // GPUs one EP group spans
    gr.epNodes = (epSpan + gpn - 1) / gpn;
    gr.a2aPayloadShare = m_c.stack.hierarchicalDispatch
                             ? dispatchPayloadShare(m_g.experts, m_g.topK, gr.epNodes)
                             : 1.0;
    gr.ppNodes = (p.pp + gpn - 1) / gpn;
}

void PerfModel::groupDpTime(const Plan& p, Group& gr) const {
    const Hardware& hw = m_c.hardware;
    const double denseP = gr.denseP, expertP = gr.expertP;
    const int dpGroup = p.dp * p.cp, edpGroup = expertDpGroup(p);
    // Folded expert mesh: EDP ranks are EP x ETP apart; else TP x EP apart [App. D.1].
    const int edpStride = m_c.stack.expertFolding ? p.ep * p.etp : p.tp * p.ep;
    double dpTime = 0;
    if (dpGroup > 1)
        dpTime +=
            collectiveTime(hw, Collective::ReduceScatter, denseP * kGradBytes, dpGroup, p.tp) +
            collectiveTime(hw, Collective::AllGather, denseP * kBf16, dpGroup, p.tp);
    if (edpGroup > 1 && expertP > 0)
        dpTime += collectiveTime(hw, Collective::ReduceScatter, expertP * kGradBytes, edpGroup,
                                 edpStride) +
                  collectiveTime(hw, Collective::AllGather, expertP * kBf16, edpGroup, edpStride);
    // FSDP gathers the weights again for the backward.
    if (p.fsdp) {
        if (dpGroup > 1)
            dpTime += collectiveTime(hw, Collective::AllGather, denseP * kBf16, dpGroup, p.tp);
        if (edpGroup > 1 && expertP > 0)
            dpTime +=
                collectiveTime(hw, Collective::AllGather, expertP * kBf16, edpGroup, edpStride);
    }
    gr.dpTime = dpTime;
}

void PerfModel::batchTimes(const Plan& p, const Shape& s, Group& gr, int nmb) const {
    const Hardware& hw = m_c.hardware;
    gr.nmb = nmb;
    gr.a2aCollective =
        gr.moeStage > 0 && p.ep > 1
            ? collectiveTime(hw, Collective::AllToAll, s.a2aBytes * gr.a2aPayloadShare, p.ep,
                             m_c.stack.expertFolding ? p.etp : p.tp)
            : 0.0;
    // Pipeline send/recv of activations and their gradients.
    gr.p2p = 0;
    if (p.pp > 1) {
        const double bytes = s.p2pBytes;
        const bool intra = p.pp <= hw.gpusPerNode;  // N_PP_node = 1 [Eq. 15 placement]
        const double bw = intra ? hw.nvlinkBytesPerS * hw.intraBusEfficiency
                                : hw.nicBytesPerS * hw.interBusEfficiency;
        gr.p2p = 2 * ((intra ? hw.intraLatency_s : hw.interLatency_s) +
                      bytes / (bw * sat(bytes, hw.rampHalfBytes)));
        if (p.vp > 1) gr.p2p *= p.vp;  // interleaving: one send/recv per model chunk
    }
    gr.vocab = vocabTime(p.pp, nmb, s);
}

double PerfModel::vocabTime(int pp, int nmb, const Shape& s) const {
    // Vocabulary stage [Eq. 13].
    if (pp == 1) return nmb * (s.tFirst + s.tLast);
    return (nmb - 1) * std::max(s.tFirst, s.tLast) + s.tFirst + s.tLast + s.tLast * double(pp - 1);
}

double PerfModel::iterationLowerBound(const Plan& p, const Shape& s, const Group& gr,
                                      int nmb) const {
    // assemble() with every term that only adds dropped: recomputation, exposed all-to-all,
    // TP/CP collectives, pipeline p2p, DP time beyond compute and chi's all-to-all share. Each
    // dropped term is >= 0 (m_boundValid) and rounding is monotone, so the result is <= chi
    // t_analytic for every checkpointing mode of this (group, B_micro).
    const Hardware& hw = m_c.hardware;
    const double denseLayer = gr.denseStage > 0 ? s.denseLayer : 0.0;
    const double computeMb = gr.moeStage * s.moeLayer + gr.denseStage * denseLayer;
    const double tmb = std::max(computeMb, gr.dispMb);
    const double bubble = p.vp > 1 ? double(p.pp - 1) / p.vp * tmb : double(p.pp - 1) * tmb;
    const double analytic = nmb * tmb + bubble + vocabTime(p.pp, nmb, s) + gr.optimizer + gr.host;
    double chi = 1.0;
    chi += hw.cPP * (gr.ppNodes - 1);
    if (p.pp >= hw.gpusPerNode && gr.ppNodes == 1) chi += hw.cOvl;
    const double chiLow = hw.cA2A >= 0 ? std::max(hw.chiFloor, chi) : hw.chiFloor;
    return chiLow * analytic;
}

void PerfModel::assemble(const Plan& p, const Shape& s, const Group& gr, Times& t) const {
    const Hardware& hw = m_c.hardware;
    const int ck = ckptRank(p.ckpt);
    const bool full = p.ckpt == Checkpointing::Full;
    t.nmb = gr.nmb;
    t.layersStage = gr.layersStage;
    t.moeStage = gr.moeStage;
    t.denseStage = gr.denseStage;
    t.tokens = s.T;
    // Expert all-to-all: dispatch + combine, forward and backward (+ forward again if full).
    double a2aLayer = 0, a2aExposedLayer = 0;
    if (t.moeStage > 0 && p.ep > 1) {
        a2aLayer = (full ? 6 : 4) * gr.a2aCollective;
        // Shared-expert overlap, and the part the stack's schedule hides.
        a2aExposedLayer = std::max(0.0, a2aLayer * (1.0 - m_c.stack.a2aOverlap) - s.shared);
    }
    const double tpLayer =
        p.tp > 1 ? (full ? 12 : 8) * s.tpCollective * (1.0 - m_c.stack.tpOverlap) : 0.0;
    const double denseLayer = t.denseStage > 0 ? s.denseLayer : 0.0;
    const double denseRecompute = t.denseStage > 0 ? s.denseRecompute[ck] : 0.0;

    t.computeMb = t.moeStage * (s.moeLayer + s.moeRecompute[ck]) +
                  t.denseStage * (denseLayer + denseRecompute);
    t.a2aWireMb = t.moeStage * a2aLayer;
    t.a2aExposedMb = t.moeStage * a2aExposedLayer;
    t.otherMb = t.layersStage * (tpLayer + s.cpLayer) + gr.p2p;
    t.cmpMb = t.computeMb + t.a2aExposedMb + t.otherMb;
    t.dispMb = gr.dispMb;
    t.tmb = std::max(t.cmpMb, t.dispMb);
    // f = (PP-1)/(VP n_mb), t_bubble = f n_mb t_mb [Eq. 12; Narayanan et al. 2021 Sec. 2.2]
    t.bubble = p.vp > 1 ? double(p.pp - 1) / p.vp * t.tmb : double(p.pp - 1) * t.tmb;
    t.vocab = gr.vocab;
    t.dpBeyondCompute = std::max(0.0, gr.dpTime - t.computeMb);
    t.optimizer = gr.optimizer;
    t.host = gr.host;

    t.analytic = t.nmb * t.tmb + t.bubble + t.vocab + t.dpBeyondCompute + t.optimizer + t.host;
    // chi_sys [Eq. 15].
    double chi = 1.0;
    if (gr.epNodes > 1) chi += hw.cA2A * (t.nmb * t.a2aWireMb) / t.analytic;
    chi += hw.cPP * (gr.ppNodes - 1);
    if (p.pp >= hw.gpusPerNode && gr.ppNodes == 1) chi += hw.cOvl;
    t.chi = std::max(hw.chiFloor, chi);
}

void PerfModel::cost(const Plan& p, Times& t) const {
    Group gr;
    groupTimes(p, gr);
    groupDpTime(p, gr);
    Shape s;
    shapeTerms(p.tp, p.cp, p.mbs, gr.denseStage > 0, s, p.ep * p.etp, p.etp);
    batchTimes(p, s, gr, m_c.globalBatch / (p.dp * p.mbs));
    assemble(p, s, gr, t);
}

QuickEval PerfModel::quick(const Plan& p) const {
    QuickEval q;
    if (const char* err = structuralError(p)) {
        q.reason = err;
        return q;
    }
    q.memoryBytes = memoryBytes(p);
    if (q.memoryBytes > m_c.hardware.memoryBytes) {
        q.reason = kDoesNotFitInMemory;
        return q;
    }
    Times t;
    cost(p, t);
    q.iteration_s = t.chi * t.analytic;
    q.mfu = mfu(q.iteration_s);
    if ((q.reason = impossibleResult(q.mfu, q.iteration_s, mfuCeiling()))) return q;
    q.feasible = true;
    return q;
}

PlanEval PerfModel::evaluate(const Plan& p) const {
    PlanEval r;
    if (const char* err = structuralError(p)) {
        r.reason = err;
        r.rule = err;
        if (err == kEpMustDivideDp)
            r.reason +=
                ": EP " + std::to_string(p.ep) + " does not divide DP " + std::to_string(p.dp);
        return r;
    }
    const double mem = memoryBytes(p, &r.memory);
    r.memoryGB = mem / 1e9;
    r.microbatches = m_c.globalBatch / (p.dp * p.mbs);
    if (mem > m_c.hardware.memoryBytes) {
        r.rule = kDoesNotFitInMemory;
        r.reason = std::string(kDoesNotFitInMemory) + " (" +
                   formatNumber(std::round(mem / 1e8) / 10) + " GB > " +
                   formatNumber(m_c.hardware.memoryBytes / 1e9) + " GB usable)";
        return r;
    }
    Times t;
    cost(p, t);
    r.feasible = true;
    r.chi = t.chi;
    r.iteration_s = t.chi * t.analytic;
    r.analytic_iteration_s = t.analytic;
    r.mfu = mfu(r.iteration_s);
    if (const char* why = impossibleResult(r.mfu, r.iteration_s, mfuCeiling())) {
        PlanEval bad;
        bad.rule = why;
        bad.reason = std::string(why) + " (MFU " + formatNumber(r.mfu) + ", step " +
                     formatNumber(r.iteration_s) + " s)";
        bad.memoryGB = r.memoryGB;
        bad.microbatches = r.microbatches;
        return bad;
    }
    r.tokensPerSPerGpu = double(m_c.globalBatch) * m_c.seqLen / (r.iteration_s * m_c.devices);
    r.modelTflopsPerSPerGpu = modelFlopsPerToken() * r.tokensPerSPerGpu / 1e12;
    Breakdown& b = r.breakdown;
    b.compute_s = t.chi * t.nmb * t.computeMb;
    b.a2a_s = t.chi * t.nmb * t.a2aExposedMb;
    b.other_s = t.chi * (t.nmb * t.otherMb + t.optimizer);
    b.dispatch_s = t.chi * (t.nmb * (t.tmb - t.cmpMb) + t.host);
    b.bubble_s = t.chi * t.bubble;
    b.vocab_s = t.chi * t.vocab;
    b.dpBeyondCompute_s = t.chi * t.dpBeyondCompute;
    return r;
}

bool PerfModel::best(const LayoutGrid& grid, Plan& bestPlan, QuickEval& bestEval) const {
    return best(LayoutTable(m_c, grid), bestPlan, bestEval);
}

bool PerfModel::best(const LayoutTable& table, Plan& bestPlan, QuickEval& bestEval,
                     const Plan* hint, double mfuToBeat, SharedTerms* shared) const {
    if (table.devices() != m_c.devices || table.gpusPerNode() != m_c.hardware.gpusPerNode ||
        table.globalBatch() != m_c.globalBatch || table.seqLen() != m_c.seqLen)
        return false;
    if (m_precisionError) return false;  // no peak for the GEMM precision: nothing runs
    const auto& ckpts = table.checkpointing();
    if (ckpts.empty()) return false;
    const int n = m_c.devices;
    const double cap = m_c.hardware.memoryBytes, peak = m_c.hardware.peakFlops;
    const double flopsPerIteration = modelFlopsPerIteration(m_nActFlopsPerToken, m_c);
    const auto& groups = table.groups();
    const auto& batches = table.batches();
    const auto& shapeKeys = table.shapes();
    // This table's own shapes, or the ones kept across the tables (by sharedId).
    std::vector<Shape> ownShapes(shared ? 0 : shapeKeys.size());
    // Which EP each shape was computed for (0 = not yet); folding stacks' expert tile depends
    // on EP, so their shapes are recomputed when EP changes.
    std::vector<int> ownShapeReady(shared ? 0 : shapeKeys.size(), 0);
    const bool folding = m_c.stack.expertFolding;
    auto shapeOf = [&](int si, int ep) -> const Shape& {
        const auto& k = shapeKeys[size_t(si)];
        const size_t at = shared ? size_t(k.sharedId) : size_t(si);
        Shape& s = shared ? shared->shapes[at] : ownShapes[at];
        int& ready = shared ? shared->shapeReady[at] : ownShapeReady[at];
        const int key = folding ? ep : 1;
        if (ready != key) {
            shapeTerms(k.tp, k.cp, k.mbs, m_denseLayers > 0, s, key, 1);
            ready = key;
        }
        return s;
    };
    auto geometryFits = [&](const LayoutTable::Group& lg) {  // structuralError's geometry checks
        if (m_g.nHead % lg.tp != 0 || m_g.nKvHead % lg.tp != 0) return false;
        if (lg.pp > m_g.layers) return false;
        return m_g.experts == 0 ? lg.ep == 1 : m_g.experts % lg.ep == 0;
    };

    // The winner is the highest MFU, ties to the lowest enumeration index (batch index `bi`):
    // the first maximum of a plain scan in enumeration order, whatever order plans are tried in.
    bool found = false;
    int bestIndex = -1;
    auto cannotWin = [&](double ub, int bi) {
        return !(ub > mfuToBeat) ||
               (found && (ub < bestEval.mfu || (ub == bestEval.mfu && bi > bestIndex)));
    };
    // MFU upper bound of every batch of the current group (+inf when the bound does not hold).
    std::vector<double> upper(batches.size(), std::numeric_limits<double>::infinity());
    auto boundGroup = [&](const LayoutTable::Group& lg, const Plan& p, const Group& gr) {
        if (!m_boundValid) return true;
        bool any = false;
        for (int bi = lg.batchBegin; bi < lg.batchEnd; ++bi) {
            const LayoutTable::Batch& b = batches[size_t(bi)];
            const int nmb = m_c.globalBatch / (p.dp * b.mbs);
            upper[size_t(bi)] = modelFlopsUtilization(
                flopsPerIteration, iterationLowerBound(p, shapeOf(b.shape, p.ep), gr, nmb), n,
                peak);
            any = any || !cannotWin(upper[size_t(bi)], bi);
        }
        return any;
    };
    Times t;
    // Costs batch `bi` of the current group (group memory and times of `gr` already set).
    auto tryBatch = [&](Plan& p, Group& gr, int bi) {
        if (cannotWin(upper[size_t(bi)], bi)) return;
        const LayoutTable::Batch& b = batches[size_t(bi)];
        p.mbs = b.mbs;
        const Shape& s = shapeOf(b.shape, p.ep);
        const int nmb = m_c.globalBatch / (p.dp * p.mbs);
        for (Checkpointing c : ckpts) {  // least recomputation first
            const double mem = memoryOf(gr, s, nmb, c);
            if (mem > cap) continue;
            if (gr.dpTime < 0) groupDpTime(p, gr);  // once per group (groupTimes sets -1)
            p.ckpt = c;
            batchTimes(p, s, gr, nmb);
            assemble(p, s, gr, t);
            const double it = t.chi * t.analytic;
            const double mfu = this->mfu(it);
            if (impossibleResult(mfu, it, mfuCeiling()))
                continue;                    // as quick() and evaluate() refuse it
            if (!(mfu > mfuToBeat)) return;  // the least recomputing mode that fits decides
            if (!found || mfu > bestEval.mfu || (mfu == bestEval.mfu && bi < bestIndex)) {
                found = true;
                bestIndex = bi;
                bestPlan = p;
                bestEval.feasible = true;
                bestEval.reason = nullptr;
                bestEval.mfu = mfu;
                bestEval.iteration_s = it;
                bestEval.memoryBytes = mem;
            }
            return;
        }
    };
    // Sets up one group in `gr` (this call's own, or the one kept across the tables); false
    // when no batch of it can fit memory or beat the best so far.
    Group ownGroup;
    auto setGroup = [&](const LayoutTable::Group& lg, Plan& p, Group*& gr) {
        if (!geometryFits(lg)) return false;
        p.tp = lg.tp;
        p.cp = lg.cp;
        p.pp = lg.pp;
        p.dp = lg.dp;
        p.ep = lg.ep;
        using State = SharedTerms::GroupState;
        State* state = shared ? &shared->groupState[size_t(lg.sharedId)] : nullptr;
        gr = shared ? &shared->groups[size_t(lg.sharedId)] : &ownGroup;
        if (state && *state == State::OverMemory) return false;
        if (!state || *state == State::Unknown) {
            // Weights, gradients and optimizer state of the fullest stage; activations, logits
            // and all-to-all buffers only add to it, so no micro-batch or checkpointing mode can
            // fit. (Checked before the bound: it is cheaper and rejects more groups.)
            if (groupMemory(p, *gr) > cap) {
                if (state) *state = State::OverMemory;
                return false;
            }
            groupTimes(p, *gr);
            if (state) *state = State::Known;
        }
        return boundGroup(lg, p, *gr);
    };

    Plan p;
    Group* gr = nullptr;
    // A good first incumbent makes the bound prune early (e.g. the previous geometry's best).
    if (hint && m_boundValid) {
        for (const LayoutTable::Group& lg : groups) {
            if (lg.tp != hint->tp || lg.cp != hint->cp || lg.pp != hint->pp || lg.ep != hint->ep)
                continue;
            if (!setGroup(lg, p, gr)) break;
            for (int bi = lg.batchBegin; bi < lg.batchEnd; ++bi)
                if (batches[size_t(bi)].mbs == hint->mbs) {
                    tryBatch(p, *gr, bi);
                    break;
                }
            break;
        }
    }
    for (const LayoutTable::Group& lg : groups) {
        if (!setGroup(lg, p, gr)) continue;
        for (int bi = lg.batchBegin; bi < lg.batchEnd; ++bi) tryBatch(p, *gr, bi);
    }
    return found;
}

}  // namespace tandem::mosaic
