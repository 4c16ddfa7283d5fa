// Crash recovery (a crash or kill loses no unsaved edit): a GUI session killed after its autosave
// leaves a recovery file with the unsaved content; the next start finds it (and only when its
// session is gone), recovers it as a modified document with the original path; a clean exit leaves
// none.
#include <QDir>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>
#include <nlohmann/json.hpp>

#include "scenario/scenario.h"
#include "scenario/scenario_files.h"
#include "test_main.h"
#include "ui/mlforml/loss_fit_view.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/mosaic/nccl_view.h"
#include "ui/shell/main_window.h"
#include "ui/shell/recovery.h"
#include "ui/shell/scenario_document.h"

using namespace tandem;
using namespace tandem::ui;

namespace {
QString writeScenario(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("work.json"));
    QFile f(path);
    const std::string text = scenarioToJson(defaultScenario());
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(text.data(), qint64(text.size())) != qint64(text.size()))
        return {};
    return path;
}
bool writeText(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}
bool writeText(const QString& path, const std::string& text) {
    return writeText(path, QByteArray::fromStdString(text));
}
QStringList recoveryFiles(const QString& dir) {
    return QDir(dir).entryList({QStringLiteral("session-*.json")}, QDir::Files, QDir::Name);
}
QByteArray readBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
const char* kNcclLog = TANDEM_TEST_DATA "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt";
/// `<root>/proj/work.json`, the default scenario naming `logs/ar.txt` (a copy of the 2x8
/// all-reduce log) and `logs/load.csv` relative to its folder, as a user writes them.
QString writeProjectWithRelativeNames(const QString& root) {
    const QString proj = QDir(root).filePath(QStringLiteral("proj"));
    if (!QDir().mkpath(proj + "/logs") ||
        !QFile::copy(QString::fromLatin1(kNcclLog), proj + "/logs/ar.txt") ||
        !writeText(proj + "/logs/load.csv", QByteArray("time_s,bytes_per_s\n0,1e9\n1,2e9\n")))
        return {};
    auto j = nlohmann::json::parse(scenarioToJson(defaultScenario()));
    j["mosaic"]["nccl_tests_files"] = {"logs/ar.txt"};
    j["ml_for_ml"]["scenario"] = "trace";  // a trace file is read only by the trace scenario
    j["ml_for_ml"]["trace_file"] = "logs/load.csv";
    const QString path = proj + "/work.json";
    return writeText(path, j.dump(2)) ? path : QString();
}
/// Starts the helper and waits for its "autosaved" line; returns false on timeout.
bool startUntilAutosaved(QProcess& p, const QString& dir, const QString& scenario, const char* mode,
                         QByteArray* after = nullptr) {
    p.start(QStringLiteral(RECOVERY_CHILD), {dir, scenario, QString::fromLatin1(mode)});
    if (!p.waitForStarted(10000)) return false;
    QByteArray out;
    while (!out.contains("autosaved")) {
        if (!p.waitForReadyRead(30000)) return false;
        out += p.readAllStandardOutput();
    }
    // What the child printed after "autosaved" in the same read (a loaded machine may deliver
    // the whole run's output at once).
    if (after) *after = out.mid(out.indexOf("autosaved") + 9);
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
        QCOMPARE(recoveryFiles(dir),
                 QStringList{QFileInfo(w.recovery()->store().sessionFile()).fileName()});
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
        QByteArray out;
        QVERIFY(startUntilAutosaved(child, dir, scenario, "clean", &out));
        QVERIFY(child.waitForFinished(30000));
        QCOMPARE(child.exitStatus(), QProcess::NormalExit);
        QCOMPARE(child.exitCode(), 0);
        out += child.readAllStandardOutput();
        QVERIFY2(out.contains("closed"), out.constData());
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

    /// Relative paths: a recovery file written while the GUI ran in one folder (relative
    /// nccl-tests log "sub/ar.txt") must still recover when the next start is in another folder.
    void recoveryStoresAbsolutePaths() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("recovery"));
        QVERIFY(QDir(tmp.path()).mkpath(QStringLiteral("sub")));
        const QString log = tmp.filePath(QStringLiteral("sub/ar.txt"));
        QVERIFY(
            QFile::copy(QStringLiteral(TANDEM_TEST_DATA
                                       "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt"),
                        log));
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(tmp.path()));
        Scenario s = defaultScenario();
        s.mosaic->ncclTestsFiles = {"sub/ar.txt"};
        s.mlForMl->scenario = tandem::mlforml::ScenarioKind::Trace;
        s.mlForMl->traceFile = "sub/trace.csv";
        {
            RecoveryStore store(dir);
            QVERIFY(store.write(s, QString()));
            QFile f(store.sessionFile());
            QVERIFY(f.open(QIODevice::ReadOnly));
            const auto j = nlohmann::json::parse(f.readAll().toStdString());
            QCOMPARE(QString::fromStdString(
                         j["scenario"]["mosaic"]["nccl_tests_files"][0].get<std::string>()),
                     QFileInfo(log).absoluteFilePath());
            QCOMPARE(
                QString::fromStdString(j["scenario"]["ml_for_ml"]["trace_file"].get<std::string>()),
                QDir(tmp.path()).absoluteFilePath(QStringLiteral("sub/trace.csv")));
        }
        // The next start runs from another folder.
        QTemporaryDir elsewhere;
        QVERIFY(QDir::setCurrent(elsewhere.path()));
        const QList<RecoveryEntry> orphans = RecoveryStore(dir).orphans();
        QDir::setCurrent(before);
        QCOMPARE(orphans.size(), 1);
        QVERIFY2(orphans[0].problem.isEmpty(), qPrintable(orphans[0].problem));
        Diagnostics d;
        const auto r = RecoveryStore::read(orphans[0], d);
        QVERIFY2(r && d.ok(), d.str().c_str());
        QVERIFY(r->mosaic->hardware.measured != nullptr);
        QCOMPARE(QString::fromStdString(r->mosaic->ncclTestsFiles.at(0)),
                 QFileInfo(log).absoluteFilePath());
    }

    /// An older recovery file with a relative name is resolved against the original's folder.
    void relativeNameOfOlderFileResolvesBesideOriginal() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("recovery"));
        QVERIFY(QDir(tmp.path()).mkpath(QStringLiteral("recovery")));
        QVERIFY(QDir(tmp.path()).mkpath(QStringLiteral("proj/sub")));
        QVERIFY(
            QFile::copy(QStringLiteral(TANDEM_TEST_DATA
                                       "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt"),
                        tmp.filePath(QStringLiteral("proj/sub/ar.txt"))));
        auto scen = nlohmann::json::parse(scenarioToJson(defaultScenario()));
        scen["mosaic"]["nccl_tests_files"] = {"sub/ar.txt"};
        nlohmann::json j{
            {"tandem_recovery", 1},
            {"original_path", tmp.filePath(QStringLiteral("proj/work.json")).toStdString()},
            {"saved_utc", "2026-11-29T10:00:00.000Z"},
            {"scenario", scen}};
        QVERIFY(writeText(QDir(dir).filePath(QStringLiteral("session-old-1.json")), j.dump(2)));
        const QList<RecoveryEntry> orphans = RecoveryStore(dir).orphans();
        QCOMPARE(orphans.size(), 1);
        QVERIFY2(orphans[0].problem.isEmpty(), qPrintable(orphans[0].problem));
    }

    /// Relative names (older recovery files) belong to the original file's folder, as
    /// loadScenarioFile resolves them, whatever the working folder and whether or not the file
    /// exists there: a name is never looked up in the working folder of a titled document.
    void relativeNamesResolveLikeTheOriginalFile() {
        QTemporaryDir tmp, elsewhere;
        const QString dir = tmp.filePath(QStringLiteral("recovery"));
        const QString original = writeProjectWithRelativeNames(tmp.path());
        QVERIFY(!original.isEmpty());
        Diagnostics ld;
        const auto loaded = loadScenarioFile(original.toStdString(), ld);
        QVERIFY2(loaded && ld.ok(), ld.str().c_str());
        // The working folder holds a decoy trace under the same relative name.
        QVERIFY(writeText(elsewhere.filePath(QStringLiteral("logs/absent.csv")),
                          QByteArray("time_s,bytes_per_s\n0,1\n")));
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(elsewhere.path()));
        // Written: relative names of the document are made absolute beside the original.
        Scenario s = defaultScenario();
        s.mlForMl->scenario = tandem::mlforml::ScenarioKind::Trace;
        s.mlForMl->traceFile = "logs/absent.csv";  // exists only in the working folder
        s.mosaic->ncclTestsFiles = {"logs/ar.txt"};
        QString written;
        {
            RecoveryStore store(dir);
            const bool ok = store.write(s, original);
            written = QString::fromUtf8(readBytes(store.sessionFile()));
            QVERIFY(ok);
        }
        // Read: an older file with relative names.
        auto scen = nlohmann::json::parse(scenarioToJson(defaultScenario()));
        scen["mosaic"]["nccl_tests_files"] = {"logs/ar.txt"};
        scen["ml_for_ml"]["scenario"] = "trace";
        scen["ml_for_ml"]["trace_file"] = "logs/load.csv";
        nlohmann::json old{{"tandem_recovery", 1},
                           {"original_path", original.toStdString()},
                           {"saved_utc", "2026-11-29T10:00:00.000Z"},
                           {"scenario", scen}};
        const QString oldFile = QDir(dir).filePath(QStringLiteral("session-old-2.json"));
        QVERIFY(writeText(oldFile, old.dump(2)));
        RecoveryEntry entry;
        entry.file = oldFile;
        entry.originalPath = original;
        Diagnostics d;
        const auto r = RecoveryStore::read(entry, d);
        QDir::setCurrent(before);

        const auto j = nlohmann::json::parse(written.toStdString());
        QCOMPARE(QString::fromStdString(j["original_path"].get<std::string>()), original);
        QCOMPARE(
            QString::fromStdString(j["scenario"]["ml_for_ml"]["trace_file"].get<std::string>()),
            tmp.filePath(QStringLiteral("proj/logs/absent.csv")));
        QCOMPARE(QString::fromStdString(
                     j["scenario"]["mosaic"]["nccl_tests_files"][0].get<std::string>()),
                 tmp.filePath(QStringLiteral("proj/logs/ar.txt")));
        QVERIFY2(r && d.ok(), d.str().c_str());
        QCOMPARE(r->mlForMl->traceFile, loaded->mlForMl->traceFile);
        QCOMPARE(r->mosaic->ncclTestsFiles, loaded->mosaic->ncclTestsFiles);
        QCOMPARE(QString::fromStdString(r->mlForMl->traceFile),
                 tmp.filePath(QStringLiteral("proj/logs/load.csv")));
        QVERIFY(r->mosaic->hardware.measured != nullptr);
    }

    /// A document recovered after a crash and then saved writes the same bytes as the same
    /// document loaded normally, edited and saved at the same place: names under the saved
    /// file's folder relative to it, others absolute, also when the original was deleted and
    /// Save asks for a name. The recovery record remembers the original file.
    void recoveredDocumentSavesLikeALoadedOne_data() {
        QTest::addColumn<QString>("target");    // relative to proj/
        QTest::addColumn<QString>("ncclName");  // as written; "@" = the absolute path
        QTest::addColumn<QString>("traceName");
        QTest::addColumn<bool>("deleteOriginal");
        QTest::newRow("in place") << "work.json"
                                  << "logs/ar.txt"
                                  << "logs/load.csv" << false;
        QTest::newRow("beside, another name") << "copy.json"
                                              << "logs/ar.txt"
                                              << "logs/load.csv" << false;
        QTest::newRow("in the logs folder") << "logs/inner.json"
                                            << "ar.txt"
                                            << "load.csv" << false;
        QTest::newRow("sibling folder") << "../other/s.json"
                                        << "@"
                                        << "@" << false;
        QTest::newRow("original deleted") << "work.json"
                                          << "logs/ar.txt"
                                          << "logs/load.csv" << true;
    }
    void recoveredDocumentSavesLikeALoadedOne() {
        QFETCH(QString, target);
        QFETCH(QString, ncclName);
        QFETCH(QString, traceName);
        QFETCH(bool, deleteOriginal);
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("recovery"));
        const QString original = writeProjectWithRelativeNames(tmp.path());
        QVERIFY(!original.isEmpty());
        const QByteArray originalBytes = readBytes(original);
        const QString saveAs = QDir::cleanPath(tmp.filePath(QStringLiteral("proj/")) + target);
        QVERIFY(QDir().mkpath(QFileInfo(saveAs).absolutePath()));

        // The normal way: load, edit (the child's edit: days = 7), save.
        QByteArray expected;
        {
            ScenarioDocument doc;
            Diagnostics d;
            QVERIFY2(doc.load(original, d), d.str().c_str());
            mosaic::Envelope e = *doc.scenario().mosaic;
            e.days = 7;
            doc.setMosaic(e);
            QString error;
            QVERIFY2(doc.save(saveAs, &error), qPrintable(error));
            expected = readBytes(saveAs);
            QVERIFY(saveAs == original ? writeText(original, originalBytes)
                                       : QFile::remove(saveAs));
        }
        const auto j = nlohmann::json::parse(expected.toStdString());
        const QString nccl =
            QString::fromStdString(j["mosaic"]["nccl_tests_files"][0].get<std::string>());
        const QString trace =
            QString::fromStdString(j["ml_for_ml"]["trace_file"].get<std::string>());
        QCOMPARE(nccl,
                 ncclName == "@" ? tmp.filePath(QStringLiteral("proj/logs/ar.txt")) : ncclName);
        QCOMPARE(trace,
                 traceName == "@" ? tmp.filePath(QStringLiteral("proj/logs/load.csv")) : traceName);

        // The crashed way: a session edits the same file and is killed after its autosave.
        QProcess child;
        QVERIFY(startUntilAutosaved(child, dir, original, "kill"));
        child.kill();
        QVERIFY(child.waitForFinished(10000));
        const QList<RecoveryEntry> orphans = RecoveryStore(dir).orphans();
        QCOMPARE(orphans.size(), 1);
        QCOMPARE(orphans[0].originalPath, original);  // the record remembers the original file
        if (deleteOriginal) QVERIFY(QFile::remove(original));
        MainWindow w;
        w.enableRecovery(dir, 50);
        Diagnostics rd;
        QVERIFY2(w.recoverFrom(orphans[0], rd), rd.str().c_str());
        QCOMPARE(w.saveAsksForName(), deleteOriginal);
        QVERIFY(w.saveFile(saveAs));
        QCOMPARE(QString::fromUtf8(readBytes(saveAs)), QString::fromUtf8(expected));
        // And the saved file loads again with its log.
        Diagnostics again;
        const auto s = loadScenarioFile(saveAs.toStdString(), again);
        QVERIFY2(s && again.ok(), again.str().c_str());
        QCOMPARE(s->mosaic->days, 7.0);
        QVERIFY(s->mosaic->hardware.measured != nullptr);
        w.recovery()->finish();
    }

    /// Imports are unsaved changes like any edit: the autosave keeps the imported model, the
    /// shown nccl-tests log and the loss log, and a window recovering it shows them again.
    void importsAreAutosavedAndRecovered() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("recovery"));
        const QString model =
            QStringLiteral(TANDEM_TEST_DATA "/models/Mixtral-8x7B-v0.1.config.json");
        const QString loss =
            QStringLiteral(TANDEM_TEST_DATA "/losslogs/llmc-gpt2-124M-10B-8xH100.txt");
        RecoveryEntry entry;
        {
            MainWindow w;
            w.enableRecovery(dir, 50);
            w.show();
            QVERIFY(w.waitForResults(60000));
            for (const QString& f : {model, QString::fromLatin1(kNcclLog), loss})
                QVERIFY2(w.importFile(f), qPrintable(f));
            QVERIFY(w.document()->isModified());
            QTRY_VERIFY_WITH_TIMEOUT(w.recovery()->writes() >= 1, 5000);
            QVERIFY(w.recovery()->saveNow());
            QVERIFY(w.waitForResults(60000));
            // Copy the session's file: this window removes its own on a clean exit.
            entry.file = tmp.filePath(QStringLiteral("copy.json"));
            QVERIFY(QFile::copy(w.recovery()->store().sessionFile(), entry.file));
        }
        Diagnostics d;
        const auto r = RecoveryStore::read(entry, d);
        QVERIFY2(r && d.ok(), d.str().c_str());
        QCOMPARE(r->mosaic->importedModelFiles,
                 std::vector<std::string>{QFileInfo(model).absoluteFilePath().toStdString()});
        QCOMPARE(QString::fromStdString(r->mosaic->shownNcclTestsFile),
                 QFileInfo(QString::fromLatin1(kNcclLog)).absoluteFilePath());
        QCOMPARE(QString::fromStdString(r->mlForMl->lossLogFile),
                 QFileInfo(loss).absoluteFilePath());

        MainWindow w;
        w.enableRecovery(dir, 50);
        Diagnostics rd;
        QVERIFY2(w.recoverFrom(entry, rd), rd.str().c_str());
        QVERIFY(w.document()->isModified());
        QVERIFY(w.isWindowModified());
        QCOMPARE(w.moeWorkspace()->importedModels().size(), size_t(1));
        QVERIFY(w.moeWorkspace()->ncclView()->hasData());
        QVERIFY(w.networkWorkspace()->lossFitPanel()->view()->hasData());
        QVERIFY(w.waitForResults(60000));
        w.recovery()->finish();
    }

    /// Unreadable recovery files: an empty, a truncated and a not-a-scenario file are found to be
    /// unreadable before anything is offered, set aside into rejected/ with a log line (never
    /// offered again), and a valid older file behind them is still offered.
    void corruptFilesAreSetAsideAndValidOnesStillOffered_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("reason");
        QTest::newRow("zero bytes") << QByteArray() << QStringLiteral("empty");
        QTest::newRow("truncated")
            << QByteArray("{\"tandem_recovery\": 1, \"original_path\": \"\", \"saved_utc\": \"20")
            << QStringLiteral("truncated");
        QTest::newRow("no scenario")
            << QByteArray("{\"tandem_recovery\": 1}") << QStringLiteral("no scenario");
        QTest::newRow("bad scenario") << QByteArray(
                                             "{\"tandem_recovery\": 1, \"scenario\": "
                                             "{\"tandem_scenario_version\": 1, \"mosaic\": 5}}")
                                      << QStringLiteral("$.mosaic");
    }
    void corruptFilesAreSetAsideAndValidOnesStillOffered() {
        QFETCH(QByteArray, content);
        QFETCH(QString, reason);
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("recovery"));
        {
            RecoveryStore store(dir);  // the valid, older one
            Scenario s = defaultScenario();
            s.mosaic->days = 11;
            QVERIFY(store.write(s, QString()));
        }
        // The corrupt one is newer (written later, sorts first by time).
        QTest::qWait(20);
        const QString bad = QDir(dir).filePath(QStringLiteral("session-zzzz-1.json"));
        QVERIFY(writeText(bad, content));
        const QList<RecoveryEntry> listed = RecoveryStore(dir).orphans();
        QCOMPARE(listed.size(), 2);
        const auto badEntry = std::find_if(listed.begin(), listed.end(),
                                           [&](const RecoveryEntry& e) { return e.file == bad; });
        QVERIFY(badEntry != listed.end());
        QVERIFY2(badEntry->problem.contains(reason), qPrintable(badEntry->problem));

        MainWindow w;
        w.enableRecovery(dir, 50);
        QStringList asked;
        std::function<void()> answer = [&]() {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) {
                QTimer::singleShot(20, &w, answer);
                return;
            }
            asked << box->text();
            for (QAbstractButton* b : box->buttons())
                if (b->text() == QStringLiteral("Recover")) b->click();
        };
        QTimer::singleShot(20, &w, answer);
        QVERIFY(w.offerRecovery());
        QCOMPARE(asked.size(), 1);  // only the valid file was offered
        QCOMPARE(w.document()->scenario().mosaic->days, 11.0);
        // The corrupt file was moved aside with a note and is never offered again.
        QVERIFY(!QFileInfo::exists(bad));
        QVERIFY(
            QFileInfo::exists(QDir(dir).filePath(QStringLiteral("rejected/session-zzzz-1.json"))));
        QFile logFile(QDir(dir).filePath(QStringLiteral("rejected/rejected.log")));
        QVERIFY(logFile.open(QIODevice::ReadOnly));
        const QString logText = QString::fromUtf8(logFile.readAll());
        QVERIFY2(logText.contains(QLatin1String("session-zzzz-1.json")) && logText.contains(reason),
                 qPrintable(logText));
        QVERIFY(RecoveryStore(dir).orphans().isEmpty());
        w.recovery()->finish();
    }

    /// Only unreadable files: nothing is asked, they are set aside, the default stays.
    void onlyCorruptFilesAskNothing() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("recovery"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(writeText(QDir(dir).filePath(QStringLiteral("session-a-1.json")), QByteArray()));
        MainWindow w;
        w.enableRecovery(dir, 50);
        bool asked = false;
        QTimer::singleShot(50, &w, [&]() {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                asked = true;
                box->reject();
            }
        });
        QVERIFY(!w.offerRecovery());
        QTest::qWait(100);
        QVERIFY(!asked);
        QVERIFY(!w.document()->isModified());
        QVERIFY(recoveryFiles(dir).isEmpty());
        QCOMPARE(QDir(dir + QStringLiteral("/rejected"))
                     .entryList({QStringLiteral("session-*.json")})
                     .size(),
                 1);
    }

    /// Deleted original: the original scenario was deleted after the crash: the title and
    /// status bar say so and Save asks for a new name.
    void deletedOriginalMakesSaveAskForAName() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("recovery"));
        const QString original = tmp.filePath(QStringLiteral("deleted-original.json"));
        {
            RecoveryStore store(dir);
            QVERIFY(store.write(defaultScenario(), original));
        }
        const QList<RecoveryEntry> orphans = RecoveryStore(dir).orphans();
        QCOMPARE(orphans.size(), 1);
        MainWindow w;
        w.enableRecovery(dir, 50);
        Diagnostics d;
        QVERIFY(w.recoverFrom(orphans[0], d));
        QVERIFY(w.saveAsksForName());
        QVERIFY2(w.windowTitle().contains(QLatin1String("original file deleted")),
                 qPrintable(w.windowTitle()));
        QVERIFY2(w.statusBar()->currentMessage().contains(QLatin1String(
                     "the original file no longer exists; Save will ask for a new name")),
                 qPrintable(w.statusBar()->currentMessage()));
        // Saved under a name again: Save saves in place, the hint is gone.
        QVERIFY(w.saveFile(original));
        QVERIFY(!w.saveAsksForName());
        QVERIFY(!w.windowTitle().contains(QLatin1String("original file deleted")));
        w.recovery()->finish();
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
                if (b->text() == (recover ? QStringLiteral("Recover") : QStringLiteral("Discard")))
                    b->click();
        });
        QCOMPARE(w.offerRecovery(), recover);
        QVERIFY(asked);
        QCOMPARE(w.document()->isModified(), recover);
        QCOMPARE(w.document()->scenario().mosaic->days,
                 recover ? 9.0 : defaultScenario().mosaic->days);
        if (recover) QCOMPARE(w.document()->filePath(), QStringLiteral("/nowhere/lost.json"));
        QVERIFY(RecoveryStore(dir).orphans().isEmpty());
        w.recovery()->finish();
        QVERIFY(recoveryFiles(dir).isEmpty());
    }
};

TANDEM_TEST_MAIN(TstRecovery)
#include "tst_recovery.moc"
