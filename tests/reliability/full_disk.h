#pragma once
// Test fixtures for writers on hostile targets: a small tmpfs that can be filled to the last
// byte or made read-only (needs root: mount(2)), device nodes made with mknod (root) and FIFOs
// (anyone).
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <cerrno>

namespace tandem::testing {

/// A tmpfs of `kib` KiB mounted on a fresh temporary folder while the object lives; valid()
/// is false (with why()) when mounting is not possible (not root, no mount permission).
class SmallTmpfs {
public:
    explicit SmallTmpfs(int kib) {
        if (!m_dir.isValid()) {
            m_why = QStringLiteral("no temporary folder");
            return;
        }
        if (::geteuid() != 0) {
            m_why = QStringLiteral("mounting a tmpfs needs root (CI runs as root)");
            return;
        }
        const QByteArray opts = "size=" + QByteArray::number(kib) + "k,mode=0777";
        if (::mount("tmpfs", QFile::encodeName(m_dir.path()).constData(), "tmpfs", 0,
                    opts.constData()) != 0) {
            m_why = QStringLiteral("mount tmpfs: %1").arg(QString::fromLocal8Bit(strerror(errno)));
            return;
        }
        m_mounted = true;
    }
    ~SmallTmpfs() {
        if (m_mounted) ::umount2(QFile::encodeName(m_dir.path()).constData(), MNT_DETACH);
    }
    SmallTmpfs(const SmallTmpfs&) = delete;
    SmallTmpfs& operator=(const SmallTmpfs&) = delete;

    bool valid() const { return m_mounted; }
    QString why() const { return m_why; }
    QString path() const { return m_dir.path(); }
    QString filePath(const QString& name) const { return QDir(m_dir.path()).filePath(name); }

    /// Remounts the filesystem read-only (MS_REMOUNT | MS_RDONLY): every write, even root's,
    /// then fails with EROFS. False when the remount fails.
    bool remountReadOnly() {
        return m_mounted && ::mount("tmpfs", QFile::encodeName(m_dir.path()).constData(), "tmpfs",
                                    MS_REMOUNT | MS_RDONLY, nullptr) == 0;
    }

    /// Free bytes on the filesystem.
    qint64 freeBytes() const {
        struct statvfs s;
        if (::statvfs(QFile::encodeName(m_dir.path()).constData(), &s) != 0) return -1;
        return qint64(s.f_bavail) * qint64(s.f_frsize);
    }

    /// Writes a filler file until at most `leaveBytes` are free (0: the filesystem is full).
    /// Returns the free bytes left afterwards.
    qint64 fill(qint64 leaveBytes = 0) {
        QFile f(filePath(QStringLiteral("filler-%1").arg(m_fills++)));
        if (!f.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) return freeBytes();
        const QByteArray page(4096, 'f');
        const qint64 target = freeBytes() - leaveBytes;
        for (qint64 written = 0; written + page.size() <= target;) {
            const qint64 n = f.write(page);
            if (n <= 0) break;
            written += n;
        }
        if (leaveBytes == 0) {
            const QByteArray byte(1, 'f');
            while (f.write(byte) == 1) {
            }
        }
        f.close();
        return freeBytes();
    }

private:
    QTemporaryDir m_dir;
    bool m_mounted = false;
    QString m_why;
    int m_fills = 0;
};

/// Kinds of non-regular output targets.
enum class NodeKind { CharDevice, Fifo, Folder };

/// Makes `path` as `kind`: a character device with /dev/null's numbers (1, 3; root only), a
/// FIFO or a folder. False when not possible here.
inline bool makeNode(const QString& path, NodeKind kind) {
    const QByteArray p = QFile::encodeName(path);
    switch (kind) {
        case NodeKind::CharDevice:
            return ::mknod(p.constData(), S_IFCHR | 0666, makedev(1, 3)) == 0;
        case NodeKind::Fifo:
            return ::mkfifo(p.constData(), 0666) == 0;
        case NodeKind::Folder:
            return QDir().mkpath(path);
    }
    return false;
}

/// True when `path` (not following links) is still `kind`.
inline bool isNode(const QString& path, NodeKind kind) {
    struct stat st;
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0) return false;
    switch (kind) {
        case NodeKind::CharDevice:
            return S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 3;
        case NodeKind::Fifo:
            return S_ISFIFO(st.st_mode);
        case NodeKind::Folder:
            return S_ISDIR(st.st_mode);
    }
    return false;
}

inline QByteArray readBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

}  // namespace tandem::testing
