#pragma once
// Output folders (`run --out DIR`, `--export-charts DIR`, the autosave's folder): what may be
// one, and creating one so that a failed command leaves no new, empty folder behind.
#include <QString>
#include <QStringList>

namespace tandem::fileio {

/// Why `path` cannot be used as an output folder, or an empty string when it can. An existing
/// path (symbolic links followed) must be a folder: "is a file, not a folder", "is a character
/// device, not a folder" (block device, FIFO, socket alike). A missing path is judged by its
/// nearest existing ancestor, which must be a folder ("<ancestor> is a file, not a folder").
/// Permissions are not judged here (creating the folder reports them). Errors: only through the
/// return value.
QString outputFolderProblem(const QString& path);

/// An output folder made for one command. create() makes `path` and its missing parents one
/// level at a time with mkdir(2) and remembers the levels it made; unless keep() is called, the
/// destructor removes them again, deepest first, with rmdir(2), which removes only empty
/// folders: a folder that existed before, or one that holds anything (ours or not), is never
/// removed. So a command that fails after create() leaves the disk as it was.
class NewOutputFolder {
public:
    explicit NewOutputFolder(QString path);
    ~NewOutputFolder();
    NewOutputFolder(const NewOutputFolder&) = delete;
    NewOutputFolder& operator=(const NewOutputFolder&) = delete;

    /// Creates the folder (nothing to do when it exists as a folder). False with `reason` (the
    /// OS reason, e.g. "no space left on device", "permission denied", "not a directory") when
    /// a level cannot be made; the levels made so far are removed again first.
    bool create(QString* reason);
    /// The folder stays (the command succeeded or wrote files the user was told about).
    void keep() { m_created.clear(); }
    /// Removes the levels create() made, now (as the destructor would).
    void removeCreated();
    /// True when create() made at least one level that is still to be removed.
    bool createdAny() const { return !m_created.isEmpty(); }

private:
    QString m_path;
    QStringList m_created;  ///< levels made by create(), outermost first
};

}  // namespace tandem::fileio
