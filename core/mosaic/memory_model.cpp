#include "mosaic/memory_model.h"

#include <algorithm>

namespace tandem::mosaic {

const char* PerfModel::stageLayers(const Plan& p, int& first, int& middle, int& last) const {
    const int L = m_g.layers, pp = std::max(1, p.pp);
    const int ls = (L + pp - 1) / pp;
    // An uneven split balances the stages: L mod PP of them hold ceil(L / PP) layers, the rest
    // floor(L / PP), the last stage among the latter (it also holds the LM head), as a
    // pipeline layout or Megatron-Core's account-for-loss split places them (126 layers over
    // PP 16: 7 on the last stage). The first and middle stages hold the most.
    first = middle = ls;
    last = L % pp == 0 ? ls : L / pp;
    if (pp == 1) last = first;
    if (p.firstStageLayers == 0 && p.lastStageLayers == 0) return nullptr;
    if (p.firstStageLayers < 0 || p.lastStageLayers < 0)
        return "first / last stage layers must be >= 0 (0 = even split)";
    if (pp < 2) return "uneven first / last stages need PP >= 2";
    if (p.vp > 1) return "uneven first / last stages are costed with VP = 1";
    const int given = (p.firstStageLayers > 0) + (p.lastStageLayers > 0);
    const int restStages = pp - given;
    const int restLayers = L - p.firstStageLayers - p.lastStageLayers;
    if (restLayers < 0) return "first + last stage layers exceed the number of layers";
    if (restStages == 0 ? restLayers != 0 : (restLayers < restStages || restLayers % restStages))
        return "the layers besides the first / last stage must split evenly over the other "
               "stages (>= 1 each)";
    const int rest = restStages > 0 ? restLayers / restStages : 0;
    first = p.firstStageLayers > 0 ? p.firstStageLayers : rest;
    last = p.lastStageLayers > 0 ? p.lastStageLayers : rest;
    middle = pp > 2 ? rest : 0;
    return nullptr;
}

double PerfModel::groupMemory(const Plan& p, Group& gr, bool allStages) const {
    const Geometry& g = m_g;
    int nFirst = 0, nMiddle = 0, nLast = 0;
    stageLayers(p, nFirst, nMiddle, nLast);
    const double tp = p.tp, d = g.dModel, e = g.experts;
    const Stack& sk = m_c.stack;
    // Expert data parallelism: DP / EP x CP [App. D.1]; folded: TP CP DP / (EP ETP).
    // Whole numbers: a layout's EP x ETP divides TP x CP x DP (folded) and EP divides DP.
    const int edpRanks =
        sk.expertFolding ? p.tp * p.cp * p.dp / (p.ep * p.etp) : p.dp / p.ep * p.cp;
    const double edp = edpRanks;
    const double lowBytes = sk.lowPrecisionWeightBytes[int(m_c.precision)];
    // The GEMM weights are kept only in the low precision (Stack::lowPrecisionParams).
    const bool lowOnly = lowBytes > 0 && sk.lowPrecisionParams[int(m_c.precision)];
    const double gradBytes = sk.mainGradBytes, optBytes = optimizerBytesPerParam(sk);
    gr.vp = p.vp;
    gr.pp = p.pp;
    gr.floorMiddleFrom = 0;
    // One pipeline stage: its layers (dense blocks lead, so the first stage holds them), plus
    // the token embedding on the first stage and the untied LM head with its logits on the last
    // [2608.10605 Sec. 5.4, Eq. 13: "lands entirely on the last pipeline stage"].
    auto stage = [&](Stage& st, int firstLayer, int layers, int index, bool first, bool last) {
        const int n = std::max(0, std::min(layers, g.layers - firstLayer));
        const int denseLs = std::max(0, std::min(n, m_denseLayers - firstLayer));
        const int moeLs = n - denseLs;
        const double vocabP = double(g.vocab) * d * ((first ? 1 : 0) + (last ? 1 : 0));
        const double denseP = (moeLs * (m_attnParams + m_sharedParams + m_routerParams) +
                               denseLs * (m_attnParams + m_denseFfnParams) + vocabP) /
                              tp;
        const double expertP = moeLs * e * m_expertParams / (p.ep * p.etp);
        const double dpShard = double(p.dp) * p.cp;
        const double optDense = p.distributedOptimizer ? dpShard : 1.0,
                     optExpert = p.distributedOptimizer ? edp : 1.0;
        // Distributed optimizer [Megatron-Core distrib_optimizer documentation; Rajbhandari et
        // al. 2020 ZeRO-1]: BF16 parameters (2 B) and main gradients (Stack::mainGradBytes) on
        // every rank, FP32 master weights and both AdamW moments (12 B, + 4 B FP32 main gradient
        // under 16-bit gradients: optimizerBytesPerParam) sharded over DP x CP (experts: EDP).
        st.params = (denseP + expertP) * kBf16;
        st.grads = (denseP + expertP) * gradBytes;
        st.optimizer = optBytes * (denseP / optDense + expertP / optExpert);
        st.weights = (denseP + expertP) * (kBf16 + gradBytes) + st.optimizer;
        st.extra = 0;
        const double perLayer = n > 0 ? 1.0 / n : 0.0;
        if (p.fsdp) {
            // FSDP [Zhao et al. 2023, PyTorch FSDP; Megatron-FSDP]: parameters and gradients
            // sharded as well; one layer's parameters gathered ahead of use (one layer
            // prefetched) and its unsharded gradients.
            st.params = kBf16 * (denseP / dpShard + expertP / edp);
            st.grads = gradBytes * (denseP / dpShard + expertP / edp);
            const double layer = (denseP + expertP) * perLayer;
            st.extra = layer * kBf16 + layer * gradBytes;
            st.weights = st.params + st.grads + st.optimizer + st.extra;
        }
        if (lowBytes > 0) {
            // Low-precision copies of the GEMM weights (not the embedding / LM head), sharded
            // like the BF16 weights; with lowOnly they replace the BF16 GEMM weights.
            const double gemmP = denseP - vocabP / tp + expertP;
            const double perWeight = lowOnly ? lowBytes - kBf16 : lowBytes;
            const double copies = perWeight * (p.fsdp ? gemmP / dpShard : gemmP);
            st.params += copies;
            st.weights += copies;
            if (p.fsdp) {  // the gathered layer holds them too
                st.extra += perWeight * gemmP * perLayer;
                st.weights += perWeight * gemmP * perLayer;
            }
        }
        st.layers = n;
        st.denseLs = denseLs;
        st.moeLs = moeLs;
        st.ppMinusIndex = p.pp - index;
        st.last = last;
        return st.weights;
    };
    // Stage order is the order memoryOf takes the maximum in: first, last, one middle stage.
    if (p.pp == 1) {
        gr.nStages = 1;
        return stage(gr.stages[0], 0, nFirst, 0, true, true);
    }
    gr.nStages = p.pp > 2 ? 3 : 2;
    double worst = std::max(stage(gr.stages[0], 0, nFirst, 0, true, false),
                            stage(gr.stages[1], g.layers - nLast, nLast, p.pp - 1, false, true));
    if (p.pp > 2) worst = std::max(worst, stage(gr.stages[2], nFirst, nMiddle, 1, false, false));
    // The middle stages past the L mod PP fullest ones hold floor(L / PP) (stageLayers): their
    // own row, never more than the fullest middle stage.
    const int fuller = g.layers % p.pp;
    if (allStages && p.pp > 2 && p.firstStageLayers == 0 && p.lastStageLayers == 0 &&
        nMiddle == nFirst && nLast < nFirst && fuller < p.pp - 1) {
        gr.floorMiddleFrom = std::max(1, fuller);
        stage(gr.stages[3], nFirst + (gr.floorMiddleFrom - 1) * nMiddle, nLast, gr.floorMiddleFrom,
              false, false);
    }
    return worst;
}

double PerfModel::memoryOf(const Group& gr, const Shape& s, int nmb, Checkpointing ck,
                           MemoryBreakdown* out, std::vector<StageMemory>* stages) const {
    const Geometry& g = m_g;
    const double tokens = s.tokensMem, k = g.topK, d = g.dModel, e = g.experts;
    const double aMoe = m_actMoe[ckptRank(ck)],
                 aDense =
                     m_actDense[ckptRank(ck)] + s.tpReplicas * m_actDenseReplicated[ckptRank(ck)];
    // Logits of the fused vocab-parallel cross-entropy (bf16, gradient written in place) and
    // the all-to-all buffers of a stage.
    auto buffers = [&](const Stage& st) {
        double b = st.last ? kBf16 * tokens * double(g.vocab) : 0.0;
        if (e > 0 && st.moeLs > 0) b += 2.0 * kBf16 * tokens * k * d;
        return b;
    };
    auto stage = [&](const Stage& st) {
        double bytes = st.weights;
        // 1F1B: stage s keeps min(PP - s, n_mb) microbatches in flight; the first keeps most.
        const int inflightStage = std::max(1, std::min(st.ppMinusIndex, nmb));
        double act = kBf16 * tokens * inflightStage * (st.moeLs * aMoe + st.denseLs * aDense);
        if (gr.vp > 1) {
            // Interleaved 1F1B: rank s warms up 2 (PP - 1 - s) + (VP - 1) PP + 1 model chunks of
            // L_stage / VP layers each, i.e. L_stage PP (1 + (PP - 1) / (PP VP)) layer-microbatches
            // on the first stage [Narayanan et al. 2021 Sec. 2.2; Korthikanti et al. 2022
            // Sec. 4.2.3].
            const int rank = gr.pp - st.ppMinusIndex;
            const int chunks = std::max(
                1, std::min(2 * (gr.pp - 1 - rank) + (gr.vp - 1) * gr.pp + 1, nmb * gr.vp));
            act =
                kBf16 * tokens * (double(chunks) / gr.vp) * (st.moeLs * aMoe + st.denseLs * aDense);
        }
        if (ck == Checkpointing::Full &&
            st.layers > 0)  // one layer rematerialised during its backward
            act += kBf16 * tokens *
                   (m_actAttn + m_actScores +
                    (st.moeLs > 0
                         ? m_actMoeNone
                         : m_actDenseNone +
                               s.tpReplicas * m_actDenseReplicated[ckptRank(Checkpointing::None)]));
        bytes += act * m_c.hardware.activationMemoryFactor;
        // Added one at a time, in this order (the sum is compared across layouts).
        if (st.last) bytes += kBf16 * tokens * double(g.vocab);
        if (e > 0 && st.moeLs > 0) bytes += 2.0 * kBf16 * tokens * k * d;
        return bytes;
    };
    auto breakdown = [&](const Stage& st, double total) {
        MemoryBreakdown b;
        b.weights = st.params / 1e9;
        b.gradients = st.grads / 1e9;
        b.optimizer = st.optimizer / 1e9;
        const double rest = total - st.params - st.grads - st.optimizer - st.extra;
        b.activations = (rest - buffers(st)) / 1e9;
        b.other = (buffers(st) + st.extra) / 1e9;
        return b;
    };
    double totals[3] = {stage(gr.stages[0]), 0, 0};
    int worstStage = 0;
    for (int i = 1; i < gr.nStages; ++i) {
        totals[i] = stage(gr.stages[i]);
        if (totals[i] > totals[worstStage]) worstStage = i;
    }
    if (out) *out = breakdown(gr.stages[worstStage], totals[worstStage]);
    if (stages) {
        // Pipeline order: first (stages[0]), the fullest middle ones (stages[2]), the middle
        // ones of floor(L / PP) layers (stages[3]), last (stages[1]).
        stages->clear();
        const int floorFrom = gr.floorMiddleFrom;
        const int order[4] = {0, 2, 3, 1};
        for (int i : order) {
            if (i == 3 ? floorFrom == 0 : i >= gr.nStages) continue;
            const Stage& st = gr.stages[i];
            const double total = i == 3 ? stage(st) : totals[i];
            StageMemory m;
            m.firstStage = gr.pp - st.ppMinusIndex;
            m.lastStage = i == 2   ? (floorFrom > 0 ? floorFrom - 1 : gr.pp - 2)
                          : i == 3 ? gr.pp - 2
                                   : m.firstStage;
            if (m.lastStage < m.firstStage) continue;  // no middle stage holds ceil(L / PP)
            m.layers = st.layers;
            m.memory = breakdown(st, total);
            m.totalGB = total / 1e9;
            stages->push_back(m);
        }
    }
    return totals[worstStage];
}

double PerfModel::memoryBytes(const Plan& p) const { return memoryBytes(p, nullptr); }

std::vector<StageMemory> PerfModel::stageMemory(const Plan& p) const {
    Group gr;
    groupMemory(p, gr, true);
    Shape s;
    s.tokensMem = double(m_c.seqLen) * p.mbs / p.cp / double(p.tp);
    s.tpReplicas = p.sequenceParallel ? 0 : p.tp - 1;
    std::vector<StageMemory> out;
    memoryOf(gr, s, m_c.globalBatch / (p.dp * p.mbs), p.ckpt, nullptr, &out);
    return out;
}

double PerfModel::memoryBytes(const Plan& p, MemoryBreakdown* out) const {
    Group gr;
    groupMemory(p, gr);
    Shape s;
    s.tokensMem = double(m_c.seqLen) * p.mbs / p.cp / double(p.tp);
    s.tpReplicas = p.sequenceParallel ? 0 : p.tp - 1;
    return memoryOf(gr, s, m_c.globalBatch / (p.dp * p.mbs), p.ckpt, out);
}

}  // namespace tandem::mosaic
