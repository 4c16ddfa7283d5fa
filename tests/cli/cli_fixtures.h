#pragma once
// Shared by the tandem-cli suites (tst_cli, tst_cli_plan): run tandem-cli, read its JSON, compare
// CSV files within the stated tolerance, locales, transcripts, and a model file written to a
// temporary folder.
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <clocale>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "common/csv.h"

namespace cli_fixtures {

struct CliRun {
    int exitCode = -1;
    QString out;
    QString err;
};

/// tandem-cli with `args`; `locale`, when not empty, is the child's LC_ALL.
inline CliRun runCli(const QStringList& args, const QString& locale = QString()) {
    QProcess p;
    if (!locale.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LC_ALL"), locale);
        p.setProcessEnvironment(env);
    }
    p.start(QStringLiteral(TANDEM_CLI), args);
    CliRun r;
    if (!p.waitForFinished(600000)) {
        p.kill();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

inline nlohmann::json readJson(const QString& path) {
    std::ifstream in(path.toStdString());
    return nlohmann::json::parse(in);
}

inline QString example(const char* name) { return QStringLiteral(TANDEM_EXAMPLES "/") + name; }

/// Empty when CSV text `got` matches `want` within the stored results' tolerance, else the first
/// difference ("line N, column C: want W, got G"): the same lines, each with the same number of
/// fields (RFC 4180 quoting, tandem::splitCsvLine); a field that parses as a number in both is
/// equal when |got - want| <= 1e-9 max(|got|, |want|) + 1e-12 (infinities equal only themselves,
/// NaN only NaN); any other field must be equal as text.
inline QString sameCsv(const QByteArray& want, const QByteArray& got) {
    const QStringList w = QString::fromUtf8(want).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList g = QString::fromUtf8(got).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (w.size() != g.size())
        return QStringLiteral("%1 lines, expected %2").arg(g.size()).arg(w.size());
    std::vector<std::string> header;
    for (qsizetype i = 0; i < w.size(); ++i) {
        const std::vector<std::string> a = tandem::splitCsvLine(w[i].toStdString());
        const std::vector<std::string> b = tandem::splitCsvLine(g[i].toStdString());
        if (i == 0) header = a;
        if (a.size() != b.size())
            return QStringLiteral("line %1: %2 fields, expected %3")
                .arg(i + 1)
                .arg(b.size())
                .arg(a.size());
        for (size_t c = 0; c < a.size(); ++c) {
            bool okA = false, okB = false;
            const double x = QString::fromStdString(a[c]).toDouble(&okA);
            const double y = QString::fromStdString(b[c]).toDouble(&okB);
            const bool same =
                okA && okB ? (x == y || (std::isnan(x) && std::isnan(y)) ||
                              std::abs(x - y) <= 1e-9 * std::max(std::abs(x), std::abs(y)) + 1e-12)
                           : a[c] == b[c];
            if (!same)
                return QStringLiteral("line %1, column %2: want %3, got %4")
                    .arg(i + 1)
                    .arg(QString::fromStdString(c < header.size() ? header[c]
                                                                  : std::to_string(c + 1)))
                    .arg(QString::fromStdString(a[c]), QString::fromStdString(b[c]));
        }
    }
    return {};
}

/// True when the C library knows `locale` (e.g. "de_DE.UTF-8" after localedef); this process's
/// locale is left as it was.
inline bool localeInstalled(const char* locale) {
    const std::string before = std::setlocale(LC_ALL, nullptr);
    const bool ok = std::setlocale(LC_ALL, locale) != nullptr;
    std::setlocale(LC_ALL, before.c_str());
    return ok;
}

/// Runs `commands` (tandem-cli argument lists; "$OUT" stands for a fresh folder) one after the
/// other with LC_ALL=`locale`; returns every command's exit code, stdout and stderr ("$OUT" in
/// place of the folder) followed by every file the commands wrote, name and bytes.
inline QByteArray transcript(const QList<QStringList>& commands, const QString& locale) {
    QTemporaryDir dir;
    QByteArray all;
    for (const QStringList& command : commands) {
        QStringList args = command;
        args.replaceInStrings(QStringLiteral("$OUT"), dir.path());
        const CliRun r = runCli(args, locale);
        all += "$ " + command.join(QLatin1Char(' ')).toUtf8() + "\nexit " +
               QByteArray::number(r.exitCode) + "\n" +
               QString(r.out + r.err).replace(dir.path(), QStringLiteral("$OUT")).toUtf8();
    }
    QDirIterator it(dir.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    QStringList files;
    while (it.hasNext()) files << it.next();
    files.sort();
    for (const QString& f : files) {
        QFile in(f);
        all += "--- " + QDir(dir.path()).relativeFilePath(f).toUtf8() + "\n" +
               (in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray("<unreadable>")) + "\n";
    }
    return all;
}

/// Writes `bytes` to `dir`/`name`; the path, or "" when it cannot be written whole.
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() ? path : QString();
}

/// Writes `bytes` to `dir`/model.json; the path, or "" when it cannot be written.
inline QString writeModel(const QTemporaryDir& dir, const QByteArray& bytes) {
    return writeFile(dir, QStringLiteral("model.json"), bytes);
}

}  // namespace cli_fixtures
