#include "mlforml/background_trace.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/diagnostics.h"

namespace tandem::mlforml {

LoadTrace parseLoadTrace(const std::string& text, Diagnostics& diag) {
    LoadTrace tr;
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    const size_t before = diag.items().size();
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        const auto comma = line.find(',');
        const std::string where = "line " + std::to_string(lineNo);
        if (comma == std::string::npos) {
            diag.error(where, "expected two columns time_s,bytes_per_s");
            continue;
        }
        const std::string a = line.substr(0, comma), b = line.substr(comma + 1);
        char* endA = nullptr;
        char* endB = nullptr;
        const double t = std::strtod(a.c_str(), &endA);
        const double r = std::strtod(b.c_str(), &endB);
        const bool numA = endA != a.c_str() && a.find_first_not_of(" \t", endA - a.c_str()) == std::string::npos;
        const bool numB = endB != b.c_str() && b.find_first_not_of(" \t", endB - b.c_str()) == std::string::npos;
        if (!numA || !numB) {
            if (tr.time_s.empty() && lineNo == 1) continue;  // header
            diag.error(where, "expected numbers time_s,bytes_per_s (got \"" + line + "\")");
            continue;
        }
        if (!std::isfinite(t) || t < 0) {
            diag.error(where, "time_s must be a finite number >= 0");
            continue;
        }
        if (!std::isfinite(r) || r < 0) {
            diag.error(where, "bytes_per_s must be a finite number >= 0");
            continue;
        }
        if (!tr.time_s.empty() && !(t > tr.time_s.back())) {
            diag.error(where, "time_s must increase from row to row");
            continue;
        }
        tr.time_s.push_back(t);
        tr.bytesPerS.push_back(r);
    }
    if (diag.items().size() == before && tr.time_s.empty()) diag.error("line 1", "trace has no rows");
    if (diag.items().size() != before) return {};
    std::vector<double> steps;
    for (size_t i = 1; i < tr.time_s.size(); ++i) steps.push_back(tr.time_s[i] - tr.time_s[i - 1]);
    double last = 1.0;
    if (!steps.empty()) {
        std::nth_element(steps.begin(), steps.begin() + steps.size() / 2, steps.end());
        last = steps[steps.size() / 2];
    }
    tr.duration_s = tr.time_s.back() + last;
    return tr;
}

LoadTrace loadTraceFile(const std::string& path, Diagnostics& diag) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        diag.error("$", "cannot open trace file \"" + path + "\"");
        return {};
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    return parseLoadTrace(ss.str(), diag);
}

std::vector<Transfer> traceToTransfers(const LoadTrace& trace, int jobs, int nodes,
                                       double chunk_s, double until_s) {
    std::vector<Transfer> out;
    if (trace.time_s.empty() || !(trace.duration_s > 0) || jobs <= 0 || !(chunk_s > 0)) return out;
    const size_t n = trace.time_s.size();
    const long long chunks = static_cast<long long>(std::ceil(until_s / chunk_s));
    out.reserve(static_cast<size_t>(std::min<long long>(chunks, 1 << 22)));
    size_t row = 0;
    double period0 = 0;
    for (long long k = 0; k < chunks && k < (1LL << 22); ++k) {
        const double t = k * chunk_s;
        const double local = std::fmod(t, trace.duration_s);
        const double base = t - local;
        if (base != period0) {
            period0 = base;
            row = 0;
        }
        while (row + 1 < n && trace.time_s[row + 1] <= local) ++row;
        const double rate = local < trace.time_s[0] ? 0.0 : trace.bytesPerS[row];
        const double bytes = rate * chunk_s;
        if (bytes <= 0) continue;
        out.push_back({t, static_cast<int>(k % jobs), bytes / nodes});
    }
    return out;
}

}  // namespace tandem::mlforml
