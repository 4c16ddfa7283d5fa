#include "ui/shell/reproduce_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/shell/presets.h"

namespace tandem::ui {

ReproduceFigureDialog::ReproduceFigureDialog(QWidget* parent)
    : QDialog(parent), m_list(new QListWidget(this)), m_note(new QLabel(this)) {
    setWindowTitle(tr("Reproduce a figure"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Each preset sets both workspaces to the inputs of one figure or table of the "
           "papers and opens the page that shows it."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    const QList<Preset> presets = allPresets();
    int workspace = -1;
    for (int i = 0; i < presets.size(); ++i) {
        if (presets[i].workspace != workspace) {
            workspace = presets[i].workspace;
            auto* heading = new QListWidgetItem(workspace == 0 ? tr("ML-for-ML [arXiv:2608.06046]")
                                                               : tr("MOSAIC [arXiv:2608.10605]"),
                                                m_list);
            QFont bold = heading->font();
            bold.setBold(true);
            heading->setFont(bold);
            heading->setFlags(Qt::ItemIsEnabled);
            heading->setData(Qt::UserRole, -1);
        }
        auto* item = new QListWidgetItem(QStringLiteral("    ") + presets[i].title, m_list);
        item->setToolTip(presets[i].note);
        item->setData(Qt::UserRole, i);
    }
    layout->addWidget(m_list, 1);
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);
    m_note->setMinimumHeight(3 * fontMetrics().height());
    layout->addWidget(m_note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    QPushButton* open = buttons->button(QDialogButtonBox::Open);
    open->setEnabled(false);
    layout->addWidget(buttons);
    connect(m_list, &QListWidget::currentItemChanged, this,
            [this, open, presets](QListWidgetItem* item) {
                const int i = item ? item->data(Qt::UserRole).toInt() : -1;
                open->setEnabled(i >= 0);
                m_note->setText(i >= 0 ? presets[i].note : QString());
            });
    connect(m_list, &QListWidget::itemDoubleClicked, this, [this]() { openSelected(); });
    connect(buttons, &QDialogButtonBox::accepted, this, &ReproduceFigureDialog::openSelected);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(640, 480);
}

QString ReproduceFigureDialog::noteText() const { return m_note->text(); }

void ReproduceFigureDialog::openSelected() {
    const QListWidgetItem* item = m_list->currentItem();
    const int i = item ? item->data(Qt::UserRole).toInt() : -1;
    if (i < 0) return;
    emit presetChosen(i);
    accept();
}

}  // namespace tandem::ui
