#include "calibrate_runs.h"

#include <QDir>
#include <QFileInfo>
#include <cstdio>

#include "common/diagnostics.h"
#include "io/input_kind.h"
#include "io/launch_script.h"
#include "io/text_file.h"
#include "io/train_log.h"
#include "mosaic/envelope.h"
#include "mosaic/log_run.h"
#include "output.h"
#include "plan_flags.h"

namespace cli {

namespace m = tandem::mosaic;

RunFlags::RunFlags()
    : layout(
          QStringLiteral("layout"),
          QStringLiteral("For training logs: the run's layout, when the log does not state it, ") +
              layoutSyntaxHelp() +
              QStringLiteral(". The run is costed with the least recomputation that fits (ckpt "
                             "is not used)."),
          QStringLiteral("LAYOUT")),
      precision(QStringLiteral("precision"),
                QStringLiteral("For training logs: the run's precision, when the log does not "
                               "state it. ") +
                    precisionFlagHelp(),
                QStringLiteral("P")) {}

namespace {

/// The value of `option` on the runs file's line (`line`, when given and set there), else on
/// the command line; `fromLine` says which. Empty when neither sets it.
QString flagValue(const QCommandLineOption& option, const QCommandLineParser* line,
                  const QCommandLineParser& cmd, bool* fromLine = nullptr) {
    const QString name = option.names().front();
    if (fromLine) *fromLine = line && line->isSet(name);
    if (line && line->isSet(name)) return line->value(name);
    return cmd.isSet(name) ? cmd.value(name) : QString();
}

/// The facts the flags give about one logged run; a relative --model on a runs file's line is
/// read from the runs file's folder `dir`. False on an error (printed).
bool readFacts(const RunFlags& f, const QCommandLineParser* line, const QCommandLineParser& cmd,
               const QDir& dir, m::LogRunFacts& facts) {
    bool fromLine = false;
    if (const QString v = flagValue(f.model, line, cmd, &fromLine); !v.isEmpty()) {
        m::PlanRequest req;
        if (!readModelFile(fromLine ? dir.filePath(v) : v, req)) return false;
        facts.geometry = req.geometry;
        facts.modelName = m::modelFileLabel(v.toStdString());
    }
    if (const QString v = flagValue(f.layout, line, cmd); !v.isEmpty()) {
        m::Plan p;
        p.dp = 0;
        if (!readLayoutFlag(v, p)) return false;
        facts.layout = p;
    }
    struct Count {
        const QCommandLineOption& option;
        const char* name;
        int* out;
        int max;
    };
    for (const Count& c : {Count{f.devices, "devices", &facts.devices, m::kMaxDevices},
                           Count{f.gbs, "gbs", &facts.globalBatch, m::kMaxGlobalBatch},
                           Count{f.seqlen, "seqlen", &facts.seqLen, m::kMaxSeqLen}})
        if (const QString v = flagValue(c.option, line, cmd); !v.isEmpty())
            if (!positiveInt(v, c.name, c.out, c.max)) return false;
    if (const QString v = flagValue(f.precision, line, cmd); !v.isEmpty()) {
        m::Precision p = m::Precision::Bf16;
        if (!readPrecisionFlag(v, p)) return false;
        facts.precision = p;
    }
    return true;
}

/// Prints each issue of `diag` as "FILE: --FIELD: reason" (a field of LogRunFacts is a flag;
/// "log" and line paths stay as they are).
void printIssues(const tandem::Diagnostics& diag, const QString& file) {
    for (const tandem::Issue& i : diag.items()) {
        const QString path = QString::fromStdString(i.path);
        const bool field = !path.isEmpty() && path != QLatin1String("log") &&
                           !path.startsWith(QLatin1String("line"));
        printError(QStringLiteral("%1: %2%3")
                       .arg(file,
                            field ? QStringLiteral("--") + path + QStringLiteral(": ")
                            : path.isEmpty() || path == QLatin1String("log")
                                ? QString()
                                : path + QStringLiteral(": "),
                            QString::fromStdString(i.message)));
    }
}

/// One training log `path` (text already read) as a case; `label` names it in messages.
bool readLogRun(const QString& path, const std::string& text, const m::LogRunFacts& facts,
                const m::Stack& base, const std::optional<m::Hardware>& hardware,
                std::vector<m::RealityCase>& cases) {
    if (!hardware) {
        printError(QStringLiteral("%1: --hardware: a training log does not say which hardware it "
                                  "ran on; give --hardware")
                       .arg(path));
        return false;
    }
    tandem::Diagnostics diag(path.toStdString());
    const auto log = tandem::io::parseTrainLog(text, diag);
    if (!log) {
        for (const tandem::Issue& i : diag.items()) printError(QString::fromStdString(i.str()));
        return false;
    }
    m::Geometry g;
    tandem::Diagnostics runDiag;
    const auto run = m::logMeasuredRun(*log, facts, QFileInfo(path).fileName().toStdString(),
                                       hardware->name, g, runDiag);
    if (!run) {
        printIssues(runDiag, path);
        return false;
    }
    for (const std::string& n : log->notes)
        std::fprintf(stderr, "%s: note: %s\n", path.toUtf8().constData(), n.c_str());
    m::RealityCase c = m::logRunCase(*run, g, facts, base, *hardware);
    cases.push_back(std::move(c));
    return true;
}

/// One file given on the command line: a CSV of measured runs or a training log.
bool readFile(const QString& path, const m::LogRunFacts& facts, const m::Stack& base,
              const std::optional<m::Hardware>& hardware, std::vector<m::RealityCase>& cases) {
    tandem::Diagnostics diag(path.toStdString());
    std::string text;
    if (!tandem::io::readTextFile(path.toStdString(), text, diag)) {
        for (const tandem::Issue& i : diag.items()) printError(QString::fromStdString(i.str()));
        return false;
    }
    if (tandem::io::detectInputKind(text) == tandem::io::InputKind::TrainLog)
        return readLogRun(path, text, facts, base, hardware, cases);
    if (text.rfind("container,system,model,", 0) != 0) {
        diag.error("line 1",
                   "neither a training log nor a file of measured runs: expected the header "
                   "container,system,model,gpus,precision,gbs,mbs,seq_len,fsdp,tp,pp,cp,vp,"
                   "ep,ga,tokens_per_s_per_gpu,model_tflops_per_s_per_gpu,note");
    } else {
        for (const m::MeasuredRun& r : m::parseMeasuredRuns(text, diag)) {
            // A row states its system; --hardware may name it, not another one.
            const std::string known = hardware && m::measuredSystemIndex(r.system) >= 0
                                          ? m::measuredSystemOfHardware(hardware->name)
                                          : r.system;
            if (known != r.system) {
                diag.error("line " + std::to_string(r.line),
                           "the row ran on " + r.system + ", but --hardware is " + hardware->name +
                               (known.empty() ? "" : " (" + known + ")") +
                               ": give the runs of one system, with its hardware or none");
                continue;
            }
            m::RealityCase c = m::realityCase(r, base, hardware ? &*hardware : nullptr);
            if (!c.expressible) {
                printError(
                    QStringLiteral("%1: line %2 (%3): skipped, %4")
                        .arg(path)
                        .arg(r.line)
                        .arg(QString::fromStdString(r.model), QString::fromStdString(c.reason)));
                continue;
            }
            cases.push_back(std::move(c));
        }
    }
    for (const tandem::Issue& i : diag.items()) printError(QString::fromStdString(i.str()));
    return diag.ok();
}

/// A runs file: one training log per command (line), then that run's flags; `#` comments.
bool readRunsFile(const QString& path, const RunFlags& flags, const QCommandLineParser& cmd,
                  const m::Stack& base, const std::optional<m::Hardware>& hardware,
                  std::vector<m::RealityCase>& cases) {
    tandem::Diagnostics diag(path.toStdString());
    std::string text, error;
    std::vector<tandem::io::ScriptCommand> commands;
    if (!tandem::io::readTextFile(path.toStdString(), text, diag)) {
        for (const tandem::Issue& i : diag.items()) printError(QString::fromStdString(i.str()));
        return false;
    }
    if (!tandem::io::scriptCommands(text, commands, error)) {
        printError(QStringLiteral("--runs %1: %2").arg(path, QString::fromStdString(error)));
        return false;
    }
    const QDir dir = QFileInfo(path).absoluteDir();
    int logs = 0;
    for (const tandem::io::ScriptCommand& c : commands) {
        if (c.array || c.words.empty()) continue;
        const QString where = QStringLiteral("--runs %1: line %2").arg(path).arg(c.lines.front());
        QStringList words{QStringLiteral("runs")};
        for (const std::string& w : c.words) words << QString::fromStdString(w);
        QCommandLineParser line;
        line.addOptions(flags.all());
        if (!line.parse(words)) {
            // The hardware (and the stack) are the calibration's, one for all its runs.
            const bool perCommand =
                c.words.size() > 1 &&
                std::any_of(c.words.begin(), c.words.end(), [](const auto& w) {
                    return w.rfind("--hardware", 0) == 0 || w.rfind("--stack", 0) == 0;
                });
            printError(
                QStringLiteral("%1: %2%3")
                    .arg(where, line.errorText(),
                         perCommand
                             ? QStringLiteral(" (--hardware and --stack apply to every run: give "
                                              "them once, on the command line)")
                             : QString()));
            return false;
        }
        if (line.positionalArguments().size() != 1) {
            printError(QStringLiteral("%1: give one training log, then its flags (got %2 files)")
                           .arg(where)
                           .arg(line.positionalArguments().size()));
            return false;
        }
        const QString log = dir.filePath(line.positionalArguments().front());
        m::LogRunFacts facts;
        if (!readFacts(flags, &line, cmd, dir, facts)) {
            printError(QStringLiteral("%1: (the flags above)").arg(where));
            return false;
        }
        tandem::Diagnostics logDiag(log.toStdString());
        std::string logText;
        if (!tandem::io::readTextFile(log.toStdString(), logText, logDiag)) {
            for (const tandem::Issue& i : logDiag.items())
                printError(QStringLiteral("%1: %2").arg(where, QString::fromStdString(i.str())));
            return false;
        }
        if (tandem::io::detectInputKind(logText) != tandem::io::InputKind::TrainLog) {
            printError(QStringLiteral("%1: %2 is not a training log").arg(where, log));
            return false;
        }
        if (!readLogRun(log, logText, facts, base, hardware, cases)) return false;
        ++logs;
    }
    if (logs == 0) {
        printError(QStringLiteral("--runs %1: no training log listed (one per line: LOG then its "
                                  "flags)")
                       .arg(path));
        return false;
    }
    return true;
}

}  // namespace

std::optional<std::vector<m::RealityCase>> readCalibrationRuns(
    const QStringList& files, const QStringList& runsFiles, const QCommandLineParser& parser,
    const RunFlags& flags, const m::Stack& base, const std::optional<m::Hardware>& hardware) {
    m::LogRunFacts facts;
    if (!readFacts(flags, nullptr, parser, QDir::current(), facts)) return std::nullopt;
    std::vector<m::RealityCase> cases;
    for (const QString& f : files)
        if (!readFile(f, facts, base, hardware, cases)) return std::nullopt;
    for (const QString& f : runsFiles)
        if (!readRunsFile(f, flags, parser, base, hardware, cases)) return std::nullopt;
    return cases;
}

}  // namespace cli
