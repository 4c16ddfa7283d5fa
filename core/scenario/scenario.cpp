#include "scenario/scenario.h"

#include <filesystem>

#include "common/json_reader.h"
#include "io/hf_config.h"
#include "io/loss_log.h"
#include "io/nccl_tests.h"
#include "io/text_file.h"
#include "io/train_log.h"
#include "mlforml/background_trace.h"
#include "mosaic/measured_collectives.h"
#include "mosaic/model_file.h"
#include "scenario/scenario_files.h"

namespace tandem {
namespace {

/// How parseScenarioIn treats the files a scenario names: `resolve` them against `baseDir`
/// (resolveScenarioFiles; empty = the working folder) or keep them as written, and, for a
/// scenario file, `requireTrace`: a trace that is not a file is an input error.
struct FileNames {
    bool resolve = false;
    std::string baseDir;
    bool requireTrace = false;
};

/// Imports `mosaic.nccl_tests_files` (opened as stored) and attaches the curves to the
/// envelope's hardware; problems at `$.mosaic.nccl_tests_files[i]` with the file and line.
void attachMeasuredCollectives(mosaic::Envelope& e, Diagnostics& diag) {
    if (e.ncclTestsFiles.empty()) return;
    auto measured =
        mosaic::loadMeasuredCollectives(e.ncclTestsFiles, diag, "$.mosaic.nccl_tests_files");
    if (measured) e.hardware.measured = std::move(measured);
}

/// A trace scenario's `trace_file` (resolved) must be a file the engine can replay, read and
/// checked by the engine's own loader (mlforml::loadBackgroundTrace), so `validate` fails
/// exactly where `run` would; `written` is the name as the scenario gave it, for the message.
void checkTraceFile(const mlforml::Params& p, const std::string& written, Diagnostics& diag) {
    if (p.scenario != mlforml::ScenarioKind::Trace) return;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(p.traceFile, ec)) {
        diag.error("$.ml_for_ml.trace_file",
                   "cannot open \"" + written + "\" (looked for " + p.traceFile + ")");
        return;
    }
    (void)mlforml::loadBackgroundTrace(p, written, "$.ml_for_ml.trace_file", diag);
}

/// What an imported file a scenario keeps must be, i.e. which importer reads it.
enum class ImportedKind { LossLog, ModelConfig, NcclTests, TrainLog, ModelFile };

/// One imported file a scenario keeps (`ml_for_ml.loss_log_file`, `mosaic.imported_model_files[i]`,
/// `mosaic.shown_nccl_tests_file`, `mosaic.measured_runs[i].log_file` / `.model_file`): its name as
/// written, the name resolved, the JSON path and its kind.
struct ImportRef {
    std::string written;
    const std::string* resolved;
    std::string path;
    ImportedKind kind;
};

/// Every imported file the scenario keeps, with the names as written (before resolution).
std::vector<ImportRef> importRefs(const Scenario& s) {
    std::vector<ImportRef> out;
    if (s.mlForMl && !s.mlForMl->lossLogFile.empty())
        out.push_back({s.mlForMl->lossLogFile, &s.mlForMl->lossLogFile, "$.ml_for_ml.loss_log_file",
                       ImportedKind::LossLog});
    if (s.mosaic) {
        const auto& models = s.mosaic->importedModelFiles;
        for (size_t i = 0; i < models.size(); ++i)
            out.push_back({models[i], &models[i],
                           "$.mosaic.imported_model_files[" + std::to_string(i) + "]",
                           ImportedKind::ModelConfig});
        if (!s.mosaic->shownNcclTestsFile.empty())
            out.push_back({s.mosaic->shownNcclTestsFile, &s.mosaic->shownNcclTestsFile,
                           "$.mosaic.shown_nccl_tests_file", ImportedKind::NcclTests});
        const auto& runs = s.mosaic->userRuns;
        for (size_t i = 0; i < runs.size(); ++i) {
            const std::string at = "$.mosaic.measured_runs[" + std::to_string(i) + "].";
            out.push_back(
                {runs[i].logFile, &runs[i].logFile, at + "log_file", ImportedKind::TrainLog});
            if (!runs[i].modelFile.empty())
                out.push_back({runs[i].modelFile, &runs[i].modelFile, at + "model_file",
                               ImportedKind::ModelFile});
        }
    }
    return out;
}

/// Each imported file must still be a file its importer reads (io::loadLossLogFile,
/// io::loadModelConfigFile, io::loadNcclTestsFile, io::loadTrainLogFile, mosaic::loadModelFile,
/// the readers of File > Import): a missing
/// file is reported at its key with where it was looked for, an importer's problems at the key
/// with the file's own location. `written` holds the names before resolution, in importRefs order.
void checkImportFiles(const Scenario& s, const std::vector<std::string>& written,
                      Diagnostics& diag) {
    const std::vector<ImportRef> refs = importRefs(s);
    for (size_t i = 0; i < refs.size(); ++i) {
        const std::string& file = *refs[i].resolved;
        const std::string& name = i < written.size() ? written[i] : file;
        std::error_code ec;
        if (!std::filesystem::is_regular_file(file, ec)) {
            diag.error(refs[i].path, "cannot open \"" + name + "\" (looked for " + file + ")");
            continue;
        }
        Diagnostics sub(file);
        bool ok = false;
        if (refs[i].kind == ImportedKind::LossLog) {
            const auto log = io::loadLossLogFile(file, sub);
            ok = log && log->preferred();
            if (log && !log->preferred()) sub.error("file", "no loss series");
        } else if (refs[i].kind == ImportedKind::NcclTests) {
            const auto nccl = io::loadNcclTestsFile(file, sub);
            ok = nccl && !nccl->curves.empty();
            if (nccl && nccl->curves.empty()) sub.error("file", "no bus-bandwidth curve");
        } else if (refs[i].kind == ImportedKind::TrainLog) {
            ok = io::loadTrainLogFile(file, sub).has_value();
        } else if (refs[i].kind == ImportedKind::ModelFile) {
            mosaic::PlanRequest req;
            ok = mosaic::loadModelFile(file, req, sub);
        } else {
            ok = io::loadModelConfigFile(file, sub).has_value();
        }
        if (ok && sub.ok()) continue;
        for (const Issue& issue : sub.items())
            diag.error(refs[i].path, "\"" + name + "\" " + issue.path + ": " + issue.message);
    }
}

/// Every value read must survive the canonical copy: a finite number in a file whose
/// conversion to SI units overflows (1e300 TFLOP/s is 1e312 FLOP/s) would be written as null.
/// Reports each such key at its path.
void checkCanonicalCopy(const nlohmann::ordered_json& part, const std::string& path,
                        Diagnostics& diag) {
    for (const std::string& p : nonFiniteNumberPaths(part, path))
        diag.error(p,
                   "is too large: it overflows when converted to SI units (no finite number "
                   "represents it); use a physically meaningful value");
}

std::optional<Scenario> parseScenarioIn(const std::string& text, Diagnostics& diag,
                                        const FileNames& names) {
    const size_t before = diag.items().size();
    const nlohmann::json root = parseJsonText(text, diag);
    if (diag.items().size() != before) return std::nullopt;
    if (!root.is_object()) {
        diag.error("$", "a scenario must be a JSON object");
        return std::nullopt;
    }
    JsonReader r(root, "$", diag);
    Scenario s;
    r.integer("tandem_scenario_version", kScenarioVersion, Range::closed(1, kScenarioVersion));
    s.name = r.string("name", "");
    s.description = r.string("description", "");
    // Register both section names first so a misspelt one gets a "did you mean" hint.
    r.raw("ml_for_ml");
    r.raw("mosaic");
    if (r.has("ml_for_ml")) {
        JsonReader part = r.object("ml_for_ml");
        mlforml::Params p;
        if (part.isObject()) mlforml::readParams(part, p);
        s.mlForMl = p;
    }
    if (r.has("mosaic")) {
        JsonReader part = r.object("mosaic");
        mosaic::Envelope e;
        if (part.isObject()) mosaic::readEnvelope(part, e);
        s.mosaic = e;
    }
    if (diag.items().size() == before) {
        if (s.mlForMl) checkCanonicalCopy(mlforml::writeParams(*s.mlForMl), "$.ml_for_ml", diag);
        if (s.mosaic) checkCanonicalCopy(mosaic::writeEnvelope(*s.mosaic), "$.mosaic", diag);
    }
    if (diag.items().size() == before) {
        const std::string writtenTrace = s.mlForMl ? s.mlForMl->traceFile : std::string();
        std::vector<std::string> writtenImports;
        for (const ImportRef& ref : importRefs(s)) writtenImports.push_back(ref.written);
        if (names.resolve) resolveScenarioFiles(s, names.baseDir);
        checkImportFiles(s, writtenImports, diag);
        if (names.requireTrace && s.mlForMl) checkTraceFile(*s.mlForMl, writtenTrace, diag);
        if (s.mosaic) attachMeasuredCollectives(*s.mosaic, diag);
    }
    r.finish();
    if (!s.mlForMl && !s.mosaic && diag.items().size() == before)
        diag.error("$", "needs an \"ml_for_ml\" or a \"mosaic\" section (or both)");
    if (diag.items().size() != before) return std::nullopt;
    return s;
}

}  // namespace

