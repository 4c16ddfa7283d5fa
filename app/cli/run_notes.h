#pragma once
// Notes tandem-cli adds to a valid scenario: inputs that are accepted but suspect (a listed file
// twice, an unused seed). Why a policy did not reach a target is
// mlforml::notReachedReason (mlforml/report.h).
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.h"

namespace cli {

/// (JSON path, message) for each accepted-but-suspect value of `s`: a nccl-tests file listed
/// twice in `mosaic.nccl_tests_files`, and a `ml_for_ml.placement.seed` other than the default on a
/// leaf_spine fabric whose placements are not "random" (the only reader of the seed; ECMP hashing
/// does not use it). Empty when none.
std::vector<std::pair<std::string, std::string>> scenarioWarnings(const tandem::Scenario& s);

}  // namespace cli
