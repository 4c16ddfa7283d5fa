#pragma once
// Smoothing for unevenly spaced curves (the x-axis is wall-clock, whose steps vary with the
// network state), in the spirit of TensorBoard's time-weighted EMA.
#include <QList>
#include <QPointF>

namespace tandem::ui {

/// Continuous-time exponential moving average: m_0 = y_0 and
/// m_i = m_{i-1} + (1 - exp(-(x_i - x_{i-1}) / tau)) * (y_i - m_{i-1}),
/// so a long gap forgets more than a short one (a plain EMA weighs every sample alike).
/// `tau` in the units of x; tau <= 0 returns the input. Points must be sorted by x.
QList<QPointF> smoothTimeWeighted(const QList<QPointF>& points, double tau);

}  // namespace tandem::ui
