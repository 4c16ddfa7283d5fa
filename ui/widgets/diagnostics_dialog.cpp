#include "widgets/diagnostics_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "widgets/count_label.h"

namespace tandem::ui {

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
    m_table->setHorizontalHeaderLabels({tr("JSON path"), tr("Problem")});
    m_table->setRowCount(static_cast<int>(diag.items().size()));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    int row = 0;
    for (const Issue& issue : diag.items()) {
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(issue.path)));
        m_table->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(issue.message)));
        ++row;
    }
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

int DiagnosticsDialog::rowCount() const { return m_table->rowCount(); }

QString DiagnosticsDialog::rowText(int i) const {
    if (i < 0 || i >= m_table->rowCount()) return {};
    return m_table->item(i, 0)->text() + QStringLiteral(": ") + m_table->item(i, 1)->text();
}

}  // namespace tandem::ui
