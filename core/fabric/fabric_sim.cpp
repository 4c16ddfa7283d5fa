#include "fabric/fabric_sim.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/json_reader.h"
#include "common/number_format.h"

namespace tandem::fabric {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kReplayTag = 1 << 20;
constexpr int kForegroundTag = -1;
}  // namespace

std::uint64_t SplitMix64::next() {
    std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double SplitMix64::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

void mergeLinkUsage(std::vector<LinkUsage>& total, const std::vector<LinkUsage>& add) {
    if (total.empty()) {
        total = add;
        return;
    }
    if (total.size() != add.size())
        throw std::logic_error("mergeLinkUsage: records of different fabrics (" +
                               std::to_string(total.size()) + " and " + std::to_string(add.size()) +
                               " links)");
    for (size_t i = 0; i < total.size(); ++i) {
        LinkUsage& t = total[i];
        const LinkUsage& a = add[i];
        if (t.link != a.link)
            throw std::logic_error("mergeLinkUsage: link " + std::to_string(i) + " is \"" + t.link +
                                   "\" in one record, \"" + a.link + "\" in the other");
        t.observed_s += a.observed_s;
        t.utilisationSeconds += a.utilisationSeconds;
        t.saturated_s += a.saturated_s;
        t.peakUtilisation = std::max(t.peakUtilisation, a.peakUtilisation);
        std::vector<int> jobs;
        std::set_union(t.jobs.begin(), t.jobs.end(), a.jobs.begin(), a.jobs.end(),
                       std::back_inserter(jobs));
        t.jobs = std::move(jobs);
    }
}

FabricSim::FabricSim(double fabricBytesPerS, double nicBytesPerS, double ccEfficiency,
                     double ccDropPerFlow)
    : m_net(fabricBytesPerS, nicBytesPerS, ccEfficiency, ccDropPerFlow) {}

FabricSim::FabricSim(const FabricPlan& plan, double ccEfficiency, double ccDropPerFlow)
    : m_net(plan.linkCapacity, ccEfficiency, ccDropPerFlow), m_plan(&plan) {}

int FabricSim::addBackgroundGroup(int j, int nodes) {
    if (!m_plan) return m_net.addGroup(nodes);
    if (j + 1 >= static_cast<int>(m_plan->jobRoutes.size()))
        throw std::logic_error("FabricSim: background job " + std::to_string(j) +
                               " has no route on the fabric plan");
    return m_net.addGroup(nodes, m_plan->jobRoutes[j]);
}

void FabricSim::addLiveJobs(const LiveJobSpec& spec, bool record) {
    m_live = spec;
    m_record = record;
    m_rng = SplitMix64(spec.seed * 0x2545F4914F6CDD1Dull + 0x1234567ull);
    m_liveGroup0 = 0;
    for (int j = 0; j < spec.count; ++j) {
        const int g = addBackgroundGroup(j, spec.nodes);
        if (j == 0) m_liveGroup0 = g;
    }
    // Random phase: each job starts somewhere inside one nominal cycle (compute + transfer alone).
    m_liveComputeEnd.assign(spec.count, kInf);
    m_liveComputeStart.assign(spec.count, 0.0);
    m_live.syncBursts = std::max(1, spec.syncBursts);
    m_live.burstGap_s = std::max(0.0, spec.burstGap_s);
    m_liveBurstsLeft.assign(spec.count, 0);
    for (int j = 0; j < spec.count; ++j)
        m_liveComputeEnd[j] = m_rng.uniform() * spec.compute_s * 4.0;
    if (m_record) {
        m_transfers.reserve(4096);
        m_rateT.reserve(8192);
        m_rateV.reserve(8192);
        logRate();
    }
}

void FabricSim::replayFrom(FabricSim* source, int jobs, int nodes) {
    m_source = source;
    m_list = source ? &source->transfers() : nullptr;
    m_replayJobs = jobs;
    for (int j = 0; j < jobs; ++j) {
        const int g = addBackgroundGroup(j, nodes);
        if (j == 0) m_replayGroup0 = g;
    }
    m_nextTransfer = 0;
}

void FabricSim::replayList(const std::vector<Transfer>* list, int jobs, int nodes) {
    replayFrom(nullptr, jobs, nodes);
    m_list = list;
}

void FabricSim::setForeground(const ForegroundSpec& fg) {
    m_fg = fg;
    m_fg.overlap_s = std::min(std::max(0.0, fg.overlap_s), fg.compute_s);
    m_hasFg = true;
    m_fgDone = fg.iterations <= 0;
    m_fgGroup =
        m_plan ? m_net.addGroup(fg.nodes, m_plan->jobRoutes.back()) : m_net.addGroup(fg.nodes);
    m_fgIter = 0;
    m_fgPhase = ForegroundPhase::Computing;
    m_fgComputeStart = fg.start_s;
    m_exposed.reserve(fg.iterations);
    m_iterStart.reserve(fg.iterations);
    m_iterStart.push_back(fg.start_s);
}

void FabricSim::startLiveTransfer(int j) {
    m_liveComputeEnd[j] = kInf;
    if (m_live.bytesPerNode <= 0) {
        startLiveCompute(j);
        return;
    }
    // A new sync starts with all its bursts pending; a gap end starts the next burst.
    if (m_liveBurstsLeft[j] <= 0) m_liveBurstsLeft[j] = m_live.syncBursts;
    --m_liveBurstsLeft[j];
    const double bytes = m_live.bytesPerNode / m_live.syncBursts;
    m_net.startFlow(m_liveGroup0 + j, bytes, j);
    ++m_events;
    if (m_record) m_transfers.push_back({m_now, j, bytes});
}

void FabricSim::finishLiveBurst(int j) {
    if (m_liveBurstsLeft[j] > 0)
        m_liveComputeEnd[j] = m_now + m_live.burstGap_s;
    else
        startLiveCompute(j);
}

void FabricSim::startLiveCompute(int j) {
    const double u = 2.0 * m_rng.uniform() - 1.0;
    m_liveComputeStart[j] = m_now;
    m_liveComputeEnd[j] = m_now + m_live.compute_s * std::max(0.0, 1.0 + m_live.jitter * u);
}

void FabricSim::logRate() {
    const double r = m_net.fabricRate(m_liveGroup0, m_liveGroup0 + m_live.count);
    if (!m_rateV.empty() && m_rateT.back() == m_now) {
        m_rateV.back() = r;
        return;
    }
    if (!m_rateV.empty() && m_rateV.back() == r) return;
    m_rateT.push_back(m_now);
    m_rateV.push_back(r);
}

void FabricSim::trackLinkUsage(double from_s) {
    m_trackUsage = true;
    m_usageFrom = from_s;
}

int FabricSim::jobOfGroup(int g) const {
    if (m_hasFg && g == m_fgGroup) return kForegroundJob;
    if (m_live.count > 0 && g >= m_liveGroup0 && g < m_liveGroup0 + m_live.count)
        return g - m_liveGroup0;
    if (m_replayJobs > 0 && g >= m_replayGroup0 && g < m_replayGroup0 + m_replayJobs)
        return g - m_replayGroup0;
    return -2;
}

std::vector<LinkUsage> FabricSim::linkUsage(bool routedOnly) const {
    std::vector<LinkUsage> out;
    if (!m_trackUsage) return out;
    const size_t L = m_net.usageLinks();
    const auto& sent = m_net.usageGroupSent();
    std::vector<int> links;
    // The links listed, in link order, and where each sits in `out` (-1: not listed).
    std::vector<int> at(L, -1);
    std::vector<size_t> keep;
    if (routedOnly && m_plan) {
        // Every route of the plan, whether its job ran in this record or not.
        for (const Route& r : m_plan->jobRoutes)
            for (const LinkUse& u : r)
                if (u.link >= 0 && static_cast<size_t>(u.link) < L) at[u.link] = 0;
        for (size_t l = 0; l < L; ++l)
            if (at[l] == 0) keep.push_back(l);
    } else {
        keep.resize(L);
        for (size_t l = 0; l < L; ++l) keep[l] = l;
    }
    out.resize(keep.size());
    std::vector<double> area, peak, sat;
    m_net.usageTotals(area, peak, sat);
    for (size_t i = 0; i < keep.size(); ++i) {
        const size_t l = keep[i];
        at[l] = static_cast<int>(i);
        LinkUsage& u = out[i];
        if (m_plan)
            u.link =
                l < m_plan->linkNames.size() ? m_plan->linkNames[l] : "link" + std::to_string(l);
        else
            u.link = l == 0 ? std::string("fabric")
                            : jobName(jobOfGroup(static_cast<int>(l) - 1)) + "-nic";
        u.capacityBytesPerS = m_net.usageCapacity(l);
        u.observed_s = m_net.usageObserved_s();
        u.utilisationSeconds = area[l];
        u.peakUtilisation = peak[l];
        u.saturated_s = sat[l];
    }
    // Jobs per link: every group that moved bytes, over the links of its path.
    for (size_t g = 0; g < sent.size(); ++g) {
        if (!sent[g]) continue;
        const int job = jobOfGroup(static_cast<int>(g));
        links.clear();
        m_net.usageLinksOfGroup(static_cast<int>(g), links);
        for (int l : links)
            if (l >= 0 && static_cast<size_t>(l) < L && at[l] >= 0) out[at[l]].jobs.push_back(job);
    }
    for (LinkUsage& u : out) {
        std::sort(u.jobs.begin(), u.jobs.end());
        u.jobs.erase(std::unique(u.jobs.begin(), u.jobs.end()), u.jobs.end());
    }
    return out;
}

void FabricSim::run(double until) {
    while (m_now < until) {
        if (m_hasFg && m_fgDone) break;
        // Each step scans every live job: the work budget counts both.
        m_workBudget -= 1 + m_live.count;
        if (--m_eventBudget < 0 || m_workBudget < 0) {
            // Stopping here would leave a truncated recording (replays waiting on it forever)
            // or a replay without its last syncs: wrong numbers, so the run fails instead.
            throw std::runtime_error(
                "the network simulation needs more than " + std::to_string(kEventBudget) +
                " steps or " + std::to_string(kWorkBudget) +
                " job updates (stopped at t = " + formatNumber(m_now) +
                " s): the background jobs cycle too fast for the simulated time (" + m_budgetKeys +
                ") or the replays are too long");
        }
        if ((m_eventBudget & 4095) == 0) throwIfCancelled(m_cancel);
        double tNext = until;
        const double dtFlow = m_net.timeToNextCompletion();
        if (std::isfinite(dtFlow)) tNext = std::min(tNext, m_now + dtFlow);
        for (double c : m_liveComputeEnd) tNext = std::min(tNext, c);
        if (m_list) {
            const auto& src = *m_list;
            while (m_source && m_nextTransfer >= src.size() && m_source->now() < tNext)
                m_source->run(std::min(tNext, m_source->now() + 5.0));
            if (m_nextTransfer < src.size()) tNext = std::min(tNext, src[m_nextTransfer].start_s);
        }
        const double fgComputeEnd = m_fgComputeStart + m_fg.compute_s;
        if (m_hasFg && !m_fgDone) {
            if (m_fgPhase == ForegroundPhase::Computing)
                tNext = std::min(tNext, fgComputeEnd - m_fg.overlap_s);
            if (m_fgPhase == ForegroundPhase::SyncDone) tNext = std::min(tNext, fgComputeEnd);
            if (m_fgPhase == ForegroundPhase::SyncTail) tNext = std::min(tNext, m_fgTailEnd);
        }
        tNext = std::max(tNext, m_now);
        if (m_trackUsage && tNext > m_usageFrom) {
            // The network records loads from the window's start on (none before: no cost).
            if (!m_net.tracksLinkUsage()) m_net.trackLinkUsage();
            m_net.accumulateUsage(tNext - std::max(m_now, m_usageFrom));
        }
        m_net.advance(tNext - m_now);
        m_now = tNext;

        bool changed = false;
        bool fgIterationEnds = false;
        m_done.clear();
        // One ulp of the clock: a flow that would finish closer to now than that finishes now.
        m_net.collectFinished(m_done, std::nextafter(m_now, kInf) - m_now);
        m_events += m_done.size();
        for (int f : m_done) {
            changed = true;
            const int tag = m_net.flowTag(f);
            if (tag == kForegroundTag) {
                m_fgFlow = -1;
                if (m_fg.syncTime) {
                    // The collective's latency and NVLink stage run on after its bytes.
                    m_fgTailEnd =
                        std::max(m_now, m_fgSyncStart + m_fg.syncTime(m_now - m_fgSyncStart));
                    if (m_fgTailEnd > m_now) {
                        m_fgPhase = ForegroundPhase::SyncTail;
                        continue;
                    }
                }
                if (m_now >= fgComputeEnd)
                    fgIterationEnds = true;
                else
                    m_fgPhase = ForegroundPhase::SyncDone;
            } else if (tag < kReplayTag) {
                finishLiveBurst(tag);
            }
        }
        for (int j = 0; j < m_live.count; ++j)
            if (m_liveComputeEnd[j] <= m_now) {
                startLiveTransfer(j);
                changed = true;
            }
        if (m_list) {
            const auto& src = *m_list;
            while (m_nextTransfer < src.size() && src[m_nextTransfer].start_s <= m_now) {
                const Transfer& t = src[m_nextTransfer++];
                if (t.job < m_replayJobs) {
                    m_net.startFlow(m_replayGroup0 + t.job, t.bytesPerNode, kReplayTag + t.job);
                    ++m_events;
                    changed = true;
                }
            }
        }
        if (m_hasFg && !m_fgDone) {
            if (m_fgPhase == ForegroundPhase::Computing && fgComputeEnd - m_fg.overlap_s <= m_now) {
                m_fgSyncStart = m_now;
                if (m_fg.bytesPerNode > 0) {
                    m_fgFlow = m_net.startFlow(m_fgGroup, m_fg.bytesPerNode, kForegroundTag);
                    ++m_events;
                    m_fgPhase = ForegroundPhase::Syncing;
                    changed = true;
                } else if (m_fg.syncTime && m_fg.syncTime(0.0) > 0) {
                    // Nothing crosses the network: latency and NVLink stage alone.
                    m_fgTailEnd = m_now + m_fg.syncTime(0.0);
                    m_fgPhase = ForegroundPhase::SyncTail;
                } else {
                    m_fgPhase = ForegroundPhase::SyncDone;
                }
            }
            if (m_fgPhase == ForegroundPhase::SyncTail && m_fgTailEnd <= m_now)
                m_fgPhase = ForegroundPhase::SyncDone;
            if (m_fgPhase == ForegroundPhase::SyncDone && fgComputeEnd <= m_now)
                fgIterationEnds = true;
            if (fgIterationEnds) {
                m_exposed.push_back(std::max(0.0, m_now - fgComputeEnd));
                ++m_fgIter;
                if (m_fgIter >= m_fg.iterations) {
                    m_fgDone = true;
                } else {
                    m_fgComputeStart = m_now;
                    m_iterStart.push_back(m_now);
                    m_fgPhase = ForegroundPhase::Computing;
                }
            }
        }
        if (changed) {
            m_net.recomputeRates();
            if (m_record) logRate();
        }
    }
}

}  // namespace tandem::fabric
