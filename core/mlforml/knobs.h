#pragma once
// The knob space of the case study [2608.06046 Sec. 3.1]: gradient communication precision p and
// gradient accumulation factor g, and the combination labels used in outputs ("GA4-BF16").
#include <string>
#include <vector>

namespace tandem::mlforml {

/// Precisions the engine knows, in canonical spelling.
const std::vector<std::string>& knownPrecisions();

/// Bytes on the wire per gradient value [MODEL.md A2; OCP MX spec v1.0]: FP32 4, BF16 2, FP8 1,
/// MXFP8 1 + 1/32, MXFP4 0.5 + 1/32 (32 values share one 8-bit scale). Unknown -> NaN.
double bytesPerValue(const std::string& precision);

/// One knob combination. `g` = gradient accumulation (microbatches per update), `p` = precision.
struct Combo {
    int g = 4;
    std::string p = "BF16";
    std::string label() const;  ///< "GA<g>-<p>", e.g. "GA16-MXFP4"
};

/// Parses "GA<g>-<p>" (g a positive integer, p a known precision). Returns false otherwise.
bool parseComboLabel(const std::string& label, Combo& out);

/// The adaptive and baseline policy names [2608.06046 Table 2] plus "Oracle" (beyond the paper).
const std::vector<std::string>& policyNames();

}  // namespace tandem::mlforml
