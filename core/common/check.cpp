#include "common/check.h"

#include <cmath>
#include <cstdio>

namespace tandem {
namespace {

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

}  // namespace

Check makeCheck(std::string id, std::string quantity, double paper, double tandem, double low,
                double high) {
    Check c{std::move(id), std::move(quantity), paper, tandem, low, high, false, {}, {}};
    c.pass = std::isfinite(tandem) && tandem >= low && tandem <= high;
    return c;
}

Check makeNearTieCheck(std::string id, std::string quantity, double paper,
                       std::vector<NearTie> ties, double toleranceNats, double low, double high) {
    const double optimum = ties.empty() ? std::nan("") : ties.front().value;
    Check c = makeCheck(std::move(id), std::move(quantity), paper, optimum, low, high);
    c.nearTies = std::move(ties);
    const NearTie* inBand = nullptr;
    for (const NearTie& t : c.nearTies)
        if (std::isfinite(t.value) && t.value >= low && t.value <= high) {
            inBand = &t;
            break;
        }
    const std::string n = std::to_string(c.nearTies.size());
    const std::string within = "within " + num(toleranceNats) + " nats of the optimum's loss";
    if (c.pass) {
        c.note = "near-tie rule: the optimum itself is inside the band (" + n + " candidates " +
                 within + ")";
    } else if (inBand) {
        c.pass = true;
        c.note = "near-tie rule: the optimum (" + num(optimum) + ") is outside the band; " +
                 inBand->label + " (" + num(inBand->value) + ", " + num(inBand->lossGapNats) +
                 " nats behind) is inside it, one of " + n + " candidates " + within;
    } else {
        c.note =
            "near-tie rule: none of the " + n + " candidates " + within + " is inside the band";
    }
    return c;
}

}  // namespace tandem
