// Scenario schema: top-level validation, canonical save, byte-identical round trip.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include "scenario/scenario.h"

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
        QTest::newRow("not an object") << "[1, 2]" << "$";
        QTest::newRow("no part") << R"({"name": "x"})" << "$";
        QTest::newRow("unknown top key") << R"({"name": "x", "mosiac": {}})" << "$.mosiac";
        QTest::newRow("part wrong type") << R"({"ml_for_ml": 3})" << "$.ml_for_ml";
        QTest::newRow("future version") << R"({"tandem_scenario_version": 9, "mosaic": {}})"
                                        << "$.tandem_scenario_version";
        QTest::newRow("syntax") << "{\"name\": }" << "line 1, column 10";
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
        QCOMPARE(QString::fromStdString(d.items()[0].message), QStringLiteral("is a folder, not a scenario file"));
        tandem::Diagnostics z("zero");
        QVERIFY(!tandem::loadScenarioFile("/dev/zero", z));
        QVERIFY(QString::fromStdString(z.items()[0].message).startsWith("is not a regular file"));
    }

    void traceFileIsResolvedNextToTheScenario() {
        QTemporaryDir dir;
        QFile trace(dir.filePath("load.csv")), good(dir.filePath("s.json")), bad(dir.filePath("b.json"));
        QVERIFY(trace.open(QIODevice::WriteOnly) && good.open(QIODevice::WriteOnly) &&
                bad.open(QIODevice::WriteOnly));
        trace.write("time_s,bytes_per_s\n0,1e9\n1,2e9\n");
        good.write(R"({"ml_for_ml": {"scenario": "trace", "trace_file": "load.csv"}})");
        bad.write(R"({"ml_for_ml": {"scenario": "trace", "trace_file": "missing.csv"}})");
        trace.close(); good.close(); bad.close();
        tandem::Diagnostics d;
        const auto s = tandem::loadScenarioFile(dir.filePath("s.json").toStdString(), d);
        QVERIFY2(s.has_value(), d.str().c_str());
        QCOMPARE(QString::fromStdString(s->mlForMl->traceFile), dir.filePath("load.csv"));
        tandem::Diagnostics e;
        QVERIFY(!tandem::loadScenarioFile(dir.filePath("b.json").toStdString(), e));
        QCOMPARE(QString::fromStdString(e.items()[0].path), QStringLiteral("$.ml_for_ml.trace_file"));
    }

    void missingFileIsReported() {
        tandem::Diagnostics d("nope.json");
        QVERIFY(!tandem::loadScenarioFile("/nonexistent/nope.json", d));
        QCOMPARE(QString::fromStdString(d.str()),
                 QStringLiteral("nope.json: $: cannot open file for reading\n"));
    }
};

QTEST_APPLESS_MAIN(TestScenario)
#include "tst_scenario.moc"
