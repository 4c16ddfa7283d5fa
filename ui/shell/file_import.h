#pragma once
// File > Import: reads a user file (Hugging Face config.json, nccl-tests output, training loss
// log, background load trace), detects its kind like `tandem-cli inspect` and validates it
// with the same readers. No widgets here: the main window routes the result to the workspaces.
#include <QString>
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "io/hf_config.h"
#include "io/load_trace.h"
#include "io/loss_fit.h"
#include "io/loss_log.h"
#include "io/nccl_tests.h"
#include "io/train_log.h"
#include "mosaic/stack.h"

namespace tandem::ui {

/// What an imported file turned out to be (inspect::inspectFile's detection).
enum class ImportKind { ModelConfig, NcclTests, LossLog, LoadTrace, StackFile, TrainLog };

/// One imported file, validated; exactly the member of its kind is set.
struct ImportedFile {
    /// absolute path of the file (tandem::resolveScenarioFile against the working folder)
    QString path;
    QString label;  ///< short name for charts, e.g. "Mixtral-8x7B" (see importLabel)
    ImportKind kind = ImportKind::ModelConfig;
    std::optional<io::ModelImport> model;  ///< ModelConfig
    std::optional<io::NcclImport> nccl;    ///< NcclTests (at least one curve)
    std::optional<io::LossLog> lossLog;    ///< LossLog
    std::optional<io::LossFit> lossFit;    ///< LossLog: the fit of lossLog->preferred()
    std::optional<io::LoadTrace> trace;    ///< LoadTrace
    std::optional<mosaic::Stack> stack;    ///< StackFile: a calibrated stack (stack_file.h)
    std::optional<io::TrainLog> trainLog;  ///< TrainLog: a measured run's log (train_log.h)
    /// Warnings the file was read with (StackFile: a retired constant, mosaic::readStackJson),
    /// shown with the import's message; the import itself succeeded.
    std::vector<std::string> notes;
};

/// Reads `path`, detects its kind with inspect::inspectFile (io::detectInputKind: from the content,
/// so a config.json with a byte-order mark, an nccl-tests log with mpirun --tag-output
/// prefixes and a loss log holding NCCL INFO prints land where they belong) and imports it
/// with the matching importer. A background load trace is also checked with the ML-for-ML engine's
/// own reader (CSV time_s,bytes_per_s), since the engine reads the file again when it runs. Errors
/// go to `diag` (constructed with the file name by the caller) with the JSON path or the line and
/// the reason: unreadable file, unknown kind, a Tandem scenario (open it instead), any importer
/// error, a loss log whose series cannot be fitted. Returns std::nullopt on any error.
std::optional<ImportedFile> readImport(const QString& path, Diagnostics& diag);

/// Short label of a file for legends and cards: the file name without ".json", ".config",
/// ".txt", ".csv" and a trailing version tag like "-v0.1" ("Mixtral-8x7B-v0.1.config.json" ->
/// "Mixtral-8x7B"); a file named plain "config.json" takes its folder's name.
QString importLabel(const QString& path);

/// Kind name for messages: "model config", "nccl-tests log", "loss log", "load trace",
/// "stack file", "training log".
QString importKindName(ImportKind k);

}  // namespace tandem::ui
