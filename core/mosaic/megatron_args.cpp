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
#include "mosaic/megatron_args_detail.h"

namespace tandem::mosaic {

using detail::headWidth;
using detail::kLatentWidths;
using detail::LatentWidth;
using detail::ReadFlags;
using io::ScriptCommand;

namespace {

// ---------------------------------------------------------------------------------------------
// The flags.

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
