#pragma once
// `tandem-cli reproduce ml-for-ml`: runs the paper's two scenarios and compares every number of
// MODEL.md table A6 with its acceptance band.
#include <exception>  // before common/cancel.h, which uses std::exception

#include "common/cancel.h"
#include "common/check.h"
#include "mlforml/simulate.h"

namespace tandem::mlforml {

/// Runs scenario 1 and scenario 2 (presets.h) and returns the checks, paper "2608.06046".
/// Shares are in percent, ratios are first-crossing time over Joint's. Throws tandem::Cancelled.
tandem::Report reproduceMlForMl(const tandem::CancelFlag* cancel = nullptr);

/// The scenario-1 checks of an already computed Result (points N = 4, 8, 12, 16; targets
/// including 1.01 and 1.02). Missing points give NaN values (failing checks).
void scenario1Checks(const Result& r, tandem::Report& out);
/// The scenario-2 checks of an already computed Result: every point is one arrival schedule
/// (poisson_schedules); ratios are mean first-crossing time over Joint's mean, shares are
/// pooled over the schedules' updates [2608.06046 Sec. 3.3].
void scenario2Checks(const Result& r, tandem::Report& out);

}  // namespace tandem::mlforml
