#pragma once
// Ranked table of the best feasible MoE candidates and their layouts [2608.10605 Table 4, Sec. 7].
#include <QAbstractTableModel>
#include <QTableView>
#include <vector>

#include "mosaic/search.h"

namespace tandem::ui {

/// One unit for a column of counts: values are shown divided by `divisor`, the header names
/// `suffix` ("B": billions).
struct CountScale {
    double divisor = 1;
    QString suffix;
};
/// The unit of a column whose largest value is `largest`: T from 1e12, B from 1e9, M from 1e6,
/// else none.
CountScale countScale(double largest);
/// `n` in `scale`'s unit with 2, 1 or 0 decimals below 10, 100 and beyond ("n/a" for NaN).
QString scaledCount(double n, const CountScale& scale);

/// Table model over SearchResult::candidates (already best-first by loss), at most `rows`.
/// Columns: rank, L, d, E, K, G, N_act, N_tot, S, D, MFU (%), loss (nats), layout. N_act, N_tot
/// and D are each shown in one unit for the whole column (countScale of its largest row), named
/// in the header; the loss header explains the "*" of extrapolated rows when there is one.
class CandidateModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit CandidateModel(QObject* parent = nullptr);
    void setCandidates(const std::vector<mosaic::Candidate>& candidates, int rows);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<mosaic::Candidate> m_rows;
    CountScale m_nActScale, m_nTotScale, m_tokenScale;
    bool m_anyExtrapolated = false;
};

/// Read-only, single-row selection; selecting a row emits candidateSelected(row) (= index into
/// SearchResult::candidates). selectCandidate() selects without emitting.
class CandidateTable : public QTableView {
    Q_OBJECT
public:
    explicit CandidateTable(QWidget* parent = nullptr);
    /// Shows the best `rows` candidates (default 50) and selects `selected` (silently).
    void setCandidates(const std::vector<mosaic::Candidate>& candidates, int selected,
                       int rows = 50);
    void selectCandidate(int index);
    /// Index of the selected candidate, -1 none.
    int selectedCandidate() const;
    CandidateModel* candidateModel() const { return m_model; }

signals:
    void candidateSelected(int index);

private:
    CandidateModel* m_model;
    bool m_silent = false;
};

}  // namespace tandem::ui
