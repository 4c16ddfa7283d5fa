#include "imported_model.h"

#include <algorithm>
#include <cmath>

#include "mosaic/scaling_law.h"
#include "mosaic/search.h"

namespace tandem::ui {

namespace {
int toInt(long long v) { return static_cast<int>(std::clamp<long long>(v, 0, 1LL << 30)); }
}  // namespace

ImportedModel mosaicGeometry(const io::ModelImport& m, const QString& label) {
    ImportedModel out;
    out.label = label;
    const io::ModelGeometry& s = m.geometry;
    mosaic::Geometry& g = out.geometry;
    g.layers = toInt(s.layers);
    g.dModel = toInt(s.hidden);
    g.nHead = toInt(s.heads);
    g.nKvHead = toInt(s.kvHeads > 0 ? s.kvHeads : s.heads);
    if (s.attention == io::AttentionKind::MultiHeadLatent) {
        g.nKvHead = g.nHead;
        out.notes.push_back("multi-head latent attention costed as standard attention with " +
                            std::to_string(g.nHead) + " KV heads");
    }
    g.experts = toInt(s.moeLayers > 0 ? s.experts : 0);
    g.topK = g.experts > 0 ? toInt(s.topK) : 0;
    g.dExpert = g.experts > 0 ? toInt(s.dExpert) : 0;
    g.dFf = toInt(s.dFfDense > 0 ? s.dFfDense : s.dFfReference > 0 ? s.dFfReference : s.dExpert);
    g.denseLayers = g.experts > 0 ? toInt(s.denseLayers) : g.layers;
    if (g.experts > 0 && s.denseLayers > 0 && s.moeLayers > 0 && s.family.rfind("llama4", 0) == 0)
        out.notes.push_back("interleaved dense blocks costed as leading dense blocks");
    if (g.experts > 0 && s.sharedExperts > 0 && s.dExpert > 0) {
        const double equal = double(s.sharedExperts) * double(s.dShared > 0 ? s.dShared : s.dExpert) / double(s.dExpert);
        g.sharedExperts = std::max(1, int(std::lround(equal)));
        if (std::abs(equal - g.sharedExperts) > 1e-9)
            out.notes.push_back("shared experts costed as " + std::to_string(g.sharedExperts) +
                                " of width d_expert");
    }
    g.vocab = toInt(s.vocab);
    const double split = m.counts.splitFactorG;
    g.splitG = std::isfinite(split) && split >= 1 ? int(std::lround(split)) : 1;
    if (g.experts > 0 && !(std::isfinite(split) && split >= 1))
        out.notes.push_back("split factor G undefined for this config; Eq. 10 scored at G = 1");
    g.nAct = double(m.counts.activeNonEmbedding);
    g.nTot = double(m.counts.totalNonEmbedding);
    g.sparsity = m.counts.sparsity;
    return out;
}

ImportedModelPoint evaluateImportedModel(const ImportedModel& m, const mosaic::Envelope& e) {
    ImportedModelPoint out;
    out.label = m.label;
    out.geometry = m.geometry;
    out.notes = m.notes;
    const auto [plan, eval] = mosaic::bestPlan(m.geometry, e);
    out.plan = plan;
    out.eval = eval;
    out.loss = NAN;
    if (!eval.feasible) return out;
    const mosaic::Geometry& g = m.geometry;
    out.tokens = std::min(mosaic::deliverableTokens(e, eval.mfu, g.nAct), e.tppMax * g.nAct);
    out.loss = e.law.loss(g.nTot, g.sparsity, out.tokens, g.splitG);
    out.extrapolated = mosaic::isExtrapolated(g.nTot, g.sparsity, out.tokens, g.splitG);
    return out;
}

}  // namespace tandem::ui
