// Sweeps: axis and shard parsing, sharded runs merged equal the unsharded run byte for byte,
// merge rejects incomplete or inconsistent inputs.
#include <QtTest>

#include "scenario/scenario.h"
#include "sweep/sweep.h"
#include "test_main.h"

namespace sw = tandem::sweep;

namespace {
/// A small MOSAIC envelope (4 nodes, 5 days) so that a grid of points runs in well under a second.
std::string smallScenario() {
    tandem::Scenario s;
    s.name = "sweep test";
    tandem::mosaic::Envelope e;
    e.nodes = 4;
    e.days = 5;
    s.mosaic = e;
    return tandem::scenarioToJson(s);
}
}  // namespace

class TestSweep : public QObject {
    Q_OBJECT
private slots:
    void parsesRanges() {
        sw::Axis a;
        std::string err;
        QVERIFY(sw::parseAxis("mosaic.nodes=2:8:4", a, err));
        QCOMPARE(QString::fromStdString(a.path), QStringLiteral("mosaic.nodes"));
        QCOMPARE(a.values.size(), size_t(4));
        QCOMPARE(a.values[1].get<long long>(), 4LL);  // 2, 4, 6, 8 stay integers
        QVERIFY(a.values[1].is_number_integer());
        QVERIFY(sw::parseAxis("ml_for_ml.fabric_GBps=300:600:3", a, err));
        QCOMPARE(a.values[1].get<double>(), 450.0);
        QVERIFY(sw::parseAxis("mosaic.days=0.5:1.5:3", a, err));
        QVERIFY(a.values[1].is_number_float());
        QCOMPARE(a.values[1].get<double>(), 1.0);
    }
    void parsesLists() {
        sw::Axis a;
        std::string err;
        QVERIFY(sw::parseAxis("ml_for_ml.mode=replay, closed_loop", a, err));
        QCOMPARE(a.values.size(), size_t(2));
        QCOMPARE(QString::fromStdString(a.values[1].get<std::string>()),
                 QStringLiteral("closed_loop"));
        QVERIFY(sw::parseAxis("ml_for_ml.background_jobs=4,8,12,16", a, err));
        QCOMPARE(a.values[3].get<int>(), 16);
    }
    void rejectsBadAxes_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("no equals") << "mosaic.nodes";
        QTest::newRow("one point") << "mosaic.nodes=1:4:1";
        QTest::newRow("not numbers") << "mosaic.nodes=a:b:3";
        QTest::newRow("empty item") << "mosaic.nodes=1,,3";
        QTest::newRow("object value") << "mosaic.nodes={\"a\":1}";
    }
    void rejectsBadAxes() {
        QFETCH(QString, text);
        sw::Axis a;
        std::string err;
        QVERIFY(!sw::parseAxis(text.toStdString(), a, err));
        QVERIFY(!err.empty());
    }
    /// An integer beyond 2^53 is not the number written (9007199254740993 ran as
    /// 9007199254740992): refused, naming the key and the reason, never passed on rounded.
    void integersBeyondDoubleAreRefused_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("list value") << "mosaic.nodes=9007199254740993"
                                    << "mosaic.nodes: list value 1 is an integer beyond 2^53";
        QTest::newRow("second list value")
            << "mosaic.nodes=4, -18014398509481985"
            << "mosaic.nodes: list value 2 is an integer beyond 2^53";
        QTest::newRow("range start") << "mosaic.nodes=9007199254740993:9007199254740995:2"
                                     << "mosaic.nodes: range start is an integer beyond 2^53";
        QTest::newRow("range end") << "mosaic.nodes=1:0018014398509481985:3"
                                   << "mosaic.nodes: range end is an integer beyond 2^53";
    }
    void integersBeyondDoubleAreRefused() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        sw::Axis a;
        std::string err;
        QVERIFY(!sw::parseAxis(text.toStdString(), a, err));
        const QString e = QString::fromStdString(err);
        QVERIFY2(e.startsWith(message), qPrintable(e));
        QVERIFY2(e.contains(QStringLiteral("read as a different number than the one written")),
                 qPrintable(e));
    }
    void integersUpTo2Pow53AreKept() {
        sw::Axis a;
        std::string err;
        QVERIFY(sw::parseAxis("mosaic.nodes=9007199254740992,-9007199254740992", a, err));
        QCOMPARE(a.values[0].get<long long>(), 9007199254740992LL);
        QCOMPARE(a.values[1].get<long long>(), -9007199254740992LL);
        // A fraction or an exponent is a decimal number, not an integer literal: kept.
        QVERIFY(sw::parseAxis("mosaic.days=1e17,9007199254740993.5", a, err));
        QCOMPARE(a.values[0].get<double>(), 1e17);
    }
    /// sweep::run reports each finished point once, in order, from any worker thread.
    void progressCountsEveryPoint_data() {
        QTest::addColumn<int>("threads");
        QTest::addColumn<QString>("shard");
        QTest::addColumn<int>("points");
        QTest::newRow("1 thread") << 1 << "0/1" << 6;
        QTest::newRow("3 threads") << 3 << "0/1" << 6;
        QTest::newRow("shard 1/4, 2 threads") << 2 << "1/4" << 2;
    }
    void progressCountsEveryPoint() {
        QFETCH(int, threads);
        QFETCH(QString, shard);
        QFETCH(int, points);
        std::vector<sw::Axis> axes(2);
        std::string err;
        QVERIFY(sw::parseAxis("mosaic.nodes=2,4,8", axes[0], err));
        QVERIFY(sw::parseAxis("mosaic.days=5,10", axes[1], err));
        sw::Shard sh;
        QVERIFY(sw::parseShard(shard.toStdString(), sh, err));
        std::vector<std::pair<size_t, size_t>> calls;
        tandem::Diagnostics diag("test");
        const auto table = sw::run(smallScenario(), axes, sh, threads, diag, nullptr,
                                   [&](size_t done, size_t n) { calls.emplace_back(done, n); });
        QVERIFY(diag.ok());
        QCOMPARE(table.rows.size(), size_t(points));
        QCOMPARE(calls.size(), size_t(points));
        for (size_t i = 0; i < calls.size(); ++i) {
            QCOMPARE(calls[i].first, i + 1);
            QCOMPARE(calls[i].second, size_t(points));
        }
        // The table does not depend on the callback.
        tandem::Diagnostics plainDiag("test");
        QCOMPARE(sw::toCsv(sw::run(smallScenario(), axes, sh, threads, plainDiag)),
                 sw::toCsv(table));
    }
    void parsesShards() {
        sw::Shard s;
        std::string err;
        QVERIFY(sw::parseShard("2/5", s, err));
        QCOMPARE(s.index, 2);
        QCOMPARE(s.count, 5);
        QVERIFY(!sw::parseShard("5/5", s, err));
        QVERIFY(!sw::parseShard("-1/5", s, err));
        QVERIFY(!sw::parseShard("1/0", s, err));
        QVERIFY(!sw::parseShard("x", s, err));
    }

    void shardedMergeEqualsUnsharded() {
        const std::string text = smallScenario();
        std::vector<sw::Axis> axes(2);
        std::string err;
        QVERIFY(sw::parseAxis("mosaic.nodes=2,4,8", axes[0], err));
        QVERIFY(sw::parseAxis("mosaic.days=5,10", axes[1], err));
        tandem::Diagnostics d;
        const auto whole = sw::run(text, axes, {0, 1}, 2, d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(whole.rows.size(), size_t(6));
        // Different thread counts give the same bytes.
        const auto serial = sw::run(text, axes, {0, 1}, 1, d);
        QCOMPARE(sw::toCsv(serial), sw::toCsv(whole));
        // Four shards (one of them holds a single point), given to merge out of order.
        std::vector<std::string> parts;
        for (int i : {3, 1, 0, 2}) parts.push_back(sw::toCsv(sw::run(text, axes, {i, 4}, 1, d)));
        QVERIFY2(d.ok(), d.str().c_str());
        const auto merged = sw::merge(parts, {}, d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(sw::toCsv(merged), sw::toCsv(whole));
        // The sweep moved the answer: more nodes admit a different cluster optimum somewhere.
        const auto col =
            std::find(whole.header.begin(), whole.header.end(), "moe.cluster_optimal_sparsity") -
            whole.header.begin();
        QVERIFY(static_cast<size_t>(col) < whole.header.size());
        QVERIFY(whole.rows[0][col] != whole.rows[4][col]);
    }

    /// Shards of two different sweeps (other --vary values with the same shard count and grid
    /// size, or another scenario) must not merge: merge names both files.
    void shardsOfDifferentSweepsAreRejected() {
        const std::string text = smallScenario();
        std::vector<sw::Axis> a(1), b(1);
        std::string err;
        QVERIFY(sw::parseAxis("mosaic.nodes=2,4,8,16", a[0], err));
        QVERIFY(sw::parseAxis("mosaic.nodes=32,64,128,256", b[0], err));
        tandem::Diagnostics d;
        const auto a0 = sw::run(text, a, {0, 2}, 1, d);
        const auto a1 = sw::run(text, a, {1, 2}, 1, d);
        const auto b1 = sw::run(text, b, {1, 2}, 1, d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(a0.fingerprint.size(), size_t(16));
        QCOMPARE(a0.fingerprint, a1.fingerprint);
        QVERIFY(a0.fingerprint != b1.fingerprint);
        const std::string a0csv = sw::toCsv(a0);
        QVERIFY(a0csv.rfind("# tandem sweep shard 0/2 of 4 points, sweep " + a0.fingerprint + "\n",
                            0) == 0);
        // Same shard count, grid size and header: only the fingerprint tells them apart.
        QVERIFY(sw::merge({a0csv, sw::toCsv(b1)}, {"a0.csv", "b1.csv"}, d).rows.empty());
        QCOMPARE(d.items().size(), size_t(1));
        QCOMPARE(QString::fromStdString(d.items()[0].path), QStringLiteral("b1.csv: line 1"));
        QVERIFY2(d.items()[0].message.find("a0.csv and b1.csv are shards of different sweeps") == 0,
                 d.str().c_str());
        // Another scenario (days 6 instead of 5), same axes.
        tandem::Scenario other;
        other.name = "sweep test";
        tandem::mosaic::Envelope e;
        e.nodes = 4;
        e.days = 6;
        other.mosaic = e;
        const auto c1 = sw::run(tandem::scenarioToJson(other), a, {1, 2}, 1, d);
        QVERIFY(c1.fingerprint != a0.fingerprint);
        tandem::Diagnostics d2;
        QVERIFY(sw::merge({a0csv, sw::toCsv(c1)}, {"a0.csv", "c1.csv"}, d2).rows.empty());
        QVERIFY2(
            d2.str().find("a0.csv and c1.csv are shards of different sweeps") != std::string::npos,
            d2.str().c_str());
        // Shards of one sweep still merge into the unsharded table byte for byte.
        tandem::Diagnostics d3;
        const auto merged = sw::merge({sw::toCsv(a1), a0csv}, {}, d3);
        QVERIFY2(d3.ok(), d3.str().c_str());
        QCOMPARE(sw::toCsv(merged), sw::toCsv(sw::run(text, a, {0, 1}, 1, d3)));
    }

    /// A shard value that is not a finite number (a damaged or hand-edited shard: run() writes
    /// finite numbers only) is refused naming the file, line and column, never merged.
    void nonFiniteShardValueIsRejected_data() {
        QTest::addColumn<QString>("cell");
        QTest::newRow("nan") << "nan";
        QTest::newRow("NaN") << "NaN";
        QTest::newRow("inf") << "inf";
        QTest::newRow("-inf") << "-inf";
        QTest::newRow("Infinity") << "Infinity";
        QTest::newRow("overflows a double") << "1e999";
    }
    void nonFiniteShardValueIsRejected() {
        QFETCH(QString, cell);
        std::vector<sw::Axis> a(1);
        std::string err;
        QVERIFY(sw::parseAxis("mosaic.nodes=2,4,8,16", a[0], err));
        tandem::Diagnostics d;
        auto a0 = sw::run(smallScenario(), a, {0, 2}, 1, d);
        const auto a1 = sw::run(smallScenario(), a, {1, 2}, 1, d);
        QVERIFY2(d.ok(), d.str().c_str());
        const auto col =
            std::find(a0.header.begin(), a0.header.end(), "moe.cluster_optimal_sparsity") -
            a0.header.begin();
        QVERIFY(static_cast<size_t>(col) < a0.header.size());
        QVERIFY(a0.rows.size() == 2);
        a0.rows[1][col] = cell.toStdString();
        tandem::Diagnostics dm;
        QVERIFY(sw::merge({sw::toCsv(a0), sw::toCsv(a1)}, {"a0.csv", "a1.csv"}, dm).rows.empty());
        QCOMPARE(dm.items().size(), size_t(1));
        QCOMPARE(QString::fromStdString(dm.items()[0].path),
                 QStringLiteral("a0.csv: line 4, column \"moe.cluster_optimal_sparsity\""));
        QVERIFY2(dm.items()[0].message.find("must be a finite number (got \"" + cell.toStdString() +
                                            "\")") == 0,
                 dm.str().c_str());
    }

    void invalidPointIsReported() {
        std::vector<sw::Axis> axes(1);
        std::string err;
        QVERIFY(sw::parseAxis("mosaic.days=5,-1", axes[0], err));
        tandem::Diagnostics d;
        const auto t = sw::run(smallScenario(), axes, {0, 1}, 1, d);
        QVERIFY(t.rows.empty());
        QCOMPARE(d.items().size(), size_t(1));
        QVERIFY2(d.items()[0].path.rfind("point 1 (mosaic.days=-1) $.mosaic.days", 0) == 0,
                 d.str().c_str());
    }
    void sameKeyTwiceIsRejected() {
        std::vector<sw::Axis> axes(2);
        std::string err;
        QVERIFY(sw::parseAxis("mosaic.nodes=2,4", axes[0], err));
        QVERIFY(sw::parseAxis("mosaic.nodes=8", axes[1], err));
        tandem::Diagnostics d;
        QVERIFY(sw::run(smallScenario(), axes, {0, 1}, 1, d).rows.empty());
        QCOMPARE(QString::fromStdString(d.str()),
                 QStringLiteral("mosaic.nodes: is swept twice; sweep two different keys\n"));
    }
    void emptyShardHeaderMustMatch() {
        tandem::Diagnostics d;
        const std::string full = "point,mosaic.nodes,moe.x\n0,2,1\n";
        QVERIFY(!sw::merge({full, "point,mosaic.nodes\n"}, {}, d).rows.empty());
        QVERIFY(d.ok());
        QVERIFY(sw::merge({full, "point,mosaic.days\n"}, {"a", "b"}, d).rows.empty());
        QCOMPARE(QString::fromStdString(d.items()[0].path), QStringLiteral("b: line 1"));
    }

    void unknownPathIsReported() {
        std::vector<sw::Axis> axes(1);
        std::string err;
        QVERIFY(sw::parseAxis("mosaic.nodez=1,2", axes[0], err));
        tandem::Diagnostics d;
        QVERIFY(sw::run(smallScenario(), axes, {0, 1}, 1, d).rows.empty());
        QCOMPARE(QString::fromStdString(d.items()[0].path), QStringLiteral("mosaic.nodez"));
    }

    void mergeRejects_data() {
        QTest::addColumn<QStringList>("csvs");
        QTest::addColumn<QString>("path");
        const QString h = "point,x,y\n";
        QTest::newRow("missing point") << QStringList{h + "0,1,2\n", h + "2,1,2\n"} << "inputs";
        QTest::newRow("duplicate") << QStringList{h + "0,1,2\n", h + "0,1,2\n"} << "b: line 2";
        QTest::newRow("header differs")
            << QStringList{h + "0,1,2\n", "point,x,z\n1,1,2\n"} << "b: line 1";
        QTest::newRow("short row") << QStringList{h + "0,1\n"} << "a: line 2";
        QTest::newRow("not a table") << QStringList{"hello\n"} << "a: line 1";
        QTest::newRow("bad quote") << QStringList{h + "0,\"1,2\n"} << "a: line 3";
        // Cut at a field boundary: "0,1," parses as a row with an empty last cell.
        QTest::newRow("cut after a comma") << QStringList{h + "0,1,2\n1,1,"} << "a: line 3";
        QTest::newRow("cut after a whole row, no line end")
            << QStringList{h + "0,1,2\n1,1,2"} << "a: line 3";
        QTest::newRow("second shard cut") << QStringList{h + "0,1,2\n", h + "1,1,"} << "b: line 2";
        // Tagged shards: the row count must be the shard's share of the grid.
        const QString tag0 = "# tandem sweep shard 0/2 of 4 points, sweep 0123456789abcdef\n";
        const QString tag1 = "# tandem sweep shard 1/2 of 4 points, sweep 0123456789abcdef\n";
        QTest::newRow("tagged shard missing its last row")
            << QStringList{tag0 + h + "0,1,2\n", tag1 + h + "1,1,2\n3,1,2\n"} << "a: line 3";
    }
    void mergeRejects() {
        QFETCH(QStringList, csvs);
        QFETCH(QString, path);
        std::vector<std::string> texts;
        for (const auto& c : csvs) texts.push_back(c.toStdString());
        tandem::Diagnostics d;
        QVERIFY(sw::merge(texts, {"a", "b"}, d).rows.empty());
        QVERIFY(!d.ok());
        QCOMPARE(QString::fromStdString(d.items()[0].path), path);
    }
};

TANDEM_TEST_APPLESS_MAIN(TestSweep)
#include "tst_sweep.moc"
