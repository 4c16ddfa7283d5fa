// Output files of tandem-cli on hostile targets: a full disk (a small tmpfs filled to the last
// byte) fails the write with "no space left on device" and keeps the previous file; device
// nodes, FIFOs and folders are refused and survive; merge never writes over its inputs; a run
// killed during its swap is put back by the next run into the folder.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLockFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <map>

#include "full_disk.h"
#include "output_folder.h"
#include "save_file.h"
#include "test_main.h"

using tandem::testing::isNode;
using tandem::testing::makeNode;
using tandem::testing::NodeKind;
using tandem::testing::readBytes;
using tandem::testing::SmallTmpfs;
using tandem::testing::writeBytes;

Q_DECLARE_METATYPE(tandem::testing::NodeKind)

namespace {

struct Run {
    int exitCode = -1;
    bool crashed = false;
    bool timedOut = false;
    QString out, err;
};

/// Runs `program` with a 60 s limit (a writer blocked on a FIFO is killed, not waited for).
Run runProgram(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    Run r;
    if (!p.waitForStarted(10000)) return r;
    if (!p.waitForFinished(60000)) {
        r.timedOut = true;
        p.kill();
        p.waitForFinished(5000);
    }
    r.exitCode = p.exitCode();
    r.crashed = p.exitStatus() == QProcess::CrashExit;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

Run runCli(const QStringList& args) { return runProgram(QStringLiteral(TANDEM_CLI), args); }

/// Runs tandem-cli with its standard error on a pseudo-terminal (isatty is true there, as in an
/// interactive shell) and its standard output into `outFile`; `err` is what the terminal
/// received. A run not finished within 60 s is killed (timedOut).
Run runCliOnTerminal(const QStringList& args, const QString& outFile) {
    Run r;
    int master = -1, slave = -1;
    if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) return r;
    std::vector<QByteArray> words{QByteArray(TANDEM_CLI)};
    for (const QString& a : args) words.push_back(QFile::encodeName(a));
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    const QByteArray out = QFile::encodeName(outFile);
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int fd = ::open(out.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int in = ::open("/dev/null", O_RDONLY);
        if (fd < 0 || in < 0 || ::dup2(in, 0) < 0 || ::dup2(fd, 1) < 0 || ::dup2(slave, 2) < 0)
            ::_exit(127);
        ::close(master);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(slave);
    QByteArray err;
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        pollfd p{master, POLLIN, 0};
        if (::poll(&p, 1, 1000) < 0 && errno != EINTR) break;
        if (clock.elapsed() > 60000) {
            r.timedOut = true;
            ::kill(pid, SIGKILL);
            break;
        }
        if (!(p.revents & (POLLIN | POLLHUP))) continue;
        char buf[4096];
        const ssize_t n = ::read(master, buf, sizeof buf);
        if (n <= 0) break;  // EIO: the child closed the terminal's last writer
        err.append(buf, int(n));
    }
    ::close(master);
    int status = 0;
    ::waitpid(pid, &status, 0);
    r.crashed = !WIFEXITED(status);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = QString::fromUtf8(err);
    return r;
}

/// Every entry of `dir` (hidden ones included, fillers excluded) with its bytes.
std::map<QString, QByteArray> snapshot(const QString& dir) {
    std::map<QString, QByteArray> files;
    const QDir d(dir);
    for (const QString& name :
         d.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)) {
        if (name.startsWith(QLatin1String("filler-"))) continue;
        files[name] = QFileInfo(d.filePath(name)).isDir() ? QByteArray("<folder>")
                                                          : readBytes(d.filePath(name));
    }
    return files;
}

QStringList stagingFolders(const QString& dir) {
    return QDir(dir).entryList({QStringLiteral(".tandem-run-*")}, QDir::Dirs | QDir::Hidden);
}

const char* kScenario = R"({"mosaic": {"nodes": 2, "q_values": [8], "top_k_values": [2],
    "experts_values": [16], "expert_split_values": [4]}})";

}  // namespace

class TstOutputFiles : public QObject {
    Q_OBJECT
    QTemporaryDir m_work;
    QString m_scenario, m_shard0, m_shard1;

