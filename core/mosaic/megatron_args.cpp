#include "mosaic/megatron_args.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "io/launch_script.h"
#include "mosaic/envelope.h"
#include "mosaic/layout_grid.h"

namespace tandem::mosaic {

using io::ScriptCommand;

namespace {

// ---------------------------------------------------------------------------------------------
// The flags.

/// What the flags of a launch script say, before they become a plan and a cluster.
struct ReadFlags {
    Plan plan;
    int globalBatch = 0, seqLen = 0;
    int vpPerRank = 0;       ///< --num-virtual-stages-per-pipeline-rank, 0 = not given
    int vpConfig = 0;        ///< --virtual-pipeline-model-parallel-size, 0 = not given
    int layersPerChunk = 0;  ///< --num-layers-per-virtual-pipeline-stage, 0 = not given
    std::string granularity, fp8Format, fp8Recipe, fp4Format, fp4Recipe;
    std::vector<std::string> modules;  ///< --recompute-modules
    std::string recomputeMethod, shardingStrategy, moeLayerFreq;
    int recomputeLayers = 0, maxPositions = 0;
    int etp = 0;           ///< --expert-tensor-parallel-size, 0 = not given (Megatron: TP)
    int vocabDivisor = 0;  ///< --make-vocab-size-divisible-by, 0 = not given (Megatron: 128)
    bool swiglu = false, gqa = false, bf16 = false, overlapGrad = false, overlapParam = false;
    bool torchFsdp = false;  ///< --use-torch-fsdp2: parameters, gradients and optimizer sharded
    /// Kernel and overlap flags: --moe-token-dispatcher-type ("" = not given: Megatron-LM's
    /// allgather), --moe-grouped-gemm, --moe-shared-expert-overlap, --tp-comm-overlap,
    /// --attention-backend ("" = not given: Megatron-LM's auto).
    std::string dispatcher, attentionBackend;
    bool groupedGemm = false, sharedOverlap = false, tpCommOverlap = false;
    /// Architecture flags (read so that they are known; the costing does not depend on them).
    std::string normalization, positions;
    int rotaryBase = 0;
    bool untied = false, noBias = false, qkvBias = false, qkLayernorm = false;
    /// Multi-latent attention: --multi-latent-attention and its widths, 0 = not given.
    bool mla = false;
    int qLoraRank = 0, kvLoraRank = 0, qkHeadDim = 0, qkPosEmbHeadDim = 0, vHeadDim = 0;
    /// Model flags, 0 = not given.
    int layers = 0, hidden = 0, heads = 0, queryGroups = 0, kvChannels = 0, ffn = 0, vocab = 0,
        experts = 0, topK = 0, expertFfn = 0, sharedFfn = 0;
};

/// How a flag takes its value.
enum class FlagKind {
    Count,    ///< one value, a positive integer
    Switch,   ///< no value: the flag's presence sets it
    Choice,   ///< one value, one of `choices` (any text when there are none)
    Choices,  ///< the next words up to the next --flag, each one of `choices`
};

/// One flag parseMegatronArguments reads; the member set is the one of `kind`.
struct MegatronFlag {
    const char* flag;
    FlagKind kind;
    int& (*count)(ReadFlags&) = nullptr;
    bool& (*on)(ReadFlags&) = nullptr;
    std::string& (*word)(ReadFlags&) = nullptr;
    std::vector<std::string>& (*words)(ReadFlags&) = nullptr;
    std::vector<const char*> choices = {};
};

using K = FlagKind;
using R = ReadFlags;

MegatronFlag count(const char* f, int& (*c)(R&)) { return {f, K::Count, c}; }
MegatronFlag toggle(const char* f, bool& (*b)(R&)) { return {f, K::Switch, nullptr, b}; }
MegatronFlag choice(const char* f, std::string& (*w)(R&), std::vector<const char*> choices) {
    return {f, K::Choice, nullptr, nullptr, w, nullptr, std::move(choices)};
}

/// Megatron-LM's --recompute-modules words.
const std::vector<const char*> kRecomputeModules = {
    "core_attn", "moe_act", "layernorm", "mla_up_proj", "mlp", "moe", "shared_experts", "mlp_act"};

/// Every flag the reader knows (a flag not listed is reported in the notes, not costed).
const std::vector<MegatronFlag>& megatronFlags() {
    static const std::vector<MegatronFlag> flags = {
        // Parallel layout.
        count("--tensor-model-parallel-size", [](R& r) -> int& { return r.plan.tp; }),
        count("--pipeline-model-parallel-size", [](R& r) -> int& { return r.plan.pp; }),
        count("--context-parallel-size", [](R& r) -> int& { return r.plan.cp; }),
        count("--expert-model-parallel-size", [](R& r) -> int& { return r.plan.ep; }),
        count("--expert-tensor-parallel-size", [](R& r) -> int& { return r.etp; }),
        count("--num-virtual-stages-per-pipeline-rank", [](R& r) -> int& { return r.vpPerRank; }),
        count("--virtual-pipeline-model-parallel-size", [](R& r) -> int& { return r.vpConfig; }),
        count("--num-layers-per-virtual-pipeline-stage",
              [](R& r) -> int& { return r.layersPerChunk; }),
        count("--decoder-first-pipeline-num-layers",
              [](R& r) -> int& { return r.plan.firstStageLayers; }),
        count("--decoder-last-pipeline-num-layers",
              [](R& r) -> int& { return r.plan.lastStageLayers; }),
        // Batch and sequence.
        count("--micro-batch-size", [](R& r) -> int& { return r.plan.mbs; }),
        count("--global-batch-size", [](R& r) -> int& { return r.globalBatch; }),
        count("--seq-length", [](R& r) -> int& { return r.seqLen; }),
        // Sharding, sequence parallelism, recomputation.
        toggle("--use-megatron-fsdp", [](R& r) -> bool& { return r.plan.fsdp; }),
        toggle("--use-custom-fsdp", [](R& r) -> bool& { return r.plan.fsdp; }),
        toggle("--use-torch-fsdp2", [](R& r) -> bool& { return r.torchFsdp; }),
        choice("--data-parallel-sharding-strategy",
               [](R& r) -> std::string& { return r.shardingStrategy; },
               {"no_shard", "optim", "optim_grads", "optim_grads_params"}),
        toggle("--use-distributed-optimizer",
               [](R& r) -> bool& { return r.plan.distributedOptimizer; }),
        toggle("--overlap-grad-reduce", [](R& r) -> bool& { return r.overlapGrad; }),
        toggle("--overlap-param-gather", [](R& r) -> bool& { return r.overlapParam; }),
        toggle("--sequence-parallel", [](R& r) -> bool& { return r.plan.sequenceParallel; }),
        choice("--recompute-granularity", [](R& r) -> std::string& { return r.granularity; },
               {"full", "selective"}),
        {"--recompute-modules", K::Choices, nullptr, nullptr, nullptr,
         [](R& r) -> std::vector<std::string>& { return r.modules; }, kRecomputeModules},
        choice("--recompute-method", [](R& r) -> std::string& { return r.recomputeMethod; },
               {"uniform", "block"}),
        count("--recompute-num-layers", [](R& r) -> int& { return r.recomputeLayers; }),
        // Precision.
        toggle("--bf16", [](R& r) -> bool& { return r.bf16; }),
        choice("--fp8-format", [](R& r) -> std::string& { return r.fp8Format; },
               {"e4m3", "hybrid"}),
        choice("--fp8-recipe", [](R& r) -> std::string& { return r.fp8Recipe; },
               {"tensorwise", "delayed", "mxfp8", "blockwise", "custom"}),
        choice("--fp4-format", [](R& r) -> std::string& { return r.fp4Format; }, {"e2m1"}),
        choice("--fp4-recipe", [](R& r) -> std::string& { return r.fp4Recipe; },
               {"nvfp4", "custom"}),
        // The model, checked against the model file.
        count("--num-layers", [](R& r) -> int& { return r.layers; }),
        count("--hidden-size", [](R& r) -> int& { return r.hidden; }),
        count("--num-attention-heads", [](R& r) -> int& { return r.heads; }),
        toggle("--group-query-attention", [](R& r) -> bool& { return r.gqa; }),
        count("--num-query-groups", [](R& r) -> int& { return r.queryGroups; }),
        count("--kv-channels", [](R& r) -> int& { return r.kvChannels; }),
        count("--ffn-hidden-size", [](R& r) -> int& { return r.ffn; }),
        toggle("--swiglu", [](R& r) -> bool& { return r.swiglu; }),
        // Architecture flags of the launch script (read, not costed).
        choice("--normalization", [](R& r) -> std::string& { return r.normalization; },
               {"LayerNorm", "RMSNorm"}),
        choice("--position-embedding-type", [](R& r) -> std::string& { return r.positions; },
               {"learned_absolute", "rope", "mrope", "relative", "none"}),
        count("--rotary-base", [](R& r) -> int& { return r.rotaryBase; }),
        toggle("--untie-embeddings-and-output-weights", [](R& r) -> bool& { return r.untied; }),
        toggle("--disable-bias-linear", [](R& r) -> bool& { return r.noBias; }),
        toggle("--add-qkv-bias", [](R& r) -> bool& { return r.qkvBias; }),
        toggle("--qk-layernorm", [](R& r) -> bool& { return r.qkLayernorm; }),
        // Multi-latent attention, checked against the model file.
        toggle("--multi-latent-attention", [](R& r) -> bool& { return r.mla; }),
        count("--q-lora-rank", [](R& r) -> int& { return r.qLoraRank; }),
        count("--kv-lora-rank", [](R& r) -> int& { return r.kvLoraRank; }),
        count("--qk-head-dim", [](R& r) -> int& { return r.qkHeadDim; }),
        count("--qk-pos-emb-head-dim", [](R& r) -> int& { return r.qkPosEmbHeadDim; }),
        count("--v-head-dim", [](R& r) -> int& { return r.vHeadDim; }),
        count("--vocab-size", [](R& r) -> int& { return r.vocab; }),
        count("--make-vocab-size-divisible-by", [](R& r) -> int& { return r.vocabDivisor; }),
        count("--max-position-embeddings", [](R& r) -> int& { return r.maxPositions; }),
        count("--num-experts", [](R& r) -> int& { return r.experts; }),
        count("--moe-router-topk", [](R& r) -> int& { return r.topK; }),
        count("--moe-ffn-hidden-size", [](R& r) -> int& { return r.expertFfn; }),
        count("--moe-shared-expert-intermediate-size", [](R& r) -> int& { return r.sharedFfn; }),
        choice("--moe-layer-freq", [](R& r) -> std::string& { return r.moeLayerFreq; }, {}),
        // The kernels and overlaps the costing assumes (megatronArguments writes them).
        choice("--moe-token-dispatcher-type", [](R& r) -> std::string& { return r.dispatcher; },
               {"allgather", "alltoall", "flex", "alltoall_seq"}),
        toggle("--moe-grouped-gemm", [](R& r) -> bool& { return r.groupedGemm; }),
        toggle("--moe-shared-expert-overlap", [](R& r) -> bool& { return r.sharedOverlap; }),
        toggle("--tp-comm-overlap", [](R& r) -> bool& { return r.tpCommOverlap; }),
        choice("--attention-backend", [](R& r) -> std::string& { return r.attentionBackend; },
               {"flash", "fused", "unfused", "local", "auto"}),
    };
    return flags;
}

/// "a, b or c".
std::string choiceList(const std::vector<const char*>& choices) {
    std::string s;
    for (size_t i = 0; i < choices.size(); ++i)
        s += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + std::string(choices[i]);
    return s;
}

bool isFlag(const std::string& w) { return w.size() > 2 && w.rfind("--", 0) == 0; }

/// Reads the value(s) of `f` (the attached --flag=value `attached`, else from words[i + 1...],
/// advancing `i`) into `r`; `canonical` is the value as compared for a flag given twice.
bool readFlag(const MegatronFlag& f, const std::string* attached,
              const std::vector<std::string>& words, size_t& i, R& r, std::string& canonical,
              std::string& error) {
    const std::string name = f.flag;
    if (f.kind == K::Switch) {
        if (attached) {
            error = name + " takes no value (got \"" + *attached + "\")";
            return false;
        }
        f.on(r) = true;
        return true;
    }
    std::vector<std::string> values;
    if (attached) {
        values.push_back(*attached);
    } else {
        while (i + 1 < words.size() && !isFlag(words[i + 1])) {
            values.push_back(words[++i]);
            if (f.kind != K::Choices) break;
        }
    }
    if (values.empty()) {
        error = name + " needs a value";
        return false;
    }
    for (const std::string& v : values) {
        if (f.choices.empty() ||
            std::any_of(f.choices.begin(), f.choices.end(), [&](const char* c) { return v == c; }))
            continue;
        error = name + " must be " + choiceList(f.choices) + " (got \"" + v + "\")";
        return false;
    }
    for (const std::string& v : values) canonical += (canonical.empty() ? "" : " ") + v;
    if (f.kind == K::Choice) {
        f.word(r) = values.front();
        return true;
    }
    if (f.kind == K::Choices) {
        f.words(r) = values;
        return true;
    }
    const std::string& v = values.front();
    try {
        size_t used = 0;
        const int x = std::stoi(v, &used);
        if (used != v.size() || x < 1) throw std::invalid_argument("");
        f.count(r) = x;
        canonical = std::to_string(x);
    } catch (const std::exception&) {
        error = name + " must be a positive integer (got \"" + v + "\")";
        return false;
    }
    return true;
}

/// The checkpointing mode of --recompute-granularity and --recompute-modules.
Checkpointing recomputation(const std::string& granularity,
                            const std::vector<std::string>& modules) {
    if (granularity.empty()) return Checkpointing::None;
    if (granularity == "full") return Checkpointing::Full;
    // Megatron's default module list is core_attn alone; mlp / moe recompute the whole MLP,
    // layernorm / moe_act the norms and the activation function.
    auto has = [&](const char* m) {
        return std::find(modules.begin(), modules.end(), m) != modules.end();
    };
    return has("mlp") || has("moe")                               ? Checkpointing::SuperSelective
           : has("layernorm") || has("moe_act") || has("mlp_act") ? Checkpointing::Selective
                                                                  : Checkpointing::CoreAttention;
}

/// Which blocks are MoE (true) in --moe-layer-freq: an integer N (every N-th block, from the
/// first) or a Python list expression of 0/1 terms, "[1,0,1]" or "([0]*3+[1]*58)". False when
/// the text is neither.
bool moeLayerPattern(std::string text, int layers, std::vector<bool>& moe) {
    text.erase(std::remove_if(text.begin(), text.end(),
                              [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
               text.end());
    moe.clear();
    auto integer = [](const std::string& s, int& out) {
        if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c));
            }))
            return false;
        out = std::stoi(s);
        return true;
    };
    int every = 0;
    if (integer(text, every)) {
        if (every < 1) return false;
        for (int l = 0; l < layers; ++l) moe.push_back(l % every == 0);
        return true;
    }
    if (text.size() >= 2 && text.front() == '(' && text.back() == ')')
        text = text.substr(1, text.size() - 2);
    size_t i = 0;
    while (i < text.size()) {
        if (text[i] != '[') return false;
        const size_t close = text.find(']', i);
        if (close == std::string::npos) return false;
        std::vector<bool> items;
        size_t a = i + 1;
        while (a < close) {
            size_t b = text.find(',', a);
            if (b == std::string::npos || b > close) b = close;
            int v = 0;
            if (!integer(text.substr(a, b - a), v) || v > 1) return false;
            items.push_back(v == 1);
            a = b + 1;
        }
        i = close + 1;
        int times = 1;
        if (i < text.size() && text[i] == '*') {
            size_t e = i + 1;
            while (e < text.size() && std::isdigit(static_cast<unsigned char>(text[e]))) ++e;
            if (!integer(text.substr(i + 1, e - i - 1), times)) return false;
            i = e;
        }
        if (moe.size() + items.size() * size_t(times) > 1000000) return false;
        for (int t = 0; t < times; ++t) moe.insert(moe.end(), items.begin(), items.end());
        if (i < text.size() && text[i] != '+') return false;
        if (i < text.size()) ++i;
    }
    return !moe.empty();
}

