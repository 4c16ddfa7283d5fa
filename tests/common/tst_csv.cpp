// csvQuote (RFC 4180 section 2, rules 5-7): which fields are quoted and how, and that a sweep
// table with awkward cells survives toCsv -> merge unchanged.
#include <QtTest>

#include "common/csv.h"
#include "common/diagnostics.h"
#include "sweep/sweep.h"
#include "test_main.h"

Q_DECLARE_METATYPE(std::string)

class TestCsv : public QObject {
    Q_OBJECT
private slots:
    void quote_data() {
        QTest::addColumn<std::string>("field");
        QTest::addColumn<std::string>("expected");
        QTest::newRow("empty") << std::string() << std::string();
        QTest::newRow("plain") << std::string("Joint") << std::string("Joint");
        QTest::newRow("spaces kept") << std::string(" a b ") << std::string(" a b ");
        QTest::newRow("number") << std::string("1.5e-07") << std::string("1.5e-07");
        QTest::newRow("semicolon, tab not special")
            << std::string("a;b\tc") << std::string("a;b\tc");
        QTest::newRow("comma") << std::string("a,b") << std::string("\"a,b\"");
        QTest::newRow("lone comma") << std::string(",") << std::string("\",\"");
        QTest::newRow("quote") << std::string("say \"hi\"") << std::string("\"say \"\"hi\"\"\"");
        QTest::newRow("lone quote") << std::string("\"") << std::string("\"\"\"\"");
        QTest::newRow("LF") << std::string("a\nb") << std::string("\"a\nb\"");
        QTest::newRow("CR") << std::string("a\rb") << std::string("\"a\rb\"");
        QTest::newRow("CRLF") << std::string("a\r\nb") << std::string("\"a\r\nb\"");
        QTest::newRow("all specials")
            << std::string("x,\"y\"\r\n") << std::string("\"x,\"\"y\"\"\r\n\"");
        QTest::newRow("NUL passes through") << std::string("a\0b", 3) << std::string("a\0b", 3);
        QTest::newRow("NUL and comma") << std::string("a\0,", 3) << std::string("\"a\0,\"", 5);
        QTest::newRow("non-UTF-8 bytes") << std::string("\xff\xfe") << std::string("\xff\xfe");
        QTest::newRow("UTF-8 text")
            << std::string("Entkopplung \xc3\xa4") << std::string("Entkopplung \xc3\xa4");
    }

    void quote() {
        QFETCH(std::string, field);
        QFETCH(std::string, expected);
        QCOMPARE(tandem::csvQuote(field), expected);
    }

    // Each awkward cell is written by toCsv and read back by merge's RFC 4180 parser unchanged
    // (an unquoted CR would be dropped by the reader, so CR must be quoted).
    void sweepTableRoundTrip_data() {
        QTest::addColumn<std::string>("cell");
        QTest::newRow("comma") << std::string("a,b");
        QTest::newRow("quote") << std::string("\"q\"");
        QTest::newRow("CR") << std::string("a\rb");
        QTest::newRow("CRLF") << std::string("a\r\nb");
        QTest::newRow("trailing LF") << std::string("end\n");
        QTest::newRow("empty") << std::string();
    }

    void sweepTableRoundTrip() {
        QFETCH(std::string, cell);
        tandem::sweep::Table t;
        t.header = {"point", "label", "value"};
        t.rows = {{"0", cell, "1"}, {"1", "plain", cell}};
        const std::string csv = tandem::sweep::toCsv(t);
        tandem::Diagnostics d;
        const auto back = tandem::sweep::merge({csv}, {"t.csv"}, d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(back.header, t.header);
        QCOMPARE(back.rows, t.rows);
        QCOMPARE(tandem::sweep::toCsv(back), csv);
    }

    void readTable_data() {
        QTest::addColumn<QString>("csv");
        QTest::addColumn<int>("rows");
        QTest::addColumn<QString>("errors");  // Diagnostics::str()
        QTest::newRow("lf") << "a,b\n1,2\n3,4\n" << 2 << "";
        QTest::newRow("crlf, blank lines") << "a,b\r\n\r\n1,2\r\n\n3,\r\n" << 2 << "";
        QTest::newRow("header") << "a,c\n1,2\n" << 0 << "t.csv: line 1: header must be a,b\n";
        QTest::newRow("field count") << "a,b\n1,2,3\n4,5\n"
                                     << 1 << "t.csv: line 2: has 3 fields, expected 2\n";
        QTest::newRow("empty") << "" << 0 << "";
    }
    void readTable() {
        QFETCH(QString, csv);
        QFETCH(int, rows);
        QFETCH(QString, errors);
        tandem::Diagnostics d("t.csv");
        std::vector<std::string> wheres;
        tandem::readCsvTable(csv.toStdString(), {"a", "b"}, d,
                             [&](const std::vector<std::string>& f, const std::string& where, int) {
                                 QCOMPARE(int(f.size()), 2);
                                 wheres.push_back(where);
                             });
        QCOMPARE(int(wheres.size()), rows);
        QCOMPARE(QString::fromStdString(d.str()), errors);
        if (rows == 2 && csv.contains("\r\n\r\n")) QCOMPARE(wheres.back(), std::string("line 5"));
    }
};

TANDEM_TEST_APPLESS_MAIN(TestCsv)
#include "tst_csv.moc"
