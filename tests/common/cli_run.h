#pragma once
// tandem-cli as a child process for the CLI suites (TANDEM_CLI: the binary's path).
#include <QProcess>
#include <QString>
#include <QStringList>

namespace tandem::test {

/// Exit code (-1: crashed or timed out) and the two output streams of one tandem-cli run.
struct CliRun {
    int exitCode = -1;
    QString out;
    QString err;
};

/// Runs `cli` with `args` (at most 10 minutes); `locale`, when not empty, is the child's LC_ALL.
inline CliRun runCliAt(const QString& cli, const QStringList& args,
                       const QString& locale = QString()) {
    QProcess p;
    if (!locale.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LC_ALL"), locale);
        p.setProcessEnvironment(env);
    }
    p.start(cli, args);
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

}  // namespace tandem::test
