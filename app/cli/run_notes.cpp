#include "run_notes.h"

namespace cli {

std::vector<std::pair<std::string, std::string>> scenarioWarnings(const tandem::Scenario& s) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!s.mlForMl) return out;
    const char* kWhy =
        "zero bandwidth: no gradient synchronisation can finish; every policy will report not "
        "reached";
    // fabric_GBps is the shared paper-fabric's capacity; a leaf/spine fabric does not use it.
    const bool shared = s.mlForMl->topology.kind == tandem::fabric::FabricKind::Shared;
    if (shared && s.mlForMl->fabricBytesPerS == 0)
        out.emplace_back("$.ml_for_ml.fabric_GBps", kWhy);
    if (s.mlForMl->nicBytesPerS == 0) out.emplace_back("$.ml_for_ml.nic_GBps", kWhy);
    return out;
}

}  // namespace cli
