#pragma once
// Peak memory per GPU of the selected layout against the device's usable capacity
// [2608.10605 Sec. 5.2, memory feasibility].
#include "ui/widgets/chart_view.h"

class QBarCategoryAxis;
class QHorizontalStackedBarSeries;
class QValueAxis;

namespace tandem::ui {

/// One horizontal bar in GB per GPU (1e9 bytes): the used part (blue when it fits, vermillion
/// beyond capacity) stacked with the headroom up to capacity (grey); the title states
/// "used of capacity GB (percent)".
class MemoryBarView : public ChartView {
    Q_OBJECT
public:
    explicit MemoryBarView(QWidget* parent = nullptr);
    /// `usedGB` peak memory per GPU, `capacityGB` usable memory per device, `label` the layout.
    void setData(double usedGB, double capacityGB, const QString& label);
    double usedGB() const { return m_used; }
    double capacityGB() const { return m_capacity; }
    void applyTheme() override;
    QString csv() const override;

private:
    void rebuild() override;
    double m_used = 0, m_capacity = 0;
    QString m_label;
    QHorizontalStackedBarSeries* m_series = nullptr;
    QBarCategoryAxis* m_categories = nullptr;
    QValueAxis* m_value = nullptr;
};

}  // namespace tandem::ui
