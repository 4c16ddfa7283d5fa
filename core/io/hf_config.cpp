#include "io/hf_config.h"

#include <algorithm>
#include <cmath>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "io/input_kind.h"
#include "io/model_shape.h"
#include "io/text_file.h"

namespace tandem::io {
namespace {

using nlohmann::json;

/// Largest width / count accepted from a config (16.7 M): far above any published model, small
/// enough that the parameter products stay exact in double precision.
constexpr long long kMaxField = 1LL << 24;

/// Models above this many parameters are reported as implausible rather than counted.
constexpr double kMaxPlausibleParams = 1e15;

/// A config object read through JsonReader with the messages the importer promises: a missing
/// required field names the field, the model type and what it means; a missing optional field
/// becomes a line in `assumptions`. A key set to null counts as absent (Hugging Face writes
/// `"q_lora_rank": null` for "not used"). Integers are bounded by kMaxField.
class Fields {
public:
    Fields(const json& obj, std::string path, std::string modelType, Diagnostics& diag,
           std::vector<std::string>& assumptions)
        : m_reader(obj, std::move(path), diag),
          m_type(std::move(modelType)),
          m_assumptions(assumptions) {}

    std::string path(const std::string& key) const { return m_reader.childPath(key.c_str()); }
    bool present(const std::string& key) {
        const json* v = m_reader.raw(key.c_str());
        return v && !v->is_null();
    }
    bool hasKey(const std::string& key) const { return m_reader.has(key.c_str()); }

