// `tandem-cli calibrate` end to end: three measured H100 runs (rows of the shipped measured
// set) calibrate megatron-core to a stack file that `plan --stack`, `inspect` and a scenario
// read back; bad input exits 2 naming the flag or key, and nothing is written then.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_fixtures.h"
#include "test_main.h"

using cli_fixtures::CliRun;
using cli_fixtures::runCli;

namespace {
QString data(const char* name) { return QStringLiteral(TANDEM_CLI_DATA "/") + name; }
}  // namespace

class TstCliCalibrate : public QObject {
    Q_OBJECT
private slots:
    /// Calibrate, then plan with the file: the plan names the stack and its calibration, and the
    /// file's errors are the command's (after <= before on the runs themselves).
    void calibrateThenPlan() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("my-cluster.json"));
        const CliRun c = runCli({QStringLiteral("calibrate"), data("calibrate-h100-runs.csv"),
                                 QStringLiteral("--hardware"), QStringLiteral("h100"),
                                 QStringLiteral("--out"), out});
        QVERIFY2(c.exitCode == 0, qPrintable(c.err));
        QVERIFY(c.out.contains(QStringLiteral("Calibrating megatron-core to 3 runs on h100")));
        QVERIFY(c.out.contains(QStringLiteral("wrote ") + out));
        std::ifstream in(out.toStdString());
        const nlohmann::json j = nlohmann::json::parse(in);
        QCOMPARE(j["tandem_stack"].get<int>(), 1);
        QCOMPARE(j["name"].get<std::string>(), std::string("my-cluster"));
        QCOMPARE(j["base"].get<std::string>(), std::string("megatron-core"));
        QCOMPARE(j["calibration"]["runs"].get<int>(), 3);
        QVERIFY(j["calibration"]["median_abs_error_after"].get<double>() <=
                j["calibration"]["median_abs_error_before"].get<double>());

        const CliRun i = runCli({QStringLiteral("inspect"), out});
        QVERIFY2(i.exitCode == 0, qPrintable(i.err));
        QVERIFY2(i.out.contains(QStringLiteral("stack_file, stack my-cluster (rules of "
                                               "megatron-core)")),
                 qPrintable(i.out));

        const CliRun p =
            runCli({QStringLiteral("plan"),
                    QStringLiteral(TANDEM_TEST_DATA "/models/Mixtral-8x7B-v0.1.config.json"),
                    QStringLiteral("--devices"), QStringLiteral("64"), QStringLiteral("--hardware"),
                    QStringLiteral("h100"), QStringLiteral("--stack"), out});
        QVERIFY2(p.exitCode == 0, qPrintable(p.err));
        QVERIFY2(p.out.contains(QStringLiteral("Stack: my-cluster, calibrated to 3 runs of yours "
                                               "on h100")),
                 qPrintable(p.out));
    }

    void refusals_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        QTest::newRow("no --out") << QStringList{QStringLiteral("calibrate"),
                                                 data("calibrate-h100-runs.csv")}
                                  << "--out";
        QTest::newRow("built-in name")
            << QStringList{QStringLiteral("calibrate"), data("calibrate-h100-runs.csv"),
                           QStringLiteral("--out"), QStringLiteral("OUT/megatron-core.json")}
            << "is a built-in stack";
        QTest::newRow("not runs") << QStringList{QStringLiteral("calibrate"),
                                                 data("rate-trace.csv"), QStringLiteral("--out"),
                                                 QStringLiteral("OUT/x.json")}
                                  << "line 1: not a file of measured runs";
        QTest::newRow("unknown hardware")
            << QStringList{QStringLiteral("calibrate"),  data("calibrate-h100-runs.csv"),
                           QStringLiteral("--hardware"), QStringLiteral("h900"),
                           QStringLiteral("--out"),      QStringLiteral("OUT/x.json")}
            << "--hardware";
    }
    /// Each refusal exits 2 with its reason and writes no file.
    void refusals() {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        QTemporaryDir dir;
        args.replaceInStrings(QStringLiteral("OUT"), dir.path());
        const CliRun r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(error), qPrintable(r.err));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }

    /// A stack file with a constant outside its range is refused by `plan --stack` naming it.
    void badStackFileRefused() {
        QTemporaryDir dir;
        const QString f = dir.filePath(QStringLiteral("bad.json"));
        QFile file(f);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"tandem_stack": 1, "name": "bad", "base": "megatron-core",
                       "constants": {"grouped_gemm_max": 3}})");
        file.close();
        const CliRun p = runCli(
            {QStringLiteral("plan"),
             QStringLiteral(TANDEM_TEST_DATA "/models/Mixtral-8x7B-v0.1.config.json"),
             QStringLiteral("--devices"), QStringLiteral("64"), QStringLiteral("--stack"), f});
        QCOMPARE(p.exitCode, 2);
        QVERIFY2(p.err.contains(QStringLiteral("$.constants.grouped_gemm_max")), qPrintable(p.err));
    }

    /// A stack file an earlier `calibrate` wrote with `dense_gemm_max` (no longer a constant: the
    /// GEMM level comes from the kernel tables) still plans, with a warning on stderr naming the
    /// key, why and what was done; `inspect` lists the same warning, `calibrate --stack` reads
    /// it as its base.
    void retiredConstantWarns() {
        QTemporaryDir dir;
        const QString f = dir.filePath(QStringLiteral("old.json"));
        QFile file(f);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"tandem_stack": 1, "name": "old-cluster", "base": "megatron-core",
                       "constants": {"grouped_gemm_max": 0.45, "dense_gemm_max": 0.93},
                       "calibration": {"runs": 2, "hardware": "h100",
                                       "median_abs_error_before": 0.2,
                                       "median_abs_error_after": 0.05}})");
        file.close();
        const QString warning = QStringLiteral(
            "$.constants.dense_gemm_max: is no longer a constant of a stack: the dense GEMM "
            "level now comes from the kernel tables");
        const CliRun p =
            runCli({QStringLiteral("plan"),
                    QStringLiteral(TANDEM_TEST_DATA "/models/Mixtral-8x7B-v0.1.config.json"),
                    QStringLiteral("--devices"), QStringLiteral("64"), QStringLiteral("--hardware"),
                    QStringLiteral("h100"), QStringLiteral("--stack"), f});
        QVERIFY2(p.exitCode == 0, qPrintable(p.err));
        QVERIFY2(p.err.contains(QStringLiteral("warning: ") + warning), qPrintable(p.err));
        QVERIFY2(p.err.contains(QStringLiteral("the file's value 0.93 was ignored")),
                 qPrintable(p.err));
        QVERIFY2(
            p.out.contains(QStringLiteral("Stack: old-cluster, calibrated to 2 runs of yours")),
            qPrintable(p.out));

        const CliRun i = runCli({QStringLiteral("inspect"), f});
        QVERIFY2(i.exitCode == 0, qPrintable(i.err));
        QVERIFY2(i.err.contains(QStringLiteral("warning: ") + warning), qPrintable(i.err));

        const QString out = dir.filePath(QStringLiteral("new-cluster.json"));
        const CliRun c = runCli({QStringLiteral("calibrate"), data("calibrate-h100-runs.csv"),
                                 QStringLiteral("--hardware"), QStringLiteral("h100"),
                                 QStringLiteral("--stack"), f, QStringLiteral("--out"), out});
        QVERIFY2(c.exitCode == 0, qPrintable(c.err));
        QVERIFY2(c.err.contains(warning), qPrintable(c.err));
        std::ifstream in(out.toStdString());
        const nlohmann::json j = nlohmann::json::parse(in);
        QVERIFY(!j["constants"].contains("dense_gemm_max"));
    }
};

TANDEM_TEST_APPLESS_MAIN(TstCliCalibrate)
#include "tst_cli_calibrate.moc"
