#include "fabric/background_job.h"

#include "common/json_reader.h"

namespace tandem::fabric {
namespace {

constexpr double kGB = 1e9;
constexpr double kMs = 1e-3;
/// Most bursts one sync is sent as: 1024, far more buckets than any framework overlaps.
constexpr long long kMaxSyncBursts = 1024;
/// Largest gradient, GB: 100 TB, 25 times the BF16 gradient of a 2-trillion-parameter model.
constexpr double kMaxGradientGB = 1e5;

const char* kGradientWhy =
    "100 TB, 25 times the BF16 gradient of a 2-trillion-parameter model (a physical bound)";
const char* kSec32 = "2608.06046 Sec. 3.2";
const char* kA3 = "MODEL.md A3";

// Accessors of one numeric member for the field table: MEMBER(nodes) gives the get and set
// columns (SI values as doubles).
#define TANDEM_JOB_MEMBER(m)                                         \
    [](const BackgroundJob& b) { return static_cast<double>(b.m); }, \
        [](BackgroundJob& b, double v) { b.m = static_cast<decltype(b.m)>(v); }

}  // namespace

const std::vector<BackgroundJobField>& backgroundJobFields() {
    using R = Range;
    const FieldBound none{};
    static const std::vector<BackgroundJobField> t = {
        {"", "model", "", "", 1, false, R{}, none, none, "label of the background model", kSec32,
         nullptr, nullptr,
         [](JsonReader& r, const BackgroundJobField& f, BackgroundJob& b) {
             b.model = r.string(f.key, b.model);
         },
         [](const BackgroundJobField& f, const BackgroundJob& b, nlohmann::ordered_json& j) {
             j[f.key] = b.model;
         }},
        {"", "nodes", "nodes", "", 1, true, R::closed(1, kMaxJobNodes), none, none,
         "nodes of each background job; its ring all-reduce runs over them", kSec32,
         TANDEM_JOB_MEMBER(nodes)},
        {"", "gradient_GB", "GB", " GB", kGB, false, R::nonNegative(), none,
         FieldBound{kMaxGradientGB, kGradientWhy}, "bytes all-reduced per sync of a background job",
         "fitted to the p95 volumes of 2608.06046 Sec. 3.2", TANDEM_JOB_MEMBER(gradientBytes)},
        {"", "compute_ms", "ms", " ms", kMs, false, R::positive(),
         FieldBound{kMinPhaseMs, kMinPhaseWhy}, FieldBound{kMaxPhaseMs, kMaxPhaseWhy},
         "mean compute phase between two syncs of a background job",
         "fitted to the MXFP4 shares of 2608.06046 Fig. 2a", TANDEM_JOB_MEMBER(compute_s)},
        {"", "compute_jitter", "", "", 1, false, R{0.0, 1.0, false, true}, none, none,
         "uniform +- fraction of the compute phase per cycle", kA3,
         TANDEM_JOB_MEMBER(computeJitter)},
        {"", "sync_bursts", "bursts", "", 1, true, R::closed(1, kMaxSyncBursts), none, none,
         "equal bursts a sync is sent as (1 = one continuous transfer)", kA3,
         TANDEM_JOB_MEMBER(syncBursts)},
        {"", "burst_gap_ms", "ms", " ms", kMs, false, R::nonNegative(), none,
         FieldBound{kMaxPhaseMs, kMaxPhaseWhy},
         "gap between one burst's end and the next one's start", kA3,
         TANDEM_JOB_MEMBER(burstGap_s)},
    };
    return t;
}

#undef TANDEM_JOB_MEMBER

bool operator==(const BackgroundJob& a, const BackgroundJob& b) {
    return a.model == b.model && a.nodes == b.nodes && a.gradientBytes == b.gradientBytes &&
           a.compute_s == b.compute_s && a.computeJitter == b.computeJitter &&
           a.syncBursts == b.syncBursts && a.burstGap_s == b.burstGap_s;
}

void readBackgroundJob(JsonReader r, BackgroundJob& b) {
    if (!r.isObject()) return;
    readFields(r, backgroundJobFields(), b);
    r.finish();
}

nlohmann::ordered_json writeBackgroundJob(const BackgroundJob& b) {
    return writeFields(backgroundJobFields(), b);
}

}  // namespace tandem::fabric
