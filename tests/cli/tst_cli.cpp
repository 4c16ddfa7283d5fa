// tandem-cli end to end: every example runs; the papers' qualitative claims hold on the
// examples' outputs; validate names each bad path and exits 2.
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

namespace {

struct CliRun {
    int exitCode = -1;
    QString out;
    QString err;
};

CliRun runCli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(TANDEM_CLI), args);
    CliRun r;
    if (!p.waitForFinished(600000)) {
        p.kill();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

nlohmann::json readJson(const QString& path) {
    std::ifstream in(path.toStdString());
    return nlohmann::json::parse(in);
}

QString example(const char* name) { return QStringLiteral(TANDEM_EXAMPLES "/") + name; }

}  // namespace

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

    /// Stored results: every example's CSV outputs equal tests/cli/expected/<example>/ byte for
    /// byte, so an optimisation that changes a number is caught. Regenerate deliberately with
    /// TANDEM_UPDATE_EXPECTED=1 (writes into the source tree) and review the diff.
    void examplesMatchStoredResults_data() { everyExampleRuns_data(); }
    void examplesMatchStoredResults() {
        QFETCH(QString, file);
        QTemporaryDir out;
        const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("--out"), out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QDir expected(QStringLiteral(TANDEM_CLI_EXPECTED "/") + QFileInfo(file).completeBaseName());
        const bool update = qEnvironmentVariableIntValue("TANDEM_UPDATE_EXPECTED") == 1;
        if (update) QDir().mkpath(expected.path());
        int compared = 0;
        for (const auto& name : QDir(out.path()).entryList({QStringLiteral("*.csv")}, QDir::Files)) {
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
            QVERIFY2(want.readAll() == bytes, qPrintable(name + " differs from " + want.fileName()));
            ++compared;
        }
        if (!update) QVERIFY(compared >= 1);
    }

    /// Issue 2, done-when 2: per N a first-crossing time per policy; Joint never slower than
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

    /// Issue 2, done-when 3: compute-optimal argmin at the sparsity boundary, cluster-optimal
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

    /// Issue 2, done-when 4: a wrong type, an unknown key and a negative bandwidth give three
    /// lines naming those paths, exit 2.
    void validateNamesEachProblem() {
        const auto r = runCli({QStringLiteral("validate"),
                               QStringLiteral(TANDEM_CLI_DATA "/bad-three.json")});
        QCOMPARE(r.exitCode, 2);
        const auto lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY2(r.out.contains(QStringLiteral("$.ml_for_ml.background_jobs: must be")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("$.ml_for_ml.fabrc_GBps: unknown key")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("$.ml_for_ml.nic_GBps: must be >= 0 (got -12.5)")),
                 qPrintable(r.out));
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
    }
    void usageErrorsExitTwo() {
        QFETCH(QStringList, args);
        const auto r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!r.err.isEmpty() || !r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
