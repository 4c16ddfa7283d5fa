// Fuzz target: Hugging Face config.json importer (importModelConfig) and its inspect JSON.
// Invariants: never crashes; rejections are explained; accepted configs give non-negative
// counts with active <= total and a sparsity in [0, 1]; the inspect JSON serialises.
#include <cmath>

#include "common/json_reader.h"
#include "fuzz_support.h"
#include "io/hf_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace tandem;
    Diagnostics diag("config.json");
    const auto j = parseJsonText(fuzz::text(data, size), diag);
    if (!diag.ok()) return 0;
    const auto m = io::importModelConfig(j, diag);
    if (!m) {
        fuzz::requireExplained(diag);
        return 0;
    }
    const auto& c = m->counts;
    fuzz::require(c.total > 0 && c.active > 0, "accepted config with non-positive counts");
    fuzz::require(c.active <= c.total, "active parameters above total");
    fuzz::require(c.activeNonEmbedding <= c.totalNonEmbedding, "active non-embedding above total");
    fuzz::require(std::isnan(c.sparsity) || (c.sparsity >= 0 && c.sparsity <= 1),
                  "sparsity outside [0, 1]");
    (void)fuzz::dumpLikeCli(io::modelImportToJson(*m));
    return 0;
}
