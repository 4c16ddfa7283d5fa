#include "common/check.h"

#include <cmath>
#include <stdexcept>
namespace tandem {
Check makeCheck(std::string id, std::string quantity, double paper, double tandem, double low,
                double high) {
    Check c{std::move(id), std::move(quantity), paper, tandem, low, high,
            false,         CheckStatus::Fail,   {}};
    c.pass = std::isfinite(tandem) && tandem >= low && tandem <= high;
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
        j["checks"].push_back(k);
    }
    return j;
}
}  // namespace tandem
