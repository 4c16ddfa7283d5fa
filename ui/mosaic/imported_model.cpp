#include "ui/mosaic/imported_model.h"

#include <cmath>

#include "mosaic/imported_geometry.h"
#include "mosaic/search.h"

namespace tandem::ui {

ImportedModel mosaicGeometry(const io::ModelImport& m, const QString& label) {
    ImportedModel out;
    out.label = label;
    mosaic::ImportedGeometry mm = mosaic::importedGeometry(m);
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
    const mosaic::CandidateScore score = mosaic::scoreCandidate(e, m.geometry, eval.mfu);
    if (m.geometry.splitG < 1) out.notes.push_back("dense model: Eq. 10 scored at S = 0 and G = 1");
    out.tokens = score.tokens;
    out.loss = score.loss;
    out.extrapolated = score.extrapolated;
    return out;
}

}  // namespace tandem::ui
