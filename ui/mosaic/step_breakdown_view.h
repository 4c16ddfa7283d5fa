#pragma once
// Iteration (step) time by component as stacked bars [2608.10605 Sec. 5, Eq. 11-15].
#include <QList>
#include <QPair>

#include "mosaic/perf_model.h"
#include "ui/widgets/chart_view.h"

class QBarCategoryAxis;
class QHorizontalStackedBarSeries;
class QValueAxis;

namespace tandem::ui {

/// One horizontal stacked bar per (label, Breakdown): compute, dispatch, all-to-all, DP,
/// bubble, vocab and other (TP/CP/pipeline/optimizer), in seconds per iteration; the parts sum
/// to PlanEval::iteration_s. Typically the selected layout and, for comparison, the cluster
/// optimum's.
class StepBreakdownView : public ChartView {
    Q_OBJECT
public:
    /// `exportName`: the chart's file name stem (a second instance needs its own).
    explicit StepBreakdownView(QWidget* parent = nullptr,
                               const QString& exportName = QStringLiteral("mosaic-step-breakdown"));
    void setData(const QList<QPair<QString, mosaic::Breakdown>>& bars);
    void applyTheme() override;
    /// Component values (s) of bar `bar` in legend order (tests).
    QList<double> values(int bar) const;
    /// Component names in legend order.
    static QStringList componentNames();

private:
    void rebuild() override;
    QList<QPair<QString, mosaic::Breakdown>> m_bars;
    QHorizontalStackedBarSeries* m_series = nullptr;
    QBarCategoryAxis* m_categories = nullptr;
    QValueAxis* m_value = nullptr;
};

}  // namespace tandem::ui
