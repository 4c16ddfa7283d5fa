// The GUI's writers on hostile targets: Save, the crash-recovery autosave, chart exports (PNG,
// SVG, PDF, CSV) and the display-less modes of `tandem` (--write-default-scenario,
// --screenshot, --export-charts). On a full disk (a small tmpfs filled to the last byte, root
// only) each fails with the file and "no space left on device" and keeps the previous file;
// device nodes, FIFOs and folders are refused and survive; a symbolic link is kept.
#include <QChart>
#include <QDir>
#include <QLineSeries>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

#include "full_disk.h"
#include "test_main.h"
#include "ui/shell/recovery.h"
#include "ui/shell/scenario_document.h"
#include "ui/widgets/chart_export.h"
#include "ui/widgets/chart_view.h"

using namespace tandem::ui;
using tandem::testing::isNode;
using tandem::testing::makeNode;
using tandem::testing::NodeKind;
using tandem::testing::readBytes;
using tandem::testing::SmallTmpfs;
using tandem::testing::writeBytes;

Q_DECLARE_METATYPE(tandem::testing::NodeKind)

namespace {

/// A chart with one line, as the views export it.
ChartView* makeChart() {
    auto* view = new ChartView(QStringLiteral("test"), QStringLiteral("Test chart"));
    auto* s = new QLineSeries;
    s->setName(QStringLiteral("line"));
    for (int i = 0; i < 50; ++i) s->append(i, i * i);
    view->chart()->addSeries(s);
    view->chart()->createDefaultAxes();
    view->resize(640, 400);
    return view;
}

struct Outcome {
    bool ok = false;
    bool timedOut = false;
    int exitCode = 0;
    QString message;
};

/// Runs `tandem` display-less with a 120 s limit.
Outcome runGui(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(TANDEM_GUI), args);
    Outcome o;
    if (!p.waitForStarted(10000)) return o;
    if (!p.waitForFinished(120000)) {
        o.timedOut = true;
        p.kill();
        p.waitForFinished(5000);
    }
    o.exitCode = p.exitCode();
    o.ok = p.exitStatus() == QProcess::NormalExit && o.exitCode == 0;
    o.message = QString::fromUtf8(p.readAllStandardError());
    return o;
}

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

}  // namespace

class TstGuiOutputFiles : public QObject {
    Q_OBJECT

    /// Runs writer `w` with target `target` (a file; the folder for "export-charts").
    Outcome write(const QString& w, const QString& target) {
        Outcome o;
        if (w == QLatin1String("save")) {
            ScenarioDocument doc;
            o.ok = doc.save(target, &o.message);
        } else if (w.startsWith(QLatin1String("export-"))) {
            if (w == QLatin1String("export-charts"))
                return runGui({QStringLiteral("--export-charts"), target,
                               QStringLiteral("--preset"), QStringLiteral("mosaic-fig1")});
            std::unique_ptr<ChartView> view(makeChart());
            o.ok = exportChart(view.get(), target, &o.message);
        } else if (w == QLatin1String("write-default-scenario")) {
            return runGui({QStringLiteral("--write-default-scenario"), target});
        } else if (w == QLatin1String("screenshot")) {
            return runGui({QStringLiteral("--screenshot"), target, QStringLiteral("--preset"),
                           QStringLiteral("mosaic-fig1")});
        }
        return o;
    }

    static QString suffixOf(const QString& w) {
        if (w == QLatin1String("export-png") || w == QLatin1String("screenshot"))
            return QStringLiteral(".png");
        if (w == QLatin1String("export-svg")) return QStringLiteral(".svg");
        if (w == QLatin1String("export-pdf")) return QStringLiteral(".pdf");
        if (w == QLatin1String("export-csv")) return QStringLiteral(".csv");
        return QStringLiteral(".json");
    }

