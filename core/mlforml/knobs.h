#pragma once
// The knob space of the case study [2608.06046 Sec. 3.1]: gradient communication precision p and
// gradient accumulation factor g, the combination labels used in outputs ("GA4-BF16"), and the
// policies that choose among the combinations [Table 2].
#include <string>
#include <vector>

#include "common/enum_names.h"

namespace tandem::mlforml {

/// Gradient communication precision p [2608.06046 Sec. 3.1; OCP MX spec v1.0].
enum class Precision {
    Fp32,   ///< "FP32"
    Bf16,   ///< "BF16"
    Fp8,    ///< "FP8"
    Mxfp8,  ///< "MXFP8": FP8 values, one 8-bit scale per 32
    Mxfp4,  ///< "MXFP4": FP4 values, one 8-bit scale per 32
};
/// "FP32", "BF16", "FP8", "MXFP8", "MXFP4": the words of `precisions`, of combination labels
/// and of every output.
const EnumTable<Precision>& precisionNames();
const char* name(Precision p);

/// Bytes on the wire per gradient value [MODEL.md A2; OCP MX spec v1.0]: FP32 4, BF16 2, FP8 1,
/// MXFP8 1 + 1/32, MXFP4 0.5 + 1/32 (32 values share one 8-bit scale).
double bytesPerValue(Precision precision);

/// One knob combination. `g` = gradient accumulation (microbatches per update), `p` = precision.
struct Combo {
    int g = 4;
    Precision p = Precision::Bf16;
    std::string label() const;  ///< "GA<g>-<p>", e.g. "GA16-MXFP4"
};
bool operator==(const Combo& a, const Combo& b);

/// Parses "GA<g>-<p>" (g a positive integer of at most 6 digits, p a word of precisionNames()).
/// Returns false otherwise.
bool parseComboLabel(const std::string& label, Combo& out);

/// A controller of the knobs [2608.06046 Table 2] plus Oracle (beyond the paper) and a fixed
/// combination.
enum class Policy {
    Static,         ///< "Static": the baseline combination (first g, first p) throughout
    KnobPrecision,  ///< "Knob-Precision": adapts p at the baseline g
    KnobGa,         ///< "Knob-GA": adapts g at the baseline p
    Decoupled,      ///< "Decoupled": both knobs, each decided on its own, composed
    Joint,          ///< "Joint": both knobs, decided together
    Oracle,         ///< "Oracle": Joint with the true future exposed DP times
    Fixed,          ///< one combination throughout, named by its label ("GA16-MXFP4")
};
/// The words of the named policies, in Table 2's order: "Static", "Knob-Precision", "Knob-GA",
/// "Decoupled", "Joint", "Oracle". Fixed has no word of its own (its label is the combination's).
const EnumTable<Policy>& policyNames();
/// The word of a named policy ("" for Fixed).
const char* name(Policy p);

/// One entry of `policies`: a named policy, or Policy::Fixed with the combination it holds
/// (`combo` is unused otherwise). A Policy converts implicitly, so a list reads
/// `{Policy::Static, Policy::Joint}`.
struct PolicySpec {
    PolicySpec(Policy named = Policy::Static) : policy(named) {}
    explicit PolicySpec(const Combo& fixed) : policy(Policy::Fixed), combo(fixed) {}
    Policy policy;
    Combo combo;
    /// The word outputs write: the policy's name, or the combination's label for Fixed.
    std::string label() const;
};
bool operator==(const PolicySpec& a, const PolicySpec& b);

/// Parses a word of `policies`: a name of policyNames() or a combination label (parseComboLabel).
/// Returns false for anything else.
bool parsePolicy(const std::string& word, PolicySpec& out);

}  // namespace tandem::mlforml
