// JsonReader: every read reports wrong types, ranges and unknown keys with the JSON path.
#include <QtTest>
#include <clocale>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "common/field_table.h"
#include "common/json_reader.h"
#include "common/number_format.h"
#include "test_main.h"

using tandem::Diagnostics;
using tandem::Field;
using tandem::FieldBound;
using tandem::JsonReader;
using tandem::Range;

namespace {

/// An object of the generic field table's tests: a time span kept in s and written in ms, a
/// count, a word and a string with its own read and write (in the nested object `limits`).
struct Probe {
    double span_s = 0.25;
    int count = 4;
    std::string mode = "fast";
    std::string label = "a";
    int extra = 7;  ///< written only off its default
};

/// The table of Probe: one row of each shape.
const std::vector<Field<Probe>>& probeFields() {
    static const std::vector<Field<Probe>> t = [] {
        std::vector<Field<Probe>> v = {
            {"", "span_ms", "ms", " ms", 1e-3, false, Range::positive(),
             FieldBound{1e-3, "one microsecond, a kernel launch (a physical bound)"},
             FieldBound{3.6e6, "one hour (a bound on the work)"}, "a time span", "test",
             [](const Probe& p) { return p.span_s; }, [](Probe& p, double v) { p.span_s = v; }},
            {"",
             "count",
             "items",
             "",
             1,
             true,
             Range::closed(1, 64),
             {},
             {},
             "a count",
             "test",
             [](const Probe& p) { return double(p.count); },
             [](Probe& p, double v) { p.count = int(v); }},
            {"", "mode", "", "", 1, false, Range{}, {}, {}, "a word", "test"},
            {"limits",
             "label",
             "",
             "",
             1,
             false,
             Range{},
             {},
             {},
             "a string",
             "test",
             nullptr,
             nullptr,
             [](JsonReader& r, const Field<Probe>& f, Probe& p) {
                 p.label = r.string(f.key, p.label);
                 if (p.label.empty())
                     r.diagnostics().error(r.childPath(f.key), "must not be empty");
             },
             [](const Field<Probe>& f, const Probe& p, nlohmann::ordered_json& j) {
                 j[f.key] = p.label;
             }},
            {"limits",
             "extra",
             "",
             "",
             1,
             true,
             Range::closed(0, 100),
             {},
             {},
             "off default",
             "test",
             [](const Probe& p) { return double(p.extra); },
             [](Probe& p, double v) { p.extra = int(v); },
             nullptr,
             nullptr,
             false},
        };
        v[2].words = {"fast", "slow"};
        v[2].getWord = [](const Probe& p) { return p.mode; };
        v[2].setWord = [](Probe& p, const std::string& w) { p.mode = w; };
        return v;
    }();
    return t;
}

/// The errors of reading `obj` as a Probe at "$.probe" (readFields, then finish).
std::vector<tandem::Issue> probeErrors(const nlohmann::json& obj, Probe* out = nullptr) {
    Diagnostics d;
    JsonReader r(obj, "$.probe", d);
    Probe p;
    tandem::readFields(r, probeFields(), p);
    r.finish();
    if (out) *out = p;
    return d.items();
}

/// Runs `check` once in every locale of {C, de_DE.UTF-8, fr_FR.UTF-8} the C library has, set
/// in this process with setlocale(LC_ALL, ...) as a Qt application does from LANG/LC_ALL;
/// returns whether de_DE.UTF-8 was among them. The process locale is restored afterwards.
template <class Check>
bool inEveryLocale(Check check) {
    const std::string before = std::setlocale(LC_ALL, nullptr);
    bool german = false;
    for (const char* locale : {"C", "de_DE.UTF-8", "fr_FR.UTF-8"}) {
        if (!std::setlocale(LC_ALL, locale)) continue;
        german = german || std::string(locale) == "de_DE.UTF-8";
        check(locale);
        if (QTest::currentTestFailed()) break;
    }
    std::setlocale(LC_ALL, before.c_str());
    return german;
}

constexpr const char* kNoGerman =
    "checked in the C locale only: de_DE.UTF-8 is not installed here (localedef -i de_DE -f "
    "UTF-8 de_DE.UTF-8)";

}  // namespace

