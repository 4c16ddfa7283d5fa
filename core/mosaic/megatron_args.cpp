#include "mosaic/megatron_args.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "common/enum_names.h"

namespace tandem::mosaic {
namespace {

/// --recompute-granularity: Megatron's two choices; not given, or any other word: None.
enum class RecomputeGranularity { None, Selective, Full };

/// The words of --recompute-granularity (None has none).
const EnumTable<RecomputeGranularity>& granularityNames() {
    static const EnumTable<RecomputeGranularity> t = {
        {RecomputeGranularity::Selective, "selective"}, {RecomputeGranularity::Full, "full"}};
    return t;
}

/// The --recompute-modules that decide the checkpointing mode beyond core attention (Megatron's
/// module names); other modules (core_attn, the default, and the rest) are passed over.
enum class RecomputeModule { Layernorm, MoeAct, MlpAct, Mlp, Moe };

/// The words of --recompute-modules the reader knows.
const EnumTable<RecomputeModule>& recomputeModuleNames() {
    static const EnumTable<RecomputeModule> t = {{RecomputeModule::Layernorm, "layernorm"},
                                                 {RecomputeModule::MoeAct, "moe_act"},
                                                 {RecomputeModule::MlpAct, "mlp_act"},
                                                 {RecomputeModule::Mlp, "mlp"},
                                                 {RecomputeModule::Moe, "moe"}};
    return t;
}

/// What the flags of a launch script say, before it becomes a plan and a cluster.
struct ReadFlags {
    Plan plan;
    int globalBatch = 0, seqLen = 0;
    int layersPerChunk = 0;  ///< --num-layers-per-virtual-pipeline-stage, 0 = not given
    bool fp8 = false, mx = false, fp4 = false;
    /// --recompute-granularity (the last one given)
    RecomputeGranularity granularity = RecomputeGranularity::None;
    std::vector<RecomputeModule> modules;  ///< the known words of --recompute-modules
};

/// How a flag takes its value.
enum class FlagKind {
    Count,   ///< the next word, a positive integer (missing or not one: an error)
    Switch,  ///< no value: the flag's presence sets it
    Word,    ///< the next word, when there is one
    Words,   ///< the next words up to the next "--" flag
};

/// One flag parseMegatronArguments reads. `count` is set for Count, `on` for Switch, `word` for
/// Word and Words (called once per word).
struct MegatronFlag {
    const char* flag;
    FlagKind kind;
    int& (*count)(ReadFlags&) = nullptr;
    bool& (*on)(ReadFlags&) = nullptr;
    void (*word)(ReadFlags&, const std::string&) = nullptr;
    const char* description = "";
};

using K = FlagKind;
using R = ReadFlags;

/// Every flag the reader knows; an unknown one is passed over.
const std::vector<MegatronFlag>& megatronFlags() {
    static const std::vector<MegatronFlag> flags = {
        {"--tensor-model-parallel-size", K::Count, [](R& r) -> int& { return r.plan.tp; }},
        {"--pipeline-model-parallel-size", K::Count, [](R& r) -> int& { return r.plan.pp; }},
        {"--context-parallel-size", K::Count, [](R& r) -> int& { return r.plan.cp; }},
        {"--expert-model-parallel-size", K::Count, [](R& r) -> int& { return r.plan.ep; }},
        {"--expert-tensor-parallel-size", K::Count, [](R& r) -> int& { return r.plan.etp; }},
        {"--virtual-pipeline-model-parallel-size", K::Count,
         [](R& r) -> int& { return r.plan.vp; }},
        {"--num-layers-per-virtual-pipeline-stage", K::Count,
         [](R& r) -> int& { return r.layersPerChunk; }, nullptr, nullptr,
         "sets vp = layers / (PP x this)"},
        {"--decoder-first-pipeline-num-layers", K::Count,
         [](R& r) -> int& { return r.plan.firstStageLayers; }},
        {"--decoder-last-pipeline-num-layers", K::Count,
         [](R& r) -> int& { return r.plan.lastStageLayers; }},
        {"--micro-batch-size", K::Count, [](R& r) -> int& { return r.plan.mbs; }},
        {"--global-batch-size", K::Count, [](R& r) -> int& { return r.globalBatch; }},
        {"--seq-length", K::Count, [](R& r) -> int& { return r.seqLen; }},
        {"--use-megatron-fsdp", K::Switch, nullptr, [](R& r) -> bool& { return r.plan.fsdp; }},
        {"--use-torch-fsdp2", K::Switch, nullptr, [](R& r) -> bool& { return r.plan.fsdp; }},
        {"--use-distributed-optimizer", K::Switch, nullptr,
         [](R& r) -> bool& { return r.plan.distributedOptimizer; }},
        {"--recompute-granularity", K::Word, nullptr, nullptr,
         [](R& r, const std::string& w) {
             r.granularity =
                 enumFromName(granularityNames(), w).value_or(RecomputeGranularity::None);
         },
         "full or selective"},
        {"--recompute-modules", K::Words, nullptr, nullptr,
         [](R& r, const std::string& w) {
             if (const auto m = enumFromName(recomputeModuleNames(), w)) r.modules.push_back(*m);
         },
         "the modules selective recomputation recomputes (default core_attn)"},
        {"--sequence-parallel", K::Switch, nullptr,
         [](R& r) -> bool& { return r.plan.sequenceParallel; }},
        {"--fp8-format", K::Switch, nullptr, [](R& r) -> bool& { return r.fp8; }, nullptr,
         "FP8 GEMMs (the format word itself is passed over)"},
        {"--fp8-recipe", K::Word, nullptr, nullptr,
         [](R& r, const std::string& w) { r.mx = w == "mxfp8"; }, "mxfp8: MXFP8, else FP8"},
        {"--fp4-format", K::Switch, nullptr, [](R& r) -> bool& { return r.fp4; }},
        {"--fp4", K::Switch, nullptr, [](R& r) -> bool& { return r.fp4; }},
    };
    return flags;
}

/// The words of `text`, "--flag=value" split into "--flag" and "value".
std::vector<std::string> splitWords(const std::string& text) {
    std::vector<std::string> words;
    std::stringstream ss(text);
    std::string w;
    while (ss >> w) {
        const auto eq = w.find('=');
        if (w.rfind("--", 0) == 0 && eq != std::string::npos) {
            words.push_back(w.substr(0, eq));
            words.push_back(w.substr(eq + 1));
        } else {
            words.push_back(w);
        }
    }
    return words;
}

/// Reads the value(s) of `f` from words[i + 1...], advancing `i` past them.
bool readFlag(const MegatronFlag& f, const std::vector<std::string>& words, size_t& i, R& r,
              std::string& error) {
    switch (f.kind) {
        case K::Switch:
            f.on(r) = true;
            return true;
        case K::Word:
            if (i + 1 < words.size()) f.word(r, words[++i]);
            return true;
        case K::Words:
            while (i + 1 < words.size() && words[i + 1].rfind("--", 0) != 0) f.word(r, words[++i]);
            return true;
        case K::Count:
            break;
    }
    if (i + 1 >= words.size()) {
        error = std::string(f.flag) + " needs a value";
        return false;
    }
    const std::string& v = words[++i];
    int& out = f.count(r);
    try {
        size_t used = 0;
        out = std::stoi(v, &used);
        if (used != v.size() || out < 1) throw std::invalid_argument("");
    } catch (const std::exception&) {
        error = std::string(f.flag) + " must be a positive integer (got \"" + v + "\")";
        return false;
    }
    return true;
}

/// The checkpointing mode of --recompute-granularity and --recompute-modules.
Checkpointing recomputation(RecomputeGranularity granularity,
                            const std::vector<RecomputeModule>& modules) {
    switch (granularity) {
        case RecomputeGranularity::None:
            return Checkpointing::None;
        case RecomputeGranularity::Full:
            return Checkpointing::Full;
        case RecomputeGranularity::Selective:
            break;
    }
    // Megatron's default module list is core_attn alone; mlp / moe recompute the whole MLP,
    // layernorm / moe_act the norms and the activation function.
    auto has = [&](RecomputeModule m) {
        return std::find(modules.begin(), modules.end(), m) != modules.end();
    };
    using M = RecomputeModule;
    return has(M::Mlp) || has(M::Moe)                              ? Checkpointing::SuperSelective
           : has(M::Layernorm) || has(M::MoeAct) || has(M::MlpAct) ? Checkpointing::Selective
                                                                   : Checkpointing::CoreAttention;
}

}  // namespace

std::string megatronArguments(const Geometry& g, const Cluster& c, const Plan& p) {
    std::string a = "--tensor-model-parallel-size " + std::to_string(p.tp) +
                    " --pipeline-model-parallel-size " + std::to_string(p.pp);
    if (p.vp > 1) {
        const int perChunk = std::max(1, g.layers / (p.pp * p.vp));
        a += " --num-layers-per-virtual-pipeline-stage " + std::to_string(perChunk);
    }
    if (p.firstStageLayers > 0)
        a += " --decoder-first-pipeline-num-layers " + std::to_string(p.firstStageLayers);
    if (p.lastStageLayers > 0)
        a += " --decoder-last-pipeline-num-layers " + std::to_string(p.lastStageLayers);
    a += " --context-parallel-size " + std::to_string(p.cp);
    if (g.experts > 0)
        a += " --expert-model-parallel-size " + std::to_string(p.ep) +
             " --expert-tensor-parallel-size " + std::to_string(p.etp);
    a += " --micro-batch-size " + std::to_string(p.mbs) + " --global-batch-size " +
         std::to_string(c.globalBatch) + " --seq-length " + std::to_string(c.seqLen);
    if (p.tp > 1 && p.sequenceParallel) a += " --sequence-parallel";
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

bool parseMegatronArguments(const std::string& text, int layers, Cluster& c, Plan& p,
                            std::string& error) {
    const std::vector<std::string> words = splitWords(text);
    ReadFlags r;
    // Megatron's defaults: replicated optimizer state, no sequence parallelism.
    r.plan.distributedOptimizer = false;
    r.plan.sequenceParallel = false;
    r.globalBatch = c.globalBatch;
    r.seqLen = c.seqLen;
    for (size_t i = 0; i < words.size(); ++i) {
        const auto& flags = megatronFlags();
        const auto f = std::find_if(flags.begin(), flags.end(),
                                    [&](const MegatronFlag& m) { return words[i] == m.flag; });
        if (f != flags.end() && !readFlag(*f, words, i, r, error)) return false;
    }
    p = r.plan;
    if (p.fsdp) p.distributedOptimizer = true;
    p.ckpt = recomputation(r.granularity, r.modules);
    if (r.layersPerChunk > 0) p.vp = std::max(1, layers / (p.pp * r.layersPerChunk));
    c.globalBatch = r.globalBatch;
    c.seqLen = r.seqLen;
    c.precision = r.fp4   ? Precision::Nvfp4
                  : r.fp8 ? (r.mx ? Precision::Mxfp8 : Precision::Fp8)
                          : Precision::Bf16;
    const long long inner = 1LL * p.tp * p.cp * p.pp;
    if (c.devices % inner != 0) {
        error = "TP x CP x PP = " + std::to_string(inner) + " does not divide the device count " +
                std::to_string(c.devices);
        return false;
    }
    p.dp = int(c.devices / inner);
    return true;
}

}  // namespace tandem::mosaic
