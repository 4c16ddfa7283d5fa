#pragma once
// What the MoE workspace's plan panel shows a plan of: the cluster-optimal model, the selected
// candidate or an imported model, as the mosaic::PlanRequest `tandem-cli plan` would cost
// (mosaic/plan_report.h). Display-free.
#include <QString>
#include <optional>
#include <vector>

#include "mosaic/envelope.h"
#include "mosaic/plan_report.h"
#include "mosaic/search.h"
#include "ui/mosaic/imported_model.h"

namespace tandem::ui {

/// One entry of the plan panel's list.
struct PlanSubject {
    QString name;  ///< "Cluster-optimal model", "Candidate #3", "Imported: Mixtral-8x7B"
    /// The plan to cost; nullopt when the subject has no feasible layout (see `why`).
    std::optional<mosaic::PlanRequest> request;
    QString why;  ///< why there is no plan (request is nullopt)
};

/// The request of `geometry` run with `plan` on `e`'s cluster (mosaic::clusterOf: its hardware
/// with measured and co-run curves, stack, precision, B_global, T_seq) and layout grid, with
/// `tokens` as the token target and e.goodput: what `tandem-cli plan --layout` costs (without
/// the search for a working cluster when the layout does not fit); with co-running jobs, the
/// sentence on what they do to the job (mosaic::coRunNote) in `coRunNote`.
mosaic::PlanRequest planRequestOf(const mosaic::Geometry& geometry, const mosaic::Plan& plan,
                                  double tokens, const mosaic::Envelope& e);

/// The subjects of a search shown on `e`: the cluster optimum (with its own best layout), the
/// shown candidate `shown` (index `selected`) when it is another candidate or a layout chosen on
/// the heatmap (`ownLayout` false), and every imported model.
std::vector<PlanSubject> planSubjects(const mosaic::SearchResult& r, const mosaic::Envelope& e,
                                      int selected, const std::optional<mosaic::Candidate>& shown,
                                      bool ownLayout,
                                      const std::vector<ImportedModelPoint>& imported);

}  // namespace tandem::ui
