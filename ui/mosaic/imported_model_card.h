#pragma once
// Side-panel card of the MoE workspace: each imported model costed on the cluster (best layout,
// MFU, memory per GPU, loss) next to the cluster-optimal configuration [2608.10605 Sec. 5, 7].
#include <QLabel>
#include <optional>
#include <vector>

#include "mosaic/search.h"
#include "ui/mosaic/imported_model.h"

namespace tandem::ui {

/// Rich-text card, hidden while no model is imported. One block per imported model: N_tot,
/// N_act, S, best layout (TP/EP/PP/CP/DP/micro-batch, checkpointing), MFU, iteration time,
/// memory per GPU against the device's usable memory, D and the Eq. 10 loss; then one line with
/// the cluster-optimal candidate's S, MFU, memory and loss for comparison.
class ImportedModelCard : public QLabel {
    Q_OBJECT
public:
    explicit ImportedModelCard(QWidget* parent = nullptr);
    /// `optimum` the cluster-optimal candidate (nullopt: none feasible); `deviceMemoryGB` usable
    /// memory per GPU, GB.
    void setModels(const std::vector<ImportedModelPoint>& models,
                   const std::optional<mosaic::Candidate>& optimum, double deviceMemoryGB);
};

}  // namespace tandem::ui
