#pragma once
// Output helpers for tandem-cli: aligned text tables, messages, argument parsing. Files are
// written through tandem::fileio::writeFileAtomic (fileio/save_file.h).
#include <QString>
#include <QStringList>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace cli {

/// The one way tandem-cli writes to standard output: printf's format and arguments to stdout.
/// A failed write (a full disk, a file-size limit, a closed pipe) is remembered with its errno
/// (the first one) for finishStdout; later calls keep writing what they can.
void print(const char* format, ...) __attribute__((format(printf, 1, 2)));

/// Ends standard output: flushes and closes it, and reports a write that failed at any point
/// (print's remembered errno, the flush's or the close's) on stderr as "tandem-cli: cannot
/// write to standard output: No space left on device" (the errno's message). Returns
/// `exitCode` when every write succeeded, else kExitFailure (or `exitCode` when that is
/// already non-zero). A closed pipe (EPIPE: the reader, e.g. `head`, has all it wants) is
/// quiet and keeps `exitCode`. Call once, at exit.
int finishStdout(int exitCode);

/// Prints rows as a left-aligned table with a header row and a rule under it.
void printTable(const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows);

/// Prints to stderr, one line, prefixed with "tandem-cli: ".
void printError(const QString& message);

/// Progress of a long command on a terminal: "\r<what> i of n" on stderr, only when stderr is
/// a terminal (isatty), never into a file or a pipe. `i` counts from 1; showProgress(0, 0, ..)
/// clears the line (call it before printing anything else on stderr).
void showProgress(std::size_t i, std::size_t n, const char* what);

/// The one way tandem-cli prints a share (MFU, a fraction of 1) as a percentage in text, without
/// the "%" sign: 100 x `fraction` with one decimal ("41.3"), or, where one decimal would show
/// a non-zero share as zero (below 0.05 %), with two significant digits ("0.013", "4.9e-05"),
/// so a non-zero value never prints as "0.0". Non-finite values as fixed() prints them.
std::string percent(double fraction);

/// The one way tandem-cli prints a computed number in text, so that `inf`, `nan` or a
/// garbage integer never reach a user: fixed-point with `digits` decimals in the C convention
/// (tandem::formatFixed, whatever the locale); NaN prints as "not reached" (a target or optimum
/// that does not exist), +-infinity as "n/a".
std::string fixed(double v, int digits);

/// `digits` significant digits (printf's %g in the C convention, tandem::formatGeneral); NaN or
/// +-infinity prints as "n/a".
std::string significant(double v, int digits);

/// Every number of a JSON result that is NaN or infinite (it would be written as null), as
/// "FILE: PATH: not a finite number (internal error; nothing was written)" lines; empty when
/// none. Deliberate nulls ("not reached") are JSON nulls already and are not reported.
std::vector<QString> nonFiniteReport(const QString& file, const nlohmann::ordered_json& result);

}  // namespace cli

class QCommandLineParser;

namespace cli {

/// Parses `args` with `parser` (adds --help). On a usage error prints it and returns false with
/// `*exitCode` = 2; on --help prints help and returns false with `*exitCode` = 0.
bool parseArgs(QCommandLineParser& parser, const QStringList& args, int* exitCode);

/// For a sub-command that takes no positional argument: true when `parser` (parsed) holds none;
/// otherwise prints "COMMAND takes no positional arguments (got: A, B)" and returns false with
/// `*exitCode` = 2.
bool noPositionalArgs(const QCommandLineParser& parser, const QString& command, int* exitCode);

/// Loads and validates a scenario file; prints every problem (file: path: reason) on stderr,
/// one per line. Returns std::nullopt when the file is not a valid scenario.
std::optional<tandem::Scenario> loadScenarioOrReport(const QString& file);
}  // namespace cli
