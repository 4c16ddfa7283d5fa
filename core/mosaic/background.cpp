#include "mosaic/background.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "fabric/fabric_sim.h"
#include "fabric/fluid.h"
#include "mosaic/collectives.h"
#include "mosaic/measured_collectives.h"

namespace tandem::mosaic {
namespace {

constexpr int kMaxBackgroundJobs = 1024;
constexpr int kChunksPerCycle = 8;  ///< step 2: chunk = 1/8 of a background cycle
constexpr int kTraceCycles = 24;    ///< step 2: length of the rate trace
constexpr int kWarmupCycles = 2;    ///< background alone before the trace starts
constexpr int kStartTimes = 128;    ///< step 3: start times averaged
/// Step 4: sizes of every curve, 1 KiB to 1 TiB by factors of 2 (the reader's largest size).
constexpr double kMinCurveBytes = 1024.0;
constexpr int kCurveSizes = 31;
/// Slowdowns within this of 1 count as none (the trace's rounding).
constexpr double kNoSlowdown = 1e-9;
constexpr const char* kSource = "co-running jobs (mosaic.background)";

/// Piecewise-constant rate trace of the MoE job: chunk i moves `chunkBytes` in durations[i].
struct RateTrace {
    double chunkBytes = 0;
    std::vector<double> ends;  ///< cumulative time at the end of each chunk, s
    double period() const { return ends.empty() ? 0.0 : ends.back(); }
    /// Bytes moved in [0, t] of one period (t within it).
    double bytesUntil(double t) const {
        const auto it = std::lower_bound(ends.begin(), ends.end(), t);
        const size_t i = size_t(it - ends.begin());
        if (i >= ends.size()) return chunkBytes * double(ends.size());
        const double start = i == 0 ? 0.0 : ends[i - 1];
        const double frac = (t - start) / (ends[i] - start);
        return chunkBytes * (double(i) + std::clamp(frac, 0.0, 1.0));
    }
    /// Time at which the cumulative bytes of one period reach `b` (0 <= b <= total).
    double timeAtBytes(double b) const {
        const double total = chunkBytes * double(ends.size());
        if (b >= total) return period();
        const double chunks = b / chunkBytes;
        const size_t i = std::min(ends.size() - 1, size_t(chunks));
        const double start = i == 0 ? 0.0 : ends[i - 1];
        return start + (chunks - double(i)) * (ends[i] - start);
    }
    /// T(bytes, t0): time to move `bytes` starting at t0 in [0, period), the trace repeated.
    double transferTime(double bytes, double t0) const {
        const double P = period(), Q = chunkBytes * double(ends.size());
        const double full = std::floor(bytes / Q);
        double rest = bytes - full * Q;
        const double b0 = bytesUntil(t0);
        double t;
        if (b0 + rest <= Q)
            t = timeAtBytes(b0 + rest) - t0;
        else
            t = (P - t0) + timeAtBytes(b0 + rest - Q);
        return full * P + t;
    }
};

/// The MoE job's trace (steps 1-2); adds to `shared` the fabric links its route shares with a
/// co-running job's (NIC links are each job's own).
RateTrace traceOf(const Hardware& hw, int nodes, const BackgroundLoad& bg, int groupNodes,
                  fabric::Collective traffic, const tandem::CancelFlag* cancel,
                  std::set<int>& shared) {
    const int gpn = std::max(1, hw.gpusPerNode);
    const double nodeRate = gpn * hw.nicBytesPerS;
    fabric::FabricPlan plan =
        fabric::buildFabric(bg.topology, bg.placement, bg.jobs, bg.job.nodes, nodes, nodeRate, gpn,
                            backgroundFabricKeys(), true);
    const int nicLink = int(plan.linkCapacity.size()) - 1;
    plan.jobRoutes.back() =
        fabric::concurrentGroupsRoute(bg.topology, plan.jobNodes.back(), groupNodes, traffic,
                                      nicLink, gpn, bg.placement.seed, backgroundFabricKeys());
    std::set<int> background;
    for (size_t j = 0; j + 1 < plan.jobRoutes.size(); ++j)
        for (const fabric::LinkUse& u : plan.jobRoutes[j])
            if (u.share > 0 && plan.linkNames[size_t(u.link)].find("-nic") == std::string::npos)
                background.insert(u.link);
    for (const fabric::LinkUse& u : plan.jobRoutes.back())
        if (u.share > 0 && u.link != nicLink && background.count(u.link)) shared.insert(u.link);
    const double bgWire = fabric::ringWireBytesPerNode(bg.job.gradientBytes, bg.job.nodes);
    const double cycle =
        bg.job.compute_s + bgWire / nodeRate + (bg.job.syncBursts - 1) * bg.job.burstGap_s;
    const bool idle = bg.jobs == 0 || bgWire <= 0;
    RateTrace tr;
    tr.chunkBytes = nodeRate * cycle / kChunksPerCycle;
    fabric::FabricSim sim(plan, 1.0, 0.0);
    sim.setCancel(cancel);
    sim.setBudgetKeys("mosaic.background.jobs, job.compute_ms, job.gradient_GB");
    if (!idle) {
        fabric::LiveJobSpec live;
        live.count = bg.jobs;
        live.nodes = bg.job.nodes;
        live.bytesPerNode = bgWire;
        live.compute_s = bg.job.compute_s;
        live.jitter = bg.job.computeJitter;
        live.syncBursts = bg.job.syncBursts;
        live.burstGap_s = bg.job.burstGap_s;
        live.seed = bg.placement.seed;
        sim.addLiveJobs(live, false);
    }
    fabric::ForegroundSpec fg;
    fg.nodes = nodes;
    fg.bytesPerNode = tr.chunkBytes;
    fg.compute_s = 0;
    fg.overlap_s = 0;
    fg.start_s = idle ? 0.0 : kWarmupCycles * cycle;
    fg.iterations = idle ? 1 : kChunksPerCycle * kTraceCycles;
    sim.setForeground(fg);
    sim.run(std::numeric_limits<double>::infinity());
    double t = 0;
    for (double d : sim.exposedDpTimes()) {
        t += d;
        tr.ends.push_back(t);
    }
    return tr;
}

/// Slowdown T(D)/D at the idle durations `D` (step 3).
std::vector<double> slowdownOf(const RateTrace& tr, double nodeRate, const std::vector<double>& D) {
    std::vector<double> out;
    const double P = tr.period();
    for (double d : D) {
        double sum = 0;
        for (int k = 0; k < kStartTimes; ++k)
            sum += tr.transferTime(d * nodeRate, P * (k + 0.5) / kStartTimes);
        out.push_back(std::max(1.0, sum / kStartTimes / d));
    }
    return out;
}

/// Linear in log D between the sampled durations; the end values beyond them.
double interpolate(const CoRunSlowdown& s, double d) {
    const auto& x = s.idleSeconds;
    if (d <= x.front()) return s.slowdown.front();
    if (d >= x.back()) return s.slowdown.back();
    const size_t i = size_t(std::upper_bound(x.begin(), x.end(), d) - x.begin());
    const double f = std::log(d / x[i - 1]) / std::log(x[i] / x[i - 1]);
    return s.slowdown[i - 1] + f * (s.slowdown[i] - s.slowdown[i - 1]);
}

std::vector<int> groupSizes(int nodes) {
    std::vector<int> v;
    for (int n = 2; n < nodes; n *= 2) v.push_back(n);
    if (nodes >= 2) v.push_back(nodes);
    return v;
}

}  // namespace

fabric::Topology BackgroundLoad::defaultTopology() {
    fabric::Topology t;
    fabric::topologyPreset("leaf-spine-4to1", t);
    return t;
}

bool operator==(const BackgroundLoad& a, const BackgroundLoad& b) {
    return a.jobs == b.jobs && a.job == b.job && a.topology == b.topology &&
           a.placement == b.placement;
}

int maxBackgroundJobs(const BackgroundLoad& b, int moeNodes) {
    if (b.placement.background == fabric::PlacementPolicy::Explicit)
        return static_cast<int>(
            std::min<size_t>(b.placement.backgroundNodes.size(), kMaxBackgroundJobs));
    const long long free = static_cast<long long>(b.topology.nodes) - moeNodes;
    if (free <= 0 || b.job.nodes <= 0) return 0;
    return static_cast<int>(std::min<long long>(free / b.job.nodes, kMaxBackgroundJobs));
}

fabric::FabricKeys backgroundFabricKeys() {
    return {"mosaic.background.topology", "mosaic.background.placement"};
}

namespace {

BackgroundField objectRow(const char* key, const char* description, const char* source,
                          void (*read)(JsonReader&, const BackgroundField&, BackgroundLoad&),
                          void (*write)(const BackgroundField&, const BackgroundLoad&,
                                        nlohmann::ordered_json&)) {
    return {"", key,         "",     "",      1,       false, Range{}, {},
            {}, description, source, nullptr, nullptr, read,  write};
}

}  // namespace

const std::vector<BackgroundField>& backgroundFields() {
    static const std::vector<BackgroundField> t = {
        [] {
            BackgroundField f{"",
                              "jobs",
                              "jobs",
                              "",
                              1,
                              true,
                              Range::closed(0, kMaxBackgroundJobs),
                              {},
                              {},
                              "co-running data-parallel jobs on the MoE job's fabric",
                              "docs/MODEL-NETWORK.md",
                              [](const BackgroundLoad& b) { return static_cast<double>(b.jobs); },
                              [](BackgroundLoad& b, double v) { b.jobs = static_cast<int>(v); }};
            f.onlyWhenPresent = true;
            return f;
        }(),
        objectField<BackgroundLoad>("", "job",
                                    "each co-running job (the keys of ml_for_ml.background_job)",
                                    "2608.06046 Sec. 3.2", &BackgroundLoad::job,
                                    fabric::readBackgroundJob, fabric::writeBackgroundJob),
        objectRow(
            "topology", "the leaf_spine fabric the MoE job and the co-running jobs share",
            "docs/MODEL-NETWORK.md",
            [](JsonReader& r, const BackgroundField& f, BackgroundLoad& b) {
                if (!r.has(f.key)) return;
                fabric::readTopology(r.object(f.key), b.topology);
                if (b.topology.kind != fabric::FabricKind::LeafSpine)
                    r.diagnostics().error(
                        r.childPath(f.key),
                        "must be a leaf_spine fabric (the MoE job's groups cross leaves "
                        "and uplinks); \"" +
                            b.topology.preset + "\" is the single-capacity fabric of ML-for-ML");
            },
            [](const BackgroundField& f, const BackgroundLoad& b, nlohmann::ordered_json& j) {
                j[f.key] = fabric::writeTopology(b.topology);
            }),
        objectField<BackgroundLoad>("", "placement",
                                    "where the MoE job (foreground) and the co-running jobs sit",
                                    "docs/MODEL-NETWORK.md", &BackgroundLoad::placement,
                                    fabric::readPlacement, fabric::writePlacement),
    };
    return t;
}

void readBackground(JsonReader r, BackgroundLoad& b) {
    if (!r.isObject()) return;
    readFields(r, backgroundFields(), b);
    r.finish();
}

nlohmann::ordered_json writeBackground(const BackgroundLoad& b) {
    return writeFields(backgroundFields(), b);
}

long long coRunRouteLinks(int nodes, const BackgroundLoad& bg) {
    const fabric::Topology& t = bg.topology;
    const long long leaves = (t.nodes + t.nodesPerLeaf - 1) / std::max(1, t.nodesPerLeaf);
    const long long spanned = std::min<long long>(std::max(0, nodes), leaves);
    return 2 * spanned * (t.ecmp == fabric::Ecmp::Hash ? t.spines : 1);
}

void checkCoRunSize(int nodes, const BackgroundLoad& bg) {
    const long long links = coRunRouteLinks(nodes, bg);
    if (links <= kMaxCoRunRouteLinks) return;
    const bool hash = bg.topology.ecmp == fabric::Ecmp::Hash;
    throw fabric::FabricError(
        "mosaic.nodes",
        "the MoE job's " + std::to_string(nodes) + " nodes may cross " + std::to_string(links) +
            " leaf links of the co-running jobs' fabric (2 x leaves spanned" +
            (hash ? " x " + std::to_string(bg.topology.spines) + " spines, hashed ECMP" : "") +
            "), above the limit of " + std::to_string(kMaxCoRunRouteLinks) +
            " the co-run model computes within its time bound; use fewer nodes" +
            (hash ? ", fewer spines or ecmp \"equal\"" : "") + " (mosaic.background.topology)");
}

CoRunModel coRunModel(const Hardware& hw, int nodes, const BackgroundLoad& bg,
                      const tandem::CancelFlag* cancel) {
    checkCoRunSize(nodes, bg);
    CoRunModel m;
    const int gpn = std::max(1, hw.gpusPerNode);
    const double nodeRate = gpn * hw.nicBytesPerS;
    if (nodes < 2 || !(nodeRate > 0)) return m;
    // Idle durations: 1 us to 1000 s, 4 per decade.
    std::vector<double> D;
    for (int k = 0; k <= 36; ++k) D.push_back(1e-6 * std::pow(10.0, k / 4.0));
    std::set<int> shared;
    for (fabric::Collective traffic : {fabric::Collective::AllReduce, fabric::Collective::AllToAll})
        for (int n : groupSizes(nodes)) {
            CoRunSlowdown s;
            s.groupNodes = n;
            s.traffic = traffic;
            s.idleSeconds = D;
            s.slowdown =
                slowdownOf(traceOf(hw, nodes, bg, n, traffic, cancel, shared), nodeRate, D);
            for (double v : s.slowdown) m.largestSlowdown = std::max(m.largestSlowdown, v);
            m.slowdowns.push_back(std::move(s));
        }
    m.sharedLinks = int(shared.size());
    if (m.largestSlowdown <= 1 + kNoSlowdown) return m;

    auto set = std::make_shared<MeasuredCollectives>();
    if (hw.measured)  // imported curves inside one node stay; the co-run ones cover the rest
        for (const MeasuredCurve& c : hw.measured->curves())
            if (c.curve.ranks <= gpn) set->add(io::NcclImport{{c.curve}}, c.source);
    io::NcclImport imp;
    for (const CoRunSlowdown& s : m.slowdowns) {
        const int ranks = s.groupNodes * gpn;
        for (Collective c : {Collective::AllReduce, Collective::ReduceScatter,
                             Collective::AllGather, Collective::AllToAll}) {
            if ((c == Collective::AllToAll) != (s.traffic == fabric::Collective::AllToAll))
                continue;
            io::NcclCurve curve;
            curve.collective = widen(ncclCollectives(), c);
            curve.collectiveSource = kSource;
            curve.ranks = ranks;
            curve.ranksSource = kSource;
            for (int k = 0; k < kCurveSizes; ++k) {
                io::NcclPoint p;
                p.bytes = kMinCurveBytes * std::pow(2.0, k);
                const double t0 = collectiveTime(hw, c, p.bytes, ranks, 1);
                const double wire = std::max(
                    0.0, t0 - analyticalCollectiveCost(hw, c, p.bytes, ranks, 1).latency_s);
                const double t = t0 + (wire > 0 ? wire * (interpolate(s, wire) - 1) : 0.0);
                p.timeOutOfPlace_s = t;
                p.busbwOutOfPlace_Bps = p.bytes * busFactor(c, ranks) / t;
                p.busbw_Bps = p.busbwOutOfPlace_Bps;
                curve.points.push_back(p);
            }
            imp.curves.push_back(std::move(curve));
        }
    }
    set->add(imp, kSource);
    m.curves = std::move(set);
    return m;
}

nlohmann::ordered_json coRunReport(const CoRunModel& m, const BackgroundLoad& bg) {
    nlohmann::ordered_json j;
    j["jobs"] = bg.jobs;
    j["largest_slowdown"] = m.largestSlowdown;
    j["curves_attached"] = m.curves != nullptr;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const CoRunSlowdown& s : m.slowdowns) {
        nlohmann::ordered_json o;
        o["group_nodes"] = s.groupNodes;
        o["traffic"] = fabric::name(s.traffic);
        std::vector<double> at, v;
        for (double d : {1e-3, 1e-2, 1e-1, 1.0, 10.0}) {
            at.push_back(d);
            v.push_back(s.idleSeconds.empty() ? 1.0 : interpolate(s, d));
        }
        o["idle_s"] = at;
        o["slowdown"] = v;
        list.push_back(o);
    }
    j["slowdowns"] = list;
    return j;
}

