// Scenario schema: top-level validation, canonical save, byte-identical round trip; the one
// resolver of a scenario's file names (scenario_files.h) and its inverse for saving.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include "scenario/scenario.h"
#include "scenario/scenario_files.h"
#include "test_main.h"

class TestScenario : public QObject {
    Q_OBJECT
private slots:
    void defaultRoundTripsByteIdentically() {
        const std::string text = tandem::scenarioToJson(tandem::defaultScenario());
        tandem::Diagnostics d;
        const auto s = tandem::parseScenario(text, d);
        QVERIFY2(s.has_value(), d.str().c_str());
        QVERIFY(s->mlForMl.has_value());
        QVERIFY(s->mosaic.has_value());
        QCOMPARE(QString::fromStdString(tandem::scenarioToJson(*s)), QString::fromStdString(text));
    }

    void topLevelErrors_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("path");
        QTest::newRow("not an object") << "[1, 2]"
                                       << "$";
        QTest::newRow("no part") << R"({"name": "x"})"
                                 << "$";
        QTest::newRow("unknown top key") << R"({"name": "x", "mosiac": {}})"
                                         << "$.mosiac";
        QTest::newRow("part wrong type") << R"({"ml_for_ml": 3})"
                                         << "$.ml_for_ml";
        QTest::newRow("future version") << R"({"tandem_scenario_version": 9, "mosaic": {}})"
                                        << "$.tandem_scenario_version";
        QTest::newRow("syntax") << "{\"name\": }"
                                << "line 1, column 10";
    }
    void topLevelErrors() {
        QFETCH(QString, json);
        QFETCH(QString, path);
        tandem::Diagnostics d;
        QVERIFY(!tandem::parseScenario(json.toStdString(), d).has_value());
        QVERIFY(!d.ok());
        QCOMPARE(QString::fromStdString(d.items()[0].path), path);
    }

    void unknownTopKeySuggestsSection() {
        tandem::Diagnostics d;
        QVERIFY(!tandem::parseScenario(R"({"name": "x", "mosiac": {}})", d));
        QCOMPARE(QString::fromStdString(d.items()[0].message),
                 QStringLiteral("unknown key; did you mean \"mosaic\"?"));
    }

    void folderIsNotAScenario() {
        tandem::Diagnostics d("dir");
        QVERIFY(!tandem::loadScenarioFile(QDir::tempPath().toStdString(), d));
        QCOMPARE(QString::fromStdString(d.items()[0].message),
                 QStringLiteral("is a folder, not a scenario file"));
        tandem::Diagnostics z("zero");
        QVERIFY(!tandem::loadScenarioFile("/dev/zero", z));
        QVERIFY(QString::fromStdString(z.items()[0].message).startsWith("is not a regular file"));
    }

    void traceFileIsResolvedNextToTheScenario() {
        QTemporaryDir dir;
        QFile trace(dir.filePath("load.csv")), good(dir.filePath("s.json")),
            bad(dir.filePath("b.json"));
        QVERIFY(trace.open(QIODevice::WriteOnly) && good.open(QIODevice::WriteOnly) &&
                bad.open(QIODevice::WriteOnly));
        trace.write("time_s,bytes_per_s\n0,1e9\n1,2e9\n");
        good.write(R"({"ml_for_ml": {"scenario": "trace", "trace_file": "load.csv"}})");
        bad.write(R"({"ml_for_ml": {"scenario": "trace", "trace_file": "missing.csv"}})");
        trace.close();
        good.close();
        bad.close();
        tandem::Diagnostics d;
        const auto s = tandem::loadScenarioFile(dir.filePath("s.json").toStdString(), d);
        QVERIFY2(s.has_value(), d.str().c_str());
        QCOMPARE(QString::fromStdString(s->mlForMl->traceFile), dir.filePath("load.csv"));
        tandem::Diagnostics e;
        QVERIFY(!tandem::loadScenarioFile(dir.filePath("b.json").toStdString(), e));
        QCOMPARE(QString::fromStdString(e.items()[0].path),
                 QStringLiteral("$.ml_for_ml.trace_file"));
        QCOMPARE(QString::fromStdString(e.items()[0].message),
                 "cannot open \"missing.csv\" (looked for " + dir.filePath("missing.csv") + ")");
    }

    /// The resolver and its inverse for saving, hand-computed. resolve: `name` against the
    /// folder `path` ("" = the working folder, written "@" in `expected`). save: `name` written
    /// into a scenario saved at `path`: relative under its folder, absolute elsewhere (never
    /// "../"), a name that is still relative as given.
    void fileNames_data() {
        QTest::addColumn<bool>("forSave");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected");
        QTest::newRow("resolve relative") << false << "logs/ar.txt"
                                          << "/p/q"
                                          << "/p/q/logs/ar.txt";
        QTest::newRow("resolve dot segments") << false << "./logs/../ar.txt"
                                              << "/p/q"
                                              << "/p/q/ar.txt";
        QTest::newRow("resolve parent folder") << false << "../ar.txt"
                                               << "/p/q"
                                               << "/p/ar.txt";
        QTest::newRow("resolve absolute kept") << false << "/data/ar.txt"
                                               << "/p/q"
                                               << "/data/ar.txt";
        QTest::newRow("resolve absolute normalised") << false << "/data/./x/../ar.txt"
                                                     << ""
                                                     << "/data/ar.txt";
        QTest::newRow("resolve empty stays empty") << false << ""
                                                   << "/p/q"
                                                   << "";
        QTest::newRow("resolve in the working folder") << false << "logs/ar.txt"
                                                       << ""
                                                       << "@/logs/ar.txt";
        QTest::newRow("resolve relative folder") << false << "ar.txt"
                                                 << "sub"
                                                 << "@/sub/ar.txt";
        QTest::newRow("save beside") << true << "/p/ar.txt"
                                     << "/p/s.json"
                                     << "ar.txt";
        QTest::newRow("save below") << true << "/p/logs/ar.txt"
                                    << "/p/s.json"
                                    << "logs/ar.txt";
        QTest::newRow("save sibling folder") << true << "/p/logs/ar.txt"
                                             << "/p/copy/s.json"
                                             << "/p/logs/ar.txt";
        QTest::newRow("save unrelated") << true << "/data/ar.txt"
                                        << "/p/s.json"
                                        << "/data/ar.txt";
        QTest::newRow("save prefix is not a folder") << true << "/pq/ar.txt"
                                                     << "/p/s.json"
                                                     << "/pq/ar.txt";
        QTest::newRow("save still relative") << true << "logs/ar.txt"
                                             << "/p/s.json"
                                             << "logs/ar.txt";
        QTest::newRow("save no saved file") << true << "/p/ar.txt"
                                            << ""
                                            << "/p/ar.txt";
        QTest::newRow("save empty") << true << ""
                                    << "/p/s.json"
                                    << "";
    }
    void fileNames() {
        QFETCH(bool, forSave);
        QFETCH(QString, name);
        QFETCH(QString, path);
        QFETCH(QString, expected);
        expected.replace(QLatin1Char('@'), QDir::currentPath());
        const std::string got =
            forSave ? tandem::scenarioFileForSave(name.toStdString(), path.toStdString())
                    : tandem::resolveScenarioFile(name.toStdString(), path.toStdString());
        QCOMPARE(QString::fromStdString(got), expected);
    }

    void scenarioFolderOfAFile() {
        QCOMPARE(QString::fromStdString(tandem::scenarioFolder("/p/q/s.json")),
                 QStringLiteral("/p/q"));
        QCOMPARE(QString::fromStdString(tandem::scenarioFolder("/p/./q/../s.json")),
                 QStringLiteral("/p"));
        QCOMPARE(QString::fromStdString(tandem::scenarioFolder("s.json")), QDir::currentPath());
        QCOMPARE(QString::fromStdString(tandem::scenarioFolder("")), QString());
    }

    /// Every file reference is listed (trace first, then each nccl-tests file) and resolved.
    void everyReferenceIsResolved() {
        tandem::Scenario s = tandem::defaultScenario();
        s.mlForMl->traceFile = "load.csv";
        s.mosaic->ncclTestsFiles = {"a.txt", "/abs/b.txt", "logs/c.txt"};
        QCOMPARE(tandem::scenarioFileReferences(s).size(), size_t(4));
        QCOMPARE(tandem::scenarioFileReferences(s).front(), &s.mlForMl->traceFile);
        tandem::resolveScenarioFiles(s, "/p");
        QCOMPARE(s.mlForMl->traceFile, std::string("/p/load.csv"));
        QCOMPARE(s.mosaic->ncclTestsFiles,
                 (std::vector<std::string>{"/p/a.txt", "/abs/b.txt", "/p/logs/c.txt"}));
        tandem::Scenario m;
        m.mosaic.emplace();
        QVERIFY(tandem::scenarioFileReferences(m).empty());
    }

    /// parseScenario with a folder resolves names against it (not the working folder) and
    /// imports the nccl-tests log from there (trace files: tst_trace_replay); a load of the text
    /// saved at a path finds the same absolute files again.
    void parseWithFolderResolvesAgainstIt() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("proj/logs"));
        const QString log = dir.filePath("proj/logs/ar.txt");
        QVERIFY(
            QFile::copy(QStringLiteral(TANDEM_TEST_DATA
                                       "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt"),
                        log));
        const std::string text = R"({"mosaic": {"nccl_tests_files": ["logs/ar.txt"]}})";
        tandem::Diagnostics d;
        const auto s = tandem::parseScenario(text, d, dir.filePath("proj").toStdString());
        QVERIFY2(s && d.ok(), d.str().c_str());
        QCOMPARE(QString::fromStdString(s->mosaic->ncclTestsFiles.at(0)), log);
        QVERIFY(s->mosaic->hardware.measured != nullptr);
        // Without a folder the same text is read from the working folder, where there is no log.
        tandem::Diagnostics w;
        QVERIFY(!tandem::parseScenario(text, w));
        QCOMPARE(QString::fromStdString(w.items().at(0).path),
                 QStringLiteral("$.mosaic.nccl_tests_files[0]"));
        // Saved into proj/ the names are relative again and load back to the same files.
        const QString saved = dir.filePath("proj/s.json");
        QFile f(saved);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const std::string out = tandem::scenarioToJson(*s, saved.toStdString());
        f.write(out.data(), qint64(out.size()));
        f.close();
        QVERIFY(out.find("\"logs/ar.txt\"") != std::string::npos);
        tandem::Diagnostics l;
        const auto again = tandem::loadScenarioFile(saved.toStdString(), l);
        QVERIFY2(again && l.ok(), l.str().c_str());
        QCOMPARE(again->mosaic->ncclTestsFiles, s->mosaic->ncclTestsFiles);
    }

    void missingFileIsReported() {
        tandem::Diagnostics d("nope.json");
        QVERIFY(!tandem::loadScenarioFile("/nonexistent/nope.json", d));
        QCOMPARE(QString::fromStdString(d.str()),
                 QStringLiteral("nope.json: $: cannot open file for reading: no such file or "
                                "directory\n"));
    }
};

TANDEM_TEST_APPLESS_MAIN(TestScenario)
#include "tst_scenario.moc"