/// Head width of `g` as --kv-channels states it.
int headWidth(const Geometry& g) { return g.headDim > 0 ? g.headDim : g.dModel / g.nHead; }

/// Megatron-LM's defaults of the MLA widths (megatron/training/arguments.py): --q-lora-rank
/// None (full rank, 0 here), --kv-lora-rank 32, --qk-head-dim 128, --qk-pos-emb-head-dim 64,
/// --v-head-dim 128.
struct LatentWidth {
    const char* flag;
    int megatronDefault;
    int R::*given;
    int Geometry::*model;
    const char* field;  ///< the config's name
};
const LatentWidth kLatentWidths[] = {
    {"--q-lora-rank", 0, &R::qLoraRank, &Geometry::qLoraRank, "q_lora_rank"},
    {"--kv-lora-rank", 32, &R::kvLoraRank, &Geometry::kvLoraRank, "kv_lora_rank"},
    {"--qk-head-dim", 128, &R::qkHeadDim, &Geometry::qkNopeHeadDim, "qk_nope_head_dim"},
    {"--qk-pos-emb-head-dim", 64, &R::qkPosEmbHeadDim, &Geometry::qkRopeHeadDim,
     "qk_rope_head_dim"},
    {"--v-head-dim", 128, &R::vHeadDim, &Geometry::vHeadDim, "v_head_dim"},
};

