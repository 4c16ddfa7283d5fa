#include "mlforml/fabric_controls.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSignalBlocker>

#include "fabric/topology.h"

namespace tandem::ui {

namespace {
const char* const kOversubscriptionTip =
    "Leaf downlink over uplink capacity of the leaf/spine fabric (scenario key "
    "ml_for_ml.topology.oversubscription, 1 = non-blocking, at most 64): a leaf's spine uplinks "
    "carry "
    "K x NIC / ratio in each direction, so traffic between leaves slows when the ratio grows "
    "[docs/MODEL-NETWORK.md].";
const char* const kPlacementTip =
    "Where the %1 sits on the leaf/spine fabric (scenario key ml_for_ml.placement.%2): packed = "
    "the lowest "
    "free nodes, leaf by leaf (least traffic through the spine); spread = round-robin over the "
    "leaves "
    "(most); random = a seeded shuffle; explicit = the node lists of the scenario file.";
const char* const kTopologyTip =
    "The network the jobs share (scenario key ml_for_ml.topology.preset). paper-fabric: the single "
    "shared "
    "capacity (Fabric GB/s) plus one NIC per node, calibrated to [2608.06046 Sec. 3.2, Fig. 2a]; "
    "leaf-spine, leaf-spine-2to1, leaf-spine-4to1: two tiers of switches with one NIC per GPU, "
    "non-blocking or 2:1 / 4:1 oversubscribed uplinks [docs/MODEL-NETWORK.md].";
const char* const kSharedReason =
    "applies to a leaf/spine fabric only; the topology is the shared paper-fabric";

// Every placement policy but Explicit (offered when the scenario lists nodes, selectData).
void fillPlacement(QComboBox* box) {
    for (const auto& e : fabric::placementPolicyNames())
        if (e.value != fabric::PlacementPolicy::Explicit)
            box->addItem(QString::fromLatin1(e.name), QString::fromLatin1(e.name));
}

void selectData(QComboBox* box, const QString& value) {
    int i = box->findData(value);
    if (i < 0) {
        box->addItem(value, value);
        i = box->count() - 1;
    }
    box->setCurrentIndex(i);
}
}  // namespace

FabricControls::FabricControls(QWidget* parent)
    : QWidget(parent),
      m_topology(new QComboBox(this)),
      m_oversubscription(new QDoubleSpinBox(this)),
      m_fgPlacement(new QComboBox(this)),
      m_bgPlacement(new QComboBox(this)) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    // A field that does not fit beside its label goes under it, so the side panel keeps its width.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_topology->setObjectName(QStringLiteral("topologyPreset"));
    for (const std::string& name : fabric::topologyPresetNames()) {
        const QString n = QString::fromStdString(name);
        m_topology->addItem(n, n);
    }
    m_topology->setToolTip(tr(kTopologyTip));
    form->addRow(tr("Topology"), m_topology);
    m_oversubscription->setObjectName(QStringLiteral("oversubscription"));
    m_oversubscription->setRange(1, 64);
    m_oversubscription->setDecimals(1);
    m_oversubscription->setSingleStep(0.5);
    m_oversubscription->setSuffix(tr(" : 1"));
    form->addRow(tr("Oversubscription"), m_oversubscription);
    fillPlacement(m_fgPlacement);
    fillPlacement(m_bgPlacement);
    m_fgPlacement->setObjectName(QStringLiteral("foregroundPlacement"));
    m_bgPlacement->setObjectName(QStringLiteral("backgroundPlacement"));
    form->addRow(tr("Foreground placement"), m_fgPlacement);
    form->addRow(tr("Background placement"), m_bgPlacement);
    refreshRows(false);

    connect(m_topology, &QComboBox::currentIndexChanged, this, [this]() {
        fabric::Topology t;
        if (fabric::topologyPreset(m_topology->currentData().toString().toStdString(), t)) {
            const QSignalBlocker block(m_oversubscription);
            m_oversubscription->setValue(t.oversubscription);
            refreshRows(t.kind == fabric::FabricKind::LeafSpine);
        }
        emit engineInputsChanged();
    });
    connect(m_oversubscription, &QDoubleSpinBox::valueChanged, this,
            &FabricControls::engineInputsChanged);
    connect(m_fgPlacement, &QComboBox::currentIndexChanged, this,
            &FabricControls::engineInputsChanged);
    connect(m_bgPlacement, &QComboBox::currentIndexChanged, this,
            &FabricControls::engineInputsChanged);
}

void FabricControls::refreshRows(bool leafSpine) {
    m_leafSpine = leafSpine;
    const QString reason = leafSpine ? QString() : tr(kSharedReason);
    m_oversubscription->setEnabled(leafSpine);
    m_oversubscription->setToolTip(
        reason.isEmpty() ? tr(kOversubscriptionTip)
                         : tr("Disabled: %1.\n%2").arg(reason, tr(kOversubscriptionTip)));
    const struct {
        QComboBox* box;
        const char* who;
        const char* key;
    } rows[] = {{m_fgPlacement, "foreground job", "foreground"},
                {m_bgPlacement, "background jobs", "background"}};
    for (const auto& row : rows) {
        const QString tip = tr(kPlacementTip).arg(tr(row.who), QString::fromLatin1(row.key));
        row.box->setEnabled(leafSpine);
        row.box->setToolTip(reason.isEmpty() ? tip : tr("Disabled: %1.\n%2").arg(reason, tip));
    }
}

void FabricControls::setParams(const mlforml::Params& p) {
    const QSignalBlocker b1(m_topology), b2(m_oversubscription), b3(m_fgPlacement),
        b4(m_bgPlacement);
    m_loadedPreset = QString::fromStdString(p.topology.preset);
    selectData(m_topology, m_loadedPreset);
    m_loadedOversubscription = p.topology.oversubscription;
    m_oversubscription->setValue(p.topology.oversubscription);
    m_loadedFg = QString::fromLatin1(fabric::name(p.placement.foreground));
    m_loadedBg = QString::fromLatin1(fabric::name(p.placement.background));
    selectData(m_fgPlacement, m_loadedFg);
    selectData(m_bgPlacement, m_loadedBg);
    refreshRows(p.topology.kind == fabric::FabricKind::LeafSpine);
}

void FabricControls::applyTo(mlforml::Params& p) const {
    const QString preset = m_topology->currentData().toString();
    if (preset != m_loadedPreset) fabric::topologyPreset(preset.toStdString(), p.topology);
    if (m_oversubscription->isEnabled() && m_oversubscription->value() != m_loadedOversubscription)
        p.topology.oversubscription = m_oversubscription->value();
    const QString fg = m_fgPlacement->currentData().toString(),
                  bg = m_bgPlacement->currentData().toString();
    const auto& names = fabric::placementPolicyNames();
    if (fg != m_loadedFg)
        p.placement.foreground =
            enumFromName(names, fg.toStdString()).value_or(p.placement.foreground);
    if (bg != m_loadedBg)
        p.placement.background =
            enumFromName(names, bg.toStdString()).value_or(p.placement.background);
}

}  // namespace tandem::ui
