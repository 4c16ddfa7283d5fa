#pragma once
// Fit of the training-progress curve L(S) = L_inf + A * (S + S0)^(-alpha) [MODEL.md A4,
// 2608.06046 §2.3] to a logged loss series, by nonlinear least squares (Eigen's
// Levenberg-Marquardt), with standard errors from the Jacobian.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostics.h"

namespace tandem::io {

/// Fitted curve L(S) = lInf + a * (S + s0)^(-alpha), S in optimizer steps.
struct LossFit {
    double lInf = 0, a = 0, alpha = 0, s0 = 0;          ///< parameters (loss units, steps)
    double seLInf = 0, seA = 0, seAlpha = 0, seS0 = 0;  ///< standard errors (NaN if singular)
    double rmse = 0;         ///< sqrt(mean squared residual) over the fitted points
    std::size_t points = 0;  ///< points used
    int evaluations = 0;     ///< residual evaluations by the optimizer
    bool converged = false;  ///< optimizer reported convergence (not just an iteration cap)
    /// Why the fit should not be trusted, one sentence each (empty for a sound fit): the
    /// optimizer did not converge, L_inf < 0, alpha below 1e-3 (no decay: the fit sits at its
    /// lower bound) or above 5, S0 above 100 x the last logged step, the loss not falling over
    /// the log (last point >= first point), an RMSE above half the loss span.
    std::vector<std::string> warnings;
    /// converged and no warnings: safe to use as a progress curve (the GUI enables "Use fit as
    /// progress curve" only then).
    bool usable = false;
};

/// Fits L(S) to (step[i], loss[i]); steps >= 0, same length. Starts from the best of a small
/// grid over (L_inf, S0) with (A, alpha) from a log-log line, then runs Levenberg-Marquardt on
/// (L_inf, log A, log alpha, log S0) so A, alpha, S0 stay > 0 (capped at 2000 evaluations).
/// Standard errors: sqrt(diag(s^2 (J^T J)^-1)) with J the Jacobian in (L_inf, A, alpha, S0)
/// and s^2 = SSR / (n - 4). Errors (path `$` in `diag`): fewer than 5 distinct steps (the
/// message names the count), size mismatch, non-finite values, a loss <= 0, all losses equal.
/// A fit that runs but is implausible is returned with LossFit::warnings filled and
/// usable = false (never an error: the numbers are still shown). Deterministic.
std::optional<LossFit> fitLossCurve(const std::vector<double>& step,
                                    const std::vector<double>& loss, Diagnostics& diag);

/// L(S) of a fit.
double predictLoss(const LossFit& f, double step);

/// Inspect JSON: L_inf, A, alpha, S0, stderr{...}, rmse, points, converged, usable,
/// warnings[] (strings).
nlohmann::ordered_json lossFitToJson(const LossFit& f);

}  // namespace tandem::io
