#include "ui/mosaic/stage_memory_table.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QScrollBar>
#include <algorithm>

#include "ui/widgets/field_row.h"
#include "ui/widgets/table_setup.h"

namespace tandem::ui {

namespace {
/// The headers: short ones (the unit, GB per GPU, is in the caption above the table) so that the
/// whole row fits the page, and shorter ones still for a narrow page.
QStringList headers(bool shorter) {
    const auto tr = [](const char* text) {
        return QCoreApplication::translate("tandem::ui::StageMemoryTable", text);
    };
    return {tr("Stage"),
            tr("Layers"),
            tr("Weights"),
            shorter ? tr("Grads") : tr("Gradients"),
            shorter ? tr("Optim.") : tr("Optimizer"),
            shorter ? tr("Activ.") : tr("Activations"),
            tr("Buffers"),
            tr("Total"),
            tr("Of usable")};
}

enum Col {
    Stage,
    Layers,
    Weights,
    Gradients,
    Optimizer,
    Activations,
    Buffers,
    Total,
    Share,
    NCols
};
}  // namespace

StageMemoryTable::StageMemoryTable(QWidget* parent) : QTableWidget(0, NCols, parent) {
    setObjectName(QStringLiteral("stageMemoryTable"));
    // Each header's tooltip says what it counts (the short headers of a narrow page too).
    setHorizontalHeaderLabels(headers(false));
    const QString tips[NCols] = {
        tr("Pipeline stages (1 = the first) this row stands for"),
        tr("Transformer blocks on each of these stages"),
        tr("BF16 parameters and low-precision weight copies, GB per GPU"),
        tr("FP32 main gradients, GB per GPU"),
        tr("FP32 master weights and AdamW moments, sharded per the stack's optimizer, GB per GPU"),
        tr("Activations of the micro-batches in flight under the checkpointing mode, GB per GPU"),
        tr("Logits of the last stage, all-to-all buffers of MoE layers, FSDP gather buffers, GB "
           "per GPU"),
        tr("Peak memory per GPU of the stage, GB"),
        tr("Total as a percentage of the device's usable memory")};
    for (int c = 0; c < NCols; ++c) horizontalHeaderItem(c)->setToolTip(tips[c]);
    setUpReadOnlyTable(this, QAbstractItemView::NoSelection);
    setToolTip(
        tr("Peak memory per GPU of each pipeline stage in GB (1e9 bytes), as `tandem-cli plan` "
           "costs it, against the device's usable memory [2608.10605 Sec. 5.4, App. D.1]"));
}

QString StageMemoryTable::stageLabel(const mosaic::StageMemory& s) {
    return s.firstStage == s.lastStage ? QString::number(s.firstStage + 1)
                                       : tr("%1 to %2").arg(s.firstStage + 1).arg(s.lastStage + 1);
}

void StageMemoryTable::setStages(const std::vector<mosaic::StageMemory>& stages, double usableGB) {
    QList<FieldRow> rows;
    const auto gb = [](double v) { return QString::number(v, 'f', 1); };
    for (const mosaic::StageMemory& s : stages)
        rows.append({stageLabel(s),
                     {QString::number(s.layers), gb(s.memory.weights), gb(s.memory.gradients),
                      gb(s.memory.optimizer), gb(s.memory.activations), gb(s.memory.other),
                      gb(s.totalGB), tr("%1 %").arg(100 * s.totalGB / usableGB, 0, 'f', 0)},
                     {}});
    setTableRows(this, rows);  // the stage left-aligned, the numbers right-aligned
    fitHeaders();
}

void StageMemoryTable::resizeEvent(QResizeEvent* event) {
    QTableWidget::resizeEvent(event);
    fitHeaders();
}

void StageMemoryTable::fitHeaders() {
    const auto setLabels = [this](bool shorter) {
        const QStringList labels = headers(shorter);
        for (int c = 0; c < NCols; ++c) horizontalHeaderItem(c)->setText(labels[c]);
        resizeColumnsToContents();
        m_shortHeaders = shorter;
    };
    const int inside = width() - 2 * frameWidth();
    setLabels(false);
    if (horizontalHeader()->length() > inside) setLabels(true);
    // As tall as its rows (at most three: first, middle, last stage), never a list scrolled up
    // and down; the sideways scroll bar (and the room for it) only where the columns still do not
    // fit, so a wide page shows no empty band under the rows.
    const bool scrolls = horizontalHeader()->length() > inside;
    setHorizontalScrollBarPolicy(scrolls ? Qt::ScrollBarAsNeeded : Qt::ScrollBarAlwaysOff);
    int height = horizontalHeader()->sizeHint().height() + 2 * frameWidth() +
                 (scrolls ? horizontalScrollBar()->sizeHint().height() : 0);
    for (int row = 0; row < std::max(1, rowCount()); ++row)
        height += row < rowCount() ? rowHeight(row) : verticalHeader()->defaultSectionSize();
    setFixedHeight(height);
    updateGeometries();  // the sideways scroll range of the columns now shown
}

}  // namespace tandem::ui
