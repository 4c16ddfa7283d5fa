#include "mlforml/knobs.h"

#include <cmath>
#include <cstdlib>

namespace tandem::mlforml {

const std::vector<std::string>& knownPrecisions() {
    static const std::vector<std::string> v = {"FP32", "BF16", "FP8", "MXFP8", "MXFP4"};
    return v;
}

double bytesPerValue(const std::string& p) {
    if (p == "FP32") return 4.0;
    if (p == "BF16") return 2.0;
    if (p == "FP8") return 1.0;
    if (p == "MXFP8") return 1.0 + 1.0 / 32.0;
    if (p == "MXFP4") return 0.5 + 1.0 / 32.0;
    return std::nan("");
}

std::string Combo::label() const { return "GA" + std::to_string(g) + "-" + p; }

bool parseComboLabel(const std::string& label, Combo& out) {
    if (label.size() < 5 || label.compare(0, 2, "GA") != 0) return false;
    const auto dash = label.find('-');
    if (dash == std::string::npos || dash <= 2) return false;
    const std::string digits = label.substr(2, dash - 2);
    for (char c : digits)
        if (c < '0' || c > '9') return false;
    if (digits.size() > 6) return false;
    const int g = std::atoi(digits.c_str());
    const std::string p = label.substr(dash + 1);
    if (g <= 0 || std::isnan(bytesPerValue(p))) return false;
    out.g = g;
    out.p = p;
    return true;
}

const std::vector<std::string>& policyNames() {
    static const std::vector<std::string> v = {"Static",    "Knob-Precision", "Knob-GA",
                                               "Decoupled", "Joint",          "Oracle"};
    return v;
}

}  // namespace tandem::mlforml
