#include "mosaic/stack.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <stdexcept>

namespace tandem::mosaic {

const EnumTable<Precision>& precisionNames() {
    static const EnumTable<Precision> t = {{Precision::Bf16, "bf16"},
                                           {Precision::Fp8, "fp8"},
                                           {Precision::Mxfp8, "mxfp8"},
                                           {Precision::Nvfp4, "nvfp4"}};
    return t;
}

const EnumTable<Precision>& precisionAliases() {
    static const EnumTable<Precision> t = {{Precision::Fp8, "fp8-cs"},
                                           {Precision::Fp8, "fp8-ds"},
                                           {Precision::Fp8, "fp8-sc"},
                                           {Precision::Mxfp8, "fp8-mx"}};
    return t;
}

const char* precisionName(Precision p) { return enumName(precisionNames(), p); }

std::string precisionNameList() {
    std::string out;
    const EnumTable<Precision>& names = precisionNames();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
        out += names[i].name;
    }
    return out;
}

bool parsePrecision(const std::string& text, Precision& out) {
    std::string t = text;
    std::transform(t.begin(), t.end(), t.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    std::optional<Precision> p = enumFromName(precisionNames(), t);
    if (!p) p = enumFromName(precisionAliases(), t);
    if (!p) return false;
    out = *p;
    return true;
}

double optimizerBytesPerParam(const Stack& s) { return 12.0 + (s.mainGradBytes < 4.0 ? 4.0 : 0.0); }

double dispatchPayloadShare(int experts, int topK, int nodes) {
    if (nodes <= 1 || experts <= 0 || topK <= 0) return 1.0;
    const double e = experts, k = std::min(topK, experts), perNode = e / nodes;
    // P(a given remote node holds none of the token's K experts) = C(E - E/n, K) / C(E, K).
    double missAll = 1.0;
    for (int i = 0; i < k; ++i) missAll *= std::max(0.0, e - perNode - i) / (e - i);
    const double distinctRemote = (nodes - 1) * (1.0 - missAll);
    const double copiesRemote = k * (nodes - 1) / double(nodes);
    return std::min(1.0, distinctRemote / copiesRemote);
}

bool fusedGroupedMlpApplies(const Stack& s, Precision p) {
    return s.fusedGroupedMlp && (p == Precision::Mxfp8 || p == Precision::Nvfp4);
}

Stack mosaicPaperStack() {
    Stack s;
    s.name = "mosaic-paper";
    s.description =
        "the Megatron-Core stack of arXiv:2608.10605 Sec. 5 (hardware-sheet efficiencies, "
        "CPU dispatch floor Eq. 11, chi_sys Eq. 15, EP | DP, no interleaving)";
    return s;
}

Stack megatronCoreStack() {
    Stack s;
    s.name = "megatron-core";
    s.description =
        "NVIDIA Megatron-Core as the Megatron-Bridge performance recipes run it (fitted to the "
        "measured runs of Megatron-Bridge docs/performance-summary.md)";
    s.ownEfficiencies = true;
    s.cpuDispatchFloor = false;
    s.systemFactor = false;
    s.hostTerms = false;
    s.expertFolding = true;
    s.interleaving = true;
    s.fsdp = true;
    s.activationMemoryFactor = 1.0;
    s.lowPrecisionActivations = true;
    s.kernelTables = true;
    s.lowPrecisionWeightBytes[int(Precision::Fp8)] = 1.0;
    s.lowPrecisionWeightBytes[int(Precision::Mxfp8)] = 2.0 + 2.0 / 32;
    s.lowPrecisionWeightBytes[int(Precision::Nvfp4)] = 1.0 + 2.0 / 16;
    // Megatron-Bridge performance recipes (scripts/performance/utils/precision.py and
    // src/megatron/bridge/training/mixed_precision.py): FP8 current scaling and MXFP8 set
    // fp8_param_gather (the parameters are FP8; NVFP4 keeps BF16 parameters, fp4_param is not
    // supported), and every model's performance config sets grad_reduce_in_fp32 = False (BF16
    // main gradients). Distributed optimizer: 16-bit parameters and gradients keep 4 + 16/d
    // bytes per parameter (Megatron-Core distrib_optimizer documentation), the FP8 parameters
    // 1 (FP8) or 2 + 2/32 (MXFP8 row- and column-wise) instead of the BF16 2.
    s.lowPrecisionParams[int(Precision::Fp8)] = true;
    s.lowPrecisionParams[int(Precision::Mxfp8)] = true;
    s.mainGradBytes = 2.0;
    // Not fitted: the dense GEMMs (BF16 and FP8) run at the kernel tables' measured achievable
    // efficiency (MAMF x the DeepGEMM shape factor) as it stands. Fitted to the dense runs, both
    // factors sat on their upper bound 1 and, with Llama 3 (every dense run) held out, traded off
    // against the MoE runs' terms (leave-one-family-out Llama 3 -38 %; docs/MODEL-MOSAIC.md).
    s.denseGemmMax = 1.0;
    s.precisionGemmFactor[int(Precision::Fp8)] = 1.0;
    // Fitted constants (`tandem-cli fit-stack`, mosaic/reality.h: one set for every expressible
    // measured run, from megatronCoreFitStart(), with the fit's prior fitPrior);
    // tests/mosaic/tst_mosaic_reality.cpp checks that they are the fit's optimum.
    s.groupedGemmMax = 0.468;
    s.expertFixedUs = 21.19;
    s.attentionEfficiency = 0.3025;
    s.precisionGemmFactor[int(Precision::Mxfp8)] = 0.9458;
    s.precisionGemmFactor[int(Precision::Nvfp4)] = 0.8625;
    s.tpOverlap = 0.5117;
    s.a2aOverlap = 0.6201;
    return s;
}

namespace {

/// `s` with every member of `params` at its fit start.
Stack fitStart(Stack s, const std::vector<StackFitParameter>& params) {
    for (const StackFitParameter& p : params) p.ref(s) = p.start;
    return s;
}

}  // namespace

Stack megatronCoreFitStart() { return fitStart(megatronCoreStack(), stackFitParameters()); }

Stack megatronLm2022Stack() {
    Stack s = megatronCoreStack();
    s.name = "megatron-lm-2022";
    s.description =
        "Megatron-LM as arXiv:2205.05198 ran it on DGX A100 (no flash attention, TP "
        "collectives not overlapped; fitted to the paper's Table 5 iteration times)";
    s.flashAttention = false;
    // BF16 parameters with FP32 main gradients (18 B per parameter without the distributed
    // optimizer, arXiv:2205.05198 Sec. 5.1 / Table 2's memory points).
    s.mainGradBytes = 4.0;
    for (bool& low : s.lowPrecisionParams) low = false;
    s.kernelTables = false;  // its constants were fitted on the analytical curves
    s.tpOverlap = 0;
    s.a2aOverlap = 0;
    s.fsdp = false;
    // Fitted constants (`tandem-cli fit-stack --stack megatron-lm-2022`, reality.h: one set for
    // the eight Table 5 points, from megatronLm2022FitStart());
    // tests/mosaic/tst_mosaic_korthikanti.cpp checks that they are the fit's optimum.
    s.denseGemmMax = 0.8387;
    s.denseMHalf = 1;
    s.attentionEfficiency = 0.1839;
    return s;
}

Stack megatronLm2022FitStart() {
    return fitStart(megatronLm2022Stack(), megatronLm2022FitParameters());
}

namespace {

/// A built-in stack: its name (scenario key mosaic.stack) and the function that builds it.
struct BuiltinStack {
    const char* name;
    Stack (*make)();
};

/// Every built-in stack, in the order messages and lists name them.
constexpr BuiltinStack kBuiltinStacks[] = {{"mosaic-paper", mosaicPaperStack},
                                           {"megatron-core", megatronCoreStack},
                                           {"megatron-lm-2022", megatronLm2022Stack}};

}  // namespace

std::vector<std::string> stackNames() {
    std::vector<std::string> names;
    for (const BuiltinStack& b : kBuiltinStacks) names.emplace_back(b.name);
    return names;
}

bool isBuiltinStack(const std::string& name) {
    for (const BuiltinStack& b : kBuiltinStacks)
        if (name == b.name) return true;
    return false;
}

Stack builtinStack(const std::string& name) {
    std::string known;
    for (const BuiltinStack& b : kBuiltinStacks) {
        if (name == b.name) return b.make();
        known += (known.empty() ? "" : ", ") + std::string(b.name);
    }
    throw std::invalid_argument("unknown stack \"" + name + "\" (known: " + known + ")");
}

namespace {

const StackFitParameter kDenseGemmMax = {
    "dense_gemm_max", [](Stack& s) -> double& { return s.denseGemmMax; }, 0.2, 1.0, 0.7};
const StackFitParameter kAttentionEfficiency = {
    "attention_efficiency", [](Stack& s) -> double& { return s.attentionEfficiency; }, 0.1, 1.0,
    0.4};

}  // namespace

const std::vector<StackFitParameter>& stackFitParameters() {
    static const std::vector<StackFitParameter> params = {
        {"grouped_gemm_max", [](Stack& s) -> double& { return s.groupedGemmMax; }, 0.1, 1.0, 0.5},
        {"expert_fixed_us", [](Stack& s) -> double& { return s.expertFixedUs; }, 0.0, 100.0, 10.0},
        kAttentionEfficiency,
        {"mxfp8_gemm_factor",
         [](Stack& s) -> double& { return s.precisionGemmFactor[int(Precision::Mxfp8)]; }, 0.3, 1.0,
         1.0},
        {"nvfp4_gemm_factor",
         [](Stack& s) -> double& { return s.precisionGemmFactor[int(Precision::Nvfp4)]; }, 0.2, 1.0,
         1.0},
        {"tp_overlap", [](Stack& s) -> double& { return s.tpOverlap; }, 0.0, 1.0, 0.5},
        {"a2a_overlap", [](Stack& s) -> double& { return s.a2aOverlap; }, 0.0, 1.0, 0.5},
    };
    return params;
}

const std::vector<StackFitParameter>& megatronLm2022FitParameters() {
    static const std::vector<StackFitParameter> params = {
        kDenseGemmMax,
        {"dense_gemm_m_half", [](Stack& s) -> double& { return s.denseMHalf; }, 1.0, 4000.0, 800.0},
        kAttentionEfficiency};
    return params;
}

}  // namespace tandem::mosaic
