#pragma once
// One row of a `tandem-cli reproduce` report: a published number, Tandem's value, the band.
#include <string>
#include <vector>

namespace tandem {

/// A candidate whose loss lies within a stated tolerance of the optimum's: its value of the checked
/// quantity, how far behind the optimum it is and what it is (e.g. a geometry label).
struct NearTie {
    double value = 0;        ///< the checked quantity for this candidate (same unit as the check)
    double lossGapNats = 0;  ///< loss minus the optimum's loss, nats (>= 0)
    std::string label;       ///< which candidate
};

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
    /// How the row was judged when not by the band alone; empty for a plain band check.
    std::string note;
    /// Candidates within the near-tie tolerance of the optimum, optimum first (empty unless the
    /// row is judged by makeNearTieCheck).
    std::vector<NearTie> nearTies;
};

/// Builds a Check and sets `pass` from the band.
Check makeCheck(std::string id, std::string quantity, double paper, double tandem, double low,
                double high);

/// A check on a quantity of an optimum that the paper itself calls a near-tie between neighbouring
/// candidates [arXiv:2608.10605 Sec. 7.3]. `tandemValue` is the optimum's value (ties[0].value);
/// the row passes when some candidate of `ties` (all within `toleranceNats` of the optimum's loss,
/// the optimum included) has its value inside [low, high]. `note` says which did and
/// that the near-tie rule was applied. NaN values never pass; an empty `ties` fails.
Check makeNearTieCheck(std::string id, std::string quantity, double paper,
                       std::vector<NearTie> ties, double toleranceNats, double low, double high);

/// A paper's reproduction report.
struct Report {
    std::string paper;  ///< arXiv id, e.g. "2608.06046"
    std::vector<Check> checks;
};

}  // namespace tandem
