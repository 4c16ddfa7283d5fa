#pragma once
// Evaluation loss against wall-clock (or optimizer updates) per policy [2608.06046 Fig. 2b].
#include <QHash>
#include <QSet>
#include <optional>
#include <vector>

#include "mlforml/simulate.h"
#include "ui/mlforml/loss_plot.h"
#include "ui/widgets/chart_view.h"

class QLineSeries;
class QScatterSeries;
class QValueAxis;
class QLogValueAxis;

namespace tandem::ui {

/// Draws lossPlot (mlforml/loss_plot.h): loss curves, one fixed colour per policy, dashed target
/// lines at f x L_min, and a marker where each policy first crosses the selected target.
/// View > Pin for comparison keeps a state as dashed grey curves (ChartView::pinCurves); the
/// wall-clock unit then holds (ChartView::stableTimeUnit). A policy whose curve coincides with an
/// earlier one's (from the data: curvesCoincide within 0.2 % of the axis spans; e.g. Joint =
/// Knob-Precision in scenario 1 [2608.06046 Fig. 2]) is drawn dashed over it, the two share one
/// legend entry "Knob-Precision = Joint" (series names and CSV keep the policy names) and its
/// first-crossing dot is drawn smaller inside the earlier one's, which shows as a ring around it.
class LossCurveView : public ChartView {
    Q_OBJECT
public:
    explicit LossCurveView(QWidget* parent = nullptr);
    /// New engine output for one background-load point. `targetLosses` in nats.
    void setData(const mlforml::PointResult& point, const std::vector<double>& targetFactors,
                 const std::vector<double>& targetLosses);
    void setOptions(const LossViewOptions& options);
    const LossViewOptions& options() const { return m_options; }
    void applyTheme() override;
    /// The labels written on the target lines, in target order ("1.02 x L_min") (tests).
    QStringList targetLabels() const;
    /// Policy names present in the last result (in engine order).
    QStringList policies() const;
    /// Per policy of the last result (engine order): the index of the earlier policy whose
    /// curve it coincides with in the current axis (coincidentWith; then drawn dashed over it,
    /// legend "Knob-Precision = Joint"), or -1. Hidden policies are -1 (tests).
    /// (Draws first when a rebuild is pending: the groups come from the drawn curves.)
    const QList<int>& coincidences() {
        ensureBuilt();
        return m_sameAs;
    }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild() override;
    /// Where a target line's label sits, as a share of the x range from its left end: 0.13, or
    /// further right where the plot is so narrow that a label centred there would be cut by the
    /// y axis (half the widest label and a margin from the left).
    double targetLabelShare() const;
    /// The target labels' font: 8 pt times chartFontScale().
    QFont targetLabelFont() const;
    /// Width of the widest target label in targetLabelFont(), px.
    double widestTargetLabel() const;
    /// Where along the x axis (a share of it) each target's label sits: `first` for all, except
    /// that a label less than a line (in the labels' font) above or below another one moves one
    /// label width to the right, so labels of close targets never cover each other (presentation
    /// mode's larger font on a short plot).
    std::vector<double> targetLabelShares(double first) const;
    /// The line series of `policy` (created on first use).
    QLineSeries* lineFor(const QString& policy);

    LossViewOptions m_options;
    std::optional<mlforml::PointResult> m_point;
    std::vector<double> m_targetFactors, m_targetLosses;
    QList<int> m_sameAs;
    QHash<QString, QLineSeries*> m_lines;
    QHash<QString, QScatterSeries*> m_markers;
    QList<QLineSeries*> m_targetLines;
    QValueAxis* m_xLinear = nullptr;
    QLogValueAxis* m_xLog = nullptr;
    QValueAxis* m_y = nullptr;
    double m_labelShare = 0.13;         ///< targetLabelShare() at the last rebuild
    std::vector<double> m_labelShares;  ///< targetLabelShares() at the last rebuild
};

}  // namespace tandem::ui
