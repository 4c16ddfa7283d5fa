#pragma once
// One policy's training run against a network schedule [2608.06046 Sec. 2.4, 3.1; MODEL.md A5]:
// T_iter = g * T_c + T_dp(p, z); after each update the loss follows the progress model; at every
// decision point the policy applies the greedy per-interval rule with T_dp estimated from its
// own observed syncs (history window, telemetry delay), or the true future (Oracle).
#include <exception>  // before common/cancel.h, which uses std::exception
#include <string>
#include <vector>

#include "common/cancel.h"
#include "mlforml/knobs.h"
#include "mlforml/params.h"
#include "mlforml/progress.h"
#include "mlforml/schedule.h"
#include "mlforml/simulate.h"

namespace tandem::mlforml {

/// Runs `spec` until every target loss is crossed, the horizon p.horizon_s passes, or no sync
/// can finish (infinite exposed time and no later change of the background level: an unbounded
/// sample waits for the next level change and continues with that level's exposure). `combos` is
/// the action space (g-major, as actionSpace()). Adaptive policies choose among combos[0,
/// actionCount); fixed-combination policies may name any entry. `levelJobs[l]` is the number of
/// background jobs of schedule level l (for the per-level shares). Throws tandem::Cancelled when
/// `cancel` is set.
PolicyRun runPolicy(const PolicySpec& spec, const Params& p, const ProgressCurve& curve,
                    const std::vector<Combo>& combos, int actionCount, const NetworkSchedule& net,
                    const std::vector<double>& targetLosses, const std::vector<int>& levelJobs,
                    const tandem::CancelFlag* cancel);

}  // namespace tandem::mlforml