/// False + `error` when the multi-latent attention flags of `r` contradict `g`:
/// --multi-latent-attention for a model without MLA, or an MLA width (given, or Megatron-LM's
/// default where --multi-latent-attention is given without it) other than the model's.
bool checkLatentAttention(const R& r, const Geometry& g, std::string& error) {
    if (r.mla && g.mla != 1) {
        error = "--multi-latent-attention contradicts the model file (standard attention with " +
                std::to_string(g.nKvHead) + " key/value heads)";
        return false;
    }
    if (g.mla != 1) return true;  // the widths mean nothing without --multi-latent-attention
    // The widths given first, then Megatron-LM's defaults of those left out.
    for (const bool defaults : {false, true})
        for (const LatentWidth& w : kLatentWidths) {
            const int model = g.*(w.model);
            const int given = r.*(w.given);
            if (model == 0 && w.megatronDefault != 0) continue;  // not stated by the model file
            if ((given > 0) == defaults) continue;
            const int built = given > 0 ? given : r.mla ? w.megatronDefault : model;
            if (built == model) continue;
            const std::string what =
                model == 0 ? std::string("a full-rank query projection, q_lora_rank null")
                           : std::string(w.field) + " " + std::to_string(model);
            error = given > 0 ? std::string(w.flag) + " " + std::to_string(given) +
                                    " contradicts the model file (" + what + ")"
                              : std::string(w.flag) + " not given: Megatron-LM builds " +
                                    (built == 0 ? std::string("a full-rank query projection")
                                                : std::to_string(built)) +
                                    ", which contradicts the model file (" + what + ")";
            return false;
        }
    return true;
}

