#include "output_folder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <cerrno>
#include <utility>

#include "save_file.h"

namespace tandem::fileio {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("fileio", text); }

/// What an existing non-folder is, for "is a ..., not a folder".
QString kindOf(mode_t mode) {
    if (S_ISREG(mode)) return tr("a file");
    if (S_ISCHR(mode)) return tr("a character device");
    if (S_ISBLK(mode)) return tr("a block device");
    if (S_ISFIFO(mode)) return tr("a FIFO (named pipe)");
    if (S_ISSOCK(mode)) return tr("a socket");
    return tr("a special file");
}

}  // namespace

QString outputFolderProblem(const QString& path) {
    if (path.isEmpty()) return tr("no folder name given");
    QString at = QFileInfo(path).absoluteFilePath();
    // Walk up to the nearest existing ancestor (bounded by the path's depth).
    for (int depth = 0; depth < 4096; ++depth) {
        struct stat st;
        if (::stat(QFile::encodeName(at).constData(), &st) == 0) {
            if (S_ISDIR(st.st_mode)) return {};
            const QString what = tr("is %1, not a folder").arg(kindOf(st.st_mode));
            return depth == 0 ? what : QStringLiteral("%1 %2").arg(at, what);
        }
        const QString up = QFileInfo(at).path();
        if (up == at) break;
        at = up;
    }
    return {};
}

NewOutputFolder::NewOutputFolder(QString path) : m_path(std::move(path)) {}

NewOutputFolder::~NewOutputFolder() { removeCreated(); }

bool NewOutputFolder::create(QString* reason) {
    // The missing levels, outermost first.
    QStringList missing;
    QString at = QDir::cleanPath(QFileInfo(m_path).absoluteFilePath());
    for (int depth = 0; depth < 4096; ++depth) {
        struct stat st;
        if (::stat(QFile::encodeName(at).constData(), &st) == 0) break;
        missing.prepend(at);
        const QString up = QFileInfo(at).path();
        if (up == at) break;
        at = up;
    }
    for (const QString& level : missing) {
        if (::mkdir(QFile::encodeName(level).constData(), 0777) == 0) {
            m_created << level;
            continue;
        }
        const int err = errno;
        struct stat st;
        // Made by someone else meanwhile: theirs, used but never removed.
        if (err == EEXIST && ::stat(QFile::encodeName(level).constData(), &st) == 0 &&
            S_ISDIR(st.st_mode))
            continue;
        removeCreated();
        if (reason) *reason = errnoReason(err);
        return false;
    }
    struct stat st;
    if (::stat(QFile::encodeName(m_path).constData(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        removeCreated();
        if (reason) *reason = errnoReason(ENOTDIR);
        return false;
    }
    return true;
}

void NewOutputFolder::removeCreated() {
    while (!m_created.isEmpty()) {
        // rmdir(2) fails on a folder that is not empty: what is in it is kept, and so are the
        // folders above it.
        if (::rmdir(QFile::encodeName(m_created.takeLast()).constData()) != 0) {
            m_created.clear();
            break;
        }
    }
}

}  // namespace tandem::fileio
