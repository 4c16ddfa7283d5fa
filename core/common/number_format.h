#pragma once
// How Tandem writes a number in text, CSV cells and messages: the shortest form that reads back
// as the same double.
#include <string>

namespace tandem {

/// Shortest "%.Ng" (N = 6..17) that round-trips through strtod; "nan", "inf", "-inf" for
/// non-finite values. Example: 0.1 -> "0.1", 1e300 -> "1e+300", 2.5 -> "2.5".
std::string formatNumber(double v);

/// A finite value as formatNumber writes it; NaN or infinity as an empty CSV cell.
std::string csvNumber(double v);

}  // namespace tandem
