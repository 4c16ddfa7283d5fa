// Background load traces have one reader (io/load_trace.h) for inspect, the GUI import,
// validate and the engine: a trace in any accepted layout or unit replays exactly like the same
// load written as time_s,bytes_per_s; validate refuses what run would refuse, with the same file,
// line and exit code; and the engine's own limits (length, mean load against the network) are
// checked before any simulation.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "cli_process.h"
#include "inspect/inspect.h"
#include "io/load_trace.h"
#include "mlforml/background_trace.h"
#include "mlforml/presets.h"
#include "mlforml/simulate.h"
#include "scenario/scenario.h"
#include "test_main.h"

using namespace tandem;

namespace {

const char* kBytesPerS = "time_s,bytes_per_s\n0,50e9\n10,100e9\n20,0\n";

/// A short trace run: two offsets, three measured iterations, Static only.
mlforml::Params traceParams(const std::string& file) {
    mlforml::Params p = mlforml::scenario1Params();
    p.scenario = tandem::mlforml::ScenarioKind::Trace;
    p.traceFile = file;
    p.startOffsets = 2;
    p.replayIterations = 3;
    p.policies = {mlforml::Policy::Static};
    p.horizon_s = 86400;
    return p;
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.flush();
}

/// tandem-cli's exit code (-2 for a crash or a hang) and everything it printed.
struct CliResult {
    int exitCode = -1;
    QString all;
};

CliResult runCli(const QStringList& args) {
    const reliability::CliRun r = reliability::runCli(args);
    return {r.finished ? r.exitCode : -2, r.out + r.err};
}

}  // namespace

