// inspectFile / inspectText: every real test file is recognised and reported with the keys
// `tandem-cli inspect --json` promises; unknown and broken files give messages, not crashes.
#include <QtTest>

#include <QDir>

#include <fstream>

#include "io/inspect.h"
#include "mosaic/collectives.h"

using namespace tandem;
using namespace tandem::io;

namespace {
std::string writeFile(const QTemporaryDir& dir, const char* name, const std::string& text) {
    const std::string p = dir.filePath(name).toStdString();
    std::ofstream(p, std::ios::binary) << text;
    return p;
}
}  // namespace

class TstInspect : public QObject {
    Q_OBJECT
private slots:
    void scenarioFileIsRecognised() {
        tandem::Diagnostics d("mosaic-fig1.json");
        const auto j = tandem::io::inspectFile(TANDEM_EXAMPLES "/mosaic-fig1.json", d);
        QCOMPARE(QString::fromStdString(j.at("kind").get<std::string>()), QStringLiteral("scenario"));
        QCOMPARE(d.items().size(), size_t(1));
        QCOMPARE(QString::fromStdString(d.items()[0].path), QStringLiteral("$"));
        QVERIFY(d.items()[0].message.find("tandem-cli validate") != std::string::npos);
    }
    void everyDataFile_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("kind");
        const QDir root(TANDEM_TEST_DATA);
        const std::pair<const char*, const char*> dirs[] = {
            {"models", "model_config"}, {"nccl", "nccl_tests"}, {"losslogs", "loss_log"}};
        for (const auto& [sub, kind] : dirs) {
            const QDir d(root.filePath(sub));
            for (const auto& f : d.entryList(QDir::Files, QDir::Name))
                QTest::newRow(qPrintable(f)) << d.filePath(f) << QString(kind);
        }
    }
    void everyDataFile() {
        QFETCH(QString, path);
        QFETCH(QString, kind);
        Diagnostics d(path.toStdString());
        const auto j = inspectFile(path.toStdString(), d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(QString::fromStdString(j["kind"].get<std::string>()), kind);
        std::vector<const char*> keys;
        if (kind == "model_config")
            keys = {"n_total", "n_active", "n_total_nonembedding", "n_active_nonembedding",
                    "sparsity", "split_factor_G", "geometry"};
        else if (kind == "nccl_tests")
            keys = {"collective", "ranks", "peak_busbw_GBps", "points"};
        else
            keys = {"L_inf", "A", "alpha", "S0", "stderr", "rmse", "predicted_at_last_step"};
        for (const char* k : keys) QVERIFY2(j.contains(k), k);
        const std::string text = inspectText(j);
        QVERIFY(text.find(j["file"].get<std::string>()) == 0);
        QVERIFY(text.find("not imported") == std::string::npos);
    }

    void textRendering() {
        Diagnostics d;
        const auto m = inspectFile(std::string(TANDEM_TEST_DATA) + "/models/DeepSeek-V3.config.json", d);
        const std::string t = inspectText(m);
        QVERIFY2(t.find("total 671.03 B") != std::string::npos, t.c_str());
        QVERIFY(t.find("E = 256, K = 8") != std::string::npos);
        QVERIFY(t.find("multi-token-prediction") != std::string::npos);
        const auto n = inspectFile(std::string(TANDEM_TEST_DATA) +
                                       "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt", d);
        const std::string nt = inspectText(n);
        QVERIFY2(nt.find("all_reduce on 16 ranks") != std::string::npos, nt.c_str());
        QVERIFY(nt.find("peak busbw 487.26 GB/s at 16 GiB") != std::string::npos);
        QVERIFY(d.ok());
    }

    /// nccl-tests JSON carries the analytical model of the chosen hardware at every measured
    /// size (same rank count, packed on its nodes): S x 2(n-1)/n / analytical time.
    void ncclAnalyticalBusbw_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<int>("collective");
        QTest::addColumn<int>("ranks");
        QTest::newRow("H100 2x8 all_reduce on h100") << "H100-all_reduce-2x8-awsome-distributed-training.txt"
                                                     << "h100" << int(mosaic::Collective::AllReduce) << 16;
        QTest::newRow("A100 1x8 alltoall on p6-b200") << "A100-alltoall-1x8-superbenchmark.txt" << "p6-b200"
                                                      << int(mosaic::Collective::AllToAll) << 8;
    }
    void ncclAnalyticalBusbw() {
        QFETCH(QString, file);
        QFETCH(QString, hardware);
        QFETCH(int, collective);
        QFETCH(int, ranks);
        Diagnostics d;
        const auto j = inspectFile(std::string(TANDEM_TEST_DATA) + "/nccl/" + file.toStdString(), d,
                                   hardware.toStdString());
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(QString::fromStdString(j.at("analytical_hardware").get<std::string>()), hardware);
        QCOMPARE(j.at("ranks").get<int>(), ranks);
        const auto hw = mosaic::builtinHardware(hardware.toStdString());
        const auto c = mosaic::Collective(collective);
        double peak = 0;
        for (const auto& p : j.at("points")) {
            const double bytes = p.at("bytes").get<double>();
            const double want = bytes * mosaic::busFactor(c, ranks) /
                                mosaic::analyticalCollectiveTime(hw, c, bytes, ranks, 1) / 1e9;
            QCOMPARE(p.at("analytical_busbw_GBps").get<double>(), want);
            peak = std::max(peak, want);
        }
        QCOMPARE(j.at("analytical_peak_busbw_GBps").get<double>(), peak);
        QVERIFY(inspectText(j).find("analytical model (" + hardware.toStdString()) != std::string::npos);
    }

    void loadTraceAndCsvLossDetected() {
        QTemporaryDir dir;
        Diagnostics d;
        auto j = inspectFile(writeFile(dir, "bg.csv", "time_s,GBps\n0,1\n10,3\n"), d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(j["kind"].get<std::string>(), std::string("load_trace"));
        QCOMPARE(j["peak_GBps"].get<double>(), 3.0);
        std::string csv = "step,loss\n";
        for (int s = 0; s < 20; ++s) csv += std::to_string(s * 10) + "," + std::to_string(3.0 + 8.0 / (s + 1)) + "\n";
        j = inspectFile(writeFile(dir, "loss.csv", csv), d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(j["kind"].get<std::string>(), std::string("loss_log"));
        QVERIFY(j.contains("rmse"));
    }

    void problemsAreReported_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");  // fragment of Diagnostics::str()
        QTest::newRow("nccl error") << "run.txt"
            << "# Collective test starting: all_reduce_perf\nnode01: Test NCCL failure common.cu:1005 'internal error'\n"
            << "nccl_tests" << "run.txt: line 2: NCCL error reported";
        QTest::newRow("json not a config") << "x.json" << "{\"foo\": 1}" << "model_config"
                                           << "x.json: $.model_type: is required";
        QTest::newRow("json syntax") << "y.json" << "{\"model_type\": }" << "model_config"
                                     << "y.json: line 1";
        QTest::newRow("unknown") << "notes.txt" << "hello world\n" << "unknown"
                                 << "not a recognised input";
    }
    void problemsAreReported() {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string p = writeFile(dir, name.toUtf8().constData(), text.toStdString());
        Diagnostics d(name.toStdString());
        const auto j = inspectFile(p, d);
        QVERIFY(!d.ok());
        QCOMPARE(QString::fromStdString(j["kind"].get<std::string>()), kind);
        QVERIFY2(d.str().find(expected.toStdString()) != std::string::npos, d.str().c_str());
        QVERIFY(!inspectText(j).empty());
    }

    void missingFile() {
        Diagnostics d;
        const auto j = inspectFile("/nonexistent/file.json", d);
        QVERIFY(!d.ok());
        QCOMPARE(d.items().front().path, std::string("file"));
        QCOMPARE(j["kind"].get<std::string>(), std::string("unknown"));
    }
};

QTEST_APPLESS_MAIN(TstInspect)
#include "tst_inspect.moc"
