#include "mosaic/report.h"

#include <cmath>

#include "common/csv.h"
#include "common/json_reader.h"
#include "common/number_format.h"
#include "mosaic/scaling_law.h"

namespace tandem::mosaic {
namespace {

nlohmann::ordered_json frontierJson(const std::vector<FrontierPoint>& f) {
    auto arr = nlohmann::ordered_json::array();
    for (const auto& p : f) {
        nlohmann::ordered_json j;
        j["sparsity"] = p.sparsity;
        j["loss"] = jsonNumber(p.loss);
        j["feasible"] = p.feasible;
        j["extrapolated"] = p.extrapolated;
        j["candidate"] = p.candidate;
        arr.push_back(j);
    }
    return arr;
}

}  // namespace

nlohmann::ordered_json planToJsonObject(const Plan& p) {
    nlohmann::ordered_json j;
    j["tp"] = p.tp;
    j["ep"] = p.ep;
    j["pp"] = p.pp;
    j["cp"] = p.cp;
    j["dp"] = p.dp;
    j["mbs"] = p.mbs;
    j["ckpt"] = checkpointingName(p.ckpt);
    j["vp"] = p.vp;
    j["etp"] = p.etp;
    j["fsdp"] = p.fsdp;
    j["distopt"] = p.distributedOptimizer;
    j["sp"] = p.sequenceParallel;
    j["pp_first_layers"] = p.firstStageLayers;
    j["pp_last_layers"] = p.lastStageLayers;
    return j;
}

nlohmann::ordered_json conventionsJson() {
    nlohmann::ordered_json j;
    j["mfu"] =
        "6 N_act per token (non-embedding active parameters) over the dense BF16 peak "
        "[arXiv:2608.10605 Eq. 1]";
    j["model_tflops_per_s_per_gpu"] =
        "Megatron's model FLOPs: 6 x (active GEMM parameters + LM head) + causal attention 6 T "
        "n_head d_head per layer";
    j["tokens_per_s_per_gpu"] = "B_global T_seq / (t_iter N_dev)";
    return j;
}

nlohmann::ordered_json planEvalToJson(const PlanEval& e) {
    nlohmann::ordered_json j;
    j["feasible"] = e.feasible;
    j["reason"] = e.reason;
    // An infeasible plan has no iteration: its time, rates and MFU are null, never 0.
    const auto ran = [&](double v) {
        return e.feasible ? jsonNumber(v) : nlohmann::ordered_json(nullptr);
    };
    j["mfu"] = ran(e.mfu);
    j["iteration_s"] = ran(e.iteration_s);
    j["memory_GB"] = jsonNumber(e.memoryGB);
    j["chi_sys"] = ran(e.chi);
    j["microbatches"] = e.microbatches;
    j["tokens_per_s_per_gpu"] = ran(e.tokensPerSPerGpu);
    j["model_tflops_per_s_per_gpu"] = ran(e.modelTflopsPerSPerGpu);
    nlohmann::ordered_json m;
    m["weights"] = e.memory.weights;
    m["gradients"] = e.memory.gradients;
    m["optimizer"] = e.memory.optimizer;
    m["activations"] = e.memory.activations;
    m["other"] = e.memory.other;
    j["memory_breakdown_GB"] = m;
    nlohmann::ordered_json b;
    b["compute"] = e.breakdown.compute_s;
    b["dispatch"] = e.breakdown.dispatch_s;
    b["a2a"] = e.breakdown.a2a_s;
    b["dp"] = e.breakdown.dpBeyondCompute_s;
    b["bubble"] = e.breakdown.bubble_s;
    b["vocab"] = e.breakdown.vocab_s;
    b["other"] = e.breakdown.other_s;
    j["breakdown_s"] = b;
    return j;
}

nlohmann::ordered_json geometryToJson(const Geometry& g) {
    nlohmann::ordered_json j;
    j["layers"] = g.layers;
    j["d_model"] = g.dModel;
    j["n_head"] = g.nHead;
    j["n_kv_head"] = g.nKvHead;
    j["d_ff"] = g.dFf;
    j["experts"] = g.experts;
    j["top_k"] = g.topK;
    j["expert_split_factor"] = g.splitG;
    j["d_expert"] = g.dExpert;
    j["shared_experts"] = g.sharedExperts;
    j["dense_layers"] = g.denseLayers;
    j["vocab"] = g.vocab;
    j["n_act"] = g.nAct;
    j["n_tot"] = g.nTot;
    j["sparsity"] = g.sparsity;
    return j;
}

nlohmann::ordered_json searchToJson(const SearchResult& r) {
    nlohmann::ordered_json j;
    j["paper"] = "2608.10605";
    j["peak_budget_flops"] = r.peakBudgetFlops;
    j["model_budget_flops"] = r.modelBudgetFlops;
    j["device_memory_GB"] = r.deviceMemoryGB;
    j["geometries_searched"] = r.geometriesSearched;
    j["geometries_memory_feasible"] = r.geometriesMemoryFeasible;
    j["layout_grid"] = layoutGridRuleName(r.layoutGrid);
    if (!r.layoutGridNote.empty()) j["layout_grid_note"] = r.layoutGridNote;
    j["global_batch_sequences_requested"] = r.globalBatchRequested;
    if (r.candidates.empty()) {
        auto rej = nlohmann::ordered_json::array();
        for (const auto& [reason, n] : r.rejections)
            rej.push_back({{"reason", reason}, {"geometries", n}});
        j["rejections"] = rej;
        j["nearest_working_nodes"] = r.nearestWorkingNodes > 0
                                         ? nlohmann::ordered_json(r.nearestWorkingNodes)
                                         : nlohmann::ordered_json(nullptr);
    }
    j["compute_optimal_sparsity"] = jsonNumber(r.computeOptimalSparsity);
    j["cluster_optimal_sparsity"] = jsonNumber(r.clusterOptimalSparsity);
    j["naive_on_cluster_loss"] = jsonNumber(r.naiveOnClusterLoss);
    j["optimum"] = r.optimum;
    j["compute_optimal"] = frontierJson(r.computeOptimal);
    j["cluster_optimal"] = frontierJson(r.clusterOptimal);
    auto cands = nlohmann::ordered_json::array();
    for (const auto& c : r.candidates) {
        nlohmann::ordered_json cj;
        cj["geometry"] = geometryToJson(c.geometry);
        cj["plan"] = planToJsonObject(c.plan);
        cj["eval"] = planEvalToJson(c.eval);
        cj["global_batch_sequences"] = c.globalBatch;
        cj["tokens"] = c.tokens;
        cj["tokens_per_parameter"] = tokensPerParameter(c.tokens, c.geometry.nAct);
        cj["model_flops"] = modelFlops(c.geometry.nAct, c.tokens);
        cj["loss"] = jsonNumber(c.loss);
        cj["extrapolated"] = c.extrapolated;
        cands.push_back(cj);
    }
    j["candidates"] = cands;
    return j;
}

std::string frontierCsv(const SearchResult& r, FrontierCsvColumns columns) {
    const bool deliverable = columns == FrontierCsvColumns::WithDeliverable;
    std::string s = "sparsity,compute_optimal_loss,cluster_optimal_loss,feasible,extrapolated";
    s += deliverable ? ",compute_optimal_deliverable\n" : "\n";
    for (size_t i = 0; i < r.clusterOptimal.size(); ++i) {
        const auto& c = r.clusterOptimal[i];
        const bool hasCompute = i < r.computeOptimal.size();
        const double co = hasCompute ? r.computeOptimal[i].loss : NAN;
        s += csvNumber(c.sparsity) + "," + csvNumber(co) + "," + csvNumber(c.loss) + "," +
             (c.feasible ? "1" : "0") + "," + (c.extrapolated ? "1" : "0");
        if (deliverable) s += hasCompute && r.computeOptimal[i].feasible ? ",1" : ",0";
        s += "\n";
    }
    return s;
}

std::string frontierModelsCsv(const std::vector<FrontierModelPoint>& points) {
    std::string s = "imported_model,sparsity,loss,extrapolated\n";
    for (const auto& p : points)
        s += csvQuote(p.label) + "," + csvNumber(p.sparsity) + "," + csvNumber(p.loss) + "," +
             (p.extrapolated ? "1" : "0") + "\n";
    return s;
}

std::string candidatesCsv(const SearchResult& r) {
    std::string s =
        "rank,layers,d_model,experts,top_k,expert_split_factor,d_expert,n_act,n_tot,sparsity,"
        "tp,ep,pp,cp,dp,mbs,ckpt,mfu,iteration_s,memory_GB,tokens,tokens_per_parameter,"
        "model_flops,loss,extrapolated\n";
    int rank = 1;
    for (const auto& c : r.candidates) {
        const Geometry& g = c.geometry;
        const Plan& p = c.plan;
        s += std::to_string(rank++) + "," + std::to_string(g.layers) + "," +
             std::to_string(g.dModel) + "," + std::to_string(g.experts) + "," +
             std::to_string(g.topK) + "," + std::to_string(g.splitG) + "," +
             std::to_string(g.dExpert) + "," + csvNumber(g.nAct) + "," + csvNumber(g.nTot) + "," +
             csvNumber(g.sparsity) + "," + std::to_string(p.tp) + "," + std::to_string(p.ep) + "," +
             std::to_string(p.pp) + "," + std::to_string(p.cp) + "," + std::to_string(p.dp) + "," +
             std::to_string(p.mbs) + "," + checkpointingName(p.ckpt) + "," + csvNumber(c.eval.mfu) +
             "," + csvNumber(c.eval.iteration_s) + "," + csvNumber(c.eval.memoryGB) + "," +
             csvNumber(c.tokens) + "," + csvNumber(tokensPerParameter(c.tokens, g.nAct)) + "," +
             csvNumber(modelFlops(g.nAct, c.tokens)) + "," + csvNumber(c.loss) + "," +
             (c.extrapolated ? "1" : "0") + "\n";
    }
    return s;
}

}  // namespace tandem::mosaic
