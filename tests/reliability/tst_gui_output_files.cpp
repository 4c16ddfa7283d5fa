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

#include "chart_view.h"
#include "full_disk.h"
#include "recovery.h"
#include "scenario_document.h"

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

QTEST_MAIN(TstGuiOutputFiles)
#include "tst_gui_output_files.moc"
