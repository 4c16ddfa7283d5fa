#pragma once
// Measured nccl-tests curves in place of the analytical collective model. The paper costs the
// exposed DP and pipeline collectives "directly from the measured bandwidth curves" swept over
// message size and group size, intra-node and inter-node [2608.10605 Sec. 5.3, 5.4]; Tandem
// reads such curves from nccl-tests output (io/nccl_tests.h) and uses them through
// collectiveTime() (mosaic/collectives.h).
//
// How a measured curve is used for one call (collective c, S bytes per rank, group of n ranks
// `stride` apart on nodes of `gpusPerNode` GPUs):
//  1. Scope: a curve whose rank count exceeds gpusPerNode was measured across nodes and is used
//     only for groups that span nodes; a curve of at most gpusPerNode ranks only for groups
//     inside one node (a 2x8 curve on 8-GPU nodes serves the DP groups that span nodes).
//  2. Curve: among the curves of collective c in that scope, the one whose rank count is
//     nearest to n (|log(n_curve / n)|, ties to the larger rank count, then file order). When
//     c is reduce_scatter or all_gather and no curve of c exists in the scope, an all_reduce
//     curve stands in: at the same bus bandwidth it takes half the all-reduce time
//     (factor (n-1)/n instead of 2(n-1)/n, nccl-tests PERFORMANCE.md).
//  3. Time at the curve's own run: t_curve = S x busFactor(c, n_curve) / busbw_curve(S), with
//     busbw_curve from io::effectiveBusBandwidth (linear in busbw over log size between
//     measured sizes; outside them extrapolated and flagged).
//  4. Rank count and placement: t = t_curve x t_an(c, S, n, stride) / t_an(c, S, n_curve, 1),
//     t_an the analytical model (analyticalCollectiveTime); the curve's run is taken as n_curve
//     packed ranks (stride 1). The ratio is exactly 1 when the group matches the curve's run,
//     so there the measured time is used unchanged; otherwise the analytical model carries the
//     change of node count and ranks per node (rescaled to 80 ranks, the H100 2x8 all-reduce
//     curve predicts 360 GB/s at 1 GiB against 347 measured on 10x8; holding busbw constant
//     across rank counts would give 441, +27 %).
//  Rows whose printed busbw is below 1 GB/s (two decimals: 0.00 for the smallest sizes) take
//  their bus bandwidth from the time column instead: bytes x busFactor / time.
#include <array>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "io/nccl_tests.h"
#include "mosaic/collectives.h"

namespace tandem::mosaic {

/// One measured curve usable by the engine.
struct MeasuredCurve {
    Collective collective = Collective::AllReduce;
    io::NcclCurve curve;  ///< sizes ascending, busbw > 0 at every size (see the header comment)
    std::string source;   ///< the file it was read from, as given
    std::string label;    ///< e.g. "all_reduce on 16 ranks (H100-all_reduce-2x8-....txt)"
    std::vector<double> logBytes;  ///< io::logSizes(curve), for the lookups of every plan
};

/// The curve collectiveTime() uses for one call.
struct CurveChoice {
    int index = -1;        ///< into MeasuredCollectives::curves(); -1 = none applies
    bool standIn = false;  ///< an all_reduce curve for reduce_scatter / all_gather
};

/// Measured curves per collective and rank count. Immutable once attached to a Hardware
/// (Hardware::measured holds a shared_ptr to const), so copying Hardware stays cheap and
/// concurrent searches may share it.
class MeasuredCollectives {
public:
    /// Adds every curve of `imp` the engine can use; returns one note per curve skipped (a
    /// collective other than all_reduce, reduce_scatter, all_gather, alltoall; an unknown or
    /// single rank count; the same collective and rank count already loaded; no size with a
    /// positive bus bandwidth) and per row re-derived from its time column.
    std::vector<std::string> add(const io::NcclImport& imp, const std::string& source);

    const std::vector<MeasuredCurve>& curves() const { return m_curves; }
    bool empty() const { return m_curves.empty(); }

    /// The curve for collective `c` over `ranks` ranks, in the given scope (see step 1-2 of the
    /// header comment). `gpusPerNode` decides each curve's scope.
    CurveChoice choose(Collective c, int ranks, bool spansNodes, int gpusPerNode) const;

    /// Time, s, of one call from the measured curve (steps 1-4), or the analytical time when no
    /// curve applies; `use` (optional) receives the details. size <= 1 or bytes <= 0 -> 0.
    double timeOf(const Hardware& hw, Collective c, double bytes, int size, int stride,
                  CollectiveUse* use = nullptr) const;

