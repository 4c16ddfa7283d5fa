// A crash or kill during save leaves the old file intact: a child process saves a
// large scenario over and over through the applications' atomic-save code (QSaveFile); the
// test kills it with SIGKILL at pseudo-random moments and checks that the target file is always
// one of the two complete versions and loads as a valid scenario.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include "scenario/scenario.h"
#include "test_main.h"

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TstAtomicSave : public QObject {
    Q_OBJECT
private slots:
    void killDuringSave_data() {
        QTest::addColumn<QString>("writer");
        QTest::addColumn<QString>("mode");
        QTest::newRow("tandem-cli writeFileAtomic") << QStringLiteral(TANDEM_SAVE_WRITER) << "cli";
#ifdef TANDEM_SAVE_WRITER_GUI
        QTest::newRow("GUI ScenarioDocument::save")
            << QStringLiteral(TANDEM_SAVE_WRITER_GUI) << "gui";
#endif
    }

    void killDuringSave() {
        QFETCH(QString, writer);
        QFETCH(QString, mode);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString target = dir.filePath(QStringLiteral("scenario.json"));
        QRandomGenerator rng(7);  // fixed seed: the same kill schedule on every run
        QByteArray versionA, versionB;
        int sawA = 0, sawB = 0;
        bool wroteOnce = false;
        const int kills = 24;
        for (int k = 0; k < kills; ++k) {
            QProcess p;
            p.start(writer, {mode, target});
            QVERIFY2(p.waitForStarted(10000), qPrintable(p.errorString()));
            QVERIFY2(p.waitForReadyRead(30000), "writer never became ready");
            QCOMPARE(p.readLine().trimmed(), QByteArray("ready"));
            if (versionA.isEmpty()) {
                versionA = readAll(target + ".a");
                versionB = readAll(target + ".b");
                QVERIFY(versionA.size() > (4 << 20) && versionB.size() > (4 << 20));
                QVERIFY(versionA != versionB);
            }
            // Kill after 0, 1 or 2 completed saves (so both versions are exercised whatever the
            // machine's speed), plus a random delay that lands inside the next save.
            for (int saved = 0; saved < k % 3;) {
                while (!p.canReadLine())
                    QVERIFY2(p.waitForReadyRead(30000), "writer stopped saving");
                if (p.readLine().trimmed() == "saved") ++saved;
            }
            QTest::qWait(int(rng.bounded(0, 40)));
            p.kill();  // SIGKILL on Unix: no cleanup, no atexit, no QSaveFile destructor
            QVERIFY(p.waitForFinished(10000));
            QCOMPARE(p.exitStatus(), QProcess::CrashExit);

            if (!QFile::exists(target)) {
                QVERIFY2(!wroteOnce, "the target vanished after it had been written once");
                continue;  // killed before the very first save committed: nothing to lose
            }
            wroteOnce = true;
            const QByteArray now = readAll(target);
            QVERIFY2(
                now == versionA || now == versionB,
                qPrintable(QStringLiteral("kill %1: target is neither complete version (%2 bytes)")
                               .arg(k)
                               .arg(now.size())));
            (now == versionA ? sawA : sawB)++;
            tandem::Diagnostics d(target.toStdString());
            const auto s = tandem::parseScenario(now.toStdString(), d);
            QVERIFY2(s.has_value(), d.str().c_str());
            // Left-over temporary files of an interrupted save are allowed, never the target.
            for (const auto& name : QDir(dir.path()).entryList(QDir::Files))
                if (name != "scenario.json" && name != "scenario.json.a" &&
                    name != "scenario.json.b")
                    QFile::remove(dir.filePath(name));
        }
        // The schedule must have exercised both versions (kills land at different moments).
        QVERIFY2(sawA > 0 && sawB > 0,
                 qPrintable(QStringLiteral("a %1, b %2").arg(sawA).arg(sawB)));
    }
};

TANDEM_TEST_GUILESS_MAIN(TstAtomicSave)
#include "tst_atomic_save.moc"
