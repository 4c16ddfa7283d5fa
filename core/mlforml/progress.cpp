#include "mlforml/progress.h"

#include <cmath>
#include <limits>

namespace tandem::mlforml {
namespace {

/// A progress-model value by precision: `mxfp4` for MXFP4, `fp8` for FP8 and MXFP8, `wide` for
/// FP32 and BF16.
double byPrecision(Precision p, double mxfp4, double fp8, double wide) {
    switch (p) {
        case Precision::Mxfp4:
            return mxfp4;
        case Precision::Fp8:
        case Precision::Mxfp8:
            return fp8;
        case Precision::Fp32:
        case Precision::Bf16:
            break;
    }
    return wide;
}

}  // namespace

ProgressCurve::ProgressCurve(const Params& p)
    : m_p(p),
      m_floor(p.progress.lossFloor),
      m_alpha(p.progress.lossExponent),
      m_s0(p.progress.lossOffset),
      m_A(0) {
    const double sEnd = p.progress.staticUpdates * staticProgressPerUpdate();
    m_A = (p.progress.lMin - m_floor) * std::pow(sEnd + m_s0, m_alpha);
}

double ProgressCurve::globalBatch(int g) const {
    return g * m_p.microbatchSequences * m_p.foregroundNodes * m_p.gpusPerNode;
}

double ProgressCurve::kappa(Precision p) const {
    return byPrecision(p, m_p.progress.kappaMxfp4, m_p.progress.kappaFp8, 1.0);
}

double ProgressCurve::omega(Precision p) const {
    return byPrecision(p, m_p.progress.omegaMxfp4, m_p.progress.omegaFp8, 0.0);
}

double ProgressCurve::staticProgressPerUpdate() const {
    Combo base;
    base.g = m_p.gradientAccumulations.empty() ? 4 : m_p.gradientAccumulations.front();
    if (!m_p.precisions.empty()) base.p = m_p.precisions.front();
    const int nodes = m_p.progress.staticNodes > 0 ? m_p.progress.staticNodes : m_p.foregroundNodes;
    return progressAt(base, base.g * m_p.microbatchSequences * nodes * m_p.gpusPerNode);
}

double ProgressCurve::progressPerUpdate(const Combo& c) const {
    return progressAt(c, globalBatch(c.g));
}

double ProgressCurve::progressAt(const Combo& c, double B) const {
    const double Bn = m_p.progress.criticalBatchSequences;
    if (m_p.progress.precisionModel == PrecisionModel::NoiseInflation)
        return 1.0 / (1.0 + Bn * (1.0 + omega(c.p)) / B);
    return 1.0 / (1.0 + Bn / B) / kappa(c.p);
}

double ProgressCurve::loss(double S) const {
    const double x = S + m_s0;
    if (x <= 0) return std::numeric_limits<double>::infinity();
    return m_floor + m_A * std::pow(x, -m_alpha);
}

double ProgressCurve::progressForLoss(double L) const {
    if (!(L > m_floor)) return std::numeric_limits<double>::infinity();
    return std::pow((L - m_floor) / m_A, -1.0 / m_alpha) - m_s0;
}

void applyFittedLossCurve(Params& p, double lInf, double a, double alpha, double s0Steps) {
    const double dS = ProgressCurve(p).staticProgressPerUpdate();
    p.progress.lossFloor = lInf;
    p.progress.lossExponent = alpha;
    p.progress.lossOffset = s0Steps * dS;
    p.progress.lMin = lInf + a * std::pow(p.progress.staticUpdates + s0Steps, -alpha);
}

}  // namespace tandem::mlforml
