#pragma once
// The shape rules every model reader applies before a model is costed: Tandem's own MODEL.json
// (mosaic::readPlanModel) and a Hugging Face config.json (io::importModelConfig) both describe
// a decoder-only transformer, so both are held to the same limits and consistency rules, each
// message naming the field as the file spells it.
#include <string>

#include "common/diagnostics.h"

namespace tandem::io {

/// One shape field as a reader read it: its value and its path in the file (e.g.
/// "$.num_key_value_heads" or "$.kv_heads"). An empty path means the file has no such field.
struct ShapeField {
    long long value = 0;
    std::string path;
};

/// A transformer's shape as read from a model file. Widths are element counts.
struct ModelShape {
    ShapeField layers;   ///< transformer blocks
    ShapeField hidden;   ///< model width d
    ShapeField heads;    ///< query heads
    ShapeField kvHeads;  ///< key/value heads (GQA groups; == heads for MHA)
    /// Per-head width when the file states it (Qwen3, gpt-oss `head_dim`; MLA head widths): then
    /// heads x head width may differ from d. 0 = not stated: the head width is d / heads, which
    /// must then be an integer. `path` names the key a user can add (empty when there is none).
    ShapeField headDim;
    ShapeField vocab;        ///< vocabulary size
    ShapeField ffnWidth;     ///< dense FFN width (0 = none given)
    ShapeField experts;      ///< routed experts per MoE block, E (0 = dense model)
    ShapeField topK;         ///< routed experts per token, K
    ShapeField expertWidth;  ///< routed expert FFN width d_expert
    ShapeField denseLayers;  ///< blocks with a dense FFN
    ShapeField moeLayers;    ///< blocks with an MoE FFN (dense + MoE = layers)
};

/// Largest values a model file may give [far above any published model: 2026 configs stay
/// below 200 layers, d = 20 480, 128 heads, 384 experts, vocab 262 144], small enough that
/// every product the performance model forms stays exact and fits its `int` fields.
constexpr long long kMaxLayers = 10000;
constexpr long long kMaxHidden = 1LL << 20;
constexpr long long kMaxHeads = 1LL << 16;
constexpr long long kMaxFfnWidth = 1LL << 22;
constexpr long long kMaxExperts = 65536;
constexpr long long kMaxVocab = 1LL << 24;

/// Checks `s` and adds one error per broken rule to `diag`, at the path of the field to fix:
///  - ranges: layers in [1, kMaxLayers], hidden in [1, kMaxHidden], heads and KV heads in
///    [1, kMaxHeads], vocab in [1, kMaxVocab], FFN and expert widths in [0, kMaxFfnWidth],
///    experts in [0, kMaxExperts] ("must be in [1, 10000] (got 20000)");
///  - KV heads <= heads and a divisor of heads (each KV head serves heads / KV heads query
///    heads): "must divide num_attention_heads (32)";
///  - without a stated head width, d must be a multiple of heads: "must be a multiple of
///    heads (3) when the per-head width is d / heads (1000 / 3 is not an integer)";
///  - MoE (E > 0): K in [1, E] ("exceeds the number of routed experts (experts = 8)"), an
///    expert width > 0;
///  - dense blocks in [0, layers], dense + MoE blocks = layers, and an FFN width > 0 when any
///    block is dense.
/// Fields whose path is empty and value 0 are not checked (the file has no such field).
/// Returns true when no error was added.
bool checkModelShape(const ModelShape& s, Diagnostics& diag);

}  // namespace tandem::io
