#pragma once
// Notes tandem-cli adds to a valid scenario: inputs that are accepted but make every run end
// without an answer (zero bandwidth). Why a policy did not reach a target is
// mlforml::notReachedReason (mlforml/report.h).
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.h"

namespace cli {

/// (JSON path, message) for each accepted-but-suspect value of `s`: today a zero
/// `ml_for_ml.fabric_GBps` or `ml_for_ml.nic_GBps` ("zero bandwidth: no gradient
/// synchronisation can finish; every policy will report not reached"), and a
/// `ml_for_ml.placement.seed` other than the default on a leaf_spine fabric whose placements
/// are not "random" (the only reader of the seed; ECMP hashing does not use it). Empty when
/// none.
std::vector<std::pair<std::string, std::string>> scenarioWarnings(const tandem::Scenario& s);

}  // namespace cli
