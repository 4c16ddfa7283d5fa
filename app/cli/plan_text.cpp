#include "plan_text.h"

#include "io/text_file.h"
#include "mosaic/layout_form.h"
#include "mosaic/layout_grid.h"
#include "mosaic/measured_collectives.h"
#include "mosaic/plan.h"
#include "mosaic/search.h"
#include "mosaic/stack_file.h"
#include "output.h"

namespace cli {
namespace {

namespace m = tandem::mosaic;

std::string pct(double v) { return percent(v) + " %"; }

/// The model line, the network note, the Hugging Face mapping and the measured curves.
void printHeader(const m::PlanReport& r) {
    const m::Geometry& g = r.request.geometry;
    const m::Cluster& c = r.request.cluster;
    print("Model: N_tot %s B, N_act %s B, S %s on %d x %s, global batch %d x %d tokens\n",
          fixed(g.nTot / 1e9, 2).c_str(), fixed(g.nAct / 1e9, 2).c_str(),
          fixed(g.sparsity, 3).c_str(), c.devices, c.hardware.name.c_str(), c.globalBatch,
          c.seqLen);
    if (!r.networkNote.empty()) print("Note: %s\n", r.networkNote.c_str());
    print("%s\n", r.overlapNote.c_str());
    if (!r.pipelineNote.empty()) print("Note (first layout): %s\n", r.pipelineNote.c_str());
    if (c.stack.calibration.runs > 0)
        print("Stack: %s, %s\n", c.stack.name.c_str(),
              m::calibrationSentence(c.stack.calibration).c_str());
    if (!r.stackNote.empty()) print("Note: %s\n", r.stackNote.c_str());
    if (const auto& hf = r.request.hf) {
        print(
            "From a Hugging Face config: model_type %s; with embeddings N_tot %s B, N_act %s "
            "B; "
            "costed as %s\n",
            hf->geometry.modelType.c_str(), fixed(double(hf->counts.total) / 1e9, 2).c_str(),
            fixed(double(hf->counts.active) / 1e9, 2).c_str(), m::geometryLabel(g).c_str());
        std::vector<std::string> all = hf->assumptions;
        const auto& mapped = r.request.mapped.assumptions;
        all.insert(all.end(), mapped.begin(), mapped.end());
        if (!all.empty()) print("Assumed:\n");
        for (const auto& a : all) print("  - %s\n", a.c_str());
    }
    if (c.hardware.measured) {
        print("Measured collectives (nccl-tests):\n");
        for (const auto& curve : c.hardware.measured->curves())
            print("  %s: %s to %s, peak busbw %s GB/s\n", curve.label.c_str(),
                  tandem::io::formatBytes(curve.curve.points.front().bytes).c_str(),
                  tandem::io::formatBytes(curve.curve.points.back().bytes).c_str(),
                  fixed(curve.curve.peakBusbw_Bps / 1e9, 1).c_str());
        for (const auto& n : r.request.ncclNotes) print("  note: %s\n", n.c_str());
    }
}

/// Given layout `i`: the recomputation chosen for it without a ckpt key, and where it does not
/// fit in memory the recomputation, distributed-optimizer or FSDP setting that fits; one line
/// each, with its newline.
std::string recomputationText(const m::PlanReport& r, size_t i) {
    const size_t n = r.layouts.size();
    const m::PlanLayout& l = r.layouts[i];
    const std::string which = n > 1 ? "Layout " + std::to_string(i + 1) + ": " : "";
    std::string s;
    if (l.ckptChosen) {
        if (l.eval.feasible)
            s += which + "ckpt not given: costed with " + m::checkpointingName(l.plan.ckpt) +
                 ", the least recomputation that fits (none, selective, super-selective, full)\n";
        else if (l.eval.rule == m::kDoesNotFitInMemory)
            s += which + "ckpt not given: no recomputation fits; costed with full\n";
    }
    if (!l.remedyChecked) return s;
    if (l.fitsWith)
        s += which + "Fits with " + m::remedyChange(l.plan, *l.fitsWith) + " (" +
             fixed(l.fitsWithMemoryGB, 1) + " GB): --layout " + m::layoutString(*l.fitsWith) + "\n";
    else
        s += which +
             "No recomputation, distributed-optimizer or FSDP setting makes this layout fit" +
             (r.request.cluster.stack.fsdp ? "" : " (this stack has no FSDP)") + "\n";
    return s;
}

/// Given layouts: recomputationText of each.
void printRecomputation(const m::PlanReport& r) {
    for (size_t i = 0; i < r.layouts.size(); ++i) print("%s", recomputationText(r, i).c_str());
}

/// Why the grid has no feasible layout: which rules cut the candidates, with the smallest
/// memory need seen, and the nearest cluster that works; lines with their newlines.
std::string noLayoutText(const m::PlanReport& r) {
    const m::Cluster& c = r.request.cluster;
    std::string s = m::noFeasibleLayoutText() + ".\n";
    if (!r.rejections) return s;  // not explained (PlanRequest::explainInfeasible off)
    const m::PlanRejections& rej = *r.rejections;
    s += m::rejectionSummary(rej) + "  (" + m::layoutGridRuleName(rej.layoutGrid) +
         " layout grid)\n";
    if (r.nearestDevices > 0)
        s += "Nearest cluster that works: " + std::to_string(r.nearestDevices) + " GPUs (" +
             std::to_string(r.nearestDevices / c.hardware.gpusPerNode) + " nodes of " +
             std::to_string(c.hardware.gpusPerNode) + ").\n";
    else
        s += "No cluster within " + std::to_string(m::kNearestNodesSpan) +
             " nodes of this one has a feasible layout.\n";
    return s;
}

/// The layouts table and the rounded-batch note, or why nothing fits.
void printLayouts(const m::PlanReport& r) {
    const m::Cluster& c = r.request.cluster;
    std::vector<std::vector<std::string>> rows;
    for (const auto& l : r.layouts) {
        const bool feasible = l.eval.feasible;
        const bool extrapolated = l.collectives && l.collectives->extrapolated > 0;
        rows.push_back(
            {std::to_string(l.plan.tp), std::to_string(l.plan.ep), std::to_string(l.plan.pp),
             std::to_string(l.plan.cp), std::to_string(l.plan.dp), std::to_string(l.plan.mbs),
             feasible ? std::to_string(l.globalBatch) : "-", m::checkpointingName(l.plan.ckpt),
             feasible ? pct(l.eval.mfu) : "-", feasible ? fixed(l.eval.iteration_s, 3) : "-",
             feasible ? fixed(l.eval.memoryGB, 1) : "-",
             feasible ? (extrapolated ? "extrapolated beyond measured sizes" : "")
                      : l.eval.reason});
    }
    if (rows.empty()) {
        print("%s", noLayoutText(r).c_str());
        return;
    }
    printTable(
        {"TP", "EP", "PP", "CP", "DP", "mbs", "GBS", "ckpt", "MFU", "iter_s", "mem_GB", "note"},
        rows);
    printRecomputation(r);
    const m::PlanLayout& first = r.layouts.front();
    if (r.request.tokenTarget > 0 && first.eval.feasible)
        print("Days to train %s tokens with the first layout: %s (goodput %s)\n",
              significant(r.request.tokenTarget, 4).c_str(), fixed(first.daysToTarget, 1).c_str(),
              significant(r.request.goodput, 3).c_str());
    if (r.roundedBatch)
        print(
            "GBS: global batch each layout runs, the multiple of DP x mbs nearest "
            "to the %d sequences asked for (no layout of the grid divides them).\n",
            c.globalBatch);
}

/// Under measured curves: the first layout's collectives and where each time came from.
void printCollectives(const m::PlanReport& r) {
    if (r.layouts.empty() || !r.layouts.front().eval.feasible || !r.layouts.front().collectives)
        return;
    const auto& curves = r.request.cluster.hardware.measured->curves();
    print("Collectives of the first layout:\n");
    for (const auto& u : r.layouts.front().collectives->uses) {
        const bool meas = u.curve >= 0;
        // A measured use also prints the analytical time for comparison; an analytical one
        // prints its time once.
        const std::string compare =
            meas ? ", analytical " + fixed(1e3 * u.analytical_s, 3) + " ms" : std::string();
        const std::string source = meas ? "measured (" + curves[size_t(u.curve)].label +
                                              (u.standIn ? ", all_reduce standing in" : "") +
                                              (u.rescaled ? ", rescaled to this group" : "") + ")"
                                        : "analytical (no curve for this collective and scope)";
        print("  %s of %s over %d ranks (%d node%s): %s ms %s%s%s\n",
              m::collectiveName(u.collective), tandem::io::formatBytes(u.bytes).c_str(), u.ranks,
              u.nodes, u.nodes == 1 ? "" : "s", fixed(1e3 * u.time_s, 3).c_str(), source.c_str(),
              compare.c_str(), u.extrapolated ? "; extrapolated beyond measured sizes" : "");
    }
}

}  // namespace

std::string whyNothingToEmit(const m::PlanReport& r) {
    if (r.layouts.empty()) return noLayoutText(r);
    const m::PlanLayout& l = r.layouts.front();
    if (l.eval.feasible) return {};
    return "Layout " + m::layoutString(l.plan) + " is not feasible: " + l.eval.reason + "\n" +
           recomputationText(r, 0);
}

void printPlanReport(const m::PlanReport& r) {
    printHeader(r);
    printLayouts(r);
    printCollectives(r);
}

}  // namespace cli
