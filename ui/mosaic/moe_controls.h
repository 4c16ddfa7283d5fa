#pragma once
// Side panel of the "MoE sparsity frontier" workspace [2608.10605].
#include <QWidget>

#include "mosaic/envelope.h"

class QComboBox;
class QPushButton;

namespace tandem::ui {

class LabeledSlider;
class MoeAdvanced;

/// Cluster size (nodes), training window (days) and global batch (sequences): engine inputs of
/// the MOSAIC search; each change recomputes both frontiers. Tooltips cite [2608.10605].
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
    MoeAdvanced* advanced() const { return m_advanced; }

signals:
    void engineInputsChanged();
    void pinToggled(bool pinned);

private:
    LabeledSlider* m_nodes;
    LabeledSlider* m_days;
    QComboBox* m_batch;
    QPushButton* m_pin;
    MoeAdvanced* m_advanced;
};

}  // namespace tandem::ui
