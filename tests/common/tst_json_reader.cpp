// JsonReader: every read reports wrong types, ranges and unknown keys with the JSON path.
#include <QtTest>

#include "common/json_reader.h"

using tandem::Diagnostics;
using tandem::JsonReader;
using tandem::Range;

class TestJsonReader : public QObject {
    Q_OBJECT
private slots:
    void readsValuesAndDefaults() {
        Diagnostics d;
        const auto j = nlohmann::json::parse(R"({"a_s": 2.5, "n": 3, "flag": true, "name": "x"})");
        JsonReader r(j, "$", d);
        QCOMPARE(r.number("a_s", 0.0, Range::positive()), 2.5);
        QCOMPARE(r.integer("n", 0, Range::atLeast(1)), 3LL);
        QCOMPARE(r.boolean("flag", false), true);
        QCOMPARE(r.string("name", ""), std::string("x"));
        QCOMPARE(r.number("absent_s", 7.0), 7.0);
        r.finish();
        QVERIFY(d.ok());
    }

    void errors_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("wrong type") << R"({"rate_GBps": "fast"})"
                                    << "$.rate_GBps: must be a number (got a string)";
        QTest::newRow("negative") << R"({"rate_GBps": -5})" << "$.rate_GBps: must be > 0 (got -5)";
        QTest::newRow("zero") << R"({"rate_GBps": 0})" << "$.rate_GBps: must be > 0 (got 0)";
        QTest::newRow("unknown key with hint")
            << R"({"rate_GBsp": 1})" << "$.rate_GBsp: unknown key; did you mean \"rate_GBps\"?";
        QTest::newRow("unknown key without hint") << R"({"zzzzzzzzzz": 1})"
                                                  << "$.zzzzzzzzzz: unknown key";
        QTest::newRow("non-integer") << R"({"count": 2.5})"
                                     << "$.count: must be an integer (got 2.5)";
        QTest::newRow("integer range") << R"({"count": 0})" << "$.count: must be >= 1 (got 0)";
        QTest::newRow("enum with hint")
            << R"({"mode": "replya"})"
            << "$.mode: must be one of \"replay\", \"closed_loop\" (got \"replya\"); did you mean "
               "\"replay\"?";
        QTest::newRow("array element") << R"({"list": [1, -2]})"
                                       << "$.list[1]: must be > 0 (got -2)";
        QTest::newRow("child object type") << R"({"child": 3})"
                                           << "$.child: must be an object (got a number)";
        QTest::newRow("child unknown key") << R"({"child": {"bogus": 1}})"
                                           << "$.child.bogus: unknown key";
    }
    void errors() {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        Diagnostics d;
        const auto j = nlohmann::json::parse(json.toStdString());
        JsonReader r(j, "$", d);
        r.number("rate_GBps", 1.0, Range::positive());
        r.integer("count", 1, Range::atLeast(1));
        r.string("mode", "replay", {"replay", "closed_loop"});
        r.numbers("list", {}, Range::positive());
        JsonReader c = r.object("child");
        c.number("x", 0.0);
        c.finish();
        r.finish();
        QCOMPARE(d.items().size(), size_t(1));
        QCOMPARE(QString::fromStdString(d.items()[0].str()), expected);
    }

    void syntaxErrorNamesLineAndColumn() {
        Diagnostics d("f.json");
        const auto j = tandem::parseJsonText("{\n  \"a\": 1,\n  \"b\": ]\n}", d);
        QVERIFY(j.is_null());
        QCOMPARE(d.items().size(), size_t(1));
        QCOMPARE(QString::fromStdString(d.items()[0].path), QStringLiteral("line 3, column 8"));
        QVERIFY(QString::fromStdString(d.items()[0].str()).startsWith("f.json: line 3"));
    }

    void duplicateKeysAreReportedWithTheirPath() {
        Diagnostics d;
        const auto j = tandem::parseJsonText(
            R"({"a": 1, "list": [{"x": 1}, {"x": 2, "x": 3}], "b": {"c": 1, "c": 2}, "a": 4})", d);
        QVERIFY(j.is_null());
        QCOMPARE(d.items().size(), size_t(3));
        QCOMPARE(QString::fromStdString(d.items()[0].path), QStringLiteral("$.list[1].x"));
        QCOMPARE(QString::fromStdString(d.items()[1].path), QStringLiteral("$.b.c"));
        QCOMPARE(QString::fromStdString(d.items()[2].path), QStringLiteral("$.a"));
        Diagnostics ok;
        QVERIFY(!tandem::parseJsonText(R"({"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 2}]})", ok).is_null());
        QVERIFY(ok.ok());
    }

    void closestMatch() {
        QCOMPARE(tandem::editDistance("kitten", "sitting"), 3);
        QCOMPARE(QString::fromStdString(tandem::closestMatch("nic_Gbps", {"nic_GBps", "days"})),
                 QStringLiteral("nic_GBps"));
        QVERIFY(tandem::closestMatch("completely", {"days"}).empty());
    }

    void formatNumberRoundTrips() {
        for (double v : {0.1, 1.0 / 3.0, 2.55048, 1e22, 478e9, -0.0}) {
            const auto s = tandem::formatNumber(v);
            QCOMPARE(std::strtod(s.c_str(), nullptr), v);
        }
        QCOMPARE(QString::fromStdString(tandem::formatNumber(2.55048)), QStringLiteral("2.55048"));
    }
};

QTEST_APPLESS_MAIN(TestJsonReader)
#include "tst_json_reader.moc"
