#pragma once
// First-crossing time per policy with its ratio to Joint [2608.06046 Fig. 2c / Table 3].
#include <optional>
#include <vector>

#include "mlforml/simulate.h"
#include "ui/widgets/chart_view.h"

class QBarCategoryAxis;
class QHorizontalStackedBarSeries;
class QScatterSeries;
class QValueAxis;

namespace tandem::ui {

/// Horizontal bars, one per policy in its fixed colour, length = wall-clock time to first reach
/// the selected target (targetFactor x L_min); the category label carries the time and the ratio
/// to Joint (x1.42). Policies that never reach the target within the horizon say so. Policies
/// whose loss curves coincide (setCoincident) share one bar labelled as the loss legend labels
/// them ("Knob-Precision = Joint"); a pinned result adds its time to each label and an outlined
/// mark at it.
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
    /// Per policy of the shown point (engine order), the index of the earlier policy whose loss
    /// curve it coincides with, or -1 (LossCurveView::coincidences()); later members of a group
    /// are drawn as the group's one bar.
    void setCoincident(const QList<int>& sameAs);
    /// Shows `pinned`'s first-crossing times next to the current ones (empty removes them).
    void setPinned(const std::optional<mlforml::PointResult>& pinned);
    /// The bar labels, top to bottom, as plain text, their line breaks as spaces ("Knob-Precision =
    /// Joint 1.26 h x1.00 pinned 0.89 h") (tests).
    QStringList barLabels() const;
    /// Ratio policy/Joint at the shown target (NaN if either is missing), for tests and tooltips.
    double ratioToJoint(const QString& policy) const;
    /// The pinned result's marks (one per bar with a pinned time; tests).
    const QScatterSeries* pinMarks() const { return m_pinMarks; }

private:
    void rebuild() override;
    std::optional<mlforml::PointResult> m_point, m_pinned;
    QList<int> m_sameAs;
    QScatterSeries* m_pinMarks = nullptr;
    std::vector<double> m_targetFactors;
    std::vector<double> m_targetLosses;
    int m_targetIndex = 1;
    QHorizontalStackedBarSeries* m_series = nullptr;
    QBarCategoryAxis* m_categories = nullptr;
    QValueAxis* m_value = nullptr;
};

}  // namespace tandem::ui
