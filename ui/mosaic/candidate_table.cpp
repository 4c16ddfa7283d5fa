#include "ui/mosaic/candidate_table.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <algorithm>
#include <cmath>

#include "ui/mosaic/layout_cells.h"
#include "ui/mosaic/optimum_card.h"
#include "ui/widgets/table_setup.h"

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

CountScale countScale(double largest) {
    if (largest >= 1e12) return {1e12, QStringLiteral("T")};
    if (largest >= 1e9) return {1e9, QStringLiteral("B")};
    if (largest >= 1e6) return {1e6, QStringLiteral("M")};
    return {1, QString()};
}

QString scaledCount(double n, const CountScale& scale) {
    if (!std::isfinite(n)) return QStringLiteral("n/a");
    const double v = n / scale.divisor;
    return QString::number(v, 'f', v < 10 ? 2 : v < 100 ? 1 : 0);
}

void CandidateModel::setCandidates(const std::vector<mosaic::Candidate>& candidates, int rows) {
    beginResetModel();
    const size_t n = std::min(candidates.size(), static_cast<size_t>(std::max(0, rows)));
    m_rows.assign(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(n));
    double nAct = 0, nTot = 0, tokens = 0;
    m_anyExtrapolated = false;
    for (const mosaic::Candidate& c : m_rows) {
        nAct = std::max(nAct, c.geometry.nAct);
        nTot = std::max(nTot, c.geometry.nTot);
        tokens = std::max(tokens, c.tokens);
        m_anyExtrapolated = m_anyExtrapolated || c.extrapolated;
    }
    m_nActScale = countScale(nAct);
    m_nTotScale = countScale(nTot);
    m_tokenScale = countScale(tokens);
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, 0, NCols - 1);
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
            return scaledCount(g.nAct, m_nActScale);
        case NTot:
            return scaledCount(g.nTot, m_nTotScale);
        case Sparsity:
            return QString::number(g.sparsity, 'f', 3);
        case Tokens:
            return scaledCount(c.tokens, m_tokenScale);
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
    // Counts in one unit per column (the largest row's), named in the header; "*" explained in
    // the header when a row carries it.
    const auto withUnit = [&](const CountScale& scale) {
        return scale.suffix.isEmpty()
                   ? tr(names[section])
                   : QStringLiteral("%1 (%2)").arg(tr(names[section]), scale.suffix);
    };
    static const char* tips[] = {
        "Rank by predicted loss (best first)",
        "Transformer blocks L = 4q [2608.10605 Sec. 7.1]",
        "Residual width d = 512q",
        "Routed experts per MoE block",
        "Experts per token (top-K)",
        "Expert split factor G = d_ff / d_expert [Sec. 3.4]",
        "Active non-embedding parameters (M, B or T: millions, billions, trillions)",
        "Total non-embedding parameters",
        "Sparsity S = 1 - N_act / N_tot",
        "Training tokens D = min(D* of Eq. 25, TPP_max N_act), in the unit of the header",
        "Model FLOPs utilization of the best layout (Eq. 1), percent",
        "Predicted loss (Eq. 10), nats; * = outside Eq. 10's fitted range (Table 6), extrapolated",
        "Best layout: TP, EP, PP, CP, DP, micro-batch, checkpointing"};
    if (section < 0 || section >= NCols) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
            case NAct:
                return withUnit(m_nActScale);
            case NTot:
                return withUnit(m_nTotScale);
            case Tokens:
                return withUnit(m_tokenScale);
            case Loss:
                return m_anyExtrapolated ? tr("Loss (* extrapolated)") : tr(names[section]);
            default:
                return tr(names[section]);
        }
    }
    if (role == Qt::ToolTipRole) return tr(tips[section]);
    return {};
}

CandidateTable::CandidateTable(QWidget* parent)
    : QTableView(parent), m_model(new CandidateModel(this)) {
    setObjectName(QStringLiteral("candidateTable"));
    setModel(m_model);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    // Every column as wide as its contents (the layout string is never elided); a narrow window
    // scrolls the table sideways instead.
    setUpReadOnlyTable(this, QAbstractItemView::SingleSelection);
    // Shown left to right: the rank, the loss, the MFU and the layout that reaches it, then the
    // geometry, so a 1024 px wide window shows the layout whole; the model keeps its columns.
    QHeaderView* header = horizontalHeader();
    const int order[] = {Rank, Loss,  Mfu,  Layout, Layers,   Width, Experts,
                         TopK, Split, NAct, NTot,   Sparsity, Tokens};
    static_assert(sizeof(order) / sizeof(order[0]) == NCols, "every column placed once");
    for (int v = 0; v < NCols; ++v) header->moveSection(header->visualIndex(order[v]), v);
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
