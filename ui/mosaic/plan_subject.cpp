#include "ui/mosaic/plan_subject.h"

#include <QCoreApplication>

#include "mosaic/background.h"

namespace tandem::ui {

namespace {
QString tr(const char* s) { return QCoreApplication::translate("PlanPanel", s); }
}  // namespace

mosaic::PlanRequest planRequestOf(const mosaic::Geometry& geometry, const mosaic::Plan& plan,
                                  double tokens, const mosaic::Envelope& e) {
    mosaic::PlanRequest req;
    req.geometry = geometry;
    req.cluster = mosaic::clusterOf(e);
    req.grid = mosaic::layoutGridOf(e);
    req.layouts = {plan};
    req.tokenTarget = tokens;
    req.goodput = e.goodput;
    req.explainInfeasible = false;  // on the GUI thread: a feasible plan is shown, never searched
    if (e.background) req.coRunNote = mosaic::coRunNote(e.hardware, e.nodes, *e.background);
    return req;
}

std::vector<PlanSubject> planSubjects(const mosaic::SearchResult& r, const mosaic::Envelope& e,
                                      int selected, const std::optional<mosaic::Candidate>& shown,
                                      bool ownLayout,
                                      const std::vector<ImportedModelPoint>& imported) {
    std::vector<PlanSubject> out;
    const auto ofCandidate = [&](const QString& name, const mosaic::Candidate& c) {
        PlanSubject s{name, std::nullopt, QString()};
        if (c.eval.feasible)
            s.request = planRequestOf(c.geometry, c.plan, c.tokens, e);
        else
            s.why = QString::fromStdString(c.eval.reason);
        out.push_back(s);
    };
    if (r.optimum >= 0) ofCandidate(tr("Cluster-optimal model"), r.candidates[size_t(r.optimum)]);
    if (shown && (selected != r.optimum || !ownLayout))
        ofCandidate(selected == r.optimum
                        ? tr("Cluster-optimal model, layout chosen on the heatmap")
                        : tr("Candidate #%1").arg(selected + 1),
                    *shown);
    for (const auto& m : imported) {
        PlanSubject s{tr("Imported: %1").arg(m.label), std::nullopt, QString()};
        if (m.eval.feasible)
            s.request = planRequestOf(m.geometry, m.plan, m.tokens, e);
        else
            s.why = QString::fromStdString(m.eval.reason);
        out.push_back(s);
    }
    return out;
}

}  // namespace tandem::ui
