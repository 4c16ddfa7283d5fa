#pragma once
// Background traffic on the shared fabric over time [2608.06046 Sec. 3.2-3.3].
#include <optional>

#include "mlforml/simulate.h"
#include "ui/widgets/chart_view.h"

class QAreaSeries;
class QLineSeries;
class QValueAxis;

namespace tandem::ui {

/// Aggregate background load (PointResult::loadTime_s, loadBytesPerS) drawn as a filled step
/// curve in GB/s (1e9 bytes/s). Scenario 1 records a short window of N periodic jobs; scenario 2
/// the Poisson schedule over the run; a trace its own samples. The p95 volume per 50 ms is in
/// the title.
class BackgroundLoadView : public ChartView {
    Q_OBJECT
public:
    explicit BackgroundLoadView(QWidget* parent = nullptr);
    void setData(const mlforml::PointResult& point);
    void applyTheme() override;
    /// Time-weighted mean of the drawn load, GB/s (tests; 0 when empty).
    double meanGBps() const;

private:
    void rebuild() override;
    std::optional<mlforml::PointResult> m_point;
    QAreaSeries* m_area = nullptr;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};

}  // namespace tandem::ui
