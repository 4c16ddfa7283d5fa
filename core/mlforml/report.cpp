#include "mlforml/report.h"

#include <cmath>
#include <locale>
#include <sstream>

#include "common/csv.h"
#include "common/json_reader.h"
#include "common/number_format.h"

namespace tandem::mlforml {

namespace {

nlohmann::ordered_json nums(const std::vector<double>& v) {
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (double x : v) a.push_back(jsonNumber(x));
    return a;
}

const PolicyRun* find(const PointResult& pt, const std::string& name) {
    for (const auto& r : pt.policies)
        if (r.policy == name) return &r;
    return nullptr;
}

}  // namespace

double ratioToJoint(const PointResult& pt, const std::string& policy, size_t target) {
    const PolicyRun* a = find(pt, policy);
    const PolicyRun* j = findRun(pt, Policy::Joint);
    if (!a || !j || target >= a->firstCrossing_s.size() || target >= j->firstCrossing_s.size())
        return std::nan("");
    const double x = a->firstCrossing_s[target], y = j->firstCrossing_s[target];
    if (!std::isfinite(x) || !std::isfinite(y) || y <= 0) return std::nan("");
    return x / y;
}

nlohmann::ordered_json resultToJson(const Result& r) {
    nlohmann::ordered_json j;
    j["target_factors"] = nums(r.targetFactors);
    j["target_losses"] = nums(r.targetLosses);
    j["combo_labels"] = r.comboLabels;
    j["events_simulated"] = r.eventsSimulated;
    nlohmann::ordered_json pts = nlohmann::ordered_json::array();
    for (const auto& pt : r.points) {
        nlohmann::ordered_json o;
        o["background_jobs"] = pt.backgroundJobs;
        o["schedule"] = pt.schedule;
        o["label"] = pt.label;
        o["bg_p95_GB_per_50ms"] = jsonNumber(pt.bgP95GBPer50ms);
        o["dp_share_bf16"] = jsonNumber(pt.dpShareBf16);
        o["dp_share_mxfp4"] = jsonNumber(pt.dpShareMxfp4);
        o["mean_exposed_dp_s"] = nums(pt.meanSyncBeyondOverlap_s);
        o["load_time_s"] = nums(pt.loadTime_s);
        o["load_bytes_per_s"] = nums(pt.loadBytesPerS);
        nlohmann::ordered_json pols = nlohmann::ordered_json::array();
        for (const auto& run : pt.policies) {
            nlohmann::ordered_json q;
            q["policy"] = run.policy;
            q["first_crossing_s"] = nums(run.firstCrossing_s);
            nlohmann::ordered_json ratios = nlohmann::ordered_json::array();
            for (size_t t = 0; t < run.firstCrossing_s.size(); ++t)
                ratios.push_back(jsonNumber(ratioToJoint(pt, run.policy, t)));
            q["ratio_to_joint"] = ratios;
            q["combo_share"] = nums(run.comboShare);
            nlohmann::ordered_json byBg = nlohmann::ordered_json::array();
            for (const auto& row : run.comboShareByBackground) byBg.push_back(nums(row));
            q["combo_share_by_background"] = byBg;
            q["updates_by_background"] = run.updatesByBackground;
            q["exposed_dp_share"] = jsonNumber(run.syncBeyondOverlapShare);
            q["total_updates"] = run.totalUpdates;
            q["end_time_s"] = jsonNumber(run.endTime_s);
            nlohmann::ordered_json tl = nlohmann::ordered_json::array();
            for (const auto& s : run.timeline)
                tl.push_back({jsonNumber(s.t0_s), jsonNumber(s.t1_s), s.combo});
            q["timeline"] = tl;
            q["time_s"] = nums(run.time_s);
            q["updates"] = nums(run.updates);
            q["loss"] = nums(run.loss);
            q["dp_share_time_s"] = nums(run.dpShareTime_s);
            q["dp_share"] = nums(run.dpShare);
            pols.push_back(std::move(q));
        }
        o["policies"] = std::move(pols);
        pts.push_back(std::move(o));
    }
    j["points"] = std::move(pts);
    return j;
}

std::string firstCrossingCsv(const Result& r) {
    std::ostringstream out;
    out.imbue(std::locale::classic());  // integers without digit grouping, whatever the locale
    out << "background_jobs,policy,target_factor_x_Lmin,target_loss_nats,first_crossing_s,ratio_to_"
           "joint\n";
    for (const auto& pt : r.points)
        for (const auto& run : pt.policies)
            for (size_t t = 0; t < run.firstCrossing_s.size(); ++t)
                out << pt.backgroundJobs << ',' << csvQuote(run.policy) << ','
                    << csvNumber(t < r.targetFactors.size() ? r.targetFactors[t] : std::nan(""))
                    << ','
                    << csvNumber(t < r.targetLosses.size() ? r.targetLosses[t] : std::nan(""))
                    << ',' << csvNumber(run.firstCrossing_s[t]) << ','
                    << csvNumber(ratioToJoint(pt, run.policy, t)) << '\n';
    return out.str();
}

std::string trajectoriesCsv(const Result& r) {
    std::ostringstream out;
    out.imbue(std::locale::classic());  // integers without digit grouping, whatever the locale
    out << "background_jobs,policy,time_s,updates,loss\n";
    for (const auto& pt : r.points)
        for (const auto& run : pt.policies)
            for (size_t i = 0; i < run.time_s.size(); ++i)
                out << pt.backgroundJobs << ',' << csvQuote(run.policy) << ','
                    << csvNumber(run.time_s[i]) << ',' << csvNumber(run.updates[i]) << ','
                    << csvNumber(run.loss[i]) << '\n';
    return out.str();
}

const char* const kLinkColumns =
    "link,capacity_GBps,observed_s,mean_utilisation,peak_utilisation,seconds_at_100pct,jobs";

void writeLinkRows(std::ostringstream& out, const std::string& prefix,
                   const std::vector<fabric::LinkUsage>& links) {
    for (const auto& u : links) {
        if (u.jobs.empty()) continue;  // no flow crossed it
        std::string jobs;
        for (int j : u.jobs) jobs += (jobs.empty() ? "" : ";") + fabric::jobName(j);
        out << prefix << csvQuote(u.link) << ',' << csvNumber(u.capacityBytesPerS / 1e9) << ','
            << csvNumber(u.observed_s) << ',' << csvNumber(u.meanUtilisation()) << ','
            << csvNumber(u.peakUtilisation) << ',' << csvNumber(u.saturated_s) << ','
            << csvQuote(jobs) << '\n';
    }
}

std::string linksCsv(const Result& r) {
    std::ostringstream out;
    out.imbue(std::locale::classic());  // integers without digit grouping, whatever the locale
    out << "background_jobs," << kLinkColumns << '\n';
    for (const auto& table : r.links)
        writeLinkRows(out, std::to_string(table.backgroundJobs) + ",", table.links);
    return out.str();
}

std::string scalingLinksCsv(const std::vector<ScalingLinks>& points) {
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out << "oversubscription,foreground_nodes,background_jobs," << kLinkColumns << '\n';
    for (const auto& pt : points)
        for (const auto& table : pt.tables)
            writeLinkRows(out,
                          csvNumber(pt.oversubscription) + "," +
                              std::to_string(pt.foregroundNodes) + "," +
                              std::to_string(table.backgroundJobs) + ",",
                          table.links);
    return out.str();
}

std::string notReachedReason(const Params& p, const PolicyRun& run,
                             const std::vector<std::string>& comboLabels) {
    bool missed = false;
    for (double t : run.firstCrossing_s) missed = missed || !std::isfinite(t);
    if (!missed) return std::string();
    const std::string head = "not reached within the horizon of " +
                             formatNumber(std::round(p.horizon_s / 36.0) / 100) + " h: ";
    const bool noFabric = p.topology.kind == fabric::FabricKind::Shared && p.fabricBytesPerS == 0;
    if (noFabric || p.nicBytesPerS == 0)
        return head + "zero bandwidth (" +
               (noFabric ? std::string("ml_for_ml.fabric_GBps")
                         : std::string("ml_for_ml.nic_GBps")) +
               " = 0): no gradient synchronisation can finish";
    if (run.totalUpdates == 0) {
        std::string why = head + "no optimizer update finished";
        if (run.stoppedCombo < 0) return why;
        const std::string combo = run.stoppedCombo < static_cast<int>(comboLabels.size())
                                      ? comboLabels[run.stoppedCombo]
                                      : std::string("its combination");
        if (!std::isfinite(run.nextUpdateEnd_s))
            return why + ": the gradient sync of the first update (" + combo +
                   ") never finishes, because the foreground's and the background's traffic exceed "
                   "what the network carries and the open-loop backlog grows without end (more "
                   "fabric_GBps or nic_GBps, fewer foreground_nodes or a lighter background)";
        return why + ": the first update (" + combo + ") would end after the " +
               formatNumber(std::round(p.horizon_s / 36.0) / 100) + " h window (at " +
               formatNumber(std::round(run.nextUpdateEnd_s / 36.0) / 100) + " h)";
    }
    return head + "the loss stayed above the target after " + std::to_string(run.totalUpdates) +
           " updates";
}

}  // namespace tandem::mlforml
