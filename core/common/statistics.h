#pragma once
// Order statistics shared by the engine's summaries (reality checks, reproduction tables,
// calibration, training-log steady states).
#include <vector>

namespace tandem {

/// Median of `v` (the mean of the two middle values for an even count); NaN when `v` is empty.
/// Values are taken as given (a NaN among them sorts unpredictably: filter first).
double median(std::vector<double> v);

}  // namespace tandem
