#include "common/check.h"

#include <cmath>
namespace tandem {
Check makeCheck(std::string id, std::string quantity, double paper, double tandem, double low,
                double high) {
    Check c{std::move(id), std::move(quantity), paper, tandem, low, high, false};
    c.pass = std::isfinite(tandem) && tandem >= low && tandem <= high;
    return c;
}
}  // namespace tandem
