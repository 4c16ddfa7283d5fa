#pragma once
// Exposed DP share per decision interval over wall-clock, one line per policy [2608.06046 Sec. 3,
// Fig. 2a over time].
#include <optional>

#include "mlforml/simulate.h"
#include "ui/widgets/chart_view.h"

class QLineSeries;
class QValueAxis;

namespace tandem::ui {

/// y = exposed DP time / iteration time per decision interval, percent (PolicyRun::dpShare at
/// PolicyRun::dpShareTime_s); x = wall-clock in a unit chosen from the longest run. Lines use the
/// fixed policy colours and are decimated to the plot width. A line that coincides with an earlier
/// policy's (same data within 0.2 % of the axis spans, e.g. Joint = Knob-Precision in scenario 1
/// [2608.06046 Fig. 2]) is dashed over it; the two share one legend entry "Knob-Precision = Joint".
class DpShareTimeView : public ChartView {
    Q_OBJECT
public:
    explicit DpShareTimeView(QWidget* parent = nullptr);
    void setData(const mlforml::PointResult& point);
    void applyTheme() override;
    /// Mean drawn share of `policy`, percent (tests; NaN if absent).
    double meanShare(const QString& policy) const;
    /// Per policy of the last result (engine order): the earlier policy whose line it coincides
    /// with (coincidentWith), or -1; such a line is dashed over it, legend "Knob-Precision =
    /// Joint".
    /// (Draws first when a rebuild is pending: the groups come from the drawn curves.)
    const QList<int>& coincidences() {
        ensureBuilt();
        return m_sameAs;
    }

private:
    void rebuild() override;
    std::optional<mlforml::PointResult> m_point;
    QList<QLineSeries*> m_lines;
    QList<int> m_sameAs;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};

}  // namespace tandem::ui
