#pragma once
// Background network load traces (what co-running jobs put on the fabric) for the ML-for-ML
// workspace, in place of modelled background jobs [MODEL.md A3; 2608.06046 §3.3].
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "common/diagnostics.h"

namespace tandem::io {

/// A piecewise-constant load: rate bytesPerSecond[i] holds from time_s[i] to time_s[i+1]
/// (the last rate holds for `lastDuration_s`).
struct LoadTrace {
    std::vector<double> time_s;          ///< sample start times, strictly increasing, >= 0
    std::vector<double> bytesPerSecond;  ///< load (bytes/s, >= 0)
    double lastDuration_s = 0;           ///< how long the last sample lasts (window, or median step)
    std::string format;                  ///< "rate" (time + bytes/s) or "window" (bytes per window)
    std::vector<std::string> assumptions;  ///< e.g. "no header: columns read as time_s, bytes_per_s"
};

/// Parses a CSV trace (comma, tab or semicolon; `#` comments). Accepted headers:
/// - rate: a time column (time_s, t_s, time_ms, timestamp_s) and a rate column (bytes_per_s,
///   Bps, MBps, GBps = 1e9 B/s, Gbps = 1e9 bit/s);
/// - window: a `bytes` column (bytes in each fixed window), window length from a `window_s`
///   column (first row), a `# window_s: 0.5` comment, or `window_s` (> 0) given here; times are
///   i * window unless a time column is present;
/// - no header: two numbers per line read as time_s, bytes_per_s (noted in assumptions).
/// Errors (path `line N, column "x"` / `line N` / "file"): unknown header, non-numeric cell,
/// negative load, time not strictly increasing, window length missing or <= 0, no rows.
std::optional<LoadTrace> parseLoadTrace(const std::string& text, Diagnostics& diag,
                                        double window_s = 0);

/// Reads and parses a file (see parseLoadTrace).
std::optional<LoadTrace> loadLoadTraceFile(const std::string& path, Diagnostics& diag,
                                           double window_s = 0);

/// Load (bytes/s) at time `t_s`: the sample in force (sample-and-hold). Before the first sample
/// or after the trace ends returns 0 and sets *outside when given.
double loadAt(const LoadTrace& trace, double t_s, bool* outside = nullptr);

/// Inspect JSON: format, samples, duration_s, mean_GBps, peak_GBps, assumptions.
nlohmann::ordered_json loadTraceToJson(const LoadTrace& t);

}  // namespace tandem::io