    /// The writer `writer` aimed at `target` (a file; a folder for "run").
    Run write(const QString& writer, const QString& target) {
        if (writer == QLatin1String("sweep"))
            return runCli({QStringLiteral("sweep"), m_scenario, QStringLiteral("--vary"),
                           QStringLiteral("mosaic.days=1,2"), QStringLiteral("--out"), target});
        if (writer == QLatin1String("merge"))
            return runCli(
                {QStringLiteral("merge"), QStringLiteral("--out"), target, m_shard0, m_shard1});
        return runCli({QStringLiteral("run"), m_scenario, QStringLiteral("--out"), target});
    }

private slots:
    void initTestCase() {
        QVERIFY(m_work.isValid());
        m_scenario = m_work.filePath(QStringLiteral("s.json"));
        QVERIFY(writeBytes(m_scenario, kScenario));
        m_shard0 = m_work.filePath(QStringLiteral("shard0.csv"));
        m_shard1 = m_work.filePath(QStringLiteral("shard1.csv"));
        for (int i = 0; i < 2; ++i) {
            const Run r = runCli({QStringLiteral("sweep"), m_scenario, QStringLiteral("--vary"),
                                  QStringLiteral("mosaic.days=1,2,3"), QStringLiteral("--shard"),
                                  QStringLiteral("%1/2").arg(i), QStringLiteral("--out"),
                                  i ? m_shard1 : m_shard0});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        }
    }