/// False + `error` when a model flag given in `r` contradicts `g`.
bool checkModel(const R& r, const Geometry& g, std::string& error) {
    auto same = [&](const char* flag, int given, int model, const std::string& what) {
        if (given == 0 || given == model) return true;
        error = std::string(flag) + " " + std::to_string(given) + " contradicts the model file (" +
                what + ")";
        return false;
    };
    const bool moe = g.experts > 0;
    const std::string dense = "a dense model, no experts";
    if (!same("--num-layers", r.layers, g.layers, std::to_string(g.layers) + " layers") ||
        !same("--hidden-size", r.hidden, g.dModel, "hidden size " + std::to_string(g.dModel)) ||
        !same("--num-attention-heads", r.heads, g.nHead,
              std::to_string(g.nHead) + " attention heads") ||
        !same("--num-query-groups", r.queryGroups, g.nKvHead,
              std::to_string(g.nKvHead) + " key/value heads") ||
        !same("--kv-channels", r.kvChannels, headWidth(g),
              "head width " + std::to_string(headWidth(g))) ||
        !same("--ffn-hidden-size", r.ffn, g.dFf, "FFN width " + std::to_string(g.dFf)) ||
        !same("--vocab-size", r.vocab, g.vocab, "vocabulary " + std::to_string(g.vocab)) ||
        !same("--num-experts", r.experts, g.experts,
              moe ? std::to_string(g.experts) + " experts" : dense) ||
        !same("--moe-router-topk", r.topK, g.topK,
              moe ? "top-" + std::to_string(g.topK) + " routing" : dense) ||
        !same("--moe-ffn-hidden-size", r.expertFfn, g.dExpert,
              moe ? "expert width " + std::to_string(g.dExpert) : dense) ||
        !same("--moe-shared-expert-intermediate-size", r.sharedFfn, g.sharedExperts * g.dExpert,
              moe ? std::to_string(g.sharedExperts) + " shared experts of width " +
                        std::to_string(g.dExpert)
                  : dense))
        return false;
    if (!checkLatentAttention(r, g, error)) return false;
    if (r.swiglu && g.denseFfnMatrices != 3) {
        error = "--swiglu contradicts the model file (a GeLU MLP, 2 matrices)";
        return false;
    }
    if (!r.moeLayerFreq.empty()) {
        std::vector<bool> pattern;
        if (!moeLayerPattern(r.moeLayerFreq, g.layers, pattern)) {
            error = "--moe-layer-freq must be an integer or a list such as ([0]*3+[1]*58) (got \"" +
                    r.moeLayerFreq + "\")";
            return false;
        }
        std::vector<bool> model(size_t(std::max(0, g.layers)), moe);
        for (int l = 0; l < g.denseLayers && l < g.layers; ++l) model[size_t(l)] = false;
        if (pattern != model) {
            error = "--moe-layer-freq " + r.moeLayerFreq + " contradicts the model file (" +
                    (moe ? std::to_string(g.denseLayers) + " dense blocks, then " +
                               std::to_string(g.layers - g.denseLayers) + " MoE blocks"
                         : dense) +
                    ")";
            return false;
        }
    }
    return true;
}

}  // namespace

long long megatronPaddedVocab(long long vocab, int divisibleBy, int tp) {
    const long long multiple = 1LL * std::max(1, divisibleBy) * std::max(1, tp);
    return (vocab + multiple - 1) / multiple * multiple;
}

