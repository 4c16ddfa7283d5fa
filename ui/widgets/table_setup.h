#pragma once
// The one set-up of the workspaces' read-only tables (the MoE candidate table, the Plan page's
// stage memory table): whole cells, no row numbers, sideways scrolling on a narrow window.
#include <QAbstractItemView>

class QTableView;

namespace tandem::ui {

/// Sets `table` up as a read-only table: not editable, `selection` as its selection mode, no row
/// numbers, rows one text line (plus 6 px) tall, every column as wide as its contents and no
/// text elided (a narrow window scrolls the table sideways instead). No errors.
void setUpReadOnlyTable(QTableView* table, QAbstractItemView::SelectionMode selection);

}  // namespace tandem::ui
