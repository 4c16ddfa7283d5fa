// nccl-tests import: each real file's curve peaks at the file's maximum busbw, both column
// layouts, interpolation / extrapolation, and NCCL failures turned into messages.
#include <QtTest>
#include <cmath>
#include <cstdio>

#include "io/nccl_tests.h"
#include "io/text_file.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::io;

namespace {
std::string dataFile(const QString& name) {
    return std::string(TANDEM_TEST_DATA) + "/nccl/" + name.toStdString();
}

bool anyIssue(const Diagnostics& d, const std::string& path, const std::string& fragment) {
    for (const auto& i : d.items())
        if (i.path == path && i.message.find(fragment) != std::string::npos) return true;
    return false;
}

// A small newer-layout table (root column) used by the synthetic cases below.
const char* kHeader =
    "#                                                              out-of-place                   "
    "    in-place\n"
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time "
    "  algbw   busbw #wrong\n"
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us) "
    " (GB/s)  (GB/s)\n";
}  // namespace

class TstNcclTests : public QObject {
    Q_OBJECT
private slots:
    // Real logs: the peak equals the file's largest busbw (either half).
    void realFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("collective");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<double>("maxBusbwGBps");  // read off the file by eye
        QTest::addColumn<int>("sizes");
        // newer layout (root column, #wrong), srun "0: " prefix, no Rank lines
        QTest::newRow("A100 all_reduce 2x8")
            << "A100-all_reduce-2x8-awsome-distributed-training.txt"
            << "all_reduce" << 16 << 78.33 << 29;
        QTest::newRow("H100 all_reduce 2x8")
            << "H100-all_reduce-2x8-awsome-distributed-training.txt"
            << "all_reduce" << 16 << 487.26 << 32;
        // newer layout with Rank lines and "Collective test starting"
        QTest::newRow("H100 all_reduce 10x8") << "H100-all_reduce-10x8-nccl-tests-cluster.txt"
                                              << "all_reduce" << 80 << 364.07 << 10;
        QTest::newRow("H100 reduce_scatter 10x8")
            << "H100-reduce_scatter-10x8-nccl-tests-cluster.txt"
            << "reduce_scatter" << 80 << 323.4 << 10;
        QTest::newRow("H100 alltoall 10x8") << "H100-alltoall-10x8-nccl-tests-cluster.txt"
                                            << "alltoall" << 80 << 50.66 << 10;
        QTest::newRow("H100 alltoall 2x8") << "H100-alltoall-2x8-nccl-tests-cluster.txt"
                                           << "alltoall" << 16 << 23.64 << 10;
        // older layout (no root column, `error` column, blank redop for alltoall, zero-size rows)
        QTest::newRow("A100 alltoall 1x8 old") << "A100-alltoall-1x8-superbenchmark.txt"
                                               << "alltoall" << 8 << 226.16 << 29;
        QTest::newRow("A100 reduce_scatter 1x8 old") << "A100-reduce_scatter-1x8-superbenchmark.txt"
                                                     << "reduce_scatter" << 8 << 231.52 << 29;
        // GB200 NVL72 racks (a Rank line names the last rank), a header copied without its
        // '#', and an excerpt with "..." whose file name (8x8) disagrees with its busbw/algbw.
        QTest::newRow("GB200 all_reduce 18x4") << "GB200-all_reduce-18x4-coreweave.txt"
                                               << "all_reduce" << 72 << 846.82 << 5;
        QTest::newRow("GB200 all_reduce 36x4") << "GB200-all_reduce-36x4-coreweave.txt"
                                               << "all_reduce" << 144 << 820.36 << 6;
        QTest::newRow("H100 all_reduce 2x8 GCP") << "H100-all_reduce-2x8-gcp-a3mega-lessizzmore.txt"
                                                 << "all_reduce" << 16 << 338.82 << 31;
        QTest::newRow("H100 all_reduce 8x8 SHARP") << "H100-all_reduce-8x8-coreweave-sharp.txt"
                                                   << "all_reduce" << 96 << 386.56 << 5;
    }
    void realFiles() {
        QFETCH(QString, file);
        QFETCH(QString, collective);
        QFETCH(int, ranks);
        QFETCH(double, maxBusbwGBps);
        QFETCH(int, sizes);
        Diagnostics d(file.toStdString());
        const auto imp = loadNcclTestsFile(dataFile(file), d);
        QVERIFY2(imp, d.str().c_str());
        QCOMPARE(imp->curves.size(), std::size_t(1));
        const auto& c = imp->curves.front();
        QCOMPARE(QString::fromUtf8(name(c.collective)), collective);
        QCOMPARE(c.ranks, ranks);
        QCOMPARE(c.peakBusbw_Bps / 1e9, maxBusbwGBps);
        QCOMPARE(int(c.points.size()), sizes);
        QVERIFY(c.hasInPlace);
        double maxPoint = 0;
        for (std::size_t i = 0; i < c.points.size(); ++i) {
            maxPoint = std::max(maxPoint, c.points[i].busbw_Bps);
            if (i) QVERIFY(c.points[i].bytes > c.points[i - 1].bytes);
        }
        QCOMPARE(maxPoint, c.peakBusbw_Bps);
        // At a measured size the effective bandwidth is the measured one, not extrapolated.
        const auto at = effectiveBusBandwidth(c, c.peakAtBytes);
        QCOMPARE(at.busbw_Bps, c.peakBusbw_Bps);
        QVERIFY(!at.extrapolated);
    }

    void interpolationInLogSize() {
        Diagnostics d;
        const auto imp =
            loadNcclTestsFile(dataFile("H100-all_reduce-2x8-awsome-distributed-training.txt"), d);
        QVERIFY2(imp, d.str().c_str());
        const auto& c = imp->curves.front();
        // Rows 64 MiB (209.19 / 208.26) and 128 MiB (289.16 / 287.01): the curve keeps the better
        // half, and sqrt(64 Mi * 128 Mi) lies half-way in log(size).
        const double mid = std::sqrt(67108864.0 * 134217728.0);
        const auto bw = effectiveBusBandwidth(c, mid);
        QVERIFY(!bw.extrapolated);
        QVERIFY(std::abs(bw.busbw_Bps - 0.5 * (209.19e9 + 289.16e9)) < 1e3);
        // Above the largest size: held, flagged.
        const auto big = effectiveBusBandwidth(c, 64.0 * (1LL << 30));
        QVERIFY(big.extrapolated);
        QCOMPARE(big.busbw_Bps, c.points.back().busbw_Bps);
        // Below the smallest measured size (8 B): latency-bound, scales with size, flagged.
        const auto small = effectiveBusBandwidth(c, 4.0);
        QVERIFY(small.extrapolated);
        QCOMPARE(small.busbw_Bps, c.points.front().busbw_Bps * 0.5);
        // Time = bytes x 2(n-1)/n / busbw at 16 GiB: 17179869184 x 1.875 / 487.26e9.
        bool ext = true;
        const double t = collectiveTime_s(c, 17179869184.0, &ext);
        QVERIFY(!ext);
        QVERIFY(std::abs(t - 17179869184.0 * 1.875 / 487.26e9) < 1e-9);
    }

    void busBandwidthFactors() {
        QCOMPARE(busBandwidthFactor(Collective::AllReduce, 16), 2.0 * 15 / 16);
        QCOMPARE(busBandwidthFactor(Collective::AllGather, 8), 7.0 / 8);
        QCOMPARE(busBandwidthFactor(Collective::ReduceScatter, 8), 7.0 / 8);
        QCOMPARE(busBandwidthFactor(Collective::AllToAll, 80), 79.0 / 80);
        QCOMPARE(busBandwidthFactor(Collective::Broadcast, 8), 1.0);
        QCOMPARE(busBandwidthFactor(Collective::Reduce, 8), 1.0);
        QCOMPARE(busBandwidthFactor(Collective::SendRecv, 8), 1.0);
        QCOMPARE(busBandwidthFactor(Collective::Scatter, 8), 0.0);
        QCOMPARE(busBandwidthFactor(Collective::Gather, 8), 0.0);
        QCOMPARE(busBandwidthFactor(Collective::Hypercube, 8), 0.0);
        QCOMPARE(busBandwidthFactor(Collective::AllReduce, 0), 0.0);
    }

    void collectiveNamesRoundTrip() {
        // Every nccl-tests binary's collective once, each word read back to its collective.
        QCOMPARE(enumNames(collectiveNames()),
                 (std::vector<std::string>{"reduce_scatter", "all_reduce", "all_gather", "alltoall",
                                           "broadcast", "sendrecv", "hypercube", "gather",
                                           "scatter", "reduce"}));
        for (const auto& e : collectiveNames())
            QVERIFY(enumFromName(collectiveNames(), name(e.value)) == e.value);
        QVERIFY(!enumFromName(collectiveNames(), "allreduce"));
        QVERIFY(!enumFromName(collectiveNames(), "all_reduce_perf"));
        QVERIFY(!enumFromName(collectiveNames(), ""));
    }

    void collectiveNamedBy_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QString>("collective");
        QTest::addColumn<QString>("source");
        const QString row = QStringLiteral(
            "    33554432        524288     float    none      -1    500.0   67.11   62.91      0 "
            "   480.0   69.91   65.54      0\n# Avg bus bandwidth    : 64.22\n");
        // Each nccl-tests binary named in the log: the word before "_perf" at a token boundary.
        for (const auto& e : collectiveNames()) {
            const QString word = QString::fromUtf8(e.name);
            QTest::newRow(qPrintable("log " + word))
                << "# Collective test starting: " + word + "_perf\n" + QString::fromUtf8(kHeader) +
                       row
                << QString() << word << QStringLiteral("log");
        }
        // A file name's spellings, '-' removed and case ignored.
        const char* files[][2] = {{"h100-Reduce-Scatter-2x8.txt", "reduce_scatter"},
                                  {"run_allreduce.log", "all_reduce"},
                                  {"all-gather.txt", "all_gather"},
                                  {"all_to_all.txt", "alltoall"},
                                  {"bcast_broadcast.txt", "broadcast"},
                                  {"sendrecv_1x8.txt", "sendrecv"}};
        for (const auto& f : files)
            QTest::newRow(f[0]) << QString::fromUtf8(kHeader) + row << QString::fromUtf8(f[0])
                                << QString::fromUtf8(f[1]) << QStringLiteral("file name");
        // Neither: redop none is inferred as all-to-all.
        QTest::newRow("inferred") << QString::fromUtf8(kHeader) + row << QStringLiteral("run.log")
                                  << QStringLiteral("alltoall") << QStringLiteral("inferred");
    }
    void collectiveNamedBy() {
        QFETCH(QString, text);
        QFETCH(QString, fileName);
        QFETCH(QString, collective);
        QFETCH(QString, source);
        Diagnostics d;
        const auto imp = parseNcclTests(text.toStdString(), fileName.toStdString(), d);
        QVERIFY2(imp, d.str().c_str());
        QCOMPARE(imp->curves.size(), std::size_t(1));
        QCOMPARE(QString::fromUtf8(name(imp->curves[0].collective)), collective);
        QCOMPARE(QString::fromStdString(imp->curves[0].collectiveSource), source);
        QCOMPARE(QString::fromStdString(
                     ncclCurveToJson(imp->curves[0])["collective"].get<std::string>()),
                 collective);
    }

    void ncclErrorAtEnd() {
        const std::string text = std::string("# Collective test starting: all_reduce_perf\n") +
                                 kHeader +
                                 "     1048576        262144     float     sum      -1    123.2    "
                                 "8.51   15.95      0    121.3    8.64   16.21      0\n"
                                 "node01: Test NCCL failure common.cu:1005 'unhandled system error "
                                 "(run with NCCL_DEBUG=INFO for details)'\n"
                                 " .. node01 pid 1234: Test failure common.cu:891\n";
        Diagnostics d("err.txt");
        QVERIFY(!parseNcclTests(text, "err.txt", d));
        QVERIFY2(anyIssue(d, "line 6", "NCCL error reported"), d.str().c_str());
        QVERIFY(anyIssue(d, "line 6", "unhandled system error"));
        QVERIFY(anyIssue(d, "line 7", "Test failure"));
    }

    void outOfBoundsFailure() {
        const std::string text = std::string(kHeader) +
                                 "     1048576        262144     float     sum      -1    123.2    "
                                 "8.51   15.95      3    121.3    8.64   16.21      3\n"
                                 "# Out of bounds values : 6 FAILED\n";
        Diagnostics d;
        QVERIFY(!parseNcclTests(text, "", d));
        QVERIFY2(anyIssue(d, "line 5", "NCCL error reported"), d.str().c_str());
    }

    // A failed or corrupted run is refused at the line that shows it: #wrong > 0 (either
    // half), a run that printed NCCL warnings and died, rows that cannot be read inside a table
    // (never skipped), values that are not finite or beyond any interconnect.
    void failedRunsRefused_data() {
        QTest::addColumn<QString>("body");  // lines after kHeader (line 4 on)
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("fragment");
        const QString ok =
            "     1048576        262144     float     sum      -1    123.2    8.51   15.95      0  "
            "  121.3    8.64   16.21      0\n";
        const QString summary = "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 16.08\n";
        QTest::newRow("#wrong out-of-place")
            << ok +
                   "     2097152        524288     float     sum      -1    147.2   14.24   26.71  "
                   "    7    146.9   14.27   26.76      0\n" +
                   summary
            << "line 5"
            << "7 wrong value(s) in the out-of-place result (#wrong column) at size 2097152";
        QTest::newRow("#wrong in-place")
            << ok +
                   "     2097152        524288     float     sum      -1    147.2   14.24   26.71  "
                   "    0    146.9   14.27   26.76   1024\n" +
                   summary
            << "line 5"
            << "1024 wrong value(s) in the in-place result";
        QTest::newRow("#wrong not a count")
            << "     1048576        262144     float     sum      -1    123.2    8.51   15.95      "
               "x    121.3    8.64   16.21      0\n" +
                   summary
            << "line 4"
            << "#wrong of the out-of-place half must be a count >= 0 or N/A (got \"x\")";
        QTest::newRow("only NCCL warnings, then an abort")
            << "node01:1234:1240 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<45678> "
               "with error 12, opcode 0, len 0, vendor err 129\n"
               "node01:1234:1240 [0] NCCL WARN Aborting\n"
               "[node01:01234] *** Process received signal ***\n"
               "Aborted (core dumped)\n"
            << "line 6"
            << "the run aborted: \"[node01:01234] *** Process received signal ***\"";
        QTest::newRow("only NCCL warnings")
            << "node01:1234:1240 [0] NCCL WARN NET/IB : Got completion from peer with error 12\n"
            << "line 4"
            << "and no result table: the run stopped before measuring";
        QTest::newRow("rows, then warnings and no summary")
            << ok + "node01:1234:1240 [0] NCCL WARN NET/IB : Got completion from peer with error "
                    "12\n"
            << "line 5"
            << "the table ends at line 4 without its \"# Avg bus bandwidth\" summary: the run "
               "stopped early";
        QTest::newRow("rows, then killed by the scheduler")
            << ok + "slurmstepd: error: *** STEP 1234.0 ON node01 CANCELLED AT 2026-01-01T00:00:00 "
                    "DUE TO TIME LIMIT ***\n"
            << "line 5"
            << "the run aborted";
        QTest::newRow("busbw inf")
            << "     1048576        262144     float     sum      -1    123.2    8.51    inf      "
               "0    121.3    8.64   16.21      0\n" +
                   summary
            << "line 4"
            << "must be finite numbers >= 0 (got \"123.2\", \"8.51\", \"inf\")";
        QTest::newRow("busbw nan in-place")
            << "     1048576        262144     float     sum      -1    123.2    8.51   15.95      "
               "0    121.3    8.64    nan      0\n" +
                   summary
            << "line 4"
            << "in-place half must be finite numbers";
        QTest::newRow("busbw overflows a double")
            << "     1048576        262144     float     sum      -1    123.2    8.51  1e999      "
               "0    121.3    8.64   16.21      0\n" +
                   summary
            << "line 4"
            << "must be finite numbers";
        QTest::newRow("busbw beyond any link")
            << "     1048576        262144     float     sum      -1    123.2    8.51  3e+07      "
               "0    121.3    8.64   16.21      0\n" +
                   summary
            << "line 4"
            << "above 100000 GB/s, beyond any interconnect";
        QTest::newRow("short row inside the table")
            << ok + "     2097152        524288     float\n" + summary << "line 5"
            << "malformed nccl-tests row: only 3 columns";
        // A message size no GPU could hold (the row was skipped before, the curve kept the rest).
        QTest::newRow("size beyond 1 TiB")
            << ok +
                   "  2199023255553        524288     float     sum      -1    147.2   14.24   "
                   "26.71      0    146.9   14.27   26.76      0\n" +
                   summary
            << "line 5"
            << "size 2199023255553 B exceeds 2^40 B (1 TiB)";
        QTest::newRow("size beyond a 64-bit integer")
            << ok +
                   "  99999999999999999999999        524288     float     sum      -1    147.2   "
                   "14.24   26.71      0    146.9   14.27   26.76      0\n" +
                   summary
            << "line 5"
            << "size 99999999999999999999999 B exceeds 2^40 B";
        QTest::newRow("count not a number inside the table")
            << ok +
                   "     2097152        52e288     float     sum      -1    147.2   14.24   26.71  "
                   "    0    146.9   14.27   26.76      0\n" +
                   summary
            << "line 5"
            << "count must be an integer (got \"52e288\")";
    }
    void failedRunsRefused() {
        QFETCH(QString, body);
        QFETCH(QString, path);
        QFETCH(QString, fragment);
        Diagnostics d;
        QVERIFY(!parseNcclTests(kHeader + body.toStdString(), "all_reduce.txt", d));
        QVERIFY2(anyIssue(d, path.toStdString(), fragment.toStdString()), d.str().c_str());
    }

    // The older layout (no root column, an `error` column holding the largest deviation): a
    // row whose deviation exceeds nccl-tests' tolerance for its type failed the data check and
    // is refused like #wrong > 0, with or without the closing summary and preamble.
    void olderLayoutErrorRefused_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("fragment");  // "" = imports
        const QString header =
            "#       size         count    type   redop     time   algbw   busbw  error     time  "
            " algbw   busbw  error\n";
        const QString ok =
            "     1048576        262144   float     sum    123.2    8.51   15.95  0e+00    121.3  "
            "  8.64   16.21  0e+00\n";
        const QString summary = "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 16.08\n";
        const QString bad =
            "     2097152        524288   float     sum    147.2   14.24   26.71  2e-01    146.9  "
            " 14.27   26.76  0e+00\n";
        QTest::newRow("out-of-place, with summary")
            << header + ok + bad + "# Avg bus bandwidth    : 16.08\n"
            << "line 3"
            << "error 2e-01 in the out-of-place result (error column, the largest deviation) at "
               "size 2097152 exceeds 1e-05 allowed for float";
        QTest::newRow("out-of-place, no summary (an excerpt)")
            << header + ok + bad << "line 3"
            << "error 2e-01 in the out-of-place result";
        QTest::newRow("in-place, whole run")
            << "# nThread 1 nGpus 8 minBytes 8 maxBytes 8589934592\n#   Rank  0 Pid 1 on n0 "
               "device  0 [0x00] A100-SXM4-40GB\n" +
                   header + ok +
                   "     2097152        524288   float     sum    147.2   14.24   26.71  0e+00    "
                   "146.9   14.27   26.76  3e+00\n" +
                   "# Avg bus bandwidth    : 16.08\n"
            << "line 5"
            << "error 3e+00 in the in-place result";
        // 8 ranks: float's 1e-5 x 7, stated without binary noise (not 7.000000000000001e-05).
        QString ranks = "# nThread 1 nGpus 8 minBytes 8 maxBytes 8589934592\n";
        for (int k = 0; k < 8; ++k)
            ranks += QStringLiteral("#   Rank  %1 Pid 1 on n0 device  %1 [0x00] A100-SXM4-40GB\n")
                         .arg(k);
        QTest::newRow("float on 8 ranks")
            << ranks + header + ok +
                   "     2097152        524288   float     sum    147.2   14.24   26.71  1e-03    "
                   "146.9   14.27   26.76  0e+00\n" +
                   summary
            << "line 12"
            << "error 1e-03 in the out-of-place result (error column, the largest deviation) at "
               "size 2097152 exceeds 7e-05 allowed for float: the collective";
        QTest::newRow("integer type, any deviation")
            << header +
                   "     1048576        262144   int32     sum    123.2    8.51   15.95  1e+00    "
                   "121.3    8.64   16.21  0e+00\n"
            << "line 2"
            << "error 1e+00 in the out-of-place result (error column, the largest deviation) at "
               "size 1048576 exceeds 0 allowed for int32";
        QTest::newRow("negative error")
            << header + QString(ok).replace("0e+00    121", "-1e-01    121") << "line 2"
            << "error of the out-of-place half must be a number >= 0";
        // Rounding within nccl-tests' own tolerance (float sums: 1e-5) is a healthy run.
        QTest::newRow("float rounding within tolerance")
            << header + QString(ok).replace("0e+00    121", "2e-07    121") + summary << ""
            << "";
        QTest::newRow("half within tolerance")
            << header +
                   "     1048576        524288    half     sum    123.2    8.51   15.95  4e-03    "
                   "121.3    8.64   16.21  4e-03\n"
            << ""
            << "";
    }
    void olderLayoutErrorRefused() {
        QFETCH(QString, text);
        QFETCH(QString, path);
        QFETCH(QString, fragment);
        Diagnostics d;
        const auto imp = parseNcclTests(text.toStdString(), "all_reduce.txt", d);
        if (fragment.isEmpty()) {
            QVERIFY2(imp, d.str().c_str());
            QCOMPARE(imp->curves.size(), std::size_t(1));
            QCOMPARE(imp->curves.front().points.size(), std::size_t(1));
            return;
        }
        QVERIFY(!imp);
        QVERIFY2(anyIssue(d, path.toStdString(), fragment.toStdString()), d.str().c_str());
    }

    // A table that stops without nccl-tests' "# Avg bus bandwidth" line (a README excerpt, a
    // job cut short): every complete row is a measurement, so they are used and the curve says
    // where the log ends; a row the cut went through is named and left out.
    void truncatedLogKeepsCompleteRows_data() {
        QTest::addColumn<QString>("tail");  // after two complete rows (lines 4 and 5)
        QTest::addColumn<int>("points");
        QTest::addColumn<QString>("note");  // empty: no truncation note
        QTest::newRow("ends after a row")
            << "" << 2
            << "the table ends at line 5 without nccl-tests' closing \"# Avg bus bandwidth\" line: "
               "an excerpt without run header or summary; its 2 rows up to 2 MiB are used";
        QTest::newRow("cut inside a row")
            << "     4194304       1048576     float     sum      -1    201.5   20.8" << 2
            << "line 6: the log ends inside this row";
        QTest::newRow("complete, with its summary")
            << "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 21.3\n"
            << 2 << "";
    }
    void truncatedLogKeepsCompleteRows() {
        QFETCH(QString, tail);
        QFETCH(int, points);
        QFETCH(QString, note);
        const std::string text = std::string(kHeader) +
                                 "     1048576        262144     float     sum      -1    123.2    "
                                 "8.51   15.95      0    121.3    8.64   16.21      0\n"
                                 "     2097152        524288     float     sum      -1    147.2   "
                                 "14.24   26.71      0    146.9   14.27   26.76      0\n" +
                                 tail.toStdString();
        Diagnostics d;
        const auto imp = parseNcclTests(text, "all_reduce-1x2.txt", d);
        QVERIFY2(imp, d.str().c_str());
        const NcclCurve& c = imp->curves.front();
        QCOMPARE(int(c.points.size()), points);
        QCOMPARE(c.peakBusbw_Bps, 26.76e9);
        std::string notes;
        for (const auto& n : c.notes) notes += n + "\n";
        if (note.isEmpty())
            QVERIFY2(notes.find("Avg bus bandwidth") == std::string::npos, notes.c_str());
        else
            QVERIFY2(notes.find(note.toStdString()) != std::string::npos, notes.c_str());
    }

    // A log that carries nccl-tests' run preamble is a whole run's output: without its closing
    // "# Avg bus bandwidth" line it was truncated, and it is refused at the last line read (a
    // bare table with no preamble is an excerpt, above). A row cut mid-line is refused too.
    void truncatedWholeLogRefused_data() {
        QTest::addColumn<QString>("preamble");
        QTest::addColumn<QString>("tail");  // after two complete rows
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("fragment");
        const QString threads =
            "# nThread 1 nGpus 1 minBytes 1048576 maxBytes 8589934592 step: 2(factor) warmup "
            "iters: 5 iters: 20\n";
        const QString devices =
            "# Using devices\n#  Rank  0 Group  0 Pid 1 on node0 device  0 [0x1b] NVIDIA H100 80GB "
            "HBM3\n";
        const QString starting = "# Collective test starting: all_reduce_perf\n";
        QTest::newRow("nThread line, ends after a row")
            << threads << ""
            << "line 6"
            << "the log ends here (last line read: \"2097152        524288     float     sum      "
               "-1    147.2   14.24   26.71      0    146.9   14.27   26.76      0\") without "
               "nccl-tests' closing \"# Avg bus bandwidth\" line, although it carries the run's "
               "header (line 1): the output was truncated";
        QTest::newRow("Rank lines, ends after a row") << devices << ""
                                                      << "line 7"
                                                      << "the output was truncated";
        QTest::newRow("test starting, ends after the out-of-bounds line")
            << starting << "# Out of bounds values : 0 OK\n"
            << "line 7"
            << "last line read: \"Out of bounds values : 0 OK\")";
        QTest::newRow("nThread line, cut inside a row")
            << threads << "     4194304       1048576     float     sum      -1    201.5   20.8"
            << "line 7"
            << "the log ends inside this row (only 7 columns of a 2-half row)";
        QTest::newRow("cut after the out-of-place half")
            << devices
            << "     4194304       1048576     float     sum      -1    201.5   20.82   39.03      "
               "0"
            << "line 8"
            << "the log ends inside this row (only 9 columns of a 2-half row)";
    }
    void truncatedWholeLogRefused() {
        QFETCH(QString, preamble);
        QFETCH(QString, tail);
        QFETCH(QString, path);
        QFETCH(QString, fragment);
        const std::string text = preamble.toStdString() + kHeader +
                                 "     1048576        262144     float     sum      -1    123.2    "
                                 "8.51   15.95      0    121.3    8.64   16.21      0\n"
                                 "     2097152        524288     float     sum      -1    147.2   "
                                 "14.24   26.71      0    146.9   14.27   26.76      0\n" +
                                 tail.toStdString();
        Diagnostics d;
        QVERIFY(!parseNcclTests(text, "all_reduce-1x2.txt", d));
        QVERIFY2(anyIssue(d, path.toStdString(), fragment.toStdString()), d.str().c_str());
    }

    // mpirun --tag-output prefixes every line, the table's header and summary included.
    void tagOutputPrefixes() {
        std::string text;
        for (const std::string& l :
             splitLines(std::string(kHeader) +
                        "     1048576        262144     float     sum      -1    123.2    8.51   "
                        "15.95      0    121.3    8.64   16.21      0\n"
                        "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 16.08\n"))
            text += "[1,0]<stdout>:" + l + "\n";
        text +=
            "[1,3]<stderr>:node01:1234:1240 [3] NCCL INFO comm 0x55d5 rank 3 nranks 4 - Destroy "
            "COMPLETE\n";
        Diagnostics d;
        const auto imp = parseNcclTests(text, "all_reduce-1x4.txt", d);
        QVERIFY2(imp, d.str().c_str());
        QCOMPARE(imp->curves.front().points.size(), std::size_t(1));
        QCOMPARE(imp->curves.front().peakBusbw_Bps, 16.21e9);
        for (const auto& n : imp->curves.front().notes)
            QVERIFY2(n.find("Avg bus") == std::string::npos, n.c_str());
    }

    void noDataRows() {
        Diagnostics d;
        QVERIFY(!parseNcclTests(std::string("# nThread 1 nGpus 8\n") + kHeader, "x.txt", d));
        QVERIFY(anyIssue(d, "file", "no nccl-tests data rows"));
        Diagnostics d2;
        QVERIFY(!parseNcclTests("", "x.txt", d2));
        QVERIFY(anyIssue(d2, "file", "no nccl-tests data rows"));
    }

    void malformedRowNamesLine() {
        const std::string text =
            std::string(kHeader) +
            "     1048576        262144     float     sum      -1    123.2    8.51   abc      0    "
            "121.3    8.64   16.21      0\n"
            "     2097152        524288     float     sum      -1    147.2   14.24\n";
        Diagnostics d;
        QVERIFY(!parseNcclTests(text, "all_reduce.txt", d));
        QVERIFY2(anyIssue(d, "line 4", "time, algbw and busbw of the out-of-place half"),
                 d.str().c_str());
        QVERIFY(anyIssue(d, "line 5", "malformed nccl-tests row"));
    }

    // GCP-style copy where the header lost its '#', plus an mpirun tag prefix.
    void headerWithoutHashAndMpiPrefix() {
        const std::string text =
            "nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor)\n"
            "Using devices\n"
            "  Rank  0 Group  0 Pid   6899 on node-A device  0 [0000:04:00] NVIDIA H100 80GB HBM3\n"
            "#  Rank  1 Group  0 Pid   6900 on node-A device  1 [0000:05:00] NVIDIA H100 80GB "
            "HBM3\n"
            "       size         count      type   redop    root     time   algbw   busbw #wrong   "
            "  time   algbw   busbw #wrong\n"
            "[1,0]<stdout>:   1048576        262144     float     sum      -1    100.0   10.49   "
            "10.49      0    100.0   10.49   10.50      0\n"
            "[1,0]<stdout>:   2097152        524288     float     sum      -1    150.0   13.98   "
            "13.98      0    150.0   13.98   13.90      0\n"
            "[1,0]<stdout>:# Avg bus bandwidth    : 12.22\n";
        Diagnostics d;
        const auto imp = parseNcclTests(text, "run.log", d);
        QVERIFY2(imp, d.str().c_str());
        const auto& c = imp->curves.front();
        QCOMPARE(c.ranks, 2);
        QCOMPARE(c.ranksSource, std::string("rank lines"));
        QVERIFY(c.collective == Collective::AllReduce);  // redop sum, busbw/algbw = 1 = 2(n-1)/n
        QCOMPARE(c.collectiveSource, std::string("inferred"));
        QCOMPARE(c.peakBusbw_Bps, 13.98e9);
        QCOMPARE(c.points.size(), std::size_t(2));
    }

    void severalCollectivesInOneLog() {
        const std::string text = std::string("# Collective test starting: all_gather_perf\n") +
                                 kHeader +
                                 "    33554432        524288     float    none      -1    500.0   "
                                 "67.11   62.91      0    480.0   69.91   65.54      0\n"
                                 "# Avg bus bandwidth    : 64.22\n"
                                 "# Collective test concluded: all_gather_perf\n"
                                 "# Collective test starting: reduce_scatter_perf\n" +
                                 kHeader +
                                 "    33554432        524288     float     sum      -1    600.0   "
                                 "55.92   52.43      0    610.0   55.01   51.57      0\n"
                                 "# Avg bus bandwidth    : 52.00\n";
        Diagnostics d;
        const auto imp = parseNcclTests(text, "", d);
        QVERIFY2(imp, d.str().c_str());
        QCOMPARE(imp->curves.size(), std::size_t(2));
        const auto* ag = findCurve(*imp, Collective::AllGather);
        const auto* rs = findCurve(*imp, Collective::ReduceScatter, 16);
        QVERIFY(ag && rs);
        QCOMPARE(ag->ranks, 16);  // 33554432 / (524288 x 4 B)
        QCOMPARE(ag->ranksSource, std::string("size/count"));
        QCOMPARE(ag->peakBusbw_Bps, 65.54e9);
        QCOMPARE(rs->peakBusbw_Bps, 52.43e9);
        QVERIFY(findCurve(*imp, Collective::AllToAll) == nullptr);
    }

    // Ranks from the data: "H100-all_reduce-8x8-coreweave-sharp.txt" was read as 64
    // ranks from its name while busbw/algbw = 1.979 on every row means 96. The table here is
    // synthetic: all-reduce rows with busbw = algbw x 2(n-1)/n printed to two decimals as
    // nccl-tests does, for `dataRanks` GPUs.
    void fileNameRanksCheckedAgainstData_data() {
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<int>("dataRanks");
        QTest::addColumn<bool>("rankLines");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("note");
        QTest::newRow("8x8 name, 96 in the data")
            << "H100-all_reduce-8x8-sharp.txt" << 96 << false << 96 << "busbw/algbw"
            << "file name says 64 ranks; busbw/algbw 1.9792 implies 96; using 96 (the data)";
        QTest::newRow("8x8 name, 64 in the data")
            << "H100-all_reduce-8x8-sharp.txt" << 64 << false << 64 << "file name"
            << "rank count 64 taken from the file name (consistent with busbw/algbw)";
        QTest::newRow("4x8 name, 8 in the data")
            << "all_reduce-4x8.txt" << 8 << false << 8 << "busbw/algbw"
            << "file name says 32 ranks; busbw/algbw 1.75 implies 8; using 8 (the data)";
        QTest::newRow("Rank lines win over both")
            << "all_reduce-8x8.txt" << 16 << true << 16 << "rank lines"
            << "";
    }
    void fileNameRanksCheckedAgainstData() {
        QFETCH(QString, fileName);
        QFETCH(int, dataRanks);
        QFETCH(bool, rankLines);
        QFETCH(int, ranks);
        QFETCH(QString, source);
        QFETCH(QString, note);
        std::string text;
        if (rankLines)
            for (int r = 0; r < dataRanks; ++r)
                text += "#  Rank " + std::to_string(r) +
                        " Group  0 Pid 1 on node0 device  0 [0x1b] NVIDIA H100\n";
        text += kHeader;
        const double factor = 2.0 * (dataRanks - 1) / dataRanks;
        double bytes = 536870912;
        for (double algbw : {179.88, 184.87, 192.37, 193.63, 195.31}) {
            char row[256];
            std::snprintf(row, sizeof row,
                          "%12.0f %13.0f     float     sum      -1   %6.1f  %6.2f  %6.2f      0\n",
                          bytes, bytes / 4, bytes / algbw / 1e3, algbw, algbw * factor);
            text += row;
            bytes *= 2;
        }
        if (rankLines)
            text += "# Avg bus bandwidth    : 350.2\n";  // a whole run's log closes with it
        Diagnostics d;
        const auto imp = parseNcclTests(text, fileName.toStdString(), d);
        QVERIFY2(imp, d.str().c_str());
        const NcclCurve& c = imp->curves.front();
        QCOMPARE(c.ranks, ranks);
        QCOMPARE(QString::fromStdString(c.ranksSource), source);
        std::string notes;
        for (const auto& n : c.notes) notes += n + "\n";
        if (note.isEmpty())
            QVERIFY2(notes.find("file name") == std::string::npos, notes.c_str());
        else
            QVERIFY2(notes.find(note.toStdString()) != std::string::npos, notes.c_str());
    }

    void jsonHasPeakAndPoints() {
        Diagnostics d;
        const auto imp =
            loadNcclTestsFile(dataFile("H100-alltoall-10x8-nccl-tests-cluster.txt"), d);
        QVERIFY2(imp, d.str().c_str());
        const auto j = ncclCurveToJson(imp->curves.front());
        QCOMPARE(j["collective"].get<std::string>(), std::string("alltoall"));
        QCOMPARE(j["ranks"].get<int>(), 80);
        QCOMPARE(j["peak_busbw_GBps"].get<double>(), 50.66);
        QCOMPARE(j["points"].size(), std::size_t(10));
    }
};

TANDEM_TEST_APPLESS_MAIN(TstNcclTests)
#include "tst_nccl_tests.moc"