    /// Long commands show "point i of n" on a terminal and nothing otherwise: `sweep` had no
    /// progress at all; `scaling` had it. Standard output is the same bytes either way, and a
    /// run whose standard error is no terminal writes nothing there.
    void progressOnTerminalOnly_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("points");
        QTest::newRow("sweep, 3 points")
            << QStringList{QStringLiteral("sweep"),     QStringLiteral("$SCENARIO"),
                           QStringLiteral("--vary"),    QStringLiteral("mosaic.days=1,2,3"),
                           QStringLiteral("--threads"), QStringLiteral("2"),
                           QStringLiteral("--out"),     QStringLiteral("$OUT")}
            << 3;
        QTest::newRow("sweep, 2 x 2 points, sharded")
            << QStringList{QStringLiteral("sweep"),   QStringLiteral("$SCENARIO"),
                           QStringLiteral("--vary"),  QStringLiteral("mosaic.days=1,2,3,4"),
                           QStringLiteral("--vary"),  QStringLiteral("mosaic.nodes=2,4"),
                           QStringLiteral("--shard"), QStringLiteral("1/2"),
                           QStringLiteral("--out"),   QStringLiteral("$OUT")}
            << 4;
    }
    void progressOnTerminalOnly() {
        QFETCH(QStringList, args);
        QFETCH(int, points);
        auto with = [&](const QString& out) {
            QStringList a = args;
            a.replaceInStrings(QStringLiteral("$SCENARIO"), m_scenario);
            a.replaceInStrings(QStringLiteral("$OUT"), out);
            return a;
        };
        const QString plainOut = m_work.filePath(QStringLiteral("plain.csv"));
        const QString ttyOut = m_work.filePath(QStringLiteral("tty.csv"));
        const QString ttyStdout = m_work.filePath(QStringLiteral("tty.stdout"));
        const Run plain = runCli(with(plainOut));
        QCOMPARE(plain.exitCode, 0);
        QCOMPARE(plain.err, QString());  // no terminal: nothing on standard error
        const Run tty = runCliOnTerminal(with(ttyOut), ttyStdout);
        QVERIFY2(!tty.timedOut && !tty.crashed, qPrintable(tty.err));
        QCOMPARE(tty.exitCode, 0);
        for (int i = 1; i <= points; ++i)
            QVERIFY2(tty.err.contains(QStringLiteral("\rpoint %1 of %2").arg(i).arg(points)),
                     qPrintable(tty.err));
        QVERIFY2(tty.err.endsWith(QStringLiteral("\r\033[K")), qPrintable(tty.err));
        // The results and standard output do not depend on where standard error goes.
        QCOMPARE(readBytes(ttyOut), readBytes(plainOut));
        QCOMPARE(QString::fromUtf8(readBytes(ttyStdout)).replace(ttyOut, plainOut), plain.out);
    }

    void errnoReasons_data() {
        QTest::addColumn<int>("err");
        QTest::addColumn<QString>("reason");
        QTest::newRow("ENOSPC") << ENOSPC << "no space left on device";
        QTest::newRow("EDQUOT") << EDQUOT << "no space left on device (disk quota exceeded)";
        QTest::newRow("EROFS") << EROFS << "read-only file system";
        QTest::newRow("ENOENT (strerror, lower case)") << ENOENT << "no such file or directory";
    }
    void errnoReasons() {
        QFETCH(int, err);
        QFETCH(QString, reason);
        QCOMPARE(tandem::fileio::errnoReason(err), reason);
    }

    void fullDisk_data() {
        QTest::addColumn<QString>("writer");
        QTest::addColumn<int>("freeKib");
        QTest::addColumn<int>("payloadKib");
        QTest::newRow("sweep --out FILE, disk full") << "sweep" << 0 << 0;
        QTest::newRow("merge --out FILE, disk full") << "merge" << 0 << 0;
        QTest::newRow("run --out DIR, disk full") << "run" << 0 << 0;
        QTest::newRow("run --out DIR, 16 KiB free") << "run" << 16 << 0;
        QTest::newRow("writeFileAtomic 1 KiB, disk full") << "fileio" << 0 << 1;
        QTest::newRow("writeFileAtomic 1 MiB, 64 KiB free") << "fileio" << 64 << 1024;
    }
    void fullDisk() {
        QFETCH(QString, writer);
        QFETCH(int, freeKib);
        QFETCH(int, payloadKib);
        SmallTmpfs fs(512);
        if (!fs.valid()) QSKIP(qPrintable(fs.why()));
        const bool isRun = writer == QLatin1String("run");
        const QString target =
            fs.filePath(isRun ? QStringLiteral("run") : QStringLiteral("out.csv"));
        if (isRun) {
            const Run first = write(writer, target);  // the previous results, on a roomy disk
            QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        } else {
            QVERIFY(writeBytes(target, "previous contents\n"));
        }
        const auto before = snapshot(fs.path());
        const auto runBefore = isRun ? snapshot(target) : std::map<QString, QByteArray>();
        QVERIFY(fs.fill(qint64(freeKib) * 1024) <= qint64(freeKib) * 1024);

        QString message;
        if (writer == QLatin1String("fileio")) {
            const QByteArray payload(payloadKib * 1024, 'n');
            QVERIFY(!tandem::fileio::writeFileAtomic(target, payload, &message));
        } else {
            const Run r = write(writer, target);
            QVERIFY2(!r.crashed && !r.timedOut, qPrintable(r.err));
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(!r.out.contains(QStringLiteral("wrote ")), qPrintable(r.out));
            message = r.err;
        }
        QVERIFY2(message.contains(target), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("no space left on device")), qPrintable(message));
        if (isRun)  // a run folder that held results says they are kept
            QVERIFY2(message.contains(QStringLiteral("the folder keeps the previous results")),
                     qPrintable(message));
        // The previous file (or run folder) is byte for byte what it was, and no temporary or
        // staging file is left behind.
        QCOMPARE(snapshot(fs.path()), before);
        if (isRun) QCOMPARE(snapshot(target), runBefore);
    }

    /// A failed `run --out DIR` leaves the disk as it was: the folders the run made (DIR and
    /// its missing parents) are removed again; a folder that existed before is kept, and so is
    /// a folder someone else put a file into. "full": a full tmpfs (root); "fsize": a file-size
    /// limit (RLIMIT_FSIZE, EFBIG part-way through a result file), runs as any user.
    /// A write failure exits 1 for every writer, a read-only file system included (`run --out
    /// DIR` exited 2, the bad-input code, for a folder it could not write); the reason is named
    /// and nothing is written or removed.
    void readOnlyTarget_data() {
        QTest::addColumn<QString>("writer");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("reason");
        QTest::newRow("run --out DIR, existing folder")
            << "run"
            << "run"
            << "output folder is not writable: read-only file system";
        QTest::newRow("run --out DIR, new folder") << "run"
                                                   << "new/run"
                                                   << "is not writable: read-only file system";
        QTest::newRow("sweep --out FILE") << "sweep"
                                          << "out.csv"
                                          << "read-only file system";
        QTest::newRow("merge --out FILE") << "merge"
                                          << "out.csv"
                                          << "read-only file system";
    }
    void readOnlyTarget() {
        QFETCH(QString, writer);
        QFETCH(QString, name);
        QFETCH(QString, reason);
        SmallTmpfs fs(512);
        if (!fs.valid()) QSKIP(qPrintable(fs.why()));
        const QString target = fs.filePath(name);
        if (writer == QLatin1String("run") && !name.contains(QLatin1Char('/'))) {
            const Run first = write(writer, target);  // the previous results
            QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        }
        QVERIFY(fs.remountReadOnly());
        const auto before = snapshot(fs.path());
        const Run r = write(writer, target);
        QVERIFY2(!r.crashed && !r.timedOut, qPrintable(r.err));
        QVERIFY2(r.err.contains(reason), qPrintable(r.err));
        QCOMPARE(r.exitCode, 1);  // a write failure, not bad input (2)
        QVERIFY(snapshot(fs.path()) == before);
    }

    void failedRunRemovesNewFolder_data() {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("out");       // relative to the disk
        QTest::addColumn<QString>("existing");  // folder made before the run ("" = none)
        QTest::addColumn<QString>("kept");      // what must exist afterwards ("" = nothing new)
        QTest::newRow("full disk, new DIR") << "full"
                                            << "new"
                                            << ""
                                            << "";
        QTest::newRow("full disk, new DIR and parents") << "full"
                                                        << "a/b/new"
                                                        << ""
                                                        << "";
        QTest::newRow("full disk, new DIR in an existing parent") << "full"
                                                                  << "have/new"
                                                                  << "have"
                                                                  << "have";
        QTest::newRow("full disk, existing empty DIR") << "full"
                                                       << "have"
                                                       << "have"
                                                       << "have";
        QTest::newRow("file too large, new DIR") << "fsize"
                                                 << "new"
                                                 << ""
                                                 << "";
        QTest::newRow("file too large, new DIR and parents") << "fsize"
                                                             << "a/b/new"
                                                             << ""
                                                             << "";
        QTest::newRow("file too large, existing empty DIR") << "fsize"
                                                            << "have"
                                                            << "have"
                                                            << "have";
    }
    void failedRunRemovesNewFolder() {
        QFETCH(QString, how);
        QFETCH(QString, out);
        QFETCH(QString, existing);
        QFETCH(QString, kept);
        const bool full = how == QLatin1String("full");
        SmallTmpfs fs(512);
        QTemporaryDir tmp;
        if (full && !fs.valid()) QSKIP(qPrintable(fs.why()));
        QVERIFY(tmp.isValid());
        const QString root = full ? fs.path() : tmp.path();
        if (!existing.isEmpty()) QVERIFY(QDir(root).mkpath(existing));
        const auto before = snapshot(root);
        const QString target = QDir(root).filePath(out);
        if (full) QCOMPARE(fs.fill(0), qint64(0));
        QProcess p;
        if (!full)
            p.setChildProcessModifier([] {
                ::signal(SIGXFSZ, SIG_IGN);
                const struct rlimit limit = {200, 200};
                ::setrlimit(RLIMIT_FSIZE, &limit);
            });
        p.start(QStringLiteral(TANDEM_CLI),
                {QStringLiteral("run"), m_scenario, QStringLiteral("--out"), target});
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(
            err.contains(target) && err.contains(full ? QStringLiteral("no space left on device")
                                                      : QStringLiteral("file too large")),
            qPrintable(err));
        QVERIFY2(!QString::fromUtf8(p.readAllStandardOutput()).contains(QStringLiteral("wrote ")),
                 "a result file was reported as written");
        // A folder without earlier results has none to keep: the message says nothing was written.
        QVERIFY2(err.contains(QStringLiteral("nothing was written")) &&
                     !err.contains(QStringLiteral("previous results")),
                 qPrintable(err));
        // Nothing new at any level: the top of the disk and the kept folder are as before.
        QCOMPARE(snapshot(root), before);
        const QString first = out.section(QLatin1Char('/'), 0, 0);
        if (kept.isEmpty()) {
            QVERIFY2(!QFileInfo::exists(QDir(root).filePath(first)),
                     qPrintable(first + QStringLiteral(" was left behind")));
        } else {
            QVERIFY(QFileInfo(QDir(root).filePath(kept)).isDir());
            QCOMPARE(snapshot(QDir(root).filePath(kept)), (std::map<QString, QByteArray>()));
        }
    }

    /// A folder run did not make, or that holds something not ours, is never removed.
    void newFolderKeepsForeignFiles() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString target = tmp.filePath(QStringLiteral("a/new"));
        {
            tandem::fileio::NewOutputFolder folder(target);
            QString why;
            QVERIFY2(folder.create(&why), qPrintable(why));
            QVERIFY(folder.createdAny());
            QVERIFY(writeBytes(target + QStringLiteral("/theirs.txt"), "not ours\n"));
        }  // not kept: removal is tried and refused by rmdir (not empty)
        QCOMPARE(readBytes(target + QStringLiteral("/theirs.txt")), QByteArray("not ours\n"));
        QVERIFY(QFile::remove(target + QStringLiteral("/theirs.txt")));
        {
            tandem::fileio::NewOutputFolder folder(target);  // exists now: made by no one here
            QString why;
            QVERIFY2(folder.create(&why), qPrintable(why));
            QVERIFY(!folder.createdAny());
        }
        QVERIFY(QFileInfo(target).isDir());
        {
            tandem::fileio::NewOutputFolder folder(tmp.filePath(QStringLiteral("b/c")));
            QString why;
            QVERIFY(folder.create(&why));
        }
        QVERIFY(!QFileInfo::exists(tmp.filePath(QStringLiteral("b"))));
    }

    /// The reason a path cannot be an output folder (the writers of folders all use it).
    void outputFolderProblem_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("problem");  // "" = usable; %1 = the temporary folder
        QTest::newRow("existing folder") << "%1"
                                         << "";
        QTest::newRow("missing folder") << "%1/new/deeper"
                                        << "";
        QTest::newRow("/dev/null") << "/dev/null"
                                   << "is a character device, not a folder";
        QTest::newRow("existing file") << "%1/file"
                                       << "is a file, not a folder";
        QTest::newRow("below a file") << "%1/file/new"
                                      << "%1/file is a file, not a folder";
        QTest::newRow("below /dev/null") << "/dev/null/new"
                                         << "/dev/null is a character device, not a folder";
        QTest::newRow("FIFO") << "%1/fifo"
                              << "is a FIFO (named pipe), not a folder";
    }
    void outputFolderProblem() {
        QFETCH(QString, path);
        QFETCH(QString, problem);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QVERIFY(writeBytes(tmp.filePath(QStringLiteral("file")), "x"));
        QVERIFY(makeNode(tmp.filePath(QStringLiteral("fifo")), NodeKind::Fifo));
        const auto fill = [&](const QString& t) {
            return QString(t).replace(QStringLiteral("%1"), tmp.path());
        };
        QCOMPARE(tandem::fileio::outputFolderProblem(fill(path)), fill(problem));
    }

    /// Without root (no tmpfs): a file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored) makes write(2)
    /// fail with EFBIG part-way through, the same short-write path as a full disk.
    void fileSizeLimit_data() {
        QTest::addColumn<QString>("writer");
        for (const char* w : {"sweep", "merge", "run"}) QTest::newRow(w) << w;
    }
    void fileSizeLimit() {
        QFETCH(QString, writer);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const bool isRun = writer == QLatin1String("run");
        const QString target =
            dir.filePath(isRun ? QStringLiteral("run") : QStringLiteral("out.csv"));
        if (isRun)
            QVERIFY(write(writer, target).exitCode == 0);
        else
            QVERIFY(writeBytes(target, "previous contents\n"));
        const auto before = snapshot(dir.path());
        const auto runBefore = isRun ? snapshot(target) : std::map<QString, QByteArray>();
        QProcess p;
        p.setChildProcessModifier([] {
            ::signal(SIGXFSZ, SIG_IGN);
            const struct rlimit limit = {200, 200};
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
        QStringList args;
        if (writer == QLatin1String("sweep"))
            args = {QStringLiteral("sweep"),  m_scenario,
                    QStringLiteral("--vary"), QStringLiteral("mosaic.days=1,2"),
                    QStringLiteral("--out"),  target};
        else if (writer == QLatin1String("merge"))
            args = {QStringLiteral("merge"), QStringLiteral("--out"), target, m_shard0, m_shard1};
        else
            args = {QStringLiteral("run"), m_scenario, QStringLiteral("--out"), target};
        p.start(QStringLiteral(TANDEM_CLI), args);
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains(target) && err.contains(QStringLiteral("file too large")),
                 qPrintable(err));
        QCOMPARE(snapshot(dir.path()), before);
        if (isRun) QCOMPARE(snapshot(target), runBefore);
    }

    /// Standard output is a file too: `plan --json > file` on a nearly full disk kept 8 KiB of
    /// 55 KiB with exit 0, and plan, inspect, validate, reproduce and fit-stack exited 0 into
    /// /dev/full. Every command checks its writes (flush and close included): exit 1 with the
    /// errno's message; a file-size limit (SIGXFSZ, not ignored by the caller) gives the same
    /// clean failure ("File too large") instead of a kill.
    void stdoutWriteFailure_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("target");  // "/dev/full" or "limit" (a file under a 4 KiB limit)
        QTest::addColumn<QString>("reason");
        const QString model = QStringLiteral(TANDEM_TEST_DATA "/models/DeepSeek-V3.config.json");
        const QStringList plan{QStringLiteral("plan"),       model,
                               QStringLiteral("--devices"),  QStringLiteral("256"),
                               QStringLiteral("--hardware"), QStringLiteral("h100")};
        const QStringList inspect{
            QStringLiteral("inspect"),
            QStringLiteral(TANDEM_TEST_DATA
                           "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt"),
            QStringLiteral("--json")};
        const QStringList validate{QStringLiteral("validate"),
                                   QStringLiteral(TANDEM_EXAMPLES "/mlforml-scenario1.json")};
        const QStringList reproduce{QStringLiteral("reproduce"), QStringLiteral("mosaic")};
        const QStringList fit{QStringLiteral("fit-stack"), QStringLiteral("--json")};
        const QString full = QStringLiteral("No space left on device");
        const QString big = QStringLiteral("File too large");
        QTest::newRow("plan --json, /dev/full")
            << plan + QStringList{QStringLiteral("--json")} << "/dev/full" << full;
        QTest::newRow("plan, /dev/full") << plan << "/dev/full" << full;
        QTest::newRow("inspect, /dev/full") << inspect << "/dev/full" << full;
        QTest::newRow("validate, /dev/full") << validate << "/dev/full" << full;
        QTest::newRow("reproduce, /dev/full") << reproduce << "/dev/full" << full;
        QTest::newRow("fit-stack, /dev/full") << fit << "/dev/full" << full;
        QTest::newRow("plan --json, 4 KiB limit")
            << plan + QStringList{QStringLiteral("--json")} << "limit" << big;
        QTest::newRow("inspect, 4 KiB limit") << inspect << "limit" << big;
        QTest::newRow("reproduce, 4 KiB limit") << reproduce << "limit" << big;
    }
    void stdoutWriteFailure() {
        QFETCH(QStringList, args);
        QFETCH(QString, target);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const bool limit = target == QLatin1String("limit");
        const QString file = limit ? dir.filePath(QStringLiteral("out.txt")) : target;
        QProcess p;
        p.setStandardOutputFile(file);
        if (limit)
            p.setChildProcessModifier([] {
                ::signal(SIGXFSZ, SIG_DFL);  // tandem-cli itself must turn the signal off
                const struct rlimit lim = {4096, 4096};
                ::setrlimit(RLIMIT_FSIZE, &lim);
            });
        p.start(QStringLiteral(TANDEM_CLI), args);
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(
            err.contains(QStringLiteral("tandem-cli: cannot write to standard output: ") + reason),
            qPrintable(err));
        if (limit) QCOMPARE(QFileInfo(file).size(), qint64(4096));
    }

    /// Into a reader that closes early (`| head -c 10`) a command stops quietly: no message.
    void stdoutClosedPipeIsQuiet() {
        QProcess p;
        p.start(QStringLiteral("/bin/sh"),
                {QStringLiteral("-c"), QStringLiteral("\"$0\" \"$@\" | head -c 10 > /dev/null"),
                 QStringLiteral(TANDEM_CLI), QStringLiteral("reproduce"), QStringLiteral("all"),
                 QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(p.readAllStandardError()), QString());
    }

    void nonRegularTarget_data() {
        QTest::addColumn<QString>("writer");
        QTest::addColumn<NodeKind>("kind");
        QTest::addColumn<bool>("insideRunFolder");
        const struct {
            const char* name;
            NodeKind kind;
        } kinds[] = {{"character device", NodeKind::CharDevice},
                     {"FIFO", NodeKind::Fifo},
                     {"folder", NodeKind::Folder}};
        for (const auto& k : kinds) {
            for (const char* w : {"sweep", "merge", "run", "fileio"})
                QTest::addRow("%s --out %s", w, k.name) << w << k.kind << false;
            QTest::addRow("run --out DIR holding a %s as mosaic_result.json", k.name)
                << "run" << k.kind << true;
        }
    }
    void nonRegularTarget() {
        QFETCH(QString, writer);
        QFETCH(NodeKind, kind);
        QFETCH(bool, insideRunFolder);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        if (writer == QLatin1String("run") && !insideRunFolder && kind == NodeKind::Folder)
            QSKIP("a folder is what run --out names");
        const QString target = insideRunFolder ? dir.filePath(QStringLiteral("run"))
                                               : dir.filePath(QStringLiteral("target"));
        const QString node =
            insideRunFolder ? target + QStringLiteral("/mosaic_result.json") : target;
        QVERIFY(QDir().mkpath(dir.path()));
        if (insideRunFolder) QVERIFY(QDir().mkpath(target));
        if (!makeNode(node, kind)) QSKIP("cannot make this node here (mknod needs root)");
        QString message;
        if (writer == QLatin1String("fileio")) {
            QVERIFY(!tandem::fileio::writeFileAtomic(target, "data\n", &message));
        } else {
            const Run r = write(writer, target);
            QVERIFY2(!r.timedOut, "the writer blocked on the target");
            QVERIFY2(!r.crashed, qPrintable(r.err));
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(!r.out.contains(QStringLiteral("wrote ")), qPrintable(r.out));
            message = r.err;
        }
        QVERIFY2(message.contains(node) || message.contains(target), qPrintable(message));
        const bool runFolderItself = writer == QLatin1String("run") && !insideRunFolder;
        const QString why = runFolderItself            ? QStringLiteral("not a folder")
                            : kind == NodeKind::Folder ? QStringLiteral("is a folder")
                                                       : QStringLiteral("not a regular file");
        QVERIFY2(message.contains(why), qPrintable(message));
        QVERIFY2(isNode(node, kind), "the target was replaced");
        if (insideRunFolder) QCOMPARE(stagingFolders(target), QStringList());
    }

    void symlinkToRegularFile_data() {
        QTest::addColumn<QString>("writer");
        for (const char* w : {"sweep", "merge", "fileio"}) QTest::newRow(w) << w;
    }
    void symlinkToRegularFile() {
        QFETCH(QString, writer);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString real = dir.filePath(QStringLiteral("real.csv"));
        const QString link = dir.filePath(QStringLiteral("link.csv"));
        QVERIFY(writeBytes(real, "previous\n"));
        QVERIFY(QFile::link(real, link));
        if (writer == QLatin1String("fileio")) {
            QString error;
            QVERIFY2(tandem::fileio::writeFileAtomic(link, "point,x\n", &error), qPrintable(error));
        } else {
            const Run r = write(writer, link);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        }
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(QFileInfo(link).symLinkTarget(), real);
        QVERIFY2(readBytes(real).startsWith("point,"), readBytes(real).constData());
    }

    void outputIsAnInput_data() {
        QTest::addColumn<QString>("writer");
        QTest::addColumn<QString>("spelling");
        for (const char* w : {"merge", "sweep"})
            for (const char* s : {"same path", "dot-dot path", "symbolic link", "hard link"})
                QTest::newRow(qPrintable(QStringLiteral("%1 --out: %2").arg(w, s))) << w << s;
    }
    void outputIsAnInput() {
        QFETCH(QString, writer);
        QFETCH(QString, spelling);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub")));
        const bool merge = writer == QLatin1String("merge");
        const QString input =
            dir.filePath(merge ? QStringLiteral("shard0.csv") : QStringLiteral("s.json"));
        QVERIFY(QFile::copy(merge ? m_shard0 : m_scenario, input));
        const QByteArray before = readBytes(input);
        QString out = input;
        if (spelling == QLatin1String("dot-dot path"))
            out = dir.filePath(QStringLiteral("sub/../") + QFileInfo(input).fileName());
        if (spelling == QLatin1String("symbolic link")) {
            out = dir.filePath(QStringLiteral("link"));
            QVERIFY(QFile::link(input, out));
        }
        if (spelling == QLatin1String("hard link")) {
            out = dir.filePath(QStringLiteral("hard"));
            QCOMPARE(
                ::link(QFile::encodeName(input).constData(), QFile::encodeName(out).constData()),
                0);
        }
        const Run r =
            merge ? runCli({QStringLiteral("merge"), QStringLiteral("--out"), out, input, m_shard1})
                  : runCli({QStringLiteral("sweep"), input, QStringLiteral("--vary"),
                            QStringLiteral("mosaic.days=1,2"), QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("is the input")) && r.err.contains(input),
                 qPrintable(r.err));
        QCOMPARE(readBytes(input), before);
    }

    void interruptedSwapRecovered_data() {
        QTest::addColumn<int>("killAt");
        QTest::addColumn<bool>("expectNew");
        // Steps of the swap in run_output_killer: 1 staged, 2 journal written, 3-5 the three
        // previous files moved aside, 6-7 the two new files placed, 8 journal removed.
        for (int k = 1; k <= 8; ++k) QTest::addRow("killed at step %d", k) << k << (k == 8);
        QTest::newRow("not killed") << 0 << true;
    }
    void interruptedSwapRecovered() {
        QFETCH(int, killAt);
        QFETCH(bool, expectNew);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::map<QString, QByteArray> oldSet{{"scenario.json", "old scenario\n"},
                                                   {"mosaic_result.json", "old result\n"},
                                                   {"mosaic_frontier.csv", "old frontier\n"},
                                                   {"notes.txt", "not a result file\n"}};
        const std::map<QString, QByteArray> newSet{{"scenario.json", "new scenario\n"},
                                                   {"mosaic_result.json", "new result\n"},
                                                   {"notes.txt", "not a result file\n"}};
        for (const auto& [name, bytes] : oldSet) QVERIFY(writeBytes(dir.filePath(name), bytes));
        const Run w = runProgram(QStringLiteral(TANDEM_RUN_OUTPUT_KILLER),
                                 {QStringLiteral("write"), dir.path(), QString::number(killAt)});
        QCOMPARE(w.crashed, killAt > 0);
        if (killAt > 0) QCOMPARE(stagingFolders(dir.path()).size(), 1);
        const Run rec = runProgram(QStringLiteral(TANDEM_RUN_OUTPUT_KILLER),
                                   {QStringLiteral("recover"), dir.path()});
        QCOMPARE(rec.exitCode, 0);
        QVERIFY2(rec.out.contains(QStringLiteral("removed %1").arg(killAt > 0 ? 1 : 0)),
                 qPrintable(rec.out));
        QCOMPARE(snapshot(dir.path()), expectNew ? newSet : oldSet);
    }

    void nextRunCleansUp_data() {
        QTest::addColumn<int>("killAt");
        for (int k : {1, 4, 6, 8}) QTest::addRow("killed at step %d", k) << k;
    }
    void nextRunCleansUp() {
        QFETCH(int, killAt);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const char* name : {"scenario.json", "mosaic_result.json", "mosaic_frontier.csv"})
            QVERIFY(writeBytes(dir.filePath(QString::fromLatin1(name)), "old\n"));
        const Run w = runProgram(QStringLiteral(TANDEM_RUN_OUTPUT_KILLER),
                                 {QStringLiteral("write"), dir.path(), QString::number(killAt)});
        QVERIFY(w.crashed);
        QCOMPARE(stagingFolders(dir.path()).size(), 1);
        // A staging folder whose owner still runs (this test holds its lock), and one that is
        // not provably ours (no lock file): both are left alone.
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral(".tandem-run-live00/previous")));
        QLockFile live(dir.filePath(QStringLiteral(".tandem-run-live00/owner.lock")));
        QVERIFY(live.tryLock(0));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral(".tandem-run-nolock")));
        const Run r =
            runCli({QStringLiteral("run"), m_scenario, QStringLiteral("--out"), dir.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("removed the staging folder of an interrupted run")),
                 qPrintable(r.out));
        QCOMPARE(stagingFolders(dir.path()), QStringList({QStringLiteral(".tandem-run-live00"),
                                                          QStringLiteral(".tandem-run-nolock")}));
        QVERIFY(readBytes(dir.filePath(QStringLiteral("mosaic_result.json"))).startsWith("{"));
    }
};

TANDEM_TEST_GUILESS_MAIN(TstOutputFiles)
#include "tst_output_files.moc"
