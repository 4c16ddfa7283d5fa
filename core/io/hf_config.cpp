#include "io/hf_config.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "common/json_reader.h"
#include "common/number_format.h"
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

std::string typeName(const json& v) {
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_boolean()) return "a boolean";
    if (v.is_array()) return "an array";
    if (v.is_object()) return "an object";
    return "null";
}

/// Typed access to one config object with the messages the importer promises: a missing
/// required field names the field, the model type and what it means; a missing optional field
/// becomes a line in `assumptions`.
class Fields {
public:
    Fields(const json& obj, std::string path, std::string modelType, Diagnostics& diag,
           std::vector<std::string>& assumptions)
        : m_obj(obj), m_path(std::move(path)), m_type(std::move(modelType)), m_diag(diag),
          m_assumptions(assumptions) {}

    std::string path(const std::string& key) const { return m_path + "." + key; }
    bool present(const std::string& key) const {
        auto it = m_obj.find(key);
        return it != m_obj.end() && !it->is_null();
    }
    bool hasKey(const std::string& key) const { return m_obj.contains(key); }
    const json* get(const std::string& key) const {
        auto it = m_obj.find(key);
        return it == m_obj.end() || it->is_null() ? nullptr : &*it;
    }

    /// Required integer >= minValue.
    long long req(const std::string& key, const std::string& meaning, long long minValue = 1) {
        const json* v = get(key);
        if (!v) {
            m_diag.error(path(key), "is required for model_type \"" + m_type + "\" (" + meaning + ")");
            return 0;
        }
        return check(key, *v, minValue);
    }
    /// Optional integer; absent -> `def` and an assumption line "<path>: absent; assumed <why>".
    long long opt(const std::string& key, long long def, const std::string& why,
                  long long minValue = 0) {
        const json* v = get(key);
        if (!v) {
            assume(key, why);
            return def;
        }
        return check(key, *v, minValue);
    }
    /// Optional integer with no assumption line (the absence is the family's normal form).
    long long quiet(const std::string& key, long long def, long long minValue = 0) {
        const json* v = get(key);
        return v ? check(key, *v, minValue) : def;
    }
    bool flag(const std::string& key, bool def, const std::string& why) {
        const json* v = get(key);
        if (!v) {
            if (!why.empty()) assume(key, why);
            return def;
        }
        if (!v->is_boolean()) {
            m_diag.error(path(key), "must be true or false (got " + typeName(*v) + ")");
            return def;
        }
        return v->get<bool>();
    }
    std::string text(const std::string& key, const std::string& def) {
        const json* v = get(key);
        if (!v) return def;
        if (!v->is_string()) {
            m_diag.error(path(key), "must be a string (got " + typeName(*v) + ")");
            return def;
        }
        return v->get<std::string>();
    }
    /// Optional array of integers in [0, upper).
    std::vector<long long> indices(const std::string& key, long long upper) {
        std::vector<long long> out;
        std::vector<std::size_t> at;  // position of each accepted index in the array
        const json* v = get(key);
        if (!v) return out;
        if (!v->is_array()) {
            m_diag.error(path(key), "must be an array of layer indices (got " + typeName(*v) + ")");
            return out;
        }
        for (std::size_t i = 0; i < v->size(); ++i) {
            const auto& e = (*v)[i];
            const auto p = path(key) + "[" + std::to_string(i) + "]";
            if (!e.is_number_integer() || e.get<long long>() < 0 || e.get<long long>() >= upper) {
                m_diag.error(p, "must be a layer index in [0, " + std::to_string(upper) + ")");
                continue;
            }
            // A set of layers: a repeat would count one block twice (and the dense blocks as
            // layers minus the list's length, below zero).
            const auto first = std::find(out.begin(), out.end(), e.get<long long>());
            if (first != out.end()) {
                m_diag.error(p, "duplicate value " + std::to_string(*first) + " (also at [" +
                                    std::to_string(at[std::size_t(first - out.begin())]) +
                                    "]); each layer is listed once");
                continue;
            }
            out.push_back(e.get<long long>());
            at.push_back(i);
        }
        return out;
    }
    /// A layer count or layer stride read from `key` must not exceed the depth `layers`
    /// (num_hidden_layers): a larger value would silently turn every block dense.
    long long withinLayers(const std::string& key, long long value, long long layers,
                           const std::string& layersKey) {
        if (present(key) && layers > 0 && value > layers) {
            m_diag.error(path(key), formatNumber(static_cast<double>(value)) + " exceeds " +
                                        layersKey + " (" + std::to_string(layers) + ")");
            return layers;
        }
        return value;
    }
    void assume(const std::string& key, const std::string& why) {
        m_assumptions.push_back(path(key) + ": absent; assumed " + why);
    }
    void note(const std::string& text) { m_assumptions.push_back(text); }
    Diagnostics& diag() { return m_diag; }
    const std::string& modelType() const { return m_type; }

private:
    long long check(const std::string& key, const json& v, long long minValue) {
        const bool isInt = v.is_number_integer() ||
                           (v.is_number_float() && std::isfinite(v.get<double>()) &&
                            std::floor(v.get<double>()) == v.get<double>());
        if (!isInt) {
            m_diag.error(path(key), "must be an integer (got " +
                                        (v.is_number() ? formatNumber(v.get<double>()) : typeName(v)) +
                                        ")");
            return 0;
        }
        const double x = v.get<double>();
        if (x < static_cast<double>(minValue) || x > static_cast<double>(kMaxField)) {
            m_diag.error(path(key), "must be in [" + std::to_string(minValue) + ", " +
                                        std::to_string(kMaxField) + "] (got " + formatNumber(x) + ")");
            return 0;
        }
        return static_cast<long long>(x);
    }
    const json& m_obj;
    std::string m_path, m_type;
    Diagnostics& m_diag;
    std::vector<std::string>& m_assumptions;
};

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
        g.headDim = g.hidden / g.heads;  // checkModelShape refuses a remainder
        f.assume("head_dim", "hidden_size / num_attention_heads = " + std::to_string(g.headDim));
    }
    g.tiedEmbeddings = f.flag("tie_word_embeddings", tiedDefault,
                              tiedDefault ? "true (input and output embeddings shared)"
                                          : "false (separate output head)");
}

