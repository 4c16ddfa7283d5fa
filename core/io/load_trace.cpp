#include "io/load_trace.h"

#include <algorithm>
#include <cmath>

#include "common/csv.h"
#include "common/number_format.h"
#include "io/text_file.h"

namespace tandem::io {
namespace {

/// Time column -> seconds per unit; 0 if not a time column.
double timeScale(const std::string& h) {
    if (h == "time_s" || h == "t_s" || h == "timestamp_s" || h == "time" || h == "t") return 1.0;
    if (h == "time_ms" || h == "t_ms") return 1e-3;
    return 0;
}

/// Rate column -> bytes/s per unit; 0 if not a rate column. Case matters for GBps (bytes) vs
/// Gbps (bits): the two are never guessed from a lower-cased name.
double rateScaleCased(const std::string& raw) {
    if (raw == "Gbps") return 1e9 / 8.0;
    if (raw == "GBps") return 1e9;
    if (raw == "MBps") return 1e6;
    if (raw == "Bps") return 1.0;
    const std::string low = toLower(raw);
    if (low == "bytes_per_s" || low == "bytes/s") return 1.0;
    return 0;
}

bool isBytesColumn(const std::string& low) { return low == "bytes" || low == "bytes_per_window"; }

}  // namespace

bool isLoadTraceHeader(const std::string& line) {
    for (const auto& cell : splitCsvRecord(line, detectCsvSeparator(line))) {
        const std::string raw = trim(cell), low = toLower(raw);
        if (timeScale(low) > 0 || rateScaleCased(raw) > 0 || isBytesColumn(low) ||
            low == "window_s")
            return true;
    }
    return false;
}

const EnumTable<LoadTraceFormat>& loadTraceFormatNames() {
    static const EnumTable<LoadTraceFormat> t = {{LoadTraceFormat::Rate, "rate"},
                                                 {LoadTraceFormat::Window, "window"}};
    return t;
}
const char* name(LoadTraceFormat f) { return enumName(loadTraceFormatNames(), f); }

std::optional<LoadTrace> parseLoadTrace(const std::string& text, Diagnostics& diag,
                                        double window_s) {
    const std::size_t before = diag.items().size();
    const auto lines = splitLines(text);
    LoadTrace t;
    double commentWindow = 0;
    std::size_t h = 0;
    for (; h < lines.size(); ++h) {
        const std::string l = trim(lines[h]);
        if (l.empty()) continue;
        if (l[0] != '#') break;
        const auto p = l.find("window_s");
        if (p != std::string::npos) {
            std::string v = trim(l.substr(p + 8));
            if (!v.empty() && (v[0] == ':' || v[0] == '=')) v = trim(v.substr(1));
            if (!parseDouble(v, commentWindow) || !(commentWindow > 0)) {
                diag.error(linePath(h + 1), "window_s must be a number > 0 (got \"" + v + "\")");
                return std::nullopt;
            }
        }
    }
    if (h == lines.size()) {
        diag.error("file", "no rows in the load trace");
        return std::nullopt;
    }
    const char sep = detectCsvSeparator(lines[h]);
    const auto header = splitCsvRecord(lines[h], sep);
    int timeCol = -1, rateCol = -1, bytesCol = -1, windowCol = -1;
    double tScale = 1, rScale = 1;
    bool hasHeader = false;
    {
        double dummy;
        hasHeader = !(header.size() >= 1 && parseDouble(trim(header[0]), dummy));
    }
    std::size_t first = h;
    if (hasHeader) {
        for (std::size_t c = 0; c < header.size(); ++c) {
            const std::string raw = trim(header[c]), low = toLower(raw);
            if (timeCol < 0 && timeScale(low) > 0) {
                timeCol = static_cast<int>(c);
                tScale = timeScale(low);
            } else if (rateCol < 0 && rateScaleCased(raw) > 0) {
                rateCol = static_cast<int>(c);
                rScale = rateScaleCased(raw);
            } else if (isBytesColumn(low)) {
                bytesCol = static_cast<int>(c);
            } else if (low == "window_s") {
                windowCol = static_cast<int>(c);
            }
        }
        if (rateCol < 0 && bytesCol < 0) {
            diag.error(linePath(h + 1),
                       "header needs a load column: bytes_per_s, GBps, Gbps "
                       "(with a time_s column) or bytes (per fixed window)");
            return std::nullopt;
        }
        if (rateCol >= 0 && timeCol < 0) {
            diag.error(linePath(h + 1), "a rate column needs a time column (time_s or time_ms)");
            return std::nullopt;
        }
        first = h + 1;
    } else {
        timeCol = 0;
        rateCol = 1;
        t.assumptions.push_back("no header: columns read as time_s, bytes_per_s");
    }
    t.format = rateCol >= 0 ? LoadTraceFormat::Rate : LoadTraceFormat::Window;
    double window = window_s > 0 ? window_s : commentWindow;
    std::vector<std::string> names = header;
    if (!hasHeader) names = {"time_s", "bytes_per_s"};
    for (std::size_t i = first; i < lines.size(); ++i) {
        const std::string l = trim(lines[i]);
        if (l.empty() || l[0] == '#') continue;
        const auto f = splitCsvRecord(lines[i], sep);
        const auto num = [&](int c, double& out, bool nonNeg) {
            const std::string v = c < static_cast<int>(f.size()) ? trim(f[c]) : std::string();
            const std::string where = linePath(i + 1) + ", column \"" + trim(names[c]) + "\"";
            if (!parseDouble(v, out)) {
                diag.error(where, "must be a finite number (got \"" + v + "\")");
                return false;
            }
            if (nonNeg && out < 0) {
                diag.error(where, "must be >= 0 (got " + v + ")");
                return false;
            }
            return true;
        };
        if (t.format == LoadTraceFormat::Window && windowCol >= 0 && window <= 0) {
            double w = 0;
            if (!num(windowCol, w, true)) continue;
            window = w;
        }
        double time = 0, rate = 0;
        if (timeCol >= 0) {
            if (!num(timeCol, time, true)) continue;
            time *= tScale;
        }
        if (t.format == LoadTraceFormat::Rate) {
            if (!num(rateCol, rate, true)) continue;
            rate *= rScale;
        } else {
            if (!(window > 0)) {
                diag.error(linePath(i + 1),
                           "bytes-per-window rows need the window length: a "
                           "window_s column, a \"# window_s: <seconds>\" line, "
                           "or the window given by the caller");
                return std::nullopt;
            }
            double bytes = 0;
            if (!num(bytesCol, bytes, true)) continue;
            rate = bytes / window;
            if (timeCol < 0) time = static_cast<double>(t.time_s.size()) * window;
        }
        if (!std::isfinite(rate) || !std::isfinite(time)) {
            // e.g. 1e300 GBps: finite in the file, infinite in bytes/s after the unit conversion.
            diag.error(linePath(i + 1),
                       "load or time is too large to represent after unit "
                       "conversion (bytes/s, s)");
            continue;
        }
        if (!t.time_s.empty() && !(time > t.time_s.back())) {
            diag.error(linePath(i + 1), "time must increase strictly (" + formatNumber(time) +
                                            " s after " + formatNumber(t.time_s.back()) + " s)");
            continue;
        }
        t.time_s.push_back(time);
        t.bytesPerSecond.push_back(rate);
    }
    if (diag.items().size() > before) return std::nullopt;
    if (t.time_s.empty()) {
        diag.error("file", "no rows in the load trace");
        return std::nullopt;
    }
    if (t.format == LoadTraceFormat::Window) {
        t.lastDuration_s = window;
    } else if (t.time_s.size() >= 2) {
        std::vector<double> d;
        for (std::size_t i = 1; i < t.time_s.size(); ++i)
            d.push_back(t.time_s[i] - t.time_s[i - 1]);
        std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
        t.lastDuration_s = d[d.size() / 2];
        t.assumptions.push_back("last sample lasts the median sampling interval");
    } else {
        diag.error("file",
                   "a rate trace needs two rows or more: the last row lasts the median "
                   "interval between rows (for a constant load give its start and end, "
                   "e.g. rows at 0 and 60 s)");
        return std::nullopt;
    }
    if (!std::isfinite(loadTraceEnd_s(t))) {
        diag.error("file", "the last sample ends beyond the largest representable time (s)");
        return std::nullopt;
    }
    return t;
}

std::optional<LoadTrace> loadLoadTraceFile(const std::string& path, Diagnostics& diag,
                                           double window_s) {
    std::string text;
    if (!readTextFile(path, text, diag)) return std::nullopt;
    return parseLoadTrace(text, diag, window_s);
}

double loadTraceEnd_s(const LoadTrace& trace) {
    return trace.time_s.empty() ? 0.0 : trace.time_s.back() + trace.lastDuration_s;
}

double loadTraceMean(const LoadTrace& t, double from_s) {
    const double end = loadTraceEnd_s(t);
    if (!(end > from_s)) return 0;
    const double span = end - from_s;
    double mean = 0;
    for (std::size_t i = 0; i < t.time_s.size(); ++i) {
        const double next = i + 1 < t.time_s.size() ? t.time_s[i + 1] : end;
        mean += t.bytesPerSecond[i] * ((next - t.time_s[i]) / span);
    }
    return mean;
}

double loadAt(const LoadTrace& trace, double t_s, bool* outside) {
    const auto& ts = trace.time_s;
    const bool out = ts.empty() || t_s < ts.front() || t_s >= loadTraceEnd_s(trace);
    if (outside) *outside = out;
    if (out) return 0;
    const auto it = std::upper_bound(ts.begin(), ts.end(), t_s);
    return trace.bytesPerSecond[static_cast<std::size_t>(it - ts.begin()) - 1];
}

nlohmann::ordered_json loadTraceToJson(const LoadTrace& t) {
    nlohmann::ordered_json j;
    j["format"] = name(t.format);
    j["samples"] = t.time_s.size();
    const double start = t.time_s.empty() ? 0 : t.time_s.front();
    const double end = loadTraceEnd_s(t);
    j["start_s"] = start;
    j["duration_s"] = end - start;
    double peak = 0;
    for (double r : t.bytesPerSecond) peak = std::max(peak, r);
    j["mean_GBps"] = loadTraceMean(t, start) / 1e9;
    j["peak_GBps"] = peak / 1e9;
    j["assumptions"] = t.assumptions;
    return j;
}

}  // namespace tandem::io
