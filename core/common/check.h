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

/// A candidate whose loss lies within a stated tolerance of the optimum's: its value of the checked
/// quantity, how far behind the optimum it is and what it is (e.g. a geometry label).
struct NearTie {
    double value = 0;        ///< the checked quantity for this candidate (same unit as the check)
    double lossGapNats = 0;  ///< loss minus the optimum's loss, nats (>= 0)
    std::string label;       ///< which candidate
};

/// A reproduction check against a paper's published value (MODEL.md A6 / B6 bands).
/// `pass` is low <= tandem_value <= high (NaN never passes), or the near-tie rule of
/// makeNearTieCheck; `status` is Pass or Fail from it, unless markNotReproducible() set
/// NotReproducible.
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
    /// How the row was judged when not by the band alone; empty for a plain band check.
    std::string note;
    /// Candidates within the near-tie tolerance of the optimum, optimum first (empty unless the
    /// row is judged by makeNearTieCheck).
    std::vector<NearTie> nearTies;
};

/// Builds a Check and sets `pass` and `status` from the band.
Check makeCheck(std::string id, std::string quantity, double paper, double tandem, double low,
                double high);

/// A check on a quantity of an optimum that the paper itself calls a near-tie between neighbouring
/// candidates [arXiv:2608.10605 Sec. 7.3]. `tandemValue` is the optimum's value (ties[0].value);
/// the row passes when some candidate of `ties` (all within `toleranceNats` of the optimum's loss,
/// the optimum included) has its value inside [low, high]. `note` says which did and
/// that the near-tie rule was applied. NaN values never pass; an empty `ties` fails.
Check makeNearTieCheck(std::string id, std::string quantity, double paper,
                       std::vector<NearTie> ties, double toleranceNats, double low, double high);

/// Marks `c` as not reproducible under the paper's own model, with the reason (non-empty;
/// throws std::invalid_argument otherwise). Tandem's value and the band stay as computed, so the
/// report still shows them.
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
/// when not reproducible), "note" and "near_ties" (only for rows judged by makeNearTieCheck:
/// value, loss_gap_nats, label, in_band)}, ...]}: the JSON of `tandem-cli reproduce`.
nlohmann::ordered_json reportToJson(const Report& r);

}  // namespace tandem
