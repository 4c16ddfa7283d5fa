#pragma once
// "Advanced" part of the MoE workspace's side panel: the other envelope inputs of the MOSAIC
// search [2608.10605 Table 3, Sec. 2.1, 7.3], with units and paper references.
#include <QWidget>

#include "mosaic/envelope.h"

class QComboBox;
class QDoubleSpinBox;

namespace tandem::ui {

class CollapsibleSection;

/// GPU type (built-in hardware), goodput eta_good, sequence length, minimum sparsity, the
/// tokens-per-parameter range and the compute-optimal frontier's model-FLOPs budget. Each edit
/// emits engineInputsChanged(); only edited fields are written back by applyTo().
class MoeAdvanced : public QWidget {
    Q_OBJECT
public:
    explicit MoeAdvanced(QWidget* parent = nullptr);
    void setEnvelope(const mosaic::Envelope& e);
    void applyTo(mosaic::Envelope& e) const;
    CollapsibleSection* section() const { return m_section; }
    QComboBox* hardware() const { return m_hardware; }
    QDoubleSpinBox* goodput() const { return m_goodput; }

signals:
    void engineInputsChanged();

private:
    CollapsibleSection* m_section;
    QComboBox* m_hardware;
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
