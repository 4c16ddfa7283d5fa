#include "ui/widgets/diagnostics_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/widgets/count_label.h"
#include "ui/widgets/field_row.h"

namespace tandem::ui {

QString DiagnosticsDialog::locationHeader(const Diagnostics& diag) {
    bool json = !diag.items().empty(), lines = json;
    for (const Issue& issue : diag.items()) {
        json = json && issue.path.rfind('$', 0) == 0;
        lines = lines && issue.path.rfind("line ", 0) == 0;
    }
    return json ? tr("JSON path") : lines ? tr("Line") : tr("Where");
}

DiagnosticsDialog::DiagnosticsDialog(const QString& file, const Diagnostics& diag, QWidget* parent)
    : QDialog(parent), m_table(new QTableWidget(this)) {
    setObjectName(QStringLiteral("diagnosticsDialog"));
    setWindowTitle(tr("Cannot open %1").arg(QFileInfo(file).fileName()));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("<b>%1</b> has %2; the current scenario is unchanged.")
            .arg(file.toHtmlEscaped(), countLabel(static_cast<qint64>(diag.items().size()),
                                                  tr("problem"), tr("problems"))),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_table->setColumnCount(2);
    m_table->setHorizontalHeaderLabels({locationHeader(diag), tr("Problem")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    QList<FieldRow> rows;
    for (const Issue& issue : diag.items())
        rows.append(
            {QString::fromStdString(issue.path), {QString::fromStdString(issue.message)}, {}});
    setTableRows(m_table, rows, 1);  // path and message left-aligned
    m_table->resizeColumnToContents(0);
    layout->addWidget(m_table);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    const QString text = QString::fromStdString(diag.str());
    connect(copy, &QPushButton::clicked, this,
            [text]() { QApplication::clipboard()->setText(text); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(640, 320);
}

QString DiagnosticsDialog::columnHeader(int column) const {
    const QTableWidgetItem* item = m_table->horizontalHeaderItem(column);
    return item ? item->text() : QString();
}

int DiagnosticsDialog::rowCount() const { return m_table->rowCount(); }

QString DiagnosticsDialog::rowText(int i) const {
    if (i < 0 || i >= m_table->rowCount()) return {};
    return m_table->item(i, 0)->text() + QStringLiteral(": ") + m_table->item(i, 1)->text();
}

}  // namespace tandem::ui
