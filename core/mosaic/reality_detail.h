#pragma once
// What the reality translation units share (mosaic/ only): reality.cpp costs the measured runs,
// reality_fit.cpp fits the stack to them and validates the fit by leaving groups out.
#include <cstddef>
#include <vector>

#include "mosaic/reality.h"

namespace tandem::mosaic::detail {

/// tandem::median, 0 for no values (an empty filter's summary reads 0, not NaN).
double median(const std::vector<double>& v);

/// Case `index` of `cases` (expressible) costed under its cluster's stack.
RealityRow costCase(const RealityCase& c, size_t index);

}  // namespace tandem::mosaic::detail
