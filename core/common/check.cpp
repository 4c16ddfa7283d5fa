#include "common/check.h"

#include <cmath>
namespace tandem {
Check makeCheck(std::string id, std::string quantity, double paper, double tandem, double low,
                double high) {
    Check c{std::move(id), std::move(quantity), paper, tandem, low, high, false};
    c.pass = std::isfinite(tandem) && tandem >= low && tandem <= high;
    return c;
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
        k["high"] = c.high;
        k["pass"] = c.pass;
        j["checks"].push_back(k);
    }
    return j;
}
}  // namespace tandem
