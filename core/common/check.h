#pragma once
// One row of a `tandem-cli reproduce` report: a published number, Tandem's value, the band.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tandem {

/// A reproduction check against a paper's published value (MODEL.md A6 / B6 bands).
/// `pass` is computed as low <= tandem_value <= high (NaN never passes).
struct Check {
    std::string id;        ///< stable id, e.g. "s1.dp_share.bf16.N4"
    std::string quantity;  ///< human description with unit
    double paperValue = 0;
    double tandemValue = 0;
    double low = 0;
    double high = 0;
    bool pass = false;
};

/// Builds a Check and sets `pass` from the band.
Check makeCheck(std::string id, std::string quantity, double paper, double tandem, double low,
                double high);

/// A paper's reproduction report.
struct Report {
    std::string paper;  ///< arXiv id, e.g. "2608.06046"
    std::vector<Check> checks;
};

/// {"paper", "checks": [{"id", "quantity", "paper_value", "tandem_value" (null when not
/// finite), "low", "high", "pass"}, ...]}: the JSON of `tandem-cli reproduce`.
nlohmann::ordered_json reportToJson(const Report& r);

}  // namespace tandem
