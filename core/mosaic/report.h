#pragma once
// Serialisation of a MOSAIC search: JSON for `tandem-cli run` and CSV for charts/pandas.
#include <nlohmann/json.hpp>
#include <string>

#include "mosaic/search.h"

namespace tandem::mosaic {

/// One plan as JSON: tp, ep, pp, cp, dp, mbs, ckpt, vp, etp, fsdp.
nlohmann::ordered_json planToJsonObject(const Plan& p);
/// {"mfu", "model_tflops_per_s_per_gpu", "tokens_per_s_per_gpu"}: what each output counts.
nlohmann::ordered_json conventionsJson();
/// One evaluation: feasible, reason, mfu, iteration_s, memory_GB, chi_sys, microbatches,
/// tokens_per_s_per_gpu, model_tflops_per_s_per_gpu, memory_breakdown_GB {weights, gradients,
/// optimizer, activations, other}, breakdown_s {compute, dispatch, a2a, dp, bubble, vocab, other}.
/// An infeasible plan has mfu, iteration_s, chi_sys, tokens_per_s_per_gpu and
/// model_tflops_per_s_per_gpu null (it never runs an iteration), never 0.
nlohmann::ordered_json planEvalToJson(const PlanEval& e);
/// One geometry: layers, d_model, n_head, n_kv_head, d_ff, experts, top_k, expert_split_factor,
/// d_expert, shared_experts, dense_layers, vocab, n_act, n_tot, sparsity.
nlohmann::ordered_json geometryToJson(const Geometry& g);

/// The whole result: budgets, optimum, both frontiers, candidates (best first). Non-finite
/// numbers are written as null.
nlohmann::ordered_json searchToJson(const SearchResult& r);

/// Which columns frontierCsv writes.
enum class FrontierCsvColumns {
    Loss,  ///< the CLI's mosaic_frontier.csv
    /// the same, then compute_optimal_deliverable: 0 where the cluster cannot deliver C_model
    /// with the bin's best layout (the red region of [2608.10605 Fig. 1]); the GUI's export
    WithDeliverable,
};

/// Header `sparsity,compute_optimal_loss,cluster_optimal_loss,feasible,extrapolated`, one row
/// per bin; `feasible`/`extrapolated` refer to the cluster-optimal point (1/0); empty loss
/// field when NaN (compute_optimal_loss is the law's value in every bin, blank only where the
/// law has none; cluster_optimal_loss is blank where no layout fits).
std::string frontierCsv(const SearchResult& r,
                        FrontierCsvColumns columns = FrontierCsvColumns::Loss);

/// A point drawn on the frontier beside the curves: an imported model.
struct FrontierModelPoint {
    std::string label;          ///< the model's name
    double sparsity = 0;        ///< S = 1 - N_act / N_tot (non-embedding)
    double loss = 0;            ///< nats (Eq. 10); written blank when not finite
    bool extrapolated = false;  ///< outside Eq. 10's fitted range
};

/// Header `imported_model,sparsity,loss,extrapolated`, one row per point, the label quoted.
std::string frontierModelsCsv(const std::vector<FrontierModelPoint>& points);

/// One row per candidate (best first): geometry, plan, mfu, iteration_s, memory_GB, tokens,
/// tokens_per_parameter, model_flops, loss, extrapolated.
std::string candidatesCsv(const SearchResult& r);

}  // namespace tandem::mosaic
