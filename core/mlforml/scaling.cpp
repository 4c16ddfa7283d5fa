#include "mlforml/scaling.h"

#include <cmath>
#include <stdexcept>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "mlforml/simulate.h"

namespace tandem::mlforml {

std::vector<ScalingCurve> fabricScaling(
    const Params& base, const std::vector<int>& nodes, const std::vector<double>& ratios,
    const tandem::CancelFlag* cancel, const std::function<void(std::size_t, std::size_t)>& progress,
    std::vector<ScalingLinks>* links) {
    if (base.topology.kind != fabric::FabricKind::LeafSpine)
        throw std::invalid_argument(
            "ml_for_ml.topology: the scaling curves need a leaf_spine fabric (preset "
            "\"leaf-spine\", \"leaf-spine-2to1\" or \"leaf-spine-4to1\"), not \"" +
            base.topology.preset + "\"");
    std::vector<ScalingCurve> curves;
    for (size_t ri = 0; ri < ratios.size(); ++ri) {
        for (size_t ni = 0; ni < nodes.size(); ++ni) {
            if (progress) progress(ri * nodes.size() + ni, ratios.size() * nodes.size());
            Params p = base;
            p.topology.oversubscription = ratios[ri];
            p.foregroundNodes = nodes[ni];
            try {
                buildFabric(p);
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument(std::string(e.what()) + " (at " +
                                            std::to_string(nodes[ni]) + " foreground nodes)");
            }
            Result res = simulate(p, cancel, links != nullptr);
            if (links) links->push_back({ratios[ri], nodes[ni], std::move(res.links)});
            // The first node count opens this ratio's curves; later ones append to them.
            size_t perPoint = 0;
            for (const auto& pt : res.points)
                perPoint += pt.policies.size() * res.targetFactors.size();
            if (ni == 0)
                for (const auto& pt : res.points)
                    for (const auto& run : pt.policies)
                        for (double f : res.targetFactors) {
                            ScalingCurve sc;
                            sc.oversubscription = ratios[ri];
                            sc.backgroundJobs = pt.backgroundJobs;
                            sc.policy = run.policy;
                            sc.targetFactor = f;
                            curves.push_back(sc);
                        }
            size_t i = curves.size() - perPoint;
            for (const auto& pt : res.points)
                for (const auto& run : pt.policies)
                    for (size_t k = 0; k < res.targetFactors.size(); ++k, ++i) {
                        curves[i].foregroundNodes.push_back(nodes[ni]);
                        curves[i].timeToTarget_s.push_back(run.firstCrossing_s[k]);
                    }
        }
    }
    return curves;
}

std::string scalingToCsv(const std::vector<ScalingCurve>& curves) {
    std::string out =
        "oversubscription,background_jobs,policy,target_factor,foreground_nodes,time_to_target_s\n";
    for (const auto& c : curves)
        for (size_t i = 0; i < c.foregroundNodes.size(); ++i) {
            out +=
                csvNumber(c.oversubscription) + "," + std::to_string(c.backgroundJobs) + "," +
                c.policy + "," + csvNumber(c.targetFactor) + "," +
                std::to_string(c.foregroundNodes[i]) + "," +
                (std::isnan(c.timeToTarget_s[i]) ? std::string() : csvNumber(c.timeToTarget_s[i])) +
                "\n";
        }
    return out;
}

nlohmann::ordered_json scalingToJson(const std::vector<ScalingCurve>& curves) {
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    for (const auto& c : curves) {
        nlohmann::ordered_json j;
        j["oversubscription"] = jsonNumber(c.oversubscription);
        j["background_jobs"] = c.backgroundJobs;
        j["policy"] = c.policy;
        j["target_factor"] = jsonNumber(c.targetFactor);
        j["foreground_nodes"] = c.foregroundNodes;
        nlohmann::ordered_json t = nlohmann::ordered_json::array();
        for (double v : c.timeToTarget_s)
            t.push_back(std::isnan(v) ? nlohmann::ordered_json() : jsonNumber(v));
        j["time_to_target_s"] = t;
        arr.push_back(j);
    }
    nlohmann::ordered_json out;
    out["curves"] = arr;
    return out;
}

}  // namespace tandem::mlforml
