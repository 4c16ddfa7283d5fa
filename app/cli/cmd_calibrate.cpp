// `tandem-cli calibrate`: refit a training stack's constants to the user's own measured runs
// (mosaic/calibrate.h) and write the result as a stack file for --stack, scenarios and the GUI.
#include <QCommandLineParser>
#include <QFileInfo>
#include <cmath>

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

/// The measured runs of `path` (a CSV in the shipped measured-runs format: header
/// container,system,model,gpus,precision,...); errors on stderr with the file's name.
bool readRuns(const QString& path, std::vector<m::MeasuredRun>& runs) {
    tandem::Diagnostics diag(path.toStdString());
    std::string text;
    if (tandem::io::readTextFile(path.toStdString(), text, diag)) {
        if (text.rfind("container,system,model,", 0) != 0)
            diag.error("line 1",
                       "not a file of measured runs: expected the header "
                       "container,system,model,gpus,precision,gbs,mbs,seq_len,fsdp,tp,pp,cp,vp,"
                       "ep,ga,tokens_per_s_per_gpu,model_tflops_per_s_per_gpu,note");
        else
            for (m::MeasuredRun& r : m::parseMeasuredRuns(text, diag)) runs.push_back(r);
    }
    for (const tandem::Issue& i : diag.items()) printError(QString::fromStdString(i.str()));
    return diag.ok();
}
}  // namespace

int calibrateCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Refit a training stack's fitted constants to your own measured runs, which take the "
        "place of the shipped measured runs on your hardware (the shipped runs on other "
        "hardware hold the constants your runs say nothing about), and write the calibrated "
        "stack to --out for `--stack FILE`, scenarios and the GUI. Prints each run's error "
        "before and after, and the error of each run predicted from the others "
        "(docs/MODEL-MOSAIC.md)."));
    parser.addPositionalArgument(
        QStringLiteral("runs"),
        QStringLiteral("Files of measured runs (CSV with the header of "
                       "tests/data/megatron-bridge/measured-throughput.csv)."),
        QStringLiteral("RUNS..."));
    const QCommandLineOption hardware(
        QStringLiteral("hardware"),
        QStringLiteral("Built-in hardware the runs ran on (default: each run's system)."),
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
    parser.addOptions({hardware, stack, name, out, json});
    int code = kExitOk;
    if (!parseArgs(parser, args, &code)) return code;
    if (parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("calibrate: give at least one file of measured runs"));
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
    for (const std::string& builtin : m::stackNames())
        if (stackName == builtin || stackName.empty()) {
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
    std::vector<m::MeasuredRun> runs;
    for (const QString& f : parser.positionalArguments())
        if (!readRuns(f, runs)) return kExitBadInput;
    std::vector<m::RealityCase> cases;
    for (const m::MeasuredRun& r : runs) {
        m::RealityCase c = m::realityCase(r, base, hw ? &*hw : nullptr);
        if (!c.expressible) {
            printError(QStringLiteral("line %1 (%2): skipped, %3")
                           .arg(r.line)
                           .arg(QString::fromStdString(r.model), QString::fromStdString(c.reason)));
            continue;
        }
        cases.push_back(std::move(c));
    }
    if (cases.empty()) {
        printError(QStringLiteral("calibrate: none of the runs can be costed (see above)"));
        return kExitBadInput;
    }
    m::choosePlans(cases);
    const std::string hwName = hw ? hw->name : cases.front().cluster.hardware.name;
    for (const m::RealityCase& c : cases)
        if (c.cluster.hardware.name != hwName) {
            printError(QStringLiteral("calibrate: the runs are on %1 and %2; calibrate to one "
                                      "cluster's runs at a time (--hardware)")
                           .arg(QString::fromStdString(hwName),
                                QString::fromStdString(c.cluster.hardware.name)));
            return kExitBadInput;
        }
    // The runs the stack was fitted to hold it where the user's runs say nothing; on the
    // user's hardware their runs take the place of the shipped ones.
    std::vector<m::RealityCase> shipped;
    size_t replaced = 0;
    for (m::RealityCase& c : m::realityCases(base)) {
        if (!c.expressible) continue;
        if (c.cluster.hardware.name == hwName)
            ++replaced;
        else
            shipped.push_back(std::move(c));
    }
    m::choosePlans(shipped);
    const m::CalibrationResult cal = m::calibrateStack(
        base, shipped, cases, stackName, hwName, m::replacedRunsWeight(replaced, cases.size()));
    const nlohmann::ordered_json file = m::stackToJson(cal.stack);
    QString err;
    if (!tandem::fileio::writeFileAtomic(outFile, QByteArray::fromStdString(file.dump(2) + "\n"),
                                         &err)) {
        printError(err);
        return kExitFailure;
    }
    if (parser.isSet(json)) {
        nlohmann::ordered_json j = file;
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (size_t i = 0; i < cases.size() && i < cal.errorsBefore.size(); ++i)
            rows.push_back({{"line", cases[i].run.line},
                            {"model", cases[i].run.model},
                            {"measured_tokens_per_s_per_gpu", cases[i].run.tokensPerSPerGpu},
                            {"error_before", cal.errorsBefore[i]},
                            {"error_after", cal.errorsAfter[i]}});
        j["runs"] = rows;
        j["out"] = outFile.toStdString();
        print("%s\n", j.dump(2).c_str());
        return kExitOk;
    }
    print("Calibrating %s to %d run%s on %s\n", base.name.c_str(), cal.summary.runs,
          cal.summary.runs == 1 ? "" : "s", hwName.c_str());
    std::vector<std::vector<std::string>> rows;
    for (size_t i = 0; i < cases.size() && i < cal.errorsBefore.size(); ++i)
        rows.push_back({std::to_string(cases[i].run.line), cases[i].run.model,
                        fixed(cases[i].run.tokensPerSPerGpu, 0), signedPercent(cal.errorsBefore[i]),
                        signedPercent(cal.errorsAfter[i])});
    printTable({"line", "model", "measured tok/s/GPU", "before", "after"}, rows);
    std::vector<std::vector<std::string>> consts;
    m::Stack b = base, a = cal.stack;
    for (const m::StackFitParameter& p : m::stackFitParameters())
        consts.push_back({p.name, significant(p.ref(b), 4), significant(p.ref(a), 4)});
    printTable({"constant", base.name, stackName}, consts);
    print("%s: %s\n", stackName.c_str(), cal.stack.description.c_str());
    print("wrote %s: use it with --stack %s\n", outFile.toUtf8().constData(),
          outFile.toUtf8().constData());
    return kExitOk;
}

}  // namespace cli
