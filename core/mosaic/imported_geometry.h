#pragma once
// A Hugging Face config (io::ModelImport) as the MOSAIC performance model costs it
// (mosaic::Geometry), with every approximation the mapping makes spelled out
// (`tandem-cli plan CONFIG.json`). The GUI's imported-model point uses the same rules.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/hf_config.h"
#include "mosaic/geometry.h"

namespace tandem::mosaic {

/// A model config mapped to the performance model's geometry.
struct ImportedGeometry {
    Geometry geometry;  ///< widths for the perf model; nAct / nTot / sparsity see below
    /// One sentence per approximation, e.g. "multi-head latent attention costed as standard
    /// attention with 128 KV heads", in a fixed order (deterministic).
    std::vector<std::string> assumptions;
};

/// Maps an imported config to mosaic::Geometry [2608.10605 Sec. 5; io/model_geometry.h]:
///  - layers, d, query heads, KV heads (MLA: KV heads = query heads, noted), vocab;
///  - MoE: E, K, d_expert; blocks with a dense FFN become the leading `denseLayers` (Llama-4's
///    interleaved dense blocks are costed as leading, noted); shared experts of another width
///    become an equal-parameter count of d_expert-wide experts (noted);
///  - d_ff = the dense FFN width, else the reference width, else d_expert; a 2-matrix FFN
///    (GPT-2, OPT) is costed as a SwiGLU of width round(2 d_ff / 3), same parameters (noted);
///  - attention is costed with the config's head_dim where heads x head_dim differs from d
///    (Qwen3: 32 x 128 on d = 2048; gpt-oss: 64 x 64 on 2880), else with d / heads;
///  - G = round(split factor) >= 1 (undefined -> 0 for a dense model, 1 otherwise, noted);
///  - nAct, nTot, sparsity: the config's exact non-embedding counts (ParameterCounts), so MFU
///    credits the published model's FLOPs 6 N_act per token [Eq. 1] and S matches `inspect`;
///    the per-layer compute and memory use the geometry's widths (the difference is noted
///    when above 1 %);
///  - biases, norms, attention sinks, MTP modules and vision towers are not costed (noted when
///    the config has them).
/// Dimensions are at most 2^24 after import, so they fit `int`. No errors.
ImportedGeometry importedGeometry(const io::ModelImport& m);

/// {"source": "hf_config", "model_type", "family", "n_total", "n_active",
/// "n_total_nonembedding", "n_active_nonembedding", "n_active_costed_nonembedding" (the
/// geometry's own count), "import_assumptions": [...], "mapping_assumptions": [...]}.
nlohmann::ordered_json importedGeometryToJson(const io::ModelImport& m, const ImportedGeometry& mm);

}  // namespace tandem::mosaic