class TestJsonReader : public QObject {
    Q_OBJECT
private slots:
    // The generic field table (common/field_table.h) writes every row in JSON units (a span in
    // ms, a section's keys in their object, an off-default-only key only when set) and reads
    // the written object back to the same value and the same bytes.
    void fieldTableRoundTrips() {
        Probe p;
        p.span_s = 0.0125;
        p.count = 12;
        p.mode = "slow";
        p.label = "b";
        const nlohmann::ordered_json j = tandem::writeFields(probeFields(), p);
        QCOMPARE(j.dump(), std::string(R"({"span_ms":12.5,"count":12,"mode":"slow",)"
                                       R"("limits":{"label":"b"}})"));
        Probe back;
        const nlohmann::json in = nlohmann::json::parse(j.dump());
        QVERIFY(probeErrors(in, &back).empty());
        QCOMPARE(back.span_s, p.span_s);
        QCOMPARE(back.count, 12);
        QCOMPARE(back.mode, std::string("slow"));
        QCOMPARE(back.label, std::string("b"));
        QCOMPARE(tandem::writeFields(probeFields(), back).dump(), j.dump());
        p.extra = 9;  // off its default: written in its section
        QCOMPARE(tandem::writeFields(probeFields(), p)["limits"]["extra"].get<int>(), 9);
        // Lookup by key path.
        QCOMPARE(tandem::findField(probeFields(), "limits.label"), &probeFields()[3]);
        QVERIFY(tandem::findField(probeFields(), "label") == nullptr);
        try {
            (void)tandem::field(probeFields(), "spam_ms", "$.probe");
            QFAIL("no exception for an unknown key");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(std::string(e.what()),
                     std::string(R"(no key "spam_ms" in the field table of $.probe)"));
        }
    }

