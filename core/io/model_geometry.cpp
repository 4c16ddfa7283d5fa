#include "io/model_geometry.h"

#include <cmath>
#include <limits>

namespace tandem::io {

const EnumTable<ModelFamily>& modelFamilyNames() {
    static const EnumTable<ModelFamily> t = {{ModelFamily::Mixtral, "mixtral"},
                                             {ModelFamily::DeepseekV2, "deepseek_v2"},
                                             {ModelFamily::DeepseekV3, "deepseek_v3"},
                                             {ModelFamily::Qwen2Moe, "qwen2_moe"},
                                             {ModelFamily::Qwen3Moe, "qwen3_moe"},
                                             {ModelFamily::GptOss, "gpt_oss"},
                                             {ModelFamily::Llama4, "llama4"},
                                             {ModelFamily::Gpt2, "gpt2"},
                                             {ModelFamily::Opt, "opt"},
                                             {ModelFamily::Llama, "llama"},
                                             {ModelFamily::Qwen2, "qwen2"},
                                             {ModelFamily::Qwen3, "qwen3"}};
    return t;
}
const char* name(ModelFamily f) { return enumName(modelFamilyNames(), f); }

namespace {

/// Attention parameters of one block (projections, their biases, attention-internal norms).
double attentionParams(const ModelGeometry& g) {
    const double d = static_cast<double>(g.hidden);
    if (g.attention == AttentionKind::MultiHeadLatent) {
        const double qHead = g.qkNopeHeadDim + g.qkRopeHeadDim;
        double p = 0;
        if (g.qLoraRank > 0)
            p += d * g.qLoraRank + g.qLoraRank + g.qLoraRank * g.heads * qHead;  // q_a, norm, q_b
        else
            p += d * g.heads * qHead;                                  // q_proj
        p += d * (g.kvLoraRank + g.qkRopeHeadDim);                     // kv_a_proj_with_mqa
        p += g.kvLoraRank;                                             // kv_a_layernorm
        p += g.kvLoraRank * g.heads * (g.qkNopeHeadDim + g.vHeadDim);  // kv_b_proj
        p += g.heads * g.vHeadDim * d;                                 // o_proj
        return p;
    }
    const double q = double(g.heads) * g.headDim, kv = double(g.kvHeads) * g.headDim;
    double p = d * q + 2 * d * kv + q * d;
    if (g.qkvBias) p += q + 2 * kv;
    if (g.oBias) p += d;
    if (g.qkNorm) p += 2 * g.headDim;
    if (g.attentionSinks) p += g.heads;
    return p;
}

/// One FFN (or expert) of hidden width `w`.
double ffnParams(const ModelGeometry& g, double w) {
    const double d = static_cast<double>(g.hidden);
    double p = (g.gatedFfn ? 3 : 2) * d * w;
    if (g.mlpBias) p += (g.gatedFfn ? 2 * w : w) + d;
    return p;
}

double normParams(const ModelGeometry& g) { return (g.layerNorm ? 2.0 : 1.0) * g.hidden; }

/// Saturating conversion of an exact (below 2^53) double count to an integer count.
long long toCount(double v) {
    return v >= 4.0e18 ? 4000000000000000000LL : static_cast<long long>(v);
}

}  // namespace

ParameterCounts countParameters(const ModelGeometry& g) {
    ParameterCounts c;
    const double d = static_cast<double>(g.hidden);
    const double attn = attentionParams(g);
    const double blockNorms = 2 * normParams(g);
    const double dense = ffnParams(g, static_cast<double>(g.dFfDense));
    const double expert = ffnParams(g, static_cast<double>(g.dExpert));
    const double shared = double(g.sharedExperts) * ffnParams(g, static_cast<double>(g.dShared));
    double router = d * g.experts;
    if (g.routerBias) router += g.experts;
    if (g.routerCorrectionBias) router += g.experts;
    if (g.sharedExpertGate) router += d;

    const double moeTotal = double(g.experts) * expert + shared + router;
    const double moeActive = double(g.topK) * expert + shared + router;

    double body = double(g.layers) * (attn + blockNorms) + double(g.denseLayers) * dense;
    double bodyActive = body;
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
    const double embedWidth = g.embedProjDim > 0 ? static_cast<double>(g.embedProjDim) : d;
    const double token = double(g.vocab) * embedWidth;
    const double head = g.tiedEmbeddings ? 0.0 : double(g.vocab) * embedWidth;
    const double positions = double(g.learnedPositions) * d;
    const double allEmb = token + head + positions;
    c.tokenEmbedding = toCount(token);
    c.outputHead = toCount(head);
    c.positionEmbedding = toCount(positions);
    c.totalNonEmbedding = toCount(body);
    c.activeNonEmbedding = toCount(bodyActive);
    c.total = toCount(body + allEmb);
    c.activeAllEmbeddings = toCount(bodyActive + allEmb);
    if (g.activeConvention == ActiveEmbeddingConvention::OutputOnly && !g.tiedEmbeddings)
        c.active = toCount(bodyActive + head);
    else
        c.active = c.activeAllEmbeddings;
    c.sparsity = body > 0 ? 1.0 - bodyActive / body : 0.0;
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
