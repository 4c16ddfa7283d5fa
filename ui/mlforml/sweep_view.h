#pragma once
// Exposed DP share against co-running jobs N, BF16 vs MXFP4 at GA4 [2608.06046 Fig. 2a].
#include <vector>

#include "mlforml/simulate.h"
#include "ui/widgets/chart_view.h"

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace tandem::ui {

/// One line per precision over the scenario's sweep list of N (Result::points), y in percent of
/// the GA4 iteration exposed to DP synchronisation; a marker shows the N on the slider.
class SweepView : public ChartView {
    Q_OBJECT
public:
    explicit SweepView(QWidget* parent = nullptr);
    /// `sweep`: a simulate() result with one point per N. `shownN` is highlighted.
    void setData(const mlforml::Result& sweep, int shownN);
    void applyTheme() override;

private:
    void rebuild() override;
    std::vector<mlforml::PointResult> m_points;
    int m_shownN = -1;
    QLineSeries* m_bf16;
    QLineSeries* m_mxfp4;
    QScatterSeries* m_shown;
    QValueAxis* m_x;
    QValueAxis* m_y;
};

}  // namespace tandem::ui
