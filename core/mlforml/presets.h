#pragma once
// The paper's two scenarios as ready-made inputs [2608.06046 Sec. 3.2, 3.3].
#include "mlforml/params.h"

namespace tandem::mlforml {

/// Scenario 1: N in {4, 8, 12, 16} co-running GPT-1B jobs, four start offsets (= Params{}).
Params scenario1Params();

/// Scenario 2: GPT-13B jobs arriving Poisson at 0.002 /s, at most five at once, each leaving
/// when its own run ends; every policy sees the same seeded schedule.
Params scenario2Params();

}  // namespace tandem::mlforml
