#pragma once
// The fabric rows of the network workspace's side panel: which network the jobs share
// (topology preset), its leaf uplink oversubscription and where the jobs sit on it (placement)
// [docs/MODEL-NETWORK.md; 2608.06046 Sec. 3.2 for the single shared capacity].
#include <QWidget>

#include "mlforml/params.h"

class QComboBox;
class QDoubleSpinBox;

namespace tandem::ui {

/// Topology preset (topologyPresetNames()), leaf size (nodes_per_leaf), spine count,
/// oversubscription (leaf downlink over uplink capacity, ": 1"; with the NIC rate per node it
/// sets a leaf's uplink capacity, nodes_per_leaf x nic_GBps / ratio), foreground and background
/// placement (packed, spread, random; explicit when the scenario lists nodes). Leaf size, spines,
/// oversubscription and placement apply to a leaf/spine fabric only and are disabled, with the
/// reason in their tooltip, on the shared paper fabric. Each edit emits engineInputsChanged();
/// applyTo writes back only what was edited, so a scenario's own topology keys survive until its
/// preset is changed.
class FabricControls : public QWidget {
    Q_OBJECT
public:
    explicit FabricControls(QWidget* parent = nullptr);
    /// Shows `p.topology` and `p.placement` (no signals).
    void setParams(const mlforml::Params& p);
    /// Writes the edited controls into `p`: a new preset replaces p.topology by that preset
    /// (then the edited leaf size, spines and oversubscription are applied on top), placement
    /// modes replace p.placement's. A fabric these keys make impossible (more links than a
    /// simulation holds, fewer nodes than the jobs need) is refused by the computation with
    /// the message `tandem-cli validate` prints, naming the key.
    void applyTo(mlforml::Params& p) const;
    /// True when the shown topology is a leaf/spine fabric (its own link capacities).
    bool leafSpine() const { return m_leafSpine; }
    QComboBox* topologyBox() const { return m_topology; }
    QDoubleSpinBox* oversubscriptionBox() const { return m_oversubscription; }
    /// Topology `nodes_per_leaf` (nodes under one leaf; rail-optimised: of one scalable unit).
    QDoubleSpinBox* nodesPerLeafBox() const { return m_nodesPerLeaf; }
    /// Topology `spines`.
    QDoubleSpinBox* spinesBox() const { return m_spines; }
    QComboBox* foregroundPlacementBox() const { return m_fgPlacement; }
    QComboBox* backgroundPlacementBox() const { return m_bgPlacement; }

signals:
    void engineInputsChanged();

private:
    /// Enables the oversubscription and placement rows on a leaf/spine fabric (`leafSpine`),
    /// else disables them with the reason in their tooltips.
    void refreshRows(bool leafSpine);
    QComboBox* m_topology;
    QDoubleSpinBox* m_oversubscription;
    QDoubleSpinBox* m_nodesPerLeaf;
    QDoubleSpinBox* m_spines;
    QComboBox* m_fgPlacement;
    QComboBox* m_bgPlacement;
    QString m_loadedPreset;
    double m_loadedOversubscription = 1;
    double m_loadedNodesPerLeaf = 0, m_loadedSpines = 0;
    QString m_loadedFg, m_loadedBg;
    bool m_leafSpine = false;
};

}  // namespace tandem::ui
