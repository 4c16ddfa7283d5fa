#include "run_notes.h"

#include "mosaic/measured_collectives.h"

namespace cli {

std::vector<std::pair<std::string, std::string>> scenarioWarnings(const tandem::Scenario& s) {
    std::vector<std::pair<std::string, std::string>> out;
    if (s.mosaic) {
        const auto& files = s.mosaic->ncclTestsFiles;
        for (const auto& [i, first] : tandem::mosaic::repeatedFiles(files))
            out.emplace_back("$.mosaic.nccl_tests_files[" + std::to_string(i) + "]",
                             "\"" + files[i] + "\" is listed twice (also [" +
                                 std::to_string(first) + "]); used once");
    }
    if (!s.mlForMl) return out;
    // fabric_GBps / nic_GBps of 0 are refused by the reader (params_fields.cpp), not warned.
    const bool shared = s.mlForMl->topology.kind == tandem::fabric::FabricKind::Shared;
    // placement.seed shuffles the "random" placement only; ECMP hashing never reads it.
    namespace fb = tandem::fabric;
    const fb::Placement& pl = s.mlForMl->placement;
    if (!shared && pl.seed != fb::Placement{}.seed &&
        pl.foreground != fb::PlacementPolicy::Random &&
        pl.background != fb::PlacementPolicy::Random)
        out.emplace_back(
            "$.ml_for_ml.placement.seed",
            std::string("unused: it seeds the \"random\" placement only, and neither foreground "
                        "nor background placement is \"random\"") +
                (s.mlForMl->topology.ecmp == fb::Ecmp::Hash
                     ? " (ecmp \"hash\" spreads flows by a hash of the nodes, not by this seed)"
                     : ""));
    return out;
}

}  // namespace cli
