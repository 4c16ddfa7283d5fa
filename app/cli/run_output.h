#pragma once
// Replacing the result files of `tandem-cli run --out DIR` all at once: DIR holds either the
// previous run's files or this run's, never a mix, also after a run was killed half-way.
#include <QString>
#include <QStringList>
#include <string>
#include <vector>

namespace cli {

/// One result file of a run: its name inside the output folder and its bytes.
struct OutFile {
    const char* name;
    std::string data;
};

/// Why the result files `allNames` cannot be written into `dir`, or empty: a name that exists
/// as something other than a regular file (folder, device, FIFO, socket; symbolic links are
/// followed) is refused, by tandem::fileio::outputTargetProblem. The message names the file.
QString outputsProblem(const QString& dir, const std::vector<std::string>& allNames);

/// Makes `dir` hold exactly `files` among the names in `allNames` (other names in `dir` are left
/// alone). Steps: interrupted runs' staging folders in `dir` are recovered first
/// (recoverInterruptedRuns); every file is written (checked and synced,
/// tandem::fileio::saveAtomically) into a hidden staging folder `dir/.tandem-run-XXXXXX` (same
/// filesystem, so renames are atomic) that holds a QLockFile `owner.lock` for the whole swap;
/// the list of staged names is written to its `swapping` journal; each existing target in
/// `allNames` is renamed into the staging folder's `previous/`; the staged files are renamed into
/// place; the journal is removed and the folder deleted. On any failure every step already done
/// is undone (new files removed, previous files renamed back) and false is returned with `error`
/// naming the file and the reason (e.g. "no space left on device"); `dir` then holds the
/// previous run's files unchanged. outputsProblem is checked before anything is touched; a
/// symbolic link among the targets is moved as the link (the file it names is not touched).
/// `dir` must exist. Notes about recovered folders go to `notes`. Errors: only through the
/// return value.
bool replaceOutputs(const QString& dir, const std::vector<OutFile>& files,
                    const std::vector<std::string>& allNames, QString* error,
                    QStringList* notes = nullptr);

/// Removes the staging folders (`.tandem-run-*`) that interrupted runs (killed, power loss) left
/// in `dir`, only those provably stale and ours: the folder holds an `owner.lock` whose process
/// is gone (QLockFile on this host). A folder whose `swapping` journal is still there was
/// interrupted during the swap: its placed files are removed and `previous/` is renamed back
/// first, so `dir` again holds the previous run's complete set. A folder without a lock, or
/// whose owner still runs, is left alone. Returns how many folders were removed; one line per
/// folder (what was done) is appended to `notes`.
int recoverInterruptedRuns(const QString& dir, const std::vector<std::string>& allNames,
                           QStringList* notes = nullptr);

namespace testing {
/// Called between the steps of replaceOutputs (after staging, after the journal, after each
/// backup and each placement, after the journal is removed) when set; tests use it to kill the
/// process at every step. Not thread-safe; nullptr (the default) disables it.
void setReplaceOutputsStepHook(void (*hook)());
}  // namespace testing

}  // namespace cli
