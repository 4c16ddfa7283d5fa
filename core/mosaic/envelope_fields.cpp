#include <stdexcept>
#include <string>
#include <vector>

#include "common/json_reader.h"
#include "mosaic/envelope.h"
#include "mosaic/stack_file.h"
#include "mosaic/user_runs.h"

// The field table of the `mosaic` object (envelopeFields()): one row per key with its unit,
// range, meaning and source; envelope.cpp reads and writes from it.

namespace tandem::mosaic {
namespace {

std::string idx(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

void readHardwareKey(JsonReader& r, const EnvelopeField& f, Envelope& e) {
    Diagnostics& diag = r.diagnostics();
    const auto* hw = r.raw(f.key);
    if (!hw) return;
    const auto p = r.childPath(f.key);
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
        diag.error(p, "is an empty object: name a built-in device (" + hardwareNameList() +
                          ") or give the device's fields (unlisted fields take p6-b200's values)");
    } else if (hw->is_object()) {
        JsonReader hr(*hw, p, diag);
        e.hardware = readHardware(hr);
    } else {
        diag.error(p, "must be a hardware name or an object");
    }
}

/// The hardware as its name when it equals the built-in of that name, else every field.
void writeHardwareKey(const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {
    bool builtin = false;
    for (const auto& n : hardwareNames())
        if (n == e.hardware.name && writeHardware(builtinHardware(n)) == writeHardware(e.hardware))
            builtin = true;
    if (builtin)
        j[f.key] = e.hardware.name;
    else
        j[f.key] = writeHardware(e.hardware);
}

void readNcclFiles(JsonReader& r, const EnvelopeField& f, Envelope& e) {
    e.ncclTestsFiles = r.strings(f.key, e.ncclTestsFiles);
    for (size_t i = 0; i < e.ncclTestsFiles.size(); ++i)
        if (e.ncclTestsFiles[i].empty())
            r.diagnostics().error(idx(r.childPath(f.key), i),
                                  "must be a file name (got an empty string)");
}

/// Written only when not empty, so analytical scenarios keep their bytes.
void writeNcclFiles(const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {
    if (!e.ncclTestsFiles.empty()) j[f.key] = e.ncclTestsFiles;
}

void readImportedModels(JsonReader& r, const EnvelopeField& f, Envelope& e) {
    e.importedModelFiles = r.strings(f.key, e.importedModelFiles);
    for (size_t i = 0; i < e.importedModelFiles.size(); ++i)
        if (e.importedModelFiles[i].empty())
            r.diagnostics().error(idx(r.childPath(f.key), i),
                                  "must be a file name (got an empty string)");
}

/// Written only when not empty, so scenarios without imports keep their bytes.
void writeImportedModels(const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {
    if (!e.importedModelFiles.empty()) j[f.key] = e.importedModelFiles;
}

void readShownNccl(JsonReader& r, const EnvelopeField& f, Envelope& e) {
    if (!r.has(f.key)) {
        r.raw(f.key);
        return;
    }
    e.shownNcclTestsFile = r.string(f.key, e.shownNcclTestsFile);
    if (e.shownNcclTestsFile.empty())
        r.diagnostics().error(r.childPath(f.key), "must be a file name (got an empty string)");
}

/// Written only when set.
void writeShownNccl(const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {
    if (!e.shownNcclTestsFile.empty()) j[f.key] = e.shownNcclTestsFile;
}

void readUserRunsKey(JsonReader& r, const EnvelopeField& f, Envelope& e) {
    readUserRuns(r, f.key, e.userRuns);
}

/// Written only when not empty, so scenarios without imported runs keep their bytes.
void writeUserRunsKey(const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {
    if (!e.userRuns.empty()) j[f.key] = userRunsToJson(e.userRuns);
}

void readBackgroundKey(JsonReader& r, const EnvelopeField& f, Envelope& e) {
    if (!r.has(f.key)) return;
    BackgroundLoad b;
    readBackground(r.object(f.key), b);
    e.background = b;
}

void writeBackgroundKey(const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {
    if (e.background) j[f.key] = writeBackground(*e.background);
}

/// `devices` is optional and only checked: it must equal nodes x gpus_per_node.
void readDevices(JsonReader& r, const EnvelopeField& f, Envelope& e) {
    if (!r.has(f.key)) {
        r.raw(f.key);
        return;
    }
    const long long dev = r.integer(f.key, e.devices(), f.range);
    if (dev != e.devices())
        r.diagnostics().error(r.childPath(f.key),
                              "must equal nodes x gpus_per_node = " + std::to_string(e.nodes) +
                                  " x " + std::to_string(e.hardware.gpusPerNode) + " = " +
                                  std::to_string(e.devices()) + " (got " + std::to_string(dev) +
                                  ")");
}

void readStack(JsonReader& r, const EnvelopeField& f, Envelope& e) {
    if (!r.has(f.key)) return;
    if (const nlohmann::json* v = r.raw(f.key); v && v->is_object()) {
        // A calibrated stack kept in the scenario (stack_file.h), so that it reopens as saved.
        JsonReader sub = r.object(f.key);
        e.stack = readStackJson(sub);
        return;
    }
    const std::string name = r.string(f.key, e.stack.name);
    try {
        e.stack = builtinStack(name);
    } catch (const std::exception& ex) {
        r.diagnostics().error(r.childPath(f.key), ex.what());
    }
}

/// The default stack is left out; a calibrated stack is written whole (stackToJson).
void writeStack(const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {
    if (e.stack.calibration.runs > 0)
        j[f.key] = stackToJson(e.stack);
    else if (e.stack.name != mosaicPaperStack().name)
        j[f.key] = e.stack.name;
}

void readPrecision(JsonReader& r, const EnvelopeField& f, Envelope& e) {
    if (!r.has(f.key)) return;
    const std::string name = r.string(f.key, precisionName(e.precision));
    if (!parsePrecision(name, e.precision))
        r.diagnostics().error(r.childPath(f.key),
                              "must be " + precisionNameList() + " (got \"" + name + "\")");
}

/// BF16, the default, is left out.
void writePrecision(const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {
    if (e.precision != Precision::Bf16) j[f.key] = precisionName(e.precision);
}

void readCheckpointing(JsonReader& r, const EnvelopeField& f, Envelope& e) {
    std::vector<std::string> def, all;
    for (auto c : e.checkpointing) def.push_back(checkpointingName(c));
    for (int i = 0; i < kCheckpointingCount; ++i)
        all.push_back(checkpointingName(Checkpointing(i)));
    const auto names = r.arrayWithin(f.key, kMaxAxisValues) ? r.strings(f.key, def, all) : def;
    r.requireDistinct(f.key, names);
    if (names.empty()) r.diagnostics().error(r.childPath(f.key), "must have at least 1 element(s)");
    e.checkpointing.clear();
    for (const auto& n : names) {
        Checkpointing c;
        if (parseCheckpointing(n, c)) e.checkpointing.push_back(c);
    }
}

void writeCheckpointing(const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {
    std::vector<std::string> ck;
    for (auto c : e.checkpointing) ck.push_back(checkpointingName(c));
    j[f.key] = ck;
}

constexpr LayoutGridRule kLayoutGridRules[] = {LayoutGridRule::Auto, LayoutGridRule::Listed,
                                               LayoutGridRule::Derived};

void readLayoutGrid(JsonReader& r, const EnvelopeField& f, Envelope& e) {
    std::vector<std::string> names;
    for (auto g : kLayoutGridRules) names.push_back(layoutGridRuleName(g));
    const std::string rule = r.string(f.key, layoutGridRuleName(e.layoutGrid), names);
    for (auto g : kLayoutGridRules)
        if (rule == layoutGridRuleName(g)) e.layoutGrid = g;
}

/// Written only when not the default, so files without the key keep their bytes.
void writeLayoutGrid(const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {
    if (e.layoutGrid != LayoutGridRule::Auto) j[f.key] = layoutGridRuleName(e.layoutGrid);
}

void readFrontierSparsity(JsonReader& r, const EnvelopeField& f, Envelope& e) {
    if (r.arrayWithin(f.key, kMaxAxisValues))
        e.frontierSparsity = r.numbers(f.key, e.frontierSparsity, f.range, 1);
}

void writeFrontierSparsity(const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {
    j[f.key] = e.frontierSparsity;
}

}  // namespace

// Accessors of one numeric member for the field table: MEMBER(law.eta) gives the get, set,
// list, read and write columns.
#define TANDEM_ENV_MEMBER(m)                                                                  \
    [](const Envelope& e) { return static_cast<double>(e.m); },                               \
        [](Envelope& e, double v) { e.m = static_cast<decltype(e.m)>(v); }, nullptr, nullptr, \
        nullptr
// A set of integer search values.
#define TANDEM_ENV_LIST(m) nullptr, nullptr, &Envelope::m, nullptr, nullptr
// A key of another shape: its own read and write.
#define TANDEM_ENV_CUSTOM(readFn, writeFn) nullptr, nullptr, nullptr, readFn, writeFn

const std::vector<EnvelopeField>& envelopeFields() {
    using R = Range;
    const char* kT3 = "2608.10605 Table 3";
    const char* kT2 = "2608.10605 Table 2";
    const char* kS73 = "2608.10605 Sec. 7.3";
    const R tpp{0.0, 1e6, true, false,
                "training tokens per active parameter (the paper's grid is 40 to 150)"};
    static const std::vector<EnvelopeField> t = {
        {"", "hardware", "", false, R{}, "GPU node type: a built-in name or a full hardware object",
         kT3, TANDEM_ENV_CUSTOM(readHardwareKey, writeHardwareKey)},
        {"", "nccl_tests_files", "", false, R{},
         "nccl-tests output files whose curves replace the analytical collective model",
         "2608.10605 Sec. 5.3", TANDEM_ENV_CUSTOM(readNcclFiles, writeNcclFiles)},
        {"", "imported_model_files", "", false, R{},
         "Hugging Face config.json files of models shown on the loss-vs-sparsity chart, each "
         "costed on this cluster (File > Import)",
         "user files", TANDEM_ENV_CUSTOM(readImportedModels, writeImportedModels)},
        {"", "shown_nccl_tests_file", "", false, R{},
         "nccl-tests log shown on the Measured collectives page (shown only; nccl_tests_files "
         "are the logs the costing uses)",
         "user file", TANDEM_ENV_CUSTOM(readShownNccl, writeShownNccl)},
        {"", "measured_runs", "", false, R{},
         "the user's runs imported from training logs: {log_file, hardware, and what the log does "
         "not state: model_file, layout, devices, gbs, seqlen, precision}; shown as \"yours\" on "
         "the reality check and fitted by its Calibrate (File > Import of a training log)",
         "user files", TANDEM_ENV_CUSTOM(readUserRunsKey, writeUserRunsKey)},
        {"", "nodes", "nodes", true, R::closed(1, 100000),
         "nodes of the training cluster; devices = nodes x gpus_per_node", kT3,
         TANDEM_ENV_MEMBER(nodes)},
        {"", "background", "", false, R{}, "co-running jobs on the MoE job's fabric",
         "2608.06046 Sec. 3.2", TANDEM_ENV_CUSTOM(readBackgroundKey, writeBackgroundKey)},
        {"", "devices", "GPUs", true, R::closed(1, kMaxDevices),
         "optional check: must equal nodes x gpus_per_node", kT3,
         TANDEM_ENV_CUSTOM(readDevices, nullptr)},
        {"", "days", "days", false, R{0.0, 3650.0, true, false},
         "wall-clock training window T_train", kT3, TANDEM_ENV_MEMBER(days)},
        {"", "goodput", "", false, R{0.0, 1.0, true, false},
         "eta_good, the fraction of the window spent on useful steps", "2608.10605 Eq. 25",
         TANDEM_ENV_MEMBER(goodput)},
        {"", "global_batch_sequences", "sequences", true, R::closed(1, kMaxGlobalBatch),
         "global batch B_global", kT3, TANDEM_ENV_MEMBER(globalBatch)},
        {"", "seq_len_tokens", "tokens", true, R::closed(1, kMaxSeqLen), "sequence length T_seq",
         kT3, TANDEM_ENV_MEMBER(seqLen)},
        {"", "stack", "", false, R{},
         "training stack: mosaic-paper, megatron-core, megatron-lm-2022 or a calibrated stack (an "
         "object as `tandem-cli calibrate` writes it)",
         "mosaic-paper, the paper's stack (stack.h)", TANDEM_ENV_CUSTOM(readStack, writeStack)},
        {"", "precision", "", false, R{}, "GEMM precision: bf16, fp8, mxfp8 or nvfp4",
         "BF16, the paper's precision (stack.h)", TANDEM_ENV_CUSTOM(readPrecision, writePrecision)},
        {"", "q_values", "", true, R::closed(1, 64),
         "ladder rungs q searched (L = 4q, n_head = 4q)", kT3, TANDEM_ENV_LIST(qValues)},
        {"", "top_k_values", "experts", true, R::closed(1, 1024), "top-K values searched", kT3,
         TANDEM_ENV_LIST(topKValues)},
        {"", "experts_values", "experts", true, R::closed(1, kMaxExperts),
         "expert counts E searched", kT3, TANDEM_ENV_LIST(expertValues)},
        {"", "expert_split_values", "", true, R::closed(1, 1280), "expert granularities G searched",
         kT3, TANDEM_ENV_LIST(splitValues)},
        {"", "min_sparsity", "", false, R{0.0, 1.0, false, true},
         "geometries with sparsity S below this are not searched", kT3,
         TANDEM_ENV_MEMBER(minSparsity)},
        {"", "tokens_per_parameter_min", "tokens per active parameter", false, tpp,
         "lower bound of D / N_act accepted", kS73, TANDEM_ENV_MEMBER(tppMin)},
        {"", "tokens_per_parameter_max", "tokens per active parameter", false, tpp,
         "D is capped at this many tokens per active parameter", kS73, TANDEM_ENV_MEMBER(tppMax)},
        {"", "micro_batch_values", "sequences", true, R::closed(1, 4096),
         "micro-batch sizes B_micro searched", kT3, TANDEM_ENV_LIST(microBatchValues)},
        {"", "checkpointing", "", false, R{}, "activation checkpointing modes searched",
         "2608.10605 Sec. 5.2, Table 3", TANDEM_ENV_CUSTOM(readCheckpointing, writeCheckpointing)},
        {"", "tensor_parallel_values", "", true, R::closed(1, 1024),
         "tensor-parallel degrees TP searched", kT3, TANDEM_ENV_LIST(tpValues)},
        {"", "context_parallel_values", "", true, R::closed(1, 1024),
         "context-parallel degrees CP searched", kT3, TANDEM_ENV_LIST(cpValues)},
        {"", "pipeline_parallel_values", "", true, R::closed(1, 1024),
         "pipeline-parallel degrees PP searched", kT3, TANDEM_ENV_LIST(ppValues)},
        {"", "expert_parallel_values", "", true, R::closed(1, kMaxExperts),
         "expert-parallel degrees EP searched", kT3, TANDEM_ENV_LIST(epValues)},
        {"", "layout_grid", "", false, R{}, "which layouts are enumerated: auto, listed or derived",
         "layout_grid.h", TANDEM_ENV_CUSTOM(readLayoutGrid, writeLayoutGrid)},
        // At most 1e27 FLOPs: some 20 times the largest training run reported (~5e25), a
        // physical bound rather than a model limit.
        {"", "compute_budget_flops", "FLOPs", false, R::closed(0, 1e27),
         "model-FLOPs budget C_model of the compute-optimal frontier; 0 = follow the cluster",
         "2608.10605 Eq. 16, Table 4", TANDEM_ENV_MEMBER(computeBudgetFlops)},
        {"", "frontier_sparsity", "", false, R{0.0, 1.0, false, true},
         "sparsity grid (bin centres) of both frontiers, ascending", "MODEL-MOSAIC.md Sec. 4",
         TANDEM_ENV_CUSTOM(readFrontierSparsity, writeFrontierSparsity)},
        {"scaling_law", "a", "", false, R::positive(), "Eq. 10 coefficient of N_tot", kT2,
         TANDEM_ENV_MEMBER(law.a)},
        {"scaling_law", "b", "", false, R::positive(), "Eq. 10 coefficient of D", kT2,
         TANDEM_ENV_MEMBER(law.b)},
        {"scaling_law", "c", "", false, R::nonNegative(), "Eq. 10 coefficient of sparsity", kT2,
         TANDEM_ENV_MEMBER(law.c)},
        {"scaling_law", "j", "", false, R::nonNegative(), "Eq. 10 coefficient of the joint term",
         kT2, TANDEM_ENV_MEMBER(law.j)},
        {"scaling_law", "e", "nats", false, R::nonNegative(), "Eq. 10 irreducible loss", kT2,
         TANDEM_ENV_MEMBER(law.e)},
        {"scaling_law", "alpha", "", false, R::positive(), "Eq. 10 exponent of N_tot", kT2,
         TANDEM_ENV_MEMBER(law.alpha)},
        {"scaling_law", "beta", "", false, R::positive(), "Eq. 10 exponent of D", kT2,
         TANDEM_ENV_MEMBER(law.beta)},
        {"scaling_law", "lambda", "", false, R::nonNegative(), "Eq. 10 exponent of 1 / (1 - S)",
         kT2, TANDEM_ENV_MEMBER(law.lambda)},
        {"scaling_law", "delta", "", false, R::nonNegative(),
         "Eq. 10 exponent of 1 / (1 - S) in the joint term", kT2, TANDEM_ENV_MEMBER(law.delta)},
        {"scaling_law", "gamma", "", false, R::nonNegative(),
         "Eq. 10 exponent of N_tot in the joint term", kT2, TANDEM_ENV_MEMBER(law.gamma)},
        // G exponent: > 0 by construction (raising G lowers the loss, Sec. 4.2 of
        // arXiv:2608.10605; Table 2: 0.9513, 95 % CI [0.911, 0.954]); up to 4, four times the
        // fit, for what-if studies.
        {"scaling_law", "eta", "", false, R{0.0, 4.0, true, false},
         "Eq. 10 exponent of the expert split G", kT2, TANDEM_ENV_MEMBER(law.eta)},
    };
    return t;
}

#undef TANDEM_ENV_MEMBER
#undef TANDEM_ENV_LIST
#undef TANDEM_ENV_CUSTOM

const EnvelopeField& envelopeField(const std::string& path) {
    for (const EnvelopeField& f : envelopeFields())
        if ((*f.section ? std::string(f.section) + "." + f.key : std::string(f.key)) == path)
            return f;
    throw std::invalid_argument("no mosaic key \"" + path + "\" in the field table");
}

}  // namespace tandem::mosaic
