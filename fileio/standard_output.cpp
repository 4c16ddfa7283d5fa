#include "standard_output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tandem::fileio {

int finishStandardOutput(const char* program, int exitCode, int earlierErrno) {
    int failed = earlierErrno;
    auto note = [&failed](bool bad) {
        if (bad && failed == 0) failed = errno != 0 ? errno : EIO;
    };
    errno = 0;
    note(std::fflush(stdout) != 0 || std::ferror(stdout));
    errno = 0;
    note(std::fclose(stdout) != 0);
    if (failed == 0 || failed == EPIPE) return exitCode;
    std::fprintf(stderr, "%s: cannot write to standard output: %s\n", program,
                 std::strerror(failed));
    return exitCode != 0 ? exitCode : 1;
}

int writeStandardOutput(const char* program, const char* text, unsigned long size, int exitCode) {
    errno = 0;
    const bool failed = std::fwrite(text, 1, size, stdout) != size || std::ferror(stdout);
    return finishStandardOutput(program, exitCode, failed ? (errno != 0 ? errno : EIO) : 0);
}

}  // namespace tandem::fileio