Plan megatronPipelineSplit(const Geometry& g, const Plan& p) {
    Plan out = p;
    const int L = g.layers, pp = p.pp;
    if (pp < 2 || p.vp > 1 || p.firstStageLayers > 0 || p.lastStageLayers > 0 || L % pp == 0 ||
        L < pp)
        return out;
    // The balanced split (PerfModel::stageLayers): L mod PP stages hold ceil(L / PP) layers, the
    // others floor(L / PP), the last among the latter. Megatron-LM's flags leave the middle
    // stages equal, so they state it where one stage alone differs from the others.
    const int r = L % pp, ceil = L / pp + 1, floor = L / pp;
    if (r == pp - 1)
        out.lastStageLayers = floor;  // every stage but the last holds ceil(L / PP)
    else if (r == 1)
        out.firstStageLayers = ceil;  // the first holds ceil(L / PP), the others floor
    return out;
}

std::string pipelineSplitNote(const Geometry& g, const Plan& p) {
    const auto n = [](long long v) { return std::to_string(v); };
    const int L = g.layers, pp = std::max(1, p.pp), chunks = pp * std::max(1, p.vp);
    if (p.firstStageLayers > 0 || p.lastStageLayers > 0 || chunks < 2 || L % chunks == 0) return {};
    const Plan split = megatronPipelineSplit(g, p);
    const int ceil = (L + chunks - 1) / chunks;
    if (split.firstStageLayers > 0 || split.lastStageLayers > 0) {
        const bool last = split.lastStageLayers > 0;
        const int r = L % pp;
        return "the " + n(L) + " layers do not divide over PP " + n(pp) + ": the plan costs " +
               n(r) + " stage" + (r == 1 ? "" : "s") + " of " + n(L / pp + 1) + " layers and " +
               n(pp - r) + " of " + n(L / pp) + ", which the launch script states with " +
               (last ? "--decoder-last-pipeline-num-layers " + n(split.lastStageLayers)
                     : "--decoder-first-pipeline-num-layers " + n(split.firstStageLayers) +
                           " (the plan costs a middle stage at " + n(L / pp + 1) +
                           " layers, one more than Megatron-LM places there)");
    }
    return "the launch script is not runnable as written: Megatron-LM refuses " + n(L) +
           " layers over PP x VP = " + n(chunks) +
           " model chunks (they do not divide); the plan costs a balanced split (" + n(ceil) +
           " layers on the fullest chunk), which --decoder-first- / "
           "--decoder-last-pipeline-num-layers " +
           (p.vp > 1 ? "do not state with VP > 1 (the plan costs them with VP 1)"
                     : "cannot state (they leave the middle stages equal)") +
           "; place them with --pipeline-model-parallel-layout, or count the embedding and the "
           "loss as layers with --account-for-embedding-in-pipeline-split / "
           "--account-for-loss-in-pipeline-split where " +
           n(L) + " + 1 or + 2 divides";
}

