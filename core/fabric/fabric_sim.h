#pragma once
// Event-driven simulation of jobs on the fluid network [MODEL.md A3]. Three kinds of traffic
// sources, combined as needed:
//  - live background jobs (closed loop): compute phase, then a ring all-reduce; the next compute
//    phase starts when the transfer finishes, so they slow down when sharing;
//  - recorded background transfers (open loop): each starts at its recorded time whether or not
//    the job's previous transfer has finished [2608.06046 Sec. 3.2: traces replayed];
//  - the foreground job: g microbatches of compute, then its DP all-reduce; the exposed DP time
//    of each iteration is what is measured.
// Time advances from event to event (flow start/finish, compute end); rates are recomputed by
// water-filling at each. Every run is bounded by its `until` time and an event budget.
#include <cstdint>
#include <exception>  // before common/cancel.h, which uses std::exception
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/cancel.h"
#include "fabric/fluid.h"
#include "fabric/topology.h"

namespace tandem::fabric {

/// One recorded background transfer: start time (s), job index, bytes per node on the wire.
struct Transfer {
    double start_s;
    int job;
    double bytesPerNode;
};

/// Deterministic 64-bit generator (splitmix64): same seed -> same stream on every platform.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next();
    double uniform();  ///< [0, 1)
private:
    std::uint64_t m_state;
};

/// Specification of identical background jobs (closed loop when live).
struct LiveJobSpec {
    int count = 0;
    int nodes = 8;
    double bytesPerNode = 0;  ///< ring wire bytes per node per sync
    double compute_s = 0.069;
    double jitter = 0.0;  ///< uniform +- fraction of compute_s
    /// The sync is sent as `syncBursts` equal bursts (>= 1), each started `burstGap_s` after the
    /// previous one finished (bucketed all-reduce overlapped with the backward pass); the
    /// compute phase starts after the last burst.
    int syncBursts = 1;
    double burstGap_s = 0.0;  ///< idle time between two bursts of one sync, s (>= 0)
    std::uint64_t seed = 1;   ///< phases and jitter
};

/// The foreground job of one replay.
struct ForegroundSpec {
    int nodes = 50;
    double bytesPerNode = 0;  ///< ring wire bytes per node per sync
    double compute_s = 0;     ///< g * T_c
    double overlap_s = 0;     ///< transfer may start this long before compute ends (<= compute_s)
    double start_s = 0;
    int iterations = 0;  ///< iterations to run (the caller discards warm-up ones)
    /// The sync's wall time, s, given the seconds its bytes took on the network (from the
    /// flow's start to its end under the max-min fair shares): the collective model's latency
    /// and NVLink stage on top (mosaic::collectiveTimeWithNetwork). Empty: the network time
    /// alone (the fluid model of [2608.06046], no latency). A result below the network time
    /// counts as the network time.
    std::function<double(double network_s)> syncTime;
};

/// How one link of the fabric was used over the simulated time a record covers
/// (FabricSim::trackLinkUsage; docs/MODEL-NETWORK.md section 3, `links.csv`).
struct LinkUsage {
    /// Stable readable name: "leaf3-up", "leaf3-down" (equal ECMP: the leaf's uplink bundle),
    /// "leaf3-up-spine7" (hashed ECMP or failures: one bundle per spine), "pod1-spine2-up" (a
    /// pod spine's core bundle, FabricPlan::linkNames for the rest), "fabric" (the shared
    /// capacity of the paper-fabric), "bg2-nic" / "foreground-nic" (one node's NIC of that job).
    std::string link;
    double capacityBytesPerS = 0;   ///< bytes/s, each direction
    double observed_s = 0;          ///< simulated seconds the record covers
    double utilisationSeconds = 0;  ///< integral of carried bytes/s over capacity, s
    double peakUtilisation = 0;     ///< largest carried bytes/s over capacity
    /// Seconds the link was full: its max-min fair load within a relative
    /// FluidNetwork::kSaturationTolerance (1e-9) of its capacity.
    double saturated_s = 0;
    /// Jobs that moved bytes across it while recorded: kForegroundJob first, then background
    /// job indices ascending.
    std::vector<int> jobs;
    /// utilisationSeconds / observed_s (0 when nothing was observed).
    double meanUtilisation() const {
        return observed_s > 0 ? utilisationSeconds / observed_s : 0.0;
    }
};

/// Adds record `add` to `total` (the same links in the same order; `total` empty takes `add`):
/// seconds summed, peaks the larger, jobs the union. Throws std::logic_error when the links
/// differ.
void mergeLinkUsage(std::vector<LinkUsage>& total, const std::vector<LinkUsage>& add);

/// Event-loop steps one FabricSim may take, and job updates (steps x (1 + live jobs), each step
/// scans every live job); run() throws std::runtime_error (naming the keys that drive the event
/// rate) beyond either rather than return a truncated simulation. Scenario 1's recording at
/// N = 16 takes ~1e7 job updates.
constexpr long long kEventBudget = 20000000;
constexpr long long kWorkBudget = 1000000000;

class FabricSim {
public:
    FabricSim(double fabricBytesPerS, double nicBytesPerS, double ccEfficiency,
              double ccDropPerFlow);
    /// On a built fabric (fabric/topology.h): background job j (live or replayed) follows
    /// plan.jobRoutes[j], the foreground the last route. `plan` must outlive the simulation.
    FabricSim(const FabricPlan& plan, double ccEfficiency, double ccDropPerFlow);

