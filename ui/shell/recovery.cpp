#include "ui/shell/recovery.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>
#include <QTimer>
#include <QUuid>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/json_reader.h"
#include "output_folder.h"
#include "save_file.h"
#include "scenario/scenario_files.h"
#include "ui/shell/scenario_document.h"

namespace tandem::ui {

namespace {
const char* kPrefix = "session-";

QString lockPathOf(const QString& recoveryFile) {
    QString p = recoveryFile;
    if (p.endsWith(QLatin1String(".json"))) p.chop(5);
    return p + QStringLiteral(".lock");
}

/// The folder the names of a document saved at `originalPath` belong to (empty for an
/// untitled document: the working folder).
std::string baseFolderOf(const QString& originalPath) {
    return scenarioFolder(QFile::encodeName(originalPath).toStdString());
}
}  // namespace

Scenario RecoveryStore::withAbsolutePaths(Scenario s, const QString& originalPath) {
    resolveScenarioFiles(s, baseFolderOf(originalPath));
    return s;
}

RecoveryStore::RecoveryStore(const QString& dir)
    : m_dir(dir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                                QStringLiteral("/recovery")
                          : dir),
      m_id(QUuid::createUuid().toString(QUuid::WithoutBraces).left(8) + QLatin1Char('-') +
           QString::number(QCoreApplication::applicationPid())) {}

RecoveryStore::~RecoveryStore() = default;

QString RecoveryStore::sessionFile() const {
    return QDir(m_dir).filePath(QLatin1String(kPrefix) + m_id + QStringLiteral(".json"));
}

bool RecoveryStore::begin(QString* error) {
    if (m_lock) return true;
    // Folders made here are removed again when the lock cannot be taken.
    fileio::NewOutputFolder folder(m_dir);
    if (QString why; !folder.create(&why)) {
        if (error)
            *error = QCoreApplication::translate("Recovery", "%1: cannot create the folder: %2")
                         .arg(m_dir, why);
        return false;
    }
    auto lock = std::make_unique<QLockFile>(lockPathOf(sessionFile()));
    lock->setStaleLockTime(0);  // held for the whole session: only a dead owner makes it stale
    if (!lock->tryLock(0)) {
        if (error) {
            const QString why = lock->error() == QLockFile::LockFailedError
                                    ? QString()
                                    : fileio::creationProblem(m_dir);
            *error = why.isEmpty() ? QCoreApplication::translate("Recovery", "cannot lock %1")
                                         .arg(lockPathOf(sessionFile()))
                                   : QCoreApplication::translate("Recovery", "%1: cannot lock: %2")
                                         .arg(lockPathOf(sessionFile()), why);
        }
        return false;
    }
    folder.keep();
    m_lock = std::move(lock);
    return true;
}

bool RecoveryStore::write(const Scenario& s, const QString& originalPath, QString* error) {
    if (!begin(error)) return false;
    nlohmann::ordered_json j;
    j["tandem_recovery"] = 1;
    // The original file is what a recovered document saves to again, so the names it writes
    // are relative to the same folder as after a normal load (scenarioToJson with savedAs).
    j["original_path"] = originalPath.isEmpty()
                             ? std::string()
                             : QFileInfo(originalPath).absoluteFilePath().toStdString();
    j["saved_utc"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString();
    j["scenario"] =
        nlohmann::ordered_json::parse(scenarioToJson(withAbsolutePaths(s, originalPath)));
    const std::string text = j.dump(2) + "\n";
    return fileio::writeFileAtomic(sessionFile(), text, error);
}

void RecoveryStore::clear() { QFile::remove(sessionFile()); }

QList<RecoveryEntry> RecoveryStore::orphans() const {
    QList<RecoveryEntry> out;
    const QDir dir(m_dir);
    const QStringList files =
        dir.entryList({QLatin1String(kPrefix) + QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString& name : files) {
        const QString file = dir.filePath(name);
        if (file == sessionFile()) continue;
        QLockFile probe(lockPathOf(file));
        probe.setStaleLockTime(0);
        if (!probe.tryLock(0)) continue;  // its session is still running
        probe.unlock();                   // (removes the probe's lock file again)
        RecoveryEntry e;
        e.file = file;
        QFile f(file);
        if (f.open(QIODevice::ReadOnly)) {
            const std::string text = f.readAll().toStdString();
            Diagnostics quiet;
            const auto j = parseJsonText(text, quiet);
            if (j.is_object()) {
                if (j.contains("original_path") && j["original_path"].is_string())
                    e.originalPath = QString::fromStdString(j["original_path"].get<std::string>());
                if (j.contains("saved_utc") && j["saved_utc"].is_string())
                    e.savedAt = QDateTime::fromString(
                        QString::fromStdString(j["saved_utc"].get<std::string>()),
                        Qt::ISODateWithMs);
            }
        }
        if (!e.savedAt.isValid()) e.savedAt = QFileInfo(file).lastModified().toUTC();
        Diagnostics diag(name.toStdString());
        if (!read(e, diag)) {
            e.problem = diag.items().empty()
                            ? QStringLiteral("unreadable")
                            : QString::fromStdString(diag.items().front().path + ": " +
                                                     diag.items().front().message);
        }
        out.append(e);
    }
    std::stable_sort(out.begin(), out.end(), [](const RecoveryEntry& a, const RecoveryEntry& b) {
        return a.savedAt > b.savedAt;
    });
    return out;
}

std::optional<Scenario> RecoveryStore::read(const RecoveryEntry& e, Diagnostics& diag) {
    QFile f(e.file);
    if (!f.open(QIODevice::ReadOnly)) {
        diag.error("$", "cannot open the recovery file: " + f.errorString().toStdString());
        return std::nullopt;
    }
    const QByteArray bytes = f.readAll();
    if (bytes.isEmpty()) {
        diag.error("$", "the recovery file is empty (0 bytes)");
        return std::nullopt;
    }
    const std::string text = bytes.toStdString();
    Diagnostics parse;
    auto j = parseJsonText(text, parse);
    if (!parse.ok()) {
        const auto& first = parse.items().front();
        diag.error("$", "the recovery file is truncated or not JSON (" + first.path + ": " +
                            first.message + ")");
        return std::nullopt;
    }
    if (!j.is_object() || !j.contains("scenario") || !j["scenario"].is_object()) {
        diag.error("$.scenario", "the recovery file is incomplete (no scenario object)");
        return std::nullopt;
    }
    QString original = e.originalPath;
    if (original.isEmpty() && j.contains("original_path") && j["original_path"].is_string())
        original = QString::fromStdString(j["original_path"].get<std::string>());
    // Names of older recovery files may be relative: they belong to the original's folder.
    return parseScenario(j["scenario"].dump(), diag, baseFolderOf(original));
}

QString RecoveryStore::reject(const RecoveryEntry& e) {
    const QFileInfo info(e.file);
    const QDir rejectedDir(info.absoluteDir().filePath(QStringLiteral("rejected")));
    QString target;
    if (QDir().mkpath(rejectedDir.path())) {
        target = rejectedDir.filePath(info.fileName());
        QFile::remove(target);
        if (!QFile::rename(e.file, target)) target.clear();
    }
    if (target.isEmpty()) QFile::remove(e.file);
    QFile::remove(lockPathOf(e.file));
    QFile log(rejectedDir.filePath(QStringLiteral("rejected.log")));
    if (log.open(QIODevice::Append | QIODevice::Text)) {
        const QString line =
            QStringLiteral("%1 %2: %3\n")
                .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate), info.fileName(),
                     e.problem.isEmpty() ? QStringLiteral("unreadable") : e.problem);
        log.write(line.toUtf8());
    }
    return target;
}

void RecoveryStore::remove(const RecoveryEntry& e) {
    QFile::remove(e.file);
    QFile::remove(lockPathOf(e.file));
}

RecoveryAutosaver::RecoveryAutosaver(ScenarioDocument* doc, const QString& dir, int debounceMs,
                                     QObject* parent)
    : QObject(parent), m_doc(doc), m_store(dir), m_timer(new QTimer(this)) {
    m_timer->setSingleShot(true);
    m_timer->setInterval(debounceMs);
    connect(m_timer, &QTimer::timeout, this, [this]() { saveNow(); });
    connect(doc, &ScenarioDocument::contentChanged, this, &RecoveryAutosaver::onChanged);
    connect(doc, &ScenarioDocument::stateChanged, this, &RecoveryAutosaver::onChanged);
}

void RecoveryAutosaver::onChanged() {
    if (m_doc->isModified()) {
        m_timer->start();  // restarts: one write ~debounce after the last change
    } else {
        m_timer->stop();
        m_store.clear();
    }
}

bool RecoveryAutosaver::saveNow() {
    m_timer->stop();
    if (!m_doc->isModified()) {
        m_store.clear();
        return true;
    }
    if (!m_store.write(m_doc->scenario(), m_doc->filePath(), &m_error)) {
        emit writeFailed(m_error);
        return false;
    }
    ++m_writes;
    emit written(m_store.sessionFile());
    return true;
}

void RecoveryAutosaver::finish() {
    m_timer->stop();
    m_store.clear();
}

}  // namespace tandem::ui
