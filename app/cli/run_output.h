#pragma once
// Replacing the result files of `tandem-cli run --out DIR` all at once: DIR holds either the
// previous run's files or this run's, never a mix.
#include <QString>

#include <string>
#include <vector>

namespace cli {

/// One result file of a run: its name inside the output folder and its bytes.
struct OutFile {
    const char* name;
    std::string data;
};

/// Makes `dir` hold exactly `files` among the names in `allNames` (other names in `dir` are left
/// alone). Steps: every file is written (and synced, QSaveFile) into a hidden staging folder
/// inside `dir` (same filesystem, so renames are atomic); each existing target in `allNames` is
/// renamed into the staging folder's backup; the staged files are renamed into place; the
/// backups are deleted. On any failure every step already done is undone (new files removed,
/// previous files renamed back), the staging folder is removed and false is returned with
/// `error` naming the file and the reason; `dir` then holds the previous run's files unchanged.
/// A target name that exists as something other than a regular file (a folder, a socket; a
/// symbolic link is moved as the link) is refused before anything is touched. `dir` must exist. Errors: only through the return value.
bool replaceOutputs(const QString& dir, const std::vector<OutFile>& files,
                    const std::vector<std::string>& allNames, QString* error);

}  // namespace cli
