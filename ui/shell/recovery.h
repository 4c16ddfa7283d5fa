#pragma once
// Crash recovery for the GUI (a crash or kill loses no unsaved edit): while the scenario has
// unsaved changes it is written, debounced and atomically, to a recovery file; a clean exit or a
// save removes it; the next start finds the files of sessions that did not exit cleanly. No dialogs
// here (the main window asks).
#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <string>

#include "common/diagnostics.h"
#include "scenario/scenario.h"

class QLockFile;
class QTimer;

namespace tandem::ui {

class ScenarioDocument;

/// A recovery file left by a session that is no longer running.
struct RecoveryEntry {
    QString file;          ///< the recovery file (absolute path)
    QString originalPath;  ///< the scenario's file when it was written; empty for untitled
    QDateTime savedAt;     ///< when it was written (UTC)
    /// Why the file cannot be recovered (empty, truncated, not a recovery file, invalid
    /// scenario: the first problem with its JSON path); empty when it reads and validates.
    QString problem;
};

/// One session's recovery file plus the lookup of other sessions' orphans, in one folder.
/// Layout: `<dir>/session-<id>.json` holds {"tandem_recovery": 1, "original_path": "...",
/// "saved_utc": "ISO 8601", "scenario": {canonical scenario JSON}}; `<dir>/session-<id>.lock`
/// is a QLockFile held while the session runs, so a file whose lock can be taken belongs to a
/// session that ended without cleaning up (crash, kill, power loss).
class RecoveryStore {
public:
    /// `dir` empty: QStandardPaths::AppLocalDataLocation + "/recovery". Nothing is created yet.
    explicit RecoveryStore(const QString& dir = {});
    ~RecoveryStore();
    RecoveryStore(const RecoveryStore&) = delete;
    RecoveryStore& operator=(const RecoveryStore&) = delete;

    QString directory() const { return m_dir; }
    /// This session's recovery file (exists only after write()).
    QString sessionFile() const;
    /// Creates the folder and takes this session's lock; false with `error` when the folder
    /// cannot be created or locked. Called by write() when needed.
    bool begin(QString* error = nullptr);
    /// Writes `s` with `originalPath` (stored absolute; the recovered document saves there, so
    /// it writes the same relative names as a normally loaded one) atomically (QSaveFile) to
    /// sessionFile(). False + `error`.
    bool write(const Scenario& s, const QString& originalPath, QString* error = nullptr);
    /// Removes this session's recovery file (after a save, a clean exit or a discarded document).
    void clear();
    /// Recovery files of sessions that are not running (their lock is free or stale), newest
    /// first. This session's own file is never listed. Each file is read and validated here
    /// (RecoveryStore::read): an unreadable one (zero bytes, truncated, invalid scenario) is
    /// listed with `problem` set, so a caller offers only the good ones and keeps going.
    QList<RecoveryEntry> orphans() const;
    /// Reads an orphan: the scenario (validated like a scenario file; problems in `diag` with
    /// JSON paths), or nullopt. Relative file names (older recovery files) are resolved against
    /// the original scenario's folder, or the working folder for an untitled one, by
    /// tandem::parseScenario(text, diag, scenarioFolder(original)) [scenario/scenario_files.h].
    static std::optional<Scenario> read(const RecoveryEntry& e, Diagnostics& diag);
    /// Deletes an orphan's file and its lock file.
    static void remove(const RecoveryEntry& e);
    /// Moves an unreadable orphan into `<dir>/rejected/` (kept for inspection, never offered
    /// again) and appends "<UTC time> <file>: <problem>" to `<dir>/rejected/rejected.log`.
    /// Returns the new path, or empty when it could not be moved (then it is deleted).
    static QString reject(const RecoveryEntry& e);
    /// `s` with every file reference (tandem::scenarioFileReferences) made absolute by
    /// tandem::resolveScenarioFiles against `originalPath`'s folder (the working folder when
    /// `originalPath` is empty), as loadScenarioFile resolves them. The recovery file stores
    /// this form, so a GUI started from another folder still finds them.
    static Scenario withAbsolutePaths(Scenario s, const QString& originalPath);

private:
    QString m_dir;
    QString m_id;
    std::unique_ptr<QLockFile> m_lock;
};

/// Keeps a RecoveryStore in step with a ScenarioDocument: every content change of a modified
/// document restarts a single-shot timer (`debounceMs`, default 2000); when it fires the
/// scenario is written. A save, a reload or a reset (document unmodified) clears the file.
class RecoveryAutosaver : public QObject {
    Q_OBJECT
public:
    RecoveryAutosaver(ScenarioDocument* doc, const QString& dir = {}, int debounceMs = 2000,
                      QObject* parent = nullptr);
    RecoveryStore& store() { return m_store; }
    /// Writes now if the document is modified (else clears); returns false on a write error.
    bool saveNow();
    /// Clean exit: stops the timer and removes this session's file.
    void finish();
    /// Writes done so far (tests, status).
    int writes() const { return m_writes; }
    QString lastError() const { return m_error; }

signals:
    /// A recovery file was written (`file`).
    void written(const QString& file);
    /// Writing the recovery file failed (full disk, a target that is not a regular file);
    /// `message` names the file and the reason, e.g. "no space left on device". The previous
    /// recovery file, if any, is unchanged.
    void writeFailed(const QString& message);

private:
    void onChanged();
    ScenarioDocument* m_doc;
    RecoveryStore m_store;
    QTimer* m_timer;
    int m_writes = 0;
    QString m_error;
};

}  // namespace tandem::ui
