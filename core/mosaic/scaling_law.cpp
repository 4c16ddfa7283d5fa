#include "mosaic/scaling_law.h"

#include <cmath>
#include <limits>

#include "common/golden_section.h"
#include "common/json_reader.h"
#include "common/number_format.h"

namespace tandem::mosaic {

double ScalingLaw::loss(double n, double s, double d, double g) const {
    if (!(n > 0) || !(d > 0) || !(s >= 0 && s < 1) || !(g > 0))
        return std::numeric_limits<double>::quiet_NaN();
    const double r = 1.0 - s;
    return a * std::pow(n, -alpha) + b * std::pow(d, -beta) + c * std::pow(r, -lambda) +
           j / (std::pow(r, delta) * std::pow(n, gamma) * std::pow(g, eta)) + e;
}

bool isExtrapolated(double n, double s, double d, double g, const LawRange& r) {
    return s < r.sMin || s > r.sMax || n > r.nTotMax || d < r.dMin || d > r.dMax || g < r.gMin ||
           g > r.gMax;
}

std::string extrapolationNote(double n, double s, double d, double g, const LawRange& r) {
    std::string out;
    auto add = [&](const std::string& t) { out += (out.empty() ? "" : "; ") + t; };
    if (s < r.sMin) add("S < " + formatNumber(r.sMin));
    if (s > r.sMax) add("S > " + formatNumber(r.sMax));
    if (n > r.nTotMax) add("N_tot > " + formatNumber(r.nTotMax));
    if (d < r.dMin) add("D < " + formatNumber(r.dMin));
    if (d > r.dMax) add("D > " + formatNumber(r.dMax));
    if (g < r.gMin) add("G < " + formatNumber(r.gMin));
    if (g > r.gMax) add("G > " + formatNumber(r.gMax));
    return out;
}

ComputeOptimum computeOptimum(const ScalingLaw& law, double c, double s, double g) {
    ComputeOptimum best;
    if (!(c > 0) || !(s >= 0 && s < 1) || !(g > 0)) {
        best.loss = best.nTot = best.nAct = best.tokens = std::numeric_limits<double>::quiet_NaN();
        return best;
    }
    const double r = 1.0 - s;
    auto f = [&](double logN) {
        const double n = std::exp(logN);
        return law.loss(n, s, tokensForModelFlops(c, r * n), g);
    };
    const double logN = goldenSectionMin(f, std::log(1e6), std::log(1e16));
    best.nTot = std::exp(logN);
    best.nAct = r * best.nTot;
    best.tokens = tokensForModelFlops(c, best.nAct);
    best.loss = law.loss(best.nTot, s, best.tokens, g);
    return best;
}

}  // namespace tandem::mosaic
