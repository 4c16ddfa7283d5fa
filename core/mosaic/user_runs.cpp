#include "mosaic/user_runs.h"

#include "io/train_log.h"
#include "mosaic/envelope.h"
#include "mosaic/hardware.h"
#include "mosaic/layout_form.h"
#include "mosaic/log_run.h"
#include "mosaic/model_file.h"

namespace tandem::mosaic {

std::optional<RealityCase> userRunCase(const UserRun& run, const Stack& stack, Diagnostics& diag) {
    LogRunFacts facts;
    std::optional<Hardware> hw;
    try {
        hw = builtinHardware(run.hardware);
    } catch (const std::exception& e) {
        diag.error("hardware", e.what());
    }
    if (!run.modelFile.empty()) {
        PlanRequest req;
        Diagnostics md(run.modelFile);
        if (loadModelFile(run.modelFile, req, md)) {
            facts.geometry = req.geometry;
            facts.modelName = modelFileLabel(run.modelFile);
        } else {
            for (const Issue& i : md.items()) diag.error("model_file", i.str());
        }
    }
    if (!run.layout.empty()) {
        Plan p;
        std::string error;
        if (parseLayout(run.layout, p, error))
            facts.layout = p;
        else
            diag.error("layout", error);
    }
    if (!run.precision.empty()) {
        Precision p = Precision::Bf16;
        if (parsePrecision(run.precision, p))
            facts.precision = p;
        else
            diag.error("precision",
                       "must be " + precisionNameList() + " (got \"" + run.precision + "\")");
    }
    facts.devices = run.devices;
    facts.globalBatch = run.globalBatch;
    facts.seqLen = run.seqLen;
    Diagnostics ld(run.logFile);
    const auto log = io::loadTrainLogFile(run.logFile, ld);
    for (const Issue& i : ld.items()) diag.error("log_file", i.str());
    if (!diag.ok() || !log) return std::nullopt;
    Geometry g;
    const std::string name = run.logFile.substr(run.logFile.find_last_of("/\\") + 1);
    const auto measured = logMeasuredRun(*log, facts, name, hw->name, g, diag);
    if (!measured) return std::nullopt;
    return logRunCase(*measured, g, facts, stack, *hw);
}

std::vector<RealityCase> userRunCases(const std::vector<UserRun>& runs, const Stack& stack,
                                      Diagnostics& diag, std::vector<size_t>* index) {
    std::vector<RealityCase> out;
    for (size_t i = 0; i < runs.size(); ++i) {
        Diagnostics d;
        if (auto c = userRunCase(runs[i], stack, d)) {
            out.push_back(std::move(*c));
            if (index) index->push_back(i);
        }
        for (const Issue& is : d.items())
            diag.error("[" + std::to_string(i) + "]." + is.path, is.message);
    }
    return out;
}

void readUserRuns(JsonReader& r, const char* key, std::vector<UserRun>& out) {
    const nlohmann::json* a = r.raw(key);
    if (!a) return;
    const std::string path = r.childPath(key);
    if (!a->is_array()) {
        r.diagnostics().error(path, "must be an array of runs");
        return;
    }
    out.clear();
    for (size_t i = 0; i < a->size(); ++i) {
        JsonReader e((*a)[i], path + "[" + std::to_string(i) + "]", r.diagnostics());
        if (!e.isObject()) continue;
        UserRun u;
        u.logFile = e.string("log_file", "");
        if (u.logFile.empty()) e.diagnostics().error(e.childPath("log_file"), "is required");
        u.modelFile = e.string("model_file", "");
        u.hardware = e.string("hardware", "");
        if (u.hardware.empty()) e.diagnostics().error(e.childPath("hardware"), "is required");
        u.layout = e.string("layout", "");
        u.devices = int(e.integer("devices", 0, Range::closed(1, kMaxDevices)));
        u.globalBatch = int(e.integer("gbs", 0, Range::closed(1, kMaxGlobalBatch)));
        u.seqLen = int(e.integer("seqlen", 0, Range::closed(1, kMaxSeqLen)));
        u.precision = e.string("precision", "");
        e.finish();
        out.push_back(u);
    }
}

nlohmann::ordered_json userRunsToJson(const std::vector<UserRun>& runs) {
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (const UserRun& u : runs) {
        nlohmann::ordered_json j;
        j["log_file"] = u.logFile;
        if (!u.modelFile.empty()) j["model_file"] = u.modelFile;
        j["hardware"] = u.hardware;
        if (!u.layout.empty()) j["layout"] = u.layout;
        if (u.devices > 0) j["devices"] = u.devices;
        if (u.globalBatch > 0) j["gbs"] = u.globalBatch;
        if (u.seqLen > 0) j["seqlen"] = u.seqLen;
        if (!u.precision.empty()) j["precision"] = u.precision;
        a.push_back(j);
    }
    return a;
}

}  // namespace tandem::mosaic
