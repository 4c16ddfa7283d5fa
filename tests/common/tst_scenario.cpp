// Scenario schema: top-level validation, canonical save, byte-identical round trip; the one
// resolver of a scenario's file names (scenario_files.h) and its inverse for saving.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

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

    /// Every file reference is listed (trace and loss log first, then each nccl-tests file,
    /// each imported model and the shown nccl-tests log) and resolved.
    void everyReferenceIsResolved() {
        tandem::Scenario s = tandem::defaultScenario();
        s.mlForMl->traceFile = "load.csv";
        s.mlForMl->lossLogFile = "runs/loss.txt";
        s.mosaic->ncclTestsFiles = {"a.txt", "/abs/b.txt", "logs/c.txt"};
        s.mosaic->importedModelFiles = {"m/config.json"};
        s.mosaic->shownNcclTestsFile = "d.txt";
        const std::vector<std::string*> refs = tandem::scenarioFileReferences(s);
        QCOMPARE(refs.size(), size_t(7));
        QCOMPARE(refs.front(), &s.mlForMl->traceFile);
        QCOMPARE(refs[1], &s.mlForMl->lossLogFile);
        QCOMPARE(refs[5], &s.mosaic->importedModelFiles[0]);
        QCOMPARE(refs.back(), &s.mosaic->shownNcclTestsFile);
        tandem::resolveScenarioFiles(s, "/p");
        QCOMPARE(s.mlForMl->traceFile, std::string("/p/load.csv"));
        QCOMPARE(s.mlForMl->lossLogFile, std::string("/p/runs/loss.txt"));
        QCOMPARE(s.mosaic->ncclTestsFiles,
                 (std::vector<std::string>{"/p/a.txt", "/abs/b.txt", "/p/logs/c.txt"}));
        QCOMPARE(s.mosaic->importedModelFiles, std::vector<std::string>{"/p/m/config.json"});
        QCOMPARE(s.mosaic->shownNcclTestsFile, std::string("/p/d.txt"));
        tandem::Scenario m;
        m.mosaic.emplace();
        tandem::resolveScenarioFiles(m, "/p");
        QVERIFY(m.mosaic->shownNcclTestsFile.empty());  // no file stays no file
    }

    /// The imported files a scenario keeps are resolved next to it, read by their importers on
    /// load, and saved relative to it; a missing file or one of another kind is an error at its
    /// key, naming the file as written and where it was looked for.
    void importedFilesAreCheckedAtTheirKey_data() {
        QTest::addColumn<QString>("section");
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("list");
        QTest::addColumn<QString>("data");   // a file of the key's kind
        QTest::addColumn<QString>("other");  // a file of another kind
        const QString model = QStringLiteral("models/Mixtral-8x7B-v0.1.config.json");
        const QString nccl =
            QStringLiteral("nccl/H100-all_reduce-2x8-awsome-distributed-training.txt");
        const QString loss = QStringLiteral("losslogs/llmc-gpt2-124M-10B-8xH100.txt");
        QTest::newRow("model") << "mosaic"
                               << "imported_model_files" << true << model << loss;
        QTest::newRow("nccl shown") << "mosaic"
                                    << "shown_nccl_tests_file" << false << nccl << model;
        QTest::newRow("loss log") << "ml_for_ml"
                                  << "loss_log_file" << false << loss << model;
    }
    void importedFilesAreCheckedAtTheirKey() {
        QFETCH(QString, section);
        QFETCH(QString, key);
        QFETCH(bool, list);
        QFETCH(QString, data);
        QFETCH(QString, other);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("proj/in"));
        QVERIFY(
            QFile::copy(QStringLiteral(TANDEM_TEST_DATA "/") + data, dir.filePath("proj/in/f")));
        QVERIFY(
            QFile::copy(QStringLiteral(TANDEM_TEST_DATA "/") + other, dir.filePath("proj/in/g")));
        auto scenarioNaming = [&](const std::string& name) {
            nlohmann::json j =
                nlohmann::json::parse(tandem::scenarioToJson(tandem::defaultScenario()));
            j[section.toStdString()][key.toStdString()] =
                list ? nlohmann::json::array({name}) : nlohmann::json(name);
            const QString path = dir.filePath("proj/s.json");
            QFile f(path);
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return QString();
            f.write(QByteArray::fromStdString(j.dump(2)));
            return path;
        };
        const std::string at =
            "$." + section.toStdString() + "." + key.toStdString() + (list ? "[0]" : "");
        // Read next to the scenario, stored absolute, saved relative to it again.
        const QString path = scenarioNaming("in/f");
        tandem::Diagnostics d;
        const auto s = tandem::loadScenarioFile(path.toStdString(), d);
        QVERIFY2(s && d.ok(), d.str().c_str());
        const std::string out = tandem::scenarioToJson(*s, path.toStdString());
        const auto back = nlohmann::json::parse(out)[section.toStdString()][key.toStdString()];
        QCOMPARE(QString::fromStdString((list ? back[0] : back).get<std::string>()),
                 QStringLiteral("in/f"));
        bool found = false;
        tandem::Scenario copy = *s;
        for (std::string* f : tandem::scenarioFileReferences(copy))
            found = found || QString::fromStdString(*f) == dir.filePath("proj/in/f");
        QVERIFY(found);
        // Missing: an error at the key with the name as written and where it was looked for.
        tandem::Diagnostics missing;
        QVERIFY(!tandem::loadScenarioFile(scenarioNaming("in/none").toStdString(), missing));
        QCOMPARE(QString::fromStdString(missing.items().at(0).path), QString::fromStdString(at));
        QVERIFY2(missing.items().at(0).message == "cannot open \"in/none\" (looked for " +
                                                      dir.filePath("proj/in/none").toStdString() +
                                                      ")",
                 missing.str().c_str());
        // A file of another kind: its importer's error, at the key.
        tandem::Diagnostics wrong;
        QVERIFY(!tandem::loadScenarioFile(scenarioNaming("in/g").toStdString(), wrong));
        QVERIFY(!wrong.items().empty());
        QCOMPARE(QString::fromStdString(wrong.items().at(0).path), QString::fromStdString(at));
        QVERIFY2(wrong.items().at(0).message.rfind("\"in/g\"", 0) == 0, wrong.str().c_str());
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
