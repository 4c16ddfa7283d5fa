#pragma once
// One data-parallel job that shares the fabric: it alternates a compute phase and a ring
// all-reduce of its gradient [2608.06046 Sec. 3.2/3.3; MODEL.md A3]. The same description (and
// the same JSON keys) serves ML-for-ML's background jobs (`ml_for_ml.background_job`) and the
// jobs that run beside the MoE job (`mosaic.background.job`).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/field_table.h"
#include "common/json_reader.h"

namespace tandem::fabric {

/// Most nodes one job may use (`nodes`, and ML-for-ML's `foreground_nodes` and
/// `progress.static_nodes`): 16384, beyond the largest training clusters built.
constexpr long long kMaxJobNodes = 16384;

/// Bounds of one phase of a training step, ms (a background job's `compute_ms` and
/// `burst_gap_ms`, ML-for-ML's `microbatch_compute_ms` and `overlap_window_ms`): at least 1 us,
/// the launch latency of a single GPU kernel (compute phases), and at most one hour; a step's
/// compute or gap takes milliseconds to seconds.
constexpr double kMinPhaseMs = 1e-3;
constexpr double kMaxPhaseMs = 3.6e6;
/// The reasons of kMinPhaseMs and kMaxPhaseMs, as the bound's error message gives them.
constexpr const char* kMinPhaseWhy =
    "1 us, the launch latency of one GPU kernel (a physical bound)";
constexpr const char* kMaxPhaseWhy =
    "one hour; a training step's compute phase or gap lasts milliseconds to seconds (a physical "
    "bound)";

/// A background job. Calibrated GPT-1B defaults: volume and compute phase fitted to the p95
/// volumes of [2608.06046 Sec. 3.2] and the MXFP4 shares of Fig. 2a (a 1.4 B-value BF16
/// gradient; the compute phase is the non-DP part of a step that overlaps nothing).
struct BackgroundJob {
    std::string model = "GPT-1B";   ///< label only (`model`)
    int nodes = 8;                  ///< nodes of the job; inter-node ring over these (>= 1)
    double gradientBytes = 2.81e9;  ///< bytes all-reduced per sync (JSON `gradient_GB`)
    double compute_s = 0.032;       ///< mean compute phase between syncs, s (`compute_ms`)
    double computeJitter = 0.27;    ///< uniform +- fraction of compute_s per cycle, [0, 1)
    /// How bursty a sync is: it is sent as `syncBursts` equal bursts (JSON `sync_bursts`, >= 1),
    /// each starting `burstGap_s` after the previous one finished (`burst_gap_ms`), as a bucketed
    /// all-reduce overlapped with the backward pass puts it on the wire; the compute phase
    /// follows the last burst. 1 burst = one continuous transfer (scenario 1).
    int syncBursts = 1;
    double burstGap_s = 0.0;
};

bool operator==(const BackgroundJob& a, const BackgroundJob& b);

/// A key of a background-job object (tandem::Field, common/field_table.h): the single
/// definition its reader, writer and checks, ML-for-ML's `background_job` rows
/// (mlforml::paramFields()) and the MoE side panel's boxes take the key, unit, range, bounds and
/// meaning from.
using BackgroundJobField = tandem::Field<BackgroundJob>;

/// Every key of a background-job object, in the order the writer writes them: `model`,
/// `nodes` in [1, kMaxJobNodes], `gradient_GB` in [0, 1e5], `compute_ms` in [1e-3, 3.6e6],
/// `compute_jitter` in [0, 1), `sync_bursts` in [1, 1024], `burst_gap_ms` in [0, 3.6e6].
const std::vector<BackgroundJobField>& backgroundJobFields();

/// Reads a background-job object into `b` (every key of backgroundJobFields() optional,
/// defaults from `b`). Errors carry the key's JSON path and the bound's reason; calls
/// r.finish(). A non-object leaves `b` unchanged (the caller's r.object() has reported it).
void readBackgroundJob(tandem::JsonReader r, BackgroundJob& b);
/// Every key of `b` (backgroundJobFields()), units in the key names (GB, ms).
nlohmann::ordered_json writeBackgroundJob(const BackgroundJob& b);

}  // namespace tandem::fabric
