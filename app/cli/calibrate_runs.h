#pragma once
// The runs `tandem-cli calibrate` calibrates to: files of measured runs (the shipped CSV
// format), training logs (io/train_log.h) with what each log does not state given by the flags
// `plan` takes (--model, --layout, --devices, --gbs, --seqlen, --precision), and runs files
// (--runs) that list one log per line followed by its own such flags.
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QStringList>
#include <optional>
#include <vector>

#include "mosaic/hardware.h"
#include "mosaic/reality.h"

namespace cli {

/// The flags that describe a logged run, as `calibrate` and each line of a runs file take them.
struct RunFlags {
    QCommandLineOption model{QStringLiteral("model"),
                             QStringLiteral("For training logs: the model (Tandem's MODEL.json or "
                                            "a Hugging Face config.json), when the log does not "
                                            "state it."),
                             QStringLiteral("MODEL.json")};
    QCommandLineOption layout;
    QCommandLineOption devices{QStringLiteral("devices"),
                               QStringLiteral("For training logs: GPUs of the run (world size)."),
                               QStringLiteral("N")};
    QCommandLineOption gbs{QStringLiteral("gbs"),
                           QStringLiteral("For training logs: global batch, sequences."),
                           QStringLiteral("B")};
    QCommandLineOption seqlen{QStringLiteral("seqlen"),
                              QStringLiteral("For training logs: sequence length, tokens."),
                              QStringLiteral("T")};
    QCommandLineOption precision;
    RunFlags();
    QList<QCommandLineOption> all() const {
        return {model, layout, devices, gbs, seqlen, precision};
    }
};

/// Reads every run of the positional `files` (each a measured-runs CSV or a training log, told
/// apart by content) and of the runs files `runsFiles`, as cases under `base` on `hardware`
/// (CSV rows without it: on their system's hardware). A training log's missing facts come from
/// `parser`'s RunFlags (for a runs file's line: the line's flags, then `parser`'s). Every error
/// is printed on stderr naming the file, the line and the flag; a CSV row that cannot be costed
/// is printed as skipped. nullopt on an error.
std::optional<std::vector<tandem::mosaic::RealityCase>> readCalibrationRuns(
    const QStringList& files, const QStringList& runsFiles, const QCommandLineParser& parser,
    const RunFlags& flags, const tandem::mosaic::Stack& base,
    const std::optional<tandem::mosaic::Hardware>& hardware);

}  // namespace cli
