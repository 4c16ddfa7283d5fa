#pragma once
// RFC 4180 field quoting, shared by every CSV writer (ML-for-ML reports, sweep tables).
#include <string>

namespace tandem {

/// One CSV field as RFC 4180 (section 2, rules 5-7) writes it: returned unchanged unless it
/// contains a comma, a double quote, CR or LF; then enclosed in double quotes with every double
/// quote doubled. Any bytes (including NUL and non-UTF-8) pass through; never throws.
/// Example: `a,b` -> `"a,b"`, `say "hi"` -> `"say ""hi"""`, `` -> ``.
std::string csvQuote(const std::string& field);

}  // namespace tandem
