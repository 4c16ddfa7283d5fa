#include "ui/widgets/table_setup.h"

#include <QHeaderView>
#include <QTableView>

namespace tandem::ui {

void setUpReadOnlyTable(QTableView* table, QAbstractItemView::SelectionMode selection) {
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(selection);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setStretchLastSection(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->setTextElideMode(Qt::ElideNone);
}

}  // namespace tandem::ui
