#include "inspect/inspect.h"

#include <algorithm>
#include <cmath>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "io/hf_config.h"
#include "io/input_kind.h"
#include "io/load_trace.h"
#include "io/loss_fit.h"
#include "io/loss_log.h"
#include "io/nccl_tests.h"
#include "io/text_file.h"
#include "io/train_log.h"
#include "mosaic/collectives.h"
#include "mosaic/layout_form.h"
#include "mosaic/log_run.h"
#include "mosaic/megatron_args.h"
#include "mosaic/perf_model.h"
#include "mosaic/stack.h"
#include "mosaic/stack_file.h"

namespace tandem::inspect {
using namespace tandem::io;  // the importers whose results this module describes
namespace {

using ojson = nlohmann::ordered_json;

/// `v` in the C convention: style 'f' with `digits` decimals, 'g' with `digits` significant
/// digits (printf's %.*f and %.*g).
std::string fmt(double v, char style, int digits) {
    return style == 'f' ? formatFixed(v, digits) : formatGeneral(v, digits);
}

std::string billions(const ojson& v) {
    return v.is_number() ? fmt(v.get<double>() / 1e9, 'f', 2) + " B" : std::string("?");
}

std::string bytesText(double b) { return formatBytes(b); }

std::string num(const ojson& j, const char* key, char style = 'g', int digits = 4) {
    return j.contains(key) && j[key].is_number() ? fmt(j[key].get<double>(), style, digits)
                                                 : std::string("n/a");
}

/// Adds the analytical collective model's busbw at every measured size of `c` to its inspect
/// JSON `cj`: analytical_hardware, analytical_placement and points[].analytical_busbw_GBps
/// (null for collectives the model lacks or an unknown rank count).
void addAnalytical(ojson& cj, const NcclCurve& c, const std::string& hardwareName) {
    mosaic::Hardware hw;
    try {
        hw = mosaic::builtinHardware(hardwareName);
    } catch (const std::exception&) {
        return;  // the CLI validates --hardware; an unknown name adds nothing
    }
    const std::optional<mosaic::Collective> kind = narrow(mosaic::ncclCollectives(), c.collective);
    const bool modelled = kind && c.ranks > 1;
    cj["analytical_hardware"] = hw.name;
    if (modelled) {
        const auto span = mosaic::groupSpan(c.ranks, 1, hw.gpusPerNode);
        cj["analytical_placement"] = std::to_string(c.ranks) + " ranks on " +
                                     std::to_string(span.nodes) + " node(s) of " +
                                     std::to_string(hw.gpusPerNode) + " GPUs";
    } else {
        cj["analytical_placement"] = "not modelled (" + std::string(io::name(c.collective)) + ", " +
                                     std::to_string(c.ranks) + " ranks)";
    }
    double peak = 0;
    for (auto& p : cj["points"]) {
        const double bytes = p.value("bytes", 0.0);
        if (!modelled || !(bytes > 0)) {
            p["analytical_busbw_GBps"] = nullptr;
            continue;
        }
        const double t = mosaic::analyticalCollectiveTime(hw, *kind, bytes, c.ranks, 1);
        const double bw = t > 0 ? bytes * mosaic::busFactor(*kind, c.ranks) / t / 1e9 : 0.0;
        p["analytical_busbw_GBps"] = jsonNumber(bw);
        peak = std::max(peak, bw);
    }
    cj["analytical_peak_busbw_GBps"] = modelled ? jsonNumber(peak) : ojson(nullptr);
    if (!modelled || c.points.empty()) return;
    // What bounds the model at the largest measured size, the line-rate ceiling there (every
    // efficiency 1, no ramp, no latency), and where the model extrapolates.
    const double largest = c.points.back().bytes;
    const mosaic::CollectiveCost cost =
        mosaic::analyticalCollectiveCost(hw, *kind, largest, c.ranks, 1);
    cj["analytical_bound"] = enumName(mosaic::collectiveBoundNames(), cost.bound);
    mosaic::Hardware ideal = hw;
    ideal.intraBusEfficiency = ideal.interBusEfficiency = 1;
    ideal.rampHalfBytes = 0;
    const mosaic::CollectiveCost line =
        mosaic::analyticalCollectiveCost(ideal, *kind, largest, c.ranks, 1);
    const double ceiling =
        line.transfer_s > 0 ? largest * mosaic::busFactor(*kind, c.ranks) / line.transfer_s : 0;
    cj["analytical_ceiling_busbw_GBps"] = jsonNumber(ceiling / 1e9);
    auto notes = ojson::array();
    const std::string beyond =
        mosaic::networkExtrapolation(hw, mosaic::groupSpan(c.ranks, 1, hw.gpusPerNode).nodes);
    if (!beyond.empty()) notes.push_back(beyond);
    // 5 % of slack: NVLink SHARP (NVLS) reduces inside the NVSwitch, a few per cent above the
    // ring's NVLink bound the model uses (the p5 log: 487 GB/s against 482).
    if (c.peakBusbw_Bps > ceiling * 1.05)
        notes.push_back("the measured peak busbw " + fmt(c.peakBusbw_Bps / 1e9, 'f', 1) +
                        " GB/s exceeds the line-rate ceiling " + fmt(ceiling / 1e9, 'f', 1) +
                        " GB/s of " + hw.name + " by more than 5 %" +
                        " at these ranks: the log ran on other hardware or another algorithm "
                        "(e.g. SHARP in the switches)");
    cj["analytical_notes"] = notes;
}

/// The built-in hardware a file name names (A3 Mega, H100, H200, A100, GB200, B200;
/// case-insensitive, A3 Mega before H100, GB200 before B200), or "" when it names none.
std::string hardwareFromFileName(const std::string& path) {
    const std::string n = toLower(baseName(path));
    const std::pair<const char*, const char*> tokens[] = {
        {"a3mega", "a3-mega"}, {"a3-mega", "a3-mega"}, {"gb200", "gb200-nvl72"}, {"h100", "h100"},
        {"h200", "h200"},      {"a100", "a100"},       {"b200", "p6-b200"}};
    for (const auto& [token, name] : tokens)
        if (n.find(token) != std::string::npos) return name;
    return "";
}

void inspectLoss(const std::string& text, ojson& j, Diagnostics& diag) {
    const auto log = parseLossLog(text, diag);
    if (!log) return;
    j["format"] = io::name(log->format);
    auto series = ojson::array();
    for (const auto& s : log->series) {
        ojson o;
        o["name"] = s.name;
        o["validation"] = s.validation;
        o["points"] = s.step.size();
        o["first_step"] = s.step.front();
        o["last_step"] = s.step.back();
        o["last_loss"] = s.loss.back();
        series.push_back(o);
    }
    j["series"] = series;
    const LossSeries* p = log->preferred();
    if (!p) return;
    j["fit_series"] = p->name;
    Diagnostics fitDiag(diag.file());
    const auto fit = fitLossCurve(p->step, p->loss, fitDiag);
    if (!fit) {
        for (const auto& i : fitDiag.items()) diag.error("series \"" + p->name + "\"", i.message);
        return;
    }
    const ojson fitJson = lossFitToJson(*fit);
    for (const auto& [k, v] : fitJson.items())
        if (k != "warnings") j[k] = v;
    for (const auto& w : fit->warnings) j["warnings"].push_back("series \"" + p->name + "\": " + w);
    j["last_step"] = p->step.back();
    j["predicted_at_last_step"] = predictLoss(*fit, p->step.back());
    j["logged_at_last_step"] = p->loss.back();
}

/// The stack a training log's layout is costed under.
constexpr const char* kTrainLogStack = "megatron-core";

/// `v` as a JSON number, null when not finite.
ojson finiteOrNull(double v) { return std::isfinite(v) ? ojson(v) : ojson(nullptr); }

/// Tandem's prediction of the run a training log measured: the log's geometry and layout
/// (io::TrainLogLayout) as the Megatron-LM flags parseMegatronArguments reads, costed by
/// PerfModel::evaluate on built-in hardware `hardware` under the megatron-core stack.
ojson predictTrainLog(const TrainLog& log, const std::string& hardware) {
    const TrainLogLayout& L = log.layout;
    ojson out;
    out["hardware"] = hardware;
    out["stack"] = kTrainLogStack;
    auto notes = ojson::array();
    const std::optional<mosaic::Geometry> logged = mosaic::trainLogGeometry(L);
    if (!logged) {
        out["feasible"] = false;
        out["reason"] = "the log does not state its model";
        out["notes"] = notes;
        return out;
    }
    mosaic::Geometry g = *logged;
    mosaic::Cluster c;
    c.hardware = mosaic::builtinHardware(hardware);
    c.devices = L.worldSize;
    c.stack = mosaic::builtinStack(kTrainLogStack);
    std::string flags = "--tensor-model-parallel-size " + std::to_string(L.tp) +
                        " --pipeline-model-parallel-size " + std::to_string(L.pp) +
                        " --context-parallel-size " + std::to_string(std::max(1, L.cp)) +
                        " --expert-model-parallel-size " + std::to_string(std::max(1, L.ep)) +
                        " --micro-batch-size " + std::to_string(L.microBatch) +
                        " --global-batch-size " + std::to_string(L.globalBatch) + " --seq-length " +
                        std::to_string(L.seqLength);
    if (L.etp > 0) flags += " --expert-tensor-parallel-size " + std::to_string(L.etp);
    if (L.vp > 1) flags += " --num-virtual-stages-per-pipeline-rank " + std::to_string(L.vp);
    if (L.sequenceParallel) flags += " --sequence-parallel";
    if (L.distributedOptimizer) flags += " --use-distributed-optimizer";
    if (!L.recomputeGranularity.empty())
        flags += " --recompute-granularity " + L.recomputeGranularity;
    if (L.precision.rfind("fp8-", 0) == 0)
        flags += " --fp8-format " + L.precision.substr(4);
    else
        flags += " --bf16";
    if (L.precision == "fp16" || L.precision == "fp32")
        notes.push_back(L.precision + " run costed as bf16 (the model has no " + L.precision +
                        " rate)");
    mosaic::Plan plan;
    std::string error;
    std::vector<std::string> argNotes;
    if (!mosaic::parseMegatronArguments(flags, g, c, plan, error, &argNotes)) {
        out["feasible"] = false;
        out["reason"] = error;
        out["notes"] = notes;
        return out;
    }
    for (const auto& n : argNotes) notes.push_back(n);
    const mosaic::PerfModel model(g, c);
    const mosaic::PlanEval e = model.evaluate(plan);
    out["layout"] = mosaic::layoutString(plan);
    out["precision"] = mosaic::precisionName(c.precision);
    out["feasible"] = e.feasible;
    if (!e.feasible) out["reason"] = e.reason;
    out["iteration_s"] = finiteOrNull(e.feasible ? e.iteration_s : NAN);
    out["tokens_per_s_per_gpu"] = finiteOrNull(e.feasible ? e.tokensPerSPerGpu : NAN);
    out["model_tflops_per_gpu"] = finiteOrNull(e.feasible ? e.modelTflopsPerSPerGpu : NAN);
    out["memory_GB"] = finiteOrNull(e.memoryGB);
    if (e.feasible) {
        const auto& b = e.breakdown;
        out["breakdown_s"] = {{"compute", b.compute_s}, {"dispatch", b.dispatch_s},
                              {"all_to_all", b.a2a_s},  {"dp_beyond_compute", b.dpBeyondCompute_s},
                              {"bubble", b.bubble_s},   {"vocabulary", b.vocab_s},
                              {"other", b.other_s}};
        const double measured = log.steady.median_s;
        ojson ratio;
        ratio["iteration_time"] = finiteOrNull(measured > 0 ? e.iteration_s / measured : NAN);
        ratio["tokens_per_s_per_gpu"] = finiteOrNull(e.tokensPerSPerGpu / log.tokensPerSPerGpu);
        ratio["tflops_per_gpu"] = finiteOrNull(e.modelTflopsPerSPerGpu / log.tflopsPerGpu);
        ratio["memory"] = finiteOrNull(e.memoryGB * 1e9 / log.peakMemoryBytes);
        out["predicted_over_measured"] = ratio;
    }
    out["notes"] = notes;
    return out;
}

void inspectTrainLog(const std::string& text, ojson& j, Diagnostics& diag,
                     const std::string& hardwareArg) {
    if (const auto f = trainLogFormat(splitLines(text))) j["format"] = io::name(*f);
    const auto log = parseTrainLog(text, diag);
    if (!log) return;
    const auto& st = log->steady;
    j["records"] = log->steps.size();
    j["first_step"] = log->steps.front().step;
    j["last_step"] = log->steps.back().step;
    j["total_steps"] = log->steps.back().totalSteps;
    j["warmup_records"] = st.warmupRecords;
    j["steady_records"] = st.records;
    ojson t;
    t["median"] = finiteOrNull(st.records > 0 ? st.median_s : NAN);
    t["q25"] = finiteOrNull(st.records > 0 ? st.q25_s : NAN);
    t["q75"] = finiteOrNull(st.records > 0 ? st.q75_s : NAN);
    t["min"] = finiteOrNull(st.records > 0 ? st.min_s : NAN);
    t["max"] = finiteOrNull(st.records > 0 ? st.max_s : NAN);
    t["spread"] = finiteOrNull(st.records > 0 ? st.spread : NAN);
    t["drift"] = st.drift;
    t["drifts"] = st.drifts;
    j["iteration_time_s"] = t;
    j["tokens_per_s"] = finiteOrNull(log->tokensPerS);
    j["tokens_per_s_per_gpu"] = finiteOrNull(log->tokensPerSPerGpu);
    j["tflops_per_gpu"] = finiteOrNull(log->tflopsPerGpu);
    j["mfu"] = finiteOrNull(log->mfu);
    j["peak_memory_bytes"] = finiteOrNull(log->peakMemoryBytes);
    j["skipped_iterations"] = log->skippedIterations;
    j["nan_iterations"] = log->nanIterations;
    j["nan_loss_records"] = log->nanLossLines.size();
    double lastLoss = NAN;
    for (const auto& s : log->steps)
        if (std::isfinite(s.loss)) lastLoss = s.loss;
    j["last_loss"] = finiteOrNull(lastLoss);
    j["validation_points"] = log->validation.size();
    const TrainLogLayout& L = log->layout;
    ojson layout;
    layout["arguments_line"] = L.argumentsLine;
    const std::pair<const char*, int> counts[] = {{"world_size", L.worldSize},
                                                  {"tp", L.tp},
                                                  {"pp", L.pp},
                                                  {"cp", L.cp},
                                                  {"ep", L.ep},
                                                  {"etp", L.etp},
                                                  {"vp", L.vp},
                                                  {"micro_batch", L.microBatch},
                                                  {"global_batch", L.globalBatch},
                                                  {"seq_length", L.seqLength},
                                                  {"layers", L.layers},
                                                  {"hidden", L.hidden},
                                                  {"ffn_hidden", L.ffnHidden},
                                                  {"heads", L.heads},
                                                  {"query_groups", L.queryGroups},
                                                  {"experts", L.experts},
                                                  {"top_k", L.topK},
                                                  {"moe_ffn_hidden", L.moeFfnHidden},
                                                  {"vocab", L.vocab},
                                                  {"padded_vocab", L.paddedVocab}};
    for (const auto& [k, v] : counts) layout[k] = v > 0 ? ojson(v) : ojson(nullptr);
    layout["precision"] = L.precision;
    layout["recompute"] = L.recomputeGranularity;
    layout["sequence_parallel"] = L.sequenceParallel;
    layout["distributed_optimizer"] = L.distributedOptimizer;
    j["layout"] = layout;
    const auto missing = L.missingForPrediction();
    j["missing_for_prediction"] = missing;
    for (const auto& n : log->notes) j["warnings"].push_back(n);
    if (!missing.empty() || hardwareArg.empty()) {
        j["prediction"] = nullptr;
        j["prediction_note"] =
            !missing.empty() ? "the log does not state " +
                                   [&] {
                                       std::string s;
                                       for (const auto& m : missing)
                                           s += (s.empty() ? "" : ", ") + m;
                                       return s;
                                   }()
                             : std::string("give --hardware to compare with Tandem's prediction");
        return;
    }
    j["prediction"] = predictTrainLog(*log, hardwareArg);
}

/// Where the hardware of the analytical collective model comes from.
enum class HardwareSource {
    Argument,  ///< the `hardware` argument (the CLI's --hardware)
    FileName,  ///< the hardware the file name names
    Default,   ///< neither: p6-b200
};

/// The words of analytical_hardware_source: "--hardware", "file name", "default".
const EnumTable<HardwareSource>& hardwareSourceNames() {
    static const EnumTable<HardwareSource> t = {{HardwareSource::Argument, "--hardware"},
                                                {HardwareSource::FileName, "file name"},
                                                {HardwareSource::Default, "default"}};
    return t;
}

const char* kSupported =
    "expected a Hugging Face config.json (model_type), a Tandem scenario (check it with "
    "'tandem-cli validate'), nccl-tests output, a training loss log (CSV with step and loss "
    "columns, llm.c or nanoGPT text), a training log (Megatron-LM, NeMo, torchtitan or "
    "modded-nanogpt) or a load trace (CSV with time_s and bytes_per_s, or bytes "
    "per window)";

void inspectInto(const std::string& text, const std::string& path, ojson& j, Diagnostics& diag,
                 const std::string& hardwareArg) {
    const std::string fromName = hardwareFromFileName(path);
    const std::string hardware = !hardwareArg.empty() ? hardwareArg
                                 : !fromName.empty()  ? fromName
                                                      : "p6-b200";
    const HardwareSource hardwareSource = !hardwareArg.empty() ? HardwareSource::Argument
                                          : !fromName.empty()  ? HardwareSource::FileName
                                                               : HardwareSource::Default;
    const InputKind kind = detectInputKind(text);
    switch (kind) {
        case InputKind::StackFile: {
            j["kind"] = inputKindName(InputKind::StackFile);
            j["format"] = "tandem_stack";
            const auto parsed = parseJsonText(text, diag);
            if (parsed.is_null()) return;
            JsonReader r(parsed, "$", diag);
            std::vector<std::string> notes;
            const mosaic::Stack s = mosaic::readStackJson(r, &notes);
            if (!diag.ok()) return;
            const ojson sj = mosaic::stackToJson(s);
            for (const auto& [k, v] : sj.items()) j[k] = v;
            for (const std::string& n : notes) j["warnings"].push_back(n);
            if (s.calibration.runs > 0)
                j["calibration_sentence"] = mosaic::calibrationSentence(s.calibration);
            return;
        }
        case InputKind::Scenario:
        case InputKind::ModelConfig:
        case InputKind::Json: {
            j["format"] = "json";
            const auto parsed = parseJsonText(text, diag);
            if (parsed.is_null()) return;
            if (kind == InputKind::Scenario) {
                j["kind"] = inputKindName(InputKind::Scenario);
                j["format"] = "tandem_scenario";
                diag.error("$",
                           "this is a Tandem scenario, not a model config; check it with "
                           "'tandem-cli validate' and run it with 'tandem-cli run'");
                return;
            }
            if (kind == InputKind::Json) {
                diag.error("$", std::string("not a recognised input: a JSON ") +
                                    (parsed.is_object() ? "object" : "value") +
                                    " with no model_type, architectures or model-config key "
                                    "(hidden_size, num_hidden_layers, ...); " +
                                    kSupported);
                return;
            }
            j["kind"] = inputKindName(InputKind::ModelConfig);
            j["format"] = "hf_config";
            const auto m = importModelConfig(parsed, diag);
            if (!m) return;
            const ojson mj = modelImportToJson(*m);
            for (const auto& [k, v] : mj.items())
                if (k != "kind") j[k] = v;
            return;
        }
        case InputKind::NcclTests: {
            j["kind"] = inputKindName(InputKind::NcclTests);
            j["format"] = "nccl-tests";
            j["analytical_hardware_source"] = enumName(hardwareSourceNames(), hardwareSource);
            const auto imp = parseNcclTests(text, path, diag);
            if (!imp) return;
            ojson first = ncclCurveToJson(imp->curves.front());
            addAnalytical(first, imp->curves.front(), hardware);
            for (const auto& [k, v] : first.items()) j[k] = v;
            if (imp->curves.size() > 1) {
                auto curves = ojson::array();
                for (const auto& c : imp->curves) {
                    curves.push_back(ncclCurveToJson(c));
                    addAnalytical(curves.back(), c, hardware);
                }
                j["curves"] = curves;
            }
            return;
        }
        case InputKind::LossLog:
            j["kind"] = inputKindName(InputKind::LossLog);
            inspectLoss(text, j, diag);
            return;
        case InputKind::TrainLog:
            j["kind"] = inputKindName(InputKind::TrainLog);
            inspectTrainLog(text, j, diag, hardwareArg);
            return;
        case InputKind::LoadTrace: {
            j["kind"] = inputKindName(InputKind::LoadTrace);
            const auto t = parseLoadTrace(text, diag);
            if (!t) return;
            const ojson tj = loadTraceToJson(*t);
            for (const auto& [k, v] : tj.items()) j[k] = v;
            return;
        }
        case InputKind::LaunchScript:
            // Its flags are read against a model: `plan MODEL.json --megatron-args FILE`.
            j["kind"] = inputKindName(InputKind::LaunchScript);
            j["format"] = "bash";
            j["note"] =
                "a Megatron-LM launch script: cost its run with tandem-cli plan MODEL.json "
                "--devices N --megatron-args " +
                baseName(path);
            return;
        case InputKind::Unknown:
            break;
    }
    diag.error("file", std::string("not a recognised input: ") + kSupported);
}

/// The inspect JSON skeleton (file, kind, format), filled by `fill`, then "errors" (the issues
/// added to `diag` meanwhile) and "warnings".
template <class Fill>
ojson inspectWith(const std::string& path, Diagnostics& diag, Fill fill) {
    ojson j;
    j["file"] = baseName(path);
    j["kind"] = inputKindName(InputKind::Unknown);
    j["format"] = "unknown";
    const std::size_t before = diag.items().size();
    fill(j);
    auto errors = ojson::array();
    for (std::size_t i = before; i < diag.items().size(); ++i)
        errors.push_back({{"path", diag.items()[i].path}, {"message", diag.items()[i].message}});
    j["errors"] = errors;
    if (!j.contains("warnings")) j["warnings"] = ojson::array();
    return j;
}

}  // namespace

ojson inspectContent(const std::string& text, const std::string& path, Diagnostics& diag,
                     const std::string& hardware) {
    return inspectWith(path, diag, [&](ojson& j) {
        inspectInto(text.substr(utf8BomLength(text)), path, j, diag, hardware);
    });
}

ojson inspectFile(const std::string& path, Diagnostics& diag, const std::string& hardware) {
    return inspectWith(path, diag, [&](ojson& j) {
        std::string text;
        if (readTextFile(path, text, diag)) inspectInto(text, path, j, diag, hardware);
    });
}

std::string inspectText(const ojson& j) {
    std::string out;
    const InputKind kind = inputKindFromName(j.value("kind", ""));
    const std::string file = j.value("file", "");
    if (kind == InputKind::ModelConfig && j.contains("n_total")) {
        out += file + ": model_config (" + j.value("format", "") + "), model_type " +
               j.value("model_type", "") + "\n";
        out += "  parameters: total " + billions(j["n_total"]) + ", active " +
               billions(j["n_active"]) +
               " (embedding convention: " + j.value("active_embedding_convention", "") + ")\n";
        out += "  non-embedding: total " + billions(j["n_total_nonembedding"]) + ", active " +
               billions(j["n_active_nonembedding"]) + "\n";
        out += "  sparsity S = " + num(j, "sparsity", 'f', 4) +
               ", split factor G = " + num(j, "split_factor_G", 'g', 3) + "\n";
        const auto& g = j["geometry"];
        out += "  geometry: " + std::to_string(g.value("layers", 0LL)) +
               " layers, d = " + std::to_string(g.value("hidden", 0LL)) + ", " +
               std::to_string(g.value("heads", 0LL)) + " heads (" +
               std::to_string(g.value("kv_heads", 0LL)) + " KV), attention " +
               g.value("attention", "") + ", vocab " + std::to_string(g.value("vocab", 0LL)) +
               (g.value("tied_embeddings", false) ? " (tied)" : "") + "\n";
        if (g.value("experts", 0LL) > 0)
            out += "  MoE: E = " + std::to_string(g.value("experts", 0LL)) +
                   ", K = " + std::to_string(g.value("top_k", 0LL)) +
                   ", d_expert = " + std::to_string(g.value("d_expert", 0LL)) +
                   ", shared experts " + std::to_string(g.value("shared_experts", 0LL)) + ", " +
                   std::to_string(g.value("moe_layers", 0LL)) + " MoE / " +
                   std::to_string(g.value("dense_layers", 0LL)) + " dense layers\n";
        else
            out += "  dense FFN width " + std::to_string(g.value("d_ff_dense", 0LL)) + "\n";
    } else if (kind == InputKind::NcclTests && j.contains("points")) {
        out += file + ": nccl_tests (" + j.value("format", "") + ")\n";
        const ojson curves = j.contains("curves") ? j["curves"] : ojson::array({j});
        const auto hwSource =
            enumFromName(hardwareSourceNames(), j.value("analytical_hardware_source", ""));
        const std::string hwFrom = hwSource == HardwareSource::FileName ? " named in the file name"
                                   : hwSource == HardwareSource::Default
                                       ? ", the default; --hardware sets another"
                                       : "";
        for (const auto& c : curves) {
            out += "  " + c.value("collective", "") + " on " + std::to_string(c.value("ranks", 0)) +
                   " ranks (" + c.value("ranks_source", "") + "): peak busbw " +
                   fmt(c.value("peak_busbw_GBps", 0.0), 'f', 2) + " GB/s at " +
                   bytesText(c.value("peak_at_bytes", 0.0)) + "; " +
                   std::to_string(c["points"].size()) + " sizes from " +
                   bytesText(c.value("min_bytes", 0.0)) + " to " +
                   bytesText(c.value("max_bytes", 0.0)) + "\n";
            if (c.contains("analytical_peak_busbw_GBps") &&
                c["analytical_peak_busbw_GBps"].is_number())
                out +=
                    "    analytical model (" + c.value("analytical_hardware", "") + hwFrom + ", " +
                    c.value("analytical_placement", "") + "): busbw up to " +
                    fmt(c["analytical_peak_busbw_GBps"].get<double>(), 'f', 2) +
                    " GB/s over these sizes" +
                    (c.contains("analytical_bound")
                         ? "; bound by " + c.value("analytical_bound", "") +
                               " at the largest size, line-rate ceiling " +
                               fmt(c.value("analytical_ceiling_busbw_GBps", 0.0), 'f', 1) + " GB/s"
                         : std::string()) +
                    "\n";
            if (c.contains("analytical_notes"))
                for (const auto& n : c["analytical_notes"])
                    out += "    model note: " + n.get<std::string>() + "\n";
            for (const auto& n : c["notes"]) out += "    note: " + n.get<std::string>() + "\n";
        }
    } else if (kind == InputKind::LossLog && j.contains("series")) {
        out += file + ": loss_log (" + j.value("format", "") + ")\n";
        for (const auto& s : j["series"])
            out += "  series " + s.value("name", "") + ": " + std::to_string(s.value("points", 0)) +
                   " points, steps " + formatCount(s.value("first_step", 0.0)) + ".." +
                   formatCount(s.value("last_step", 0.0)) + "\n";
        if (j.contains("L_inf")) {
            const auto& se = j["stderr"];
            out += "  fit on " + j.value("fit_series", "") + ": L(S) = L_inf + A (S + S0)^-alpha\n";
            out += "    L_inf = " + num(j, "L_inf") + " +- " + num(se, "L_inf", 'g', 2) +
                   ", A = " + num(j, "A") + " +- " + num(se, "A", 'g', 2) +
                   ", alpha = " + num(j, "alpha") + " +- " + num(se, "alpha", 'g', 2) +
                   ", S0 = " + num(j, "S0") + " +- " + num(se, "S0", 'g', 2) + "\n";
            out += "    RMSE " + num(j, "rmse") + " over " + std::to_string(j.value("points", 0)) +
                   " points; at step " + formatCount(j.value("last_step", 0.0)) + " fitted " +
                   num(j, "predicted_at_last_step") + ", logged " + num(j, "logged_at_last_step") +
                   "\n";
        }
    } else if (kind == InputKind::TrainLog && j.contains("records")) {
        out += file + ": train_log (" + j.value("format", "") + ")\n";
        const auto& t = j["iteration_time_s"];
        out += "  " + std::to_string(j.value("records", 0)) + " step records, steps " +
               formatCount(j.value("first_step", 0.0)) + ".." +
               formatCount(j.value("last_step", 0.0)) + "; " +
               std::to_string(j.value("warmup_records", 0)) + " warm-up record(s) dropped, " +
               std::to_string(j.value("steady_records", 0)) + " steady\n";
        if (t["median"].is_number())
            out += "  iteration time: median " + num(t, "median", 'g', 4) + " s (quartiles " +
                   num(t, "q25", 'g', 4) + " to " + num(t, "q75", 'g', 4) + " s, spread " +
                   fmt(t.value("spread", 0.0) * 100.0, 'f', 1) + " %; min " +
                   num(t, "min", 'g', 4) + ", max " + num(t, "max", 'g', 4) + " s)\n";
        std::string rates;
        if (j["tokens_per_s"].is_number()) rates += "tokens/s " + num(j, "tokens_per_s", 'g', 5);
        if (j["tokens_per_s_per_gpu"].is_number())
            rates += std::string(rates.empty() ? "" : ", ") + "tokens/s per GPU " +
                     num(j, "tokens_per_s_per_gpu", 'g', 5);
        if (j["tflops_per_gpu"].is_number())
            rates += std::string(rates.empty() ? "" : ", ") + "TFLOP/s per GPU " +
                     num(j, "tflops_per_gpu", 'g', 4) + " (as logged)";
        if (j["mfu"].is_number())
            rates += std::string(rates.empty() ? "" : ", ") + "MFU " +
                     fmt(j.value("mfu", 0.0) * 100.0, 'f', 1) + " % (as logged)";
        if (j["peak_memory_bytes"].is_number())
            rates += std::string(rates.empty() ? "" : ", ") + "peak memory " +
                     bytesText(j.value("peak_memory_bytes", 0.0)) + " per GPU";
        if (!rates.empty()) out += "  measured: " + rates + "\n";
        const auto& L = j["layout"];
        auto c = [&](const char* k) {
            return L[k].is_number() ? std::to_string(L[k].get<long long>()) : std::string("?");
        };
        if (L.value("arguments_line", 0) > 0)
            out += "  layout (arguments at line " + std::to_string(L.value("arguments_line", 0)) +
                   "): " + c("world_size") + " GPUs, TP " + c("tp") + ", PP " + c("pp") + ", CP " +
                   c("cp") + ", EP " + c("ep") + ", micro-batch " + c("micro_batch") +
                   ", global batch " + c("global_batch") + ", sequence " + c("seq_length") +
                   "; model " + c("layers") + " layers, d " + c("hidden") + ", " + c("heads") +
                   " heads, FFN " + c("ffn_hidden") + ", vocab " +
                   (L["padded_vocab"].is_number() ? c("padded_vocab") : c("vocab")) +
                   (L.value("precision", "").empty() ? "" : ", " + L.value("precision", "")) + "\n";
        if (j["prediction"].is_object()) {
            const auto& p = j["prediction"];
            out += "  Tandem on " + p.value("hardware", "") + " (" + p.value("stack", "") +
                   " stack, " + p.value("layout", "") + "): ";
            if (p.value("feasible", false)) {
                out += "iteration " + num(p, "iteration_s", 'g', 4) + " s, tokens/s per GPU " +
                       num(p, "tokens_per_s_per_gpu", 'g', 5) + ", model TFLOP/s per GPU " +
                       num(p, "model_tflops_per_gpu", 'g', 4) + ", memory " +
                       num(p, "memory_GB", 'g', 3) + " GB\n";
                const auto& r = p["predicted_over_measured"];
                out += "    predicted / measured: iteration time " +
                       num(r, "iteration_time", 'f', 3) + ", tokens/s per GPU " +
                       num(r, "tokens_per_s_per_gpu", 'f', 3) + ", TFLOP/s per GPU " +
                       num(r, "tflops_per_gpu", 'f', 3) + ", memory " + num(r, "memory", 'f', 3) +
                       "\n";
                std::string terms;
                for (const auto& [k, v] : p["breakdown_s"].items())
                    if (v.get<double>() > 0)
                        terms += (terms.empty() ? "" : ", ") + k + " " +
                                 fmt(v.get<double>(), 'g', 3) + " s";
                out += "    step-time terms: " + terms + "\n";
            } else {
                out += "not feasible: " + p.value("reason", "") + "\n";
            }
            for (const auto& n : p["notes"]) out += "    note: " + n.get<std::string>() + "\n";
        } else if (j.contains("prediction_note")) {
            out += "  no prediction: " + j.value("prediction_note", "") + "\n";
        }
    } else if (kind == InputKind::LoadTrace && j.contains("samples")) {
        out += file + ": load_trace (" + j.value("format", "") + ")\n";
        out += "  " + std::to_string(j.value("samples", 0)) + " samples over " +
               num(j, "duration_s", 'g', 6) + " s; mean " + num(j, "mean_GBps", 'g', 4) +
               " GB/s, peak " + num(j, "peak_GBps", 'g', 4) + " GB/s\n";
    } else if (kind == InputKind::StackFile && j.contains("constants")) {
        out += file + ": stack_file, stack " + j.value("name", "") + " (rules of " +
               j.value("base", "") + ")\n";
        if (j.contains("calibration_sentence"))
            out += "  " + j.value("calibration_sentence", "") + "\n";
        for (const auto& [name, value] : j["constants"].items())
            out += "  " + name + " " + formatGeneral(value.get<double>(), 4) + "\n";
    } else if (kind == InputKind::LaunchScript) {
        out += file + ": " + inputKindName(kind) + " (" + j.value("format", "") + ")\n";
        out += "  " + j.value("note", "") + "\n";
    } else {
        out += file + ": " + inputKindName(kind) + " (" + j.value("format", "unknown") +
               "), not imported\n";
    }
    if (j.contains("usable") && !j["usable"].get<bool>())
        out += "  the fit is not usable as a progress curve:\n";
    if (j.contains("warnings") && j["warnings"].is_array())
        for (const auto& w : j["warnings"]) out += "  warning: " + w.get<std::string>() + "\n";
    if (j.contains("assumptions") && j["assumptions"].is_array() && !j["assumptions"].empty()) {
        out += "  assumed:\n";
        for (const auto& a : j["assumptions"]) out += "    - " + a.get<std::string>() + "\n";
    }
    return out;
}

}  // namespace tandem::inspect
