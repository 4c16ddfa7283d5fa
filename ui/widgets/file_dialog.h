#pragma once
// The one set-up of every file dialog of the application (Open, Save, Import, Export): Qt's own
// dialog (no platform one), an icon provider that names files by their type from stat(2) alone
// and never reads a file's contents, so browsing /proc or /dev (a file name box showing
// /proc/kmsg, a FIFO) cannot block the GUI thread.
#include <QAbstractFileIconProvider>
#include <QFileDialog>
#include <QString>

class QWidget;

namespace tandem::ui {

/// Icons and type names from the file's kind only (folder, link, drive, file), as lstat/stat
/// report it: no QMimeDatabase sniffing, no open(2), no theme look-ups per file. Safe on FIFOs,
/// character devices and /proc files. No errors.
class SafeFileIconProvider : public QAbstractFileIconProvider {
public:
    SafeFileIconProvider();
    QIcon icon(IconType type) const override;
    QIcon icon(const QFileInfo& info) const override;
    QString type(const QFileInfo& info) const override;
};

/// The provider all file dialogs share (made on first use; lives for the application).
SafeFileIconProvider* safeFileIconProvider();

/// Applies the shared set-up to `dialog`: the safe icon provider, Qt's own dialog, no custom
/// folder icons. Every file dialog of the application goes through this. No errors.
void prepareFileDialog(QFileDialog& dialog);

/// QFileDialog::getOpenFileName through prepareFileDialog: the chosen existing file, or an
/// empty string when cancelled. `dir` may be a folder or a file path to start at.
QString openFileName(QWidget* parent, const QString& caption, const QString& dir,
                     const QString& filter);

/// The Save dialog: a QFileDialog (prepareFileDialog, AcceptSave, AnyFile) that refuses at once
/// a name that exists as something other than a regular file (a device such as /dev/null, a
/// FIFO, a socket; fileio::outputTargetProblem): a warning names the file and what it is, Qt's
/// "Do you want to replace it?" is never asked for it, and the dialog stays open for another
/// name. A folder typed as the name is opened, as in Qt's dialog; an existing regular file is
/// confirmed before it is replaced.
class SaveFileDialog : public QFileDialog {
    Q_OBJECT
public:
    SaveFileDialog(QWidget* parent, const QString& caption, const QString& filter);
    void accept() override;
};

/// A SaveFileDialog run modally (asks before overwriting a regular file, refuses any other
/// kind): the chosen path, or an empty string when cancelled. `start` is the folder or file
/// name proposed.
QString saveFileName(QWidget* parent, const QString& caption, const QString& start,
                     const QString& filter);

}  // namespace tandem::ui
