#pragma once
// "Advanced" part of the network workspace's side panel: every other engine input of the
// ML-for-ML scenario [2608.06046 Sec. 2-3; MODEL.md A3-A5], with units and paper references.
#include <QWidget>

#include "mlforml/params.h"
#include "ui/mlforml/param_rows.h"

class QDoubleSpinBox;

namespace tandem::ui {

class CollapsibleSection;

/// Background job model, Poisson arrivals (enabled for scenario "poisson" only), foreground
/// job, congestion control and overlap, controller timing, progress model and seed. Each edit
/// emits engineInputsChanged(); inputs that do not apply to the loaded scenario are disabled
/// and their tooltip says why.
class NetworkAdvanced : public QWidget {
    Q_OBJECT
public:
    explicit NetworkAdvanced(QWidget* parent = nullptr);
    /// Shows `p` (no signals) and enables what applies to its scenario kind.
    void setParams(const mlforml::Params& p);
    /// Writes every control the user changed since setParams into `p` (SI units); the others
    /// keep p's values.
    void applyTo(mlforml::Params& p) const;
    CollapsibleSection* section() const { return m_section; }
    QDoubleSpinBox* backgroundGradient() const { return m_bgGradient; }
    QDoubleSpinBox* decisionInterval() const { return m_decision; }
    QDoubleSpinBox* arrivalRate() const { return m_arrival; }

signals:
    void engineInputsChanged();

private:
    CollapsibleSection* m_section;
    ParamRows m_rows;  ///< every box of the section, in panel order
    // The boxes that get disabled or that tests reach.
    QDoubleSpinBox* m_bgNodes;
    QDoubleSpinBox* m_bgGradient;
    QDoubleSpinBox* m_bgCompute;
    QDoubleSpinBox* m_arrival;
    QDoubleSpinBox* m_maxJobs;
    QDoubleSpinBox* m_duration;
    QDoubleSpinBox* m_decision;
    QDoubleSpinBox* m_kappa;
};

}  // namespace tandem::ui