    // A value beyond a row's range or bound is refused at the key's path with the key's unit,
    // the limit and the bound's reason; a value of the wrong word or type names the key too.
    void fieldTableNamesKeyAndReason_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("above bound")
            << R"({"span_ms": 4e6})"
            << "$.probe.span_ms"
            << "must be at most 3.6e+06 ms (got 4e+06): one hour (a bound on the work)";
        QTest::newRow("below bound")
            << R"({"span_ms": 1e-4})"
            << "$.probe.span_ms"
            << "must be at least 0.001 ms (got 0.0001): one microsecond, a kernel launch (a "
               "physical bound)";
        QTest::newRow("outside range") << R"({"span_ms": 0})"
                                       << "$.probe.span_ms"
                                       << "must be > 0 (got 0)";
        QTest::newRow("integer range") << R"({"count": 65})"
                                       << "$.probe.count"
                                       << "must be in [1, 64] (got 65)";
        QTest::newRow("not an integer") << R"({"count": 2.5})"
                                        << "$.probe.count"
                                        << "must be an integer (got 2.5)";
        QTest::newRow("own check") << R"({"limits": {"label": ""}})"
                                   << "$.probe.limits.label"
                                   << "must not be empty";
        QTest::newRow("section range") << R"({"limits": {"extra": 101}})"
                                       << "$.probe.limits.extra"
                                       << "must be in [0, 100] (got 101)";
        QTest::newRow("unknown key") << R"({"limits": {"labl": "x"}})"
                                     << "$.probe.limits.labl"
                                     << "unknown key; did you mean \"label\"?";
    }
    void fieldTableNamesKeyAndReason() {
        QFETCH(QString, json);
        QFETCH(QString, path);
        QFETCH(QString, message);
        const auto issues = probeErrors(nlohmann::json::parse(json.toStdString()));
        QCOMPARE(issues.size(), size_t(1));
        QCOMPARE(QString::fromStdString(issues.front().path), path);
        QCOMPARE(QString::fromStdString(issues.front().message), message);
    }

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
        QTest::newRow("negative") << R"({"rate_GBps": -5})"
                                  << "$.rate_GBps: must be > 0 (got -5)";
        QTest::newRow("zero") << R"({"rate_GBps": 0})"
                              << "$.rate_GBps: must be > 0 (got 0)";
        QTest::newRow("unknown key with hint")
            << R"({"rate_GBsp": 1})"
            << "$.rate_GBsp: unknown key; did you mean \"rate_GBps\"?";
        QTest::newRow("unknown key without hint") << R"({"zzzzzzzzzz": 1})"
                                                  << "$.zzzzzzzzzz: unknown key";
        QTest::newRow("non-integer") << R"({"count": 2.5})"
                                     << "$.count: must be an integer (got 2.5)";
        QTest::newRow("integer range") << R"({"count": 0})"
                                       << "$.count: must be >= 1 (got 0)";
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
        QVERIFY(!tandem::parseJsonText(
                     R"({"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 2}]})", ok)
                     .is_null());
        QVERIFY(ok.ok());
    }

    void nestingDepthIsLimited_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<QString>("where");
        const int n = tandem::kMaxJsonDepth;
        const auto nested = [](int depth, const char* open, const char* close) {
            QString t;
            for (int i = 0; i < depth; ++i) t += QLatin1String(open);
            t += QLatin1String("1");
            for (int i = 0; i < depth; ++i) t += QLatin1String(close);
            return t;
        };
        // {"a": repeated: the '{' opening level n + 1 is at column 5 n + 1.
        QTest::newRow("objects at the limit") << nested(n, "{\"a\":", "}") << true << QString();
        QTest::newRow("objects one past") << nested(n + 1, "{\"a\":", "}") << false
                                          << QStringLiteral("line 1, column %1").arg(5 * n + 1);
        QTest::newRow("60000 objects (360 KB)")
            << nested(60000, "{\"a\":", "}") << false
            << QStringLiteral("line 1, column %1").arg(5 * n + 1);
        QTest::newRow("a million arrays")
            << nested(1000000, "[", "]") << false << QStringLiteral("line 1, column %1").arg(n + 1);
        // Brackets inside strings (with escaped quotes) do not count.
        QTest::newRow("brackets in a string")
            << QStringLiteral("{\"s\": \"%1\\\"%1\"}").arg(QString(3 * n, '[')) << true
            << QString();
        QTest::newRow("second line")
            << QStringLiteral("{\n") + nested(n, "[", "]") + QStringLiteral("}") << false
            << QStringLiteral("line 2, column %1").arg(n);
    }

    void nestingDepthIsLimited() {
        QFETCH(QString, text);
        QFETCH(bool, accepted);
        QFETCH(QString, where);
        Diagnostics d("deep.json");
        const auto j = tandem::parseJsonText(text.toStdString(), d);
        QCOMPARE(d.ok(), accepted);
        QCOMPARE(j.is_null(), !accepted);
        if (!accepted) {
            QCOMPARE(d.items().size(), size_t(1));
            QCOMPARE(QString::fromStdString(d.items()[0].path), where);
            QVERIFY(QString::fromStdString(d.items()[0].message)
                        .contains(QString::number(tandem::kMaxJsonDepth)));
        }
    }

    // Integers beyond 2^53 were read rounded (9007199254740993 as ...992, 1e20 written out as
    // 100000000000000000000 kept, 18446744073709551616 as a double): refused at their path.
    // Text after a NUL byte (nlohmann_json stops there) was ignored: refused at the NUL.
    void numbersAndBytesNotAsWritten_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("path");     // "" = accepted
        QTest::addColumn<QString>("message");  // a fragment
        QTest::newRow("2^53 + 1 in an object")
            << QByteArray(R"({"placement": {"seed": 9007199254740993}})") << "$.placement.seed"
            << "integer 9007199254740993 is beyond 2^53 (9007199254740992)";
        QTest::newRow("negative, in an array")
            << QByteArray(R"({"a": [1, {"b": [2, -9007199254740993]}]})") << "$.a[1].b[1]"
            << "integer -9007199254740993 is beyond 2^53";
        QTest::newRow("beyond uint64") << QByteArray(R"({"n": 18446744073709551616})") << "$.n"
                                       << "integer 18446744073709551616";
        QTest::newRow("a 20-digit integer") << QByteArray("[100000000000000000000]") << "$[0]"
                                            << "integer 100000000000000000000";
        QTest::newRow("the root value") << QByteArray("12345678901234567890") << "$"
                                        << "integer 12345678901234567890";
        QTest::newRow("NUL after the closing brace")
            << QByteArray("{\"a\": 1}\0{\"b\": 2}", 17) << "line 1, column 9"
            << "invalid JSON: a NUL byte, followed by 8 more byte(s)";
        QTest::newRow("a second value after the closing brace")
            << QByteArray("{\"a\": 1}\n{\"b\": 2}\n") << "line 2, column 1"
            << "expected end of input";
        QTest::newRow("NUL on a later line")
            << QByteArray("{\"a\": 1}\n\0\0garbage", 18) << "line 2, column 1"
            << "a NUL byte, followed by 8 more byte(s)";
        // Kept: 2^53 itself, floats of any size, digits inside strings.
        QTest::newRow("2^53") << QByteArray(R"({"n": 9007199254740992, "m": -9007199254740992})")
                              << ""
                              << "";
        QTest::newRow("floats") << QByteArray(R"({"f": 1e24, "g": 9007199254740993.0})") << ""
                                << "";
        QTest::newRow("digits in strings")
            << QByteArray("{\"s\": \"123456789012345678901234\", \"k\\\"1\": 1}") << ""
            << "";
    }
    void numbersAndBytesNotAsWritten() {
        QFETCH(QByteArray, text);
        QFETCH(QString, path);
        QFETCH(QString, message);
        Diagnostics d("f.json");
        const auto j = tandem::parseJsonText(text.toStdString(), d);
        if (path.isEmpty()) {
            QVERIFY2(d.ok(), d.str().c_str());
            QVERIFY(!j.is_null());
            return;
        }
        QVERIFY(j.is_null());
        QCOMPARE(d.items().size(), size_t(1));
        QCOMPARE(QString::fromStdString(d.items()[0].path), path);
        QVERIFY2(QString::fromStdString(d.items()[0].message).contains(message), d.str().c_str());
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

    /// Issue #25: the one number formatter writes the C convention whatever the process locale
    /// (printf's %g and %f wrote "2,5" after setlocale(LC_ALL, "de_DE.UTF-8")).
    void formattersIgnoreProcessLocale_data() {
        QTest::addColumn<QString>("style");  // number, csv, general, fixed
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("digits");
        QTest::addColumn<QString>("want");
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        QTest::newRow("number 2.5") << "number" << 2.5 << 0 << "2.5";
        QTest::newRow("number 0.1") << "number" << 0.1 << 0 << "0.1";
        QTest::newRow("number 1/3") << "number" << 1.0 / 3.0 << 0 << "0.3333333333333333";
        QTest::newRow("number 1e300") << "number" << 1e300 << 0 << "1e+300";
        QTest::newRow("number 1e-310") << "number" << 1e-310 << 0 << "1e-310";
        QTest::newRow("number 1234567.125") << "number" << 1234567.125 << 0 << "1234567.125";
        QTest::newRow("number -0") << "number" << -0.0 << 0 << "-0";
        QTest::newRow("number -inf") << "number" << -inf << 0 << "-inf";
        QTest::newRow("csv 0.7") << "csv" << 0.7 << 0 << "0.7";
        QTest::newRow("csv nan") << "csv" << nan << 0 << "";
        QTest::newRow("general 1234.5 3") << "general" << 1234.5 << 3 << "1.23e+03";
        QTest::newRow("general 0.000123456 2") << "general" << 0.000123456 << 2 << "0.00012";
        QTest::newRow("general 0.985 4") << "general" << 0.985 << 4 << "0.985";
        QTest::newRow("general 1e6 6") << "general" << 1e6 << 6 << "1e+06";
        QTest::newRow("general 2.5 0") << "general" << 2.5 << 0 << "2";
        QTest::newRow("fixed 2.5 2") << "fixed" << 2.5 << 2 << "2.50";
        QTest::newRow("fixed 2.345 2") << "fixed" << 2.345 << 2 << "2.35";
        QTest::newRow("fixed 1234567.891 3") << "fixed" << 1234567.891 << 3 << "1234567.891";
        QTest::newRow("fixed -0.04 1") << "fixed" << -0.04 << 1 << "-0.0";
        QTest::newRow("fixed 1e21 0") << "fixed" << 1e21 << 0 << "1000000000000000000000";
        QTest::newRow("fixed 1e300 1")
            << "fixed" << 1e300 << 1
            << QStringLiteral(
                   "1000000000000000052504760255204420248704468581108159154915854115511802457988908"
                   "1"
                   "9578637137508044786404370444383288387817694252323536043057564479218478670698284"
                   "8"
                   "3872009265758037378302337947880900593689532349707999450811190389676408800746527"
                   "4"
                   "2780142494579258788820056842838115669472196386865459400540160.0");
        QTest::newRow("fixed nan 2") << "fixed" << nan << 2 << "nan";
    }
    void formattersIgnoreProcessLocale() {
        QFETCH(QString, style);
        QFETCH(double, value);
        QFETCH(int, digits);
        QFETCH(QString, want);
        const bool german = inEveryLocale([&](const char* locale) {
            const std::string got = style == "number"    ? tandem::formatNumber(value)
                                    : style == "csv"     ? tandem::csvNumber(value)
                                    : style == "general" ? tandem::formatGeneral(value, digits)
                                                         : tandem::formatFixed(value, digits);
            QVERIFY2(
                QString::fromStdString(got) == want,
                qPrintable(QStringLiteral("%1: got %2, want %3")
                               .arg(QString::fromUtf8(locale), QString::fromStdString(got), want)));
        });
        if (!german && !QTest::currentTestFailed()) QSKIP(kNoGerman);
    }

    /// The one number parser reads the C convention whatever the process locale, with strtod's
    /// syntax in the C locale (strtod and std::stod refused "2.5" and read "2,5" under de_DE).
    void parserIgnoresProcessLocale_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("whole");       // parseNumber accepts the text
        QTest::addColumn<double>("value");     // scanNumber's value
        QTest::addColumn<int>("length");       // scanNumber's length
        QTest::addColumn<bool>("outOfRange");  // scanNumber's range flag
        const double inf = std::numeric_limits<double>::infinity();
        QTest::newRow("2.5") << "2.5" << true << 2.5 << 3 << false;
        QTest::newRow("0.985") << "0.985" << true << 0.985 << 5 << false;
        QTest::newRow("-1.5e-3") << "-1.5e-3" << true << -1.5e-3 << 7 << false;
        QTest::newRow("+3") << "+3" << true << 3.0 << 2 << false;
        QTest::newRow("leading blank") << " .5" << true << 0.5 << 3 << false;
        QTest::newRow("hex") << "0x1p3" << true << 8.0 << 5 << false;
        QTest::newRow("decimal comma") << "2,5" << false << 2.0 << 1 << false;
        QTest::newRow("trailing text") << "1.5x" << false << 1.5 << 3 << false;
        QTest::newRow("empty") << "" << false << 0.0 << 0 << false;
        QTest::newRow("sign twice") << "--1" << false << 0.0 << 0 << false;
        QTest::newRow("word") << "abc" << false << 0.0 << 0 << false;
        QTest::newRow("overflow") << "1e400" << false << inf << 5 << true;
        QTest::newRow("negative overflow") << "-1e400" << false << -inf << 6 << true;
        QTest::newRow("underflow") << "1e-400" << false << 0.0 << 6 << true;
        QTest::newRow("subnormal") << "1e-310" << false << 1e-310 << 6 << true;
        QTest::newRow("inf") << "inf" << false << inf << 3 << false;
        QTest::newRow("-Infinity") << "-Infinity" << false << -inf << 9 << false;
    }
    /// An integer literal beyond 2^53 is flagged by scanNumber and refused by parseNumber, the
    /// rule of every number Tandem reads (JSON files and the command line alike).
    void integersBeyondDoubleAreNotNumbers_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("inexact");
        QTest::newRow("2^53") << "9007199254740992" << false;
        QTest::newRow("2^53 + 1") << "9007199254740993" << true;
        QTest::newRow("-(2^53 + 1)") << "-9007199254740993" << true;
        QTest::newRow("+2^54") << "+18014398509481984" << true;
        QTest::newRow("leading zeros, 2^53") << "0009007199254740992" << false;
        QTest::newRow("20 digits") << "12345678901234567890" << true;
        QTest::newRow("with a fraction") << "9007199254740993.0" << false;
        QTest::newRow("with an exponent") << "9007199254740993e0" << false;
    }
    void integersBeyondDoubleAreNotNumbers() {
        QFETCH(QString, text);
        QFETCH(bool, inexact);
        const std::string t = text.toStdString();
        QCOMPARE(tandem::scanNumber(t).inexactInteger, inexact);
        QCOMPARE(tandem::scanNumber(t).length, t.size());
        QCOMPARE(tandem::integerBeyondDouble(t), inexact);
        QCOMPARE(tandem::parseNumber(t).has_value(), !inexact);
    }
    void parserIgnoresProcessLocale() {
        QFETCH(QString, text);
        QFETCH(bool, whole);
        QFETCH(double, value);
        QFETCH(int, length);
        QFETCH(bool, outOfRange);
        const std::string t = text.toStdString();
        const bool german = inEveryLocale([&](const char* locale) {
            const QString where = QString::fromUtf8(locale);
            const std::optional<double> parsed = tandem::parseNumber(t);
            QVERIFY2(parsed.has_value() == whole, qPrintable(where));
            if (whole) QVERIFY2(*parsed == value, qPrintable(where));
            const tandem::NumberScan s = tandem::scanNumber(t);
            QVERIFY2(s.value == value && std::signbit(s.value) == std::signbit(value),
                     qPrintable(where + QStringLiteral(": value %1").arg(s.value)));
            QVERIFY2(s.length == std::size_t(length),
                     qPrintable(where + QStringLiteral(": length %1").arg(s.length)));
            QVERIFY2(s.outOfRange == outOfRange, qPrintable(where));
        });
        if (!german && !QTest::currentTestFailed()) QSKIP(kNoGerman);
    }
};

TANDEM_TEST_APPLESS_MAIN(TestJsonReader)
#include "tst_json_reader.moc"