    static QStringList fileWriters() {
        return {QStringLiteral("save"),       QStringLiteral("export-png"),
                QStringLiteral("export-svg"), QStringLiteral("export-pdf"),
                QStringLiteral("export-csv"), QStringLiteral("write-default-scenario"),
                QStringLiteral("screenshot")};
    }

private slots:
    void fullDisk_data() {
        QTest::addColumn<QString>("writer");
        for (const QString& w : fileWriters()) QTest::newRow(qPrintable(w)) << w;
        QTest::newRow("export-charts") << QStringLiteral("export-charts");
        QTest::newRow("autosave") << QStringLiteral("autosave");
    }
    void fullDisk() {
        QFETCH(QString, writer);
        SmallTmpfs fs(1024);
        if (!fs.valid()) QSKIP(qPrintable(fs.why()));
        QString target = fs.filePath(QStringLiteral("previous") + suffixOf(writer));
        std::unique_ptr<RecoveryStore> store;
        if (writer == QLatin1String("autosave")) {
            // A running session: its lock and a first recovery file exist before the disk fills.
            store = std::make_unique<RecoveryStore>(fs.filePath(QStringLiteral("recovery")));
            QString error;
            QVERIFY2(store->write(tandem::defaultScenario(), {}, &error), qPrintable(error));
            target = store->sessionFile();
        } else if (writer == QLatin1String("export-charts")) {
            target = fs.filePath(QStringLiteral("charts"));
            QVERIFY(QDir().mkpath(target));
            QVERIFY(writeBytes(target + QStringLiteral("/mosaic-fig1-old.png"), "previous export"));
        } else {
            QVERIFY(writeBytes(target, "previous contents\n"));
        }
        const auto before = snapshot(fs.path());
        const auto inner = snapshot(QFileInfo(target).isDir() ? target : QFileInfo(target).path());
        QCOMPARE(fs.fill(0), qint64(0));

        Outcome o;
        if (writer == QLatin1String("autosave")) {
            tandem::Scenario s = tandem::defaultScenario();
            s.name = "changed after the disk filled";
            o.ok = store->write(s, {}, &o.message);
        } else {
            o = write(writer, target);
        }
        QVERIFY(!o.timedOut);
        QVERIFY2(!o.ok, "a write to a full disk was reported as done");
        QVERIFY2(o.message.contains(
                     writer == QLatin1String("export-charts") ? target + QLatin1Char('/') : target),
                 qPrintable(o.message));
        QVERIFY2(o.message.contains(QStringLiteral("no space left on device")),
                 qPrintable(o.message));
        QCOMPARE(snapshot(fs.path()), before);
        QCOMPARE(snapshot(QFileInfo(target).isDir() ? target : QFileInfo(target).path()), inner);
    }

    void autosaveFailureIsReported() {
        SmallTmpfs fs(1024);
        if (!fs.valid()) QSKIP(qPrintable(fs.why()));
        ScenarioDocument doc;
        RecoveryAutosaver saver(&doc, fs.filePath(QStringLiteral("recovery")), 60000);
        doc.markModified();
        QVERIFY2(saver.saveNow(), qPrintable(saver.lastError()));
        const QByteArray first = readBytes(saver.store().sessionFile());
        QVERIFY(first.contains("tandem_recovery"));
        QCOMPARE(fs.fill(0), qint64(0));
        QSignalSpy failed(&saver, &RecoveryAutosaver::writeFailed);
        doc.markModified();
        QVERIFY(!saver.saveNow());
        QCOMPARE(failed.count(), 1);
        const QString message = failed.front().front().toString();
        QVERIFY2(message.contains(saver.store().sessionFile()) &&
                     message.contains(QStringLiteral("no space left on device")),
                 qPrintable(message));
        QCOMPARE(readBytes(saver.store().sessionFile()), first);
    }

    void autosaveStartOnFullDisk() {
        // The session's first autosave takes its lock; on a full disk it says why it failed.
        SmallTmpfs fs(1024);
        if (!fs.valid()) QSKIP(qPrintable(fs.why()));
        QVERIFY(QDir().mkpath(fs.filePath(QStringLiteral("recovery"))));
        QCOMPARE(fs.fill(0), qint64(0));
        RecoveryStore store(fs.filePath(QStringLiteral("recovery")));
        QString error;
        QVERIFY(!store.write(tandem::defaultScenario(), {}, &error));
        QVERIFY2(error.contains(fs.filePath(QStringLiteral("recovery/session-"))) &&
                     error.contains(QStringLiteral("no space left on device")),
                 qPrintable(error));
        QCOMPARE(
            QDir(fs.filePath(QStringLiteral("recovery"))).entryList(QDir::Files | QDir::Hidden),
            QStringList());
    }

