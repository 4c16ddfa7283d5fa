#include "run_notes.h"

#include <cmath>

#include "common/json_reader.h"
#include "common/number_format.h"

namespace cli {

std::vector<std::pair<std::string, std::string>> scenarioWarnings(const tandem::Scenario& s) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!s.mlForMl) return out;
    const char* kWhy =
        "zero bandwidth: no gradient synchronisation can finish; every policy will report not "
        "reached";
    // fabric_GBps is the shared paper-fabric's capacity; a leaf/spine fabric does not use it.
    const bool shared = s.mlForMl->topology.kind == "shared";
    if (shared && s.mlForMl->fabricBytesPerS == 0) out.emplace_back("$.ml_for_ml.fabric_GBps", kWhy);
    if (s.mlForMl->nicBytesPerS == 0) out.emplace_back("$.ml_for_ml.nic_GBps", kWhy);
    return out;
}

std::string notReachedReason(const tandem::mlforml::Params& p, const tandem::mlforml::PolicyRun& run,
                             const std::vector<std::string>& comboLabels) {
    bool missed = false;
    for (double t : run.firstCrossing_s) missed = missed || !std::isfinite(t);
    if (!missed) return std::string();
    const std::string head = "not reached within the horizon of " +
                             tandem::formatNumber(std::round(p.horizonS / 36.0) / 100) + " h: ";
    const bool noFabric = p.topology.kind == "shared" && p.fabricBytesPerS == 0;
    if (noFabric || p.nicBytesPerS == 0)
        return head + "zero bandwidth (" +
               (noFabric ? std::string("ml_for_ml.fabric_GBps") : std::string("ml_for_ml.nic_GBps")) +
               " = 0): no gradient synchronisation can finish";
    if (run.totalUpdates == 0) {
        std::string why = head + "no optimizer update finished";
        if (run.stoppedCombo < 0) return why;
        const std::string combo =
            run.stoppedCombo < static_cast<int>(comboLabels.size()) ? comboLabels[run.stoppedCombo]
                                                                   : std::string("its combination");
        if (!std::isfinite(run.nextUpdateEnd_s))
            return why + ": the gradient sync of the first update (" + combo +
                   ") never finishes, because the foreground's and the background's traffic exceed "
                   "what the network carries and the open-loop backlog grows without end (more "
                   "fabric_GBps or nic_GBps, fewer foreground_nodes or a lighter background)";
        return why + ": the first update (" + combo + ") would end after the " +
               tandem::formatNumber(std::round(p.horizonS / 36.0) / 100) + " h window (at " +
               tandem::formatNumber(std::round(run.nextUpdateEnd_s / 36.0) / 100) + " h)";
    }
    return head + "the loss stayed above the target after " + std::to_string(run.totalUpdates) +
           " updates";
}

}  // namespace cli