std::string megatronArguments(const Geometry& g, const Cluster& c, const Plan& p,
                              std::vector<std::string>* notes) {
    auto n = [](long long v) { return std::to_string(v); };
    // The model.
    std::string a = "--num-layers " + n(g.layers) + " --hidden-size " + n(g.dModel) +
                    " --num-attention-heads " + n(g.nHead);
    if (g.nKvHead != g.nHead) a += " --group-query-attention --num-query-groups " + n(g.nKvHead);
    // The costed head width, stated where it is not d / heads.
    const int width = headWidth(g);
    if (width * g.nHead != g.dModel) a += " --kv-channels " + n(width);
    if (g.dFf > 0) a += " --ffn-hidden-size " + n(g.dFf);
    if (g.denseFfnMatrices == 3) a += " --swiglu";
    // What the description states where Megatron-LM's defaults (LayerNorm, learned absolute
    // positions, tied embeddings, biases, no Q/K norms) would build another model.
    if (g.rmsNorm >= 0) a += g.rmsNorm ? " --normalization RMSNorm" : " --normalization LayerNorm";
    if (g.rotary == 1) {
        a += " --position-embedding-type rope";
        // Megatron-LM reads --rotary-base as an integer.
        if (g.ropeTheta > 0 && g.ropeTheta == std::floor(g.ropeTheta) && g.ropeTheta < 2e9)
            a += " --rotary-base " + n(static_cast<long long>(g.ropeTheta));
    } else if (g.rotary == 0) {
        a += " --position-embedding-type learned_absolute";
    }
    if (g.tiedEmbeddings == 0) a += " --untie-embeddings-and-output-weights";
    if (g.linearBias == 0) a += " --disable-bias-linear";
    if (g.linearBias == 1) a += " --disable-bias-linear --add-qkv-bias";
    if (g.qkNorm == 1) a += " --qk-layernorm";
    // Multi-latent attention with the model's widths (Megatron-LM's defaults are another model).
    if (g.mla == 1) {
        // The widths of kLatentWidths, the reader's table; a width whose Megatron-LM default is
        // 0 (the full-rank query, --q-lora-rank) may be absent from the model and is then left out.
        std::string missing, flags;
        for (const LatentWidth& w : kLatentWidths) {
            const int width = g.*(w.model);
            if (width > 0)
                flags += " " + std::string(w.flag) + " " + n(width);
            else if (w.megatronDefault != 0)
                missing += (missing.empty() ? "" : ", ") + std::string(w.field);
        }
        if (missing.empty()) {
            a += " --multi-latent-attention" + flags;
        } else if (notes) {
            notes->push_back(
                "the model has multi-latent attention, but its description does not state " +
                missing +
                ": the script leaves out --multi-latent-attention and its widths (Megatron-LM "
                "builds standard attention); add them with the model's values");
        }
    }
    a += " --vocab-size " + n(g.vocab);
    // Megatron-LM pads the vocabulary to a multiple of --make-vocab-size-divisible-by x TP
    // (megatronPaddedVocab); the plan costs V itself, so a divisor that keeps V is stated where
    // the default 128 would pad: the largest power of two up to 128 dividing V / TP.
    if (megatronPaddedVocab(g.vocab, kMegatronVocabDivisor, p.tp) != g.vocab) {
        int divisor = 1;
        if (g.vocab % p.tp == 0)
            while (divisor < kMegatronVocabDivisor && (g.vocab / p.tp) % (2 * divisor) == 0)
                divisor *= 2;
        a += " --make-vocab-size-divisible-by " + n(divisor);
        if (notes && g.vocab % p.tp != 0)
            notes->push_back("Megatron-LM pads the vocabulary of " + n(g.vocab) + " to " +
                             n(megatronPaddedVocab(g.vocab, 1, p.tp)) + " (a multiple of TP " +
                             n(p.tp) + "); the plan costs " + n(g.vocab));
    }
    if (g.experts > 0) {
        a += " --num-experts " + n(g.experts) + " --moe-router-topk " + n(g.topK) +
             " --moe-ffn-hidden-size " + n(g.dExpert);
        if (g.sharedExperts > 0)
            a += " --moe-shared-expert-intermediate-size " + n(g.sharedExperts * g.dExpert);
        a += g.denseLayers > 0 ? " --moe-layer-freq '([0]*" + n(g.denseLayers) + "+[1]*" +
                                     n(g.layers - g.denseLayers) + ")'"
                               : std::string(" --moe-layer-freq 1");
        // What the costing assumes: the experts' grouped GEMM, the all-to-all dispatcher
        // (Megatron-LM's default is allgather) and the shared expert overlapping it.
        a += " --moe-grouped-gemm --moe-token-dispatcher-type alltoall";
        if (g.sharedExperts > 0) a += " --moe-shared-expert-overlap";
    }
    a += " --seq-length " + n(c.seqLen) + " --max-position-embeddings " + n(c.seqLen);
    // The parallel layout.
    a += " --tensor-model-parallel-size " + n(p.tp) + " --pipeline-model-parallel-size " + n(p.pp);
    // VP stated directly: --num-layers-per-virtual-pipeline-stage cannot say VP 2 over 61 layers.
    if (p.vp > 1) a += " --num-virtual-stages-per-pipeline-rank " + n(p.vp);
    // The split Megatron-LM runs: the plan's, with the balanced split of layers that do not
    // divide stated where --decoder-first- / --decoder-last-pipeline-num-layers express it.
    const Plan split = megatronPipelineSplit(g, p);
    if (split.firstStageLayers > 0)
        a += " --decoder-first-pipeline-num-layers " + n(split.firstStageLayers);
    if (split.lastStageLayers > 0)
        a += " --decoder-last-pipeline-num-layers " + n(split.lastStageLayers);
    a += " --context-parallel-size " + n(p.cp);
    // The costed expert TP, stated: Megatron-LM would default it to TP.
    if (g.experts > 0)
        a += " --expert-model-parallel-size " + n(p.ep) + " --expert-tensor-parallel-size " +
             n(p.etp);
    // The batch the layout runs (evaluateLayout's rounding when DP x B_micro does not divide).
    const bool round = p.dp > 0 && p.mbs > 0 && c.globalBatch % (p.dp * p.mbs) != 0;
    a += " --micro-batch-size " + n(p.mbs) + " --global-batch-size " +
         n(clusterForPlan(c, p, round).globalBatch);
    // Megatron-LM uses sequence parallelism only with TP > 1 (it turns the flag off at TP 1).
    if (p.sequenceParallel && p.tp > 1) a += " --sequence-parallel";
    // The TP collectives the stack hides behind the GEMMs (Transformer Engine userbuffers; needs
    // sequence parallelism).
    if (p.sequenceParallel && p.tp > 1 && c.stack.tpOverlap > 0) a += " --tp-comm-overlap";
    // A stack costed without flash attention (megatron-lm-2022: arXiv:2205.05198's kernels
    // store the s x s attention scores) runs Megatron's own core attention, not the flash
    // kernel Megatron-LM picks by default (--attention-backend auto).
    if (!c.stack.flashAttention) a += " --attention-backend local";
    if (p.fsdp)
        a += " --use-megatron-fsdp --data-parallel-sharding-strategy optim_grads_params";
    else if (p.distributedOptimizer)
        a += " --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather";
    switch (p.ckpt) {
        case Checkpointing::None:
            break;
        case Checkpointing::CoreAttention:
            a += " --recompute-granularity selective --recompute-modules core_attn";
            break;
        case Checkpointing::Selective:
            // The norms and the MLP / expert activation function recomputed with the core.
            a += " --recompute-granularity selective --recompute-modules core_attn layernorm";
            if (g.experts > 0) a += " moe_act";
            break;
        case Checkpointing::SuperSelective:
            a += " --recompute-granularity selective --recompute-modules core_attn mlp";
            break;
        case Checkpointing::Full:
            a +=
                " --recompute-granularity full --recompute-method uniform --recompute-num-layers 1";
            break;
    }
    a += " --bf16";
    switch (c.precision) {
        case Precision::Bf16:
            break;
        case Precision::Fp8:
            a += " --fp8-format hybrid --fp8-recipe tensorwise";
            break;
        case Precision::Mxfp8:
            a += " --fp8-format e4m3 --fp8-recipe mxfp8";
            break;
        case Precision::Nvfp4:
            a += " --fp4-format e2m1 --fp4-recipe nvfp4";
            break;
    }
    return a;
}

