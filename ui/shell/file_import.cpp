#include "ui/shell/file_import.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include "inspect/inspect.h"
#include "io/input_kind.h"
#include "mosaic/stack_file.h"
#include "scenario/scenario_files.h"

namespace tandem::ui {

QString importKindName(ImportKind k) {
    switch (k) {
        case ImportKind::ModelConfig:
            return QStringLiteral("model config");
        case ImportKind::NcclTests:
            return QStringLiteral("nccl-tests log");
        case ImportKind::LossLog:
            return QStringLiteral("loss log");
        case ImportKind::StackFile:
            return QStringLiteral("stack file");
        case ImportKind::LoadTrace:
            return QStringLiteral("load trace");
        case ImportKind::TrainLog:
            return QStringLiteral("training log");
    }
    return {};
}

QString importLabel(const QString& path) {
    const QFileInfo info(path);
    QString name = info.fileName();
    if (name.compare(QLatin1String("config.json"), Qt::CaseInsensitive) == 0) {
        const QString folder = info.absoluteDir().dirName();
        if (!folder.isEmpty()) return folder;
    }
    for (const char* suffix : {".json", ".txt", ".csv", ".log", ".config"})
        if (name.endsWith(QLatin1String(suffix), Qt::CaseInsensitive))
            name.chop(int(qstrlen(suffix)));
    static const QRegularExpression version(QStringLiteral("[-_]v\\d+(\\.\\d+)*$"),
                                            QRegularExpression::CaseInsensitiveOption);
    const QString stripped = QString(name).remove(version);
    return stripped.isEmpty() ? name : stripped;
}

std::optional<ImportedFile> readImport(const QString& path, Diagnostics& diag) {
    const std::string p = path.toStdString();
    const nlohmann::ordered_json inspected = inspect::inspectFile(p, diag);
    if (!diag.ok()) return std::nullopt;
    ImportedFile out;
    // The path may become a scenario's trace_file or nccl_tests_files entry: resolved by the
    // same function as every other file reference of a scenario.
    out.path = QString::fromStdString(resolveScenarioFile(p, std::string()));
    out.label = importLabel(path);
    const io::InputKind kind = io::inputKindFromName(inspected.value("kind", std::string()));
    if (kind == io::InputKind::ModelConfig) {
        out.kind = ImportKind::ModelConfig;
        out.model = io::loadModelConfigFile(p, diag);
    } else if (kind == io::InputKind::NcclTests) {
        out.kind = ImportKind::NcclTests;
        out.nccl = io::loadNcclTestsFile(p, diag);
        if (out.nccl && out.nccl->curves.empty()) {
            diag.error("file", "no bus-bandwidth curve in this log");
            out.nccl.reset();
        }
    } else if (kind == io::InputKind::LossLog) {
        out.kind = ImportKind::LossLog;
        out.lossLog = io::loadLossLogFile(p, diag);
        const io::LossSeries* s = out.lossLog ? out.lossLog->preferred() : nullptr;
        if (out.lossLog && !s) diag.error("file", "no loss series to fit");
        if (s) {
            Diagnostics fitDiag;
            out.lossFit = io::fitLossCurve(s->step, s->loss, fitDiag);
            for (const Issue& i : fitDiag.items())
                diag.error("series \"" + s->name + "\"", i.message);
        }
    } else if (kind == io::InputKind::LoadTrace) {
        out.kind = ImportKind::LoadTrace;
        out.trace = io::loadLoadTraceFile(p, diag);
    } else if (kind == io::InputKind::TrainLog) {
        out.kind = ImportKind::TrainLog;
        out.trainLog = io::loadTrainLogFile(p, diag);
    } else if (kind == io::InputKind::StackFile) {
        out.kind = ImportKind::StackFile;
        out.stack = mosaic::loadStack(p, diag, &out.notes);
    } else {
        diag.error("file", "not a recognised input (kind \"" + io::inputKindName(kind) + "\")");
    }
    if (!diag.ok()) return std::nullopt;
    return out;
}

}  // namespace tandem::ui
