#include "mlforml/background_trace.h"

#include <algorithm>
#include <cmath>

#include "common/json_reader.h"
#include "common/number_format.h"

namespace tandem::mlforml {

int traceNodes(const Params& p) { return std::max(1, p.traceFlows / kTraceJobs); }

double traceCapacityBytesPerS(const Params& p) {
    const double nics = static_cast<double>(kTraceJobs) * traceNodes(p) * p.nicBytesPerS;
    const double eff = p.ccEfficiency / (1.0 + p.ccEfficiencyDropPerFlow * (kTraceJobs - 1));
    return std::min(p.fabricBytesPerS, nics) * eff;
}

bool checkTraceReplay(const Params& p, const io::LoadTrace& trace, const std::string& shownName,
                      const std::string& path, Diagnostics& diag) {
    const std::string file = "\"" + shownName + "\": ";
    const double end = io::loadTraceEnd_s(trace);
    if (!(end <= kMaxTraceEnd_s)) {
        diag.error(path, file + "the trace ends at " + formatNumber(end) + " s; at most " +
                             formatNumber(kMaxTraceEnd_s) +
                             " s are replayed (a bound on the work: every start offset replays "
                             "the trace from 0 to its start); cut it to the hour of interest");
        return false;
    }
    const double mean = io::loadTraceMean(trace, 0.0);
    const double capacity = traceCapacityBytesPerS(p);
    if (mean > 0 && !(mean < capacity)) {
        diag.error(path, file + "mean load " + formatNumber(mean / 1e9) + " GB/s over [0, " +
                             formatNumber(end) + " s) is not below the " +
                             formatNumber(capacity / 1e9) +
                             " GB/s the network can carry for it (min(fabric_GBps, " +
                             std::to_string(kTraceJobs) + " x " + std::to_string(traceNodes(p)) +
                             " nodes x nic_GBps) x cc_efficiency): replayed open loop, its "
                             "backlog would never drain");
        return false;
    }
    return true;
}

std::optional<io::LoadTrace> loadBackgroundTrace(const Params& p, const std::string& shownName,
                                                 const std::string& path, Diagnostics& diag) {
    Diagnostics sub(p.traceFile);
    auto trace = io::loadLoadTraceFile(p.traceFile, sub);
    for (const auto& issue : sub.items()) {
        const std::string where = issue.path == "file" ? std::string() : " " + issue.path;
        diag.error(path, "\"" + shownName + "\"" + where + ": " + issue.message);
    }
    if (!trace) return std::nullopt;
    if (!checkTraceReplay(p, *trace, shownName, path, diag)) return std::nullopt;
    return trace;
}

std::vector<fabric::Transfer> traceToTransfers(const io::LoadTrace& trace, int jobs, int nodes,
                                               double chunk_s, double until_s) {
    std::vector<fabric::Transfer> out;
    const double period = io::loadTraceEnd_s(trace);
    if (trace.time_s.empty() || !(period > 0) || jobs <= 0 || !(chunk_s > 0)) return out;
    const size_t n = trace.time_s.size();
    const long long chunks = static_cast<long long>(std::ceil(until_s / chunk_s));
    out.reserve(static_cast<size_t>(std::max(0LL, chunks)));
    size_t row = 0;
    double period0 = 0;
    for (long long k = 0; k < chunks; ++k) {
        const double t = k * chunk_s;
        const double local = std::fmod(t, period);
        const double base = t - local;
        if (base != period0) {
            period0 = base;
            row = 0;
        }
        while (row + 1 < n && trace.time_s[row + 1] <= local) ++row;
        const double rate = local < trace.time_s[0] ? 0.0 : trace.bytesPerSecond[row];
        const double bytes = rate * chunk_s;
        if (bytes <= 0) continue;
        out.push_back({t, static_cast<int>(k % jobs), bytes / nodes});
    }
    return out;
}

}  // namespace tandem::mlforml
