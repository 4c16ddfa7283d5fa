#include "run_notes.h"

#include <cmath>

#include "common/json_reader.h"

namespace cli {

std::vector<std::pair<std::string, std::string>> scenarioWarnings(const tandem::Scenario& s) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!s.mlForMl) return out;
    const char* kWhy =
        "zero bandwidth: no gradient synchronisation can finish; every policy will report not "
        "reached";
    if (s.mlForMl->fabricBytesPerS == 0) out.emplace_back("$.ml_for_ml.fabric_GBps", kWhy);
    if (s.mlForMl->nicBytesPerS == 0) out.emplace_back("$.ml_for_ml.nic_GBps", kWhy);
    return out;
}

std::string notReachedReason(const tandem::mlforml::Params& p, const tandem::mlforml::PolicyRun& run) {
    bool missed = false;
    for (double t : run.firstCrossing_s) missed = missed || !std::isfinite(t);
    if (!missed) return std::string();
    const std::string head = "not reached within the horizon of " +
                             tandem::formatNumber(std::round(p.horizonS / 36.0) / 100) + " h: ";
    if (p.fabricBytesPerS == 0 || p.nicBytesPerS == 0)
        return head + "zero bandwidth (" +
               (p.fabricBytesPerS == 0 ? std::string("ml_for_ml.fabric_GBps") : std::string("ml_for_ml.nic_GBps")) +
               " = 0): no gradient synchronisation can finish";
    if (run.totalUpdates == 0) return head + "no optimizer update finished";
    return head + "the loss stayed above the target after " + std::to_string(run.totalUpdates) +
           " updates";
}

}  // namespace cli
