#include "run_output.h"

#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QTemporaryDir>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "save_file.h"

namespace cli {
namespace {

const char* kStagingPattern = ".tandem-run-*";
const char* kLockName = "owner.lock";
const char* kJournalName = "swapping";
const char* kPreviousName = "previous";

void (*g_stepHook)() = nullptr;

void step() {
    if (g_stepHook) g_stepHook();
}

/// rename(2): atomic within one filesystem, replaces nothing here (targets are moved away first).
bool move(const QString& from, const QString& to, QString* why) {
    if (std::rename(QFile::encodeName(from).constData(), QFile::encodeName(to).constData()) == 0)
        return true;
    if (why) *why = tandem::fileio::errnoReason(errno);
    return false;
}

/// lstat(2): true when `path` exists, a dangling symbolic link included.
bool present(const QString& path) {
    struct stat st;
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0;
}

bool isResultName(const std::vector<std::string>& allNames, const QString& name) {
    return std::find(allNames.begin(), allNames.end(), name.toStdString()) != allNames.end();
}

/// Why the staging folder in `dir` could not be made (the errno text where Qt gives none).
QString probeReason(const QString& dir) {
    const QString why = tandem::fileio::creationProblem(dir);
    return why.isEmpty() ? QStringLiteral("cannot create a lock file") : why;
}

/// Puts the staging folder `stage`'s swap back: every placed file (a journal name no longer in
/// the staging folder) is moved back into it, then every file in previous/ back into `out`.
/// Each step keeps "a journal name missing from the staging folder is a placed file", so this
/// can be interrupted and run again. False when a previous file could not be put back.
bool rollBack(const QDir& out, const QDir& stage, const QStringList& journal,
              const std::vector<std::string>& allNames) {
    for (const QString& name : journal) {
        if (!isResultName(allNames, name) || present(stage.filePath(name))) continue;
        if (present(out.filePath(name)))
            (void)move(out.filePath(name), stage.filePath(name), nullptr);
    }
    bool ok = true;
    const QDir previous(stage.filePath(QLatin1String(kPreviousName)));
    for (const QString& name : previous.entryList(QDir::AllEntries | QDir::Hidden | QDir::System |
                                                  QDir::NoDotAndDotDot)) {
        if (!isResultName(allNames, name)) continue;
        if (present(out.filePath(name)) ||
            !move(previous.filePath(name), out.filePath(name), nullptr))
            ok = false;
    }
    return ok;
}

QStringList readJournal(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

}  // namespace

namespace testing {
void setReplaceOutputsStepHook(void (*hook)()) { g_stepHook = hook; }
}  // namespace testing

QString outputsProblem(const QString& dir, const std::vector<std::string>& allNames) {
    const QDir out(dir);
    for (const auto& name : allNames) {
        const QString path = out.filePath(QString::fromStdString(name));
        const QString why = tandem::fileio::outputTargetProblem(path);
        if (!why.isEmpty())
            return QStringLiteral(
                       "%1: %2; output is written to regular files only, nothing was written")
                .arg(path, why);
    }
    return {};
}

int recoverInterruptedRuns(const QString& dir, const std::vector<std::string>& allNames,
                           QStringList* notes) {
    const QDir out(dir);
    int removed = 0;
    const QStringList folders = out.entryList({QLatin1String(kStagingPattern)},
                                              QDir::Dirs | QDir::Hidden | QDir::NoSymLinks);
    for (const QString& name : folders) {
        const QDir stage(out.filePath(name));
        const QString lockPath = stage.filePath(QLatin1String(kLockName));
        if (!QFileInfo(lockPath).isFile()) continue;  // not provably a staging folder of ours
        QLockFile lock(lockPath);
        lock.setStaleLockTime(0);  // stale only when its process is gone
        if (!lock.tryLock(0)) continue;
        const QString journalPath = stage.filePath(QLatin1String(kJournalName));
        const bool swapping = QFileInfo::exists(journalPath);
        if (swapping && !rollBack(out, stage, readJournal(journalPath), allNames)) {
            if (notes)
                *notes << QStringLiteral(
                              "%1: an interrupted run's previous results could not all be "
                              "put back; the folder is kept")
                              .arg(stage.path());
            continue;
        }
        QFile::remove(journalPath);
        lock.unlock();
        if (!QDir(stage.path()).removeRecursively()) continue;
        ++removed;
        if (notes)
            *notes << (swapping
                           ? QStringLiteral("%1: removed the staging folder of an interrupted run "
                                            "(its previous results were put back first)")
                           : QStringLiteral("%1: removed the staging folder of an interrupted run"))
                          .arg(stage.path());
    }
    return removed;
}

bool replaceOutputs(const QString& dir, const std::vector<OutFile>& files,
                    const std::vector<std::string>& allNames, QString* error, QStringList* notes) {
    const QDir out(dir);
    recoverInterruptedRuns(dir, allNames, notes);
    if (QString why = outputsProblem(dir, allNames); !why.isEmpty()) {
        if (error) *error = why;
        return false;
    }
    // What a failure leaves: the previous run's files when there were any, else nothing.
    bool hadPrevious = false;
    for (const auto& n : allNames)
        hadPrevious = hadPrevious || present(out.filePath(QString::fromStdString(n)));
    const QString kept = hadPrevious ? QStringLiteral("the folder keeps the previous results")
                                     : QStringLiteral("nothing was written");
    QTemporaryDir staging(out.filePath(QStringLiteral(".tandem-run-XXXXXX")));
    if (!staging.isValid()) {
        if (error)
            *error = QStringLiteral("%1: cannot create a staging folder: %2; %3")
                         .arg(dir, probeReason(dir), kept);
        return false;
    }
    const QDir stage(staging.path());
    // Declared after `staging`: the lock is released before the folder is deleted.
    QLockFile lock(stage.filePath(QLatin1String(kLockName)));
    lock.setStaleLockTime(0);
    if (!lock.tryLock(0) || !stage.mkdir(QLatin1String(kPreviousName))) {
        if (error)
            *error = QStringLiteral("%1: cannot prepare the staging folder: %2; %3")
                         .arg(dir, probeReason(stage.path()), kept);
        return false;
    }
    QStringList journal;
    for (const auto& f : files) {
        const QString name = QString::fromUtf8(f.name);
        QString why;
        if (!tandem::fileio::saveAtomically(stage.filePath(name), f.data, &why)) {
            if (error)
                *error =
                    QStringLiteral("%1: cannot write: %2; %3").arg(out.filePath(name), why, kept);
            return false;
        }
        journal << name;
    }
    step();
    {
        QString why;
        if (!tandem::fileio::saveAtomically(
                stage.filePath(QLatin1String(kJournalName)),
                (journal.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8(), &why)) {
            if (error)
                *error = QStringLiteral("%1: cannot write: %2; %3")
                             .arg(stage.filePath(QLatin1String(kJournalName)), why, kept);
            return false;
        }
    }
    step();
    // Move the previous run's files aside, then the new ones in; undo on the first failure.
    auto undo = [&] {
        rollBack(out, stage, journal, allNames);
        QFile::remove(stage.filePath(QLatin1String(kJournalName)));
    };
    const QString previous = QLatin1String(kPreviousName) + QLatin1Char('/');
    for (const auto& n : allNames) {
        const QString name = QString::fromStdString(n);
        if (!present(out.filePath(name))) continue;
        QString why;
        if (!move(out.filePath(name), stage.filePath(previous + name), &why)) {
            undo();
            if (error)
                *error =
                    QStringLiteral("%1: cannot replace: %2; %3").arg(out.filePath(name), why, kept);
            return false;
        }
        step();
    }
    for (const QString& name : journal) {
        QString why;
        if (!move(stage.filePath(name), out.filePath(name), &why)) {
            undo();
            if (error)
                *error =
                    QStringLiteral("%1: cannot write: %2; %3").arg(out.filePath(name), why, kept);
            return false;
        }
        step();
    }
    // The swap is complete once the journal is gone; a kill after this keeps the new set.
    QFile::remove(stage.filePath(QLatin1String(kJournalName)));
    step();
    return true;  // QTemporaryDir removes the staging folder and the previous files in it
}

}  // namespace cli
