// Fuzz target: Hugging Face config.json importer (importModelConfig) and its inspect JSON.
// Invariants: never crashes; rejections are explained; accepted configs give non-negative
// counts with active <= total and a sparsity in [0, 1], obey the model-file shape rules and map
// to a costable mosaic::Geometry; the inspect and plan JSON serialise.
#include <cmath>

#include "common/json_reader.h"
#include "fuzz_support.h"
#include "io/hf_config.h"
#include "mosaic/imported_geometry.h"

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
    // The shape rules every model file obeys (io::checkModelShape), and the mapping
    // `tandem-cli plan CONFIG.json` costs.
    const auto& s = m->geometry;
    fuzz::require(s.denseLayers >= 0 && s.moeLayers >= 0 && s.denseLayers + s.moeLayers == s.layers,
                  "dense and MoE blocks do not add up to the layers");
    fuzz::require(s.kvHeads >= 1 && s.heads % s.kvHeads == 0, "KV heads do not divide the heads");
    const auto mm = mosaic::importedGeometry(*m);
    const auto& g = mm.geometry;
    fuzz::require(g.layers >= 1 && g.dModel >= 1 && g.nHead >= 1 && g.nKvHead >= 1 && g.vocab >= 1,
                  "mapped geometry with a zero dimension");
    fuzz::require(g.denseLayers >= 0 && g.denseLayers <= g.layers,
                  "mapped dense blocks outside [0, layers]");
    fuzz::require(g.experts == 0 || (g.topK >= 1 && g.topK <= g.experts && g.dExpert >= 1),
                  "mapped MoE geometry with K outside [1, E] or no expert width");
    (void)fuzz::dumpLikeCli(io::modelImportToJson(*m));
    (void)fuzz::dumpLikeCli(mosaic::importedGeometryToJson(*m, mm));
    return 0;
}
