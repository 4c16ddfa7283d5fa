#pragma once
// Memory per GPU of each pipeline stage of a plan by kind against the usable device memory
// [2608.10605 Sec. 5.4, App. D.1; mosaic::PlanLayout::stages].
#include <QTableWidget>
#include <vector>

#include "mosaic/perf_model.h"

namespace tandem::ui {

/// One row per kind of pipeline stage (first, middle, last; PerfModel::stageMemory), in GB
/// (1e9 bytes): weights, gradients, optimizer state, activations, buffers (logits, all-to-all
/// and FSDP gather buffers), total and the share of the usable memory. Columns as wide as their
/// contents (never elided); read-only. Where the full headers make the table wider than it is
/// (the Plan page at 800x600), the long ones are shortened ("Grads", "Optim.", "Activ."; each
/// header's tooltip says what it counts), so that the table does not scroll sideways.
class StageMemoryTable : public QTableWidget {
    Q_OBJECT
public:
    explicit StageMemoryTable(QWidget* parent = nullptr);
    /// Shows `stages` against `usableGB` per GPU (empty: no rows).
    void setStages(const std::vector<mosaic::StageMemory>& stages, double usableGB);
    /// "1", "2 to 7", "8": the pipeline stages (1-based) a row stands for.
    static QString stageLabel(const mosaic::StageMemory& s);
    /// Whether the short headers are shown (the full ones do not fit the table's width; tests).
    bool shortHeaders() const { return m_shortHeaders; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /// Shows the full headers where the columns then fit the table's width, else the short ones;
    /// makes the table as tall as its rows, with room for a sideways scroll bar only where the
    /// columns still do not fit.
    void fitHeaders();
    bool m_shortHeaders = false;
};

}  // namespace tandem::ui