class TstTraceReplay : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void engineReadsWhatInspectReads_data() {
        QTest::addColumn<QByteArray>("text");
        // Each is the load of kBytesPerS: 50 GB/s for 10 s, 100 GB/s for 10 s, idle for 10 s.
        QTest::newRow("GBps") << QByteArray("time_s,GBps\n0,50\n10,100\n20,0\n");
        QTest::newRow("Gbps (bits)") << QByteArray("time_s,Gbps\n0,400\n10,800\n20,0\n");
        QTest::newRow("MBps") << QByteArray("time_s,MBps\n0,50000\n10,100000\n20,0\n");
        QTest::newRow("t_s, MBps") << QByteArray("t_s,MBps\n0,50000\n10,100000\n20,0\n");
        QTest::newRow("timestamp_s, Bps")
            << QByteArray("timestamp_s,Bps\n0,50e9\n10,100e9\n20,0\n");
        QTest::newRow("time_ms") << QByteArray(
            "time_ms,bytes_per_s\n0,50e9\n10000,100e9\n20000,0\n");
        QTest::newRow("semicolons") << QByteArray("time_s;bytes_per_s\n0;50e9\n10;100e9\n20;0\n");
        QTest::newRow("tabs") << QByteArray("time_s\tbytes_per_s\n0\t50e9\n10\t100e9\n20\t0\n");
        QTest::newRow("extra column")
            << QByteArray("host,time_s,bytes_per_s\na,0,50e9\nb,10,100e9\nc,20,0\n");
        QTest::newRow("bytes per window")
            << QByteArray("# window_s: 10\nbytes\n500e9\n1000e9\n0\n");
        QTest::newRow("no header") << QByteArray("0,50e9\n10,100e9\n20,0\n");
        QTest::newRow("comments and CRLF")
            << QByteArray("# measured\r\ntime_s,GBps\r\n0,50\r\n10,100\r\n20,0\r\n");
    }
    void engineReadsWhatInspectReads() {
        QFETCH(QByteArray, text);
        QVERIFY(m_dir.isValid());
        const QString ref = m_dir.filePath(QStringLiteral("reference.csv"));
        const QString other = m_dir.filePath(QStringLiteral("other.csv"));
        QVERIFY(writeFile(ref, kBytesPerS));
        QVERIFY(writeFile(other, text));
        // inspect's view of the file: detected as a trace, the same samples as the reference.
        Diagnostics inspected;
        const auto j = inspect::inspectFile(other.toStdString(), inspected);
        QVERIFY2(inspected.ok(), inspected.str().c_str());
        QCOMPARE(j.value("kind", std::string()), std::string("load_trace"));
        QCOMPARE(j.value("mean_GBps", 0.0), 50.0);
        Diagnostics d;
        const auto t = io::loadLoadTraceFile(other.toStdString(), d);
        QVERIFY2(t, d.str().c_str());
        QCOMPARE(t->bytesPerSecond, (std::vector<double>{50e9, 100e9, 0}));
        QCOMPARE(io::loadTraceEnd_s(*t), 30.0);
        // The engine's view: the same replay, to the bit.
        const mlforml::Result a = mlforml::simulate(traceParams(ref.toStdString()));
        const mlforml::Result b = mlforml::simulate(traceParams(other.toStdString()));
        QCOMPARE(b.points.size(), size_t(1));
        QCOMPARE(b.points[0].meanSyncBeyondOverlap_s, a.points[0].meanSyncBeyondOverlap_s);
        QCOMPARE(b.points[0].bgP95GBPer50ms, a.points[0].bgP95GBPer50ms);
        QCOMPARE(b.points[0].loadBytesPerS, a.points[0].loadBytesPerS);
        QCOMPARE(b.points[0].policies[0].firstCrossing_s, a.points[0].policies[0].firstCrossing_s);
        // Hand check of the 95th percentile per 50 ms window: 100 GB/s x 50 ms = 5 GB.
        QCOMPARE(a.points[0].bgP95GBPer50ms, 5.0);
    }

    void validateFailsLikeRun_data() {
        QTest::addColumn<QByteArray>("trace");
        QTest::addColumn<QString>("expect");  // after "SCENARIO: $.ml_for_ml.trace_file: "
        QTest::newRow("empty") << QByteArray() << "\"load.csv\": no rows in the load trace";
        QTest::newRow("comments only") << QByteArray("# nothing yet\n") << "\"load.csv\": no rows";
        static const char kGarbage[] = "\x7f\x45\x4c\x46\x02\x01\x01\x00\xff\xfe garbage";
        QTest::newRow("garbage") << QByteArray(kGarbage, sizeof kGarbage - 1)
                                 << "\"load.csv\" line 1: ";
        QTest::newRow("negative rate")
            << QByteArray("time_s,bytes_per_s\n0,1e9\n1,-5\n")
            << "\"load.csv\" line 3, column \"bytes_per_s\": must be >= 0";
        QTest::newRow("text in a cell")
            << QByteArray("time_s,GBps\n0,1\n1,lots\n")
            << "\"load.csv\" line 3, column \"GBps\": must be a finite number";
        QTest::newRow("one rate row")
            << QByteArray("time_s,GBps\n0,1\n") << "\"load.csv\": a rate trace needs two rows";
        QTest::newRow("time going back") << QByteArray("time_s,GBps\n0,1\n5,1\n2,1\n")
                                         << "\"load.csv\" line 4: time must increase";
        QTest::newRow("longer than replayed")
            << QByteArray("time_s,GBps\n0,1\n7200,1\n")
            << "\"load.csv\": the trace ends at 14400 s; at most 3600 s";
        QTest::newRow("1e308 bytes/s")
            << QByteArray("time_s,bytes_per_s\n0,1e308\n10,1e308\n")
            << "\"load.csv\": mean load 1e+299 GB/s over [0, 20 s) is not below the 490 GB/s";
        QTest::newRow("above the fabric")
            << QByteArray("time_s,GBps\n0,500\n10,500\n") << "\"load.csv\": mean load 500 GB/s";
    }
    void validateFailsLikeRun() {
        QFETCH(QByteArray, trace);
        QFETCH(QString, expect);
        QVERIFY(m_dir.isValid());
        const QString folder =
            m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()).replace(' ', '_'));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(writeFile(folder + "/load.csv", trace));
        const QString scenario = folder + "/s.json";
        QVERIFY(writeFile(scenario,
                          R"({"ml_for_ml": {"scenario": "trace", "trace_file": "load.csv"}})"));
        const QString want = scenario + ": $.ml_for_ml.trace_file: " + expect;
        const CliResult v = runCli({QStringLiteral("validate"), scenario});
        QCOMPARE(v.exitCode, 2);
        QVERIFY2(v.all.contains(want), qPrintable("validate:\n" + v.all + "\nwanted: " + want));
        const CliResult r =
            runCli({QStringLiteral("run"), scenario, QStringLiteral("--out"), folder + "/out"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.all.contains(want), qPrintable("run:\n" + r.all));
        QVERIFY(!QFileInfo::exists(folder + "/out"));
        // The scenario reader says the same to the GUI's Open.
        Diagnostics d;
        QVERIFY(!loadScenarioFile(scenario.toStdString(), d));
        QVERIFY2(QString::fromStdString(d.str()).contains(
                     QStringLiteral("$.ml_for_ml.trace_file: ") + expect),
                 d.str().c_str());
    }

    void traceOnlyWithTraceScenario_data() {
        QTest::addColumn<QString>("scenario");   // "" = the key is left out (default "sweep")
        QTest::addColumn<QString>("traceFile");  // relative to the scenario's folder
        QTest::addColumn<QByteArray>("trace");   // written to load.csv
        const QByteArray good(kBytesPerS);
        QTest::newRow("sweep, valid trace") << "sweep"
                                            << "load.csv" << good;
        QTest::newRow("poisson, valid trace") << "poisson"
                                              << "load.csv" << good;
        QTest::newRow("default scenario, valid trace") << ""
                                                       << "load.csv" << good;
        QTest::newRow("sweep, missing file") << "sweep"
                                             << "missing.csv" << good;
        QTest::newRow("sweep, empty trace") << "sweep"
                                            << "load.csv" << QByteArray();
        QTest::newRow("sweep, negative rate")
            << "sweep"
            << "load.csv" << QByteArray("time_s,bytes_per_s\n0,1e9\n1,-5\n");
        QTest::newRow("sweep, a folder") << "sweep"
                                         << "." << good;
        QTest::newRow("poisson, /dev/zero") << "poisson"
                                            << "/dev/zero" << good;
    }
    // Regression: a trace_file under another scenario was ignored; validate and run exited 0
    // with the numbers of no trace, whatever the file held.
    void traceOnlyWithTraceScenario() {
        QFETCH(QString, scenario);
        QFETCH(QString, traceFile);
        QFETCH(QByteArray, trace);
        QVERIFY(m_dir.isValid());
        const QString folder = m_dir.filePath(
            "only-" + QString::fromLatin1(QTest::currentDataTag()).replace(' ', '_').remove(','));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(writeFile(folder + "/load.csv", trace));
        const QString file = folder + "/s.json";
        const QString key = scenario.isEmpty() ? QString() : "\"scenario\": \"" + scenario + "\", ";
        QVERIFY(writeFile(file, ("{\"ml_for_ml\": {" + key + "\"trace_file\": \"" + traceFile +
                                 "\", \"start_offsets\": 2, \"replay_iterations\": 3, "
                                 "\"policies\": [\"Static\"], \"horizon_s\": 86400}}")
                                    .toUtf8()));
        const QString shown = scenario.isEmpty() ? QStringLiteral("sweep") : scenario;
        const QString want =
            "$.ml_for_ml.trace_file: only used when scenario is \"trace\" (scenario is \"" + shown +
            "\")";
        const CliResult v = runCli({QStringLiteral("validate"), file});
        QCOMPARE(v.exitCode, 2);
        QVERIFY2(v.all.contains(file + ": " + want), qPrintable("validate:\n" + v.all));
        const CliResult r =
            runCli({QStringLiteral("run"), file, QStringLiteral("--out"), folder + "/out"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.all.contains(want), qPrintable("run:\n" + r.all));
        QVERIFY(!QFileInfo::exists(folder + "/out"));
        Diagnostics d;
        QVERIFY(!loadScenarioFile(file.toStdString(), d));
        QVERIFY2(QString::fromStdString(d.str()).contains(want), d.str().c_str());
        // Sweeping the trace file of a scenario that does not replay it fails the same way.
        QVERIFY(writeFile(folder + "/plain.json",
                          "{\"ml_for_ml\": {" + key.toUtf8() + "\"policies\": [\"Static\"]}}"));
        const CliResult sw = runCli({QStringLiteral("sweep"), folder + "/plain.json",
                                     QStringLiteral("--vary"), "ml_for_ml.trace_file=" + traceFile,
                                     QStringLiteral("--out"), folder + "/sweep.csv"});
        QCOMPARE(sw.exitCode, 2);
        QVERIFY2(sw.all.contains(want), qPrintable("sweep:\n" + sw.all));
        QVERIFY(!QFileInfo::exists(folder + "/sweep.csv"));
    }

    void validTraceValidatesAndRuns() {
        QVERIFY(m_dir.isValid());
        const QString folder = m_dir.filePath(QStringLiteral("good"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(writeFile(folder + "/load.csv", "time_s;GBps;host\n0;50;a\n10;100;b\n20;0;c\n"));
        const QString scenario = folder + "/s.json";
        QVERIFY(writeFile(scenario, R"({"ml_for_ml": {"scenario": "trace", "trace_file": "load.csv",
            "start_offsets": 2, "replay_iterations": 3, "policies": ["Static"], "horizon_s": 86400}})"));
        const CliResult v = runCli({QStringLiteral("validate"), scenario});
        QCOMPARE(v.exitCode, 0);
        const CliResult r =
            runCli({QStringLiteral("run"), scenario, QStringLiteral("--out"), folder + "/out"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all));
    }

    void capacityIsTheWaterFillingOfThePseudoJobs() {
        mlforml::Params p;
        QCOMPARE(mlforml::traceNodes(p), 8);                  // 64 flows over 8 pseudo-jobs
        QCOMPARE(mlforml::traceCapacityBytesPerS(p), 490e9);  // fabric-bound: 64 x 10.7 > 490
        p.nicBytesPerS = 5e9;
        QCOMPARE(mlforml::traceCapacityBytesPerS(p), 64 * 5e9);  // NIC-bound
        p.ccEfficiency = 0.5;
        p.ccEfficiencyDropPerFlow = 0.1;
        QCOMPARE(mlforml::traceCapacityBytesPerS(p), 64 * 5e9 * 0.5 / 1.7);
        // The refusal is at the bound: a mean just below runs, at the bound it does not.
        mlforml::Params q;
        io::LoadTrace t;
        t.time_s = {0, 10};
        t.lastDuration_s = 10;
        t.bytesPerSecond = {489.9e9, 489.9e9};
        Diagnostics d;
        QVERIFY2(mlforml::checkTraceReplay(q, t, "t.csv", "$", d), d.str().c_str());
        t.bytesPerSecond = {490e9, 490e9};
        QVERIFY(!mlforml::checkTraceReplay(q, t, "t.csv", "$", d));
    }
};

TANDEM_TEST_GUILESS_MAIN(TstTraceReplay)
#include "tst_trace_replay.moc"
