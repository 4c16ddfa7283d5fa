// MainWindow: crash recovery prompt [issue 7]. The autosave logic is in recovery.cpp.
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

#include "main_window.h"
#include "recovery.h"
#include "scenario_document.h"

namespace tandem::ui {

void MainWindow::enableRecovery(const QString& dir, int debounceMs) {
    if (m_recovery) return;
    m_recovery = new RecoveryAutosaver(m_doc, dir, debounceMs, this);
    if (m_doc->isModified()) m_recovery->saveNow();
}

bool MainWindow::recoverFrom(const RecoveryEntry& entry, Diagnostics& diag) {
    const std::optional<Scenario> s = RecoveryStore::read(entry, diag);
    if (!s) return false;
    m_doc->reset(*s, entry.originalPath);
    m_doc->markModified();
    if (m_recovery) m_recovery->saveNow();  // this session's copy first, then the old file goes
    RecoveryStore::remove(entry);
    statusBar()->showMessage(tr("Recovered unsaved changes from %1").arg(QLocale().toString(entry.savedAt.toLocalTime(), QLocale::ShortFormat)), 6000);
    return true;
}

bool MainWindow::offerRecovery() {
    if (!m_recovery) return false;
    const QList<RecoveryEntry> entries = m_recovery->store().orphans();
    for (const RecoveryEntry& e : entries) {
        const QString when = QLocale().toString(e.savedAt.toLocalTime(), QLocale::LongFormat);
        const QString of = e.originalPath.isEmpty() ? tr("an untitled scenario")
                                                    : QFileInfo(e.originalPath).fileName();
        QMessageBox box(QMessageBox::Question, tr("Recover unsaved changes"),
                        tr("Tandem did not exit cleanly. Recover unsaved changes from %1?").arg(when),
                        QMessageBox::NoButton, this);
        box.setInformativeText(tr("Changes to %1%2.")
                                   .arg(of, e.originalPath.isEmpty() ? QString() : tr(" (%1)").arg(e.originalPath)));
        QPushButton* recover = box.addButton(tr("Recover"), QMessageBox::AcceptRole);
        box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.setDefaultButton(recover);
        box.exec();
        if (box.clickedButton() != recover) {
            RecoveryStore::remove(e);
            continue;
        }
        Diagnostics diag(QFileInfo(e.file).fileName().toStdString());
        if (recoverFrom(e, diag)) return true;
        showDiagnostics(e.file, diag);
        return false;
    }
    return false;
}

}  // namespace tandem::ui
