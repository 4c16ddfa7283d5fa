#include <stdexcept>
#include <string>
#include <vector>

#include "common/field_table.h"
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

/// Reads the list of file names at key `f` into `files` (absent: kept); an empty name is an
/// error at its entry.
void readFileNames(JsonReader& r, const EnvelopeField& f, std::vector<std::string>& files) {
    files = r.strings(f.key, files);
    for (size_t i = 0; i < files.size(); ++i)
        if (files[i].empty())
            r.diagnostics().error(idx(r.childPath(f.key), i),
                                  "must be a file name (got an empty string)");
}

// A list of file names of member `m`, read by readFileNames and written only when not empty
// (so scenarios without such files keep their bytes).
#define TANDEM_ENV_FILES(m)                                                                   \
    nullptr, nullptr,                                                                         \
        [](JsonReader& r, const EnvelopeField& f, Envelope& e) { readFileNames(r, f, e.m); }, \
        [](const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {            \
            if (!e.m.empty()) j[f.key] = e.m;                                                 \
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

/// The default stack is left out; a built-in stack is written by name; any other (calibrated,
/// or read from a stack file: its own name, constants and recipe) is written whole
/// (stackToJson), so that it reopens as saved.
void writeStack(const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {
    if (e.stack.calibration.runs > 0 || !isBuiltinStack(e.stack.name))
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

/// Row `f` of a set of integer search values: at most kMaxAxisValues entries.
EnvelopeField listRow(EnvelopeField f) {
    f.maxItems = kMaxAxisValues;
    return f;
}

}  // namespace

// Accessors of one numeric member for the field table: MEMBER(law.eta) gives the get and set
// columns.
#define TANDEM_ENV_MEMBER(m)                                    \
    [](const Envelope& e) { return static_cast<double>(e.m); }, \
        [](Envelope& e, double v) { e.m = static_cast<decltype(e.m)>(v); }
// A set of integer search values (readIntegerSet), written as the list.
#define TANDEM_ENV_LIST(m)                                                                     \
    nullptr, nullptr,                                                                          \
        [](JsonReader& r, const EnvelopeField& f, Envelope& e) { readIntegerSet(r, f, e.m); }, \
        [](const EnvelopeField& f, const Envelope& e, nlohmann::ordered_json& j) {             \
            j[f.key] = e.m;                                                                    \
        }
// A key of another shape: its own read and write.
#define TANDEM_ENV_CUSTOM(readFn, writeFn) nullptr, nullptr, readFn, writeFn

const std::vector<EnvelopeField>& envelopeFields() {
    using R = Range;
    const FieldBound none{};
    const char* kT3 = "2608.10605 Table 3";
    const char* kT2 = "2608.10605 Table 2";
    const char* kS73 = "2608.10605 Sec. 7.3";
    const R tpp{0.0, 1e6, true, false,
                "training tokens per active parameter (the paper's grid is 40 to 150)"};
    static const std::vector<EnvelopeField> t = {
        {"", "hardware", "", "", 1, false, R{}, none, none,
         "GPU node type: a built-in name or a full hardware object", kT3,
         TANDEM_ENV_CUSTOM(readHardwareKey, writeHardwareKey)},
        {"", "nccl_tests_files", "", "", 1, false, R{}, none, none,
         "nccl-tests output files whose curves replace the analytical collective model",
         "2608.10605 Sec. 5.3", TANDEM_ENV_FILES(ncclTestsFiles)},
        {"", "imported_model_files", "", "", 1, false, R{}, none, none,
         "Hugging Face config.json files of models shown on the loss-vs-sparsity chart, each "
         "costed on this cluster (File > Import)",
         "user files", TANDEM_ENV_FILES(importedModelFiles)},
        {"", "shown_nccl_tests_file", "", "", 1, false, R{}, none, none,
         "nccl-tests log shown on the Measured collectives page (shown only; nccl_tests_files "
         "are the logs the costing uses)",
         "user file", TANDEM_ENV_CUSTOM(readShownNccl, writeShownNccl)},
        {"", "measured_runs", "", "", 1, false, R{}, none, none,
         "the user's runs imported from training logs: {log_file, hardware, and what the log does "
         "not state: model_file, layout, devices, gbs, seqlen, precision}; shown as \"yours\" on "
         "the reality check and fitted by its Calibrate (File > Import of a training log)",
         "user files", TANDEM_ENV_CUSTOM(readUserRunsKey, writeUserRunsKey)},
        {"", "nodes", "nodes", "", 1, true, R::closed(1, 100000), none, none,
         "nodes of the training cluster; devices = nodes x gpus_per_node", kT3,
         TANDEM_ENV_MEMBER(nodes)},
        {"", "background", "", "", 1, false, R{}, none, none,
         "co-running jobs on the MoE job's fabric", "2608.06046 Sec. 3.2",
         TANDEM_ENV_CUSTOM(readBackgroundKey, writeBackgroundKey)},
        {"", "devices", "GPUs", "", 1, true, R::closed(1, kMaxDevices), none, none,
         "optional check: must equal nodes x gpus_per_node", kT3,
         TANDEM_ENV_CUSTOM(readDevices, nullptr)},
        {"", "days", "days", "", 1, false, R{0.0, 3650.0, true, false}, none, none,
         "wall-clock training window T_train", kT3, TANDEM_ENV_MEMBER(days)},
        {"", "goodput", "", "", 1, false, R{0.0, 1.0, true, false}, none, none,
         "eta_good, the fraction of the window spent on useful steps", "2608.10605 Eq. 25",
         TANDEM_ENV_MEMBER(goodput)},
        {"", "global_batch_sequences", "sequences", "", 1, true, R::closed(1, kMaxGlobalBatch),
         none, none, "global batch B_global", kT3, TANDEM_ENV_MEMBER(globalBatch)},
        {"", "seq_len_tokens", "tokens", "", 1, true, R::closed(1, kMaxSeqLen), none, none,
         "sequence length T_seq", kT3, TANDEM_ENV_MEMBER(seqLen)},
        {"", "stack", "", "", 1, false, R{}, none, none,
         "training stack: mosaic-paper, megatron-core, megatron-lm-2022 or a calibrated stack (an "
         "object as `tandem-cli calibrate` writes it)",
         "mosaic-paper, the paper's stack (stack.h)", TANDEM_ENV_CUSTOM(readStack, writeStack)},
        {"", "precision", "", "", 1, false, R{}, none, none,
         "GEMM precision: bf16, fp8, mxfp8 or nvfp4", "BF16, the paper's precision (stack.h)",
         TANDEM_ENV_CUSTOM(readPrecision, writePrecision)},
        listRow({"", "q_values", "", "", 1, true, R::closed(1, 64), none, none,
                 "ladder rungs q searched (L = 4q, n_head = 4q)", kT3, TANDEM_ENV_LIST(qValues)}),
        listRow({"", "top_k_values", "experts", "", 1, true, R::closed(1, 1024), none, none,
                 "top-K values searched", kT3, TANDEM_ENV_LIST(topKValues)}),
        listRow({"", "experts_values", "experts", "", 1, true, R::closed(1, kMaxExperts), none,
                 none, "expert counts E searched", kT3, TANDEM_ENV_LIST(expertValues)}),
        listRow({"", "expert_split_values", "", "", 1, true, R::closed(1, 1280), none, none,
                 "expert granularities G searched", kT3, TANDEM_ENV_LIST(splitValues)}),
        {"", "min_sparsity", "", "", 1, false, R{0.0, 1.0, false, true}, none, none,
         "geometries with sparsity S below this are not searched", kT3,
         TANDEM_ENV_MEMBER(minSparsity)},
        {"", "tokens_per_parameter_min", "tokens per active parameter", "", 1, false, tpp, none,
         none, "lower bound of D / N_act accepted", kS73, TANDEM_ENV_MEMBER(tppMin)},
        {"", "tokens_per_parameter_max", "tokens per active parameter", "", 1, false, tpp, none,
         none, "D is capped at this many tokens per active parameter", kS73,
         TANDEM_ENV_MEMBER(tppMax)},
        listRow({"", "micro_batch_values", "sequences", "", 1, true, R::closed(1, 4096), none, none,
                 "micro-batch sizes B_micro searched", kT3, TANDEM_ENV_LIST(microBatchValues)}),
        {"", "checkpointing", "", "", 1, false, R{}, none, none,
         "activation checkpointing modes searched", "2608.10605 Sec. 5.2, Table 3",
         TANDEM_ENV_CUSTOM(readCheckpointing, writeCheckpointing)},
        listRow({"", "tensor_parallel_values", "", "", 1, true, R::closed(1, 1024), none, none,
                 "tensor-parallel degrees TP searched", kT3, TANDEM_ENV_LIST(tpValues)}),
        listRow({"", "context_parallel_values", "", "", 1, true, R::closed(1, 1024), none, none,
                 "context-parallel degrees CP searched", kT3, TANDEM_ENV_LIST(cpValues)}),
        listRow({"", "pipeline_parallel_values", "", "", 1, true, R::closed(1, 1024), none, none,
                 "pipeline-parallel degrees PP searched", kT3, TANDEM_ENV_LIST(ppValues)}),
        listRow({"", "expert_parallel_values", "", "", 1, true, R::closed(1, kMaxExperts), none,
                 none, "expert-parallel degrees EP searched", kT3, TANDEM_ENV_LIST(epValues)}),
        {"", "layout_grid", "", "", 1, false, R{}, none, none,
         "which layouts are enumerated: auto, listed or derived", "layout_grid.h",
         TANDEM_ENV_CUSTOM(readLayoutGrid, writeLayoutGrid)},
        // At most 1e27 FLOPs: some 20 times the largest training run reported (~5e25), a
        // physical bound rather than a model limit.
        {"", "compute_budget_flops", "FLOPs", "", 1, false, R::closed(0, 1e27), none, none,
         "model-FLOPs budget C_model of the compute-optimal frontier; 0 = follow the cluster",
         "2608.10605 Eq. 16, Table 4", TANDEM_ENV_MEMBER(computeBudgetFlops)},
        {"", "frontier_sparsity", "", "", 1, false, R{0.0, 1.0, false, true}, none, none,
         "sparsity grid (bin centres) of both frontiers, ascending", "MODEL-MOSAIC.md Sec. 4",
         TANDEM_ENV_CUSTOM(readFrontierSparsity, writeFrontierSparsity)},
        {"scaling_law", "a", "", "", 1, false, R::positive(), none, none,
         "Eq. 10 coefficient of N_tot", kT2, TANDEM_ENV_MEMBER(law.a)},
        {"scaling_law", "b", "", "", 1, false, R::positive(), none, none, "Eq. 10 coefficient of D",
         kT2, TANDEM_ENV_MEMBER(law.b)},
        {"scaling_law", "c", "", "", 1, false, R::nonNegative(), none, none,
         "Eq. 10 coefficient of sparsity", kT2, TANDEM_ENV_MEMBER(law.c)},
        {"scaling_law", "j", "", "", 1, false, R::nonNegative(), none, none,
         "Eq. 10 coefficient of the joint term", kT2, TANDEM_ENV_MEMBER(law.j)},
        {"scaling_law", "e", "nats", "", 1, false, R::nonNegative(), none, none,
         "Eq. 10 irreducible loss", kT2, TANDEM_ENV_MEMBER(law.e)},
        {"scaling_law", "alpha", "", "", 1, false, R::positive(), none, none,
         "Eq. 10 exponent of N_tot", kT2, TANDEM_ENV_MEMBER(law.alpha)},
        {"scaling_law", "beta", "", "", 1, false, R::positive(), none, none, "Eq. 10 exponent of D",
         kT2, TANDEM_ENV_MEMBER(law.beta)},
        {"scaling_law", "lambda", "", "", 1, false, R::nonNegative(), none, none,
         "Eq. 10 exponent of 1 / (1 - S)", kT2, TANDEM_ENV_MEMBER(law.lambda)},
        {"scaling_law", "delta", "", "", 1, false, R::nonNegative(), none, none,
         "Eq. 10 exponent of 1 / (1 - S) in the joint term", kT2, TANDEM_ENV_MEMBER(law.delta)},
        {"scaling_law", "gamma", "", "", 1, false, R::nonNegative(), none, none,
         "Eq. 10 exponent of N_tot in the joint term", kT2, TANDEM_ENV_MEMBER(law.gamma)},
        // G exponent: > 0 by construction (raising G lowers the loss, Sec. 4.2 of
        // arXiv:2608.10605; Table 2: 0.9513, 95 % CI [0.911, 0.954]); up to 4, four times the
        // fit, for what-if studies.
        {"scaling_law", "eta", "", "", 1, false, R{0.0, 4.0, true, false}, none, none,
         "Eq. 10 exponent of the expert split G", kT2, TANDEM_ENV_MEMBER(law.eta)},
    };
    return t;
}

#undef TANDEM_ENV_MEMBER
#undef TANDEM_ENV_LIST
#undef TANDEM_ENV_CUSTOM
#undef TANDEM_ENV_FILES

const EnvelopeField& envelopeField(const std::string& path) {
    return field(envelopeFields(), path, "mosaic");
}

}  // namespace tandem::mosaic
