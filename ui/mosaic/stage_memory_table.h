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
/// contents (never elided); read-only.
class StageMemoryTable : public QTableWidget {
    Q_OBJECT
public:
    explicit StageMemoryTable(QWidget* parent = nullptr);
    /// Shows `stages` against `usableGB` per GPU (empty: no rows).
    void setStages(const std::vector<mosaic::StageMemory>& stages, double usableGB);
    /// "1", "2 to 7", "8": the pipeline stages (1-based) a row stands for.
    static QString stageLabel(const mosaic::StageMemory& s);
};

}  // namespace tandem::ui