    /// Adds live (closed-loop) background jobs with random phases in [0, cycle). When `record`
    /// is set, their transfers and the background fabric rate over time are logged.
    void addLiveJobs(const LiveJobSpec& spec, bool record);
    /// Replays transfers of `source` (a recording FabricSim) open loop; `source` is extended
    /// on demand up to the time this simulation reaches. `jobs` groups of `nodes` nodes.
    void replayFrom(FabricSim* source, int jobs, int nodes);
    /// Replays a fixed, start-ordered transfer list open loop (e.g. a converted trace).
    void replayList(const std::vector<Transfer>* list, int jobs, int nodes);
    /// Adds the foreground job; its exposed DP times land in exposedDpTimes().
    void setForeground(const ForegroundSpec& fg);

    /// Runs until time `until` (s) or until the foreground has done its iterations (if any).
    /// Polls the cancel flag (setCancel) every few thousand events; throws tandem::Cancelled,
    /// and std::runtime_error once kEventBudget steps are used up.
    void run(double until);
    /// Flag polled by run(); also used by the recording this simulation replays from.
    void setCancel(const tandem::CancelFlag* cancel) { m_cancel = cancel; }
    /// Scenario keys that drive the event rate, named by the error run() throws beyond the
    /// budgets (default: the ML-for-ML background job's keys).
    void setBudgetKeys(std::string keys) { m_budgetKeys = std::move(keys); }

    /// Records link usage from time `from_s` on (s; earlier simulated time is not counted):
    /// per link the utilisation integral, peak, seconds full and the jobs that crossed it.
    /// Costs O(loaded links) per event; off unless called.
    void trackLinkUsage(double from_s);
    /// The record of trackLinkUsage, one entry per link (the plan's links in their order; on
    /// the shared fabric "fabric" then each group's NIC); empty when not tracking. `routedOnly`
    /// (a built fabric): only the links some route of the plan crosses, in the plan's order: the
    /// same links for every simulation of one plan, so records still merge, at a cost of the
    /// routes' length rather than the fabric's 2^20 links.
    std::vector<LinkUsage> linkUsage(bool routedOnly = false) const;

    double now() const { return m_now; }
    /// Flow start and finish events processed so far by this simulation (not counting the
    /// recording it replays from), for the events/s figure of `tandem-cli bench`.
    std::uint64_t eventsProcessed() const { return m_events; }
    bool foregroundDone() const { return m_fgDone; }
    const std::vector<double>& exposedDpTimes() const { return m_exposed; }
    const std::vector<double>& iterationStarts() const { return m_iterStart; }
    const std::vector<Transfer>& transfers() const { return m_transfers; }
    /// Background fabric rate log: rate m_rateV[i] bytes/s holds from m_rateT[i] to the next.
    const std::vector<double>& rateTimes() const { return m_rateT; }
    const std::vector<double>& rateValues() const { return m_rateV; }

private:
    void startLiveTransfer(int j);
    void startLiveCompute(int j);
    /// A burst of live job j finished: wait the burst gap before the next, or start computing.
    void finishLiveBurst(int j);
    void logRate();
    /// Group of background job j (route j on a built fabric).
    int addBackgroundGroup(int j, int nodes);

    /// Job id of fluid-network group `g` (kForegroundJob, a background index, or -2 if none).
    int jobOfGroup(int g) const;

    FluidNetwork m_net;
    const FabricPlan* m_plan = nullptr;
    bool m_trackUsage = false;
    double m_usageFrom = 0;
    double m_now = 0;
    long long m_eventBudget = kEventBudget;
    long long m_workBudget = kWorkBudget;
    std::uint64_t m_events = 0;
    const tandem::CancelFlag* m_cancel = nullptr;
    std::string m_budgetKeys =
        "ml_for_ml.background_job.compute_ms, gradient_GB, sync_bursts, background_jobs";

    // live jobs
    LiveJobSpec m_live;
    bool m_record = false;
    int m_liveGroup0 = 0;
    std::vector<double> m_liveComputeEnd;  // +inf while transferring
    std::vector<double> m_liveComputeStart;
    std::vector<int> m_liveBurstsLeft;  // bursts of the current sync not yet started
    SplitMix64 m_rng{1};
    std::vector<Transfer> m_transfers;
    std::vector<double> m_rateT, m_rateV;

    // replayed jobs
    FabricSim* m_source = nullptr;
    const std::vector<Transfer>* m_list = nullptr;
    int m_replayGroup0 = 0, m_replayJobs = 0;
    size_t m_nextTransfer = 0;

    // foreground
    bool m_hasFg = false, m_fgDone = false;
    ForegroundSpec m_fg;
    /// Where the foreground's iteration stands: computing before its sync may start, its
    /// gradient sync on the wire, or its sync done while the compute still runs.
    /// SyncTail: its bytes are through the network, the collective's latency and NVLink stage
    /// (ForegroundSpec::syncTime) still run until m_fgTailEnd.
    enum class ForegroundPhase { Computing, Syncing, SyncTail, SyncDone };
    int m_fgGroup = -1, m_fgIter = 0, m_fgFlow = -1;
    ForegroundPhase m_fgPhase = ForegroundPhase::Computing;
    double m_fgComputeStart = 0;
    double m_fgSyncStart = 0, m_fgTailEnd = 0;
    std::vector<double> m_exposed, m_iterStart;

    std::vector<int> m_done;  // scratch
};

}  // namespace tandem::fabric
