#include "ui/widgets/field_row.h"

#include <QGridLayout>
#include <QLabel>
#include <QTableWidget>

namespace tandem::ui {

QList<QLabel*> addFieldRows(QGridLayout* grid, const QList<FieldRow>& rows, int firstRow,
                            const QString& valueName) {
    QList<QLabel*> values;
    QWidget* parent = grid->parentWidget();
    for (int i = 0; i < rows.size(); ++i) {
        const FieldRow& r = rows[i];
        auto* name = new QLabel(r.name, parent);
        name->setWordWrap(true);
        name->setToolTip(r.tooltip);
        auto* value = new QLabel(r.values.value(0), parent);
        value->setObjectName(valueName + QString::number(i));
        value->setWordWrap(true);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setToolTip(r.tooltip);
        grid->addWidget(name, firstRow + i, 0, Qt::AlignTop);
        grid->addWidget(value, firstRow + i, 1, Qt::AlignTop);
        values.append(value);
    }
    return values;
}

void setTableRows(QTableWidget* table, const QList<FieldRow>& rows, int leftValues) {
    table->setRowCount(int(rows.size()));
    for (int row = 0; row < rows.size(); ++row) {
        const FieldRow& r = rows[row];
        const QStringList cells = QStringList{r.name} + r.values;
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(c <= leftValues
                                       ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                                       : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
            if (!r.tooltip.isEmpty()) item->setToolTip(r.tooltip);
            table->setItem(row, c, item);
        }
    }
}

}  // namespace tandem::ui
