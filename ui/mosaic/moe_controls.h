#pragma once
// Side panel of the "MoE sparsity frontier" workspace [2608.10605].
#include <QWidget>

#include "mosaic/envelope.h"

class QCheckBox;
class QComboBox;
class QPushButton;
class QSpinBox;

namespace tandem::ui {

class LabeledSlider;
class MoeAdvanced;

/// Cluster size (nodes), training window (days), global batch (sequences) and the co-running
/// jobs on the cluster's fabric (count and nodes each; mosaic.background): engine inputs of the
/// MOSAIC search; each change recomputes both frontiers. Tooltips cite [2608.10605].
class MoeControls : public QWidget {
    Q_OBJECT
public:
    explicit MoeControls(QWidget* parent = nullptr);
    /// Shows `e` in the controls without emitting signals.
    void setEnvelope(const mosaic::Envelope& e);
    /// Writes the controls' values into `e`.
    void applyTo(mosaic::Envelope& e) const;
    LabeledSlider* nodesSlider() const { return m_nodes; }
    LabeledSlider* daysSlider() const { return m_days; }
    QComboBox* batchCombo() const { return m_batch; }
    /// Co-running jobs on the MoE job's fabric (envelope.background.jobs; 0 with no background
    /// section keeps the network idle).
    LabeledSlider* coRunningSlider() const { return m_coRunning; }
    /// Nodes of each co-running job (envelope.background.job.nodes).
    QSpinBox* coRunningNodesBox() const { return m_coRunningNodes; }
    MoeAdvanced* advanced() const { return m_advanced; }
    /// "Same cluster in both workspaces" (the main window's ClusterLink; checked state only).
    QCheckBox* linkBox() const { return m_link; }
    /// "Pin for comparison" (the main window's View > Pin for comparison; checked while pinned).
    QPushButton* pinButton() const { return m_pin; }
    /// Marks the co-running-jobs slider with the most jobs `e`'s fabric holds beside the MoE job
    /// (mosaic::maxBackgroundJobs): the slider's range ends there and a value beyond it is shown
    /// with the note "the fabric holds N".
    void showFabricCapacity(const mosaic::Envelope& e);
    /// Labels the cluster-size slider in `h`'s unit (clusterUnit): "32 nodes", or on rack-scale
    /// hardware "4 racks (288 GPUs)"; its stops count that unit.
    void showClusterUnit(const mosaic::Hardware& h);

signals:
    void engineInputsChanged();

private:
    LabeledSlider* m_nodes;
    LabeledSlider* m_days;
    QComboBox* m_batch;
    LabeledSlider* m_coRunning;
    QSpinBox* m_coRunningNodes;
    QCheckBox* m_link;
    bool m_hadBackground = false;  ///< the loaded envelope had a background section
    QPushButton* m_pin;
    MoeAdvanced* m_advanced;
};

}  // namespace tandem::ui
