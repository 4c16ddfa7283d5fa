#pragma once
// Cluster-size behaviour on a leaf/spine fabric [docs/MODEL-NETWORK.md section 5]: time to each
// target per policy against the foreground's node count, one curve per oversubscription ratio.
#include <cstddef>
#include <exception>  // before common/cancel.h, which uses std::exception
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/cancel.h"
#include "mlforml/params.h"
#include "mlforml/report.h"

namespace tandem::mlforml {

/// One curve: a ratio, a background level, a policy and a target; times per node count.
struct ScalingCurve {
    double oversubscription = 1;
    int backgroundJobs = 0;
    std::string policy;
    double targetFactor = 0;  ///< x L_min
    std::vector<int> foregroundNodes;
    std::vector<double> timeToTarget_s;  ///< NaN = not reached within horizon_s
};

/// Runs `base` (a leaf_spine topology; throws std::invalid_argument naming
/// ml_for_ml.topology otherwise) at every foreground node count and oversubscription ratio,
/// the per-GPU micro-batch held fixed, and collects every policy's first-crossing times.
/// Curves are ordered ratio, background level, policy, target. Each point is validated as a
/// scenario would be (placement and fabric size errors are thrown as std::invalid_argument
/// naming the key and the point). Throws tandem::Cancelled when `cancel` is set. `progress`,
/// when set, is called before each point with (point index from 0, number of points). `links`,
/// when set, receives each point's link use (simulate's recordLinks), in point order.
std::vector<ScalingCurve> fabricScaling(
    const Params& base, const std::vector<int>& nodes, const std::vector<double>& ratios,
    const tandem::CancelFlag* cancel = nullptr,
    const std::function<void(std::size_t, std::size_t)>& progress = {},
    std::vector<ScalingLinks>* links = nullptr);

/// CSV with header oversubscription,background_jobs,policy,target_factor,foreground_nodes,
/// time_to_target_s (one row per point of every curve; an unreached target is empty).
std::string scalingToCsv(const std::vector<ScalingCurve>& curves);
/// {"curves": [{oversubscription, background_jobs, policy, target_factor, foreground_nodes: [],
/// time_to_target_s: [] (null = not reached)}]}.
nlohmann::ordered_json scalingToJson(const std::vector<ScalingCurve>& curves);

}  // namespace tandem::mlforml
