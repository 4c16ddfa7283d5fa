// tandem-cli end to end: every example runs; the papers' qualitative claims hold on the
// examples' outputs; validate names each bad path and exits 2.
// (The plan command: tst_cli_plan.)
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <clocale>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_fixtures.h"
#include "common/csv.h"
#include "test_main.h"

using namespace cli_fixtures;

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void everyExampleRuns_data() {
        QTest::addColumn<QString>("file");
        const QDir dir(QStringLiteral(TANDEM_EXAMPLES));
        const auto files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 3);
        for (const auto& f : files) QTest::newRow(f.toUtf8().constData()) << dir.filePath(f);
    }

    void everyExampleRuns() {
        QFETCH(QString, file);
        const auto v = runCli({QStringLiteral("validate"), file});
        QVERIFY2(v.exitCode == 0, qPrintable(v.out + v.err));
        QTemporaryDir out;
        const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("--out"), out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("scenario.json"))));
        // The canonical copy of the scenario is the example itself, byte for byte.
        QFile a(file), b(out.filePath(QStringLiteral("scenario.json")));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(b.readAll(), a.readAll());
    }

    /// Stored results: every example's CSV outputs match the files beside it,
    /// examples/<example>.expected/<name>.csv, within the stated tolerance (sameCsv: the same
    /// header and rows, text fields equal, numbers within a relative 1e-9 or an absolute 1e-12),
    /// so an optimisation that changes a number is caught while a last-digit change of a
    /// floating-point sum is not. Regenerate deliberately with TANDEM_UPDATE_EXPECTED=1 (writes
    /// into the source tree) and review the diff.
    void examplesMatchStoredResults_data() { everyExampleRuns_data(); }

    void examplesMatchStoredResults() {
        QFETCH(QString, file);
        QTemporaryDir out;
        const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("--out"), out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QFileInfo example(file);
        const QDir expected(
            example.dir().filePath(example.completeBaseName() + QStringLiteral(".expected")));
        const bool update = qEnvironmentVariableIntValue("TANDEM_UPDATE_EXPECTED") == 1;
        if (update) QDir().mkpath(expected.path());
        int compared = 0;
        for (const auto& name :
             QDir(out.path()).entryList({QStringLiteral("*.csv")}, QDir::Files)) {
            QFile got(out.filePath(name));
            QVERIFY(got.open(QIODevice::ReadOnly));
            const QByteArray bytes = got.readAll();
            QFile want(expected.filePath(name));
            if (update) {
                QVERIFY(want.open(QIODevice::WriteOnly));
                want.write(bytes);
                continue;
            }
            QVERIFY2(want.open(QIODevice::ReadOnly), qPrintable("missing " + want.fileName()));
            const QString diff = sameCsv(want.readAll(), bytes);
            QVERIFY2(diff.isEmpty(),
                     qPrintable(name + " differs from " + want.fileName() + ": " + diff));
            ++compared;
        }
        if (!update) QVERIFY(compared >= 1);
    }

    /// The comparison itself: a last-digit difference passes, a changed number, a changed word,
    /// a missing row or another header fails, each naming the line and column.
    void storedResultsTolerance() {
        const QByteArray base = "a,b,name\n1.5,2e-20,x\n3,4,\"p,q\"\n";
        QCOMPARE(sameCsv(base, base), QString());
        QCOMPARE(sameCsv(base, "a,b,name\n1.5000000000000002,3e-20,x\n3,4,\"p,q\"\n"), QString());
        QVERIFY(sameCsv(base, "a,b,name\n1.5001,2e-20,x\n3,4,\"p,q\"\n")
                    .contains(QStringLiteral("line 2, column a")));
        QVERIFY(sameCsv(base, "a,b,name\n1.5,2e-20,y\n3,4,\"p,q\"\n")
                    .contains(QStringLiteral("line 2, column name")));
        QVERIFY(!sameCsv(base, "a,b,name\n1.5,2e-20,x\n").isEmpty());
        QVERIFY(!sameCsv(base, "a,c,name\n1.5,2e-20,x\n3,4,\"p,q\"\n").isEmpty());
        QVERIFY(!sameCsv(base, "a,b,name\n1.5,nan,x\n3,4,\"p,q\"\n").isEmpty());
    }

    /// scaling: one CSV row per (ratio, policy, target, node count); Joint's curve falls on
    /// the non-blocking fabric and turns at 4:1; a paper-fabric scenario is refused naming the
    /// key; JSON holds one object per curve.
    void scalingCurves() {
        QTemporaryDir out;
        const QString csv = out.filePath(QStringLiteral("s.csv"));
        const auto r = runCli({QStringLiteral("scaling"), example("mlforml-fabric-scaling.json"),
                               QStringLiteral("--nodes"), QStringLiteral("8,40,64"),
                               QStringLiteral("--oversubscription"), QStringLiteral("1,4"),
                               QStringLiteral("--out"), csv});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 2 * 5 * 4 * 3);  // header + ratios x policies x targets x nodes
        std::map<QString, double> joint;
        for (const auto& l : lines) {
            const QStringList c = l.split(',');
            if (c[2] == QStringLiteral("Joint") && c[3] == QStringLiteral("1.01"))
                joint[c[0] + "/" + c[4]] = c[5].toDouble();
        }
        QVERIFY(joint.at("1/8") > joint.at("1/40") && joint.at("1/40") > joint.at("1/64"));
        QVERIFY(joint.at("4/40") < joint.at("4/8") && joint.at("4/40") < joint.at("4/64"));
        // s-links.csv beside it: the links.csv rows of every point, led by its ratio and node
        // count. A leaf's uplink bundle is 16 nodes x 10.7 GB/s / ratio: 171.2 GB/s at 1:1,
        // 42.8 at 4:1; every leaf holds nodes of the spread jobs, so all 8 leaves' bundles
        // carry traffic at every point and only links some job crossed are listed.
        QFile lf(out.filePath(QStringLiteral("s-links.csv")));
        QVERIFY(lf.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(lf.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.value(0), QStringLiteral("oversubscription,foreground_nodes,background_jobs,"
                                               "link,capacity_GBps,observed_s,mean_utilisation,"
                                               "peak_utilisation,seconds_at_100pct,jobs"));
        std::map<QString, int> leafUps;
        for (int i = 1; i < rows.size(); ++i) {
            const QStringList c = rows[i].split(',');
            QCOMPARE(c.size(), 10);
            QVERIFY2(!c[9].isEmpty(), qPrintable(rows[i]));  // some job crossed it
            if (!c[3].endsWith(QStringLiteral("-up"))) continue;
            ++leafUps[c[0] + "/" + c[1]];
            QCOMPARE(c[4].toDouble(), c[0] == QStringLiteral("1") ? 171.2 : 42.8);
        }
        for (const char* point : {"1/8", "1/40", "1/64", "4/8", "4/40", "4/64"})
            QCOMPARE(leafUps[QString::fromLatin1(point)], 8);
        const auto bad = runCli({QStringLiteral("scaling"), example("mlforml-scenario1.json"),
                                 QStringLiteral("--out"), csv});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("ml_for_ml.topology")), qPrintable(bad.err));
        const QString js = out.filePath(QStringLiteral("s.json"));
        const auto rj = runCli({QStringLiteral("scaling"), example("mlforml-fabric-scaling.json"),
                                QStringLiteral("--nodes"), QStringLiteral("8,16"),
                                QStringLiteral("--oversubscription"), QStringLiteral("4"),
                                QStringLiteral("--out"), js});
        QVERIFY2(rj.exitCode == 0, qPrintable(rj.err));
        const auto j = readJson(js);
        QCOMPARE(j.at("curves").size(), size_t(5 * 4));
        QCOMPARE(j.at("curves")[0].at("foreground_nodes").size(), size_t(2));
    }

    /// The fabric-scaling example shows interference: its background jobs share the
    /// foreground's uplinks, so at 4:1 their gradient size changes the curve (Joint, 8 and 48
    /// foreground nodes: more than 20 % slower with the 2.81 GB gradient than with 0), while on
    /// the non-blocking fabric it does not; run's links.csv lists the background jobs on every
    /// leaf uplink, full most of the time.
    void scalingExampleShowsInterference() {
        QTemporaryDir dir;
        auto joint = [&](double gradientGB, const char* ratio) {
            nlohmann::json j = readJson(example("mlforml-fabric-scaling.json"));
            j["ml_for_ml"]["background_job"]["gradient_GB"] = gradientGB;
            const QString f = dir.filePath(QStringLiteral("g.json"));
            std::ofstream(f.toStdString()) << j.dump(2);
            const QString csv = dir.filePath(QStringLiteral("g.csv"));
            const auto r = runCli({QStringLiteral("scaling"), f, QStringLiteral("--nodes"),
                                   QStringLiteral("8,48"), QStringLiteral("--oversubscription"),
                                   QString::fromLatin1(ratio), QStringLiteral("--out"), csv});
            [&] { QVERIFY2(r.exitCode == 0, qPrintable(r.err)); }();
            QFile in(csv);
            std::map<int, double> t;
            if (!in.open(QIODevice::ReadOnly)) return t;
            for (const auto& l : QString::fromUtf8(in.readAll()).split('\n', Qt::SkipEmptyParts)) {
                const QStringList c = l.split(',');
                if (c[2] == QStringLiteral("Joint") && c[3] == QStringLiteral("1.01"))
                    t[c[4].toInt()] = c[5].toDouble();
            }
            return t;
        };
        const auto busy = joint(2.81, "4"), idle = joint(0.0, "4");
        QCOMPARE(busy.size(), size_t(2));
        QCOMPARE(idle.size(), size_t(2));
        for (int n : {8, 48})
            QVERIFY2(
                busy.at(n) > 1.2 * idle.at(n),
                qPrintable(
                    QString("%1 nodes: %2 s against %3 s").arg(n).arg(busy.at(n)).arg(idle.at(n))));
        const auto busy1 = joint(2.81, "1"), idle1 = joint(0.0, "1");
        for (int n : {8, 48}) QCOMPARE(busy1.at(n), idle1.at(n));

        const auto r = runCli({QStringLiteral("run"), example("mlforml-fabric-scaling.json"),
                               QStringLiteral("--out"), dir.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile links(dir.filePath(QStringLiteral("links.csv")));
        QVERIFY(links.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(links.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.value(0), QStringLiteral("background_jobs,link,capacity_GBps,observed_s,"
                                               "mean_utilisation,peak_utilisation,"
                                               "seconds_at_100pct,jobs"));
        int uplinks = 0;
        for (const auto& row : rows) {
            const QStringList c = row.split(',');
            if (!c.value(1).endsWith(QStringLiteral("-up"))) continue;
            ++uplinks;
            QCOMPARE(c[2].toDouble(), 16 * 10.7 / 4);
            QVERIFY2(c[6].toDouble() > 0.9 * c[3].toDouble(), qPrintable(row));
            QCOMPARE(c[7], QStringLiteral("foreground;bg0;bg1;bg2;bg3;bg4;bg5;bg6;bg7"));
        }
        QCOMPARE(uplinks, 8);  // 128 nodes, 16 per leaf
    }

    /// A fabric_GBps of 0 is refused (exit 2, naming the key) on the shared paper-fabric and on a
    /// leaf/spine fabric alike: a link of capacity 0 carries nothing (it was accepted with a
    /// warning and every policy reported "not reached").
    void zeroFabricRefused() {
        QTemporaryDir dir;
        for (const bool leafSpine : {false, true}) {
            nlohmann::json j = readJson(
                example(leafSpine ? "mlforml-fabric-scaling.json" : "mlforml-scenario1.json"));
            j["ml_for_ml"]["fabric_GBps"] = 0.0;
            const QString f =
                dir.filePath(leafSpine ? QStringLiteral("ls.json") : QStringLiteral("sh.json"));
            std::ofstream(f.toStdString()) << j.dump(2);
            const auto v = runCli({QStringLiteral("validate"), f});
            QCOMPARE(v.exitCode, 2);
            QVERIFY2(
                (v.out + v.err).contains(QStringLiteral("$.ml_for_ml.fabric_GBps: must be > 0")),
                qPrintable(v.out + v.err));
        }
    }

    /// ML-for-ML scenario 1: per N a first-crossing time per policy; Joint never slower than
    /// Decoupled; Decoupled/Joint in [1.05, 1.6] for every N [2608.06046 Fig. 2c-d].
    void mlForMlScenario1() {
        QTemporaryDir out;
        const auto r = runCli({QStringLiteral("run"), example("mlforml-scenario1.json"),
                               QStringLiteral("--out"), out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = readJson(out.filePath(QStringLiteral("mlforml_result.json")));
        const auto& points = j.at("points");
        QCOMPARE(points.size(), size_t(4));
        std::vector<int> ns;
        for (const auto& pt : points) {
            ns.push_back(pt.at("background_jobs").get<int>());
            double joint = NAN, decoupled = NAN;
            int policies = 0;
            for (const auto& run : pt.at("policies")) {
                const auto& fc = run.at("first_crossing_s");
                QCOMPARE(fc.size(), size_t(4));
                for (const auto& t : fc) QVERIFY(t.is_number() && t.get<double>() > 0);
                const auto name = run.at("policy").get<std::string>();
                const double last = fc.back().get<double>();  // 1.02 x L_min
                if (name == "Joint") joint = last;
                if (name == "Decoupled") decoupled = last;
                ++policies;
            }
            QVERIFY(policies >= 5);
            QVERIFY(joint <= decoupled);
            const double ratio = decoupled / joint;
            QVERIFY2(ratio >= 1.05 && ratio <= 1.6, qPrintable(QString::number(ratio)));
        }
        QCOMPARE(ns, (std::vector<int>{4, 8, 12, 16}));
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("mlforml_first_crossing.csv"))));
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("mlforml_trajectories.csv"))));
    }

    /// MoE frontiers: compute-optimal argmin at the sparsity boundary, cluster-optimal
    /// argmin strictly interior [2608.10605 Fig. 1, Sec. 7].
    void mosaicFrontiers_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("table3") << example("mosaic-table3.json");
        QTest::newRow("fig1") << example("mosaic-fig1.json");
    }

    void mosaicFrontiers() {
        QFETCH(QString, file);
        QTemporaryDir out;
        const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("--out"), out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = readJson(out.filePath(QStringLiteral("mosaic_result.json")));
        const auto& co = j.at("compute_optimal");
        QVERIFY(co.size() >= 3);
        double sMax = -1;
        for (const auto& p : co) sMax = std::max(sMax, p.at("sparsity").get<double>());
        const double sCompute = j.at("compute_optimal_sparsity").get<double>();
        const double sCluster = j.at("cluster_optimal_sparsity").get<double>();
        QCOMPARE(sCompute, sMax);
        QVERIFY2(sCluster < sMax - 1e-9, qPrintable(QString::number(sCluster)));
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("mosaic_frontier.csv"))));
    }

    /// Validation: a wrong type, an unknown key and a negative bandwidth give three
    /// lines naming those paths, exit 2.
    void validateNamesEachProblem() {
        const auto r =
            runCli({QStringLiteral("validate"), QStringLiteral(TANDEM_CLI_DATA "/bad-three.json")});
        QCOMPARE(r.exitCode, 2);
        const auto lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY2(r.out.contains(QStringLiteral("$.ml_for_ml.background_jobs: must be")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("$.ml_for_ml.fabrc_GBps: unknown key")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("$.ml_for_ml.nic_GBps: must be > 0 (got -12.5)")),
                 qPrintable(r.out));
    }

    /// inspect reads every file in tests/data (each with its kind, exit 0).
    void inspectEveryDataFile_data() {
        QTest::addColumn<QString>("file");
        for (const char* sub : {"models", "nccl", "losslogs"}) {
            const QDir dir(QStringLiteral(TANDEM_TEST_DATA "/") + sub);
            for (const auto& f : dir.entryList(QDir::Files, QDir::Name))
                QTest::newRow(qPrintable(QString::fromUtf8(sub) + "/" + f)) << dir.filePath(f);
        }
    }

    void inspectEveryDataFile() {
        QFETCH(QString, file);
        const auto r = runCli({QStringLiteral("inspect"), file, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(j.at("kind").get<std::string>() != "unknown");
        if (j.at("kind") == "nccl_tests") QVERIFY(j.contains("analytical_hardware"));
    }

    /// Issue #25: every number tandem-cli reads or writes is in the C convention whatever the
    /// locale. Each row's commands run once with LC_ALL=C and once with LC_ALL=de_DE.UTF-8
    /// (decimal comma) and once with fr_FR.UTF-8 where installed; exit codes, messages and every
    /// file written must be the same byte for byte. Under de_DE.UTF-8 `run` wrote "0,7" into
    /// comma-separated files, `sweep` wrote "\"0,985\"", and "2.5:5.5:2", nccl-tests logs, loss
    /// logs and load traces were refused or misread.
    void outputsIgnoreLocale_data() {
        QTest::addColumn<QList<QStringList>>("commands");
        const QString data = QStringLiteral(TANDEM_TEST_DATA "/");
        const QString nccl =
            data + QStringLiteral("nccl/H100-all_reduce-2x8-awsome-distributed-training.txt");
        QTest::newRow("run mosaic-fig1")
            << QList<QStringList>{{"run", example("mosaic-fig1.json"), "--out", "$OUT/run"}};
        QTest::newRow("run mosaic-background")
            << QList<QStringList>{{"run", example("mosaic-background.json"), "--out", "$OUT/run"}};
        QTest::newRow("run mlforml-scenario1")
            << QList<QStringList>{{"run", example("mlforml-scenario1.json"), "--out", "$OUT/run"}};
        QTest::newRow("scaling csv and json")
            << QList<QStringList>{{"scaling", example("mlforml-fabric-scaling.json"), "--nodes",
                                   "8,16", "--oversubscription", "1.5,4", "--out", "$OUT/s.csv"},
                                  {"scaling", example("mlforml-fabric-scaling.json"), "--nodes",
                                   "8", "--oversubscription", "2.5", "--out", "$OUT/s.json"}};
        QTest::newRow("sweep range with decimals")
            << QList<QStringList>{{"sweep", example("mosaic-table3.json"), "--vary",
                                   "mosaic.days=2.5:5.5:2", "--out", "$OUT/sweep.csv"}};
        QTest::newRow("sweep shards and merge") << QList<QStringList>{
            {"sweep", example("mlforml-fabric-scaling.json"), "--vary",
             "ml_for_ml.fabric_GBps=250.5,300.25", "--shard", "0/2", "--out", "$OUT/a.csv"},
            {"sweep", example("mlforml-fabric-scaling.json"), "--vary",
             "ml_for_ml.fabric_GBps=250.5,300.25", "--shard", "1/2", "--out", "$OUT/b.csv"},
            {"merge", "--out", "$OUT/merged.csv", "$OUT/a.csv", "$OUT/b.csv"}};
        QList<QStringList> inspect;
        for (const char* sub : {"nccl", "losslogs", "models"}) {
            const QDir dir(data + QString::fromUtf8(sub));
            for (const auto& f : dir.entryList(QDir::Files, QDir::Name)) {
                inspect.append(QStringList{"inspect", dir.filePath(f)});
                inspect.append(QStringList{"inspect", dir.filePath(f), "--json"});
            }
        }
        inspect.append(QStringList{"inspect", TANDEM_CLI_DATA "/rate-trace.csv"});
        inspect.append(QStringList{"inspect", TANDEM_CLI_DATA "/rate-trace.csv", "--json"});
        QTest::newRow("inspect nccl-tests, loss log, config, trace") << inspect;
        QTest::newRow("plan with nccl-tests")
            << QList<QStringList>{{"plan", data + "models/Mixtral-8x7B-v0.1.config.json",
                                   "--devices", "64", "--nccl", nccl},
                                  {"plan", data + "models/Mixtral-8x7B-v0.1.config.json",
                                   "--devices", "64", "--nccl", nccl, "--json"}};
        QTest::newRow("validate and reproduce")
            << QList<QStringList>{{"validate", example("mlforml-scenario2.json")},
                                  {"validate", TANDEM_CLI_DATA "/bad-three.json"},
                                  {"reproduce", "mosaic"},
                                  {"reproduce", "reality"}};
    }

    void outputsIgnoreLocale() {
        QFETCH(QList<QStringList>, commands);
        if (!localeInstalled("de_DE.UTF-8"))
            QSKIP(
                "the de_DE.UTF-8 locale is not installed here (localedef -i de_DE -f UTF-8 "
                "de_DE.UTF-8; scripts/ci-locale.sh does it)");
        const QByteArray c = transcript(commands, QStringLiteral("C"));
        QVERIFY(c.contains("exit 0"));
        for (const char* locale : {"de_DE.UTF-8", "fr_FR.UTF-8"}) {
            if (!localeInstalled(locale)) continue;
            const QByteArray other = transcript(commands, QString::fromUtf8(locale));
            if (other == c) continue;
            // The first differing line, with its neighbours, names the culprit.
            const QList<QByteArray> a = c.split('\n'), b = other.split('\n');
            qsizetype i = 0;
            while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
            QByteArray where;
            for (qsizetype k = std::max<qsizetype>(0, i - 3); k <= i && k < a.size(); ++k)
                where += "  " + a[k].left(300) + "\n";
            QFAIL(qPrintable(QStringLiteral("LC_ALL=%1 differs from LC_ALL=C at line %2; C "
                                            "says:\n%3%1 says:\n  %4")
                                 .arg(QString::fromUtf8(locale))
                                 .arg(i + 1)
                                 .arg(QString::fromUtf8(where))
                                 .arg(QString::fromUtf8(i < b.size() ? b[i].left(300) : "<end>"))));
        }
    }

    void usageErrorsExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no command") << QStringList{};
        QTest::newRow("unknown command") << QStringList{"frobnicate"};
        QTest::newRow("run without --out") << QStringList{"run", example("mosaic-fig1.json")};
        QTest::newRow("run missing file")
            << QStringList{"run", "/nonexistent.json", "--out", "/tmp/x"};
        QTest::newRow("reproduce bad target") << QStringList{"reproduce", "everything"};
        QTest::newRow("unknown option") << QStringList{"validate", "--bogus", "x.json"};
        QTest::newRow("inspect unknown hardware")
            << QStringList{"inspect", TANDEM_TEST_DATA "/nccl/A100-alltoall-1x8-superbenchmark.txt",
                           "--hardware", "b300"};
        QTest::newRow("plan missing nccl file")
            << QStringList{"plan",      TANDEM_TEST_DATA "/models/Mixtral-8x7B-v0.1.config.json",
                           "--devices", "64",
                           "--nccl",    "/nonexistent-nccl.txt"};
    }

    void usageErrorsExitTwo() {
        QFETCH(QStringList, args);
        const auto r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!r.err.isEmpty() || !r.out.isEmpty());
    }

    /// A command that takes no positional argument refuses one (exit 2, the arguments named)
    /// instead of running without it.
    void unexpectedPositionalRefused_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("err");
        QTest::newRow("fit-stack extra")
            << QStringList{"fit-stack", "extra"}
            << "tandem-cli: fit-stack takes no positional arguments (got: extra)\n";
        QTest::newRow("fit-stack --json a b")
            << QStringList{"fit-stack", "--json", "a", "b"}
            << "tandem-cli: fit-stack takes no positional arguments (got: a, b)\n";
        QTest::newRow("bench --quick x")
            << QStringList{"bench", "--quick", "x"}
            << "tandem-cli: bench takes no positional arguments (got: x)\n";
    }

    void unexpectedPositionalRefused() {
        QFETCH(QStringList, args);
        QFETCH(QString, err);
        const auto r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, err);
        QVERIFY(r.out.isEmpty());
    }
};

TANDEM_TEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