std::optional<Scenario> parseScenario(const std::string& text, Diagnostics& diag) {
    return parseScenarioIn(text, diag, FileNames{});
}

std::optional<Scenario> parseScenario(const std::string& text, Diagnostics& diag,
                                      const std::string& baseDir) {
    return parseScenarioIn(text, diag, FileNames{true, baseDir, false});
}

std::optional<Scenario> loadScenarioFile(const std::string& path, Diagnostics& diag) {
    std::string text;
    const io::TextFileRead read = io::readTextFileWithin(path, kMaxScenarioBytes, text);
    switch (read.error) {
        case io::TextFileError::None:
            break;
        case io::TextFileError::Folder:
            diag.error("$", "is a folder, not a scenario file");
            return std::nullopt;
        case io::TextFileError::NotRegularFile:
            diag.error("$", "is not a regular file (devices and pipes are not read)");
            return std::nullopt;
        case io::TextFileError::TooLarge:
            diag.error("$", "file is larger than " + std::to_string(kMaxScenarioBytes >> 20) +
                                " MiB; a scenario is a few kilobytes of JSON");
            return std::nullopt;
        case io::TextFileError::CannotOpen:
        case io::TextFileError::UnknownSize:
        case io::TextFileError::ReadFailed:
            diag.error("$", "cannot open file for reading" +
                                (read.reason.empty() ? std::string() : ": " + read.reason));
            return std::nullopt;
    }
    // Files named relative to the scenario are found next to it, whatever the working folder;
    // a missing trace is an input error now, not a run-time failure later.
    return parseScenarioIn(text, diag, FileNames{true, scenarioFolder(path), true});
}