long long expertsPerToken(Fields& f) {
    if (f.present("num_experts_per_tok")) return f.req("num_experts_per_tok", "routed experts per token");
    if (f.present("experts_per_token")) return f.req("experts_per_token", "routed experts per token");
    return f.req("num_experts_per_tok", "routed experts per token, top-K");
}

void readMixtral(Fields& f, ModelGeometry& g) {
    readStandardCore(f, g, false);
    g.experts = f.req("num_local_experts", "routed experts per MoE block, E");
    g.topK = expertsPerToken(f);
    g.dExpert = f.req("intermediate_size", "expert FFN width");
    g.moeLayers = g.layers;
    g.dFfReference = g.dExpert;
    f.note("split_factor_G: experts are full-width FFNs; G = 1 (reference width = intermediate_size)");
}

void readDeepSeek(Fields& f, ModelGeometry& g) {
    g.attention = AttentionKind::MultiHeadLatent;
    g.hidden = f.req("hidden_size", "model width d");
    g.layers = f.req("num_hidden_layers", "number of transformer blocks");
    g.heads = f.req("num_attention_heads", "attention heads");
    g.kvHeads = g.heads;
    g.vocab = f.req("vocab_size", "vocabulary size");
    g.kvLoraRank = f.req("kv_lora_rank", "MLA compressed KV rank");
    g.qkRopeHeadDim = f.req("qk_rope_head_dim", "MLA rotary head width");
    g.qkNopeHeadDim = f.req("qk_nope_head_dim", "MLA non-rotary head width");
    g.vHeadDim = f.req("v_head_dim", "MLA value head width");
    g.headDim = g.qkNopeHeadDim + g.qkRopeHeadDim;
    if (f.present("q_lora_rank"))
        g.qLoraRank = f.req("q_lora_rank", "MLA query compression rank");
    else if (!f.hasKey("q_lora_rank"))
        f.assume("q_lora_rank", "null (full-rank query projection, as in DeepSeek-V2-Lite)");
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
    f.note("n_active counts the output head but not the input embedding (DeepSeek's convention: "
           "matches 2.4 B for V2-Lite and 37 B for V3)");
}

