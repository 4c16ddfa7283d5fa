#include "ui/mlforml/fabric_controls.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSignalBlocker>
#include <initializer_list>

#include "fabric/topology.h"
#include "ui/mlforml/param_rows.h"
#include "ui/widgets/field_range.h"
#include "ui/widgets/number_spin_box.h"

namespace tandem::ui {

namespace {
// What each row does; the key's path, accepted values and source follow from the field tables
// (fabric::topologyFields(), fabric::placementFields()).
const char* const kTopologyTip =
    "The network the jobs share. paper-fabric: the single shared capacity (Fabric GB/s) plus one "
    "NIC per node, calibrated to [2608.06046 Sec. 3.2, Fig. 2a]; leaf-spine, leaf-spine-2to1, "
    "leaf-spine-4to1: two tiers of switches with one NIC per GPU, non-blocking or 2:1 / 4:1 "
    "oversubscribed uplinks; rail-optimised: GPU i of every node of a 32-node scalable unit on "
    "rail leaf i (DGX SuperPOD with DGX B200); nvl72: 72-GPU NVL72 racks as nodes, 8 per "
    "rail-optimised unit (gpus_per_node 72) [docs/MODEL-NETWORK.md].";
const char* const kOversubscriptionTip =
    "Leaf downlink over uplink capacity of the leaf/spine fabric (1 = non-blocking): a leaf's "
    "spine uplinks carry K x NIC / ratio in each direction, so traffic between leaves slows when "
    "the ratio grows [docs/MODEL-NETWORK.md].";
const char* const kNodesPerLeafTip =
    "Nodes under one leaf switch (rail-optimised: nodes of one scalable unit, each cabled to "
    "every rail leaf of the unit); node n sits under leaf n / nodes_per_leaf. With the NIC rate "
    "per node and the oversubscription it sets a leaf's uplink capacity, nodes_per_leaf x NIC / "
    "ratio [docs/MODEL-NETWORK.md].";
const char* const kSpinesTip =
    "Spine switches; every leaf has one uplink bundle to each. Under hashed ECMP each flow takes "
    "one spine, so collisions share an uplink [docs/MODEL-NETWORK.md].";
const char* const kPlacementTip =
    "Where the %1 sits on the leaf/spine fabric: packed = the lowest free nodes, leaf by leaf "
    "(least traffic through the spine); spread = round-robin over the leaves (most); random = a "
    "seeded shuffle; explicit = the node lists of the scenario file.";
const char* const kSharedReason =
    "applies to a leaf/spine fabric only; the topology is the shared paper-fabric";

const fabric::TopologyField& topologyRow(const char* key) {
    return tandem::field(fabric::topologyFields(), key, "ml_for_ml.topology");
}
const fabric::PlacementField& placementRow(const char* key) {
    return tandem::field(fabric::placementFields(), key, "ml_for_ml.placement");
}

QString topologyPath(const char* key) { return QStringLiteral("ml_for_ml.topology.") + key; }

// The words of Word row `words` as the items of `box` (text and data the word); `skip` (the
// "explicit" placement, offered only when the scenario lists nodes, see selectData) left out.
void fillWords(QComboBox* box, const std::vector<std::string>& words, const std::string& skip) {
    for (const std::string& w : words)
        if (w != skip) box->addItem(QString::fromStdString(w), QString::fromStdString(w));
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
      m_oversubscription(new NumberSpinBox(this)),
      m_nodesPerLeaf(nullptr),
      m_spines(nullptr),
      m_fgPlacement(new QComboBox(this)),
      m_bgPlacement(new QComboBox(this)) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    // A field that does not fit beside its label goes under it, so the side panel keeps its width.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_topology->setObjectName(QStringLiteral("topologyPreset"));
    const fabric::TopologyField& preset = topologyRow("preset");
    fillWords(m_topology, preset.words, {});
    m_topology->setToolTip(
        wordTooltip(tr(kTopologyTip), topologyPath(preset.key), preset.words, preset.source));
    form->addRow(tr("Topology"), m_topology);
    // The integer keys, as the side panel's other key rows (range and tooltip from the table).
    const auto countRow = [&](const char* key, const QString& label, const QString& suffix,
                              const char* tip) {
        const fabric::TopologyField& f = topologyRow(key);
        const KeyRowSpec spec{QString::fromLatin1(key), label, suffix, tr(tip)};
        QDoubleSpinBox* box = addKeyRow(
            form, spec, boxRange(acceptedRange(f.range), 1, 0),
            keyTooltip(tr(tip), topologyPath(key), acceptedRange(f.range), f.unit, f.source),
            "topologyKey");
        box->setObjectName(QString::fromLatin1(key));
        return box;
    };
    m_nodesPerLeaf =
        countRow("nodes_per_leaf", tr("Nodes per leaf"), tr(" nodes"), kNodesPerLeafTip);
    m_spines = countRow("spines", tr("Spines"), QString(), kSpinesTip);
    m_oversubscription->setObjectName(QStringLiteral("oversubscription"));
    const fabric::TopologyField& ratio = topologyRow("oversubscription");
    m_oversubscription->setDecimals(1);
    const auto [lo, hi] = boxRange(acceptedRange(ratio.range), 1, m_oversubscription->decimals());
    m_oversubscription->setRange(lo, hi);
    m_oversubscription->setProperty(
        "baseToolTip", keyTooltip(tr(kOversubscriptionTip), topologyPath(ratio.key),
                                  acceptedRange(ratio.range), ratio.unit, ratio.source));
    m_oversubscription->setSingleStep(0.5);
    m_oversubscription->setSuffix(tr(" : 1"));
    form->addRow(tr("Oversubscription"), m_oversubscription);
    const std::string explicitWord = fabric::name(fabric::PlacementPolicy::Explicit);
    const struct {
        QComboBox* box;
        const char* key;
        const char* who;
    } placements[] = {{m_fgPlacement, "foreground", "foreground job"},
                      {m_bgPlacement, "background", "background jobs"}};
    for (const auto& row : placements) {
        const fabric::PlacementField& f = placementRow(row.key);
        fillWords(row.box, f.words, explicitWord);
        row.box->setProperty(
            "baseToolTip",
            wordTooltip(tr(kPlacementTip).arg(tr(row.who)),
                        QStringLiteral("ml_for_ml.placement.") + f.key, f.words, f.source));
    }
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
            const QSignalBlocker b1(m_nodesPerLeaf), b2(m_spines);
            m_nodesPerLeaf->setValue(t.nodesPerLeaf);
            m_spines->setValue(t.spines);
            refreshRows(t.kind == fabric::FabricKind::LeafSpine);
        }
        emit engineInputsChanged();
    });
    connect(m_oversubscription, &QDoubleSpinBox::valueChanged, this,
            &FabricControls::engineInputsChanged);
    connect(m_fgPlacement, &QComboBox::currentIndexChanged, this,
            &FabricControls::engineInputsChanged);
    for (QDoubleSpinBox* box : {m_nodesPerLeaf, m_spines})
        connect(box, &QDoubleSpinBox::valueChanged, this, &FabricControls::engineInputsChanged);
    connect(m_bgPlacement, &QComboBox::currentIndexChanged, this,
            &FabricControls::engineInputsChanged);
}

