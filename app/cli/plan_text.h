#pragma once
// The text `tandem-cli plan` prints, made from the plan's report (mosaic/plan_report.h).
#include "mosaic/plan_report.h"

namespace cli {

/// Prints `r` as `tandem-cli plan` does without --json: the model and cluster line, the
/// network note, the overlap note, the first layout's pipeline-split note, the Hugging Face
/// mapping and its assumptions, the measured curves, the
/// layouts table (or why nothing fits and the nearest working cluster), the days to the token
/// target (--tokens), the rounded-batch note and the first layout's collectives under measured
/// curves. Standard output via print().
void printPlanReport(const tandem::mosaic::PlanReport& r);

/// Why `r` has no first feasible layout to write as a launch script, as printPlanReport says it:
/// for the grid, the rules that cut its layouts (with the smallest memory need) and the nearest
/// cluster that works; for a given layout, its reason and the setting that makes it fit. Lines
/// with their newlines; "" when the first layout is feasible.
std::string whyNothingToEmit(const tandem::mosaic::PlanReport& r);

}  // namespace cli
