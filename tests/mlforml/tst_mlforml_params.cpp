// Params JSON: round trip, unit conversion, error paths with JSON paths [MODEL.md A; issue 3].
#include <QtTest>

#include "common/json_reader.h"
#include "mlforml/params.h"
#include "mlforml/presets.h"

using namespace tandem;
using namespace tandem::mlforml;

namespace {
Diagnostics readText(const std::string& text, Params& p) {
    Diagnostics d;
    const auto j = parseJsonText(text, d);
    if (!d.ok()) return d;
    JsonReader r(j, "$.ml_for_ml", d);
    readParams(r, p);
    return d;
}
}  // namespace

class TestParams : public QObject {
    Q_OBJECT
private slots:
    void roundTripIsByteIdentical_data() {
        QTest::addColumn<int>("which");
        QTest::newRow("scenario 1") << 1;
        QTest::newRow("scenario 2") << 2;
    }
    void roundTripIsByteIdentical() {
        QFETCH(int, which);
        const Params p = which == 1 ? scenario1Params() : scenario2Params();
        const std::string a = writeParams(p).dump(2);
        Params q;
        const auto d = readText(a, q);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(QString::fromStdString(writeParams(q).dump(2)), QString::fromStdString(a));
    }

    void unitsConvertedOnce() {
        Params p;
        const auto d = readText(R"({"fabric_GBps": 400, "nic_GBps": 25, "microbatch_compute_ms": 30,
                                   "overlap_window_ms": 5, "background_job": {"gradient_GB": 1.5}})",
                                p);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(p.fabricBytesPerS, 400e9);
        QCOMPARE(p.nicBytesPerS, 25e9);
        QCOMPARE(p.microbatchComputeS, 0.030);
        QCOMPARE(p.overlapWindowS, 0.005);
        QCOMPARE(p.backgroundJob.gradientBytes, 1.5e9);
    }

    void errors_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("words");
        QTest::newRow("negative fabric") << R"({"fabric_GBps": -1})" << "$.ml_for_ml.fabric_GBps" << ">= 0";
        QTest::newRow("unknown key hint") << R"({"fabric_Gbps": 400})" << "$.ml_for_ml.fabric_Gbps" << "fabric_GBps";
        QTest::newRow("bad policy") << R"({"policies": ["Jiont"]})" << "$.ml_for_ml.policies[0]" << "Joint";
        QTest::newRow("bad precision") << R"({"precisions": ["BF61"]})" << "$.ml_for_ml.precisions[0]" << "BF16";
        QTest::newRow("target below reachable") << R"({"target_factors": [0.9]})" << "$.ml_for_ml.target_factors[0]" << "reachable";
        QTest::newRow("trace needs file") << R"({"scenario": "trace"})" << "$.ml_for_ml.trace_file" << "required";
        QTest::newRow("zero schedules") << R"({"poisson_schedules": 0})" << "$.ml_for_ml.poisson_schedules" << "[1, 256]";
        QTest::newRow("too many recordings") << R"({"exposure_recordings": 65})" << "$.ml_for_ml.exposure_recordings" << "[1, 64]";
        QTest::newRow("nested unknown") << R"({"progress": {"kapa_mxfp4": 1.2}})" << "$.ml_for_ml.progress.kapa_mxfp4" << "kappa_mxfp4";
        QTest::newRow("wrong type") << R"({"seed": "one"})" << "$.ml_for_ml.seed" << "integer";
        QTest::newRow("bad mode") << R"({"mode": "closedloop"})" << "$.ml_for_ml.mode" << "closed_loop";
        QTest::newRow("zero bursts") << R"({"background_job": {"sync_bursts": 0}})" << "$.ml_for_ml.background_job.sync_bursts" << "[1, 1024]";
        QTest::newRow("negative burst gap") << R"({"background_job": {"burst_gap_ms": -1}})" << "$.ml_for_ml.background_job.burst_gap_ms" << ">= 0";
        QTest::newRow("arrivals after start") << R"({"arrivals_start_s": 10})" << "$.ml_for_ml.arrivals_start_s" << "0] (got 10)";
        QTest::newRow("jitter range") << R"({"background_job": {"compute_jitter": 1.5}})" << "$.ml_for_ml.background_job.compute_jitter" << "[0, 1)";
    }
    void errors() {
        QFETCH(QString, json);
        QFETCH(QString, path);
        QFETCH(QString, words);
        Params p;
        const auto d = readText(json.toStdString(), p);
        QVERIFY(!d.ok());
        bool found = false;
        for (const auto& i : d.items())
            if (i.path == path.toStdString() &&
                QString::fromStdString(i.message).contains(words))
                found = true;
        QVERIFY2(found, d.str().c_str());
    }

    void fixedComboPolicyAccepted() {
        Params p;
        const auto d = readText(R"({"policies": ["Joint", "GA16-MXFP4", "GA8-FP8", "Oracle"]})", p);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(p.policies.size(), size_t(4));
    }
};

QTEST_APPLESS_MAIN(TestParams)
#include "tst_mlforml_params.moc"
