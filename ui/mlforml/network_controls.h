#pragma once
// Side panel of the "Network x ML knobs" workspace: engine inputs and view options.
#include <QMap>
#include <QWidget>

#include "mlforml/params.h"
#include "ui/mlforml/loss_curve_view.h"
#include "ui/mlforml/param_rows.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QPushButton;
class QVBoxLayout;

namespace tandem::ui {

class LabeledSlider;
class FabricControls;
class NetworkAdvanced;

/// Controls for [2608.06046]: background traffic (co-running jobs N), foreground nodes, fabric
/// and NIC bandwidth (engine inputs: change -> recompute) and the loss chart's view options
/// (target, policy toggles, x-axis, smoothing: change -> redraw only). Every control carries a
/// tooltip with its unit and the paper section it comes from.
class NetworkControls : public QWidget {
    Q_OBJECT
public:
    explicit NetworkControls(QWidget* parent = nullptr);

    /// Shows `p` in the controls (no signals). `shownN` is the background-job count to display.
    void setParams(const mlforml::Params& p, int shownN);
    /// Writes the engine inputs of the controls into `p` (nodes; fabric, NIC and the advanced
    /// inputs when changed since setParams); N is separate.
    void applyTo(mlforml::Params& p) const;
    /// The background-job count selected on the slider.
    int shownBackgroundJobs() const;
    LossViewOptions viewOptions() const;
    int targetIndex() const;
    /// Sets the view options a preset asks for (emits viewOptionsChanged once).
    void setViewHints(int targetIndex, bool updatesAxis);

    LabeledSlider* backgroundSlider() const { return m_background; }
    LabeledSlider* nodesSlider() const { return m_nodes; }
    /// "Same cluster in both workspaces" (the main window's ClusterLink; checked state only).
    QCheckBox* linkBox() const { return m_link; }
    /// "Pin for comparison" (the main window's View > Pin for comparison; checked while pinned).
    QPushButton* pinButton() const { return m_pin; }
    NetworkAdvanced* advanced() const { return m_advanced; }
    /// Topology, oversubscription and placement rows.
    FabricControls* fabricControls() const { return m_fabricControls; }
    /// The shared fabric capacity box (GB/s; disabled on a leaf/spine topology).
    QDoubleSpinBox* fabricCapacityBox() const { return m_fabric; }

signals:
    void engineInputsChanged();
    void viewOptionsChanged();

private:
    void rebuildPolicyToggles(const std::vector<mlforml::PolicySpec>& policies);

    LabeledSlider* m_background;
    LabeledSlider* m_nodes;
    ParamRows m_rows;  ///< fabric and NIC
    QDoubleSpinBox* m_fabric;
    QDoubleSpinBox* m_nic;
    QComboBox* m_target;
    QComboBox* m_xAxis;
    QCheckBox* m_logX;
    QCheckBox* m_link;
    LabeledSlider* m_smoothing;
    QPushButton* m_pin;
    NetworkAdvanced* m_advanced;
    FabricControls* m_fabricControls;
    /// Enables the shared-capacity box on the paper-fabric, disables it (reason in the tooltip)
    /// on a leaf/spine topology.
    void refreshFabricCapacity();
    QVBoxLayout* m_policyBox;
    QMap<QString, QCheckBox*> m_policyToggles;
};

}  // namespace tandem::ui