std::string coRunSentence(const CoRunModel& m, const BackgroundLoad& bg) {
    if (bg.jobs <= 0) return {};
    const fabric::PlacementPolicy fg = bg.placement.foreground, other = bg.placement.background;
    const std::string placement = fg == other
                                      ? std::string(fabric::name(fg)) + " placement"
                                      : std::string(fabric::name(fg)) + " placement of this job, " +
                                            fabric::name(other) + " of theirs";
    const std::string jobs =
        std::to_string(bg.jobs) + " co-running job" + (bg.jobs == 1 ? " shares " : "s share ");
    const bool slowed = m.largestSlowdown > 1 + kNoSlowdown;
    const std::string by = formatFixed(m.largestSlowdown, 2) + "x";
    if (m.sharedLinks == 0)
        return jobs + "no link with this job under " + placement +
               (slowed ? ": no slowdown from them (its own collective groups, sharing uplinks, "
                         "slow it by up to " +
                             by + ")"
                       : ": no slowdown");
    const std::string links = std::to_string(m.sharedLinks) +
                              (m.sharedLinks == 1 ? " link" : " links") + " with this job under " +
                              placement;
    return jobs + links +
           (slowed ? ": its collectives slow down by up to " + by
                   : " but slow none of its collectives");
}

namespace {
/// The co-run models' results kept by every input (hardwareUnderBackground, coRunNote).
struct CoRunCached {
    std::shared_ptr<const MeasuredCollectives> curves;
    std::string sentence;
};
CoRunCached cachedCoRun(const Hardware& hw, int nodes, const BackgroundLoad& bg,
                        const tandem::CancelFlag* cancel) {
    struct Entry {
        std::string key;
        std::shared_ptr<const MeasuredCollectives> base;  ///< keeps hw.measured's address unique
        CoRunCached value;
    };
    static std::mutex mutex;
    static std::vector<Entry> cache;  // most recent last
    constexpr size_t kCacheEntries = 8;
    const std::string key = writeHardware(hw).dump() + "|" + writeBackground(bg).dump() + "|" +
                            std::to_string(nodes) + "|" +
                            std::to_string(reinterpret_cast<std::uintptr_t>(hw.measured.get()));
    {
        std::lock_guard<std::mutex> lock(mutex);
        for (auto it = cache.begin(); it != cache.end(); ++it)
            if (it->key == key) {
                const CoRunCached v = it->value;
                std::rotate(it, it + 1, cache.end());
                return v;
            }
    }
    const CoRunModel m = coRunModel(hw, nodes, bg, cancel);
    const CoRunCached v{m.curves, coRunSentence(m, bg)};
    std::lock_guard<std::mutex> lock(mutex);
    cache.push_back({key, hw.measured, v});
    if (cache.size() > kCacheEntries) cache.erase(cache.begin());
    return v;
}
}  // namespace

std::string coRunNote(const Hardware& hw, int nodes, const BackgroundLoad& bg,
                      const tandem::CancelFlag* cancel) {
    if (bg.jobs <= 0) return {};
    return cachedCoRun(hw, nodes, bg, cancel).sentence;
}

Hardware hardwareUnderBackground(const Hardware& hw, int nodes, const BackgroundLoad& bg,
                                 const tandem::CancelFlag* cancel) {
    Hardware out = hw;
    if (const CoRunCached v = cachedCoRun(hw, nodes, bg, cancel); v.curves) out.measured = v.curves;
    return out;
}

}  // namespace tandem::mosaic
