#pragma once
// Serialisation of an ML-for-ML Result for files and the CLI: one JSON document with every
// output, and two CSV tables (first-crossing times with the ratio to Joint; trajectories).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mlforml/params.h"
#include "mlforml/simulate.h"

namespace tandem::mlforml {

/// Every field of `r` (NaN written as null). Keys carry units (`_s`, `_GB_per_50ms`);
/// `events_simulated` is Result::eventsSimulated (an integer count).
nlohmann::ordered_json resultToJson(const Result& r);

/// CSV with header background_jobs,policy,target_factor_x_Lmin,target_loss_nats,
/// first_crossing_s,ratio_to_joint (the target as a multiple of L_min and in nats); one row per
/// point x policy x target; empty cells for "not reached" and for ratios without a Joint run.
std::string firstCrossingCsv(const Result& r);

/// CSV with header background_jobs,policy,time_s,updates,loss; one row per trajectory point.
std::string trajectoriesCsv(const Result& r);

/// CSV with header background_jobs,link,capacity_GBps,observed_s,mean_utilisation,
/// peak_utilisation,seconds_at_100pct,jobs (`links.csv`, docs/MODEL-NETWORK.md section 3): one
/// row per background condition x link of the fabric that some flow crossed (Result::links;
/// a link no job crossed is left out), the use summed over every
/// foreground replay of the condition, each from the foreground's start on: capacity in GB/s
/// (1e9 bytes/s, each direction), the simulated seconds covered, the mean and peak of carried
/// bytes/s over capacity, the seconds the link was full (fair load within a relative 1e-9 of
/// its capacity), and the jobs that moved bytes across it ("foreground;bg0;bg3").
std::string linksCsv(const Result& r);

/// The links of one point of a scaling sweep (mlforml/scaling.h): its oversubscription ratio
/// and foreground node count, and the link use of each background condition.
struct ScalingLinks {
    double oversubscription = 1;
    int foregroundNodes = 0;
    std::vector<LinkTable> tables;
};

/// CSV with header oversubscription,foreground_nodes,background_jobs,link,capacity_GBps,
/// observed_s,mean_utilisation,peak_utilisation,seconds_at_100pct,jobs (`scaling --out`'s
/// `<FILE>-links.csv`, docs/MODEL-NETWORK.md section 5): the rows of linksCsv for every point,
/// in point order, each led by the point's ratio and node count; links no flow crossed left out.
std::string scalingLinksCsv(const std::vector<ScalingLinks>& points);

/// First-crossing time of `policy` divided by Joint's at target index `target` of point `pt`;
/// NaN if either is missing or not reached.
double ratioToJoint(const PointResult& pt, const std::string& policy, size_t target);

/// Why `run` has a NaN first crossing: "not reached within the horizon of X h: <cause>", the
/// cause being zero bandwidth, no finished optimizer update (with why: the first update's
/// gradient sync never finishes under the open-loop backlog, or it would end after the window,
/// naming the combination from `comboLabels` = Result::comboLabels), or the loss still above
/// the target after N updates. Empty when every target of `run` was reached. Horizon from
/// Params::horizon_s (s), printed in hours.
std::string notReachedReason(const Params& p, const PolicyRun& run,
                             const std::vector<std::string>& comboLabels);

}  // namespace tandem::mlforml
