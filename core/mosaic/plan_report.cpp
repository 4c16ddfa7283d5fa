#include "mosaic/plan_report.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "mosaic/hardware.h"
#include "mosaic/layout_form.h"
#include "mosaic/layout_grid.h"
#include "mosaic/measured_collectives.h"
#include "mosaic/megatron_args.h"
#include "mosaic/stack_file.h"

namespace tandem::mosaic {

const EnumTable<TimeSource>& timeSourceNames() {
    static const EnumTable<TimeSource> t = {{TimeSource::Analytical, "analytical"},
                                            {TimeSource::Measured, "measured"}};
    return t;
}

double daysToTokens(double tokens, double tokensPerSPerGpu, int devices, double goodput) {
    const double rate = tokensPerSPerGpu * devices * goodput;  // tokens per wall-clock second
    if (!(tokens > 0) || !(rate > 0)) return std::numeric_limits<double>::quiet_NaN();
    return tokens / rate / 86400.0;
}

namespace {

/// The collectives of one layout, from a re-evaluation under a CollectiveRecorder.
PlanCollectives collectivesOf(const Geometry& g, const Cluster& c, const Plan& p) {
    CollectiveRecorder rec;
    (void)evaluateLayout(g, c, p);
    PlanCollectives out;
    out.calls = rec.calls();
    out.measured = rec.measuredCalls();
    out.extrapolated = rec.extrapolatedCalls();
    out.uses = rec.uses();
    return out;
}

nlohmann::ordered_json collectivesToJson(const PlanCollectives& pc, const Cluster& c) {
    nlohmann::ordered_json j;
    j["calls"] = pc.calls;
    j["measured"] = pc.measured;
    j["extrapolated"] = pc.extrapolated;
    auto uses = nlohmann::ordered_json::array();
    for (const auto& u : pc.uses) {
        nlohmann::ordered_json o;
        o["collective"] = collectiveName(u.collective);
        o["bytes"] = u.bytes;
        o["ranks"] = u.ranks;
        o["stride"] = u.stride;
        o["nodes"] = u.nodes;
        o["source"] = enumName(timeSourceNames(),
                               u.curve >= 0 ? TimeSource::Measured : TimeSource::Analytical);
        o["curve"] =
            u.curve >= 0 ? c.hardware.measured->curves()[size_t(u.curve)].label : std::string();
        o["stand_in"] = u.standIn;
        o["rescaled"] = u.rescaled;
        o["extrapolated"] = u.extrapolated;
        o["time_s"] = u.time_s;
        o["analytical_s"] = u.analytical_s;
        uses.push_back(o);
    }
    j["uses"] = uses;
    return j;
}

}  // namespace

PlanReport runPlan(const PlanRequest& r) {
    PlanReport out;
    out.request = r;
    const Geometry& g = r.geometry;
    const Cluster& c = r.cluster;
    std::vector<std::pair<Plan, PlanEval>> costed;
    if (r.layouts.empty()) {
        costed = planLayouts(g, c, r.grid, r.top);
    } else {
        for (Plan p : r.layouts) {
            if (r.leastRecomputation) chooseLayoutRecomputation(g, c, p);
            costed.emplace_back(p, evaluateLayout(g, c, p));
        }
    }
    for (auto& [p, ev] : costed) {
        PlanLayout l;
        l.plan = p;
        l.eval = std::move(ev);
        l.globalBatch = planGlobalBatch(l.plan, l.eval);
        l.stages = layoutStageMemory(g, c, l.plan);
        if (c.hardware.measured) l.collectives = collectivesOf(g, c, l.plan);
        l.daysToTarget = l.eval.feasible ? daysToTokens(r.tokenTarget, l.eval.tokensPerSPerGpu,
                                                        c.devices, r.goodput)
                                         : std::numeric_limits<double>::quiet_NaN();
        if (!r.layouts.empty()) {
            l.ckptChosen = r.leastRecomputation;
            if (!l.eval.feasible && l.eval.rule == kDoesNotFitInMemory) {
                l.remedyChecked = true;
                l.fitsWith = memoryRemedy(g, c, l.plan);
                if (l.fitsWith) l.fitsWithMemoryGB = evaluateLayout(g, c, *l.fitsWith).memoryGB;
            }
        }
        out.anyFeasible = out.anyFeasible || l.eval.feasible;
        out.roundedBatch = out.roundedBatch || (l.eval.feasible && l.globalBatch != c.globalBatch);
        out.layouts.push_back(std::move(l));
    }
    if (!out.anyFeasible && r.explainInfeasible) {
        out.nearestDevices = nearestWorkingDevices(g, c, r.grid);
        if (out.layouts.empty()) out.rejections = countRejections(g, c, r.grid);
    }
    out.nodes = (c.devices + c.hardware.gpusPerNode - 1) / c.hardware.gpusPerNode;
    out.networkNote = networkExtrapolation(c.hardware, out.nodes);
    out.stackNote = calibrationHardwareNote(c.stack, c.hardware.name);
    out.overlapNote = overlapNote(c.stack, g);
    if (!out.layouts.empty()) out.pipelineNote = pipelineSplitNote(g, out.layouts.front().plan);
    return out;
}

std::string overlapNote(const Stack& stack, const Geometry& g) {
    const auto hidden = [](double f) {
        return f > 0 ? formatFixed(100 * f, 0) + " % hidden" : std::string("not hidden");
    };
    std::string s = "Overlap as stack " + stack.name + " costs it: TP collectives " +
                    hidden(stack.tpOverlap) + " behind the GEMMs; ";
    if (g.experts > 0 && g.sharedExperts > 0 && !(stack.a2aOverlap > 0))
        s += "expert all-to-all hidden only behind the shared expert's compute; ";
    else if (g.experts > 0)
        s += "expert all-to-all " + hidden(stack.a2aOverlap) +
             (g.sharedExperts > 0 ? ", or as much as the shared expert's compute where that is "
                                    "more; "
                                  : "; ");
    if (g.experts > 0 && stack.hierarchicalDispatch)
        s += "each token sent once per remote node (flex dispatcher); ";
    if (g.experts > 0 && stack.fusedGroupedMlp)
        s += "the experts' MLP one fused kernel per layer at MXFP8 / NVFP4 (no per-expert "
             "launch); ";
    return s +
           "data-parallel reduce-scatter and all-gather hidden behind one micro-batch's "
           "compute";
}

nlohmann::ordered_json planReportToJson(const PlanReport& r) {
    const Cluster& c = r.request.cluster;
    std::vector<std::pair<Plan, PlanEval>> layouts;
    for (const auto& l : r.layouts) layouts.emplace_back(l.plan, l.eval);
    auto j = planToJson(r.request.geometry, c, layouts);
    if (!r.anyFeasible)
        j["nearest_working_devices"] = r.nearestDevices > 0
                                           ? nlohmann::ordered_json(r.nearestDevices)
                                           : nlohmann::ordered_json(nullptr);
    // Keys added only for a config.json or measured curves: Tandem-model, analytical runs keep
    // their bytes.
    if (r.request.hf) j["model_source"] = importedGeometryToJson(*r.request.hf, r.request.mapped);
    if (c.hardware.measured) {
        auto mj = c.hardware.measured->toJson(c.hardware.gpusPerNode);
        mj["notes"] = r.request.ncclNotes;
        j["measured_collectives"] = mj;
        auto& arr = j["layouts"];
        for (size_t i = 0; i < r.layouts.size() && i < arr.size(); ++i)
            if (r.layouts[i].collectives)
                arr[i]["collectives"] = collectivesToJson(*r.layouts[i].collectives, c);
    }
    // Keys added only where a recomputation was chosen or a given layout does not fit in
    // memory: other outputs keep their bytes.
    {
        auto& arr = j["layouts"];
        for (size_t i = 0; i < r.layouts.size() && i < arr.size(); ++i) {
            const PlanLayout& l = r.layouts[i];
            if (l.ckptChosen) arr[i]["ckpt_chosen"] = true;
            if (!l.remedyChecked) continue;
            if (!l.fitsWith) {
                arr[i]["fits_with"] = nullptr;
                continue;
            }
            nlohmann::ordered_json f;
            f["change"] = remedyChange(l.plan, *l.fitsWith);
            f["layout"] = layoutString(*l.fitsWith);
            f["memory_GB"] = l.fitsWithMemoryGB;
            arr[i]["fits_with"] = f;
        }
    }
    if (!r.networkNote.empty()) j["network_note"] = r.networkNote;
    if (!r.stackNote.empty()) j["stack_note"] = r.stackNote;
    j["overlap_note"] = r.overlapNote;
    if (!r.pipelineNote.empty()) j["pipeline_note"] = r.pipelineNote;
    // A token target adds its keys (without one the output keeps its bytes).
    if (r.request.tokenTarget > 0) {
        nlohmann::ordered_json t;
        t["tokens"] = r.request.tokenTarget;
        t["goodput"] = r.request.goodput;
        j["token_target"] = t;
        auto& arr = j["layouts"];
        for (size_t i = 0; i < r.layouts.size() && i < arr.size(); ++i)
            arr[i]["days_to_target"] = jsonNumber(r.layouts[i].daysToTarget);
    }
    return j;
}

std::string planReportMegatron(const PlanReport& r, std::vector<std::string>* notes) {
    if (r.layouts.empty() || !r.layouts.front().eval.feasible) return {};
    const Geometry& g = r.request.geometry;
    const Cluster& c = r.request.cluster;
    const PlanLayout& l = r.layouts.front();
    // The pipeline note and megatronArguments' notes, for the header and the caller.
    std::vector<std::string> own;
    if (!r.pipelineNote.empty()) own.push_back(r.pipelineNote);
    const std::string flags = megatronArguments(g, c, l.plan, &own);
    if (notes) notes->insert(notes->end(), own.begin(), own.end());
    const int gpn = std::max(1, c.hardware.gpusPerNode);
    const int nodes = (c.devices + gpn - 1) / gpn;
    const auto n = [](long long v) { return std::to_string(v); };
    // The header: what the plan was made for and what it predicts, then its notes.
    std::string s = "#!/usr/bin/env bash\n";
    s += "# Megatron-LM launch of a plan by Tandem (tandem-cli plan --emit megatron).\n";
    s += "# Model: " + geometryLabel(g) + " (N_act " + formatFixed(g.nAct / 1e9, 2) + " B, N_tot " +
         formatFixed(g.nTot / 1e9, 2) + " B, S " + formatFixed(g.sparsity, 3) + ", vocabulary " +
         n(g.vocab) + ")\n";
    s += "# Hardware: " + n(c.devices) + " x " + c.hardware.name + " (" + n(nodes) + " node" +
         (nodes == 1 ? "" : "s") + " of " + n(gpn) + " GPUs); training stack " + c.stack.name +
         "; precision " + precisionName(c.precision) + "\n";
    s += "# Layout: " + layoutString(l.plan) + "; global batch " + n(l.globalBatch) + " x " +
         n(c.seqLen) + " tokens\n";
    s += "# Predicted: " + formatFixed(l.eval.tokensPerSPerGpu, 0) + " tokens/s per GPU, " +
         formatFixed(l.eval.iteration_s, 3) + " s per iteration, MFU " +
         formatFixed(100 * l.eval.mfu, 1) + " %, " + formatFixed(l.eval.memoryGB, 1) +
         " GB per GPU\n";
    s += "# " + r.overlapNote + "\n";
    std::vector<std::string> all = own;
    if (!r.networkNote.empty()) all.push_back(r.networkNote);
    if (!r.stackNote.empty()) all.push_back(r.stackNote);
    if (l.globalBatch != c.globalBatch)
        all.push_back("the global batch is " + n(l.globalBatch) +
                      " sequences, the multiple of DP x micro-batch nearest to the " +
                      n(c.globalBatch) + " asked for");
    for (const std::string& note : all) s += "# Note: " + note + "\n";
    // How to run it: torchrun reads its own options from PET_* variables (torch.distributed's
    // argparse `env` action), so the launch command carries Megatron-LM's flags alone and
    // `plan --megatron-args` reads this file back to the same plan.
    s += "#\n";
    s += "# Run it on each node from a Megatron-LM checkout. torchrun takes its options from "
         "PET_*\n";
    s += "# variables: set PET_NODE_RANK, PET_MASTER_ADDR and PET_MASTER_PORT on each node (or a\n";
    s += "# rendezvous with PET_RDZV_*). Arguments given to this script (data, tokenizer, "
         "optimizer,\n";
    s += "# checkpoints) are passed on after the plan's.\n";
    s += "set -euo pipefail\n";
    s += "export PET_NPROC_PER_NODE=${PET_NPROC_PER_NODE:-" + n(gpn) + "}\n";
    s += "export PET_NNODES=${PET_NNODES:-" + n(nodes) + "}\n";
    s += "torchrun pretrain_gpt.py";
    // One flag (with its values) per line: no value of megatronArguments starts with "--".
    size_t at = 0;
    while (at < flags.size()) {
        size_t next = flags.find(" --", at);
        if (next == std::string::npos) next = flags.size();
        s += " \\\n    " + flags.substr(at, next - at);
        at = next == flags.size() ? next : next + 1;
    }
    s += " \\\n    \"$@\"\n";
    return s;
}

}  // namespace tandem::mosaic
