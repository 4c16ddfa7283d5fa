// Fuzz target: background load trace importer (parseLoadTrace), loadAt, and the engine's side of
// the same trace (checkTraceReplay under the default network, traceToTransfers).
// Invariants: never crashes; rejections are explained; times strictly increase; loads are
// finite and >= 0 after unit conversion (GBps / Gbps / ms); loadAt returns a sample's value; the
// end is finite; a trace the engine accepts converts into finite, non-negative, start-ordered
// transfers of at most one per chunk.
#include <cmath>

#include "fuzz_support.h"
#include "io/load_trace.h"
#include "mlforml/background_trace.h"

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
        fuzz::require(std::isfinite(t->time_s[i]) && t->time_s[i] >= 0,
                      "time not finite or negative");
        fuzz::require(std::isfinite(t->bytesPerSecond[i]) && t->bytesPerSecond[i] >= 0,
                      "load not finite or negative after unit conversion");
        if (i) fuzz::require(t->time_s[i] > t->time_s[i - 1], "times not strictly increasing");
        const double v = io::loadAt(*t, t->time_s[i]);
        fuzz::require(std::isfinite(v) && v >= 0, "loadAt invalid");
    }
    fuzz::require(std::isfinite(io::loadTraceEnd_s(*t)), "trace end not finite");
    (void)fuzz::dumpLikeCli(io::loadTraceToJson(*t));
    const mlforml::Params p;
    Diagnostics engine("trace.csv");
    if (!mlforml::checkTraceReplay(p, *t, "trace.csv", "$.ml_for_ml.trace_file", engine)) {
        fuzz::requireExplained(engine);
        return 0;
    }
    const double until = 2 * mlforml::kMaxTraceEnd_s;
    const auto transfers = mlforml::traceToTransfers(
        *t, mlforml::kTraceJobs, mlforml::traceNodes(p), mlforml::kTraceChunk_s, until);
    fuzz::require(transfers.size() <= static_cast<size_t>(until / mlforml::kTraceChunk_s) + 1,
                  "more than one transfer per chunk");
    for (size_t i = 0; i < transfers.size(); ++i) {
        fuzz::require(std::isfinite(transfers[i].bytesPerNode) && transfers[i].bytesPerNode > 0,
                      "transfer bytes not finite and positive");
        if (i)
            fuzz::require(transfers[i].start_s >= transfers[i - 1].start_s,
                          "transfers out of order");
    }
    return 0;
}
