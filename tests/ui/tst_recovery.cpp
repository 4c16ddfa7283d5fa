// Crash recovery [issue 7]: a GUI session killed after its autosave leaves a recovery file with
// the unsaved content; the next start finds it (and only when its session is gone), recovers it
// as a modified document with the original path; a clean exit leaves none.
#include <QtTest>

#include <QDir>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>

#include "main_window.h"
#include "recovery.h"
#include "scenario/scenario.h"
#include "scenario_document.h"

using namespace tandem;
using namespace tandem::ui;

namespace {
QString writeScenario(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("work.json"));
    QFile f(path);
    const std::string text = scenarioToJson(defaultScenario());
    if (!f.open(QIODevice::WriteOnly) || f.write(text.data(), qint64(text.size())) != qint64(text.size())) return {};
    return path;
}
QStringList recoveryFiles(const QString& dir) {
    return QDir(dir).entryList({QStringLiteral("session-*.json")}, QDir::Files, QDir::Name);
}
/// Starts the helper and waits for its "autosaved" line; returns false on timeout.
bool startUntilAutosaved(QProcess& p, const QString& dir, const QString& scenario, const char* mode) {
    p.start(QStringLiteral(RECOVERY_CHILD), {dir, scenario, QString::fromLatin1(mode)});
    if (!p.waitForStarted(10000)) return false;
    QByteArray out;
    while (!out.contains("autosaved")) {
        if (!p.waitForReadyRead(30000)) return false;
        out += p.readAllStandardOutput();
    }
    return true;
}
}  // namespace

class TstRecovery : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(QFileInfo::exists(QStringLiteral(RECOVERY_CHILD)));
    }

    void killedSessionLeavesItsUnsavedChanges() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("recovery"));
        const QString scenario = writeScenario(tmp);
        const QByteArray original = [&] {
            QFile f(scenario);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        QProcess child;
        QVERIFY(startUntilAutosaved(child, dir, scenario, "kill"));
        QCOMPARE(recoveryFiles(dir).size(), 1);
        // While that session runs its file is not an orphan.
        QVERIFY(RecoveryStore(dir).orphans().isEmpty());
        child.kill();
        QVERIFY(child.waitForFinished(10000));

        // The scenario file itself was never touched.
        QFile f(scenario);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), original);

        RecoveryStore next(dir);
        const QList<RecoveryEntry> orphans = next.orphans();
        QCOMPARE(orphans.size(), 1);
        QCOMPARE(orphans[0].originalPath, QFileInfo(scenario).absoluteFilePath());
        QVERIFY(orphans[0].savedAt.isValid());
        QVERIFY(std::abs(orphans[0].savedAt.secsTo(QDateTime::currentDateTimeUtc())) < 120);
        Diagnostics d;
        const auto s = RecoveryStore::read(orphans[0], d);
        QVERIFY2(s && d.ok(), d.str().c_str());
        QCOMPARE(s->mosaic->days, 7.0);

        // The next start recovers it as a modified document that keeps the original path.
        MainWindow w;
        w.enableRecovery(dir, 50);
        Diagnostics rd;
        QVERIFY(w.recoverFrom(orphans[0], rd));
        QVERIFY(w.document()->isModified());
        QCOMPARE(w.document()->filePath(), QFileInfo(scenario).absoluteFilePath());
        QCOMPARE(w.document()->scenario().mosaic->days, 7.0);
        QVERIFY(w.windowTitle().contains(QLatin1String("work.json")));
        // The old file is gone; this session's own copy replaced it.
        QVERIFY(!QFileInfo::exists(orphans[0].file));
        QCOMPARE(recoveryFiles(dir), QStringList{QFileInfo(w.recovery()->store().sessionFile()).fileName()});
        QVERIFY(RecoveryStore(dir).orphans().isEmpty());
        // Saving removes it.
        QString error;
        QVERIFY(w.saveFile(scenario));
        QVERIFY(recoveryFiles(dir).isEmpty());
    }

    void cleanExitLeavesNothing() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("recovery"));
        const QString scenario = writeScenario(tmp);
        QProcess child;
        QVERIFY(startUntilAutosaved(child, dir, scenario, "clean"));
        QVERIFY(child.waitForFinished(30000));
        QCOMPARE(child.exitStatus(), QProcess::NormalExit);
        QCOMPARE(child.exitCode(), 0);
        QVERIFY(child.readAllStandardOutput().contains("closed"));
        QVERIFY(recoveryFiles(dir).isEmpty());
        QVERIFY(RecoveryStore(dir).orphans().isEmpty());
        Diagnostics d;
        const auto saved = loadScenarioFile(scenario.toStdString(), d);
        QVERIFY(saved && saved->mosaic);
        QCOMPARE(saved->mosaic->days, 7.0);
    }

    /// The autosave is debounced: several quick edits give one write, after the last one.
    void autosaveIsDebounced() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("recovery"));
        ScenarioDocument doc;
        RecoveryAutosaver saver(&doc, dir, 300);
        mosaic::Envelope e = *doc.scenario().mosaic;
        for (int days = 2; days <= 6; ++days) {
            e.days = days;
            doc.setMosaic(e);
        }
        QCOMPARE(saver.writes(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(saver.writes(), 1, 5000);
        Diagnostics d;
        RecoveryEntry entry;
        entry.file = saver.store().sessionFile();
        const auto s = RecoveryStore::read(entry, d);
        QVERIFY(s);
        QCOMPARE(s->mosaic->days, 6.0);
        // Reset (open / preset) -> unmodified -> no recovery file.
        doc.reset(defaultScenario());
        QVERIFY(!QFileInfo::exists(saver.store().sessionFile()));
    }

    /// The start-up prompt: "Recover" loads the orphan, "Discard" deletes it.
    void promptRecoversOrDiscards_data() {
        QTest::addColumn<bool>("recover");
        QTest::newRow("recover") << true;
        QTest::newRow("discard") << false;
    }
    void promptRecoversOrDiscards() {
        QFETCH(bool, recover);
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("recovery"));
        {
            // A session that "crashed": its file stays, its lock is released with the store.
            ScenarioDocument doc;
            RecoveryStore store(dir);
            Scenario s = defaultScenario();
            s.mosaic->days = 9;
            QVERIFY(store.write(s, QStringLiteral("/nowhere/lost.json")));
        }
        MainWindow w;
        w.enableRecovery(dir, 50);
        bool asked = false;
        QTimer::singleShot(50, &w, [&]() {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) return;
            asked = box->text().contains(QLatin1String("Recover unsaved changes from"));
            for (QAbstractButton* b : box->buttons())
                if (b->text() == (recover ? QStringLiteral("Recover") : QStringLiteral("Discard"))) b->click();
        });
        QCOMPARE(w.offerRecovery(), recover);
        QVERIFY(asked);
        QCOMPARE(w.document()->isModified(), recover);
        QCOMPARE(w.document()->scenario().mosaic->days, recover ? 9.0 : defaultScenario().mosaic->days);
        if (recover) QCOMPARE(w.document()->filePath(), QStringLiteral("/nowhere/lost.json"));
        QVERIFY(RecoveryStore(dir).orphans().isEmpty());
        w.recovery()->finish();
        QVERIFY(recoveryFiles(dir).isEmpty());
    }
};

QTEST_MAIN(TstRecovery)
#include "tst_recovery.moc"
