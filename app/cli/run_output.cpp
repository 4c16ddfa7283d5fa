#include "run_output.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "output.h"

namespace cli {
namespace {

/// rename(2): atomic within one filesystem, replaces nothing here (targets are moved away first).
bool move(const QString& from, const QString& to, QString* why) {
    if (std::rename(QFile::encodeName(from).constData(), QFile::encodeName(to).constData()) == 0)
        return true;
    if (why) *why = QString::fromLocal8Bit(std::strerror(errno));
    return false;
}

}  // namespace

bool replaceOutputs(const QString& dir, const std::vector<OutFile>& files,
                    const std::vector<std::string>& allNames, QString* error) {
    const QDir out(dir);
    // Refuse targets that are not regular files before touching anything.
    for (const auto& name : allNames) {
        const QFileInfo info(out.filePath(QString::fromStdString(name)));
        if (info.exists() && !info.isFile()) {
            if (error)
                *error = QStringLiteral("%1: exists and is not a regular file; nothing was written")
                             .arg(info.filePath());
            return false;
        }
    }
    QTemporaryDir staging(out.filePath(QStringLiteral(".tandem-run-XXXXXX")));
    if (!staging.isValid()) {
        if (error)
            *error = QStringLiteral("%1: cannot create a staging folder: %2")
                         .arg(dir, staging.errorString());
        return false;
    }
    const QDir stage(staging.path());
    if (!stage.mkdir(QStringLiteral("previous"))) {
        if (error) *error = QStringLiteral("%1: cannot create a backup folder").arg(stage.path());
        return false;
    }
    for (const auto& f : files) {
        if (!writeFileAtomic(stage.filePath(QString::fromUtf8(f.name)), f.data, error)) return false;
    }
    // Move the previous run's files aside, then the new ones in; undo on the first failure.
    std::vector<QString> backedUp, placed;
    auto undo = [&] {
        for (const auto& name : placed) QFile::remove(out.filePath(name));
        for (const auto& name : backedUp)
            (void)move(stage.filePath(QStringLiteral("previous/") + name), out.filePath(name), nullptr);
    };
    for (const auto& n : allNames) {
        const QString name = QString::fromStdString(n);
        if (!QFileInfo::exists(out.filePath(name))) continue;
        QString why;
        if (!move(out.filePath(name), stage.filePath(QStringLiteral("previous/") + name), &why)) {
            undo();
            if (error)
                *error = QStringLiteral("%1: cannot replace: %2; the folder keeps the previous results")
                             .arg(out.filePath(name), why);
            return false;
        }
        backedUp.push_back(name);
    }
    for (const auto& f : files) {
        const QString name = QString::fromUtf8(f.name);
        QString why;
        if (!move(stage.filePath(name), out.filePath(name), &why)) {
            undo();
            if (error)
                *error = QStringLiteral("%1: cannot write: %2; the folder keeps the previous results")
                             .arg(out.filePath(name), why);
            return false;
        }
        placed.push_back(name);
    }
    return true;  // QTemporaryDir removes the staging folder and the previous files in it
}

}  // namespace cli