    /// Required integer in [minValue, kMaxField].
    long long req(const std::string& key, const std::string& meaning, long long minValue = 1) {
        if (!present(key)) {
            m_reader.diagnostics().error(
                path(key), "is required for model_type \"" + m_type + "\" (" + meaning + ")");
            return 0;
        }
        return integer(key, minValue);
    }
    /// Optional integer; absent -> `def` and an assumption line "<path>: absent; assumed <why>".
    long long opt(const std::string& key, long long def, const std::string& why,
                  long long minValue = 0) {
        if (!present(key)) {
            assume(key, why);
            return def;
        }
        return integer(key, minValue);
    }
    /// Optional integer with no assumption line (the absence is the family's normal form).
    long long quiet(const std::string& key, long long def, long long minValue = 0) {
        return present(key) ? integer(key, minValue) : def;
    }
    bool flag(const std::string& key, bool def, const std::string& why) {
        if (!present(key)) {
            if (!why.empty()) assume(key, why);
            return def;
        }
        return m_reader.boolean(key.c_str(), def);
    }
    std::string text(const std::string& key, const std::string& def) {
        return present(key) ? m_reader.string(key.c_str(), def) : def;
    }
    /// Optional positive number with no assumption line; absent -> 0 (not stated).
    double positive(const std::string& key) {
        return present(key) ? m_reader.number(key.c_str(), 0.0, Range::positive()) : 0.0;
    }
    /// Optional array of distinct layer indices in [0, upper).
    std::vector<long long> indices(const std::string& key, long long upper) {
        if (!present(key)) return {};
        const Range layer{0.0, static_cast<double>(upper), false, true, "a layer index"};
        const std::vector<long long> all = m_reader.integers(key.c_str(), {}, layer);
        // A set of layers: a repeat would count one block twice (and the dense blocks as
        // layers minus the list's length, below zero).
        std::vector<long long> out;
        for (std::size_t i = 0; i < all.size(); ++i) {
            const auto first = std::find(all.begin(), all.begin() + std::ptrdiff_t(i), all[i]);
            if (first != all.begin() + std::ptrdiff_t(i)) {
                m_reader.diagnostics().error(
                    path(key) + "[" + std::to_string(i) + "]",
                    "duplicate value " + std::to_string(all[i]) + " (also at [" +
                        std::to_string(first - all.begin()) + "]); each layer is listed once");
                continue;
            }
            out.push_back(all[i]);
        }
        return out;
    }
    /// A layer count or layer stride read from `key` must not exceed the depth `layers`
    /// (num_hidden_layers): a larger value would silently turn every block dense.
    long long withinLayers(const std::string& key, long long value, long long layers,
                           const std::string& layersKey) {
        if (present(key) && layers > 0 && value > layers) {
            m_reader.diagnostics().error(path(key), formatNumber(static_cast<double>(value)) +
                                                        " exceeds " + layersKey + " (" +
                                                        std::to_string(layers) + ")");
            return layers;
        }
        return value;
    }
    void assume(const std::string& key, const std::string& why) {
        m_assumptions.push_back(path(key) + ": absent; assumed " + why);
    }
    void note(const std::string& text) { m_assumptions.push_back(text); }

private:
    long long integer(const std::string& key, long long minValue) {
        return m_reader.integer(
            key.c_str(), 0,
            Range::closed(static_cast<double>(minValue), static_cast<double>(kMaxField)));
    }
    JsonReader m_reader;
    std::string m_type;
    std::vector<std::string>& m_assumptions;
};

/// The per-head width of a config that states no head_dim: hidden / heads (0 without heads;
/// checkModelShape refuses a remainder).
long long evenHeadDim(const ModelGeometry& g) { return g.heads > 0 ? g.hidden / g.heads : 0; }

/// Width, depth, query heads and vocab of a multi-head-attention config whose family names the
/// first three `hiddenKey`, `layersKey` and `headsKey` (GPT-2: n_embd, n_layer, n_head); as many
/// KV heads as query heads. Read in that order, the order the errors and assumptions list them.
void readMultiHeadCore(Fields& f, ModelGeometry& g, const char* hiddenKey, const char* layersKey,
                       const char* headsKey) {
    g.hidden = f.req(hiddenKey, "model width d");
    g.layers = f.req(layersKey, "number of transformer blocks");
    g.heads = f.req(headsKey, "attention heads");
    g.kvHeads = g.heads;
    g.vocab = f.req("vocab_size", "vocabulary size");
}

/// Width, depth, heads, KV heads, head_dim, vocab, tied embeddings for Llama-style configs.
void readStandardCore(Fields& f, ModelGeometry& g, bool tiedDefault) {
    g.hidden = f.req("hidden_size", "model width d");
    g.layers = f.req("num_hidden_layers", "number of transformer blocks");
    g.heads = f.req("num_attention_heads", "attention heads");
    g.vocab = f.req("vocab_size", "vocabulary size");
    g.kvHeads = f.present("num_key_value_heads")
                    ? f.req("num_key_value_heads", "key/value heads")
                    : f.opt("num_key_value_heads", g.heads,
                            "= num_attention_heads = " + std::to_string(g.heads) +
                                " (multi-head attention)");
    if (f.present("head_dim")) {
        g.headDim = f.req("head_dim", "per-head width");
    } else if (g.heads > 0) {
        g.headDim = evenHeadDim(g);
        f.assume("head_dim", "hidden_size / num_attention_heads = " + std::to_string(g.headDim));
    }
    g.ropeTheta = f.positive("rope_theta");
    g.tiedEmbeddings = f.flag(
        "tie_word_embeddings", tiedDefault,
        tiedDefault ? "true (input and output embeddings shared)" : "false (separate output head)");
}

long long expertsPerToken(Fields& f) {
    if (f.present("num_experts_per_tok"))
        return f.req("num_experts_per_tok", "routed experts per token");
    if (f.present("experts_per_token"))
        return f.req("experts_per_token", "routed experts per token");
    return f.req("num_experts_per_tok", "routed experts per token, top-K");
}

void readMixtral(Fields& f, ModelGeometry& g) {
    readStandardCore(f, g, false);
    g.experts = f.req("num_local_experts", "routed experts per MoE block, E");
    g.topK = expertsPerToken(f);
    g.dExpert = f.req("intermediate_size", "expert FFN width");
    g.moeLayers = g.layers;
    g.dFfReference = g.dExpert;
    f.note(
        "split_factor_G: experts are full-width FFNs; G = 1 (reference width = intermediate_size)");
}

void readDeepSeek(Fields& f, ModelGeometry& g) {
    g.attention = AttentionKind::MultiHeadLatent;
    readMultiHeadCore(f, g, "hidden_size", "num_hidden_layers", "num_attention_heads");
    g.kvLoraRank = f.req("kv_lora_rank", "MLA compressed KV rank");
    g.qkRopeHeadDim = f.req("qk_rope_head_dim", "MLA rotary head width");
    g.qkNopeHeadDim = f.req("qk_nope_head_dim", "MLA non-rotary head width");
    g.vHeadDim = f.req("v_head_dim", "MLA value head width");
    g.headDim = g.qkNopeHeadDim + g.qkRopeHeadDim;
    if (f.present("q_lora_rank"))
        g.qLoraRank = f.req("q_lora_rank", "MLA query compression rank");
    else if (!f.hasKey("q_lora_rank"))
        f.assume("q_lora_rank", "null (full-rank query projection, as in DeepSeek-V2-Lite)");
    g.ropeTheta = f.positive("rope_theta");
    g.tiedEmbeddings = f.flag("tie_word_embeddings", false, "false (separate output head)");
    g.experts = f.req("n_routed_experts", "routed experts per MoE block, E");
    g.topK = f.req("num_experts_per_tok", "routed experts per token, top-K");
    g.dExpert = f.req("moe_intermediate_size", "routed expert FFN width");
    g.sharedExperts = f.opt("n_shared_experts", 0, "0 shared experts");
    g.dShared = g.dExpert;
    const long long firstDense = f.withinLayers(
        "first_k_dense_replace", f.opt("first_k_dense_replace", 0, "0 (every block is MoE)"),
        g.layers, "num_hidden_layers");
    const long long freq =
        f.withinLayers("moe_layer_freq",
                       f.opt("moe_layer_freq", 1, "1 (MoE in every block after the dense ones)", 1),
                       g.layers, "num_hidden_layers");
    for (long long i = 0; i < g.layers; ++i) {
        const bool moe = g.experts > 0 && i >= firstDense && freq > 0 && i % freq == 0;
        (moe ? g.moeLayers : g.denseLayers) += 1;
    }
    g.dFfReference = g.denseLayers > 0 ? f.req("intermediate_size", "dense FFN width")
                                       : f.quiet("intermediate_size", 0);
    g.dFfDense = g.dFfReference;
    g.routerCorrectionBias = f.text("topk_method", "") == "noaux_tc";
    g.mtpLayers = f.quiet("num_nextn_predict_layers", 0);
    if (g.mtpLayers > 0)
        f.note("$.num_nextn_predict_layers: " + std::to_string(g.mtpLayers) +
               " multi-token-prediction module(s) not counted (published totals exclude them)");
    g.activeConvention = ActiveEmbeddingConvention::OutputOnly;
    f.note(
        "n_active counts the output head but not the input embedding (DeepSeek's convention: "
        "matches 2.4 B for V2-Lite and 37 B for V3)");
}

void readQwenMoe(Fields& f, ModelGeometry& g) {
    const bool qwen3 = g.family == ModelFamily::Qwen3Moe;
    readStandardCore(f, g, false);
    g.qkvBias = qwen3 ? f.flag("attention_bias", false, "") : true;
    g.oBias = qwen3 && g.qkvBias;
    g.qkNorm = qwen3;
    g.experts = f.req("num_experts", "routed experts per MoE block, E");
    g.topK = f.req("num_experts_per_tok", "routed experts per token, top-K");
    g.dExpert = f.req("moe_intermediate_size", "routed expert FFN width");
    if (!qwen3) {
        g.dShared = f.opt("shared_expert_intermediate_size", 0, "0 (no shared expert)");
        g.sharedExperts = g.dShared > 0 ? 1 : 0;
        g.sharedExpertGate = g.dShared > 0;
    }
    const long long step = f.withinLayers(
        "decoder_sparse_step", f.opt("decoder_sparse_step", 1, "1 (MoE in every block)", 1),
        g.layers, "num_hidden_layers");
    const auto mlpOnly = f.indices("mlp_only_layers", g.layers);
    for (long long i = 0; i < g.layers; ++i) {
        bool moe = g.experts > 0 && step > 0 && (i + 1) % step == 0;
        for (auto j : mlpOnly) moe = moe && j != i;
        (moe ? g.moeLayers : g.denseLayers) += 1;
    }
    g.dFfReference = g.denseLayers > 0 ? f.req("intermediate_size", "dense FFN width")
                                       : f.quiet("intermediate_size", 0);
    g.dFfDense = g.dFfReference;
    if (g.dFfReference == 0) {
        g.dFfReference = g.dExpert;
        f.note("split_factor_G: no intermediate_size; G = 1 assumed");
    }
}

void readGptOss(Fields& f, ModelGeometry& g) {
    readStandardCore(f, g, false);
    g.qkvBias = g.oBias = f.flag("attention_bias", true, "true (biases on Q, K, V, O)");
    g.attentionSinks = true;
    g.experts = f.req("num_local_experts", "routed experts per MoE block, E");
    g.topK = expertsPerToken(f);
    g.dExpert = f.req("intermediate_size", "expert FFN width");
    g.mlpBias = true;
    g.routerBias = true;
    g.moeLayers = g.layers;
    g.dFfReference = g.dExpert;
    g.activeConvention = ActiveEmbeddingConvention::OutputOnly;
    f.note(
        "split_factor_G: experts are full-width FFNs; G = 1 (reference width = intermediate_size)");
    f.note(
        "n_active counts the output head but not the input embedding (gpt-oss model card "
        "convention: 3.6 B active for gpt-oss-20b)");
}

void readLlama4Text(Fields& f, ModelGeometry& g) {
    readStandardCore(f, g, false);
    g.experts = f.req("num_local_experts", "routed experts per MoE block, E");
    g.topK = f.opt("num_experts_per_tok", 1, "1 routed expert per token");
    g.dExpert = f.req("intermediate_size", "expert FFN width");
    g.sharedExperts = 1;
    g.dShared = g.dExpert;
    std::vector<long long> moeLayers;
    if (f.present("moe_layers")) {
        moeLayers = f.indices("moe_layers", g.layers);
    } else {
        const long long step =
            f.withinLayers("interleave_moe_layer_step",
                           f.opt("interleave_moe_layer_step", 1, "1 (MoE in every block)", 1),
                           g.layers, "num_hidden_layers");
        for (long long i = step - 1; step > 0 && i < g.layers; i += step) moeLayers.push_back(i);
    }
    g.moeLayers = static_cast<long long>(moeLayers.size());
    g.denseLayers = g.layers - g.moeLayers;
    if (g.denseLayers > 0) {
        g.dFfDense = f.req("intermediate_size_mlp", "dense FFN width");
        g.dFfReference = g.dFfDense;
    } else if (f.present("intermediate_size_mlp")) {
        g.dFfReference = f.req("intermediate_size_mlp", "dense FFN width");
    } else {
        g.dFfReference = g.dExpert;
        f.assume("intermediate_size_mlp", "= intermediate_size (G = 1)");
    }
}

void readGpt2(Fields& f, ModelGeometry& g) {
    readMultiHeadCore(f, g, "n_embd", "n_layer", "n_head");
    g.headDim = evenHeadDim(g);
    g.learnedPositions = f.opt("n_positions", 1024, "1024 learned positions");
    g.dFfDense = f.present("n_inner") ? f.req("n_inner", "FFN width")
                                      : f.opt("n_inner", 4 * g.hidden,
                                              "4 x n_embd = " + std::to_string(4 * g.hidden));
    g.tiedEmbeddings = f.flag("tie_word_embeddings", true, "true (GPT-2 ties the output head)");
    g.denseLayers = g.layers;
    g.gatedFfn = false;
    g.layerNorm = g.qkvBias = g.oBias = g.mlpBias = true;
}

void readOpt(Fields& f, ModelGeometry& g) {
    readMultiHeadCore(f, g, "hidden_size", "num_hidden_layers", "num_attention_heads");
    g.headDim = evenHeadDim(g);
    g.dFfDense = f.req("ffn_dim", "FFN width");
    const long long maxPos = f.opt("max_position_embeddings", 2048, "2048 positions");
    g.learnedPositions = maxPos + 2;  // OPTLearnedPositionalEmbedding keeps an offset of 2
    g.embedProjDim = f.opt("word_embed_proj_dim", g.hidden, "= hidden_size");
    if (g.embedProjDim == g.hidden) g.embedProjDim = 0;
    const bool preNorm = f.flag("do_layer_norm_before", true, "true (pre-norm)");
    const bool removeFinal = f.flag("_remove_final_layer_norm", false, "");
    g.finalNorm = preNorm && !removeFinal;
    const bool bias = f.flag("enable_bias", true, "");
    g.tiedEmbeddings = f.flag("tie_word_embeddings", true, "true (OPT ties the output head)");
    g.denseLayers = g.layers;
    g.gatedFfn = false;
    g.layerNorm = true;
    g.qkvBias = g.oBias = g.mlpBias = bias;
}

void readLlamaDense(Fields& f, ModelGeometry& g) {
    readStandardCore(f, g, false);
    g.dFfDense = f.req("intermediate_size", "FFN width");
    g.denseLayers = g.layers;
    if (g.family == ModelFamily::Qwen2) {
        g.qkvBias = true;
    } else {
        g.qkvBias = f.flag("attention_bias", false, "");
        g.oBias = g.qkvBias;
    }
    g.mlpBias = f.flag("mlp_bias", false, "");
    g.qkNorm = g.family == ModelFamily::Qwen3;
}

/// One supported model_type: the family whose parameter count it follows, the Hugging Face
/// architecture name that implies it when model_type is absent (nullptr: none), whether its
/// language-model geometry sits under text_config, and the reader of its fields.
struct ModelTypeEntry {
    const char* modelType;
    ModelFamily family;
    const char* architecture;
    bool textConfig;
    void (*read)(Fields&, ModelGeometry&);
};

const std::vector<ModelTypeEntry>& modelTypeTable() {
    static const std::vector<ModelTypeEntry> t = {
        {"mixtral", ModelFamily::Mixtral, "MixtralForCausalLM", false, readMixtral},
        {"deepseek_v2", ModelFamily::DeepseekV2, "DeepseekV2ForCausalLM", false, readDeepSeek},
        {"deepseek_v3", ModelFamily::DeepseekV3, "DeepseekV3ForCausalLM", false, readDeepSeek},
        {"kimi_k2", ModelFamily::DeepseekV3, nullptr, false, readDeepSeek},
        {"qwen2_moe", ModelFamily::Qwen2Moe, "Qwen2MoeForCausalLM", false, readQwenMoe},
        {"qwen3_moe", ModelFamily::Qwen3Moe, "Qwen3MoeForCausalLM", false, readQwenMoe},
        {"gpt_oss", ModelFamily::GptOss, "GptOssForCausalLM", false, readGptOss},
        {"llama4", ModelFamily::Llama4, "Llama4ForConditionalGeneration", true, readLlama4Text},
        {"llama4_text", ModelFamily::Llama4, "Llama4ForCausalLM", false, readLlama4Text},
        {"gpt2", ModelFamily::Gpt2, "GPT2LMHeadModel", false, readGpt2},
        {"opt", ModelFamily::Opt, "OPTForCausalLM", false, readOpt},
        {"llama", ModelFamily::Llama, "LlamaForCausalLM", false, readLlamaDense},
        {"mistral", ModelFamily::Llama, "MistralForCausalLM", false, readLlamaDense},
        {"qwen2", ModelFamily::Qwen2, "Qwen2ForCausalLM", false, readLlamaDense},
        {"qwen3", ModelFamily::Qwen3, "Qwen3ForCausalLM", false, readLlamaDense}};
    return t;
}

const ModelTypeEntry* findModelType(const std::string& type) {
    for (const auto& e : modelTypeTable())
        if (type == e.modelType) return &e;
    return nullptr;
}

std::string joinSupported() {
    std::string s;
    for (const auto& t : supportedModelTypes()) s += (s.empty() ? "" : ", ") + t;
    return s;
}

/// The config keys of each shape field, per family (empty: the family has no such key).
struct ShapeKeys {
    const char *layers, *hidden, *heads, *kvHeads, *ffn, *experts, *topK, *expertWidth;
};

ShapeKeys shapeKeys(ModelFamily family, const json& obj) {
    ShapeKeys k{"num_hidden_layers",
                "hidden_size",
                "num_attention_heads",
                "num_key_value_heads",
                "intermediate_size",
                "",
                "",
                ""};
    // MoE families: the keys of the expert count and width (top-K below), and of the dense FFN
    // and KV heads where they differ.
    const char* experts = "";
    const char* expertWidth = "intermediate_size";
    switch (family) {
        case ModelFamily::Gpt2:
            return {"n_layer", "n_embd", "n_head", "", "n_inner", "", "", ""};
        case ModelFamily::Opt:
            return {"num_hidden_layers",
                    "hidden_size",
                    "num_attention_heads",
                    "",
                    "ffn_dim",
                    "",
                    "",
                    ""};
        case ModelFamily::Llama:
        case ModelFamily::Qwen2:
        case ModelFamily::Qwen3:
            return k;
        case ModelFamily::Mixtral:
        case ModelFamily::GptOss:
            k.ffn = "";
            experts = "num_local_experts";
            break;
        case ModelFamily::Llama4:
            k.ffn = "intermediate_size_mlp";
            experts = "num_local_experts";
            break;
        case ModelFamily::DeepseekV2:
        case ModelFamily::DeepseekV3:
            k.kvHeads = "";
            experts = "n_routed_experts";
            expertWidth = "moe_intermediate_size";
            break;
        case ModelFamily::Qwen2Moe:
        case ModelFamily::Qwen3Moe:
            experts = "num_experts";
            expertWidth = "moe_intermediate_size";
            break;
    }
    k.experts = experts;
    k.topK = obj.contains("experts_per_token") && !obj.contains("num_experts_per_tok")
                 ? "experts_per_token"
                 : "num_experts_per_tok";
    k.expertWidth = expertWidth;
    return k;
}

/// The shape rules of Tandem's own model JSON (io::checkModelShape), with the config's keys.
void validateGeometry(const ModelGeometry& g, const json& obj, const std::string& base,
                      Diagnostics& diag) {
    const ShapeKeys k = shapeKeys(g.family, obj);
    const auto field = [&](long long v, const char* key) {
        return io::ShapeField{v, *key ? base + "." + key : std::string()};
    };
    io::ModelShape s;
    s.layers = field(g.layers, k.layers);
    s.hidden = field(g.hidden, k.hidden);
    s.heads = field(g.heads, k.heads);
    s.kvHeads = field(g.kvHeads, k.kvHeads);
    // A stated per-head width (head_dim; MLA's rope + nope widths) frees d from heads x width.
    const bool mla = g.attention == AttentionKind::MultiHeadLatent;
    const bool stated = mla || (obj.contains("head_dim") && !obj["head_dim"].is_null());
    s.headDim = {stated ? g.headDim : 0,
                 mla || *k.kvHeads == 0 ? std::string() : base + ".head_dim"};
    s.vocab = field(g.vocab, "vocab_size");
    s.ffnWidth = field(g.dFfDense, g.denseLayers > 0 ? k.ffn : "");
    s.experts = field(g.experts, k.experts);
    s.topK = field(g.topK, k.topK);
    s.expertWidth = field(g.dExpert, k.expertWidth);
    s.denseLayers = field(g.denseLayers, "");
    s.moeLayers = field(g.moeLayers, "");
    if (g.experts > 0) s.denseLayers.path = s.moeLayers.path = base;
    io::checkModelShape(s, diag);
}

}  // namespace

const std::vector<std::string>& supportedModelTypes() {
    static const std::vector<std::string> t = [] {
        std::vector<std::string> names;
        for (const auto& e : modelTypeTable()) names.emplace_back(e.modelType);
        return names;
    }();
    return t;
}

std::optional<ModelImport> importModelConfig(const json& config, Diagnostics& diag) {
    const std::size_t before = diag.items().size();
    if (!config.is_object()) {
        diag.error("$", "a model config must be a JSON object (got " + jsonTypeName(config) + ")");
        return std::nullopt;
    }
    ModelImport m;
    std::string type;
    const auto mt = config.find("model_type");
    if (mt != config.end() && mt->is_string()) {
        type = mt->get<std::string>();
    } else if (mt != config.end() && !mt->is_null()) {
        diag.error("$.model_type", "must be a string (got " + jsonTypeName(*mt) + ")");
        return std::nullopt;
    } else {
        const auto arch = config.find("architectures");
        if (arch != config.end() && arch->is_array() && !arch->empty() && (*arch)[0].is_string()) {
            const auto name = (*arch)[0].get<std::string>();
            for (const auto& e : modelTypeTable()) {
                if (e.architecture && name == e.architecture) {
                    type = e.modelType;
                    m.assumptions.push_back("$.model_type: absent; assumed \"" + type +
                                            "\" from $.architectures[0]");
                    break;
                }
            }
        }
        if (type.empty()) {
            diag.error("$.model_type",
                       "is required (the field is missing); supported: " + joinSupported());
            return std::nullopt;
        }
    }
    const ModelTypeEntry* entry = findModelType(type);
    if (!entry) {
        std::string msg = "unsupported model_type \"" + type + "\"; supported: " + joinSupported();
        const auto hint = closestMatch(type, supportedModelTypes());
        if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        diag.error("$.model_type", msg);
        return std::nullopt;
    }

    ModelGeometry& g = m.geometry;
    g.modelType = type;
    g.family = entry->family;
    std::string base = "$";
    const json* obj = &config;
    if (entry->textConfig) {
        const auto tc = config.find("text_config");
        if (tc == config.end() || !tc->is_object()) {
            diag.error("$.text_config", tc == config.end()
                                            ? "is required for model_type \"" + type +
                                                  "\" (the language model's geometry)"
                                            : "must be an object (got " + jsonTypeName(*tc) + ")");
            return std::nullopt;
        }
        obj = &*tc;
        base = "$.text_config";
        m.assumptions.push_back("text model only: a vision encoder is not counted");
    }
    Fields f(*obj, base, type, diag, m.assumptions);
    entry->read(f, g);
    if (diag.items().size() > before) return std::nullopt;
    validateGeometry(g, *obj, base, diag);
    if (diag.items().size() > before) return std::nullopt;
    m.counts = countParameters(g);
    if (static_cast<double>(m.counts.total) > kMaxPlausibleParams) {
        diag.error(base,
                   "implausible geometry: " + formatNumber(static_cast<double>(m.counts.total)) +
                       " parameters (more than 1e15); check the widths and counts");
        return std::nullopt;
    }
    return m;
}

bool isHfConfig(const json& j) {
    if (!j.is_object()) return false;
    static const char* const keys[] = {
        "model_type",       "architectures",     "text_config", "hidden_size",
        "n_embd",           "num_hidden_layers", "n_layer",     "num_attention_heads",
        "n_head",           "intermediate_size", "vocab_size",  "num_local_experts",
        "n_routed_experts", "num_experts"};
    for (const char* k : keys)
        if (j.contains(k)) return true;
    return false;
}

std::optional<ModelImport> loadModelConfigFile(const std::string& path, Diagnostics& diag) {
    std::string text;
    if (!readTextFile(path, text, diag)) return std::nullopt;
    const json j = parseJsonText(text, diag);
    if (j.is_null()) return std::nullopt;
    return importModelConfig(j, diag);
}

nlohmann::ordered_json modelImportToJson(const ModelImport& m) {
    const auto& g = m.geometry;
    const auto& c = m.counts;
    nlohmann::ordered_json j;
    j["kind"] = inputKindName(InputKind::ModelConfig);
    j["model_type"] = g.modelType;
    j["family"] = name(g.family);
    j["n_total"] = c.total;
    j["n_active"] = c.active;
    j["n_total_nonembedding"] = c.totalNonEmbedding;
    j["n_active_nonembedding"] = c.activeNonEmbedding;
    j["n_active_all_embeddings"] = c.activeAllEmbeddings;
    j["sparsity"] = c.sparsity;
    if (std::isnan(c.splitFactorG))
        j["split_factor_G"] = nullptr;
    else
        j["split_factor_G"] = c.splitFactorG;
    j["active_embedding_convention"] = activeConventionName(g.activeConvention);
    nlohmann::ordered_json geo;
    geo["layers"] = g.layers;
    geo["hidden"] = g.hidden;
    geo["heads"] = g.heads;
    geo["kv_heads"] = g.kvHeads;
    geo["head_dim"] = g.headDim;
    geo["attention"] = attentionKindName(g.attention);
    if (g.attention == AttentionKind::MultiHeadLatent) {
        geo["q_lora_rank"] = g.qLoraRank;
        geo["kv_lora_rank"] = g.kvLoraRank;
        geo["qk_rope_head_dim"] = g.qkRopeHeadDim;
        geo["qk_nope_head_dim"] = g.qkNopeHeadDim;
        geo["v_head_dim"] = g.vHeadDim;
    }
    geo["d_ff_dense"] = g.dFfDense;
    geo["d_ff_reference"] = g.dFfReference;
    geo["experts"] = g.experts;
    geo["top_k"] = g.topK;
    geo["d_expert"] = g.dExpert;
    geo["shared_experts"] = g.sharedExperts;
    geo["d_shared_expert"] = g.dShared;
    geo["dense_layers"] = g.denseLayers;
    geo["moe_layers"] = g.moeLayers;
    geo["vocab"] = g.vocab;
    geo["tied_embeddings"] = g.tiedEmbeddings;
    if (g.mtpLayers > 0) geo["mtp_layers_not_counted"] = g.mtpLayers;
    j["geometry"] = geo;
    j["embedding_params"] = {{"token", c.tokenEmbedding},
                             {"output_head", c.outputHead},
                             {"positions", c.positionEmbedding}};
    j["assumptions"] = m.assumptions;
    return j;
}

}  // namespace tandem::io
