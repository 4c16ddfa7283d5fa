#pragma once
// The end of standard output for tandem-cli and the GUI: a write that failed is reported, not
// lost (QtCore-free; below app/cli and app/gui).

namespace tandem::fileio {

/// Ends standard output: flushes and closes it, and reports a write that failed at any point
/// (`earlierErrno`, the errno of a write that failed before, 0 when none; the flush's or the
/// close's) on stderr as "PROGRAM: cannot write to standard output: No space left on device"
/// (the errno's message). Returns `exitCode` when every write succeeded, else 1 (or `exitCode`
/// when that is already non-zero). A closed pipe (EPIPE: the reader, e.g. `head`, has all it
/// wants) is quiet and keeps `exitCode`. Call once, at exit.
int finishStandardOutput(const char* program, int exitCode, int earlierErrno = 0);

/// Writes `size` bytes of `text` to standard output, then finishStandardOutput(program,
/// exitCode): the exit code of a program whose whole output is `text` (--help, --version).
int writeStandardOutput(const char* program, const char* text, unsigned long size, int exitCode);

}  // namespace tandem::fileio
