// MainWindow: the prompt offering to recover unsaved work after a crash. The autosave logic is
// in recovery.cpp.
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <algorithm>

#include "ui/shell/main_window.h"
#include "ui/shell/recovery.h"
#include "ui/shell/scenario_document.h"

namespace tandem::ui {

void MainWindow::enableRecovery(const QString& dir, int debounceMs) {
    if (m_recovery) return;
    m_recovery = new RecoveryAutosaver(m_doc, dir, debounceMs, this);
    connect(m_recovery, &RecoveryAutosaver::writeFailed, this, [this](const QString& message) {
        statusBar()->showMessage(
            tr("Autosave failed: %1; unsaved changes are not protected against a crash")
                .arg(message));
    });
    if (m_doc->isModified()) m_recovery->saveNow();
}

bool MainWindow::recoverFrom(const RecoveryEntry& entry, Diagnostics& diag) {
    const std::optional<Scenario> s = RecoveryStore::read(entry, diag);
    if (!s) return false;
    m_doc->reset(*s, entry.originalPath);
    m_doc->markModified();
    if (m_recovery) m_recovery->saveNow();  // this session's copy first, then the old file goes
    RecoveryStore::remove(entry);
    // A date for a person in the user's own format; no number Tandem reads or writes.
    const QString when =
        QLocale::system().toString(entry.savedAt.toLocalTime(), QLocale::ShortFormat);
    if (saveAsksForName() && !entry.originalPath.isEmpty())
        statusBar()->showMessage(
            tr("Recovered unsaved changes from %1; the original file no longer exists; "
               "Save will ask for a new name (%2)")
                .arg(when, entry.originalPath));
    else
        statusBar()->showMessage(tr("Recovered unsaved changes from %1").arg(when), 6000);
    return true;
}

int MainWindow::rejectUnreadableRecovery(const QList<RecoveryEntry>& entries) {
    int moved = 0;
    QString where;
    for (const RecoveryEntry& e : entries) {
        if (e.problem.isEmpty()) continue;
        const QString to = RecoveryStore::reject(e);
        qWarning("unreadable recovery file %s (%s) moved to %s", qPrintable(e.file),
                 qPrintable(e.problem),
                 qPrintable(to.isEmpty() ? QStringLiteral("(deleted)") : to));
        if (!to.isEmpty()) where = QFileInfo(to).absolutePath();
        ++moved;
    }
    if (moved > 0)
        statusBar()->showMessage(
            tr("%n unreadable recovery file(s) set aside in %1 (see rejected.log)", "", moved)
                .arg(where.isEmpty() ? tr("(deleted)") : where),
            10000);
    return moved;
}

bool MainWindow::offerRecovery() {
    if (!m_recovery) return false;
    // Every candidate was read and validated by orphans(): unreadable ones (empty, truncated,
    // invalid) are set aside, never offered, and the valid ones are still offered in turn.
    QList<RecoveryEntry> entries = m_recovery->store().orphans();
    rejectUnreadableRecovery(entries);
    entries.erase(std::remove_if(entries.begin(), entries.end(),
                                 [](const RecoveryEntry& e) { return !e.problem.isEmpty(); }),
                  entries.end());
    for (RecoveryEntry& e : entries) {
        // A date for a person in the user's own format; no number Tandem reads or writes.
        const QString when =
            QLocale::system().toString(e.savedAt.toLocalTime(), QLocale::LongFormat);
        const QString of = e.originalPath.isEmpty() ? tr("an untitled scenario")
                                                    : QFileInfo(e.originalPath).fileName();
        QMessageBox box(
            QMessageBox::Question, tr("Recover unsaved changes"),
            tr("Tandem did not exit cleanly. Recover unsaved changes from %1?").arg(when),
            QMessageBox::NoButton, this);
        QString info =
            tr("Changes to %1%2.")
                .arg(of, e.originalPath.isEmpty() ? QString() : tr(" (%1)").arg(e.originalPath));
        if (!e.originalPath.isEmpty() && !QFileInfo::exists(e.originalPath))
            info += QLatin1Char(' ') +
                    tr("The original file no longer exists; Save will ask for a new name.");
        box.setInformativeText(info);
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
        // Changed since it was listed: set it aside too and offer the next one.
        e.problem = diag.items().empty() ? tr("unreadable")
                                         : QString::fromStdString(diag.items().front().path + ": " +
                                                                  diag.items().front().message);
        rejectUnreadableRecovery({e});
        showDiagnostics(e.file, diag);
    }
    return false;
}

}  // namespace tandem::ui
