#include "imported_model.h"

#include <algorithm>
#include <cmath>

#include "io/mosaic_model.h"
#include "mosaic/scaling_law.h"
#include "mosaic/search.h"

namespace tandem::ui {

ImportedModel mosaicGeometry(const io::ModelImport& m, const QString& label) {
    ImportedModel out;
    out.label = label;
    io::MosaicModel mm = io::toMosaicModel(m);
    out.geometry = mm.geometry;
    out.notes = std::move(mm.assumptions);
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
    // A dense model (G undefined) is one full-width expert: Eq. 10 at G = 1.
    const double lawG = g.splitG >= 1 ? g.splitG : 1;
    if (g.splitG < 1) out.notes.push_back("dense model: Eq. 10 scored at S = 0 and G = 1");
    out.loss = e.law.loss(g.nTot, g.sparsity, out.tokens, lawG);
    out.extrapolated = mosaic::isExtrapolated(g.nTot, g.sparsity, out.tokens, lawG);
    return out;
}

}  // namespace tandem::ui
