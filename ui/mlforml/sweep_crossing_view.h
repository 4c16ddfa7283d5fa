#pragma once
// First-crossing time per policy against co-running jobs N, scenario 1 [2608.06046 Fig. 2c-2d
// across the sweep, Table 3].
#include <vector>

#include "mlforml/simulate.h"
#include "ui/widgets/chart_view.h"

class QLineSeries;
class QValueAxis;

namespace tandem::ui {

/// One line per policy (fixed colours) over the scenario's sweep points (Result::points, one
/// per N): wall-clock time to first reach targetFactors[targetIndex] x L_min. Points where the
/// target is not reached within the horizon are left out. A vertical line marks the N on the
/// slider.
class SweepCrossingView : public ChartView {
    Q_OBJECT
public:
    explicit SweepCrossingView(QWidget* parent = nullptr);
    void setData(const mlforml::Result& sweep, int shownN, int targetIndex);
    void applyTheme() override;
    /// First-crossing time (s) of `policy` at `n` in the data shown (NaN if absent).
    double crossingAt(const QString& policy, int n) const;
    QString csv() const override;

private:
    void rebuild() override;
    mlforml::Result m_sweep;
    int m_shownN = -1;
    int m_targetIndex = 1;
    QList<QLineSeries*> m_lines;
    QLineSeries* m_marker = nullptr;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};

}  // namespace tandem::ui
