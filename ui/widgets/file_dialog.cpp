#include "ui/widgets/file_dialog.h"

#include <QApplication>
#include <QFileInfo>
#include <QMessageBox>
#include <QStyle>
#include <memory>

#include "save_file.h"

namespace tandem::ui {

SafeFileIconProvider::SafeFileIconProvider() {
    setOptions(QAbstractFileIconProvider::DontUseCustomDirectoryIcons);
}

QIcon SafeFileIconProvider::icon(IconType type) const {
    QStyle* style = QApplication::style();
    switch (type) {
        case Computer:
            return style->standardIcon(QStyle::SP_ComputerIcon);
        case Desktop:
            return style->standardIcon(QStyle::SP_DesktopIcon);
        case Trashcan:
            return style->standardIcon(QStyle::SP_TrashIcon);
        case Network:
            return style->standardIcon(QStyle::SP_DriveNetIcon);
        case Drive:
            return style->standardIcon(QStyle::SP_DriveHDIcon);
        case Folder:
            return style->standardIcon(QStyle::SP_DirIcon);
        case File:
            break;
    }
    return style->standardIcon(QStyle::SP_FileIcon);
}

QIcon SafeFileIconProvider::icon(const QFileInfo& info) const {
    QStyle* style = QApplication::style();
    if (info.isRoot()) return icon(Drive);
    if (info.isSymLink())
        return style->standardIcon(info.isDir() ? QStyle::SP_DirLinkIcon : QStyle::SP_FileLinkIcon);
    if (info.isDir()) return icon(Folder);
    return icon(File);
}

QString SafeFileIconProvider::type(const QFileInfo& info) const {
    if (info.isRoot()) return QApplication::translate("SafeFileIconProvider", "Drive");
    if (info.isDir()) return QApplication::translate("SafeFileIconProvider", "Folder");
    if (info.isSymLink()) return QApplication::translate("SafeFileIconProvider", "Link");
    if (!info.isFile()) return QApplication::translate("SafeFileIconProvider", "Special file");
    const QString suffix = info.suffix();
    if (suffix.isEmpty()) return QApplication::translate("SafeFileIconProvider", "File");
    return QApplication::translate("SafeFileIconProvider", "%1 file").arg(suffix);
}

SafeFileIconProvider* safeFileIconProvider() {
    static SafeFileIconProvider* provider = new SafeFileIconProvider;  // lives with the process
    return provider;
}

void prepareFileDialog(QFileDialog& dialog) {
    dialog.setOption(QFileDialog::DontUseNativeDialog, true);
    dialog.setOption(QFileDialog::DontUseCustomDirectoryIcons, true);
    dialog.setIconProvider(safeFileIconProvider());
}

SaveFileDialog::SaveFileDialog(QWidget* parent, const QString& caption, const QString& filter)
    : QFileDialog(parent, caption, QString(), filter) {
    prepareFileDialog(*this);
    setAcceptMode(QFileDialog::AcceptSave);
    setFileMode(QFileDialog::AnyFile);
}

void SaveFileDialog::accept() {
    const QStringList files = selectedFiles();
    if (!files.isEmpty() && !QFileInfo(files.front()).isDir()) {
        const QString problem = fileio::outputTargetProblem(files.front());
        if (!problem.isEmpty()) {
            QMessageBox::warning(this, windowTitle(),
                                 tr("%1 %2: it cannot be saved to. Choose another file name.")
                                     .arg(QDir::toNativeSeparators(files.front()), problem));
            return;  // the dialog stays open; nothing was asked or written
        }
    }
    QFileDialog::accept();
}

namespace {
QString runDialog(QWidget* parent, const QString& caption, const QString& start,
                  const QString& filter, QFileDialog::AcceptMode mode) {
    std::unique_ptr<QFileDialog> owned;
    if (mode == QFileDialog::AcceptSave) {
        owned = std::make_unique<SaveFileDialog>(parent, caption, filter);
    } else {
        owned = std::make_unique<QFileDialog>(parent, caption, QString(), filter);
        prepareFileDialog(*owned);
        owned->setAcceptMode(mode);
        owned->setFileMode(QFileDialog::ExistingFile);
    }
    QFileDialog& dialog = *owned;
    const QFileInfo info(start);
    if (!start.isEmpty() && info.isDir()) {
        dialog.setDirectory(start);
    } else if (!start.isEmpty()) {
        if (!info.path().isEmpty() && info.path() != QStringLiteral("."))
            dialog.setDirectory(info.path());
        dialog.selectFile(info.fileName());
    }
    if (dialog.exec() != QDialog::Accepted) return {};
    const QStringList files = dialog.selectedFiles();
    return files.isEmpty() ? QString() : files.front();
}
}  // namespace

QString openFileName(QWidget* parent, const QString& caption, const QString& dir,
                     const QString& filter) {
    return runDialog(parent, caption, dir, filter, QFileDialog::AcceptOpen);
}

QString saveFileName(QWidget* parent, const QString& caption, const QString& start,
                     const QString& filter) {
    return runDialog(parent, caption, start, filter, QFileDialog::AcceptSave);
}

}  // namespace tandem::ui
