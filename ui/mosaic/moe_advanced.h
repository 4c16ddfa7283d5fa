#pragma once
// "Advanced" part of the MoE workspace's side panel: the other envelope inputs of the MOSAIC
// search [2608.10605 Table 3, Sec. 2.1, 7.3], with units and paper references.
#include <QWidget>

#include "mosaic/envelope.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace tandem::ui {

class CollapsibleSection;

/// GPU type (built-in hardware), training stack and GEMM precision (stack.h), goodput eta_good,
/// sequence length, minimum sparsity, the tokens-per-parameter range and the compute-optimal
/// frontier's model-FLOPs budget. Each edit emits engineInputsChanged(); only edited fields are
/// written back by applyTo().
class MoeAdvanced : public QWidget {
    Q_OBJECT
public:
    explicit MoeAdvanced(QWidget* parent = nullptr);
    void setEnvelope(const mosaic::Envelope& e);
    void applyTo(mosaic::Envelope& e) const;
    CollapsibleSection* section() const { return m_section; }
    QComboBox* hardware() const { return m_hardware; }
    QDoubleSpinBox* goodput() const { return m_goodput; }
    /// Training stack (item data: the stack name, scenario key mosaic.stack).
    QComboBox* stack() const { return m_stack; }
    /// Offers `s`, a stack calibrated to the user's runs (`tandem-cli calibrate`, stack_file.h),
    /// as "NAME (calibrated)" and selects it (engineInputsChanged follows); the note under the box
    /// then says what it was calibrated to. A stack of the same name replaces the one offered.
    void offerCalibratedStack(const mosaic::Stack& s);
    /// The note under the stack box: the calibrated stack's sentence, empty otherwise (tests).
    QString stackNote() const;
    /// GEMM precision (item data: int(mosaic::Precision), scenario key mosaic.precision). A
    /// precision the GPU type has no peak for is disabled, with a tooltip saying so; when the
    /// scenario already uses one it stays selected and precisionNote() explains why nothing fits.
    QComboBox* precision() const { return m_precision; }
    QLabel* precisionNote() const { return m_precisionNote; }

signals:
    void engineInputsChanged();

private:
    /// The hardware the GPU type box shows (built-in, or the scenario's own sheet).
    mosaic::Hardware shownHardware() const;
    /// Enables the precisions the shown hardware has a peak for and updates the note.
    void refreshPrecisions();

    CollapsibleSection* m_section;
    QComboBox* m_hardware;
    QComboBox* m_stack;
    QComboBox* m_precision;
    QLabel* m_precisionNote;
    mosaic::Hardware m_loadedHardwareSheet;
    /// "NAME (calibrated)" for calibrated stack `s`, or "NAME (checked)" when its refit was
    /// declined (StackCalibration::adopted false; the tooltip says whose constants it keeps).
    static QString calibratedStackLabel(const mosaic::Stack& s);
    /// The calibrated stack offered (calibration.runs 0: none); shown as calibratedStackLabel.
    mosaic::Stack m_calibratedStack;
    QLabel* m_stackNote;
    /// Shows m_calibratedStack's sentence under the box while it is selected.
    void refreshStackNote();
    QComboBox* m_seqLen;
    QDoubleSpinBox* m_goodput;
    QDoubleSpinBox* m_minSparsity;
    QDoubleSpinBox* m_tppMin;
    QDoubleSpinBox* m_tppMax;
    QDoubleSpinBox* m_budget;
    QString m_loadedHardware;
    int m_loadedSeqLen = 0;
};

}  // namespace tandem::ui
