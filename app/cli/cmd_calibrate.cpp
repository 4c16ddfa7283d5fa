// `tandem-cli calibrate`: refit a training stack's constants to the user's own measured runs
// (mosaic/calibrate.h) and write the result as a stack file for --stack, scenarios and the GUI.
#include <QCommandLineParser>
#include <QFileInfo>
#include <cmath>

#include "calibrate_runs.h"
#include "commands.h"
#include "common/diagnostics.h"
#include "io/text_file.h"
#include "mosaic/calibrate.h"
#include "mosaic/hardware.h"
#include "mosaic/reality.h"
#include "mosaic/stack_file.h"
#include "output.h"
#include "save_file.h"

namespace cli {

namespace m = tandem::mosaic;

namespace {
/// "+18.2 %" for an error (predicted / measured - 1).
std::string signedPercent(double e) { return (e >= 0 ? "+" : "") + percent(e) + " %"; }
}  // namespace

int calibrateCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Refit a training stack's fitted constants to your own measured runs, which take the "
        "place of the shipped measured runs on your hardware (the shipped runs on other "
        "hardware hold the constants your runs say nothing about), and write the calibrated "
        "stack to --out for `--stack FILE`, scenarios and the GUI. Prints each run's error "
        "before and after, and the error of each run predicted from the others "
        "(docs/MODEL-MOSAIC.md).\n\n"
        "A run is a row of a measured-runs CSV or a training log (Megatron-LM, NeMo, "
        "torchtitan, modded-nanogpt: the steady iteration time after warm-up is measured). A "
        "log does not say its hardware (--hardware) and often not its model, layout, batch or "
        "precision: give what it does not state with the flags `plan` takes (--model, "
        "--layout, --devices, --gbs, --seqlen, --precision; they apply to every log on the "
        "command line), or list runs of different layouts in a runs file (--runs): one log "
        "per line, then that run's flags, e.g.\n"
        "  logs/tp4-pp8.log --model llama3-70b.json --layout tp=4,pp=8,vp=5 --devices 64 "
        "--gbs 256 --seqlen 8192 --precision fp8\n"
        "(paths relative to the runs file; `#` starts a comment; flags on the command line "
        "fill what a line leaves out). What a log states and a flag contradicts, and what "
        "neither gives, is refused naming the flag."));
    parser.addPositionalArgument(
        QStringLiteral("runs"),
        QStringLiteral("Files of measured runs (CSV with the header of "
                       "tests/data/megatron-bridge/measured-throughput.csv) or training logs."),
        QStringLiteral("RUNS..."));
    const QCommandLineOption hardware(
        QStringLiteral("hardware"),
        QStringLiteral("Built-in hardware the runs ran on (default: each CSV row's system; "
                       "required with training logs)."),
        QStringLiteral("H"));
    const QCommandLineOption stack(
        QStringLiteral("stack"),
        QStringLiteral("Stack to start from: megatron-core (default) or a stack file."),
        QStringLiteral("S"), QStringLiteral("megatron-core"));
    const QCommandLineOption name(QStringLiteral("name"),
                                  QStringLiteral("Name of the calibrated stack (default: the "
                                                 "--out file's name without .json)."),
                                  QStringLiteral("NAME"));
    const QCommandLineOption out(QStringLiteral("out"),
                                 QStringLiteral("Stack file to write (.json)."),
                                 QStringLiteral("FILE.json"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    const QCommandLineOption runsFile(
        QStringLiteral("runs"),
        QStringLiteral("Runs file: one training log per line, then the flags of what it does not "
                       "state (repeatable)."),
        QStringLiteral("RUNS.txt"));
    const RunFlags runFlags;
    parser.addOptions({hardware, stack, name, out, json, runsFile});
    parser.addOptions(runFlags.all());
    int code = kExitOk;
    if (!parseArgs(parser, args, &code)) return code;
    if (parser.positionalArguments().isEmpty() && !parser.isSet(runsFile)) {
        printError(QStringLiteral(
            "calibrate: give at least one file of measured runs, training log or --runs file"));
        return kExitBadInput;
    }
    const QString outFile = parser.value(out);
    if (outFile.isEmpty() || !outFile.endsWith(QLatin1String(".json"))) {
        printError(QStringLiteral("--out: give the stack file to write, ending in .json (got '%1')")
                       .arg(outFile));
        return kExitBadInput;
    }
    const std::string stackName = parser.isSet(name)
                                      ? parser.value(name).toStdString()
                                      : QFileInfo(outFile).completeBaseName().toStdString();
    if (stackName.empty() || m::isBuiltinStack(stackName)) {
        printError(QStringLiteral("--name: '%1' is %2; give the calibrated stack its own name")
                       .arg(QString::fromStdString(stackName),
                            stackName.empty() ? QStringLiteral("empty")
                                              : QStringLiteral("a built-in stack")));
        return kExitBadInput;
    }
    tandem::Diagnostics stackDiag;
    std::vector<std::string> stackNotes;
    const m::Stack base = m::loadStack(parser.value(stack).toStdString(), stackDiag, &stackNotes);
    if (!stackDiag.ok()) {
        for (const tandem::Issue& i : stackDiag.items())
            printError(QStringLiteral("--stack: %1").arg(QString::fromStdString(i.str())));
        return kExitBadInput;
    }
    for (const std::string& n : stackNotes)
        printError(QStringLiteral("--stack %1: warning: %2")
                       .arg(parser.value(stack), QString::fromStdString(n)));
    std::optional<m::Hardware> hw;
    if (parser.isSet(hardware)) {
        try {
            hw = m::builtinHardware(parser.value(hardware).toStdString());
        } catch (const std::exception& e) {
            printError(QStringLiteral("--hardware: %1").arg(QString::fromUtf8(e.what())));
            return kExitBadInput;
        }
    }
    const auto read = readCalibrationRuns(parser.positionalArguments(), parser.values(runsFile),
                                          parser, runFlags, base, hw);
    if (!read) return kExitBadInput;
    std::vector<m::RealityCase> cases = *read;
    if (cases.empty()) {
        printError(QStringLiteral("calibrate: none of the runs can be costed (see above)"));
        return kExitBadInput;
    }
    const std::string hwName = hw ? hw->name : cases.front().cluster.hardware.name;
    for (const m::RealityCase& c : cases)
        if (c.cluster.hardware.name != hwName) {
            printError(QStringLiteral("calibrate: the runs are on %1 and %2; calibrate to one "
                                      "cluster's runs at a time (--hardware)")
                           .arg(QString::fromStdString(hwName),
                                QString::fromStdString(c.cluster.hardware.name)));
            return kExitBadInput;
        }
    const m::CalibrationResult cal = m::calibrateToRuns(base, cases, stackName);
    for (const m::UnusedRun& u : cal.unused)
        printError(QStringLiteral("%1: %2not used: %3")
                       .arg(QString::fromStdString(u.source),
                            cal.summary.runs > 0 ? QStringLiteral("warning: ") : QString(),
                            QString::fromStdString(u.reason)));
    if (cal.summary.runs == 0) {
        printError(QStringLiteral("calibrate: none of the runs can be used (see above)"));
        return kExitBadInput;
    }
    const nlohmann::ordered_json file = m::stackToJson(cal.stack);
    QString err;
    if (!tandem::fileio::writeFileAtomic(outFile, QByteArray::fromStdString(file.dump(2) + "\n"),
                                         &err)) {
        printError(err);
        return kExitFailure;
    }
    const std::vector<m::RealityCase>& used = cal.cases;
    if (parser.isSet(json)) {
        nlohmann::ordered_json j = file;
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (size_t i = 0; i < used.size() && i < cal.errorsBefore.size(); ++i) {
            nlohmann::ordered_json row;
            if (used[i].run.line > 0) row["line"] = used[i].run.line;  // a CSV row's
            row["model"] = used[i].run.model;
            row["source"] = m::runSource(used[i].run);
            row["measured_tokens_per_s_per_gpu"] = used[i].run.tokensPerSPerGpu;
            row["error_before"] = cal.errorsBefore[i];
            row["error_after"] = cal.errorsAfter[i];
            if (i < cal.errorsLeftOut.size())
                row["error_left_out"] = std::isfinite(cal.errorsLeftOut[i])
                                            ? nlohmann::ordered_json(cal.errorsLeftOut[i])
                                            : nlohmann::ordered_json(nullptr);
            rows.push_back(row);
        }
        j["runs"] = rows;
        nlohmann::ordered_json unused = nlohmann::ordered_json::array();
        for (const m::UnusedRun& u : cal.unused)
            unused.push_back({{"source", u.source}, {"reason", u.reason}});
        j["unused"] = unused;
        j["out"] = outFile.toStdString();
        print("%s\n", j.dump(2).c_str());
        return kExitOk;
    }
    print("Calibrating %s to %d run%s on %s\n", base.name.c_str(), cal.summary.runs,
          cal.summary.runs == 1 ? "" : "s", hwName.c_str());
    std::vector<std::vector<std::string>> rows;
    const bool leftOut = !cal.errorsLeftOut.empty();
    for (size_t i = 0; i < used.size() && i < cal.errorsBefore.size(); ++i) {
        rows.push_back({m::runSource(used[i].run), used[i].run.model,
                        fixed(used[i].run.tokensPerSPerGpu, 0), signedPercent(cal.errorsBefore[i]),
                        signedPercent(cal.errorsAfter[i])});
        if (leftOut)
            rows.back().push_back(std::isfinite(cal.errorsLeftOut[i])
                                      ? signedPercent(cal.errorsLeftOut[i])
                                      : std::string("-"));
    }
    std::vector<std::string> header{"run", "model", "measured tok/s/GPU", "before", "after"};
    if (leftOut) header.push_back("left out");
    printTable(header, rows);
    std::vector<std::vector<std::string>> consts;
    m::Stack b = base, a = cal.stack;
    for (const m::StackFitParameter& p : m::stackFitParameters())
        consts.push_back({p.name, significant(p.ref(b), 4), significant(p.ref(a), 4)});
    printTable({"constant", base.name, stackName}, consts);
    // A declined check of a stack calibrated before: what the check found, then the stack,
    // which keeps its own calibration.
    if (cal.keptEarlierCalibration && cal.stack.calibration.adopted)
        print("%s\n", m::calibrationSentence(cal.summary).c_str());
    print("%s: %s\n", stackName.c_str(), cal.stack.description.c_str());
    print("wrote %s: use it with --stack %s\n", outFile.toUtf8().constData(),
          outFile.toUtf8().constData());
    return kExitOk;
}

}  // namespace cli
