#include "common/check.h"

#include <cmath>
#include <stdexcept>

#include "common/number_format.h"

namespace tandem {
namespace {

std::string num(double v) { return formatGeneral(v, 4); }

}  // namespace

Check makeCheck(std::string id, std::string quantity, double paper, double tandem, double low,
                double high) {
    Check c;
    c.id = std::move(id);
    c.quantity = std::move(quantity);
    c.paperValue = paper;
    c.tandemValue = tandem;
    c.low = low;
    c.high = high;
    c.pass = std::isfinite(tandem) && tandem >= low && tandem <= high;
    c.status = c.pass ? CheckStatus::Pass : CheckStatus::Fail;
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
    c.status = c.pass ? CheckStatus::Pass : CheckStatus::Fail;
    return c;
}

void markNotReproducible(Check& c, std::string reason) {
    if (reason.empty())
        throw std::invalid_argument("markNotReproducible: empty reason for " + c.id);
    c.status = CheckStatus::NotReproducible;
    c.reason = std::move(reason);
}

const char* statusName(CheckStatus s) {
    switch (s) {
        case CheckStatus::Pass:
            return "pass";
        case CheckStatus::Fail:
            return "FAIL";
        case CheckStatus::NotReproducible:
            return "not reproducible";
    }
    return "FAIL";
}

int countStatus(const Report& r, CheckStatus s) {
    int n = 0;
    for (const auto& c : r.checks) n += c.status == s ? 1 : 0;
    return n;
}

nlohmann::ordered_json reportToJson(const Report& r) {
    nlohmann::ordered_json j;
    j["paper"] = r.paper;
    j["checks"] = nlohmann::ordered_json::array();
    for (const auto& c : r.checks) {
        nlohmann::ordered_json k;
        k["id"] = c.id;
        k["quantity"] = c.quantity;
        k["paper_value"] = c.paperValue;
        k["tandem_value"] = std::isfinite(c.tandemValue) ? nlohmann::ordered_json(c.tandemValue)
                                                         : nlohmann::ordered_json(nullptr);
        k["low"] = c.low;
        // A one-sided (directional) check has no upper bound: null.
        k["high"] = std::isfinite(c.high) ? nlohmann::ordered_json(c.high)
                                          : nlohmann::ordered_json(nullptr);
        k["pass"] = c.pass;
        k["status"] = statusName(c.status);
        if (!c.reason.empty()) k["reason"] = c.reason;
        // Only rows judged by more than their band carry these keys.
        if (!c.note.empty()) k["note"] = c.note;
        if (!c.nearTies.empty()) {
            auto ties = nlohmann::ordered_json::array();
            for (const auto& t : c.nearTies)
                ties.push_back({{"value", t.value},
                                {"loss_gap_nats", t.lossGapNats},
                                {"label", t.label},
                                {"in_band", t.value >= c.low && t.value <= c.high}});
            k["near_ties"] = ties;
        }
        j["checks"].push_back(k);
    }
    return j;
}

}  // namespace tandem
