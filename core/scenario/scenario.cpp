#include "scenario/scenario.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/json_reader.h"
#include "mosaic/measured_collectives.h"

namespace tandem {
namespace {

/// `p` made absolute against the working folder (as given when that fails), lexically normal.
std::filesystem::path absolutePath(const std::filesystem::path& p) {
    std::error_code ec;
    std::filesystem::path a = std::filesystem::absolute(p, ec);
    return (ec ? p : a).lexically_normal();
}

/// How a file named in a scenario is written into a scenario saved at `savedAs`: relative to
/// the saved file's folder when the file lies inside that folder's tree, absolute otherwise
/// (so the written scenario validates from wherever it is opened). A path that is still
/// relative (from parseScenario, which has no folder) is written as given.
std::string pathForSave(const std::string& stored, const std::filesystem::path& savedAs) {
    if (stored.empty() || savedAs.empty()) return stored;
    const std::filesystem::path p(stored);
    if (p.is_relative()) return stored;
    const std::filesystem::path folder = absolutePath(savedAs).parent_path();
    const std::filesystem::path rel = p.lexically_normal().lexically_relative(folder);
    if (rel.empty() || *rel.begin() == "..") return p.lexically_normal().string();
    return rel.generic_string();
}

/// Imports `mosaic.nccl_tests_files` (relative names against `baseDir`, as given when it is
/// empty) and attaches the curves to the envelope's hardware; problems at
/// `$.mosaic.nccl_tests_files[i]` with the file and line.
void attachMeasuredCollectives(mosaic::Envelope& e, const std::filesystem::path& baseDir,
                               Diagnostics& diag) {
    if (e.ncclTestsFiles.empty()) return;
    std::vector<std::string> resolved;
    for (const auto& f : e.ncclTestsFiles) {
        std::filesystem::path p(f);
        if (p.is_relative() && !baseDir.empty()) p = absolutePath(baseDir / p);
        resolved.push_back(p.lexically_normal().string());
    }
    auto measured = mosaic::loadMeasuredCollectives(resolved, diag, "$.mosaic.nccl_tests_files");
    if (!measured) return;
    e.ncclTestsFiles = resolved;
    e.hardware.measured = std::move(measured);
}

std::optional<Scenario> parseScenarioIn(const std::string& text, Diagnostics& diag,
                                        const std::filesystem::path& baseDir) {
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
        if (diag.items().size() == before) attachMeasuredCollectives(e, baseDir, diag);
        s.mosaic = e;
    }
    r.finish();
    if (!s.mlForMl && !s.mosaic && diag.items().size() == before)
        diag.error("$", "needs an \"ml_for_ml\" or a \"mosaic\" section (or both)");
    if (diag.items().size() != before) return std::nullopt;
    return s;
}

}  // namespace

std::optional<Scenario> parseScenario(const std::string& text, Diagnostics& diag) {
    return parseScenarioIn(text, diag, {});
}

std::optional<Scenario> loadScenarioFile(const std::string& path, Diagnostics& diag) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::is_directory(status)) {
        diag.error("$", "is a folder, not a scenario file");
        return std::nullopt;
    }
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
        diag.error("$", "is not a regular file (a device or pipe cannot be a scenario)");
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        diag.error("$", "cannot open file for reading");
        return std::nullopt;
    }
    // Read at most one byte past the cap, so a huge file is refused without being loaded.
    std::string text(kMaxScenarioBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxScenarioBytes) {
        diag.error("$", "file is larger than " + std::to_string(kMaxScenarioBytes >> 20) +
                            " MiB; a scenario is a few kilobytes of JSON");
        return std::nullopt;
    }
    auto s = parseScenarioIn(text, diag, std::filesystem::path(path).parent_path());
    // A measured background trace named relative to the scenario is found next to it, whatever
    // the working folder; a missing trace is an input error now, not a run-time failure later.
    if (s && s->mlForMl && s->mlForMl->scenario == "trace") {
        std::filesystem::path trace(s->mlForMl->traceFile);
        if (trace.is_relative())
            trace = absolutePath(std::filesystem::path(path).parent_path() / trace);
        std::error_code tec;
        if (!std::filesystem::is_regular_file(trace, tec)) {
            diag.error("$.ml_for_ml.trace_file",
                       "cannot open \"" + s->mlForMl->traceFile + "\" (looked for " +
                           trace.lexically_normal().string() + ")");
            return std::nullopt;
        }
        s->mlForMl->traceFile = trace.lexically_normal().string();
    }
    return s;
}

std::string scenarioToJson(const Scenario& s) { return scenarioToJson(s, std::string()); }

std::string scenarioToJson(const Scenario& s, const std::string& savedAs) {
    if (!savedAs.empty()) {
        Scenario copy = s;
        if (copy.mlForMl && !copy.mlForMl->traceFile.empty())
            copy.mlForMl->traceFile = pathForSave(copy.mlForMl->traceFile, savedAs);
        if (copy.mosaic)
            for (auto& f : copy.mosaic->ncclTestsFiles) f = pathForSave(f, savedAs);
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
