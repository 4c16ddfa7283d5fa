// Fuzz target: background load trace importer (parseLoadTrace) and loadAt.
// Invariants: never crashes; rejections are explained; times strictly increase; loads are
// finite and >= 0 after unit conversion (GBps / Gbps / ms); loadAt returns a sample's value.
#include <cmath>

#include "fuzz_support.h"
#include "io/load_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace tandem;
    Diagnostics diag("trace.csv");
    const auto t = io::parseLoadTrace(fuzz::text(data, size), diag);
    if (!t) {
        fuzz::requireExplained(diag);
        return 0;
    }
    fuzz::require(!t->time_s.empty(), "accepted an empty trace");
    fuzz::require(t->time_s.size() == t->bytesPerSecond.size(), "column length mismatch");
    for (size_t i = 0; i < t->time_s.size(); ++i) {
        fuzz::require(std::isfinite(t->time_s[i]) && t->time_s[i] >= 0, "time not finite or negative");
        fuzz::require(std::isfinite(t->bytesPerSecond[i]) && t->bytesPerSecond[i] >= 0,
                      "load not finite or negative after unit conversion");
        if (i) fuzz::require(t->time_s[i] > t->time_s[i - 1], "times not strictly increasing");
        const double v = io::loadAt(*t, t->time_s[i]);
        fuzz::require(std::isfinite(v) && v >= 0, "loadAt invalid");
    }
    (void)fuzz::dumpLikeCli(io::loadTraceToJson(*t));
    return 0;
}
