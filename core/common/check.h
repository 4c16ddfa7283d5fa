#pragma once
// One row of a `tandem-cli reproduce` report: a published number, Tandem's value, the band.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tandem {

/// How a check ended. NotReproducible marks a published number that contradicts the paper's
/// own stated model (the reason says where that is shown); it is counted apart from pass and
/// fail and never fails a report.
enum class CheckStatus { Pass, Fail, NotReproducible };

/// A reproduction check against a paper's published value (MODEL.md A6 / B6 bands).
/// `pass` is low <= tandem_value <= high (NaN never passes); `status` is Pass or Fail from it,
/// unless markNotReproducible() set NotReproducible.
struct Check {
    std::string id;        ///< stable id, e.g. "s1.dp_share.bf16.N4"
    std::string quantity;  ///< human description with unit
    double paperValue = 0;
    double tandemValue = 0;
    double low = 0;
    double high = 0;
    bool pass = false;
    CheckStatus status = CheckStatus::Fail;
    std::string reason;  ///< why the row is NotReproducible (empty otherwise)
};

/// Builds a Check and sets `pass` and `status` from the band.
Check makeCheck(std::string id, std::string quantity, double paper, double tandem, double low,
                double high);

/// Marks `c` as not reproducible under the paper's own model, with the reason (non-empty).
/// Tandem's value and the band stay as computed, so the report still shows them.
void markNotReproducible(Check& c, std::string reason);

/// "pass", "FAIL" or "not reproducible": the word reports print and the JSON `status` key.
const char* statusName(CheckStatus s);

/// A paper's reproduction report.
struct Report {
    std::string paper;  ///< arXiv id, e.g. "2608.06046"
    std::vector<Check> checks;
};

/// Number of checks of `r` with status `s`.
int countStatus(const Report& r, CheckStatus s);
/// {"paper", "checks": [{"id", "quantity", "paper_value", "tandem_value" (null when not
/// finite), "low", "high" (null when one-sided), "pass", "status" (statusName), "reason" (only
/// when not reproducible)}, ...]}: the JSON of `tandem-cli reproduce`.
nlohmann::ordered_json reportToJson(const Report& r);

}  // namespace tandem
