#pragma once
// First-crossing time per policy with its ratio to Joint [2608.06046 Fig. 2c / Table 3].
#include <optional>
#include <vector>

#include "mlforml/simulate.h"
#include "widgets/chart_view.h"

class QBarCategoryAxis;
class QHorizontalStackedBarSeries;
class QValueAxis;

namespace tandem::ui {

/// Horizontal bars, one per policy in its fixed colour, length = wall-clock time to first reach
/// the selected target (targetFactor x L_min); the category label carries the time and the ratio
/// to Joint (x1.42). Policies that never reach the target within the horizon say so.
class FirstCrossingView : public ChartView {
    Q_OBJECT
public:
    explicit FirstCrossingView(QWidget* parent = nullptr);
    /// `targetIndex` selects the target (index into point.policies[i].firstCrossing_s).
    /// `targetFactors` and `targetLosses` (nats) as in mlforml::Result; `targetIndex` the target
    /// the bars show.
    void setData(const mlforml::PointResult& point, const std::vector<double>& targetFactors,
                 const std::vector<double>& targetLosses, int targetIndex);
    /// mlforml::firstCrossingCsv of the shown point: one row per policy and target, the rows of
    /// `tandem-cli run`'s mlforml_first_crossing.csv for this N.
    QString csv() const override;
    void applyTheme() override;
    /// Ratio policy/Joint at the shown target (NaN if either is missing), for tests and tooltips.
    double ratioToJoint(const QString& policy) const;

private:
    void rebuild();
    std::optional<mlforml::PointResult> m_point;
    std::vector<double> m_targetFactors;
    std::vector<double> m_targetLosses;
    int m_targetIndex = 1;
    QHorizontalStackedBarSeries* m_series = nullptr;
    QBarCategoryAxis* m_categories = nullptr;
    QValueAxis* m_value = nullptr;
};

}  // namespace tandem::ui
