#pragma once
// Parameter sweeps over a scenario: a grid over one or two JSON keys, one output row per grid
// point, computed on every core, shardable across processes (Slurm job arrays) and mergeable
// into the exact table an unsharded run writes.
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/cancel.h"
#include "common/diagnostics.h"

namespace tandem::sweep {

/// One swept key: `path` is dotted from the scenario root (e.g. "ml_for_ml.fabric_GBps",
/// "mosaic.nodes"); `values` are JSON scalars. When the key holds an array in the scenario
/// (e.g. "ml_for_ml.background_jobs") each scalar is written as a one-element array.
struct Axis {
    std::string path;
    std::vector<nlohmann::json> values;
};

/// Parses "PATH=SPEC": SPEC is "lo:hi:n" (n >= 2 evenly spaced values, integers when lo, hi
/// and the step are whole) or a comma-separated list of JSON scalars ("4,8,12" or
/// "\"replay\",\"closed_loop\""). Returns false and sets `error` (naming the part) on failure.
bool parseAxis(const std::string& text, Axis& axis, std::string& error);

/// Which share of the grid a process computes: points i with i % count == index.
struct Shard {
    int index = 0;  ///< 0-based
    int count = 1;  ///< >= 1
};

/// Parses "i/n" (1-based i as Slurm prints it is NOT accepted: i is 0-based, 0 <= i < n).
bool parseShard(const std::string& text, Shard& shard, std::string& error);

/// The shard of a Slurm job array task: `taskId` is SLURM_ARRAY_TASK_ID, `taskMin`
/// SLURM_ARRAY_TASK_MIN (nullptr = unset = 0), `taskCount` SLURM_ARRAY_TASK_COUNT (nullptr =
/// unset). Each must be a plain decimal integer (digits only, no sign, no junk, at most 9
/// digits); the shard is {taskId - taskMin, taskCount} with 0 <= index < count. Returns false
/// with `error` naming the variable, its value and the reason (e.g. "SLURM_ARRAY_TASK_ID=abc:
/// must be a non-negative integer").
bool shardFromSlurm(const char* taskId, const char* taskMin, const char* taskCount, Shard& shard,
                    std::string& error);

/// The result table. Column 0 is "point" (grid index), then one column per axis, then the
/// metrics of every scenario part present. Cells are formatted so that the same computation
/// always gives the same bytes.
struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;  ///< sorted by point
    Shard shard;            ///< which share of the grid the rows are ({0, 1} = all of it)
    size_t gridPoints = 0;  ///< points of the whole grid over all shards (0 = unknown)
    /// Which sweep the rows belong to: sweepFingerprint() of the scenario and the axes, 16
    /// lower-case hex digits ("" = unknown, e.g. a merged table or an untagged shard file).
    std::string fingerprint;
};

/// Identity of a sweep, the same for all its shards and different (barring a 64-bit hash
/// collision) for another scenario or other axes: FNV-1a 64 over the canonical scenario JSON
/// (`canonicalScenarioJson`, keys sorted, as nlohmann::json::dump writes it) and every axis's
/// path and values in order, printed as 16 lower-case hex digits. Deterministic across runs
/// and platforms.
std::string sweepFingerprint(const std::string& canonicalScenarioJson,
                             const std::vector<Axis>& axes);

/// Largest grid run() accepts (points over all shards); larger grids are refused with a message.
constexpr size_t kMaxGridPoints = 1000000;

/// Runs the grid points of `shard` (Cartesian product of `axes`, first axis slowest) on
/// `threads` worker threads (0 = all cores). Each point's scenario is re-validated: a value that
/// makes the scenario invalid is reported in `diag` as "point N (path=value): reason" and the
/// sweep returns an empty table; so does a grid above kMaxGridPoints. Deterministic: the table
/// does not depend on `threads`. `progress`, when set, is called after each point of the shard
/// is computed with (points done, from 1; points of the shard), one call at a time and with
/// `done` increasing by one per call, from whichever worker thread finished the point.
Table run(const std::string& scenarioJson, const std::vector<Axis>& axes, const Shard& shard,
          int threads, Diagnostics& diag, const CancelFlag* cancel = nullptr,
          const std::function<void(std::size_t, std::size_t)>& progress = {});

/// CSV text (RFC 4180 quoting) with a header line. A shard of a sharded run (shard.count > 1)
/// starts with one comment line "# tandem sweep shard i/n of P points, sweep F" (F = the
/// table's fingerprint, 16 hex digits) that merge() uses to name missing shards and points and
/// to refuse shards of different sweeps; an unsharded table has no comment line.
std::string toCsv(const Table& t);

/// Parses shard CSVs and joins them into one table identical to an unsharded run: headers
/// must match, every point 0..max must appear exactly once. When the inputs carry the shard
/// comment line (toCsv), every shard 0..n-1 must be given and every point 0..P-1 present: a
/// missing shard is reported at "inputs" as "shard i/n is missing (points a, b, ...)", with
/// the shard count, grid size and sweep fingerprint agreeing across inputs (two inputs of
/// different sweeps are reported as "A and B are shards of different sweeps ..."). Problems go
/// to `diag` naming the input (by its index in `csvs`, or `names` when given) and line. A
/// shard is complete only when it ends with a line end (toCsv ends every line with one; a file
/// cut at a field boundary still parses, with an empty last cell), every row has the header's
/// field count and, with the comment line, its row count is the shard's share of the points.
Table merge(const std::vector<std::string>& csvs, const std::vector<std::string>& names,
            Diagnostics& diag);

}  // namespace tandem::sweep
