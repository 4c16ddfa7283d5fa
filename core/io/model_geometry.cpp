#include "io/model_geometry.h"

#include <cmath>
#include <limits>

namespace tandem::io {
namespace {

/// Attention parameters of one block (projections, their biases, attention-internal norms).
long long attentionParams(const ModelGeometry& g) {
    const long long d = g.hidden;
    if (g.attention == AttentionKind::MultiHeadLatent) {
        const long long qHead = g.qkNopeHeadDim + g.qkRopeHeadDim;
        long long p = 0;
        if (g.qLoraRank > 0)
            p += d * g.qLoraRank + g.qLoraRank + g.qLoraRank * g.heads * qHead;  // q_a, norm, q_b
        else
            p += d * g.heads * qHead;                                           // q_proj
        p += d * (g.kvLoraRank + g.qkRopeHeadDim);                  // kv_a_proj_with_mqa
        p += g.kvLoraRank;                                          // kv_a_layernorm
        p += g.kvLoraRank * g.heads * (g.qkNopeHeadDim + g.vHeadDim);  // kv_b_proj
        p += g.heads * g.vHeadDim * d;                              // o_proj
        return p;
    }
    const long long q = g.heads * g.headDim, kv = g.kvHeads * g.headDim;
    long long p = d * q + 2 * d * kv + q * d;
    if (g.qkvBias) p += q + 2 * kv;
    if (g.oBias) p += d;
    if (g.qkNorm) p += 2 * g.headDim;
    if (g.attentionSinks) p += g.heads;
    return p;
}

/// One FFN (or expert) of hidden width `w`.
long long ffnParams(const ModelGeometry& g, long long w) {
    const long long d = g.hidden;
    long long p = (g.gatedFfn ? 3 : 2) * d * w;
    if (g.mlpBias) p += (g.gatedFfn ? 2 * w : w) + d;
    return p;
}

long long normParams(const ModelGeometry& g) { return g.layerNorm ? 2 * g.hidden : g.hidden; }

}  // namespace

ParameterCounts countParameters(const ModelGeometry& g) {
    ParameterCounts c;
    const long long d = g.hidden;
    const long long attn = attentionParams(g);
    const long long blockNorms = 2 * normParams(g);
    const long long dense = ffnParams(g, g.dFfDense);
    const long long expert = ffnParams(g, g.dExpert);
    const long long shared = g.sharedExperts * ffnParams(g, g.dShared);
    long long router = d * g.experts;
    if (g.routerBias) router += g.experts;
    if (g.routerCorrectionBias) router += g.experts;
    if (g.sharedExpertGate) router += d;

    const long long moeTotal = g.experts * expert + shared + router;
    const long long moeActive = g.topK * expert + shared + router;

    long long body = g.layers * (attn + blockNorms) + g.denseLayers * dense;
    long long bodyActive = body;
    body += g.moeLayers * moeTotal;
    bodyActive += g.moeLayers * moeActive;
    if (g.finalNorm) {
        body += normParams(g);
        bodyActive += normParams(g);
    }
    if (g.embedProjDim > 0 && g.embedProjDim != d) {  // OPT project_in / project_out
        body += 2 * d * g.embedProjDim;
        bodyActive += 2 * d * g.embedProjDim;
    }
    const long long embedWidth = g.embedProjDim > 0 ? g.embedProjDim : d;
    c.tokenEmbedding = g.vocab * embedWidth;
    c.outputHead = g.tiedEmbeddings ? 0 : g.vocab * embedWidth;
    c.positionEmbedding = g.learnedPositions * d;

    c.totalNonEmbedding = body;
    c.activeNonEmbedding = bodyActive;
    const long long allEmb = c.tokenEmbedding + c.outputHead + c.positionEmbedding;
    c.total = body + allEmb;
    c.activeAllEmbeddings = bodyActive + allEmb;
    if (g.activeConvention == ActiveEmbeddingConvention::OutputOnly && !g.tiedEmbeddings)
        c.active = bodyActive + c.outputHead;
    else
        c.active = c.activeAllEmbeddings;
    c.sparsity = body > 0 ? 1.0 - static_cast<double>(bodyActive) / static_cast<double>(body) : 0.0;
    c.splitFactorG = (g.dExpert > 0 && g.dFfReference > 0)
                         ? static_cast<double>(g.dFfReference) / static_cast<double>(g.dExpert)
                         : std::numeric_limits<double>::quiet_NaN();
    return c;
}

std::string attentionKindName(AttentionKind k) {
    return k == AttentionKind::MultiHeadLatent ? "mla" : "standard";
}

std::string activeConventionName(ActiveEmbeddingConvention c) {
    return c == ActiveEmbeddingConvention::OutputOnly ? "output_only" : "input_and_output";
}

}  // namespace tandem::io
