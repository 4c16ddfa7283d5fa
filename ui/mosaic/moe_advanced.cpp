#include "ui/mosaic/moe_advanced.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <algorithm>

#include "mosaic/hardware.h"
#include "mosaic/perf_model.h"
#include "mosaic/stack.h"
#include "mosaic/stack_file.h"
#include "ui/mosaic/envelope_rows.h"
#include "ui/widgets/collapsible_section.h"
#include "ui/widgets/count_label.h"

namespace tandem::ui {

MoeAdvanced::MoeAdvanced(QWidget* parent)
    : QWidget(parent), m_section(fillWithSection(this, tr("Advanced"))) {
    QFormLayout* f = m_section->form();
    QWidget* body = f->parentWidget();

    m_hardware = new QComboBox(body);
    for (const std::string& name : mosaic::hardwareNames()) {
        const mosaic::Hardware h = mosaic::builtinHardware(name);
        m_hardware->addItem(QString::fromStdString(name), QString::fromStdString(name));
        m_hardware->setItemData(m_hardware->count() - 1,
                                tr("%1: %2 per node, %3 TFLOP/s BF16 dense, %4 GB usable")
                                    .arg(QString::fromStdString(h.description),
                                         countLabel(h.gpusPerNode, tr("GPU"), tr("GPUs")))
                                    .arg(h.peakFlops / 1e12, 0, 'f', 0)
                                    .arg(h.memoryBytes / 1e9, 0, 'f', 0),
                                Qt::ToolTipRole);
    }
    m_hardware->setToolTip(
        tr("GPU node type: peak FLOP/s, memory, NVLink and NIC bandwidth of the performance model "
           "[2608.10605 Table 3: p6-b200, 8 x B200]. Files in resources/hardware/."));
    f->addRow(tr("GPU type"), m_hardware);
    m_stack = new QComboBox(body);
    m_stack->setObjectName(QStringLiteral("moeStack"));
    for (const std::string& name : mosaic::stackNames()) {
        const QString n = QString::fromStdString(name);
        m_stack->addItem(n, n);
        // The stack's own description (core/mosaic/stack.cpp), one text for every stack.
        m_stack->setItemData(m_stack->count() - 1,
                             QString::fromStdString(mosaic::builtinStack(name).description),
                             Qt::ToolTipRole);
    }
    m_stack->setToolTip(tr(
        "Training stack: the software efficiencies, overlap, memory and layout rules applied on "
        "top of the GPU type (scenario key mosaic.stack). mosaic-paper: the paper's basic stack; "
        "megatron-core: calibrated to measured Megatron-Core runs."));
    f->addRow(tr("Training stack"), m_stack);
    m_stackNote = new QLabel(body);
    m_stackNote->setObjectName(QStringLiteral("moeStackNote"));
    m_stackNote->setWordWrap(true);
    m_stackNote->setVisible(false);
    f->addRow(QString(), m_stackNote);
    m_precision = new QComboBox(body);
    m_precision->setObjectName(QStringLiteral("moePrecision"));
    for (int i = 0; i < mosaic::kPrecisionCount; ++i)
        m_precision->addItem(
            QString::fromLatin1(mosaic::precisionName(mosaic::Precision(i))).toUpper(), i);
    m_precision->setToolTip(
        tr("Compute precision of the linear layers (GEMMs), at the GPU's peak for it; attention, "
           "the LM head, the router and the norms stay in BF16 (scenario key mosaic.precision). "
           "Precisions the GPU type has no peak for are disabled."));
    f->addRow(tr("GEMM precision"), m_precision);
    m_precisionNote = new QLabel(body);
    m_precisionNote->setObjectName(QStringLiteral("moePrecisionNote"));
    m_precisionNote->setWordWrap(true);
    m_precisionNote->setVisible(false);
    f->addRow(m_precisionNote);
    m_seqLen = new QComboBox(body);
    for (int t : {1024, 2048, 4096, 8192})
        m_seqLen->addItem(countLabel(t, tr("token"), tr("tokens")), t);
    m_seqLen->setToolTip(envelopeTooltip(
        QStringLiteral("seq_len_tokens"),
        tr("Sequence length T_seq in tokens; activations and attention cost grow with it "
           "[2608.10605 Table 3: 2048].")));
    f->addRow(tr("Sequence length"), m_seqLen);
    m_goodput = addEnvelopeRow(
        f, {QStringLiteral("goodput"), tr("Goodput eta_good"), QString(),
            tr("Fraction of the window spent on useful steps (failures, restarts, evaluation "
               "cost the rest); D* = F_peak N_dev T_train MFU eta_good / (6 N_act) [2608.10605 "
               "Eq. 25]."),
            2, 0.05});
    m_minSparsity = addEnvelopeRow(
        f, {QStringLiteral("min_sparsity"), tr("Minimum sparsity"), QString(),
            tr("Geometries with S below this are not searched [2608.10605 Table 3: S >= 0.7]."), 3,
            0.05});
    m_tppMin = addEnvelopeRow(
        f, {QStringLiteral("tokens_per_parameter_min"), tr("Tokens/param min"), QString(),
            tr("Lower bound of D / N_act accepted [2608.10605 Sec. 7.3: 40]."), 0, 5});
    m_tppMax = addEnvelopeRow(
        f, {QStringLiteral("tokens_per_parameter_max"), tr("Tokens/param max"), QString(),
            tr("D is capped at TPP_max N_act [2608.10605 Sec. 7.3: 150]."), 0, 5});
    m_budget = addEnvelopeRow(
        f,
        {QStringLiteral("compute_budget_flops"), tr("C_model"), tr(" e21 FLOPs"),
         tr("Model-FLOPs budget of the compute-optimal frontier, units of 1e21 FLOPs; 0 = "
            "follow the cluster (C_peak eta_good x 12.38 % MFU, Table 4) [2608.10605 Eq. "
            "16]."),
         2, 0.1, 1e21},
        1e6);
    m_budget->setSpecialValueText(tr("auto (from cluster)"));
    {
        // The box is at least as wide as its special text, so the row goes under its label
        // where the side panel has no room beside it (the text was cut at its left).
        QDoubleSpinBox probe;
        probe.setFont(m_budget->font());
        probe.setRange(0, 0);
        probe.setSpecialValueText(m_budget->specialValueText());
        m_budget->setMinimumWidth(
            std::max(m_budget->minimumWidth(), probe.minimumSizeHint().width()));
    }

    connect(m_hardware, &QComboBox::currentIndexChanged, this, [this]() {
        refreshPrecisions();
        emit engineInputsChanged();
    });
    connect(m_stack, &QComboBox::currentIndexChanged, this, &MoeAdvanced::refreshStackNote);
    connect(m_stack, &QComboBox::currentIndexChanged, this, &MoeAdvanced::engineInputsChanged);
    connect(m_precision, &QComboBox::currentIndexChanged, this, [this]() {
        refreshPrecisions();
        emit engineInputsChanged();
    });
    connect(m_seqLen, &QComboBox::currentIndexChanged, this, &MoeAdvanced::engineInputsChanged);
    for (QDoubleSpinBox* b : {m_goodput, m_minSparsity, m_tppMin, m_tppMax, m_budget})
        connect(b, &QDoubleSpinBox::valueChanged, this, &MoeAdvanced::engineInputsChanged);
}

mosaic::Hardware MoeAdvanced::shownHardware() const {
    const std::string name = m_hardware->currentData().toString().toStdString();
    if (name == m_loadedHardwareSheet.name) return m_loadedHardwareSheet;
    for (const std::string& n : mosaic::hardwareNames())
        if (n == name) return mosaic::builtinHardware(name);
    return m_loadedHardwareSheet;
}

void MoeAdvanced::refreshPrecisions() {
    const mosaic::Hardware h = shownHardware();
    auto* model = qobject_cast<QStandardItemModel*>(m_precision->model());
    for (int i = 0; i < m_precision->count(); ++i) {
        const auto p = mosaic::Precision(m_precision->itemData(i).toInt());
        const double peak = mosaic::precisionPeakFlops(h, p);
        if (model) model->item(i)->setEnabled(peak > 0);
        m_precision->setItemData(
            i,
            peak > 0 ? tr("%1 TFLOP/s dense per GPU on %2")
                           .arg(peak / 1e12, 0, 'f', 0)
                           .arg(QString::fromStdString(h.name))
                     : tr("%1 has no %2 peak")
                           .arg(QString::fromStdString(h.name), m_precision->itemText(i)),
            Qt::ToolTipRole);
    }
    const auto current = mosaic::Precision(m_precision->currentData().toInt());
    const bool unsupported = mosaic::precisionPeakFlops(h, current) <= 0;
    m_precisionNote->setText(
        unsupported ? tr("%1 has no %2 peak: no layout can run. Choose another precision or "
                         "GPU type.")
                          .arg(QString::fromStdString(h.name), m_precision->currentText())
                    : QString());
    m_precisionNote->setStyleSheet(QStringLiteral("color: #D55E00;"));
    m_precisionNote->setVisible(unsupported);
}

void MoeAdvanced::setEnvelope(const mosaic::Envelope& e) {
    const QSignalBlocker b1(m_hardware), b2(m_seqLen), b3(m_goodput), b4(m_minSparsity),
        b5(m_tppMin), b6(m_tppMax), b7(m_budget), b8(m_stack), b9(m_precision);
    m_loadedHardwareSheet = e.hardware;
    m_loadedHardware = QString::fromStdString(e.hardware.name);
    int idx = m_hardware->findData(m_loadedHardware);
    if (idx < 0) {
        m_hardware->addItem(tr("%1 (from file)").arg(m_loadedHardware), m_loadedHardware);
        idx = m_hardware->count() - 1;
    }
    m_hardware->setCurrentIndex(idx);
    const QString stack = QString::fromStdString(e.stack.name);
    if (e.stack.calibration.runs > 0) {
        m_calibratedStack = e.stack;
        idx = m_stack->findData(stack);
        if (idx < 0) {
            m_stack->addItem(calibratedStackLabel(e.stack), stack);
            idx = m_stack->count() - 1;
        }
        m_stack->setItemData(
            idx, QString::fromStdString(mosaic::calibrationSentence(e.stack.calibration)),
            Qt::ToolTipRole);
    }
    idx = m_stack->findData(stack);
    if (idx < 0) {  // a name no list holds: shown rather than replaced
        m_stack->addItem(stack, stack);
        idx = m_stack->count() - 1;
    }
    m_stack->setCurrentIndex(idx);
    refreshStackNote();
    m_precision->setCurrentIndex(m_precision->findData(int(e.precision)));
    refreshPrecisions();
    m_loadedSeqLen = e.seqLen;
    idx = m_seqLen->findData(e.seqLen);
    if (idx < 0) {
        m_seqLen->addItem(countLabel(e.seqLen, tr("token"), tr("tokens")), e.seqLen);
        idx = m_seqLen->count() - 1;
    }
    m_seqLen->setCurrentIndex(idx);
    m_goodput->setValue(e.goodput);
    m_minSparsity->setValue(e.minSparsity);
    m_tppMin->setValue(e.tppMin);
    m_tppMax->setValue(e.tppMax);
    m_budget->setValue(e.computeBudgetFlops / 1e21);
    for (QDoubleSpinBox* b : {m_goodput, m_minSparsity, m_tppMin, m_tppMax, m_budget})
        b->setProperty("loaded", b->value());
}

QString MoeAdvanced::calibratedStackLabel(const mosaic::Stack& s) {
    const QString name = QString::fromStdString(s.name);
    return s.calibration.adopted ? tr("%1 (calibrated)").arg(name) : tr("%1 (checked)").arg(name);
}

void MoeAdvanced::offerCalibratedStack(const mosaic::Stack& s) {
    m_calibratedStack = s;
    const QString name = QString::fromStdString(s.name);
    int idx = m_stack->findData(name);
    if (idx < 0) {
        m_stack->addItem(calibratedStackLabel(s), name);
        idx = m_stack->count() - 1;
    }
    m_stack->setItemData(idx, QString::fromStdString(mosaic::calibrationSentence(s.calibration)),
                         Qt::ToolTipRole);
    if (m_stack->currentIndex() == idx) {
        refreshStackNote();
        emit engineInputsChanged();
    } else {
        m_stack->setCurrentIndex(idx);
    }
}

QString MoeAdvanced::stackNote() const { return m_stackNote->text(); }

void MoeAdvanced::refreshStackNote() {
    const bool calibrated =
        m_calibratedStack.calibration.runs > 0 &&
        m_stack->currentData().toString().toStdString() == m_calibratedStack.name;
    // The short sentence under the box; which constants were refitted in its tooltip.
    const QString name = QString::fromStdString(m_calibratedStack.name);
    const auto sentence = [&](bool withConstants) {
        return QString::fromStdString(
            mosaic::calibrationSentence(m_calibratedStack.calibration, withConstants));
    };
    m_stackNote->setText(calibrated ? tr("%1: %2").arg(name, sentence(false)) : QString());
    m_stackNote->setToolTip(calibrated ? tr("%1: %2").arg(name, sentence(true)) : QString());
    m_stackNote->setVisible(calibrated);
}

void MoeAdvanced::applyTo(mosaic::Envelope& e) const {
    const QString hw = m_hardware->currentData().toString();
    if (hw != m_loadedHardware) {
        const std::string name = hw.toStdString();
        for (const std::string& n : mosaic::hardwareNames())
            if (n == name) e.hardware = mosaic::builtinHardware(name);
    } else if (e.hardware.name != m_loadedHardwareSheet.name) {
        e.hardware = m_loadedHardwareSheet;  // back to the scenario's own GPU type
    }
    // A built-in stack by name, or the calibrated one offered.
    const std::string stack = m_stack->currentData().toString().toStdString();
    if (m_calibratedStack.calibration.runs > 0 && stack == m_calibratedStack.name)
        e.stack = m_calibratedStack;
    else if ((stack != e.stack.name || e.stack.calibration.runs > 0) &&
             mosaic::isBuiltinStack(stack))
        e.stack = mosaic::builtinStack(stack);
    e.precision = mosaic::Precision(m_precision->currentData().toInt());
    if (m_seqLen->currentData().toInt() != m_loadedSeqLen)
        e.seqLen = m_seqLen->currentData().toInt();
    auto put = [](const QDoubleSpinBox* box, double scale, double& field) {
        if (box->property("loaded").toDouble() != box->value()) field = box->value() * scale;
    };
    put(m_goodput, 1, e.goodput);
    put(m_minSparsity, 1, e.minSparsity);
    put(m_tppMin, 1, e.tppMin);
    put(m_tppMax, 1, e.tppMax);
    put(m_budget, 1e21, e.computeBudgetFlops);
    if (e.tppMin > e.tppMax) std::swap(e.tppMin, e.tppMax);  // keep the range valid while typing
}

}  // namespace tandem::ui
