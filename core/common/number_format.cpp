#include "common/number_format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tandem {

std::string formatNumber(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[32];
    for (int prec = 6; prec <= 17; ++prec) {
        std::snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

std::string csvNumber(double v) { return std::isfinite(v) ? formatNumber(v) : std::string(); }

}  // namespace tandem
