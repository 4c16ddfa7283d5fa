#pragma once
// Writing output files: every result file, scenario save, recovery file and chart export goes
// through writeFileAtomic, so a full disk, a device node or a FIFO never costs the user a file.
#include <QByteArrayView>
#include <QString>

namespace tandem::fileio {

/// Why `path` cannot be written as an output file, or an empty string when it can. Output goes
/// to regular files only: a path that exists as a folder, a character or block device, a FIFO
/// or a socket (after following symbolic links) is refused, never replaced and never opened
/// (so a FIFO without a reader cannot block). A missing path, or a symbolic link to a regular
/// file or to a missing one, is allowed. Example: "/dev/null" -> "is a character device, not a
/// regular file". Errors: only through the return value.
QString outputTargetProblem(const QString& path);

/// The reason text for an errno value, lower case, as messages print it: ENOSPC and EDQUOT ->
/// "no space left on device" (EDQUOT adds "(disk quota exceeded)"), EROFS -> "read-only file
/// system", EFBIG -> "file too large", others -> strerror() with a lower-case first letter.
QString errnoReason(int err);

/// Writes `data` to `path` atomically: QSaveFile creates a temporary file beside the target,
/// every write(2) is checked (short writes continued, EINTR retried), the file is fsync'ed and
/// only then renamed over the target. A symbolic link is kept and the file it names replaced.
/// On any failure (the target refused by outputTargetProblem, open, write, sync or rename) the
/// temporary file is removed, the target is left exactly as it was, false is returned and
/// `reason` (if given) says why, e.g. "no space left on device". Never reports a short or empty
/// file as written. `executable`: the file is renamed into place already executable (as
/// `chmod +x` gives it: execute wherever it may be read), e.g. a launch script.
bool saveAtomically(const QString& path, QByteArrayView data, QString* reason,
                    bool executable = false);

/// saveAtomically with a complete message for the user in `error`: "<path>: cannot write: <reason>;
/// <path> is unchanged" (or "; nothing was written" when the target did not exist), or
/// "<path>: <outputTargetProblem>; nothing was written". `executable` as saveAtomically.
bool writeFileAtomic(const QString& path, QByteArrayView data, QString* error,
                     bool executable = false);

/// Why a new file cannot be created in the folder `dir` (e.g. "no space left on device",
/// "permission denied"), found by writing and removing a one-byte file `.tandem-probe` there
/// through saveAtomically; empty when it can. For failures that Qt reports without a reason
/// (QLockFile, QTemporaryDir).
QString creationProblem(const QString& dir);

/// True when `a` and `b` both exist and are the same file (same device and inode: also through
/// symbolic links, hard links and different spellings of the path).
bool sameFile(const QString& a, const QString& b);

}  // namespace tandem::fileio
