#pragma once
// The text `tandem-cli plan` prints, made from the plan's report (mosaic/plan_report.h).
#include "mosaic/plan_report.h"

namespace cli {

/// Prints `r` as `tandem-cli plan` does without --json: the model and cluster line, the
/// network note, the Hugging Face mapping and its assumptions, the measured curves, the
/// layouts table (or why nothing fits and the nearest working cluster), the days to the token
/// target (--tokens), the rounded-batch note and the first layout's collectives under measured
/// curves. Standard output via print().
void printPlanReport(const tandem::mosaic::PlanReport& r);

}  // namespace cli
