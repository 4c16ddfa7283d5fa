#pragma once
// Notes tandem-cli adds to a valid scenario and to its results: inputs that are accepted but
// make every run end without an answer (zero bandwidth), and why a policy did not reach a
// target within the horizon [issue 3, point 4; issue 7].
#include <string>
#include <utility>
#include <vector>

#include "mlforml/params.h"
#include "mlforml/simulate.h"
#include "scenario/scenario.h"

namespace cli {

/// (JSON path, message) for each accepted-but-suspect value of `s`: today a zero
/// `ml_for_ml.fabric_GBps` or `ml_for_ml.nic_GBps` ("zero bandwidth: no gradient
/// synchronisation can finish; every policy will report not reached"). Empty when none.
std::vector<std::pair<std::string, std::string>> scenarioWarnings(const tandem::Scenario& s);

/// Why `run` has a NaN first crossing: "not reached within the horizon of X h: <cause>", the
/// cause being zero bandwidth, no finished optimizer update (with why: the first update's
/// gradient sync never finishes under the open-loop backlog, or it would end after the window,
/// naming the combination from `comboLabels` = Result::comboLabels), or the loss still above
/// the target after N updates. Empty when every target of `run` was reached. Horizon from
/// Params::horizonS (s), printed in hours.
std::string notReachedReason(const tandem::mlforml::Params& p, const tandem::mlforml::PolicyRun& run,
                             const std::vector<std::string>& comboLabels);

}  // namespace cli
