#include "mosaic/envelope.h"

#include <algorithm>
#include <stdexcept>

#include "common/json_reader.h"
#include "common/number_format.h"

namespace tandem::mosaic {
namespace {

/// Longest list the reader accepts for any search axis (q, K, E, G, micro-batch, TP, CP, PP, EP,
/// checkpointing, frontier_sparsity): Table 3's grid has at most 13 values per axis; 64 covers any
/// realistic plan while keeping the search's Cartesian product from running for minutes.
constexpr size_t kMaxAxisValues = 64;
/// Largest expert count (`experts_values`) and expert-parallel degree: 8x the largest in the
/// paper's grid (512) and above any published MoE.
constexpr long long kMaxExperts = 4096;

std::string idx(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

/// A set of integers: at most kMaxAxisValues entries, each in `range`, none repeated.
std::vector<int> readInts(JsonReader& r, const char* key, const std::vector<int>& def,
                          Range range) {
    if (!r.arrayWithin(key, kMaxAxisValues)) return def;
    std::vector<long long> d(def.begin(), def.end());
    const auto v = r.integers(key, d, range, 1);
    std::vector<int> out(v.begin(), v.end());
    r.requireDistinct(key, out);
    return out;
}

void readLaw(JsonReader& r, ScalingLaw& l) {
    const auto pos = Range::positive();
    l.a = r.number("a", l.a, pos);
    l.b = r.number("b", l.b, pos);
    l.c = r.number("c", l.c, Range::nonNegative());
    l.j = r.number("j", l.j, Range::nonNegative());
    l.e = r.number("e", l.e, Range::nonNegative());
    l.alpha = r.number("alpha", l.alpha, pos);
    l.beta = r.number("beta", l.beta, pos);
    l.lambda = r.number("lambda", l.lambda, Range::nonNegative());
    l.delta = r.number("delta", l.delta, Range::nonNegative());
    l.gamma = r.number("gamma", l.gamma, Range::nonNegative());
    // G exponent: > 0 by construction (raising G lowers the loss, Sec. 4.2 of arXiv:2608.10605;
    // Table 2: 0.9513, 95 % CI [0.911, 0.954]); up to 4, four times the fit, for what-if studies.
    l.eta = r.number("eta", l.eta, Range{0.0, 4.0, true, false});
    r.finish();
}

nlohmann::ordered_json writeLaw(const ScalingLaw& l) {
    nlohmann::ordered_json j;
    j["a"] = l.a;
    j["b"] = l.b;
    j["c"] = l.c;
    j["j"] = l.j;
    j["e"] = l.e;
    j["alpha"] = l.alpha;
    j["beta"] = l.beta;
    j["lambda"] = l.lambda;
    j["delta"] = l.delta;
    j["gamma"] = l.gamma;
    j["eta"] = l.eta;
    return j;
}

}  // namespace

const char* checkpointingName(Checkpointing c) {
    switch (c) {
        case Checkpointing::None:
            return "none";
        case Checkpointing::CoreAttention:
            return "core-attn";
        case Checkpointing::Selective:
            return "selective";
        case Checkpointing::SuperSelective:
            return "super-selective";
        case Checkpointing::Full:
            return "full";
    }
    return "none";
}

const char* layoutGridRuleName(LayoutGridRule r) {
    switch (r) {
        case LayoutGridRule::Auto:
            return "auto";
        case LayoutGridRule::Listed:
            return "listed";
        case LayoutGridRule::Derived:
            return "derived";
    }
    return "auto";
}

bool parseCheckpointing(const std::string& s, Checkpointing& out) {
    for (auto c : {Checkpointing::None, Checkpointing::CoreAttention, Checkpointing::Selective,
                   Checkpointing::SuperSelective, Checkpointing::Full})
        if (s == checkpointingName(c)) {
            out = c;
            return true;
        }
    return false;
}

double Envelope::peakBudgetFlops() const {
    return hardware.peakFlops * double(devices()) * days * 86400.0;
}

double Envelope::deliverableModelFlops(double mfu) const {
    return peakBudgetFlops() * goodput * mfu;
}

double Envelope::modelBudgetFlops() const {
    return computeBudgetFlops > 0 ? computeBudgetFlops : deliverableModelFlops(kAutoBudgetMfu);
}

namespace {

/// The background's fabric must hold the MoE job and every co-running job, with valid explicit
/// placements: the same check the co-run model makes (buildFabric), reported at its key.
void checkBackgroundFits(const Envelope& e, Diagnostics& diag) {
    const BackgroundLoad& b = *e.background;
    try {
        (void)fabric::buildFabric(b.topology, b.placement, b.jobs, b.job.nodes, e.nodes,
                                  e.hardware.gpusPerNode * e.hardware.nicBytesPerS,
                                  e.hardware.gpusPerNode, backgroundFabricKeys(), true);
    } catch (const fabric::FabricError& ex) {
        diag.error("$." + ex.key(), ex.reason());
    }
}

}  // namespace

void readEnvelope(JsonReader& r, Envelope& e) {
    Diagnostics& diag = r.diagnostics();
    if (const auto* hw = r.raw("hardware")) {
        const auto p = r.childPath("hardware");
        if (hw->is_string()) {
            const auto name = hw->get<std::string>();
            if (!isBuiltinHardware(name)) {
                auto names = hardwareNames();
                for (const auto& a : hardwareAliases()) names.push_back(a.first);
                std::string msg = "unknown hardware \"" + name + "\"";
                const auto hint = closestMatch(name, names);
                if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
                diag.error(p, msg);
            } else {
                e.hardware = builtinHardware(name);
            }
        } else if (hw->is_object() && hw->empty()) {
            // An empty object would silently be p6-b200: ask for a name or the fields.
            diag.error(p,
                       "is an empty object: name a built-in device (" + hardwareNameList() +
                           ") or give the device's fields (unlisted fields take p6-b200's values)");
        } else if (hw->is_object()) {
            JsonReader hr(*hw, p, diag);
            e.hardware = readHardware(hr);
        } else {
            diag.error(p, "must be a hardware name or an object");
        }
    }
    e.ncclTestsFiles = r.strings("nccl_tests_files", e.ncclTestsFiles);
    for (size_t i = 0; i < e.ncclTestsFiles.size(); ++i)
        if (e.ncclTestsFiles[i].empty())
            diag.error(idx(r.childPath("nccl_tests_files"), i),
                       "must be a file name (got an empty string)");
    e.nodes = int(r.integer("nodes", e.nodes, Range::closed(1, 100000)));
    if (r.has("background")) {
        BackgroundLoad b;
        readBackground(r.object("background"), b);
        e.background = b;
    }
    if (r.has("devices")) {
        const long long dev = r.integer("devices", e.devices(), Range::closed(1, kMaxDevices));
        if (dev != e.devices())
            diag.error(r.childPath("devices"),
                       "must equal nodes x gpus_per_node = " + std::to_string(e.nodes) + " x " +
                           std::to_string(e.hardware.gpusPerNode) + " = " +
                           std::to_string(e.devices()) + " (got " + std::to_string(dev) + ")");
    } else {
        r.raw("devices");
    }
    e.days = r.number("days", e.days, Range{0.0, 3650.0, true, false});
    e.goodput = r.number("goodput", e.goodput, Range{0.0, 1.0, true, false});
    e.globalBatch =
        int(r.integer("global_batch_sequences", e.globalBatch, Range::closed(1, kMaxGlobalBatch)));
    e.seqLen = int(r.integer("seq_len_tokens", e.seqLen, Range::closed(1, kMaxSeqLen)));
    if (r.has("stack")) {
        const std::string name = r.string("stack", e.stack.name);
        try {
            e.stack = builtinStack(name);
        } catch (const std::exception& ex) {
            diag.error(r.childPath("stack"), ex.what());
        }
    }
    if (r.has("precision")) {
        const std::string name = r.string("precision", precisionName(e.precision));
        if (!parsePrecision(name, e.precision))
            diag.error(r.childPath("precision"),
                       "must be bf16, fp8, mxfp8 or nvfp4 (got \"" + name + "\")");
    }

    e.qValues = readInts(r, "q_values", e.qValues, Range::closed(1, 64));
    e.topKValues = readInts(r, "top_k_values", e.topKValues, Range::closed(1, 1024));
    e.expertValues = readInts(r, "experts_values", e.expertValues, Range::closed(1, kMaxExperts));
    e.splitValues = readInts(r, "expert_split_values", e.splitValues, Range::closed(1, 1280));
    e.minSparsity = r.number("min_sparsity", e.minSparsity, Range{0.0, 1.0, false, true});
    const Range tpp{0.0, 1e6, true, false,
                    "training tokens per active parameter (the paper's grid is 40 to 150)"};
    e.tppMin = r.number("tokens_per_parameter_min", e.tppMin, tpp);
    e.tppMax = r.number("tokens_per_parameter_max", e.tppMax, tpp);
    e.microBatchValues =
        readInts(r, "micro_batch_values", e.microBatchValues, Range::closed(1, 4096));
    {
        std::vector<std::string> def;
        for (auto c : e.checkpointing) def.push_back(checkpointingName(c));
        const auto names =
            r.arrayWithin("checkpointing", kMaxAxisValues)
                ? r.strings("checkpointing", def,
                            {"none", "core-attn", "selective", "super-selective", "full"})
                : def;
        r.requireDistinct("checkpointing", names);
        if (names.empty())
            diag.error(r.childPath("checkpointing"), "must have at least 1 element(s)");
        e.checkpointing.clear();
        for (const auto& n : names) {
            Checkpointing c;
            if (parseCheckpointing(n, c)) e.checkpointing.push_back(c);
        }
    }
    e.tpValues = readInts(r, "tensor_parallel_values", e.tpValues, Range::closed(1, 1024));
    e.cpValues = readInts(r, "context_parallel_values", e.cpValues, Range::closed(1, 1024));
    e.ppValues = readInts(r, "pipeline_parallel_values", e.ppValues, Range::closed(1, 1024));
    e.epValues = readInts(r, "expert_parallel_values", e.epValues, Range::closed(1, kMaxExperts));
    {
        const std::string rule = r.string("layout_grid", layoutGridRuleName(e.layoutGrid),
                                          {"auto", "listed", "derived"});
        for (auto g : {LayoutGridRule::Auto, LayoutGridRule::Listed, LayoutGridRule::Derived})
            if (rule == layoutGridRuleName(g)) e.layoutGrid = g;
    }
    e.computeBudgetFlops =
        r.number("compute_budget_flops", e.computeBudgetFlops, Range::nonNegative());
    if (r.arrayWithin("frontier_sparsity", kMaxAxisValues))
        e.frontierSparsity =
            r.numbers("frontier_sparsity", e.frontierSparsity, Range{0.0, 1.0, false, true}, 1);
    {
        JsonReader lr = r.object("scaling_law");
        readLaw(lr, e.law);
    }

    // Cross-field checks.
    const int maxE = e.expertValues.empty()
                         ? 0
                         : *std::max_element(e.expertValues.begin(), e.expertValues.end());
    for (size_t i = 0; i < e.topKValues.size(); ++i)
        if (e.topKValues[i] > maxE)
            diag.error(idx(r.childPath("top_k_values"), i),
                       "top-K " + std::to_string(e.topKValues[i]) +
                           " exceeds every expert count (largest E = " + std::to_string(maxE) +
                           "); K <= E is required");
    for (size_t i = 0; i < e.splitValues.size(); ++i)
        for (int q : e.qValues)
            if ((1280LL * q) % e.splitValues[i] != 0) {
                diag.error(idx(r.childPath("expert_split_values"), i),
                           "G = " + std::to_string(e.splitValues[i]) + " does not divide d_ff = " +
                               std::to_string(1280 * q) + " at q = " + std::to_string(q));
                break;
            }
    if (e.tppMin > e.tppMax)
        diag.error(r.childPath("tokens_per_parameter_min"),
                   "must be <= tokens_per_parameter_max (" + formatNumber(e.tppMax) + ")");
    for (size_t i = 1; i < e.frontierSparsity.size(); ++i)
        if (!(e.frontierSparsity[i] > e.frontierSparsity[i - 1])) {
            diag.error(idx(r.childPath("frontier_sparsity"), i), "must be strictly ascending");
            break;
        }
    if (e.background && diag.ok()) checkBackgroundFits(e, diag);
    r.finish();
}

nlohmann::ordered_json writeEnvelope(const Envelope& e) {
    nlohmann::ordered_json j;
    bool builtin = false;
    for (const auto& n : hardwareNames())
        if (n == e.hardware.name && writeHardware(builtinHardware(n)) == writeHardware(e.hardware))
            builtin = true;
    if (builtin)
        j["hardware"] = e.hardware.name;
    else
        j["hardware"] = writeHardware(e.hardware);
    if (!e.ncclTestsFiles.empty()) j["nccl_tests_files"] = e.ncclTestsFiles;
    j["nodes"] = e.nodes;
    if (e.background) j["background"] = writeBackground(*e.background);
    j["days"] = e.days;
    j["goodput"] = e.goodput;
    j["global_batch_sequences"] = e.globalBatch;
    j["seq_len_tokens"] = e.seqLen;
    if (e.stack.name != mosaicPaperStack().name)
        j["stack"] = e.stack.name;  // the default is left out
    if (e.precision != Precision::Bf16) j["precision"] = precisionName(e.precision);
    j["q_values"] = e.qValues;
    j["top_k_values"] = e.topKValues;
    j["experts_values"] = e.expertValues;
    j["expert_split_values"] = e.splitValues;
    j["min_sparsity"] = e.minSparsity;
    j["tokens_per_parameter_min"] = e.tppMin;
    j["tokens_per_parameter_max"] = e.tppMax;
    j["micro_batch_values"] = e.microBatchValues;
    std::vector<std::string> ck;
    for (auto c : e.checkpointing) ck.push_back(checkpointingName(c));
    j["checkpointing"] = ck;
    j["tensor_parallel_values"] = e.tpValues;
    j["context_parallel_values"] = e.cpValues;
    j["pipeline_parallel_values"] = e.ppValues;
    j["expert_parallel_values"] = e.epValues;
    // Written only when not the default, so files without the key keep their bytes.
    if (e.layoutGrid != LayoutGridRule::Auto) j["layout_grid"] = layoutGridRuleName(e.layoutGrid);
    j["compute_budget_flops"] = e.computeBudgetFlops;
    j["frontier_sparsity"] = e.frontierSparsity;
    j["scaling_law"] = writeLaw(e.law);
    return j;
}

const BackgroundLoad& backgroundOrIdle(const Envelope& e) {
    static const BackgroundLoad kIdle;
    return e.background ? *e.background : kIdle;
}

}  // namespace tandem::mosaic
