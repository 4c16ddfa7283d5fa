#pragma once
// One row type for the GUI's label/value rows and read-only table rows: the Plan page's figures
// (a name, its value, what it means), the stage memory table's rows and the diagnostics dialog's
// (a name and its cells), with one builder for a grid of labels and one for a table.
#include <QList>
#include <QString>
#include <QStringList>

class QGridLayout;
class QLabel;
class QTableWidget;

namespace tandem::ui {

/// One row: what it is (`name`), its cells as shown (a label/value row: one value with its unit;
/// a table row: the columns after the name) and what it means (`tooltip`; may be empty).
struct FieldRow {
    QString name;
    QStringList values;
    QString tooltip;
};

/// Adds `rows` to `grid` from grid row `firstRow`: each row's name and first value (none: an empty
/// label) as word-wrapped labels in columns 0 and 1, children of the grid's widget, aligned to the
/// top and carrying the row's tooltip; the value labels are selectable by mouse and named
/// `valueName` followed by their index ("planFigure0"). Returns the value labels in row order.
QList<QLabel*> addFieldRows(QGridLayout* grid, const QList<FieldRow>& rows, int firstRow,
                            const QString& valueName);

/// Shows `rows` in `table` (its rows replaced; its columns as they are): the name in column 0 and
/// the values after it, column 0 and the first `leftValues` value columns left-aligned, the other
/// columns (numbers) right-aligned; a row's tooltip, when not empty, on each of its cells.
void setTableRows(QTableWidget* table, const QList<FieldRow>& rows, int leftValues = 0);

}  // namespace tandem::ui