    /// `--export-charts DIR` naming something that is not a folder is refused before anything
    /// is computed, with exit 2 and the reason, and the target is left as it was.
    void exportChartsTargetNotAFolder_data() {
        QTest::addColumn<QString>("target");   // %1 = a temporary folder
        QTest::addColumn<QString>("problem");  // %1 as in target
        QTest::newRow("/dev/null") << "/dev/null"
                                   << "is a character device, not a folder";
        QTest::newRow("existing file") << "%1/file.png"
                                       << "is a file, not a folder";
        QTest::newRow("FIFO") << "%1/nodes/fifo"
                              << "is a FIFO (named pipe), not a folder";
        QTest::newRow("below an existing file") << "%1/file.png/charts"
                                                << "%1/file.png is a file, not a folder";
        QTest::newRow("below /dev/null") << "/dev/null/charts"
                                         << "/dev/null is a character device, not a folder";
    }
    void exportChartsTargetNotAFolder() {
        QFETCH(QString, target);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto fill = [&](const QString& t) {
            return QString(t).replace(QStringLiteral("%1"), dir.path());
        };
        QVERIFY(writeBytes(dir.filePath(QStringLiteral("file.png")), "previous file"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("nodes")));  // (a snapshot reads no FIFO)
        QVERIFY(makeNode(dir.filePath(QStringLiteral("nodes/fifo")), NodeKind::Fifo));
        const auto before = snapshot(dir.path());
        const Outcome o = runGui({QStringLiteral("--export-charts"), fill(target),
                                  QStringLiteral("--preset"), QStringLiteral("mosaic-fig1")});
        QVERIFY(!o.timedOut);
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.message.contains(fill(target)) && o.message.contains(fill(problem)),
                 qPrintable(o.message));
        QCOMPARE(snapshot(dir.path()), before);
        QVERIFY(isNode(QStringLiteral("/dev/null"), NodeKind::CharDevice));
        QVERIFY(isNode(dir.filePath(QStringLiteral("nodes/fifo")), NodeKind::Fifo));
        QCOMPARE(
            QDir(dir.filePath(QStringLiteral("nodes")))
                .entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
            QStringList{QStringLiteral("fifo")});
    }

    /// A writer that fails leaves no new folder behind: --export-charts into a new folder with a
    /// bad scenario, on a full disk, or on a disk that fills after a few charts (48 KiB free:
    /// some CSVs fit, the PNGs do not; the files it wrote go again), --screenshot into a
    /// missing folder, and the autosave's first write when its (new) folder's disk is full.
    void failureLeavesNoNewFolder_data() {
        QTest::addColumn<QString>("writer");
        QTest::addColumn<bool>("fullDisk");
        QTest::addColumn<int>("exitCode");  // for the display-less modes
        QTest::addColumn<QString>("reason");
        QTest::addColumn<qint64>("leaveBytes");  // free bytes left on the full disk
        QTest::newRow("export-charts, bad scenario")
            << "export-charts-bad" << false << 2 << "invalid JSON" << qint64(0);
        QTest::newRow("export-charts, full disk")
            << "export-charts" << true << 1 << "no space left on device" << qint64(0);
        QTest::newRow("export-charts, disk full partway")
            << "export-charts" << true << 1 << "no space left on device" << qint64(48 * 1024);
        QTest::newRow("screenshot into a missing folder")
            << "screenshot" << false << 1 << "no such file or directory" << qint64(0);
        QTest::newRow("autosave, full disk")
            << "autosave" << true << 0 << "no space left on device" << qint64(0);
    }
    void failureLeavesNoNewFolder() {
        QFETCH(QString, writer);
        QFETCH(bool, fullDisk);
        QFETCH(int, exitCode);
        QFETCH(QString, reason);
        QFETCH(qint64, leaveBytes);
        SmallTmpfs fs(1024);
        QTemporaryDir tmp;
        if (fullDisk && !fs.valid()) QSKIP(qPrintable(fs.why()));
        QVERIFY(tmp.isValid());
        const QString root = fullDisk ? fs.path() : tmp.path();
        const QString bad = tmp.filePath(QStringLiteral("bad.json"));
        QVERIFY(writeBytes(bad, "{\"mosaic\": "));
        const auto before = snapshot(root);
        const QString target = QDir(root).filePath(QStringLiteral("new/deeper/out"));
        if (fullDisk) QVERIFY(fs.fill(leaveBytes) <= leaveBytes);
        Outcome o;
        if (writer == QLatin1String("autosave")) {
            RecoveryStore store(target);
            o.ok = store.write(tandem::defaultScenario(), {}, &o.message);
        } else if (writer == QLatin1String("screenshot")) {
            o = runGui({QStringLiteral("--screenshot"), target + QStringLiteral("/a.png"),
                        QStringLiteral("--preset"), QStringLiteral("mosaic-fig1")});
        } else if (writer == QLatin1String("export-charts-bad")) {
            o = runGui({QStringLiteral("--export-charts"), target, bad});
        } else {
            o = runGui({QStringLiteral("--export-charts"), target, QStringLiteral("--preset"),
                        QStringLiteral("mosaic-fig1")});
        }
        QVERIFY(!o.timedOut);
        QVERIFY2(!o.ok, "a failed write was reported as done");
        if (writer != QLatin1String("autosave")) QCOMPARE(o.exitCode, exitCode);
        QVERIFY2(o.message.contains(reason), qPrintable(o.message));
        QVERIFY2(!QFileInfo::exists(QDir(root).filePath(QStringLiteral("new"))),
                 "a new folder was left behind");
        QCOMPARE(snapshot(root), before);
    }

    void nonRegularTarget_data() {
        QTest::addColumn<QString>("writer");
        QTest::addColumn<NodeKind>("kind");
        const struct {
            const char* name;
            NodeKind kind;
        } kinds[] = {{"character device", NodeKind::CharDevice},
                     {"FIFO", NodeKind::Fifo},
                     {"folder", NodeKind::Folder}};
        QStringList writers = fileWriters();
        writers << QStringLiteral("autosave");
        for (const auto& k : kinds)
            for (const QString& w : writers)
                QTest::addRow("%s, %s", qPrintable(w), k.name) << w << k.kind;
    }
    void nonRegularTarget() {
        QFETCH(QString, writer);
        QFETCH(NodeKind, kind);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString target = dir.filePath(QStringLiteral("target") + suffixOf(writer));
        std::unique_ptr<RecoveryStore> store;
        if (writer == QLatin1String("autosave")) {
            store = std::make_unique<RecoveryStore>(dir.filePath(QStringLiteral("recovery")));
            QVERIFY(store->begin());
            target = store->sessionFile();
        }
        if (!makeNode(target, kind)) QSKIP("cannot make this node here (mknod needs root)");
        Outcome o;
        if (store)
            o.ok = store->write(tandem::defaultScenario(), {}, &o.message);
        else
            o = write(writer, target);
        QVERIFY2(!o.timedOut, "the writer blocked on the target");
        QVERIFY(!o.ok);
        if (writer == QLatin1String("write-default-scenario") ||
            writer == QLatin1String("screenshot"))
            QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.message.contains(target), qPrintable(o.message));
        QVERIFY2(
            o.message.contains(kind == NodeKind::Folder ? QStringLiteral("is a folder")
                                                        : QStringLiteral("not a regular file")),
            qPrintable(o.message));
        QVERIFY2(isNode(target, kind), "the target was replaced");
    }

    void symlinkKept_data() {
        QTest::addColumn<QString>("writer");
        for (const QString& w : fileWriters()) QTest::newRow(qPrintable(w)) << w;
    }
    void symlinkKept() {
        QFETCH(QString, writer);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString real = dir.filePath(QStringLiteral("real") + suffixOf(writer));
        const QString link = dir.filePath(QStringLiteral("link") + suffixOf(writer));
        QVERIFY(writeBytes(real, "previous"));
        QVERIFY(QFile::link(real, link));
        const Outcome o = write(writer, link);
        QVERIFY2(o.ok, qPrintable(o.message));
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(QFileInfo(link).symLinkTarget(), real);
        QVERIFY(readBytes(real) != QByteArray("previous"));
        QVERIFY(readBytes(real).size() > 20);
    }
};

TANDEM_TEST_MAIN(TstGuiOutputFiles)
#include "tst_gui_output_files.moc"
