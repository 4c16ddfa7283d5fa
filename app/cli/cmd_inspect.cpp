// tandem-cli inspect FILE [--json]: what Tandem understood from a user's file (HF config.json,
// nccl-tests output, training loss log, training log, background load trace). [--hardware NAME]
// sets the hardware whose analytical collective model is shown next to a measured nccl-tests
// curve, and on which a training log's layout is predicted next to its measured run.
#include <QCommandLineParser>
#include <cstdio>

#include "commands.h"
#include "inspect/inspect.h"
#include "mosaic/hardware.h"
#include "output.h"

namespace cli {

int inspectCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Import FILE and print what Tandem understood: a Hugging Face config.json (parameter "
        "counts, sparsity, G), nccl-tests output (bus bandwidth against size), a training loss "
        "log (fitted loss curve), a training log (Megatron-LM, NeMo, torchtitan, modded-nanogpt: "
        "steady-state iteration time, tokens/s, TFLOP/s per GPU, memory) or a background load "
        "trace. For nccl-tests output the analytical collective model of --hardware (default: the "
        "GPU the file name names, e.g. H100, else p6-b200) is listed at every measured size; for a "
        "training log that states its model and layout, --hardware adds Tandem's prediction of "
        "the same layout (predicted / measured). Errors (also in the JSON's errors[]) go to "
        "stderr and exit 2; warnings (e.g. a loss fit that is not usable as a progress curve; also "
        "in the JSON's warnings[]) go to stderr and exit 0."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("File to inspect."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    const QCommandLineOption hardware(
        QStringLiteral("hardware"),
        QStringLiteral("Hardware of the analytical busbw shown next to nccl-tests curves (default: "
                       "the one the file name names, else p6-b200) and of the prediction shown "
                       "next to a training log (none without it): %1.")
            .arg(QString::fromStdString(tandem::mosaic::hardwareNameList())),
        QStringLiteral("NAME"));
    parser.addOptions({json, hardware});
    int code = kExitOk;
    if (!parseArgs(parser, args, &code)) return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1) {
        printError(QStringLiteral("inspect takes exactly one FILE"));
        return kExitBadInput;
    }
    const std::string hw =
        parser.isSet(hardware) ? parser.value(hardware).toStdString() : std::string();
    if (!hw.empty()) {
        try {
            (void)tandem::mosaic::builtinHardware(hw);
        } catch (const std::exception& e) {
            printError(QStringLiteral("--hardware: %1").arg(QString::fromUtf8(e.what())));
            return kExitBadInput;
        }
    }
    tandem::Diagnostics diag(pos[0].toStdString());
    nlohmann::ordered_json j;
    try {
        j = tandem::inspect::inspectFile(pos[0].toStdString(), diag, hw);
    } catch (const std::exception& e) {
        printError(QStringLiteral("%1: %2").arg(pos[0], QString::fromUtf8(e.what())));
        return kExitFailure;
    }
    for (const auto& issue : diag.items()) std::fprintf(stderr, "%s\n", issue.str().c_str());
    if (j.contains("warnings"))
        for (const auto& w : j["warnings"])
            std::fprintf(stderr, "%s: warning: %s\n", pos[0].toStdString().c_str(),
                         w.get<std::string>().c_str());
    // Imported text may hold bytes that are not UTF-8 (a CSV header, a log line quoted in a
    // note); print them as U+FFFD instead of letting nlohmann's type_error 316 abort the CLI.
    if (parser.isSet(json))
        print("%s\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    else
        print("%s", tandem::inspect::inspectText(j).c_str());
    return diag.ok() ? kExitOk : kExitBadInput;
}

}  // namespace cli
