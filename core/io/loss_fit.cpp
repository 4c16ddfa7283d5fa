#include "io/loss_fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unsupported/Eigen/LevenbergMarquardt>

#include "common/json_reader.h"
#include "common/number_format.h"

namespace tandem::io {
namespace {

/// Residuals r_i = L_inf + exp(lnA) (S_i + exp(lnS0))^(-exp(lnAlpha)) - y_i over
/// x = (L_inf, lnA, lnAlpha, lnS0).
struct Residuals : Eigen::DenseFunctor<double> {
    const Eigen::VectorXd& s;
    const Eigen::VectorXd& y;
    Residuals(const Eigen::VectorXd& s_, const Eigen::VectorXd& y_)
        : Eigen::DenseFunctor<double>(4, static_cast<int>(s_.size())), s(s_), y(y_) {}
    int operator()(const InputType& x, ValueType& r) const {
        const double a = std::exp(x[1]), al = std::exp(x[2]), s0 = std::exp(x[3]);
        for (Eigen::Index i = 0; i < s.size(); ++i)
            r[i] = x[0] + a * std::pow(s[i] + s0, -al) - y[i];
        return 0;
    }
    int df(const InputType& x, JacobianType& j) const {
        const double a = std::exp(x[1]), al = std::exp(x[2]), s0 = std::exp(x[3]);
        for (Eigen::Index i = 0; i < s.size(); ++i) {
            const double b = s[i] + s0, p = std::pow(b, -al);
            j(i, 0) = 1.0;
            j(i, 1) = a * p;                      // d/dlnA
            j(i, 2) = -a * p * std::log(b) * al;  // d/dlnAlpha
            j(i, 3) = -a * al * p / b * s0;       // d/dlnS0
        }
        return 0;
    }
};

/// Four significant digits for messages ("4.246e-14", "2.111e+06", "50").
std::string shortNumber(double v) { return formatGeneral(v, 4); }

double ssr(const Eigen::VectorXd& s, const Eigen::VectorXd& y, double lInf, double a, double alpha,
           double s0) {
    double t = 0;
    for (Eigen::Index i = 0; i < s.size(); ++i) {
        const double r = lInf + a * std::pow(s[i] + s0, -alpha) - y[i];
        t += r * r;
    }
    return t;
}

}  // namespace

double predictLoss(const LossFit& f, double step) {
    return f.lInf + f.a * std::pow(step + f.s0, -f.alpha);
}

std::optional<LossFit> fitLossCurve(const std::vector<double>& step,
                                    const std::vector<double>& loss, Diagnostics& diag) {
    if (step.size() != loss.size()) {
        diag.error("$", "step and loss series differ in length (" + std::to_string(step.size()) +
                            " vs " + std::to_string(loss.size()) + ")");
        return std::nullopt;
    }
    const std::size_t n = step.size();
    std::vector<double> distinct(step);
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct.size() < 5) {
        diag.error("$",
                   "a fit of L_inf, A, alpha, S0 needs at least 5 points at distinct steps (got " +
                       std::to_string(distinct.size()) + ")");
        return std::nullopt;
    }
    Eigen::VectorXd s(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(step[i]) || step[i] < 0 || !std::isfinite(loss[i]) || !(loss[i] > 0)) {
            diag.error("$[" + std::to_string(i) + "]",
                       "step must be >= 0 and loss finite and > 0 (got step " +
                           formatNumber(step[i]) + ", loss " + formatNumber(loss[i]) + ")");
            return std::nullopt;
        }
        s[i] = step[i];
        y[i] = loss[i];
    }
    const double yMin = y.minCoeff(), yMax = y.maxCoeff();
    const double span = yMax - yMin;
    if (!(span > 0)) {
        diag.error("$", "all losses are equal; a decaying curve cannot be fitted");
        return std::nullopt;
    }
    // Start: grid over L_inf below the smallest loss and S0 around the step scale; (A, alpha)
    // from the least-squares line log(L - L_inf) = log A - alpha log(S + S0).
    const double sMax = std::max(1.0, s.maxCoeff());
    double best = std::numeric_limits<double>::infinity();
    Eigen::Vector4d x0(yMin - 0.1 * span, 0.0, std::log(0.3), 0.0);
    for (double fl : {0.005, 0.02, 0.05, 0.1, 0.2, 0.4, 0.8}) {
        const double lInf = yMin - fl * span;
        for (double fs : {1e-4, 1e-3, 1e-2, 3e-2, 1e-1, 0.3, 1.0}) {
            const double s0 = std::max(1e-3, fs * sMax);
            Eigen::MatrixXd A(n, 2);
            Eigen::VectorXd b(n);
            for (std::size_t i = 0; i < n; ++i) {
                A(i, 0) = 1.0;
                A(i, 1) = -std::log(s[i] + s0);
                b[i] = std::log(y[i] - lInf);
            }
            const Eigen::Vector2d c = A.colPivHouseholderQr().solve(b);
            const double alpha = c[1];
            if (!(alpha > 1e-4) || !std::isfinite(c[0])) continue;
            const double a = std::exp(c[0]);
            const double r = ssr(s, y, lInf, a, alpha, s0);
            if (r < best) {
                best = r;
                x0 = Eigen::Vector4d(lInf, c[0], std::log(alpha), std::log(s0));
            }
        }
    }
    Residuals fn(s, y);
    Eigen::LevenbergMarquardt<Residuals> lm(fn);
    lm.setMaxfev(2000);
    lm.setXtol(1e-12);
    lm.setFtol(1e-12);
    Eigen::VectorXd x = x0;
    const auto status = lm.minimize(x);

    LossFit f;
    f.lInf = x[0];
    f.a = std::exp(x[1]);
    f.alpha = std::exp(x[2]);
    f.s0 = std::exp(x[3]);
    f.points = n;
    f.evaluations = static_cast<int>(lm.nfev());
    f.converged = status == Eigen::LevenbergMarquardtSpace::RelativeReductionTooSmall ||
                  status == Eigen::LevenbergMarquardtSpace::RelativeErrorTooSmall ||
                  status == Eigen::LevenbergMarquardtSpace::RelativeErrorAndReductionTooSmall ||
                  status == Eigen::LevenbergMarquardtSpace::CosinusTooSmall ||
                  status == Eigen::LevenbergMarquardtSpace::FtolTooSmall ||
                  status == Eigen::LevenbergMarquardtSpace::XtolTooSmall ||
                  status == Eigen::LevenbergMarquardtSpace::GtolTooSmall;
    const double r2 = ssr(s, y, f.lInf, f.a, f.alpha, f.s0);
    f.rmse = std::sqrt(r2 / static_cast<double>(n));
    // Standard errors in the natural parameters (L_inf, A, alpha, S0).
    Eigen::MatrixXd J(n, 4);
    for (std::size_t i = 0; i < n; ++i) {
        const double b = s[i] + f.s0, p = std::pow(b, -f.alpha);
        J(i, 0) = 1.0;
        J(i, 1) = p;
        J(i, 2) = -f.a * p * std::log(b);
        J(i, 3) = -f.a * f.alpha * p / b;
    }
    const double s2 = r2 / static_cast<double>(n - 4);
    const Eigen::Matrix4d JtJ = J.transpose() * J;
    Eigen::FullPivLU<Eigen::Matrix4d> lu(JtJ);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (lu.isInvertible()) {
        const Eigen::Matrix4d cov = s2 * lu.inverse();
        const auto se = [&](int k) { return cov(k, k) >= 0 ? std::sqrt(cov(k, k)) : nan; };
        f.seLInf = se(0);
        f.seA = se(1);
        f.seAlpha = se(2);
        f.seS0 = se(3);
    } else {
        f.seLInf = f.seA = f.seAlpha = f.seS0 = nan;
    }
    // Plausibility: a progress curve decays towards a positive floor.
    const auto w = [&](const std::string& m) { f.warnings.push_back(m); };
    if (!f.converged)
        w("the fit did not converge (" + std::to_string(f.evaluations) + " evaluations)");
    if (f.lInf < 0)
        w("L_inf = " + shortNumber(f.lInf) + " is below 0; a loss floor must be positive");
    if (f.alpha < 1e-3)
        w("alpha = " + shortNumber(f.alpha) +
          " is at its lower bound: the logged loss does not decay");
    if (f.alpha > 5) w("alpha = " + shortNumber(f.alpha) + " is implausibly steep (> 5)");
    if (f.s0 > 100 * sMax)
        w("S0 = " + shortNumber(f.s0) + " is more than 100 x the last step (" + shortNumber(sMax) +
          ")");
    if (!(y[n - 1] < y[0]))
        w("the loss does not fall over the log (first " + shortNumber(y[0]) + ", last " +
          shortNumber(y[n - 1]) + ")");
    if (f.rmse > 0.5 * span)
        w("RMSE " + shortNumber(f.rmse) + " is above half the loss span " + shortNumber(span));
    f.usable = f.converged && f.warnings.empty();
    return f;
}

nlohmann::ordered_json lossFitToJson(const LossFit& f) {
    nlohmann::ordered_json j;
    j["L_inf"] = f.lInf;
    j["A"] = f.a;
    j["alpha"] = f.alpha;
    j["S0"] = f.s0;
    j["stderr"] = {{"L_inf", jsonNumber(f.seLInf)},
                   {"A", jsonNumber(f.seA)},
                   {"alpha", jsonNumber(f.seAlpha)},
                   {"S0", jsonNumber(f.seS0)}};
    j["rmse"] = f.rmse;
    j["points"] = f.points;
    j["converged"] = f.converged;
    j["usable"] = f.usable;
    j["warnings"] = f.warnings;
    return j;
}

}  // namespace tandem::io
