#include "mlforml/knobs.h"

#include <cstdlib>

namespace tandem::mlforml {

const EnumTable<Precision>& precisionNames() {
    static const EnumTable<Precision> t = {{Precision::Fp32, "FP32"},
                                           {Precision::Bf16, "BF16"},
                                           {Precision::Fp8, "FP8"},
                                           {Precision::Mxfp8, "MXFP8"},
                                           {Precision::Mxfp4, "MXFP4"}};
    return t;
}
const char* name(Precision p) { return enumName(precisionNames(), p); }

double bytesPerValue(Precision p) {
    switch (p) {
        case Precision::Fp32:
            return 4.0;
        case Precision::Bf16:
            return 2.0;
        case Precision::Fp8:
            return 1.0;
        case Precision::Mxfp8:
            return 1.0 + 1.0 / 32.0;
        case Precision::Mxfp4:
            return 0.5 + 1.0 / 32.0;
    }
    return 2.0;
}

std::string Combo::label() const { return "GA" + std::to_string(g) + "-" + name(p); }

bool operator==(const Combo& a, const Combo& b) { return a.g == b.g && a.p == b.p; }

bool parseComboLabel(const std::string& label, Combo& out) {
    if (label.size() < 5 || label.compare(0, 2, "GA") != 0) return false;
    const auto dash = label.find('-');
    if (dash == std::string::npos || dash <= 2) return false;
    const std::string digits = label.substr(2, dash - 2);
    for (char c : digits)
        if (c < '0' || c > '9') return false;
    if (digits.size() > 6) return false;
    const int g = std::atoi(digits.c_str());
    const auto p = enumFromName(precisionNames(), label.substr(dash + 1));
    if (g <= 0 || !p) return false;
    out.g = g;
    out.p = *p;
    return true;
}

const EnumTable<Policy>& policyNames() {
    static const EnumTable<Policy> t = {
        {Policy::Static, "Static"},  {Policy::KnobPrecision, "Knob-Precision"},
        {Policy::KnobGa, "Knob-GA"}, {Policy::Decoupled, "Decoupled"},
        {Policy::Joint, "Joint"},    {Policy::Oracle, "Oracle"}};
    return t;
}

const char* name(Policy p) { return enumName(policyNames(), p); }

std::string PolicySpec::label() const {
    return policy == Policy::Fixed ? combo.label() : name(policy);
}

bool operator==(const PolicySpec& a, const PolicySpec& b) {
    return a.policy == b.policy && (a.policy != Policy::Fixed || a.combo == b.combo);
}

bool parsePolicy(const std::string& word, PolicySpec& out) {
    if (const auto named = enumFromName(policyNames(), word)) {
        out = PolicySpec(*named);
        return true;
    }
    Combo c;
    if (!parseComboLabel(word, c)) return false;
    out = PolicySpec(c);
    return true;
}

}  // namespace tandem::mlforml
