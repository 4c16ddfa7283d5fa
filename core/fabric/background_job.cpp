#include "fabric/background_job.h"

#include <algorithm>

#include "common/json_reader.h"

namespace tandem::fabric {
namespace {

constexpr double kGB = 1e9;
constexpr double kMs = 1e-3;
constexpr long long kMaxSyncBursts = 1024;
/// Largest gradient, GB: 100 TB, 25 times the BF16 gradient of a 2-trillion-parameter model.
constexpr double kMaxGradientGB = 1e5;
/// Longest compute phase or burst gap, ms: one hour.
constexpr double kMaxPhaseMs = 3.6e6;
/// Shortest compute phase, ms: 1 us, the launch latency of a single GPU kernel.
constexpr double kMinPhaseMs = 1e-3;

const char* kGradientWhy =
    "100 TB, 25 times the BF16 gradient of a 2-trillion-parameter model (a physical bound)";
const char* kMinPhaseWhy = "1 us, the launch latency of one GPU kernel (a physical bound)";
const char* kMaxPhaseWhy =
    "one hour; a training step's compute phase or gap lasts milliseconds to seconds (a physical "
    "bound)";

}  // namespace

bool operator==(const BackgroundJob& a, const BackgroundJob& b) {
    return a.model == b.model && a.nodes == b.nodes && a.gradientBytes == b.gradientBytes &&
           a.computeS == b.computeS && a.computeJitter == b.computeJitter &&
           a.syncBursts == b.syncBursts && a.burstGapS == b.burstGapS;
}

void readBackgroundJob(JsonReader r, BackgroundJob& b) {
    if (!r.isObject()) return;
    b.model = r.string("model", b.model);
    b.nodes = static_cast<int>(r.integer("nodes", b.nodes, Range::closed(1, kMaxJobNodes)));
    const double gradientGB = r.number("gradient_GB", b.gradientBytes / kGB, Range::nonNegative());
    requireAtMost(r, "gradient_GB", gradientGB, kMaxGradientGB, " GB", kGradientWhy);
    b.gradientBytes = std::min(gradientGB, kMaxGradientGB) * kGB;
    b.computeS = r.number("compute_ms", b.computeS / kMs, Range::positive()) * kMs;
    requireAtLeast(r, "compute_ms", b.computeS / kMs, kMinPhaseMs, " ms", kMinPhaseWhy);
    requireAtMost(r, "compute_ms", b.computeS / kMs, kMaxPhaseMs, " ms", kMaxPhaseWhy);
    b.computeJitter = r.number("compute_jitter", b.computeJitter, {0.0, 1.0, false, true});
    b.syncBursts =
        static_cast<int>(r.integer("sync_bursts", b.syncBursts, Range::closed(1, kMaxSyncBursts)));
    b.burstGapS = r.number("burst_gap_ms", b.burstGapS / kMs, Range::nonNegative()) * kMs;
    requireAtMost(r, "burst_gap_ms", b.burstGapS / kMs, kMaxPhaseMs, " ms", kMaxPhaseWhy);
    r.finish();
}

nlohmann::ordered_json writeBackgroundJob(const BackgroundJob& b) {
    nlohmann::ordered_json j;
    j["model"] = b.model;
    j["nodes"] = b.nodes;
    j["gradient_GB"] = b.gradientBytes / kGB;
    j["compute_ms"] = b.computeS / kMs;
    j["compute_jitter"] = b.computeJitter;
    j["sync_bursts"] = b.syncBursts;
    j["burst_gap_ms"] = b.burstGapS / kMs;
    return j;
}

}  // namespace tandem::fabric
