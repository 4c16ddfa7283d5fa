#pragma once
// Reading user files as text, shared by every importer in io/.
#include <string>
#include <vector>

#include "common/diagnostics.h"

namespace tandem::io {

/// Largest file an importer reads (bytes). Larger inputs are refused with a message instead of
/// exhausting memory; real configs, nccl-tests logs and loss logs are far below this.
constexpr std::size_t kMaxImportBytes = 256u * 1024u * 1024u;

/// Why a file could not be read as text (TextFileError::None: it was).
enum class TextFileError {
    None,
    Folder,          ///< the path is a folder
    NotRegularFile,  ///< a device, pipe or socket (opening a FIFO would block)
    CannotOpen,      ///< missing or unreadable
    UnknownSize,     ///< the size could not be determined
    TooLarge,        ///< larger than the caller's limit
    ReadFailed,      ///< the read stopped early
};

/// Outcome of readTextFileWithin: the error, and the file's size in bytes when it is known.
struct TextFileRead {
    TextFileError error = TextFileError::None;
    std::size_t bytes = 0;
    /// With CannotOpen: why, as the system says it in lower case ("no such file or directory",
    /// "permission denied"); empty when the system gave no reason.
    std::string reason;
};

/// Reads the whole file at `path` into `out` (bytes as stored; a UTF-8 byte-order mark is
/// kept) when it is a regular file of at most `maxBytes` bytes; never blocks on a FIFO. Reports
/// nothing: each caller words the error for its own kind of file (readTextFile for importers,
/// loadScenarioFile for scenarios).
TextFileRead readTextFileWithin(const std::string& path, std::size_t maxBytes, std::string& out);

/// Reads the whole file at `path` into `out`, without a leading UTF-8 byte-order mark (editors
/// on Windows save config.json and CSV files with one). On failure (missing, unreadable, a
/// folder, a device or pipe, larger than kMaxImportBytes, UTF-16 or UTF-32 text:
/// wideUnicodeProblem's message) adds an error at path "file" to
/// `diag` and returns false; never blocks on a FIFO.
bool readTextFile(const std::string& path, std::string& out, Diagnostics& diag);

/// 3 when `text` starts with the UTF-8 byte-order mark EF BB BF, else 0.
std::size_t utf8BomLength(const std::string& text);

/// True when `line` is one of NCCL's own log lines ("host:pid:tid [dev] NCCL INFO ..." or
/// "... NCCL WARN ..."), which NCCL_DEBUG prints into any program's output.
bool isNcclLogLine(const std::string& line);

/// `line` without a launcher's per-line prefix: "0: " (srun -l, the task number) or
/// "[1,0]<stdout>:" / "[1,0]<stderr>:" (mpirun --tag-output, job and rank); unchanged when it
/// has none.
std::string stripLauncherPrefix(const std::string& line);

/// Splits `text` into lines without their terminators ("\n", "\r\n" or "\r"). Line i of the
/// result is line i+1 of the file (the number used in messages as `line N`).
std::vector<std::string> splitLines(const std::string& text);

/// Splits a line at runs of blanks (spaces, tabs).
std::vector<std::string> splitBlanks(const std::string& line);

/// `line N` for messages (N is 1-based).
std::string linePath(std::size_t oneBasedLine);

/// Parses the whole of `s` as a finite double in the C convention whatever the locale
/// (tandem::parseNumber: "2.5", not "2,5"; no trailing characters, not out of range); false
/// otherwise.
bool parseDouble(const std::string& s, double& out);

/// Parses the whole of `s` as a decimal integer (sign allowed); false otherwise.
bool parseInteger(const std::string& s, long long& out);

/// Lower-cased copy (ASCII).
std::string toLower(std::string s);

/// `s` without leading and trailing blanks (spaces and tabs).
std::string trim(const std::string& s);

/// The file-name part of a path (after the last '/').
std::string baseName(const std::string& path);

/// A size in bytes for messages, in binary units (B, KiB, MiB, GiB, TiB) with at most three
/// significant digits and no trailing zeros: 33554432 -> "32 MiB", 8589934584 -> "8 GiB",
/// 1.5 * 2^30 -> "1.5 GiB", 1000 * 1024 -> "1000 KiB". Negative or non-finite values use
/// formatNumber with " B". The one size formatter of the importers and `inspect`.
std::string formatBytes(double bytes);

/// A count or step for messages: an integer below 1e15 as digits ("12000"), anything else
/// (huge, fractional, non-finite) as formatNumber writes it ("1e+300", "2.5").
std::string formatCount(double v);

}  // namespace tandem::io
