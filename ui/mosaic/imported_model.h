#pragma once
// A published model (from its Hugging Face config) costed on the MoE workspace's cluster: its
// best layout, MFU, memory per GPU and the Eq. 10 loss it reaches in the training window, so it
// can be drawn on the loss-vs-sparsity frontier [2608.10605 Sec. 5, 7, Eq. 10, Eq. 25].
#include <QString>
#include <string>
#include <vector>

#include "io/hf_config.h"
#include "mosaic/envelope.h"
#include "mosaic/geometry.h"
#include "mosaic/perf_model.h"

namespace tandem::ui {

/// An imported model as the MOSAIC engine sees it (the geometry to cost).
struct ImportedModel {
    QString label;                   ///< e.g. "Mixtral-8x7B"
    mosaic::Geometry geometry;       ///< widths from the config; counts see mosaicGeometry
    std::vector<std::string> notes;  ///< approximations made for the performance model
};

/// The imported model evaluated on one envelope's cluster and window.
struct ImportedModelPoint {
    QString label;
    mosaic::Geometry geometry;
    mosaic::Plan plan;      ///< best feasible layout (max MFU), or the default when none fits
    mosaic::PlanEval eval;  ///< its evaluation; eval.feasible false when no layout fits
    double tokens = 0;  ///< D = min(Eq. 25 D at its MFU, TPP_max N_act), tokens; 0 if infeasible
    double loss = 0;    ///< Eq. 10 at (N_tot, S, D, G), nats; NaN if infeasible
    bool extrapolated =
        false;  ///< outside Eq. 10's calibrated range (Table 6): flagged, not clamped
    std::vector<std::string> notes;
};

/// Maps an imported config to the geometry the performance model costs, with
/// mosaic::importedGeometry (the same rules as `tandem-cli plan CONFIG.json`; its assumptions
/// become `notes`). N_act, N_tot and S are the config's exact non-embedding counts, so the plotted
/// S equals `inspect`'s.
ImportedModel mosaicGeometry(const io::ModelImport& m, const QString& label);

/// Costs `m` on `e`'s cluster with mosaic::bestPlan (the envelope's layout grid) and scores it
/// like a search candidate: D from Eq. 25 capped at TPP_max N_act, loss from Eq. 10 (a dense
/// model, G undefined, is scored at G = 1 and noted; S = 0 is outside the law's fitted range and
/// flagged extrapolated).
/// Deterministic; about as costly as one geometry of the search.
ImportedModelPoint evaluateImportedModel(const ImportedModel& m, const mosaic::Envelope& e);

}  // namespace tandem::ui
