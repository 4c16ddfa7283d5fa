#include "ui/mosaic/moe_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

#include "mosaic/background.h"
#include "ui/mosaic/cluster_unit.h"
#include "ui/mosaic/envelope_rows.h"
#include "ui/mosaic/moe_advanced.h"
#include "ui/widgets/control_rows.h"
#include "ui/widgets/count_label.h"
#include "ui/widgets/labeled_slider.h"
#include "ui/widgets/number_spin_box.h"

namespace tandem::ui {

MoeControls::MoeControls(QWidget* parent) : QWidget(parent) {
    const ClusterBox cluster =
        addClusterBox(this, tr("Cluster and budget"), QStringLiteral("moeLinkCluster"));
    m_link = cluster.link;
    // Log scales: each doubling of the cluster gets the same slider length; the window steps in
    // half days below a week.
    m_nodes = addCountSlider(
        cluster.rows,
        {QStringLiteral("moeNodesSlider"), tr("Cluster size"), tr("node"), tr("nodes"), 1, 256,
         envelopeTooltip(
             QStringLiteral("nodes"),
             tr("Nodes of the training cluster (p6-b200: 8 x B200 each). Table 3 of [2608.10605] "
                "uses 32 nodes (256 GPUs); Fig. 1 uses 4 nodes. More nodes deliver more tokens D* "
                "in the window (Eq. 25) but need more parallelism per layout.")),
         true},
        cluster.box);
    m_days = addCountSlider(
        cluster.rows,
        {QStringLiteral("moeDaysSlider"), tr("Training window"), tr("day"), tr("days"), 1, 90,
         envelopeTooltip(QStringLiteral("days"),
                         tr("Wall-clock training window T_train in days; D* = F_peak N_dev "
                            "T_train MFU eta_good / (6 N_act) [2608.10605 Eq. 25]. Table 3: 20 "
                            "days; Fig. 1: 5 days."))},
        cluster.box);
    m_days->setStops({1,  1.5, 2,  2.5, 3,  3.5, 4,  5,  6,  7,  8,  10, 12, 14,
                      16, 18,  20, 25,  30, 35,  40, 45, 50, 60, 70, 80, 90},
                     dayLabel);
    auto* form = new QFormLayout;
    m_batch = new QComboBox(cluster.box);
    for (int b : {256, 512, 1024, 2048, 4096})
        m_batch->addItem(countLabel(b, tr("sequence"), tr("sequences")), b);
    m_batch->setToolTip(envelopeTooltip(
        QStringLiteral("global_batch_sequences"),
        tr("Global batch B_global in sequences of T_seq tokens; sets the number of microbatches "
           "n_mb = B_global / (DP B_micro) and so the pipeline bubble (Eq. 12) [2608.10605 Table "
           "3: 1024].")));
    form->addRow(tr("Global batch"), m_batch);
    cluster.rows->addLayout(form);
    m_coRunning = addCountSlider(
        cluster.rows,
        {QStringLiteral("moeCoRunningSlider"), tr("Co-running jobs"), tr("job"), tr("jobs"), 0, 64,
         backgroundTooltip(
             "jobs",
             tr("Data-parallel jobs sharing the cluster's leaf/spine fabric with the MoE job "
                "(default fabric leaf-spine-4to1). The fluid network of [2608.06046 Sec. 3.2] "
                "turns their traffic into slower collectives for the MoE job, which the "
                "performance model uses as it uses measured nccl-tests curves [2608.10605 Sec. "
                "5.3]. 0 = an idle network. The slider stops at the jobs the fabric holds."))},
        cluster.box);
    // Typable counts beside the sliders: a cluster of 512 GPUs is 64 nodes typed, not a dozen
    // stops dragged; eight co-running jobs are "8", not eight key presses.
    m_nodes->addNumberBox(QStringLiteral(" ") + tr("nodes"));
    m_coRunning->addNumberBox(QStringLiteral(" ") + tr("jobs"));
    auto* coForm = new QFormLayout;
    m_coRunningNodes = new IntSpinBox(cluster.box);
    m_coRunningNodes->setObjectName(QStringLiteral("moeCoRunningNodes"));
    m_coRunningNodes->setSuffix(tr(" nodes"));
    setBackgroundJobBox(m_coRunningNodes, "nodes",
                        tr("Nodes of each co-running job; its gradient all-reduce rings over "
                           "them. GPT-1B default: 8 nodes."));
    coForm->addRow(tr("Nodes per job"), m_coRunningNodes);
    cluster.rows->addLayout(coForm);
    m_advanced = new MoeAdvanced(this);
    cluster.panel->addWidget(m_advanced);
    m_pin = makePinButton(this);
    cluster.panel->addWidget(m_pin);

    connect(m_nodes, &LabeledSlider::valueChanged, this, &MoeControls::engineInputsChanged);
    connect(m_days, &LabeledSlider::valueChanged, this, &MoeControls::engineInputsChanged);
    connect(m_batch, &QComboBox::currentIndexChanged, this, &MoeControls::engineInputsChanged);
    connect(m_coRunning, &LabeledSlider::valueChanged, this, [this](int jobs) {
        m_coRunningNodes->setEnabled(jobs > 0);
        emit engineInputsChanged();
    });
    connect(m_coRunningNodes, &QSpinBox::valueChanged, this, &MoeControls::engineInputsChanged);
    connect(m_advanced, &MoeAdvanced::engineInputsChanged, this, &MoeControls::engineInputsChanged);
}

void MoeControls::setEnvelope(const mosaic::Envelope& e) {
    m_nodes->setValueSilently(e.nodes);
    m_days->setNumberSilently(e.days);
    const QSignalBlocker block(m_batch);
    int idx = m_batch->findData(e.globalBatch);
    if (idx < 0) {
        m_batch->addItem(countLabel(e.globalBatch, tr("sequence"), tr("sequences")), e.globalBatch);
        idx = m_batch->count() - 1;
    }
    m_batch->setCurrentIndex(idx);
    m_hadBackground = e.background.has_value();
    const mosaic::BackgroundLoad& shown = mosaic::backgroundOrIdle(e);
    m_coRunning->setValueSilently(shown.jobs);
    {
        const QSignalBlocker blockNodes(m_coRunningNodes);
        m_coRunningNodes->setValue(shown.job.nodes);
    }
    m_coRunningNodes->setEnabled(shown.jobs > 0);
    m_advanced->setEnvelope(e);
    showFabricCapacity(e);
    showClusterUnit(e.hardware);
}

void MoeControls::showClusterUnit(const mosaic::Hardware& h) {
    const ClusterUnit unit = clusterUnit(h);
    m_nodes->setValueText([unit](int v) { return clusterSizeText(v, unit); });
    m_nodes->numberBox()->setSuffix(QStringLiteral(" ") + unit.plural);
}

void MoeControls::showFabricCapacity(const mosaic::Envelope& e) {
    const int most = mosaic::maxBackgroundJobs(mosaic::backgroundOrIdle(e), e.nodes);
    m_coRunning->setRange(0, std::max(1, most));
    m_coRunning->setValueNote(m_coRunning->value() > most ? tr("the fabric holds %1").arg(most)
                                                          : QString());
}

void MoeControls::applyTo(mosaic::Envelope& e) const {
    e.nodes = m_nodes->value();
    e.days = m_days->number();
    e.globalBatch = m_batch->currentData().toInt();
    // A background section is written once jobs are chosen (or when the file had one).
    if (m_coRunning->value() > 0 || m_hadBackground) {
        if (!e.background) e.background.emplace();
        e.background->jobs = m_coRunning->value();
        e.background->job.nodes = m_coRunningNodes->value();
    } else {
        e.background.reset();
    }
    m_advanced->applyTo(e);
}

}  // namespace tandem::ui
