// Background load traces: rate and bytes-per-window CSVs, unit conversion at the edge,
// sample-and-hold lookup, and the messages for malformed traces.
#include <QtTest>

#include "io/load_trace.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::io;

namespace {
bool anyIssue(const Diagnostics& d, const std::string& path, const std::string& fragment) {
    for (const auto& i : d.items())
        if (i.path == path && i.message.find(fragment) != std::string::npos) return true;
    return false;
}
}  // namespace

class TstLoadTrace : public QObject {
    Q_OBJECT
private slots:
    void rateTrace() {
        Diagnostics d;
        const auto t =
            parseLoadTrace("# two jobs arrive\ntime_s,bytes_per_s\n0,0\n10,5e9\n20,2.5e9\n", d);
        QVERIFY2(t, d.str().c_str());
        QVERIFY(t->format == LoadTraceFormat::Rate);
        QCOMPARE(t->time_s, (std::vector<double>{0, 10, 20}));
        QCOMPARE(t->lastDuration_s, 10.0);  // median interval
        QCOMPARE(loadAt(*t, 5.0), 0.0);
        QCOMPARE(loadAt(*t, 10.0), 5e9);
        QCOMPARE(loadAt(*t, 29.9), 2.5e9);
        bool outside = false;
        QCOMPARE(loadAt(*t, 30.0, &outside), 0.0);
        QVERIFY(outside);
        const auto j = loadTraceToJson(*t);
        QCOMPARE(j["duration_s"].get<double>(), 30.0);
        QCOMPARE(j["mean_GBps"].get<double>(), (0 * 10 + 5 * 10 + 2.5 * 10) / 30.0);
        QCOMPARE(j["peak_GBps"].get<double>(), 5.0);
        QCOMPARE(j["format"].get<std::string>(), std::string("rate"));
    }

    void formatNamesRoundTrip() {
        QCOMPARE(enumNames(loadTraceFormatNames()), (std::vector<std::string>{"rate", "window"}));
        for (const auto& e : loadTraceFormatNames())
            QVERIFY(enumFromName(loadTraceFormatNames(), name(e.value)) == e.value);
        QVERIFY(!enumFromName(loadTraceFormatNames(), "bytes"));
        Diagnostics d;
        const auto t = parseLoadTrace("# window_s: 0.5\nbytes\n1e9\n", d);
        QVERIFY2(t, d.str().c_str());
        QCOMPARE(loadTraceToJson(*t)["format"].get<std::string>(), std::string("window"));
    }

    void unitsConvertedOnce_data() {
        QTest::addColumn<QString>("header");
        QTest::addColumn<double>("bytesPerSecond");  // for a cell value of 8
        QTest::newRow("GBps") << "time_s,GBps" << 8e9;
        QTest::newRow("Gbps bits") << "time_s,Gbps" << 1e9;
        QTest::newRow("MBps") << "time_ms,MBps" << 8e6;
        QTest::newRow("bytes_per_s") << "time_s,bytes_per_s" << 8.0;
    }
    void unitsConvertedOnce() {
        QFETCH(QString, header);
        QFETCH(double, bytesPerSecond);
        Diagnostics d;
        const auto t = parseLoadTrace(header.toStdString() + "\n0,8\n500,8\n", d);
        QVERIFY2(t, d.str().c_str());
        QCOMPARE(t->bytesPerSecond.front(), bytesPerSecond);
        QCOMPARE(t->time_s.back(), header.startsWith("time_ms") ? 0.5 : 500.0);
    }

    void bytesPerWindow() {
        Diagnostics d;
        const auto t = parseLoadTrace("# window_s: 0.5\nbytes\n1e9\n0\n3e9\n", d);
        QVERIFY2(t, d.str().c_str());
        QVERIFY(t->format == LoadTraceFormat::Window);
        QCOMPARE(t->time_s, (std::vector<double>{0, 0.5, 1.0}));
        QCOMPARE(t->bytesPerSecond, (std::vector<double>{2e9, 0, 6e9}));
        QCOMPARE(t->lastDuration_s, 0.5);
        // Window from a column, or from the caller.
        const auto c = parseLoadTrace("window_s,bytes\n2,4e9\n2,8e9\n", d);
        QVERIFY2(c, d.str().c_str());
        QCOMPARE(c->bytesPerSecond, (std::vector<double>{2e9, 4e9}));
        const auto p = parseLoadTrace("bytes\n4e9\n", d, 4.0);
        QVERIFY2(p, d.str().c_str());
        QCOMPARE(p->bytesPerSecond.front(), 1e9);
    }

    void noHeader() {
        Diagnostics d;
        const auto t = parseLoadTrace("0,1e9\n1,2e9\n", d);
        QVERIFY2(t, d.str().c_str());
        QCOMPARE(t->bytesPerSecond, (std::vector<double>{1e9, 2e9}));
        QVERIFY(!t->assumptions.empty());
    }

    void malformed_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("negative") << "time_s,bytes_per_s\n0,1\n1,-2\n"
                                  << "line 3, column \"bytes_per_s\""
                                  << "must be >= 0";
        QTest::newRow("not a number") << "time_s,GBps\n0,x\n"
                                      << "line 2, column \"GBps\""
                                      << "must be a finite number";
        QTest::newRow("time goes back") << "time_s,GBps\n0,1\n5,1\n5,2\n"
                                        << "line 4"
                                        << "time must increase strictly";
        QTest::newRow("no load column") << "time_s,foo\n0,1\n"
                                        << "line 1"
                                        << "header needs a load column";
        QTest::newRow("rate without time") << "GBps\n1\n"
                                           << "line 1"
                                           << "needs a time column";
        QTest::newRow("window missing") << "bytes\n100\n"
                                        << "line 2"
                                        << "need the window length";
        QTest::newRow("bad window comment") << "# window_s: -1\nbytes\n100\n"
                                            << "line 1"
                                            << "window_s must be a number > 0";
        QTest::newRow("empty") << "# nothing\n"
                               << "file"
                               << "no rows";
    }
    void malformed() {
        QFETCH(QString, text);
        QFETCH(QString, path);
        QFETCH(QString, fragment);
        Diagnostics d;
        QVERIFY(!parseLoadTrace(text.toStdString(), d));
        QVERIFY2(anyIssue(d, path.toStdString(), fragment.toStdString()), d.str().c_str());
    }
};

TANDEM_TEST_APPLESS_MAIN(TstLoadTrace)
#include "tst_load_trace.moc"
