#pragma once
// The cluster-optimal model's card: geometry, sparsity, tokens, MFU and layout [2608.10605 Table
// 4].
#include <QLabel>

#include "mosaic/search.h"

namespace tandem::ui {

/// Rich-text summary of one candidate (the optimum or the one selected in the table):
/// L, E, K, G, N_act, N_tot, S, D, MFU, iteration time, memory, layout (TP/EP/PP/CP/DP/mbs).
class OptimumCard : public QLabel {
    Q_OBJECT
public:
    explicit OptimumCard(QWidget* parent = nullptr);
    /// `title` e.g. "Cluster-optimal model"; `naiveLoss` the compute-optimal choice re-scored on
    /// the cluster (NaN = infeasible there).
    void setCandidate(const mosaic::Candidate& c, const QString& title,
                      double computeOptimalSparsity, double naiveLoss);
    void clearCandidate(const QString& why);
};

/// "14.5 B" style count formatting (parameters, tokens).
QString formatCount(double n);

/// Gives `label` the look of a side-panel card: the object name, rich text, word wrap,
/// top-left alignment, a styled frame, a 6 px margin and selectable text.
void styleCardLabel(QLabel* label, const QString& objectName);

}  // namespace tandem::ui
