#pragma once
// Training progress model [MODEL.md A4]: critical-batch progress per update [McCandlish et al.
// 2018, "An Empirical Model of Large-Batch Training"], a precision factor, and a loss curve in
// accumulated progress so a policy may switch knobs at any update.
#include "mlforml/knobs.h"
#include "mlforml/params.h"

namespace tandem::mlforml {

class ProgressCurve {
public:
    /// Calibrates the amplitude A so that the baseline combination (first g, first p) on
    /// p.progress.staticNodes nodes (0: the foreground's) reaches p.progress.lMin after
    /// p.progress.staticUpdates updates [2608.06046 Sec. 3.1, Fig. 2].
    explicit ProgressCurve(const Params& p);

    /// Global batch in sequences: g * microbatch * GPUs (DP workers).
    double globalBatch(int g) const;
    /// Progress of one baseline update of the calibration run (static_nodes nodes).
    double staticProgressPerUpdate() const;
    /// Progress of one update with combination c (dimensionless, > 0):
    /// 1 / (1 + Bnoise_p / B) / kappa_p (model "kappa") or 1 / (1 + Bnoise (1 + omega_p) / B).
    double progressPerUpdate(const Combo& c) const;
    /// Eval loss after progress S >= 0: L_inf + A (S + S0)^(-alpha).
    double loss(double S) const;
    /// Progress at which loss(S) == L; +inf when L <= L_inf (never reached).
    double progressForLoss(double L) const;
    double amplitude() const { return m_A; }
    double lossFloor() const { return m_floor; }

private:
    double progressAt(const Combo& c, double batch) const;
    double kappa(Precision p) const;
    double omega(Precision p) const;
    const Params& m_p;
    double m_floor, m_alpha, m_s0, m_A;
};

/// Replaces the default loss curve by one fitted to a training log: the fit
/// L(u) = lInf + a (u + s0Steps)^(-alpha) in optimizer steps u of the baseline combination
/// (what `tandem-cli inspect LOG --json` prints as L_inf, A, alpha, S0; tandem::io::LossFit).
/// Sets progress.loss_floor = lInf, progress.loss_exponent = alpha,
/// progress.loss_offset = s0Steps * dS_base (progress units; dS_base = progress per baseline
/// update under p's current batch and critical batch) and progress.l_min = L(static_updates),
/// so that ProgressCurve(p).loss(u * dS_base) == lInf + a (u + s0Steps)^(-alpha) for every u
/// (the amplitude A follows from l_min as usual). Target losses stay factors of the new l_min.
/// Requires a > 0, alpha > 0, s0Steps >= 0 and p.progress.staticUpdates > 0 (not checked:
/// the fit guarantees them; the JSON path validates the resulting keys).
void applyFittedLossCurve(Params& p, double lInf, double a, double alpha, double s0Steps);

}  // namespace tandem::mlforml
