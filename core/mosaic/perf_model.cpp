#include "mosaic/perf_model.h"

#include <algorithm>
#include <cmath>

#include "common/json_reader.h"
#include "mosaic/collectives.h"

namespace tandem::mosaic {
namespace {

inline double sat(double x, double half) { return x / (x + half); }
constexpr double kBf16 = 2.0, kGradBytes = 4.0, kOptimizerBytes = 12.0;

int ckptRank(Checkpointing c) { return static_cast<int>(c); }

}  // namespace

Cluster clusterOf(const Envelope& e) {
    Cluster c;
    c.hardware = e.hardware;
    c.devices = e.devices();
    c.globalBatch = e.globalBatch;
    c.seqLen = e.seqLen;
    return c;
}

LayoutGrid layoutGridOf(const Envelope& e) {
    LayoutGrid g;
    g.tp = e.tpValues;
    g.cp = e.cpValues;
    g.pp = e.ppValues;
    g.ep = e.epValues;
    g.mbs = e.microBatchValues;
    g.ckpt = e.checkpointing;
    std::sort(g.ckpt.begin(), g.ckpt.end(),
              [](Checkpointing a, Checkpointing b) { return ckptRank(a) < ckptRank(b); });
    return g;
}

struct PerfModel::Times {
    int nmb = 0, layersStage = 0, moeStage = 0, denseStage = 0;
    double tokens = 0;          // per GPU per microbatch (before TP)
    double computeMb = 0;       // GEMM + attention + pointwise + recompute, per microbatch
    double a2aWireMb = 0;       // all-to-all wire time per microbatch (stage)
    double a2aExposedMb = 0;    // not hidden behind the shared expert
    double otherMb = 0;         // TP/CP collectives + pipeline p2p per microbatch
    double cmpMb = 0, dispMb = 0, tmb = 0;
    double bubble = 0, vocab = 0, dpExposed = 0, optimizer = 0, host = 0;
    double analytic = 0, chi = 1;
};

PerfModel::PerfModel(const Geometry& g, const Cluster& c) : m_g(g), m_c(c) {
    m_attnParams = attentionParams(g);
    m_expertParams = g.experts > 0 ? expertParams(g) : 0.0;
    m_sharedParams = g.experts > 0 ? g.sharedExperts * m_expertParams : 0.0;
    m_routerParams = g.experts > 0 ? double(g.dModel) * g.experts : 0.0;
    m_denseFfnParams = denseFfnParams(g);
    m_moeLayers = moeLayers(g);
    m_denseLayers = g.layers - m_moeLayers;
    m_nActFlopsPerToken = 6.0 * g.nAct;
}

const char* PerfModel::structuralError(const Plan& p) const {
    const Hardware& hw = m_c.hardware;
    if (p.tp < 1 || p.cp < 1 || p.pp < 1 || p.dp < 1 || p.ep < 1 || p.mbs < 1)
        return "every parallel degree and the micro-batch must be >= 1";
    if (double(p.tp) * p.cp * p.pp * p.dp != double(m_c.devices))
        return "TP x CP x PP x DP must equal the device count";
    if (p.tp > hw.gpusPerNode) return "TP must stay inside one node (NVLink domain)";
    if (m_g.nHead % p.tp != 0 || m_g.nKvHead % p.tp != 0)
        return "TP must divide the attention and KV heads";
    if (m_c.seqLen % p.cp != 0) return "CP must divide T_seq";
    if (p.pp > m_g.layers) return "PP exceeds the number of layers";
    if (m_g.experts == 0 && p.ep != 1) return "EP > 1 needs an MoE model";
    if (p.dp % p.ep != 0) return "EP must divide DP (DP = EP x EDP, App. D.1)";
    if (m_g.experts > 0 && m_g.experts % p.ep != 0) return "EP must divide the expert count E";
    if (m_c.globalBatch % (p.dp * p.mbs) != 0)
        return "B_global must be a multiple of DP x B_micro (integer microbatches)";
    return nullptr;
}

double PerfModel::memoryBytes(const Plan& p) const {
    const Geometry& g = m_g;
    const int ls = (g.layers + p.pp - 1) / p.pp;
    const double tp = p.tp, d = g.dModel, dexp = g.dExpert, k = g.topK, e = g.experts;
    const double kv = double(g.nKvHead) * (g.nHead > 0 ? d / g.nHead : 0.0);
    const double edp = double(p.dp / p.ep) * p.cp;
    const double tokens = double(m_c.seqLen) * p.mbs / p.cp / tp;
    const int nmb = m_c.globalBatch / (p.dp * p.mbs);
    // Activation elements per token per layer (sequence-parallel: divided by TP).
    const double sh = g.sharedExperts;
    const double aAttn = 5 * d + 2 * kv;
    const double aMoeNone = 2 * d + 2 * e + 2 * k * d + 3 * k * dexp + 3 * sh * dexp;
    const double aDenseNone = 2 * d + 3 * double(g.dFf);
    double aMoe = 0, aDense = 0;
    switch (p.ckpt) {
        case Checkpointing::None: aMoe = aAttn + aMoeNone; aDense = aAttn + aDenseNone; break;
        case Checkpointing::Selective:
            aMoe = aAttn + aMoeNone - 2 * d - k * dexp - sh * dexp;
            aDense = aAttn + aDenseNone - 2 * d - double(g.dFf);
            break;
        case Checkpointing::SuperSelective: aMoe = aAttn + 3 * d + 2 * e + k * d; aDense = aAttn + 2 * d; break;
        case Checkpointing::Full: aMoe = d; aDense = d; break;
    }
    // One pipeline stage: its layers (dense blocks lead, so the first stage holds them), plus
    // the token embedding on the first stage and the untied LM head with its logits on the last
    // [2608.10605 Sec. 5.4, Eq. 13: "lands entirely on the last pipeline stage"].
    auto stage = [&](int firstLayer, bool first, bool last) {
        const int n = std::max(0, std::min(ls, g.layers - firstLayer));
        const int denseLs = std::max(0, std::min(n, m_denseLayers - firstLayer));
        const int moeLs = n - denseLs;
        const double vocabP = double(g.vocab) * d * ((first ? 1 : 0) + (last ? 1 : 0));
        const double denseP = (moeLs * (m_attnParams + m_sharedParams + m_routerParams) +
                               denseLs * (m_attnParams + m_denseFfnParams) + vocabP) / tp;
        const double expertP = moeLs * e * m_expertParams / p.ep;
        double bytes = (denseP + expertP) * (kBf16 + kGradBytes) +
                       kOptimizerBytes * (denseP / (double(p.dp) * p.cp) + expertP / edp);
        // 1F1B: stage s keeps min(PP - s, n_mb) microbatches in flight; the first keeps most.
        const int stageIdx = firstLayer / std::max(1, ls);
        const int inflightStage = std::max(1, std::min(p.pp - stageIdx, nmb));
        double act = kBf16 * tokens * inflightStage * (moeLs * aMoe + denseLs * aDense);
        if (p.ckpt == Checkpointing::Full && n > 0)  // one layer rematerialised during its backward
            act += kBf16 * tokens * (aAttn + (moeLs > 0 ? aMoeNone : aDenseNone));
        bytes += act * m_c.hardware.activationMemoryFactor;
        // Logits of the fused vocab-parallel cross-entropy: bf16, gradient written in place.
        if (last) bytes += kBf16 * tokens * double(g.vocab);
        if (e > 0 && moeLs > 0) bytes += 2.0 * kBf16 * tokens * k * d;  // all-to-all buffers
        return bytes;
    };
    if (p.pp == 1) return stage(0, true, true);
    double worst = std::max(stage(0, true, false), stage((p.pp - 1) * ls, false, true));
    if (p.pp > 2) worst = std::max(worst, stage(ls, false, false));
    return worst;
}

void PerfModel::cost(const Plan& p, Times& t) const {
    const Geometry& g = m_g;
    const Hardware& hw = m_c.hardware;
    const double peak = hw.peakFlops, tp = p.tp;
    const double d = g.dModel, dexp = g.dExpert, k = g.topK, e = g.experts, v = g.vocab;
    const double kv = double(g.nKvHead) * (g.nHead > 0 ? d / g.nHead : 0.0);
    t.nmb = m_c.globalBatch / (p.dp * p.mbs);
    t.layersStage = (g.layers + p.pp - 1) / p.pp;
    t.moeStage = std::min(t.layersStage, m_moeLayers);
    t.denseStage = t.layersStage - t.moeStage;
    const double T = double(m_c.seqLen) * p.mbs / p.cp;
    t.tokens = T;

    auto effDense = [&](double m, double w) {
        return hw.denseGemmMax * sat(m, hw.denseMHalf) * sat(w, hw.denseWidthHalf);
    };
    // fwd+bwd GEMM time for `params` weights applied to T tokens (3 x 2 FLOPs per MAC).
    auto gemm = [&](double params, double eff) { return 6.0 * T * params / tp / (peak * eff); };

    const double attnProj = gemm(m_attnParams, effDense(T, d / tp));
    const double attnCoreFwd = 2.0 * T * m_c.seqLen * d / tp / (peak * hw.attentionEfficiency);
    const double attnCore = 3.5 * attnCoreFwd;
    const double pointwise = T * d * hw.elementwiseBytesPerTokenPerD / tp / hw.hbmBytesPerS;
    double moeLayer = 0, moeRecompute = 0, shared = 0;
    if (t.moeStage > 0) {
        shared = m_sharedParams > 0 ? gemm(m_sharedParams, effDense(T, dexp / tp)) : 0.0;
        const double router = gemm(m_routerParams, effDense(T, e));
        const double tile = std::ceil(T * k / e);  // per-expert tile M [2608.10605 Sec. 5.3]
        const double effG = hw.groupedGemmMax * sat(tile, hw.groupedMHalf) * sat(dexp, hw.groupedWidthHalf);
        const double routed = gemm(k * m_expertParams, effG);
        moeLayer = attnProj + attnCore + shared + router + routed + pointwise;
        switch (p.ckpt) {
            case Checkpointing::None: break;
            case Checkpointing::Selective: moeRecompute = attnCoreFwd + pointwise / 3; break;
            case Checkpointing::SuperSelective:
                moeRecompute = attnCoreFwd + pointwise / 3 + (routed + shared) / 3;
                break;
            case Checkpointing::Full: moeRecompute = moeLayer / 3; break;
        }
    }
    double denseLayer = 0, denseRecompute = 0;
    if (t.denseStage > 0) {
        const double ffn = gemm(m_denseFfnParams, effDense(T, double(g.dFf) / tp));
        denseLayer = attnProj + attnCore + ffn + pointwise;
        switch (p.ckpt) {
            case Checkpointing::None: break;
            case Checkpointing::Selective: denseRecompute = attnCoreFwd + pointwise / 3; break;
            case Checkpointing::SuperSelective: denseRecompute = attnCoreFwd + pointwise / 3 + ffn / 3; break;
            case Checkpointing::Full: denseRecompute = denseLayer / 3; break;
        }
    }
    const bool full = p.ckpt == Checkpointing::Full;

    // Expert all-to-all: dispatch + combine, forward and backward (+ forward again if full).
    double a2aLayer = 0, a2aExposedLayer = 0;
    if (t.moeStage > 0 && p.ep > 1) {
        const double bytes = T * k * d * kBf16 / tp;
        a2aLayer = (full ? 6 : 4) * collectiveTime(hw, Collective::AllToAll, bytes, p.ep, p.tp);
        a2aExposedLayer = std::max(0.0, a2aLayer - shared);  // shared-expert overlap
    }
    // Tensor parallel (sequence parallel): AG + RS around attention and FFN, fwd and bwd.
    double tpLayer = 0;
    if (p.tp > 1)
        tpLayer = (full ? 12 : 8) * collectiveTime(hw, Collective::AllGather, T * d * kBf16, p.tp, 1);
    // Context parallel: KV all-gather fwd and reduce-scatter bwd, partly hidden by attention.
    double cpLayer = 0;
    if (p.cp > 1) {
        const double kvBytes = p.cp * T * 2 * kv * kBf16 / tp;
        cpLayer = std::max(0.0, 2 * collectiveTime(hw, Collective::AllGather, kvBytes, p.cp, p.tp) - attnCore);
    }
    // Pipeline send/recv of activations and their gradients.
    double p2p = 0;
    if (p.pp > 1) {
        const double bytes = T * d * kBf16 / tp;
        const bool intra = p.pp <= hw.gpusPerNode;  // N_PP_node = 1 [Eq. 15 placement]
        const double bw = intra ? hw.nvlinkBytesPerS * hw.intraBusEfficiency : hw.nicBytesPerS * hw.interBusEfficiency;
        p2p = 2 * ((intra ? hw.intraLatencyS : hw.interLatencyS) + bytes / (bw * sat(bytes, hw.rampHalfBytes)));
    }

    t.computeMb = t.moeStage * (moeLayer + moeRecompute) + t.denseStage * (denseLayer + denseRecompute);
    t.a2aWireMb = t.moeStage * a2aLayer;
    t.a2aExposedMb = t.moeStage * a2aExposedLayer;
    t.otherMb = t.layersStage * (tpLayer + cpLayer) + p2p;
    t.cmpMb = t.computeMb + t.a2aExposedMb + t.otherMb;
    // CPU dispatch floor [Eq. 11].
    const double eLoc = g.experts > 0 ? e / p.ep : 0.0;
    t.dispMb = (t.layersStage * hw.kernelsBase + t.moeStage * hw.kernelsPerLocalExpert * eLoc) * hw.dispatchGapS +
               hw.hostPerMicrobatchS;
    t.tmb = std::max(t.cmpMb, t.dispMb);
    t.bubble = double(p.pp - 1) * t.tmb;  // f = (PP-1)/(VPP n_mb), t_bubble = f n_mb t_mb [Eq. 12]

    // Vocabulary stage [Eq. 13].
    const double tLast = gemm(v * d, effDense(T, v / tp)) + T * v / tp * 4.0 * 6.0 / hw.hbmBytesPerS;
    const double tFirst = T * d * kBf16 * 3.0 / tp / hw.hbmBytesPerS;
    if (p.pp == 1)
        t.vocab = t.nmb * (tFirst + tLast);
    else
        t.vocab = (t.nmb - 1) * std::max(tFirst, tLast) + tFirst + tLast + tLast * double(p.pp - 1);

    // Data-parallel reduce-scatter (fp32 grads) + all-gather (bf16 params); dense over DP x CP,
    // experts over EDP x CP; overlapped with one microbatch of compute.
    const double denseP = (t.moeStage * (m_attnParams + m_sharedParams + m_routerParams) +
                           t.denseStage * (m_attnParams + m_denseFfnParams) + v * d) / tp;
    const double expertP = t.moeStage * e * m_expertParams / p.ep;
    const int dpGroup = p.dp * p.cp, edpGroup = (p.dp / p.ep) * p.cp;
    double dpTime = 0;
    if (dpGroup > 1)
        dpTime += collectiveTime(hw, Collective::ReduceScatter, denseP * kGradBytes, dpGroup, p.tp) +
                  collectiveTime(hw, Collective::AllGather, denseP * kBf16, dpGroup, p.tp);
    if (edpGroup > 1 && expertP > 0)
        dpTime += collectiveTime(hw, Collective::ReduceScatter, expertP * kGradBytes, edpGroup, p.tp * p.ep) +
                  collectiveTime(hw, Collective::AllGather, expertP * kBf16, edpGroup, p.tp * p.ep);
    t.dpExposed = std::max(0.0, dpTime - t.computeMb);
    // AdamW step: ~32 bytes of HBM traffic per locally owned parameter.
    const double owned = denseP / std::max(1, dpGroup) + expertP / std::max(1, edpGroup);
    t.optimizer = owned * 32.0 / hw.hbmBytesPerS;
    t.host = hw.hostPerIterationS + (p.ep > 1 ? hw.hostPerMoeLayerS * t.moeStage : 0.0);

    t.analytic = t.nmb * t.tmb + t.bubble + t.vocab + t.dpExposed + t.optimizer + t.host;
    // chi_sys [Eq. 15].
    const int gpn = hw.gpusPerNode;
    const int epNodes = (p.ep * p.tp + gpn - 1) / gpn, ppNodes = (p.pp + gpn - 1) / gpn;
    double chi = 1.0;
    if (epNodes > 1) chi += hw.cA2A * (t.nmb * t.a2aWireMb) / t.analytic;
    chi += hw.cPP * (ppNodes - 1);
    if (p.pp >= gpn && ppNodes == 1) chi += hw.cOvl;
    t.chi = std::max(hw.chiFloor, chi);
}

QuickEval PerfModel::quick(const Plan& p) const {
    QuickEval q;
    if (const char* err = structuralError(p)) {
        q.reason = err;
        return q;
    }
    q.memoryBytes = memoryBytes(p);
    if (q.memoryBytes > m_c.hardware.memoryBytes) {
        q.reason = "does not fit in device memory";
        return q;
    }
    Times t;
    cost(p, t);
    q.iterationS = t.chi * t.analytic;
    q.mfu = m_nActFlopsPerToken * double(m_c.globalBatch) * m_c.seqLen /
            (q.iterationS * m_c.devices * m_c.hardware.peakFlops);
    q.feasible = true;
    return q;
}

PlanEval PerfModel::evaluate(const Plan& p) const {
    PlanEval r;
    if (const char* err = structuralError(p)) {
        r.reason = err;
        if (std::string(err).rfind("EP must divide DP", 0) == 0)
            r.reason += ": EP " + std::to_string(p.ep) + " does not divide DP " + std::to_string(p.dp);
        return r;
    }
    const double mem = memoryBytes(p);
    r.memoryGB = mem / 1e9;
    r.microbatches = m_c.globalBatch / (p.dp * p.mbs);
    if (mem > m_c.hardware.memoryBytes) {
        r.reason = "does not fit in device memory (" + formatNumber(std::round(mem / 1e8) / 10) +
                   " GB > " + formatNumber(m_c.hardware.memoryBytes / 1e9) + " GB usable)";
        return r;
    }
    Times t;
    cost(p, t);
    r.feasible = true;
    r.chi = t.chi;
    r.iteration_s = t.chi * t.analytic;
    r.analytic_iteration_s = t.analytic;
    r.mfu = m_nActFlopsPerToken * double(m_c.globalBatch) * m_c.seqLen /
            (r.iteration_s * m_c.devices * m_c.hardware.peakFlops);
    Breakdown& b = r.breakdown;
    b.compute_s = t.chi * t.nmb * t.computeMb;
    b.a2a_s = t.chi * t.nmb * t.a2aExposedMb;
    b.other_s = t.chi * (t.nmb * t.otherMb + t.optimizer);
    b.dispatch_s = t.chi * (t.nmb * (t.tmb - t.cmpMb) + t.host);
    b.bubble_s = t.chi * t.bubble;
    b.vocab_s = t.chi * t.vocab;
    b.dp_s = t.chi * t.dpExposed;
    return r;
}

std::vector<Plan> PerfModel::enumerate(const LayoutGrid& grid) const {
    std::vector<Plan> out;
    const int n = m_c.devices;
    for (int tp : grid.tp)
        for (int cp : grid.cp)
            for (int pp : grid.pp) {
                const long long inner = 1LL * tp * cp * pp;
                if (inner > n || n % inner != 0) continue;
                Plan p;
                p.tp = tp; p.cp = cp; p.pp = pp; p.dp = int(n / inner);
                for (int ep : grid.ep) {
                    p.ep = ep;
                    for (int mbs : grid.mbs) {
                        p.mbs = mbs;
                        for (auto c : grid.ckpt) {
                            p.ckpt = c;
                            if (!structuralError(p)) out.push_back(p);
                        }
                    }
                }
            }
    return out;
}

bool PerfModel::best(const LayoutGrid& grid, Plan& bestPlan, QuickEval& bestEval) const {
    bool found = false;
    const int n = m_c.devices;
    const double cap = m_c.hardware.memoryBytes;
    Plan p;
    for (int tp : grid.tp) {
        p.tp = tp;
        for (int cp : grid.cp) {
            p.cp = cp;
            for (int pp : grid.pp) {
                const long long inner = 1LL * tp * cp * pp;
                if (inner > n || n % inner != 0) continue;
                p.pp = pp;
                p.dp = int(n / inner);
                for (int ep : grid.ep) {
                    p.ep = ep;
                    for (int mbs : grid.mbs) {
                        p.mbs = mbs;
                        p.ckpt = grid.ckpt.empty() ? Checkpointing::None : grid.ckpt.front();
                        if (structuralError(p)) continue;
                        for (auto c : grid.ckpt) {  // least recomputation first
                            p.ckpt = c;
                            const double mem = memoryBytes(p);
                            if (mem > cap) continue;
                            Times t;
                            cost(p, t);
                            const double it = t.chi * t.analytic;
                            const double mfu = m_nActFlopsPerToken * double(m_c.globalBatch) * m_c.seqLen /
                                               (it * n * m_c.hardware.peakFlops);
                            if (!found || mfu > bestEval.mfu) {
                                found = true;
                                bestPlan = p;
                                bestEval.feasible = true;
                                bestEval.reason = nullptr;
                                bestEval.mfu = mfu;
                                bestEval.iterationS = it;
                                bestEval.memoryBytes = mem;
                            }
                            break;
                        }
                    }
                }
            }
        }
    }
    return found;
}

}  // namespace tandem::mosaic
