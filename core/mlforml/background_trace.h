#pragma once
// Measured background load as input [MODEL.md A3]: a CSV of time_s,bytes_per_s (piecewise
// constant from each row to the next) converted into open-loop transfers that reproduce it.
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "mlforml/fabric_sim.h"

namespace tandem::mlforml {

struct LoadTrace {
    std::vector<double> time_s;       ///< strictly increasing, first >= 0
    std::vector<double> bytesPerS;    ///< >= 0
    double duration_s = 0;            ///< last time + the median step (the last row's length)
};

/// Parses CSV text (optional header "time_s,bytes_per_s"; '#' comments). Problems go to `diag`
/// as "line N: reason"; returns an empty trace on error.
LoadTrace parseLoadTrace(const std::string& text, tandem::Diagnostics& diag);

/// Reads and parses a file; an unreadable file is one problem at "$".
LoadTrace loadTraceFile(const std::string& path, tandem::Diagnostics& diag);

/// Converts the load into transfers of `jobs` pseudo-jobs of `nodes` nodes: every `chunk_s`
/// the bytes of that chunk start as one transfer of the next pseudo-job in turn. The trace
/// repeats until `until_s`.
std::vector<Transfer> traceToTransfers(const LoadTrace& trace, int jobs, int nodes,
                                       double chunk_s, double until_s);

}  // namespace tandem::mlforml