std::string scenarioToJson(const Scenario& s) { return scenarioToJson(s, std::string()); }

std::string scenarioToJson(const Scenario& s, const std::string& savedAs) {
    if (!savedAs.empty()) {
        Scenario copy = s;
        for (std::string* f : scenarioFileReferences(copy)) *f = scenarioFileForSave(*f, savedAs);
        return scenarioToJson(copy, std::string());
    }
    nlohmann::ordered_json j;
    j["tandem_scenario_version"] = kScenarioVersion;
    j["name"] = s.name;
    j["description"] = s.description;
    if (s.mlForMl) j["ml_for_ml"] = mlforml::writeParams(*s.mlForMl);
    if (s.mosaic) j["mosaic"] = mosaic::writeEnvelope(*s.mosaic);
    return j.dump(2) + "\n";
}

Scenario defaultScenario() {
    Scenario s;
    s.name = "Default: ML-for-ML scenario 1 and MOSAIC Table 3 envelope";
    s.description =
        "A GPT-2 Large job shares a fabric with N co-running GPT-1B jobs [2608.06046 Sec. 3.2]; "
        "an MoE is sized for 32 p6-b200 nodes over 20 days [2608.10605 Table 3].";
    s.mlForMl.emplace();
    s.mosaic.emplace();
    return s;
}

}  // namespace tandem
