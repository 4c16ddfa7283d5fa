#pragma once
// Background network load traces (what co-running jobs put on the fabric) for the ML-for-ML
// workspace, in place of modelled background jobs [MODEL.md A3; 2608.06046 §3.3].
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "common/enum_names.h"

namespace tandem::io {

/// How a load trace gives its load.
enum class LoadTraceFormat {
    Rate,    ///< "rate": a time and a bytes/s column
    Window,  ///< "window": bytes per fixed window
};
/// "rate", "window" (the `format` of the inspect JSON).
const EnumTable<LoadTraceFormat>& loadTraceFormatNames();
const char* name(LoadTraceFormat f);

/// A piecewise-constant load: rate bytesPerSecond[i] holds from time_s[i] to time_s[i+1]
/// (the last rate holds for `lastDuration_s`). The one representation of a load trace: `inspect`,
/// the GUI import, `validate` and the ML-for-ML engine (mlforml/background_trace.h) all read it
/// through parseLoadTrace.
struct LoadTrace {
    std::vector<double> time_s;          ///< sample start times, strictly increasing, >= 0
    std::vector<double> bytesPerSecond;  ///< load (bytes/s, >= 0)
    double lastDuration_s = 0;  ///< how long the last sample lasts (window, or median step)
    LoadTraceFormat format = LoadTraceFormat::Rate;
    std::vector<std::string>
        assumptions;  ///< e.g. "no header: columns read as time_s, bytes_per_s"
};

/// Parses a CSV trace (comma, tab or semicolon; `#` comments). Accepted headers:
/// - rate: a time column (time_s, t_s, time_ms, timestamp_s) and a rate column (bytes_per_s,
///   Bps, MBps, GBps = 1e9 B/s, Gbps = 1e9 bit/s);
/// - window: a `bytes` column (bytes in each fixed window), window length from a `window_s`
///   column (first row), a `# window_s: 0.5` comment, or `window_s` (> 0) given here; times are
///   i * window unless a time column is present;
/// - no header: two numbers per line read as time_s, bytes_per_s (noted in assumptions).
/// A rate trace's last row lasts the median interval between rows, so it needs two rows or more.
/// Errors (path `line N, column "x"` / `line N` / "file"): unknown header, non-numeric cell,
/// negative load, time not strictly increasing, window length missing or <= 0, no rows, a rate
/// trace of one row.
std::optional<LoadTrace> parseLoadTrace(const std::string& text, Diagnostics& diag,
                                        double window_s = 0);

/// True when `line` is a load-trace header parseLoadTrace understands: one of its cells (split at
/// the detected separator) is a time, rate, bytes or window_s column named above. `inspect` and
/// the GUI import detect a trace with this, so every header the reader accepts is detected.
bool isLoadTraceHeader(const std::string& line);

/// Reads and parses a file (see parseLoadTrace).
std::optional<LoadTrace> loadLoadTraceFile(const std::string& path, Diagnostics& diag,
                                           double window_s = 0);

/// End of the trace, s: the last sample's start plus lastDuration_s (0 for an empty trace).
double loadTraceEnd_s(const LoadTrace& trace);

/// Time-weighted mean load, bytes/s, over [from_s, loadTraceEnd_s) with no load before the first
/// sample (from_s <= the first sample's time; 0 when the span is empty). Summed as rate x share
/// of the span, so it stays finite for any finite rates (1e308 B/s included).
double loadTraceMean(const LoadTrace& trace, double from_s);

/// Load (bytes/s) at time `t_s`: the sample in force (sample-and-hold). Before the first sample
/// or after the trace ends returns 0 and sets *outside when given.
double loadAt(const LoadTrace& trace, double t_s, bool* outside = nullptr);

/// Inspect JSON: format, samples, duration_s, mean_GBps, peak_GBps, assumptions.
nlohmann::ordered_json loadTraceToJson(const LoadTrace& t);

}  // namespace tandem::io
