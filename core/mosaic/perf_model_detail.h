#pragma once
// What the perf model's translation units share (mosaic/ only): perf_model.cpp assembles and
// evaluates a plan's iteration time, perf_model_shape.cpp costs the terms of one
// (TP, CP, B_micro) shape and its kernel efficiencies.

namespace tandem::mosaic::detail {

/// Saturation x / (x + half): 1/2 at x = half, tending to 1 (efficiency ramps of size).
inline double sat(double x, double half) { return x / (x + half); }

/// HBM bytes per attention score without flash attention [Korthikanti et al. 2022 Sec. 4.1]:
/// forward: fused scale-mask-softmax (read 2, write 2), dropout (read 2, write 2, mask 1);
/// backward: dropout (read 2 + mask 1, write 2), softmax (read probabilities 2 and gradient 2,
/// write 2). Stored for the backward in mode None: softmax output 2, mask 1, dropout output 2.
constexpr double kScoreBytesFwd = 9.0, kScoreBytesBwd = 11.0, kScoreBytesStored = 5.0;

}  // namespace tandem::mosaic::detail
