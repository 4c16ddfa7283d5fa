#pragma once
// The user's imported runs (mosaic/user_run.h) as cases the reality check plots and a
// calibration fits, and as the scenario's `mosaic.measured_runs` JSON.
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "common/diagnostics.h"
#include "common/json_reader.h"
#include "mosaic/reality.h"
#include "mosaic/user_run.h"

namespace tandem::mosaic {

/// Reads `run`'s log (io::loadTrainLogFile) and model file (loadModelFile), its layout and
/// precision words and its hardware, and makes the run a case under `stack`
/// (logMeasuredRun, logRunCase): what `tandem-cli calibrate LOG --model ... --layout ...`
/// reads. Errors go to `diag` with the field ("log_file", "model_file", "hardware", "layout",
/// "precision", then logMeasuredRun's fields); nullopt on any.
std::optional<RealityCase> userRunCase(const UserRun& run, const Stack& stack, Diagnostics& diag);

/// The cases of `runs` that read (the others skipped; `diag` collects why, each error's path
/// prefixed with "[i]."), in order; `index` (optional) receives each case's index into runs.
std::vector<RealityCase> userRunCases(const std::vector<UserRun>& runs, const Stack& stack,
                                      Diagnostics& diag, std::vector<size_t>* index = nullptr);

/// `measured_runs`: an array of {log_file, model_file?, hardware, layout?, devices?, gbs?,
/// seqlen?, precision?} (absent = the log states it). Errors at their JSON path.
void readUserRuns(JsonReader& r, const char* key, std::vector<UserRun>& out);
/// The array readUserRuns reads (absent keys for what the log states).
nlohmann::ordered_json userRunsToJson(const std::vector<UserRun>& runs);

}  // namespace tandem::mosaic