    /// {"curves": [{"source", "collective", "ranks", "scope_gpus_per_node", "min_bytes",
    /// "max_bytes", "peak_busbw_GBps", "label"}]} for reports; `gpusPerNode` sets the scope
    /// written per curve ("intra_node" or "spans_nodes").
    nlohmann::ordered_json toJson(int gpusPerNode) const;

private:
    std::vector<MeasuredCurve> m_curves;
    /// Per collective (Collective's value), the indices into m_curves ordered by rank count
    /// (rank counts are unique per collective), so choose() bisects instead of scanning.
    std::array<std::vector<int>, 4> m_byRanks;
};

/// For each entry of `files` that names a file listed earlier (under any spelling: compared
/// after std::filesystem::weakly_canonical), {its index, the earlier index}; in list order.
/// loadMeasuredCollectives uses each such file once.
std::vector<std::pair<std::size_t, std::size_t>> repeatedFiles(
    const std::vector<std::string>& files);

/// Loads nccl-tests files into one MeasuredCollectives (files in the given order). Problems of
/// file i go to `diag` at path `pathPrefix[i]` (e.g. "$.mosaic.nccl_tests_files[0]"), or at
/// `pathPrefix` alone when `indexed` is false, with the file and line in the message:
/// `"<file>" line 40: NCCL error reported: "..."; the run did not complete, ...`. A file with
/// no usable curve (e.g. only broadcast) is an error too. `notes` (optional) receives the
/// skipped-curve notes. Returns nullptr when `files` is empty or on any error.
std::shared_ptr<const MeasuredCollectives> loadMeasuredCollectives(
    const std::vector<std::string>& files, Diagnostics& diag, const std::string& pathPrefix,
    bool indexed = true, std::vector<std::string>* notes = nullptr);

/// Report block for a search or plan run on `hw` (hw.measured set): the curves (toJson) and the
/// counters of `rec`, recorded around the run: {"curves": [...], "costings": calls,
/// "measured_costings": calls costed from a curve, "extrapolated_costings": of those, beyond
/// the measured sizes}. With hw.measured null: {"curves": []} and the counters.
nlohmann::ordered_json measuredCollectivesReport(const Hardware& hw, const CollectiveRecorder& rec);

/// One size of a measured-vs-analytical comparison.
struct BusBandwidthSample {
    double bytes = 0;                ///< S, buffer per rank (nccl-tests size), bytes
    double analyticalBusbw_Bps = 0;  ///< S x busFactor(c, ranks) / analytical time, bytes/s
    /// The same from the time collectiveTime() uses with the measured curves (steps 1-4);
    /// NaN when no curve applies to this collective and scope.
    double measuredBusbw_Bps = std::numeric_limits<double>::quiet_NaN();
    bool extrapolated = false;  ///< S outside the curve's measured sizes
};

/// Measured against analytical bus bandwidth of one collective over one group, for a chart.
struct BusBandwidthComparison {
    Collective collective = Collective::AllReduce;
    int ranks = 0, stride = 1, nodes = 1;  ///< the group compared
    int curve = -1;                        ///< index into hw.measured->curves(); -1 = none applies
    std::string curveLabel;                ///< MeasuredCurve::label, empty when none
    int curveRanks = 0;                    ///< rank count of the curve's own run
    bool standIn = false;                  ///< an all_reduce curve for reduce_scatter / all_gather
    bool rescaled = false;  ///< the group differs from the curve's run (step 4 applies)
    double minMeasuredBytes = 0, maxMeasuredBytes = 0;  ///< the curve's measured sizes
    std::vector<BusBandwidthSample> samples;            ///< one per requested size, same order
};

/// Samples bus bandwidth, measured path against analytical, at `sizes` (bytes, any order, each
/// > 0; others give 0 / NaN) for collective `c` over `ranks` ranks `stride` apart on `hw`.
/// Pure; hw.measured may be null (then measured values are NaN). Cost: a few microseconds per
/// size. The GUI plots analyticalBusbw_Bps and measuredBusbw_Bps against bytes (log x).
BusBandwidthComparison compareBusBandwidth(const Hardware& hw, Collective c, int ranks,
                                           const std::vector<double>& sizes, int stride = 1);

/// `count` sizes spaced evenly in log between minBytes and maxBytes inclusive (count >= 2,
/// 0 < minBytes <= maxBytes; otherwise an empty vector). E.g. logSpacedSizes(1 << 10, 1 << 34, 49).
std::vector<double> logSpacedSizes(double minBytes, double maxBytes, int count);

}  // namespace tandem::mosaic