void readQwenMoe(Fields& f, ModelGeometry& g, bool qwen3) {
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
    f.note("split_factor_G: experts are full-width FFNs; G = 1 (reference width = intermediate_size)");
    f.note("n_active counts the output head but not the input embedding (gpt-oss model card "
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
    g.hidden = f.req("n_embd", "model width d");
    g.layers = f.req("n_layer", "number of transformer blocks");
    g.heads = f.req("n_head", "attention heads");
    g.kvHeads = g.heads;
    g.vocab = f.req("vocab_size", "vocabulary size");
    g.headDim = g.heads > 0 ? g.hidden / g.heads : 0;
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
    g.hidden = f.req("hidden_size", "model width d");
    g.layers = f.req("num_hidden_layers", "number of transformer blocks");
    g.heads = f.req("num_attention_heads", "attention heads");
    g.kvHeads = g.heads;
    g.vocab = f.req("vocab_size", "vocabulary size");
    g.headDim = g.heads > 0 ? g.hidden / g.heads : 0;
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

void readLlamaDense(Fields& f, ModelGeometry& g, const std::string& type) {
    readStandardCore(f, g, false);
    g.dFfDense = f.req("intermediate_size", "FFN width");
    g.denseLayers = g.layers;
    if (type == "qwen2") {
        g.qkvBias = true;
    } else {
        g.qkvBias = f.flag("attention_bias", false, "");
        g.oBias = g.qkvBias;
    }
    g.mlpBias = f.flag("mlp_bias", false, "");
    g.qkNorm = type == "qwen3";
}

const std::map<std::string, std::string>& architectureTypes() {
    static const std::map<std::string, std::string> m = {
        {"MixtralForCausalLM", "mixtral"},      {"DeepseekV2ForCausalLM", "deepseek_v2"},
        {"DeepseekV3ForCausalLM", "deepseek_v3"}, {"Qwen2MoeForCausalLM", "qwen2_moe"},
        {"Qwen3MoeForCausalLM", "qwen3_moe"},   {"GptOssForCausalLM", "gpt_oss"},
        {"Llama4ForConditionalGeneration", "llama4"}, {"Llama4ForCausalLM", "llama4_text"},
        {"GPT2LMHeadModel", "gpt2"},            {"OPTForCausalLM", "opt"},
        {"LlamaForCausalLM", "llama"},          {"MistralForCausalLM", "mistral"},
        {"Qwen2ForCausalLM", "qwen2"},          {"Qwen3ForCausalLM", "qwen3"}};
    return m;
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

ShapeKeys shapeKeys(const std::string& family, const json& obj) {
    const char* topK = obj.contains("experts_per_token") && !obj.contains("num_experts_per_tok")
                           ? "experts_per_token"
                           : "num_experts_per_tok";
    if (family == "gpt2") return {"n_layer", "n_embd", "n_head", "", "n_inner", "", "", ""};
    if (family == "opt")
        return {
            "num_hidden_layers", "hidden_size", "num_attention_heads", "", "ffn_dim", "", "", ""};
    ShapeKeys k{"num_hidden_layers",
                "hidden_size",
                "num_attention_heads",
                "num_key_value_heads",
                "intermediate_size",
                "",
                "",
                ""};
    if (family == "mixtral" || family == "gpt_oss") {
        k.ffn = "";
        k.experts = "num_local_experts";
        k.topK = topK;
        k.expertWidth = "intermediate_size";
    } else if (family == "llama4") {
        k.ffn = "intermediate_size_mlp";
        k.experts = "num_local_experts";
        k.topK = topK;
        k.expertWidth = "intermediate_size";
    } else if (family.rfind("deepseek", 0) == 0) {
        k.kvHeads = "";
        k.experts = "n_routed_experts";
        k.topK = topK;
        k.expertWidth = "moe_intermediate_size";
    } else if (family.rfind("qwen", 0) == 0 && family.find("moe") != std::string::npos) {
        k.experts = "num_experts";
        k.topK = topK;
        k.expertWidth = "moe_intermediate_size";
    }
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
    static const std::vector<std::string> t = {
        "mixtral", "deepseek_v2", "deepseek_v3", "kimi_k2", "qwen2_moe", "qwen3_moe", "gpt_oss",
        "llama4",  "llama4_text", "gpt2",        "opt",     "llama",     "mistral",   "qwen2",
        "qwen3"};
    return t;
}

std::optional<ModelImport> importModelConfig(const json& config, Diagnostics& diag) {
    const std::size_t before = diag.items().size();
    if (!config.is_object()) {
        diag.error("$", "a model config must be a JSON object (got " + typeName(config) + ")");
        return std::nullopt;
    }
    ModelImport m;
    std::string type;
    const auto mt = config.find("model_type");
    if (mt != config.end() && mt->is_string()) {
        type = mt->get<std::string>();
    } else if (mt != config.end() && !mt->is_null()) {
        diag.error("$.model_type", "must be a string (got " + typeName(*mt) + ")");
        return std::nullopt;
    } else {
        const auto arch = config.find("architectures");
        if (arch != config.end() && arch->is_array() && !arch->empty() && (*arch)[0].is_string()) {
            const auto it = architectureTypes().find((*arch)[0].get<std::string>());
            if (it != architectureTypes().end()) {
                type = it->second;
                m.assumptions.push_back("$.model_type: absent; assumed \"" + type +
                                        "\" from $.architectures[0]");
            }
        }
        if (type.empty()) {
            diag.error("$.model_type", "is required (the field is missing); supported: " +
                                           joinSupported());
            return std::nullopt;
        }
    }
    const auto& sup = supportedModelTypes();
    if (std::find(sup.begin(), sup.end(), type) == sup.end()) {
        std::string msg = "unsupported model_type \"" + type + "\"; supported: " + joinSupported();
        const auto hint = closestMatch(type, sup);
        if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        diag.error("$.model_type", msg);
        return std::nullopt;
    }

    ModelGeometry& g = m.geometry;
    g.modelType = type;
    std::string base = "$";
    const json* obj = &config;
    if (type == "llama4") {
        const auto tc = config.find("text_config");
        if (tc == config.end() || !tc->is_object()) {
            diag.error("$.text_config", tc == config.end()
                                            ? "is required for model_type \"llama4\" (the "
                                              "language model's geometry)"
                                            : "must be an object (got " + typeName(*tc) + ")");
            return std::nullopt;
        }
        obj = &*tc;
        base = "$.text_config";
        m.assumptions.push_back("text model only: a vision encoder is not counted");
    }
    Fields f(*obj, base, type, diag, m.assumptions);
    if (type == "mixtral") {
        g.family = "mixtral";
        readMixtral(f, g);
    } else if (type == "deepseek_v2" || type == "deepseek_v3" || type == "kimi_k2") {
        g.family = type == "deepseek_v2" ? "deepseek_v2" : "deepseek_v3";
        readDeepSeek(f, g);
    } else if (type == "qwen2_moe" || type == "qwen3_moe") {
        g.family = type;
        readQwenMoe(f, g, type == "qwen3_moe");
    } else if (type == "gpt_oss") {
        g.family = "gpt_oss";
        readGptOss(f, g);
    } else if (type == "llama4" || type == "llama4_text") {
        g.family = "llama4";
        readLlama4Text(f, g);
    } else if (type == "gpt2") {
        g.family = "gpt2";
        readGpt2(f, g);
    } else if (type == "opt") {
        g.family = "opt";
        readOpt(f, g);
    } else {
        g.family = type == "mistral" ? "llama" : type;
        readLlamaDense(f, g, type);
    }
    if (diag.items().size() > before) return std::nullopt;
    validateGeometry(g, *obj, base, diag);
    if (diag.items().size() > before) return std::nullopt;
    m.counts = countParameters(g);
    if (static_cast<double>(m.counts.total) > kMaxPlausibleParams) {
        diag.error(base, "implausible geometry: " + formatNumber(static_cast<double>(m.counts.total)) +
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
    j["kind"] = "model_config";
    j["model_type"] = g.modelType;
    j["family"] = g.family;
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
