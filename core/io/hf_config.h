#pragma once
// Hugging Face `config.json` -> ModelGeometry + parameter counts.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "io/model_geometry.h"

namespace tandem::io {

/// What Tandem understood from a model config.
struct ModelImport {
    ModelGeometry geometry;
    ParameterCounts counts;
    /// Every default Tandem filled in, e.g. `$.head_dim: absent; assumed hidden_size /
    /// num_attention_heads = 128`, and what was deliberately left out (MTP module, vision tower).
    std::vector<std::string> assumptions;
};

/// The `model_type` values importModelConfig understands, in the order shown to users:
/// mixtral, deepseek_v2, deepseek_v3, kimi_k2, qwen2_moe, qwen3_moe, gpt_oss, llama4,
/// llama4_text, gpt2, opt, llama, mistral, qwen2, qwen3.
const std::vector<std::string>& supportedModelTypes();

/// Maps a parsed config.json to Tandem's geometry and counts its parameters.
/// Families: Mixtral; DeepSeek-V2/V3 and Kimi-K2 (MLA dims q_lora_rank, kv_lora_rank,
/// qk_rope_head_dim, qk_nope_head_dim, v_head_dim; n_shared_experts; first_k_dense_replace;
/// moe_layer_freq; num_nextn_predict_layers is reported, never counted); Qwen1.5/2 MoE
/// (`qwen2_moe`, shared expert + gate) and Qwen3 MoE; gpt-oss (biases, sinks); Llama-4
/// (`text_config`, shared expert, interleave_moe_layer_step; vision tower not counted); GPT-2;
/// OPT; Llama / Mistral / Qwen2 / Qwen3 dense.
/// Errors (in `diag`, with the JSON path): not an object; `model_type` missing (and not
/// derivable from `architectures`) or unsupported (message lists the supported ones); a required
/// field missing ("$.num_hidden_layers: is required for model_type \"mixtral\" (...)"); a field
/// of the wrong type or out of range; a layer index listed twice in moe_layers or
/// mlp_only_layers ("$.moe_layers[2]: duplicate value 1 (also at [0])"); a shape Tandem's own
/// MODEL.json would refuse, checked by io::checkModelShape with the config's keys (KV heads
/// not dividing the heads, hidden_size not a multiple of the heads without head_dim, top-K
/// outside [1, E], the model-file limits). Returns std::nullopt on any error.
/// Optional fields that are absent get the family default and a line in `assumptions`.
std::optional<ModelImport> importModelConfig(const nlohmann::json& config, Diagnostics& diag);

/// True when `j` is a Hugging Face config rather than a Tandem model or scenario JSON: an object
/// with model_type, architectures, text_config or a config geometry key (hidden_size, n_embd,
/// num_hidden_layers, n_layer, num_attention_heads, n_head, intermediate_size, vocab_size,
/// num_local_experts, n_routed_experts, num_experts; none of them is a Tandem key). The one
/// detector `inspect`, `plan` and the GUI's drop and import use, so a file is read as a config by
/// all of them or by none.
bool isHfConfig(const nlohmann::json& j);

/// Reads `path` and imports it; a JSON syntax error is reported as `line L, column C`.
std::optional<ModelImport> loadModelConfigFile(const std::string& path, Diagnostics& diag);

/// The inspect JSON of a model import: kind, model_type, family, n_total, n_active,
/// n_total_nonembedding, n_active_nonembedding, n_active_all_embeddings, sparsity,
/// split_factor_G (null when undefined), active_embedding_convention, geometry{...},
/// assumptions[...]. Counts are integers (parameters).
nlohmann::ordered_json modelImportToJson(const ModelImport& m);

}  // namespace tandem::io
