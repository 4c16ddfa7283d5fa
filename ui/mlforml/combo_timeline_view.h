#pragma once
// Knob combination each adaptive policy chose over wall-clock time [2608.06046 Sec. 2.4, Fig. 3].
#include <optional>
#include <vector>

#include "mlforml/simulate.h"
#include "ui/widgets/chart_view.h"

class QAreaSeries;
class QCategoryAxis;
class QValueAxis;

namespace tandem::ui {

/// One horizontal band per adaptive policy (Static and fixed combinations are left out: they
/// never switch); along each band the colour says which (g, p) combination was active, from
/// PolicyRun::timeline (seconds, merged runs of one combination). One fill per (policy,
/// combination) and one legend entry per combination, in the fixed comboColor() colours.
class ComboTimelineView : public ChartView {
    Q_OBJECT
public:
    explicit ComboTimelineView(QWidget* parent = nullptr);
    /// `comboLabels`: Result::comboLabels (indices of ComboSegment::combo).
    void setData(const mlforml::PointResult& point, const std::vector<std::string>& comboLabels);
    void applyTheme() override;
    /// Policies drawn, top to bottom (tests).
    QStringList rows() const { return m_rows; }
    /// Seconds policy `row` spent in combination `combo` (tests; 0 if none).
    double secondsIn(const QString& policy, const QString& combo) const;
    /// Segments as CSV: policy,combination,t0_s,t1_s.
    QString csv() const override;

private:
    void rebuild() override;
    std::optional<mlforml::PointResult> m_point;
    std::vector<std::string> m_combos;
    QStringList m_rows;
    QList<QAreaSeries*> m_areas;
    QValueAxis* m_x = nullptr;
    QCategoryAxis* m_y = nullptr;
};

/// True for a policy whose knobs change over time (not Static and not a fixed combination).
bool isAdaptivePolicy(mlforml::Policy policy);

}  // namespace tandem::ui
