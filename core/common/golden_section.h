#pragma once
// One-dimensional minimisation by golden-section search, for the fits and optima of both engines.
#include <functional>

namespace tandem {

/// The point of [a, b] where `f` is smallest, for `f` unimodal on [a, b]: golden-section search,
/// `iterations` shrinks of the bracket by 1 / phi (80: the bracket shrinks by ~1e-17, below
/// double precision for any bracket of order 1), returning the bracket's midpoint. `f` is
/// evaluated iterations + 2 times. Not unimodal: a local minimum. Units are `f`'s argument's.
double goldenSectionMin(const std::function<double(double)>& f, double a, double b,
                        int iterations = 80);

}  // namespace tandem
