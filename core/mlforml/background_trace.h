#pragma once
// Measured background load as input [MODEL.md A3]: a load trace (io/load_trace.h, the one reader
// of the format) replayed open loop as the transfers of kTraceJobs pseudo-jobs, and the engine's
// checks that a trace can be replayed under a scenario's network in bounded time.
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "fabric/fabric_sim.h"
#include "io/load_trace.h"
#include "mlforml/params.h"

namespace tandem::mlforml {

/// Pseudo-jobs the traced load is spread over (round robin), and the chunk length, s: every
/// chunk's bytes start as one transfer.
constexpr int kTraceJobs = 8;
constexpr double kTraceChunk_s = 0.01;

/// Latest end of a trace the engine replays, s (one hour; a bound on the work): every start
/// offset's replay simulates the trace from 0 to its start, so the simulated time grows with the
/// trace's length, and a trace of an hour already holds many cycles of any training job.
constexpr double kMaxTraceEnd_s = 3600;

/// Nodes of each pseudo-job: trace_flows / kTraceJobs, at least 1.
int traceNodes(const Params& p);

/// Bytes/s the fabric can carry for the traced load with every pseudo-job active:
/// min(fabric, kTraceJobs x traceNodes x NIC) x cc_efficiency / (1 + drop x (kTraceJobs - 1))
/// (the water-filling of fluid.h with the pseudo-jobs alone).
double traceCapacityBytesPerS(const Params& p);

/// The engine's checks of a parsed trace under `p`, each reported at `path` with `shownName` (the
/// file as the user wrote it) first: the trace ends by kMaxTraceEnd_s, and its mean load over
/// [0, end) is below traceCapacityBytesPerS (an open-loop replay of more never drains its
/// backlog: flows pile up without end). Returns true when both hold.
bool checkTraceReplay(const Params& p, const io::LoadTrace& trace, const std::string& shownName,
                      const std::string& path, Diagnostics& diag);

/// Reads p.traceFile with io::loadLoadTraceFile and applies checkTraceReplay. Every problem is
/// one error at `path` reading `"<shownName>" line N, column "x": reason` (the reader's own
/// path, omitted when it is the whole file). The scenario reader (validate, run, the GUI's Open)
/// and simulate() both call this, so a trace that validates runs.
std::optional<io::LoadTrace> loadBackgroundTrace(const Params& p, const std::string& shownName,
                                                 const std::string& path, Diagnostics& diag);

/// Converts the load into transfers of `jobs` pseudo-jobs of `nodes` nodes: every `chunk_s`
/// the bytes of that chunk (rate in force at its start x chunk_s) start as one transfer of the
/// next pseudo-job in turn, bytes / nodes per node. The trace covers [0, loadTraceEnd_s) (no
/// load before its first sample) and repeats until `until_s` (the caller bounds it: one
/// transfer per chunk). Start-ordered.
std::vector<fabric::Transfer> traceToTransfers(const io::LoadTrace& trace, int jobs, int nodes,
                                               double chunk_s, double until_s);

}  // namespace tandem::mlforml
