#include "mosaic/imported_geometry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/json_reader.h"
#include "common/number_format.h"

namespace tandem::mosaic {
using namespace tandem::io;  // the importer's types (ModelGeometry, AttentionKind, ...)
namespace {

int toInt(long long v) { return static_cast<int>(std::clamp<long long>(v, 0, 1LL << 30)); }

std::string billions(double v) { return formatFixed(v / 1e9, 2) + " B"; }

/// printf's "%+.1f %%" of 100 v: "+12.5 %", "-0.3 %".
std::string percent(double v) {
    const double p = 100.0 * v;
    return (std::signbit(p) ? "" : "+") + formatFixed(p, 1) + " %";
}

}  // namespace

ImportedGeometry importedGeometry(const ModelImport& m) {
    ImportedGeometry out;
    const ModelGeometry& s = m.geometry;
    mosaic::Geometry& g = out.geometry;
    auto note = [&](const std::string& a) { out.assumptions.push_back(a); };
    g.layers = toInt(s.layers);
    g.dModel = toInt(s.hidden);
    g.nHead = toInt(s.heads);
    g.nKvHead = toInt(s.kvHeads > 0 ? s.kvHeads : s.heads);
    if (s.attention == AttentionKind::MultiHeadLatent) {
        g.nKvHead = g.nHead;
        note("multi-head latent attention costed as standard attention with " +
             std::to_string(g.nHead) + " KV heads of width d / heads");
    } else if (s.headDim > 0 && s.heads * s.headDim != s.hidden) {
        // The config's own head width (Qwen3: 32 x 128 on d = 2048): Q, K, V and the output
        // projection, the attention core and its activations are costed at heads x head_dim.
        g.headDim = toInt(s.headDim);
    }
    const bool moe = s.moeLayers > 0 && s.experts > 0;
    g.experts = moe ? toInt(s.experts) : 0;
    g.topK = moe ? toInt(s.topK) : 0;
    g.dExpert = moe ? toInt(s.dExpert) : 0;
    long long dff = s.dFfDense > 0 ? s.dFfDense : s.dFfReference > 0 ? s.dFfReference : s.dExpert;
    if (!s.gatedFfn && dff > 0) {
        const long long swiglu = std::max<long long>(1, std::llround(2.0 * double(dff) / 3.0));
        note("2-matrix FFN of width " + std::to_string(dff) + " costed as a SwiGLU FFN of width " +
             std::to_string(swiglu) + " (same parameters and FLOPs)");
        dff = swiglu;
    }
    g.dFf = toInt(dff);
    g.denseLayers = moe ? toInt(s.denseLayers) : g.layers;
    if (moe && s.denseLayers > 0 && s.family == ModelFamily::Llama4)
        note("interleaved dense blocks costed as " + std::to_string(s.denseLayers) +
             " leading dense blocks");
    if (moe && s.sharedExperts > 0 && s.dExpert > 0) {
        const double equal = double(s.sharedExperts) *
                             double(s.dShared > 0 ? s.dShared : s.dExpert) / double(s.dExpert);
        g.sharedExperts = std::max(1, int(std::lround(equal)));
        if (std::abs(equal - g.sharedExperts) > 1e-9 || (s.dShared > 0 && s.dShared != s.dExpert))
            note(std::to_string(s.sharedExperts) + " shared expert(s) of width " +
                 std::to_string(s.dShared > 0 ? s.dShared : s.dExpert) + " costed as " +
                 std::to_string(g.sharedExperts) +
                 " of width d_expert = " + std::to_string(s.dExpert));
    }
    g.vocab = toInt(s.vocab);
    // The facts a launch script must state, as the config gives them (not costed).
    g.rmsNorm = s.layerNorm ? 0 : 1;
    g.rotary = s.learnedPositions > 0 ? 0 : 1;
    g.ropeTheta = g.rotary == 1 ? s.ropeTheta : 0;
    g.tiedEmbeddings = s.tiedEmbeddings ? 1 : 0;
    g.linearBias = s.oBias || s.mlpBias ? 2 : s.qkvBias ? 1 : 0;
    g.qkNorm = s.qkNorm ? 1 : 0;
    g.mla = s.attention == AttentionKind::MultiHeadLatent ? 1 : 0;
    if (g.mla == 1) {
        g.qLoraRank = toInt(s.qLoraRank);
        g.kvLoraRank = toInt(s.kvLoraRank);
        g.qkNopeHeadDim = toInt(s.qkNopeHeadDim);
        g.qkRopeHeadDim = toInt(s.qkRopeHeadDim);
        g.vHeadDim = toInt(s.vHeadDim);
    }
    if (s.tiedEmbeddings)
        note(
            "tied embeddings: memory still holds a separate output head on the last pipeline "
            "stage");
    const double split = m.counts.splitFactorG;
    if (moe) {
        g.splitG = std::isfinite(split) && split >= 1 ? int(std::lround(split)) : 1;
        if (!(std::isfinite(split) && split >= 1))
            note(
                "split factor G undefined for this config; G = 1 used for labels and the scaling "
                "law");
    } else {
        g.splitG = 0;
    }
    // Costed counts (the geometry's own convention) against the config's exact counts.
    mosaic::Geometry costed = g;
    mosaic::countParameters(costed);
    g.nAct = double(m.counts.activeNonEmbedding);
    g.nTot = double(m.counts.totalNonEmbedding);
    g.sparsity = m.counts.sparsity;
    if (g.nAct > 0 && std::abs(costed.nAct / g.nAct - 1.0) > 0.01)
        note("per-layer compute and memory are costed from the widths above: N_act " +
             billions(costed.nAct) + " costed vs " + billions(g.nAct) + " counted (" +
             percent(costed.nAct / g.nAct - 1.0) + "); MFU credits the counted N_act");
    if (s.qkvBias || s.oBias || s.mlpBias || s.attentionSinks || s.routerBias || s.layerNorm)
        note(
            "biases, LayerNorm weights and attention sinks are counted in N but not costed as "
            "compute");
    return out;
}

nlohmann::ordered_json importedGeometryToJson(const ModelImport& m, const ImportedGeometry& mm) {
    nlohmann::ordered_json j;
    j["source"] = "hf_config";
    j["model_type"] = m.geometry.modelType;
    j["family"] = name(m.geometry.family);
    j["n_total"] = m.counts.total;
    j["n_active"] = m.counts.active;
    j["n_total_nonembedding"] = m.counts.totalNonEmbedding;
    j["n_active_nonembedding"] = m.counts.activeNonEmbedding;
    mosaic::Geometry costed = mm.geometry;
    mosaic::countParameters(costed);
    j["n_active_costed_nonembedding"] = costed.nAct;
    j["import_assumptions"] = m.assumptions;
    j["mapping_assumptions"] = mm.assumptions;
    return j;
}

}  // namespace tandem::mosaic
