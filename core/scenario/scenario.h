#pragma once
// A Tandem scenario: one JSON schema for both engines. Either part may be absent; at least one
// must be present. Units live in key names (`_s`, `_GBps`, `_bytes`, ...), see MODEL.md.
#include <cstddef>
#include <optional>
#include <string>

#include "common/diagnostics.h"
#include "mlforml/params.h"
#include "mosaic/envelope.h"

namespace tandem {

/// Largest scenario file accepted, bytes (scenarios are kilobytes; this stops /dev/zero-like
/// inputs before they are read into memory).
constexpr size_t kMaxScenarioBytes = size_t(16) << 20;

/// Current schema version written to `tandem_scenario_version`.
constexpr int kScenarioVersion = 1;

struct Scenario {
    std::string name;                        ///< short title shown in the window
    std::string description;                 ///< one or two sentences (presets: what to look at)
    std::optional<mlforml::Params> mlForMl;  ///< `ml_for_ml` section [2608.06046]
    std::optional<mosaic::Envelope> mosaic;  ///< `mosaic` section [2608.10605]
};

/// Parses and validates scenario JSON text. Collects every problem (JSON path + reason) in
/// `diag`; returns std::nullopt when anything is wrong. `diag.file()` labels the messages.
/// Files in `mosaic.nccl_tests_files` are imported (relative names opened from the working
/// folder and kept as written) and attached as Envelope::hardware.measured; a missing file or
/// a log that ends in an NCCL error is reported at `$.mosaic.nccl_tests_files[i]` with the
/// file and line. The imported files the scenario keeps (`ml_for_ml.loss_log_file`,
/// `mosaic.imported_model_files`, `mosaic.shown_nccl_tests_file`) are read by their importers:
/// a missing file or an importer's error is reported at that key.
std::optional<Scenario> parseScenario(const std::string& text, Diagnostics& diag);

/// The same for text whose file names belong to the folder `baseDir` (the folder of the
/// scenario's file, scenarioFolder(); empty = the working folder): every file reference
/// (scenarioFileReferences) is resolved with resolveScenarioFiles before the nccl-tests logs
/// are imported and stored absolute. Crash recovery and the GUI's re-validation use this; the
/// trace file is not required to exist (loadScenarioFile requires it).
std::optional<Scenario> parseScenario(const std::string& text, Diagnostics& diag,
                                      const std::string& baseDir);

/// Reads a file and parses it; an unreadable file, a folder, a device or a file over
/// kMaxScenarioBytes is reported as a problem at path "$". Every file reference is resolved
/// against the scenario's folder (parseScenario with scenarioFolder(path)) and stored
/// absolute, so a copy saved anywhere (scenarioToJson) still finds them; a trace scenario
/// whose `ml_for_ml.trace_file` is not a file is reported at that path with where it was
/// looked for, and the trace is read and checked as the engine will replay it
/// (mlforml::loadBackgroundTrace: empty, unparsable or negative rows, a trace longer than the
/// engine replays or a mean load above what the network carries), each problem at that path
/// with the file and line.
std::optional<Scenario> loadScenarioFile(const std::string& path, Diagnostics& diag);

/// Canonical JSON text (2-space indent, every key written, trailing newline). Saving a parsed
/// scenario and parsing it again gives the same text byte for byte. File names
/// (`ml_for_ml.trace_file`, `mosaic.nccl_tests_files`) are written as stored: absolute after
/// loadScenarioFile, so the text validates wherever it is saved.
std::string scenarioToJson(const Scenario& s);

/// The same text for a file about to be written at `savedAs`: absolute file names that lie
/// inside the folder of `savedAs` (or below it) are written relative to that folder, the others
/// stay absolute (scenarioFileForSave); loadScenarioFile(savedAs) then finds every file. Empty
/// `savedAs` = the overload above. (tandem-cli run --out writes DIR/scenario.json and the GUI's
/// Save writes its file through this.)
std::string scenarioToJson(const Scenario& s, const std::string& savedAs);

/// The scenario the GUI opens with: ML-for-ML scenario 1 and the MOSAIC Table 3 envelope.
Scenario defaultScenario();

}  // namespace tandem
