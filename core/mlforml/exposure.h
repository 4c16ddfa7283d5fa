#pragma once
// Exposed DP time of the foreground under one background condition [2608.06046 Sec. 3.1-3.2;
// MODEL.md A3]: the background is recorded alone (closed loop), then the foreground is run
// against it at `startOffsets` start offsets for warm-up + measured iterations, per knob
// combination: open-loop replay of the recording (mode "replay") or live background jobs that
// slow down when sharing (mode "closed_loop"). The samples feed the training loop; their mean
// is the paper's averaged T_dp(p, z).
#include <exception>  // before common/cancel.h, which uses std::exception
#include <vector>

#include "common/cancel.h"
#include "fabric/fabric_sim.h"
#include "mlforml/knobs.h"
#include "mlforml/params.h"

namespace tandem::mlforml {

/// Exposed DP time per combination for one background condition.
struct ExposureTable {
    int backgroundJobs = 0;
    /// samples[c]: exposed DP times (s) of combination c, offset-major (offset k, iteration i
    /// at index k * replayIterations + i); +inf when a sync did not finish within the replay cap.
    std::vector<std::vector<double>> samples;
    std::vector<double> mean;  ///< per combination, s
    /// Series mode only: start time of each sample's iteration relative to the first measured
    /// one (s), and the span the series covers (s); empty in offsets mode.
    std::vector<std::vector<double>> sampleTimes;
    std::vector<double> seriesDuration;
    double bgP95BytesPer50ms = 0;  ///< 95th percentile of background bytes per 50 ms window
    double bgMeanBytesPerS = 0;    ///< mean background fabric load of the recording, bytes/s
    /// Flow start/finish events processed by the recording and every replay of this table.
    std::uint64_t eventsSimulated = 0;
    /// Background fabric load of the recording (decimated), s and bytes/s.
    std::vector<double> loadTime_s, loadBytesPerS;
    /// Per link of the fabric, its use summed over every replay of this table, each from the
    /// foreground's start to the replay's end (fabric::FabricSim::trackLinkUsage).
    std::vector<fabric::LinkUsage> links;
};

/// The combinations of the action space (precisions x gradient accumulations), g-major:
/// index = gi * precisions.size() + pi.
std::vector<Combo> actionSpace(const Params& p);

/// Wire bytes per foreground node per sync for precision `precision`.
double foregroundWireBytes(const Params& p, Precision precision);

/// `recordLinks`: fill ExposureTable::links (costs a little per event; off for the curves,
/// sweeps and the GUI, on for `tandem-cli run`).
/// Measures the table for `backgroundJobs` modelled jobs of p.backgroundJob (0 = foreground
/// alone), their phases drawn from `seed`: the jobs are recorded alone, then replayed open loop
/// (mode replay) or run live next to the foreground (closed_loop). Throws tandem::Cancelled
/// when `cancel` is set; std::invalid_argument from buildFabric on a leaf_spine fabric that
/// cannot hold the jobs.
ExposureTable measureExposure(const Params& p, const std::vector<Combo>& combos, int backgroundJobs,
                              std::uint64_t seed, const tandem::CancelFlag* cancel,
                              bool recordLinks = false);

/// Measures the table against a fixed open-loop background `transfers` (a converted trace)
/// grouped into `traceJobs` jobs of `traceNodes` nodes on the shared paper-fabric; the mode is
/// not used (a trace cannot slow down). The table has no background p95, mean load or load
/// curve: the caller takes them from the trace. Throws tandem::Cancelled when `cancel` is set.
ExposureTable measureTraceExposure(const Params& p, const std::vector<Combo>& combos,
                                   const std::vector<fabric::Transfer>& transfers, int traceJobs,
                                   int traceNodes, const tandem::CancelFlag* cancel,
                                   bool recordLinks = false);

/// 95th percentile of bytes per `window_s` window of a piecewise-constant rate log over
/// [t0, t1) (rate v[i] from t[i] to t[i+1], last one until t1).
double percentileBytesPerWindow(const std::vector<double>& t, const std::vector<double>& v,
                                double t0, double t1, double window_s, double quantile);

}  // namespace tandem::mlforml