namespace {

/// The name of a Megatron-LM flag parseMegatronArguments reads (--flag or --flag=value), or "".
std::string megatronFlagName(const std::string& w) {
    if (!isFlag(w)) return {};
    const std::string name = w.substr(0, w.find('='));
    const auto& flags = megatronFlags();
    return std::any_of(flags.begin(), flags.end(),
                       [&](const MegatronFlag& m) { return name == m.flag; })
               ? name
               : std::string();
}

/// The words bash passes to the launch command of `commands`: the one command that carries
/// Megatron-LM flags and is started by a program (a word that is no --flag), with the arrays
/// the script assigns but never expands. A file with no such command is a list of arguments:
/// all its words. False + `error` (with the lines) when two commands carry Megatron-LM flags
/// or, beside a launch command, a --flag starts a command of its own (bash would run it as a
/// program: the line before does not continue).
bool launchWords(const std::vector<ScriptCommand>& commands, std::vector<std::string>& words,
                 std::string& error) {
    words.clear();
    auto line = [](int l) { return "line " + std::to_string(l); };
    // The commands started by a program that carry Megatron-LM flags, or else any --flag.
    size_t launch = commands.size();
    bool launchKnown = false;
    for (size_t k = 0; k < commands.size(); ++k) {
        const ScriptCommand& cmd = commands[k];
        if (cmd.array || isFlag(cmd.words.front())) continue;
        std::string first;
        bool anyFlag = false;
        for (size_t i = 0; i < cmd.words.size() && first.empty(); ++i) {
            first = megatronFlagName(cmd.words[i]);
            if (!first.empty() && launch < commands.size() && launchKnown) {
                const ScriptCommand& a = commands[launch];
                std::string before;
                int beforeLine = a.lines.front();
                for (size_t j = 0; j < a.words.size() && before.empty(); ++j) {
                    before = megatronFlagName(a.words[j]);
                    beforeLine = a.lines[j];
                }
                error = line(beforeLine) + " and " + line(cmd.lines[i]) +
                        " are two separate commands that both carry Megatron-LM flags (" + before +
                        ", " + first + "): bash passes each command only its own words";
                return false;
            }
            anyFlag = anyFlag || isFlag(cmd.words[i]);
        }
        if (!first.empty()) {
            launch = k;
            launchKnown = true;
        } else if (anyFlag && launch == commands.size()) {
            launch = k;
        }
    }
    if (launch == commands.size()) {  // a list of arguments
        for (const auto& c : commands) words.insert(words.end(), c.words.begin(), c.words.end());
        return true;
    }
    for (size_t k = 0; k < commands.size(); ++k) {
        const ScriptCommand& cmd = commands[k];
        if (!cmd.array && isFlag(cmd.words.front())) {
            error = line(cmd.lines.front()) + ": " + cmd.words.front() +
                    " starts a command of its own: the line before does not continue (a comment "
                    "or a space after the backslash ends the command), so bash would not pass it "
                    "to the launch command on " +
                    line(commands[launch].lines.front());
            return false;
        }
        if (k == launch || cmd.array) words.insert(words.end(), cmd.words.begin(), cmd.words.end());
    }
    return true;
}

}  // namespace

