#include "mosaic/candidate_table.h"

#include <QHeaderView>
#include <QItemSelectionModel>

#include "mosaic/layout_cells.h"
#include "mosaic/optimum_card.h"

namespace tandem::ui {

namespace {
enum Col {
    Rank,
    Layers,
    Width,
    Experts,
    TopK,
    Split,
    NAct,
    NTot,
    Sparsity,
    Tokens,
    Mfu,
    Loss,
    Layout,
    NCols
};
}

CandidateModel::CandidateModel(QObject* parent) : QAbstractTableModel(parent) {}

void CandidateModel::setCandidates(const std::vector<mosaic::Candidate>& candidates, int rows) {
    beginResetModel();
    const size_t n = std::min(candidates.size(), static_cast<size_t>(std::max(0, rows)));
    m_rows.assign(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(n));
    endResetModel();
}

int CandidateModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CandidateModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : NCols;
}

QVariant CandidateModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || static_cast<size_t>(index.row()) >= m_rows.size()) return {};
    const auto& c = m_rows[static_cast<size_t>(index.row())];
    const auto& g = c.geometry;
    if (role == Qt::TextAlignmentRole)
        return index.column() == Layout ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                        : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Loss && c.extrapolated)
        return tr("Outside Eq. 10's fitted range (Table 6): extrapolated.");
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case Rank:
            return index.row() + 1;
        case Layers:
            return g.layers;
        case Width:
            return g.dModel;
        case Experts:
            return g.experts;
        case TopK:
            return g.topK;
        case Split:
            return g.splitG;
        case NAct:
            return formatCount(g.nAct);
        case NTot:
            return formatCount(g.nTot);
        case Sparsity:
            return QString::number(g.sparsity, 'f', 3);
        case Tokens:
            return formatCount(c.tokens);
        case Mfu:
            return QString::number(100 * c.eval.mfu, 'f', 1);
        case Loss:
            return QString::number(c.loss, 'f', 4) +
                   (c.extrapolated ? QStringLiteral("*") : QString());
        case Layout:
            return QString::fromStdString(planLabel(c.plan));
        default:
            return {};
    }
}

QVariant CandidateModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    static const char* names[] = {"#",     "L", "d", "E",     "K",    "G",     "N_act",
                                  "N_tot", "S", "D", "MFU %", "Loss", "Layout"};
    static const char* tips[] = {"Rank by predicted loss (best first)",
                                 "Transformer blocks L = 4q [2608.10605 Sec. 7.1]",
                                 "Residual width d = 512q",
                                 "Routed experts per MoE block",
                                 "Experts per token (top-K)",
                                 "Expert split factor G = d_ff / d_expert [Sec. 3.4]",
                                 "Active non-embedding parameters",
                                 "Total non-embedding parameters",
                                 "Sparsity S = 1 - N_act / N_tot",
                                 "Training tokens D = min(D* of Eq. 25, TPP_max N_act)",
                                 "Model FLOPs utilization of the best layout (Eq. 1), percent",
                                 "Predicted loss (Eq. 10), nats; * = extrapolated",
                                 "Best layout: TP, EP, PP, CP, DP, micro-batch, checkpointing"};
    if (section < 0 || section >= NCols) return {};
    if (role == Qt::DisplayRole) return tr(names[section]);
    if (role == Qt::ToolTipRole) return tr(tips[section]);
    return {};
}

CandidateTable::CandidateTable(QWidget* parent)
    : QTableView(parent), m_model(new CandidateModel(this)) {
    setObjectName(QStringLiteral("candidateTable"));
    setModel(m_model);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setAlternatingRowColors(true);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    // Every column as wide as its contents (the layout string is never elided); a narrow window
    // scrolls the table sideways instead.
    horizontalHeader()->setStretchLastSection(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    setTextElideMode(Qt::ElideNone);
    setToolTip(
        tr("Best feasible geometries on this cluster, ranked by predicted loss [2608.10605 Table "
           "4]. Select a "
           "row to show it in the card, the MFU charts, the breakdown, the memory bar and the "
           "layout heatmap."));
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& cur, const QModelIndex&) {
                if (!m_silent && cur.isValid()) emit candidateSelected(cur.row());
            });
}

void CandidateTable::setCandidates(const std::vector<mosaic::Candidate>& candidates, int selected,
                                   int rows) {
    m_silent = true;
    m_model->setCandidates(candidates, rows);
    m_silent = false;
    selectCandidate(selected);
}

void CandidateTable::selectCandidate(int index) {
    m_silent = true;
    if (index >= 0 && index < m_model->rowCount()) {
        const QModelIndex idx = m_model->index(index, 0);
        selectionModel()->setCurrentIndex(
            idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        scrollTo(idx);
    } else {
        selectionModel()->clearSelection();
    }
    m_silent = false;
}

int CandidateTable::selectedCandidate() const {
    const QModelIndex cur = selectionModel()->currentIndex();
    return cur.isValid() && selectionModel()->isRowSelected(cur.row(), {}) ? cur.row() : -1;
}

}  // namespace tandem::ui
