#pragma once
// tandem-cli as a child process for the reliability suites (TANDEM_CLI: its path, set by CMake).
#include <QProcess>
#include <QString>
#include <QStringList>

namespace reliability {

/// One tandem-cli call: `finished` when it exited normally within 60 s (`crashed` otherwise: a
/// signal, or killed as a hang), its exit code and both output streams.
struct CliRun {
    int exitCode = -1;
    bool finished = false;
    bool crashed = true;
    QString out, err;
};

/// Runs tandem-cli with `args` in `cwd` (empty: this process's working folder); a call that does
/// not finish within 60 s is killed and reported as not finished, with a note in `err`.
inline CliRun runCli(const QStringList& args, const QString& cwd = QString()) {
    QProcess p;
    if (!cwd.isEmpty()) p.setWorkingDirectory(cwd);
    p.start(QStringLiteral(TANDEM_CLI), args);
    CliRun r;
    if (!p.waitForStarted(10000) || !p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = QStringLiteral("did not finish within 60 s");
        return r;
    }
    r.finished = p.exitStatus() == QProcess::NormalExit;
    r.crashed = !r.finished;
    r.exitCode = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

}  // namespace reliability
