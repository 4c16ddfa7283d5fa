#include "ui/mlforml/network_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "ui/mlforml/fabric_controls.h"
#include "ui/mlforml/network_advanced.h"
#include "ui/widgets/control_rows.h"
#include "ui/widgets/labeled_slider.h"

namespace tandem::ui {

NetworkControls::NetworkControls(QWidget* parent) : QWidget(parent) {
    const ClusterBox cluster =
        addClusterBox(this, tr("Cluster and traffic"), QStringLiteral("networkLinkCluster"));
    m_link = cluster.link;
    m_background = addCountSlider(
        cluster.rows,
        {QStringLiteral("backgroundSlider"), tr("Co-running jobs N"), tr("job"), tr("jobs"), 0, 32,
         paramRowTooltip(
             {QStringLiteral("background_jobs"),
              {},
              {},
              tr("Background traffic: number of co-running data-parallel jobs (GPT-1B by default) "
                 "that share the fabric with the foreground job. Scenario 1 of [2608.06046 Sec. "
                 "3.2] uses N = 4, 8, 12, 16.")})},
        cluster.box);
    // Log scale: each doubling the same slider length.
    m_nodes = addCountSlider(
        cluster.rows,
        {QStringLiteral("nodesSlider"), tr("Foreground nodes"), tr("node"), tr("nodes"), 1, 128,
         paramRowTooltip({QStringLiteral("foreground_nodes"),
                          {},
                          {},
                          tr("Cluster size: nodes of the foreground GPT-2 Large data-parallel job "
                             "(8 GPUs each). Its inter-node ring moves 2(n-1)/n of the gradient "
                             "per node [MODEL.md A3]; calibrated default 46 (Fig. 2a shares).")}),
         true},
        cluster.box);
    // A typable count beside the co-running-jobs slider, as in the MoE workspace: twelve jobs
    // are "12" typed, not twelve key presses (the box moves the slider: one edit, one undo step).
    m_background->addNumberBox(QStringLiteral(" ") + tr("jobs"));
    auto* form = new QFormLayout;
    cluster.rows->addLayout(form);
    m_fabric = m_rows.add(
        form, {QStringLiteral("fabric_GBps"), tr("Fabric"), tr(" GB/s"),
               tr("Shared fabric capacity in GB/s (1e9 bytes/s) that every inter-node flow "
                  "crosses on the paper-fabric topology; max-min fair sharing [MODEL.md A3]. "
                  "Calibrated to Fig. 2a of [2608.06046].")});
    m_nic = m_rows.add(
        form, {QStringLiteral("nic_GBps"), tr("NIC per node"), tr(" GB/s"),
               tr("NIC rate per node in GB/s (12.5 GB/s = 100 Gb/s) [MODEL.md A3]; calibrated to "
                  "the p95 background volumes of [2608.06046 Sec. 3.2]."),
               1});
    // Bandwidths span decades: the arrow keys step by one unit of the value's leading digit
    // (100 -> 110, 1000 -> 1100), a log-like step.
    for (QDoubleSpinBox* b : {m_fabric, m_nic})
        b->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    m_fabricControls = new FabricControls(cluster.box);
    cluster.rows->addWidget(m_fabricControls);
    m_advanced = new NetworkAdvanced(this);
    cluster.panel->addWidget(m_advanced);

    auto* view = new QGroupBox(tr("Loss chart"), this);
    auto* vl = new QFormLayout(view);
    m_target = new QComboBox(view);
    m_target->setToolTip(
        tr("Target loss as a multiple of L_min = 2.5505 nats (Static's final loss); the "
           "paper reports first-crossing times at 1.005, 1.01, 1.015, 1.02 x L_min "
           "[2608.06046 Sec. 3.3]."));
    vl->addRow(tr("Target"), m_target);
    m_xAxis = new QComboBox(view);
    m_xAxis->addItems({tr("Wall-clock"), tr("Optimizer updates")});
    m_xAxis->setToolTip(
        tr("Wall-clock shows what the policies optimise (first-crossing time); updates shows "
           "the statistical efficiency of each knob choice."));
    vl->addRow(tr("X axis"), m_xAxis);
    m_logX = new QCheckBox(tr("Logarithmic x"), view);
    vl->addRow(QString(), m_logX);
    m_smoothing = new LabeledSlider(
        tr("Smoothing"), tr("%1 %"), 0, 95, 5,
        tr("Time-weighted exponential smoothing: respects uneven spacing of points "
           "in wall-clock (a plain EMA does not)."),
        view);
    vl->addRow(m_smoothing);
    cluster.panel->addWidget(view);

    auto* policies = new QGroupBox(tr("Policies [2608.06046 Table 2]"), this);
    m_policyBox = new QVBoxLayout(policies);
    cluster.panel->addWidget(policies);

    m_pin = makePinButton(this);
    cluster.panel->addWidget(m_pin);
    cluster.panel->addStretch();

    connect(m_background, &LabeledSlider::valueChanged, this,
            &NetworkControls::engineInputsChanged);
    connect(m_nodes, &LabeledSlider::valueChanged, this, &NetworkControls::engineInputsChanged);
    connect(m_fabric, &QDoubleSpinBox::valueChanged, this, &NetworkControls::engineInputsChanged);
    connect(m_nic, &QDoubleSpinBox::valueChanged, this, &NetworkControls::engineInputsChanged);
    connect(m_advanced, &NetworkAdvanced::engineInputsChanged, this,
            &NetworkControls::engineInputsChanged);
    connect(m_fabricControls, &FabricControls::engineInputsChanged, this, [this]() {
        refreshFabricCapacity();
        emit engineInputsChanged();
    });
    connect(m_target, &QComboBox::currentIndexChanged, this, &NetworkControls::viewOptionsChanged);
    connect(m_xAxis, &QComboBox::currentIndexChanged, this, &NetworkControls::viewOptionsChanged);
    connect(m_logX, &QCheckBox::toggled, this, &NetworkControls::viewOptionsChanged);
    connect(m_smoothing, &LabeledSlider::valueChanged, this, &NetworkControls::viewOptionsChanged);
}

void NetworkControls::rebuildPolicyToggles(const std::vector<mlforml::PolicySpec>& policies) {
    QStringList names;
    for (const auto& p : policies) names << QString::fromStdString(p.label());
    const QStringList have = m_policyToggles.keys();
    if (QSet<QString>(names.begin(), names.end()) == QSet<QString>(have.begin(), have.end()))
        return;
    qDeleteAll(m_policyToggles);
    m_policyToggles.clear();
    for (const QString& name : names) {
        auto* box = new QCheckBox(name, this);
        box->setChecked(true);
        box->setToolTip(tr("Show or hide %1 in the loss chart").arg(name));
        connect(box, &QCheckBox::toggled, this, &NetworkControls::viewOptionsChanged);
        m_policyBox->addWidget(box);
        m_policyToggles.insert(name, box);
    }
}

void NetworkControls::setParams(const mlforml::Params& p, int shownN) {
    const QSignalBlocker blockTarget(m_target);
    m_background->setValueSilently(shownN);
    m_nodes->setValueSilently(p.foregroundNodes);
    m_rows.show(p);
    const int oldTarget = m_target->currentIndex();
    m_target->clear();
    for (double f : p.targetFactors) m_target->addItem(tr("%1 x L_min").arg(f));
    m_target->setCurrentIndex(oldTarget >= 0 && oldTarget < m_target->count()
                                  ? oldTarget
                                  : std::min(1, m_target->count() - 1));
    rebuildPolicyToggles(p.policies);
    m_advanced->setParams(p);
    m_fabricControls->setParams(p);
    refreshFabricCapacity();
    const bool sweep = p.scenario == mlforml::ScenarioKind::Sweep;
    m_background->setDisabledReason(sweep ? QString()
                                          : tr("the scenario's background is '%1' (Poisson "
                                               "arrivals or a measured trace), not a fixed N")
                                                .arg(QString::fromUtf8(mlforml::name(p.scenario))));
}

void NetworkControls::applyTo(mlforml::Params& p) const {
    p.foregroundNodes = m_nodes->value();
    m_rows.applyTo(p);
    m_advanced->applyTo(p);
    m_fabricControls->applyTo(p);
}

void NetworkControls::refreshFabricCapacity() {
    // The single shared capacity is the paper-fabric's; a leaf/spine fabric has its own links.
    const bool shared = !m_fabricControls->leafSpine();
    setDisabledReason(m_fabric,
                      shared ? QString()
                             : tr("a leaf/spine fabric has its own link capacities (topology %1)")
                                   .arg(m_fabricControls->topologyBox()->currentText()));
}

int NetworkControls::shownBackgroundJobs() const { return m_background->value(); }

void NetworkControls::setViewHints(int targetIndex, bool updatesAxis) {
    {
        const QSignalBlocker b1(m_target), b2(m_xAxis);
        if (targetIndex >= 0 && targetIndex < m_target->count())
            m_target->setCurrentIndex(targetIndex);
        m_xAxis->setCurrentIndex(updatesAxis ? 1 : 0);
    }
    emit viewOptionsChanged();
}

int NetworkControls::targetIndex() const { return std::max(0, m_target->currentIndex()); }

LossViewOptions NetworkControls::viewOptions() const {
    LossViewOptions o;
    o.updatesAxis = m_xAxis->currentIndex() == 1;
    o.logX = m_logX->isChecked();
    o.smoothing = m_smoothing->value() / 100.0;
    o.targetIndex = targetIndex();
    for (auto it = m_policyToggles.begin(); it != m_policyToggles.end(); ++it)
        if (!it.value()->isChecked()) o.hiddenPolicies.insert(it.key());
    return o;
}

}  // namespace tandem::ui
