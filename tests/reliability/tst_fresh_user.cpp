// Ways a new user broke tandem-cli, each as a regression test (exit codes and the message that
// names the cause).
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "cli_process.h"
#include "common/number_format.h"
#include "io/text_file.h"
#include "scenario/scenario.h"
#include "test_main.h"

namespace {

using reliability::CliRun;
using reliability::runCli;

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// A small MOSAIC scenario (2 nodes, short window) naming `ncclFile`.
QByteArray mosaicScenario(const QString& ncclFile) {
    nlohmann::json j;
    j["mosaic"] = {{"nodes", 2}, {"days", 5}, {"nccl_tests_files", {ncclFile.toStdString()}}};
    return QByteArray::fromStdString(j.dump(2));
}

}  // namespace

class TstFreshUser : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString nccl() const {
        return QStringLiteral(TANDEM_TEST_DATA
                              "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt");
    }

private slots:
    /// Relative paths: run --out wrote DIR/scenario.json with the scenario's relative nccl-tests
    /// path unchanged, so the copy did not validate from DIR.
    void runCopyWithRelativePathsValidates() {
        QVERIFY(m_dir.isValid());
        const QString src = m_dir.filePath(QStringLiteral("src"));
        QVERIFY(QDir().mkpath(src + "/logs"));
        QVERIFY(QFile::copy(nccl(), src + "/logs/ar.txt"));
        QVERIFY(writeFile(src + "/s.json", mosaicScenario(QStringLiteral("logs/ar.txt"))));
        // Run from an unrelated working folder with a relative scenario name.
        const QString out = m_dir.filePath(QStringLiteral("elsewhere/out"));
        const auto r = runCli(
            {QStringLiteral("run"), QStringLiteral("src/s.json"), QStringLiteral("--out"), out},
            m_dir.path());
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.out + r.err));
        const auto v = runCli({QStringLiteral("validate"), out + "/scenario.json"});
        QVERIFY2(v.finished && v.exitCode == 0, qPrintable(v.out + v.err));
        // The log lies outside DIR's tree, so the copy names it by its absolute path.
        QFile copy(out + "/scenario.json");
        QVERIFY(copy.open(QIODevice::ReadOnly));
        const auto j = nlohmann::json::parse(copy.readAll().toStdString());
        QCOMPARE(QString::fromStdString(j["mosaic"]["nccl_tests_files"][0].get<std::string>()),
                 QDir::cleanPath(src + "/logs/ar.txt"));
    }

    /// Relative paths, same tree: a copy written next to its files names them relatively.
    void runCopyInsideTheTreeStaysRelative() {
        const QString src = m_dir.filePath(QStringLiteral("tree"));
        QVERIFY(QDir().mkpath(src + "/logs"));
        QVERIFY(QFile::copy(nccl(), src + "/logs/ar.txt"));
        QVERIFY(writeFile(src + "/s.json", mosaicScenario(QStringLiteral("logs/ar.txt"))));
        const auto r =
            runCli({QStringLiteral("run"), src + "/s.json", QStringLiteral("--out"), src});
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.out + r.err));
        QFile copy(src + "/scenario.json");
        QVERIFY(copy.open(QIODevice::ReadOnly));
        const auto j = nlohmann::json::parse(copy.readAll().toStdString());
        QCOMPARE(j["mosaic"]["nccl_tests_files"][0].get<std::string>(), std::string("logs/ar.txt"));
        const auto v = runCli({QStringLiteral("validate"), src + "/scenario.json"});
        QVERIFY2(v.finished && v.exitCode == 0, qPrintable(v.out + v.err));
    }

    /// Relative paths, GUI path: File > Save writes scenarioToJson(scenario) of a loaded scenario;
    /// the relative names were resolved to absolute ones on load, so a save into another
    /// folder loads again and finds the same log.
    void savedElsewhereLoadsAgain() {
        const QString src = m_dir.filePath(QStringLiteral("gui-src"));
        QVERIFY(QDir().mkpath(src + "/logs"));
        QVERIFY(QFile::copy(nccl(), src + "/logs/ar.txt"));
        QVERIFY(writeFile(src + "/s.json", mosaicScenario(QStringLiteral("logs/ar.txt"))));
        tandem::Diagnostics d;
        const auto s = tandem::loadScenarioFile((src + "/s.json").toStdString(), d);
        QVERIFY2(s && d.ok(), d.str().c_str());
        QCOMPARE(QString::fromStdString(s->mosaic->ncclTestsFiles.at(0)),
                 QDir::cleanPath(src + "/logs/ar.txt"));
        const QString other = m_dir.filePath(QStringLiteral("gui-other"));
        QVERIFY(QDir().mkpath(other));
        QVERIFY(writeFile(other + "/saved.json",
                          QByteArray::fromStdString(tandem::scenarioToJson(*s))));
        tandem::Diagnostics d2;
        const auto again = tandem::loadScenarioFile((other + "/saved.json").toStdString(), d2);
        QVERIFY2(again && d2.ok(), d2.str().c_str());
        QVERIFY(again->mosaic->hardware.measured != nullptr);
        // Saved where the log lies under the new file's folder, the name is relative to it; saved
        // in a sibling folder (the log would be "../logs/ar.txt"), it stays absolute.
        auto savedName = [&](const QString& savedAs) {
            const auto j = nlohmann::json::parse(tandem::scenarioToJson(*s, savedAs.toStdString()));
            return QString::fromStdString(j["mosaic"]["nccl_tests_files"][0].get<std::string>());
        };
        QCOMPARE(savedName(src + "/s2.json"), QStringLiteral("logs/ar.txt"));
        QCOMPARE(savedName(src + "/copy/s.json"), QDir::cleanPath(src + "/logs/ar.txt"));
    }

    /// FIFO inputs: sweep and merge blocked forever opening a FIFO.
    void fifoInputsAreRefused_data() {
        QTest::addColumn<QString>("command");
        QTest::newRow("sweep") << "sweep";
        QTest::newRow("merge") << "merge";
    }
    void fifoInputsAreRefused() {
        QFETCH(QString, command);
        const QString fifo = m_dir.filePath(QStringLiteral("pipe-") + command);
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        const QString out = m_dir.filePath(command + ".csv");
        const QStringList args = command == "sweep"
                                     ? QStringList{command,
                                                   fifo,
                                                   QStringLiteral("--vary"),
                                                   QStringLiteral("mosaic.nodes=2,4"),
                                                   QStringLiteral("--out"),
                                                   out}
                                     : QStringList{command, QStringLiteral("--out"), out, fifo};
        const auto r = runCli(args);
        QVERIFY2(r.finished, "tandem-cli blocked on a FIFO");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("is not a regular file")), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    /// Missing shard: merge of shards 0/3 and 1/3 of a 3-point grid wrote a 2-row table, exit 0.
    void mergeNamesMissingShard() {
        const QString scen = m_dir.filePath(QStringLiteral("sweep.json"));
        QVERIFY(writeFile(scen, R"({"mosaic": {"nodes": 2, "days": 5}})"));
        QStringList shards;
        for (int i = 0; i < 3; ++i) {
            const QString f = m_dir.filePath(QStringLiteral("shard%1.csv").arg(i));
            const auto r = runCli({QStringLiteral("sweep"), scen, QStringLiteral("--vary"),
                                   QStringLiteral("mosaic.days=5,10,20"), QStringLiteral("--shard"),
                                   QStringLiteral("%1/3").arg(i), QStringLiteral("--out"), f});
            QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.err));
            shards << f;
        }
        const QString merged = m_dir.filePath(QStringLiteral("merged.csv"));
        const auto partial = runCli(
            {QStringLiteral("merge"), QStringLiteral("--out"), merged, shards[0], shards[1]});
        QCOMPARE(partial.exitCode, 2);
        QVERIFY2(partial.err.contains(QStringLiteral("inputs: shard 2/3 is missing (points 2)")),
                 qPrintable(partial.err));
        QVERIFY(!QFile::exists(merged));
        // All three shards merge into the unsharded table byte for byte.
        const auto full = runCli({QStringLiteral("merge"), QStringLiteral("--out"), merged,
                                  shards[2], shards[0], shards[1]});
        QVERIFY2(full.exitCode == 0, qPrintable(full.err));
        const QString whole = m_dir.filePath(QStringLiteral("whole.csv"));
        const auto w =
            runCli({QStringLiteral("sweep"), scen, QStringLiteral("--vary"),
                    QStringLiteral("mosaic.days=5,10,20"), QStringLiteral("--out"), whole});
        QVERIFY2(w.exitCode == 0, qPrintable(w.err));
        QFile a(merged), b(whole);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(a.readAll(), b.readAll());
    }

    /// A truncated shard: cut at a field boundary (no final line end, last field empty) it was
    /// merged into a table with an empty cell, exit 0. Cut anywhere, it is refused (exit 2) and
    /// named, and nothing is written.
    void mergeRefusesTruncatedShard_data() {
        QTest::addColumn<int>("cutFromEnd");  // bytes removed from the end of shard 1
        QTest::addColumn<QString>("message");
        QTest::newRow("after the last comma") << -1 << "the file ends without a line end";
        QTest::newRow("only the line end") << 1 << "the file ends without a line end";
    }
    void mergeRefusesTruncatedShard() {
        QFETCH(int, cutFromEnd);
        QFETCH(QString, message);
        const QString scen = m_dir.filePath(QStringLiteral("cut.json"));
        QVERIFY(writeFile(scen, R"({"mosaic": {"nodes": 2, "days": 5}})"));
        QStringList shards;
        for (int i = 0; i < 2; ++i) {
            const QString f = m_dir.filePath(QStringLiteral("cut%1.csv").arg(i));
            const auto r = runCli({QStringLiteral("sweep"), scen, QStringLiteral("--vary"),
                                   QStringLiteral("mosaic.days=5,10,20"), QStringLiteral("--shard"),
                                   QStringLiteral("%1/2").arg(i), QStringLiteral("--out"), f});
            QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.err));
            shards << f;
        }
        QFile f(shards[1]);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        f.close();
        // -1: cut right after the last field separator (a comma outside quotes) of the last
        // row, so that its last field reads as empty.
        qsizetype lastSeparator = -1;
        bool quoted = false;
        for (qsizetype k = 0; k < bytes.size(); ++k) {
            if (bytes[k] == '"') quoted = !quoted;
            if (bytes[k] == ',' && !quoted) lastSeparator = k;
        }
        const qsizetype keep = cutFromEnd < 0 ? lastSeparator + 1 : bytes.size() - cutFromEnd;
        QVERIFY(keep > 0 && keep < bytes.size());
        bytes.truncate(keep);
        QVERIFY(writeFile(shards[1], bytes));
        const QString merged = m_dir.filePath(QStringLiteral("cut-merged.csv"));
        const auto r = runCli(
            {QStringLiteral("merge"), QStringLiteral("--out"), merged, shards[0], shards[1]});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(shards[1] + QStringLiteral(": line 3: ") + message),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(merged));
    }

    /// Output checked first: run --out FILE computed everything and failed at the end; now exit 2
    /// before computing (no "wrote" and no summary on stdout).
    void runOutIsCheckedFirst_data() {
        QTest::addColumn<QString>("outName");
        QTest::addColumn<QString>("expect");
        QTest::newRow("existing file") << "plain.txt"
                                       << "--out names an existing file, not a folder";
        QTest::newRow("below a file") << "plain.txt/sub"
                                      << "is a file";
    }
    void runOutIsCheckedFirst() {
        QFETCH(QString, outName);
        QFETCH(QString, expect);
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("plain.txt")), "x"));
        const auto r =
            runCli({QStringLiteral("run"), QStringLiteral(TANDEM_EXAMPLES "/mosaic-table3.json"),
                    QStringLiteral("--out"), m_dir.filePath(outName)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expect), qPrintable(r.err));
        QVERIFY2(!r.out.contains(QStringLiteral("MOSAIC")), qPrintable(r.out));
    }

    /// Duplicate curves: the same nccl-tests file twice was a hard error ("no curve Tandem can
    /// use"); now it is used once with a note, and an analytical collective prints its time once.
    /// Half-replaced output: run --out DIR left DIR mixing two runs when one result file could not
    /// be replaced (scenario.json and mosaic_result.json of the second run, CSVs of the first).
    /// Case "folder": a target name is a folder (refused before anything is touched); case
    /// "immutable": chattr +i on a target (as root; the replace fails midway and is undone).
    void runOutNeverMixesTwoRuns_data() {
        QTest::addColumn<bool>("immutable");
        QTest::newRow("folder") << false;
        QTest::newRow("immutable") << true;
    }
    void runOutNeverMixesTwoRuns() {
        QFETCH(bool, immutable);
        const QString dir =
            m_dir.filePath(immutable ? QStringLiteral("mix-i") : QStringLiteral("mix-f"));
        QVERIFY(QDir().mkpath(dir));
        nlohmann::json a, b;
        a["mosaic"] = {{"nodes", 2}, {"days", 5}};
        b["ml_for_ml"] = nlohmann::json::object();
        b["mosaic"] = {{"nodes", 2}, {"days", 6}};
        QVERIFY(writeFile(dir + "/../a.json", QByteArray::fromStdString(a.dump())));
        QVERIFY(writeFile(dir + "/../b.json", QByteArray::fromStdString(b.dump())));
        const auto first =
            runCli({QStringLiteral("run"), dir + "/../a.json", QStringLiteral("--out"), dir});
        QVERIFY2(first.finished && first.exitCode == 0, qPrintable(first.out + first.err));
        const QString blocked = dir + "/mosaic_frontier.csv";
        if (immutable) {
            if (::geteuid() != 0) QSKIP("chattr +i needs root");
            if (QProcess::execute(QStringLiteral("chattr"), {QStringLiteral("+i"), blocked}) != 0)
                QSKIP("chattr +i is not supported here");
        } else {
            QVERIFY(QFile::remove(blocked));
            QVERIFY(QDir().mkpath(blocked + "/inner"));
        }
        auto snapshot = [&dir] {
            QStringList s;
            for (const auto& e : QDir(dir).entryInfoList(
                     QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name)) {
                QFile f(e.filePath());
                s << e.fileName() + (e.isDir() ? QStringLiteral("/")
                                               : (f.open(QIODevice::ReadOnly)
                                                      ? QString::number(qHash(f.readAll()))
                                                      : QStringLiteral("?")));
            }
            return s;
        };
        const QStringList before = snapshot();
        const auto second =
            runCli({QStringLiteral("run"), dir + "/../b.json", QStringLiteral("--out"), dir});
        if (immutable) QProcess::execute(QStringLiteral("chattr"), {QStringLiteral("-i"), blocked});
        QVERIFY(second.finished);
        // A folder in place of a result file is refused before computing (exit 2, as every
        // target that is not a regular file); an immutable file fails the swap itself (exit 1).
        QCOMPARE(second.exitCode, immutable ? 1 : 2);
        QVERIFY2(second.err.contains(blocked), qPrintable(second.err));
        // Every file (and no staging folder) is the first run's.
        QCOMPARE(snapshot(), before);
        // Without the obstacle the second run replaces the whole set.
        if (!immutable) QVERIFY(QDir(blocked).removeRecursively());
        const auto third =
            runCli({QStringLiteral("run"), dir + "/../b.json", QStringLiteral("--out"), dir});
        QVERIFY2(third.finished && third.exitCode == 0, qPrintable(third.out + third.err));
        QVERIFY(QFile::exists(dir + "/mlforml_result.json"));
        QVERIFY(snapshot() != before);
        // scenario.json, mlforml_result.json, the two ML-for-ML CSVs, links.csv, mosaic_result.json
        // and the two MoE CSVs.
        QCOMPARE(QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(),
                 8);
    }

    void ncclFileListedTwiceIsUsedOnce() {
        const auto r =
            runCli({QStringLiteral("plan"),
                    QStringLiteral(TANDEM_TEST_DATA "/models/Mixtral-8x7B-v0.1.config.json"),
                    QStringLiteral("--devices"), QStringLiteral("16"), QStringLiteral("--hardware"),
                    QStringLiteral("h100"), QStringLiteral("--nccl"), nccl(),
                    QStringLiteral("--nccl"), nccl()});
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("listed twice; used once")), qPrintable(r.out));
        // "X ms analytical (no curve ...)" and no second ", analytical X ms" on that line.
        int analytical = 0;
        for (const auto& line : r.out.split('\n')) {
            if (!line.contains(QStringLiteral("analytical (no curve"))) continue;
            ++analytical;
            QCOMPARE(line.count(QStringLiteral("analytical")), 1);
        }
        QVERIFY(analytical >= 1);
        // In a scenario, listing it twice validates too.
        nlohmann::json j;
        j["mosaic"] = {{"nodes", 2},
                       {"days", 5},
                       {"nccl_tests_files", {nccl().toStdString(), nccl().toStdString()}}};
        const QString scen = m_dir.filePath(QStringLiteral("twice.json"));
        QVERIFY(writeFile(scen, QByteArray::fromStdString(j.dump())));
        const auto v = runCli({QStringLiteral("validate"), scen});
        QVERIFY2(v.exitCode == 0, qPrintable(v.out + v.err));
        // ... with the note the README promises (validate printed none), at the repeated entry.
        QVERIFY2(
            v.out.contains(scen + QStringLiteral(": $.mosaic.nccl_tests_files[1]: warning: \"") +
                           nccl() + QStringLiteral("\" is listed twice (also [0]); used once")),
            qPrintable(v.out));
        const auto run = runCli({QStringLiteral("run"), scen, QStringLiteral("--out"),
                                 m_dir.filePath(QStringLiteral("twice-out"))});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(
            run.out.contains(QStringLiteral("note: $.mosaic.nccl_tests_files[1]: \"") + nccl() +
                             QStringLiteral("\" is listed twice (also [0]); used once")),
            qPrintable(run.out));
    }

    /// A long command shows its progress on a terminal ("point i of n" on stderr, cleared before
    /// it exits) and never into a pipe or a file. The terminal is a pseudo-terminal made by
    /// util-linux's script(1).
    void scalingShowsProgressOnATerminal() {
        const QString script = QStandardPaths::findExecutable(QStringLiteral("script"));
        if (script.isEmpty()) QSKIP("script(1) is not installed: no pseudo-terminal to test");
        const QString csv = m_dir.filePath(QStringLiteral("progress.csv"));
        const QStringList args{QStringLiteral("scaling"),
                               QStringLiteral(TANDEM_EXAMPLES "/mlforml-fabric-scaling.json"),
                               QStringLiteral("--nodes"),
                               QStringLiteral("8,40,64"),
                               QStringLiteral("--out"),
                               csv};
        QStringList quoted{QStringLiteral(TANDEM_CLI)};
        for (const QString& a : args) quoted << QLatin1Char('\'') + a + QLatin1Char('\'');
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(script, {QStringLiteral("-qec"), quoted.join(QLatin1Char(' ')),
                         QStringLiteral("/dev/null")});
        QVERIFY(p.waitForFinished(60000));
        const QString terminal = QString::fromUtf8(p.readAll());
        QVERIFY2(p.exitCode() == 0, qPrintable(terminal));
        QVERIFY2(terminal.contains(QStringLiteral("\rpoint 1 of ")), qPrintable(terminal));
        QVERIFY2(terminal.contains(QStringLiteral("\r\033[K")), qPrintable(terminal));
        // Into a pipe: the same command, no progress.
        const auto piped = runCli(args);
        QVERIFY2(piped.finished && piped.exitCode == 0, qPrintable(piped.err));
        QVERIFY2(!piped.err.contains(QStringLiteral("point 1 of")), qPrintable(piped.err));
        QVERIFY(!piped.err.contains(QLatin1Char('\r')));
    }

    /// placement.seed shuffles the "random" placement only: given with hashed ECMP and no random
    /// placement it was silently unused. validate says so (a warning; still valid, exit 0).
    void placementSeedUnusedIsNoted_data() {
        QTest::addColumn<QString>("ecmp");
        QTest::addColumn<QString>("foreground");
        QTest::addColumn<bool>("warned");
        QTest::newRow("hash, spread") << "hash"
                                      << "spread" << true;
        QTest::newRow("equal, spread") << "equal"
                                       << "spread" << true;
        QTest::newRow("hash, random (the seed is used)") << "hash"
                                                         << "random" << false;
    }
    void placementSeedUnusedIsNoted() {
        QFETCH(QString, ecmp);
        QFETCH(QString, foreground);
        QFETCH(bool, warned);
        QFile ex(QStringLiteral(TANDEM_EXAMPLES "/mlforml-fabric-scaling.json"));
        QVERIFY(ex.open(QIODevice::ReadOnly));
        auto j = nlohmann::json::parse(ex.readAll().toStdString());
        j["ml_for_ml"]["topology"]["ecmp"] = ecmp.toStdString();
        j["ml_for_ml"]["placement"]["foreground"] = foreground.toStdString();
        j["ml_for_ml"]["placement"]["seed"] = 7;
        const QString scen =
            m_dir.filePath(QStringLiteral("seed-%1-%2.json").arg(ecmp, foreground));
        QVERIFY(writeFile(scen, QByteArray::fromStdString(j.dump())));
        const auto v = runCli({QStringLiteral("validate"), scen});
        QCOMPARE(v.exitCode, 0);
        const QString line = scen + QStringLiteral(
                                        ": $.ml_for_ml.placement.seed: warning: unused: it seeds "
                                        "the \"random\" placement only");
        QCOMPARE(v.out.contains(line), warned);
        QCOMPARE(v.out.contains(QStringLiteral("ecmp \"hash\" spreads flows by a hash")),
                 warned && ecmp == QLatin1String("hash"));
    }

    /// One size format: plan printed sizes with its own formatter ("570.25 MiB", "1.11 GiB") while
    /// inspect and the importers use io::formatBytes ("570 MiB"). Every size plan prints (the
    /// measured curve's range and each collective of the first layout) is formatBytes of the
    /// bytes in plan --json.
    void planSizesUseTheLibraryFormatter() {
        const QStringList args{
            QStringLiteral("plan"),
            QStringLiteral(TANDEM_TEST_DATA "/models/Mixtral-8x7B-v0.1.config.json"),
            QStringLiteral("--devices"),
            QStringLiteral("16"),
            QStringLiteral("--hardware"),
            QStringLiteral("h100"),
            QStringLiteral("--top"),
            QStringLiteral("1"),
            QStringLiteral("--nccl"),
            nccl()};
        const auto t = runCli(args);
        const auto js = runCli(args + QStringList{QStringLiteral("--json")});
        QVERIFY2(t.finished && t.exitCode == 0 && js.exitCode == 0, qPrintable(t.err + js.err));
        const auto j = nlohmann::json::parse(js.out.toStdString());
        auto size = [](double bytes) {
            return QString::fromStdString(tandem::io::formatBytes(bytes));
        };
        // The 2x8 all-reduce log runs from 8 B to 16 GiB.
        QVERIFY2(t.out.contains(QStringLiteral(": 8 B to 16 GiB, peak busbw")), qPrintable(t.out));
        const auto& uses = j.at("layouts").at(0).at("collectives").at("uses");
        QVERIFY(!uses.empty());
        for (const auto& u : uses) {
            const QString line = QString::fromStdString(u.at("collective").get<std::string>()) +
                                 " of " + size(u.at("bytes").get<double>()) + " over " +
                                 QString::number(u.at("ranks").get<int>()) + " ranks";
            QVERIFY2(t.out.contains(line), qPrintable(line + "\n" + t.out));
        }
        // No size with more than three significant digits anywhere in the text.
        const QRegularExpression longSize(QStringLiteral("\\b(\\d+\\.\\d+) (KiB|MiB|GiB|TiB)\\b"));
        for (auto it = longSize.globalMatch(t.out); it.hasNext();) {
            const QString digits = it.next().captured(1).remove(QLatin1Char('.'));
            QVERIFY2(digits.size() <= 3, qPrintable(digits + "\n" + t.out));
        }
    }

    /// Infeasible says why: "No feasible layout on this cluster." gave no reason. DeepSeek-V3 on
    /// one 8-GPU H100 node: every layout of the grid is cut by memory (671 B parameters cannot fit
    /// on 8 x 80 GB), and the smallest need is reported against the usable capacity.
    void noFeasibleLayoutSaysWhy() {
        const auto r = runCli({QStringLiteral("plan"),
                               QStringLiteral(TANDEM_TEST_DATA "/models/DeepSeek-V3.config.json"),
                               QStringLiteral("--devices"), QStringLiteral("8"),
                               QStringLiteral("--hardware"), QStringLiteral("h100")});
        QVERIFY2(r.finished, "plan did not finish");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QStringLiteral("No feasible layout on this cluster.")),
                 qPrintable(r.out));
        const QRegularExpression why(QStringLiteral(
            R"((\d+) of (\d+) layouts: does not fit in device memory \(smallest need ([0-9.]+) GB > ([0-9.]+) GB usable\))"));
        const auto m = why.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        QVERIFY(m.captured(1).toInt() >= 1);
        QVERIFY(m.captured(1).toInt() <= m.captured(2).toInt());
        // Weights alone are 671e9 x 2 bytes over at most 8 GPUs: > 160 GB each.
        QVERIFY(m.captured(3).toDouble() > 160.0);
        QVERIFY(m.captured(3).toDouble() > m.captured(4).toDouble());
        // ... and names the nearest whole-node cluster that has a feasible layout.
        const QRegularExpression nearest(
            QStringLiteral(R"(Nearest cluster that works: (\d+) GPUs \((\d+) nodes of 8\))"));
        const auto n = nearest.match(r.out);
        QVERIFY2(n.hasMatch(), qPrintable(r.out));
        QVERIFY(n.captured(1).toInt() > 8 && n.captured(1).toInt() == 8 * n.captured(2).toInt());
    }

    /// An infeasible layout runs no iteration: `plan --json` wrote iteration_s,
    /// tokens_per_s_per_gpu and mfu as 0.0 (an impossible, infinitely fast run). They are null,
    /// and the text table shows "-" with the reason, never a 0 rate.
    void infeasiblePlanHasNoNumbers_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("reason");
        QTest::newRow("memory") << "1,8,1,1,8,1,none"
                                << "does not fit in device memory (1683.6 GB > 76 GB usable)";
        // Without a recomputation mode the least that fits is looked for; none does, so it is
        // costed with full recomputation (the least memory).
        QTest::newRow("memory, ckpt chosen")
            << "1,8,1,1,8,1"
            << "does not fit in device memory (1612.7 GB > 76 GB usable)";
        QTest::newRow("structure") << "1,3,1,1,8,1"
                                   << "EP 3 does not divide DP 8";
    }
    void infeasiblePlanHasNoNumbers() {
        QFETCH(QString, layout);
        QFETCH(QString, reason);
        const QStringList args{QStringLiteral("plan"),
                               QStringLiteral(TANDEM_TEST_DATA "/models/DeepSeek-V3.config.json"),
                               QStringLiteral("--devices"),
                               QStringLiteral("8"),
                               QStringLiteral("--hardware"),
                               QStringLiteral("h100"),
                               QStringLiteral("--layout"),
                               layout};
        const auto js = runCli(args + QStringList{QStringLiteral("--json")});
        QVERIFY2(js.finished, "plan did not finish");
        const auto j = nlohmann::json::parse(js.out.toStdString());
        const auto& l = j.at("layouts").at(0);
        QCOMPARE(l.at("feasible").get<bool>(), false);
        QVERIFY2(QString::fromStdString(l.at("reason").get<std::string>()).contains(reason),
                 l.dump().c_str());
        for (const char* k : {"iteration_s", "tokens_per_s_per_gpu", "mfu",
                              "model_tflops_per_s_per_gpu", "chi_sys"})
            QVERIFY2(!l.contains(k) || l.at(k).is_null(),
                     (std::string(k) + ": " + l.dump()).c_str());
        const auto t = runCli(args);
        QVERIFY2(t.finished, "plan did not finish");
        QCOMPARE(t.exitCode, 1);
        // The layout's row: the table's last row (the lines after it explain the recomputation).
        QString row;
        for (const QString& line : t.out.split(QLatin1Char('\n')))
            if (line.startsWith(QStringLiteral("1   "))) row = line;
        QVERIFY2(row.contains(reason), qPrintable(t.out));
        QVERIFY2(!row.contains(QStringLiteral("0.0")), qPrintable(row));
        QVERIFY2(!t.out.contains(QStringLiteral("tokens/s")), qPrintable(t.out));
    }

    /// A link capacity of 0 or less (fabric_GBps, nic_GBps) is refused by validate and run with
    /// exit 2, naming the key and the reason (it was accepted with a warning, and every policy then
    /// reported "not reached"); run writes nothing.
    void zeroOrNegativeBandwidthRefused_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("value");
        QTest::newRow("fabric 0") << "fabric_GBps" << 0.0;
        QTest::newRow("nic 0") << "nic_GBps" << 0.0;
        QTest::newRow("fabric -5") << "fabric_GBps" << -5.0;
        QTest::newRow("nic -12.5") << "nic_GBps" << -12.5;
    }
    void zeroOrNegativeBandwidthRefused() {
        QFETCH(QString, key);
        QFETCH(double, value);
        QFile ex(QStringLiteral(TANDEM_EXAMPLES "/mlforml-scenario1.json"));
        QVERIFY(ex.open(QIODevice::ReadOnly));
        auto j = nlohmann::json::parse(ex.readAll().toStdString());
        j["ml_for_ml"][key.toStdString()] = value;
        const QString tag = key + QString::number(value);
        const QString scen = m_dir.filePath(QStringLiteral("bad-link-") + tag + ".json");
        QVERIFY(writeFile(scen, QByteArray::fromStdString(j.dump(2))));
        const QString expect = QStringLiteral("$.ml_for_ml.") + key +
                               QStringLiteral(
                                   ": must be > 0 (got %1): a link of capacity 0 "
                                   "or less carries nothing")
                                   .arg(QString::fromStdString(tandem::formatNumber(value)));
        const auto v = runCli({QStringLiteral("validate"), scen});
        QCOMPARE(v.exitCode, 2);
        QVERIFY2((v.out + v.err).contains(expect), qPrintable(v.out + v.err));
        const QString out = m_dir.filePath(QStringLiteral("bad-link-out-") + tag);
        const auto r = runCli({QStringLiteral("run"), scen, QStringLiteral("--out"), out});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2((r.out + r.err).contains(expect), qPrintable(r.out + r.err));
        QVERIFY(!QFile::exists(out));
    }

    /// A scenario whose policies all reach their targets carries no reason field (its result bytes
    /// are unchanged) and validate prints no warning.
    void reachedPoliciesHaveNoReason() {
        const auto v = runCli({QStringLiteral("validate"),
                               QStringLiteral(TANDEM_EXAMPLES "/mlforml-scenario1.json")});
        QCOMPARE(v.exitCode, 0);
        QVERIFY2(!v.out.contains(QStringLiteral("warning")), qPrintable(v.out));
        const QString out = m_dir.filePath(QStringLiteral("s1-out"));
        const auto r = runCli({QStringLiteral("run"),
                               QStringLiteral(TANDEM_EXAMPLES "/mlforml-scenario1.json"),
                               QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile res(out + "/mlforml_result.json");
        QVERIFY(res.open(QIODevice::ReadOnly));
        const auto rj = nlohmann::json::parse(res.readAll().toStdString());
        for (const auto& pt : rj.at("points"))
            for (const auto& pol : pt.at("policies")) {
                bool reached = true;
                for (const auto& t : pol.at("first_crossing_s")) reached = reached && t.is_number();
                QCOMPARE(pol.contains("not_reached_reason"), !reached);
            }
    }
};

TANDEM_TEST_APPLESS_MAIN(TstFreshUser)
#include "tst_fresh_user.moc"
