#include "save_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QFile>
#include <QSaveFile>
#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tandem::fileio {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("fileio", text); }

struct ErrnoText {
    int err;
    const char* text;
};

/// The errno values whose wording is Tandem's own (the rest use strerror).
const ErrnoText kErrnoTexts[] = {
    {ENOSPC, "no space left on device"},
#ifdef EDQUOT
    {EDQUOT, "no space left on device (disk quota exceeded)"},
#endif
    {EROFS, "read-only file system"},
    {EFBIG, "file too large"},
    {EACCES, "permission denied"},
    {EIO, "input/output error"},
};

/// A reason reported by Qt as text (QSaveFile::errorString, which holds strerror's wording):
/// the wording of kErrnoTexts where it matches, else the text with a lower-case first letter.
QString reasonFromQt(const QString& qtText) {
    for (const auto& e : kErrnoTexts)
        if (qtText.contains(QString::fromLocal8Bit(std::strerror(e.err)), Qt::CaseInsensitive))
            return tr(e.text);
    if (qtText.isEmpty()) return tr("unknown error");
    QString s = qtText;
    if (s.size() > 1 && s[0].isUpper() && s[1].isLower()) s[0] = s[0].toLower();
    return s;
}

bool exists(const QString& path) {
    struct stat st;
    return ::stat(QFile::encodeName(path).constData(), &st) == 0;
}

}  // namespace

QString errnoReason(int err) {
    for (const auto& e : kErrnoTexts)
        if (e.err == err) return tr(e.text);
    return reasonFromQt(QString::fromLocal8Bit(std::strerror(err)));
}

QString outputTargetProblem(const QString& path) {
    if (path.isEmpty()) return tr("no file name given");
    struct stat st;
    // stat follows symbolic links: a link is judged by what it names. A missing file (or a
    // missing parent folder, reported when the file is opened) is no reason to refuse here.
    if (::stat(QFile::encodeName(path).constData(), &st) != 0) return {};
    if (S_ISREG(st.st_mode)) return {};
    if (S_ISDIR(st.st_mode)) return tr("is a folder, not a file");
    if (S_ISCHR(st.st_mode)) return tr("is a character device, not a regular file");
    if (S_ISBLK(st.st_mode)) return tr("is a block device, not a regular file");
    if (S_ISFIFO(st.st_mode)) return tr("is a FIFO (named pipe), not a regular file");
    if (S_ISSOCK(st.st_mode)) return tr("is a socket, not a regular file");
    return tr("is not a regular file");
}

bool saveAtomically(const QString& path, QByteArrayView data, QString* reason, bool executable) {
    QString why = outputTargetProblem(path);
    if (!why.isEmpty()) {
        if (reason) *reason = why;
        return false;
    }
    // Unbuffered: QFileDevice's own buffer would hold the bytes until close(), where Qt 6.4
    // ignores a failed flush and QSaveFile::commit() renames a short (even empty) file over
    // the target. The bytes go through write(2) on the handle instead, every call checked.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) {
        if (reason) *reason = reasonFromQt(file.errorString());
        return false;
    }
    const int fd = file.handle();
    if (fd < 0) {
        if (reason) *reason = tr("no file handle");
        return false;  // ~QSaveFile removes the temporary file
    }
    const char* p = data.data();
    qint64 left = data.size();
    while (left > 0) {
        const size_t chunk = size_t(std::min<qint64>(left, qint64(1) << 30));
        const ssize_t n = ::write(fd, p, chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            // write(2) returning 0 for a non-empty request on a regular file means no room.
            if (reason) *reason = errnoReason(n < 0 ? errno : ENOSPC);
            file.cancelWriting();
            return false;
        }
        p += n;
        left -= n;
    }
    // Executable where readable (chmod +x), set on the temporary file before the rename.
    struct stat st;
    if (executable && ::fstat(fd, &st) == 0 &&
        ::fchmod(fd, (st.st_mode & 07777) | ((st.st_mode & 0444) >> 2)) != 0) {
        if (reason) *reason = errnoReason(errno);
        file.cancelWriting();
        return false;
    }
    // QSaveFile::commit() syncs too but ignores the result; filesystems that report a lack of
    // room only at sync time (NFS, quotas) are caught here.
    if (::fsync(fd) != 0 && errno != EINVAL && errno != ENOTSUP) {
        if (reason) *reason = errnoReason(errno);
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        if (reason) *reason = reasonFromQt(file.errorString());
        return false;
    }
    return true;
}

bool writeFileAtomic(const QString& path, QByteArrayView data, QString* error, bool executable) {
    const QString refused = outputTargetProblem(path);
    if (!refused.isEmpty()) {
        if (error)
            *error = tr("%1: %2; output is written to regular files only, nothing was written")
                         .arg(path, refused);
        return false;
    }
    const bool existed = exists(path);
    QString reason;
    if (saveAtomically(path, data, &reason, executable)) return true;
    if (error)
        *error = existed ? tr("%1: cannot write: %2; %1 is unchanged").arg(path, reason)
                         : tr("%1: cannot write: %2; nothing was written").arg(path, reason);
    return false;
}

QString creationProblem(const QString& dir) {
    const QString probe = dir + QStringLiteral("/.tandem-probe");
    QString reason;
    if (!saveAtomically(probe, "x", &reason)) return reason;
    QFile::remove(probe);
    return {};
}

bool sameFile(const QString& a, const QString& b) {
    struct stat sa, sb;
    if (::stat(QFile::encodeName(a).constData(), &sa) != 0 ||
        ::stat(QFile::encodeName(b).constData(), &sb) != 0)
        return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace tandem::fileio
