#pragma once
// The joint MoE scaling law L(N_tot, S, D, G) [2608.10605 Eq. 10, Table 2] and its model-FLOPs
// optimum (Eq. 16). N_tot and D are raw counts (parameters, tokens); loss in nats.
#include <string>

namespace tandem::mosaic {

/// Model FLOPs of training `nAct` active parameters on `tokens` tokens, C = 6 N_act D (2 forward
/// + 4 backward FLOPs per active parameter per token) [2608.10605 Eq. 1, 16, 25; Kaplan et al.
/// 2020]: the one count of model FLOPs (MFU's numerator, the frontier's budget, the reports).
/// Recomputation earns no credit. FLOPs; nAct and tokens are counts.
inline double modelFlops(double nAct, double tokens) { return 6.0 * nAct * tokens; }

/// Tokens D that `flops` model FLOPs buy at `nAct` active parameters: D = C / (6 N_act), the
/// inverse of modelFlops.
inline double tokensForModelFlops(double flops, double nAct) { return flops / (6.0 * nAct); }

/// Tokens per active parameter D / N_act, the data ratio the envelope bounds
/// (tokens_per_parameter_min / _max) [2608.10605 Sec. 7.3]; the reports' tokens_per_parameter.
/// A ratio of counts.
inline double tokensPerParameter(double tokens, double nAct) { return tokens / nAct; }

/// Coefficients of Eq. 10; defaults are Table 2's point estimates. Only beta and eta are
/// identified; the others sit on a ridge (perturb them jointly) [2608.10605 App. B.2].
struct ScalingLaw {
    double a = 8.462, b = 88.32, c = 0.1828, j = 0.7123, e = 0.3129;
    double alpha = 0.1048, beta = 0.2070, lambda = 0.1249, delta = 0.5567, gamma = 0.1702,
           eta = 0.9513;

    /// Eq. 10: a/N^alpha + b/D^beta + c/(1-S)^lambda + j/((1-S)^delta N^gamma G^eta) + e.
    /// Inputs must be N > 0, D > 0, S in [0, 1), G > 0 (NaN otherwise; never clamped).
    double loss(double nTot, double sparsity, double tokens, double splitG) const;
};

/// Calibrated range of the law's data [2608.10605 Table 6, App. C]: S in [0.499, 0.981],
/// N_tot up to 79.24e9, D in [2.88e9, 56.38e9], G in [1, 8].
struct LawRange {
    double sMin = 0.499, sMax = 0.981;
    double nTotMax = 79.24e9;
    double dMin = 2.88e9, dMax = 56.38e9;
    double gMin = 1, gMax = 8;
};

/// True when (N_tot, S, D, G) leaves the calibrated range of LawRange (flag, do not refuse).
bool isExtrapolated(double nTot, double sparsity, double tokens, double splitG,
                    const LawRange& r = {});

/// Which inputs are outside the calibrated range, e.g. "N_tot > 79.2e9; D > 56.4e9"; empty if
/// none.
std::string extrapolationNote(double nTot, double sparsity, double tokens, double splitG,
                              const LawRange& r = {});

/// Model-FLOPs optimum at fixed S and G [2608.10605 Eq. 16]: minimises Eq. 10 over N_tot subject
/// to 6 (1-S) N_tot D = C_model. Loss is convex in log N_tot (posynomial, App. D.2 Property 1),
/// so a bounded golden-section search on log N_tot in [1e6, 1e16] finds it (80 iterations).
struct ComputeOptimum {
    double nTot = 0;    ///< optimal total parameters
    double nAct = 0;    ///< (1-S) nTot
    double tokens = 0;  ///< D = C / (6 nAct)
    double loss = 0;    ///< Eq. 10 at the optimum
};
ComputeOptimum computeOptimum(const ScalingLaw& law, double computeFlops, double sparsity,
                              double splitG);

}  // namespace tandem::mosaic