void FabricControls::refreshRows(bool leafSpine) {
    m_leafSpine = leafSpine;
    const QString reason = leafSpine ? QString() : tr(kSharedReason);
    for (QWidget* w : std::initializer_list<QWidget*>{m_nodesPerLeaf, m_spines, m_oversubscription,
                                                      m_fgPlacement, m_bgPlacement})
        setDisabledReason(w, reason);
}

void FabricControls::setParams(const mlforml::Params& p) {
    const QSignalBlocker b1(m_topology), b2(m_oversubscription), b3(m_fgPlacement),
        b4(m_bgPlacement), b5(m_nodesPerLeaf), b6(m_spines);
    m_loadedPreset = QString::fromStdString(p.topology.preset);
    selectData(m_topology, m_loadedPreset);
    m_loadedOversubscription = p.topology.oversubscription;
    m_oversubscription->setValue(p.topology.oversubscription);
    m_nodesPerLeaf->setValue(p.topology.nodesPerLeaf);
    m_spines->setValue(p.topology.spines);
    m_loadedNodesPerLeaf = m_nodesPerLeaf->value();
    m_loadedSpines = m_spines->value();
    m_loadedFg = QString::fromStdString(placementRow("foreground").getWord(p.placement));
    m_loadedBg = QString::fromStdString(placementRow("background").getWord(p.placement));
    selectData(m_fgPlacement, m_loadedFg);
    selectData(m_bgPlacement, m_loadedBg);
    refreshRows(p.topology.kind == fabric::FabricKind::LeafSpine);
}

void FabricControls::applyTo(mlforml::Params& p) const {
    const QString preset = m_topology->currentData().toString();
    if (preset != m_loadedPreset) mlforml::applyTopologyPreset(p, preset.toStdString());
    if (m_oversubscription->isEnabled() && m_oversubscription->value() != m_loadedOversubscription)
        p.topology.oversubscription = m_oversubscription->value();
    const struct {
        QDoubleSpinBox* box;
        double loaded;
        const char* key;
    } counts[] = {{m_nodesPerLeaf, m_loadedNodesPerLeaf, "nodes_per_leaf"},
                  {m_spines, m_loadedSpines, "spines"}};
    // A new preset brings its own values; a box edited after it (or without one) wins.
    for (const auto& c : counts)
        if (c.box->isEnabled() && c.box->value() != c.loaded &&
            c.box->value() != topologyRow(c.key).get(p.topology))
            topologyRow(c.key).set(p.topology, c.box->value());
    const QString fg = m_fgPlacement->currentData().toString(),
                  bg = m_bgPlacement->currentData().toString();
    if (fg != m_loadedFg) placementRow("foreground").setWord(p.placement, fg.toStdString());
    if (bg != m_loadedBg) placementRow("background").setWord(p.placement, bg.toStdString());
}

}  // namespace tandem::ui