bool parseMegatronArguments(const std::string& text, const Geometry& g, Cluster& c, Plan& p,
                            std::string& error, std::vector<std::string>* notes) {
    std::vector<ScriptCommand> commands;
    if (!scriptCommands(text, commands, error)) return false;
    std::vector<std::string> words;
    if (!launchWords(commands, words, error)) return false;
    if (words.empty()) {
        error = "the file has no arguments (it is empty or only comments)";
        return false;
    }
    ReadFlags r;
    // Megatron's defaults: replicated optimizer state, no sequence parallelism.
    r.plan.distributedOptimizer = false;
    r.plan.sequenceParallel = false;
    r.globalBatch = c.globalBatch;
    r.seqLen = c.seqLen;
    std::map<std::string, std::string> given;  // flag -> its value as first given
    std::vector<std::string> unknown;
    bool anyFlag = false;
    const auto& flags = megatronFlags();
    for (size_t i = 0; i < words.size(); ++i) {
        if (!isFlag(words[i])) continue;  // the launcher, the script, a value of a skipped flag
        anyFlag = true;
        const auto eq = words[i].find('=');
        const std::string name = words[i].substr(0, eq);
        const std::string attachedValue =
            eq == std::string::npos ? std::string() : words[i].substr(eq + 1);
        const auto f = std::find_if(flags.begin(), flags.end(),
                                    [&](const MegatronFlag& m) { return name == m.flag; });
        if (f == flags.end()) {
            if (std::find(unknown.begin(), unknown.end(), name) == unknown.end())
                unknown.push_back(name);
            continue;
        }
        std::string canonical;
        if (!readFlag(*f, eq == std::string::npos ? nullptr : &attachedValue, words, i, r,
                      canonical, error))
            return false;
        const auto [it, first] = given.emplace(name, canonical);
        if (!first && it->second != canonical) {
            error = name + " is given twice with different values (\"" + it->second + "\" and \"" +
                    canonical + "\")";
            return false;
        }
    }
    if (!anyFlag) {
        error = "the file has no --flags (Megatron-LM arguments)";
        return false;
    }
    if (!checkModel(r, g, error)) return false;
    if (r.globalBatch > kMaxGlobalBatch || r.seqLen > kMaxSeqLen) {
        const bool batch = r.globalBatch > kMaxGlobalBatch;
        error = std::string(batch ? "--global-batch-size" : "--seq-length") + " must be at most " +
                std::to_string(batch ? kMaxGlobalBatch : kMaxSeqLen) + " (got " +
                std::to_string(batch ? r.globalBatch : r.seqLen) + ")";
        return false;
    }
    p = r.plan;
    std::vector<std::string> costedAs;  // notes on what is costed other than Megatron-LM runs
    // Expert TP: Megatron-LM's default is TP (megatron/training/arguments.py). A stack that
    // folds experts costs it; one that does not costs unsplit experts (ETP 1) whatever TP is.
    const bool moe = g.experts > 0;
    if (moe && c.stack.expertFolding) {
        p.etp = r.etp > 0 ? r.etp : p.tp;
    } else if (moe) {
        const int megatronEtp = r.etp > 0 ? r.etp : p.tp;
        p.etp = r.etp > 0 ? r.etp : 1;
        if (r.etp == 0 && megatronEtp > 1)
            costedAs.push_back(
                "--expert-tensor-parallel-size not given: Megatron-LM splits the "
                "experts over ETP = TP = " +
                std::to_string(megatronEtp) + "; the " + c.stack.name +
                " stack does not fold experts and costs them unsplit (ETP 1; "
                "the megatron-core stack costs ETP)");
    } else if (r.etp > 0) {
        p.etp = r.etp;
    }
    // An all-gather token dispatcher moves the tokens other than the costed all-to-all.
    if (moe && r.dispatcher == "allgather" && p.ep > 1)
        costedAs.push_back(
            "--moe-token-dispatcher-type allgather: the plan costs the expert all-to-all "
            "(alltoall)");
    // The vocabulary Megatron-LM builds against the one the plan costs.
    const int divisor = r.vocabDivisor > 0 ? r.vocabDivisor : kMegatronVocabDivisor;
    if (const long long padded = megatronPaddedVocab(g.vocab, divisor, p.tp); padded != g.vocab)
        costedAs.push_back("Megatron-LM pads the vocabulary of " + std::to_string(g.vocab) +
                           " to " + std::to_string(padded) +
                           " (a multiple of --make-vocab-size-divisible-by " +
                           std::to_string(divisor) + " x TP " + std::to_string(p.tp) +
                           "); the plan costs " + std::to_string(g.vocab));
    // Megatron FSDP shards what --data-parallel-sharding-strategy says: optim_grads_params (or
    // not given) all three, the plan's FSDP; optim the optimizer state alone, the distributed
    // optimizer (ZeRO-1); no_shard nothing beyond --use-distributed-optimizer; optim_grads is
    // costed as optim, with a note. PyTorch FSDP2 shards all three.
    if (p.fsdp && !r.shardingStrategy.empty() && r.shardingStrategy != "optim_grads_params") {
        p.fsdp = false;
        if (r.shardingStrategy != "no_shard") p.distributedOptimizer = true;
        if (r.shardingStrategy == "optim_grads")
            costedAs.push_back(
                "--data-parallel-sharding-strategy optim_grads is costed as optim "
                "(optimizer state sharded, gradients not)");
    }
    p.fsdp = p.fsdp || r.torchFsdp;
    if (p.fsdp) p.distributedOptimizer = true;
    p.ckpt = recomputation(r.granularity, r.modules);
    // VP: stated (--num-virtual-stages-per-pipeline-rank, or the config name), or from the
    // layers per chunk, which Megatron accepts only where the layers split evenly.
    if (r.vpPerRank > 0 && r.vpConfig > 0 && r.vpPerRank != r.vpConfig) {
        error = "--num-virtual-stages-per-pipeline-rank " + std::to_string(r.vpPerRank) +
                " and --virtual-pipeline-model-parallel-size " + std::to_string(r.vpConfig) +
                " disagree";
        return false;
    }
    const int vp = std::max(r.vpPerRank, r.vpConfig);
    if (r.layersPerChunk > 0) {
        const std::string flag =
            "--num-layers-per-virtual-pipeline-stage " + std::to_string(r.layersPerChunk);
        if (vp > 0) {
            error = flag + " and --num-virtual-stages-per-pipeline-rank cannot both be given";
            return false;
        }
        if (p.firstStageLayers > 0 || p.lastStageLayers > 0) {
            error = flag +
                    " cannot be used with an uneven pipeline split (Megatron-LM: state VP "
                    "with --num-virtual-stages-per-pipeline-rank)";
            return false;
        }
        if (g.layers % p.pp != 0 || (g.layers / p.pp) % r.layersPerChunk != 0) {
            error = flag + ": the " + std::to_string(g.layers) + " layers do not split into " +
                    std::to_string(p.pp) + " pipeline stages of whole chunks of " +
                    std::to_string(r.layersPerChunk) +
                    " (Megatron-LM refuses it; state VP with "
                    "--num-virtual-stages-per-pipeline-rank)";
            return false;
        }
        p.vp = g.layers / p.pp / r.layersPerChunk;
    } else if (vp > 0) {
        p.vp = vp;
    }
    // First / last stage layers that state the balanced split of layers PP does not divide
    // (what megatronPipelineSplit writes) are that split: the plan they were written from.
    if (p.firstStageLayers > 0 || p.lastStageLayers > 0) {
        Plan even = p;
        even.firstStageLayers = even.lastStageLayers = 0;
        const Plan split = megatronPipelineSplit(g, even);
        if (split.firstStageLayers == p.firstStageLayers &&
            split.lastStageLayers == p.lastStageLayers)
            p = even;
    }
    c.globalBatch = r.globalBatch;
    c.seqLen = r.seqLen;
    c.precision = !r.fp4Format.empty() ? Precision::Nvfp4
                  : !r.fp8Format.empty()
                      ? (r.fp8Recipe == "mxfp8" ? Precision::Mxfp8 : Precision::Fp8)
                      : Precision::Bf16;
    const long long inner = 1LL * p.tp * p.cp * p.pp;
    if (c.devices % inner != 0) {
        error = "TP x CP x PP = " + std::to_string(inner) + " does not divide the device count " +
                std::to_string(c.devices);
        return false;
    }
    p.dp = int(c.devices / inner);
    // At TP 1 Megatron-LM has no sequence parallelism whether or not the flag is given (nor is
    // one costed: no TP replicas), and --emit megatron leaves it out there: the plan's default
    // is kept so that a written plan reads back to itself.
    if (p.tp == 1) p.sequenceParallel = Plan{}.sequenceParallel;
    if (notes && !unknown.empty()) {
        std::string s = "not modelled, not costed:";
        for (const auto& u : unknown) s += " " + u;
        notes->push_back(s);
    }
    if (notes) notes->insert(notes->end(), costedAs.begin(), costedAs.end());
    return true;
}

}  // namespace tandem::mosaic
