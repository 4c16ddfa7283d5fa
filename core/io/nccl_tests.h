#pragma once
// nccl-tests output (all_reduce_perf, all_gather_perf, reduce_scatter_perf, alltoall_perf, ...)
// -> measured bus-bandwidth-vs-size curves, used in place of the analytical collective model.
// Conventions [N] (nccl-tests doc/PERFORMANCE.md): busbw = algbw * 2(n-1)/n for all-reduce,
// (n-1)/n for all-gather, reduce-scatter and all-to-all, 1 for broadcast / reduce; GB/s = 1e9 B/s.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "io/collective.h"

namespace tandem::io {

/// One size row of an nccl-tests table (both out-of-place and in-place halves when present).
struct NcclPoint {
    double bytes = 0;             ///< the table's `size` column (bytes)
    double timeOutOfPlace_s = 0;  ///< out-of-place time (s)
    double busbwOutOfPlace_Bps = 0;
    double timeInPlace_s = 0;  ///< 0 when the row has no in-place half
    double busbwInPlace_Bps = 0;
    double busbw_Bps = 0;  ///< the curve's value: max of the two halves (best achieved)
    std::size_t line = 0;  ///< 1-based line in the file
};

/// A bus-bandwidth curve of one collective at one rank count, sorted by size (unique sizes).
struct NcclCurve {
    /// The collective measured, read from the log, the file name or inferred (collectiveNames()
    /// gives its word; the inspect JSON writes that).
    Collective collective = Collective::AllReduce;
    std::string collectiveSource;  ///< how it was identified ("log", "file name", "inferred")
    int ranks = 0;                 ///< participating GPUs
    std::string ranksSource;       ///< "rank lines", "size/count", "busbw/algbw" (an estimate)
    std::string dataType;          ///< e.g. "float"
    bool hasInPlace = false;
    std::vector<NcclPoint> points;
    double peakBusbw_Bps = 0;  ///< max busbw of any row (either half): the file's max busbw
    double peakAtBytes = 0;
    std::vector<std::string> notes;  ///< skipped rows, duplicates, estimates (with lines)
};

/// Every curve of one nccl-tests log (a log may hold several collectives back to back).
struct NcclImport {
    std::vector<NcclCurve> curves;
};

/// Parses nccl-tests text. Accepts the newer layout (`redop` + `root` columns, `#wrong`) and the
/// older one (no `root`, `error` column), `N: ` / `[r,c]<stdout>:` launcher prefixes, header
/// lines with or without `#`, interleaved NCCL INFO lines and `...` elisions. Zero-byte rows are
/// skipped. The collective comes from "Collective test starting: X_perf" or an `X_perf` token,
/// else from `fileName` (e.g. "...-all_reduce-..."), else is inferred from redop and the
/// busbw/algbw ratio (noted). Ranks come from `Rank N` lines, else size/(count*type size) for
/// all-gather / reduce-scatter / all-to-all, else the file name's "AxB" (noted), else the
/// busbw/algbw ratio (noted as an estimate). Precedence when sources disagree: the log's own
/// Rank lines, then size/count, then busbw/algbw over the file name: a file-name count whose
/// factor 2(n-1)/n (all-reduce) or (n-1)/n lies outside every row's ratio interval (printed
/// busbw and algbw +-0.005 GB/s, rows with algbw >= 1 GB/s) is replaced by the data's count,
/// ranks_source "busbw/algbw", with a note "file name says 64 ranks; busbw/algbw 1.9792
/// implies 96; using 96 (the data)".
/// Errors (in `diag`, path `line N`): an NCCL / CUDA / test failure line ("line 40: NCCL error
/// reported: ..."), a failed out-of-bounds check, the process dying (abort, signal, kill,
/// scheduler cancel: "the run aborted: ..."); a row whose `#wrong` count is above 0 in either
/// half ("7 wrong value(s) in the out-of-place result"), or, in the older layout, whose `error`
/// (largest deviation) exceeds nccl-tests' own tolerance for the data type (1e-2 half /
/// bfloat16, 1e-5 float, 1e-12 double, 0 integers, times ranks - 1 when Rank lines give the
/// count): "error 2e-01 in the out-of-place result ... exceeds 1e-05 allowed for float"; a row that
/// cannot be read, including any line inside a table (after its header, before its summary) that
/// starts with a size
/// ("only 3 columns", "count must be an integer"), time / algbw / busbw that are not finite
/// numbers >= 0 or above 1e5 GB/s; NCCL WARN lines in a log whose table has no closing
/// "# Avg bus bandwidth" line, or with no table at all; no data rows (path "file"). Returns
/// std::nullopt on any error.
/// A row whose size exceeds 2^40 B (one rank's buffer larger than any GPU memory) is refused.
/// A log carrying nccl-tests' run preamble (`# nThread`, `# Using devices`, `#  Rank` lines or
/// "Collective test starting") is a whole run's output: without its closing
/// "# Avg bus bandwidth" line it was truncated and is refused at the last line read, and a last
/// row cut mid-line (no line end) is refused at its line. A bare table with no preamble and no
/// failure or warning (a README excerpt) keeps its complete rows, with a note "the table ends at
/// line N without nccl-tests' closing ... line: an excerpt without run header or summary"; its
/// last row cut mid-line is named in a note and not used.
std::optional<NcclImport> parseNcclTests(const std::string& text, const std::string& fileName,
                                         Diagnostics& diag);

/// Reads and parses a file (see parseNcclTests).
std::optional<NcclImport> loadNcclTestsFile(const std::string& path, Diagnostics& diag);

/// Effective bus bandwidth at a message size.
struct BusBandwidth {
    double busbw_Bps = 0;
    bool extrapolated = false;  ///< `bytes` outside the measured sizes
};

/// Bus bandwidth of `curve` at `bytes` (> 0, the nccl-tests `size` convention). Inside the
/// measured range: linear in busbw over log(size) between the neighbouring rows. Below the
/// smallest size: latency-bound, busbw scales with size (busbw_min * bytes / bytes_min);
/// above the largest: held at the last value; both flagged extrapolated. An empty curve or
/// bytes <= 0 gives 0 (flagged extrapolated).
BusBandwidth effectiveBusBandwidth(const NcclCurve& curve, double bytes);
/// The same, bit for bit, with `logBytes[i]` = std::log(curve.points[i].bytes) computed once
/// (logSizes) for a curve that is looked up many times (the MOSAIC search costs every plan's
/// collectives through it). `logBytes` must have one entry per point.
BusBandwidth effectiveBusBandwidth(const NcclCurve& curve, double bytes,
                                   const std::vector<double>& logBytes);
/// std::log of every point's size, in point order (for the overload above).
std::vector<double> logSizes(const NcclCurve& curve);

/// The first curve of `collective` (and of `ranks` GPUs, when > 0) in `imp`, or nullptr.
const NcclCurve* findCurve(const NcclImport& imp, Collective collective, int ranks = 0);

/// Time (s) to run `collective` on `bytes` with the measured curve: bytes * factor / busbw.
/// Flags extrapolation like effectiveBusBandwidth. Infinite when busbw is 0.
double collectiveTime_s(const NcclCurve& curve, double bytes, bool* extrapolated = nullptr);

/// Inspect JSON of one curve: collective, ranks, ranks_source, peak_busbw_GBps,
/// peak_at_bytes, points [{bytes, busbw_GBps, busbw_out_of_place_GBps, busbw_in_place_GBps}],
/// notes.
nlohmann::ordered_json ncclCurveToJson(const NcclCurve& c);

}  // namespace tandem::io
