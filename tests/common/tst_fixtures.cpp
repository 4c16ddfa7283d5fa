// The fixtures several suites share (run_fixtures.h, mosaic_fixtures.h) against the readers
// their output is written for: a written Megatron-LM log parses to the iteration time it was
// asked for, a geometry's MODEL.json reads back as that geometry, and an envelope's round trip
// keeps its values and reports what the reader refuses.
#include <QtTest>
#include <cmath>

#include "common/diagnostics.h"
#include "common/json_reader.h"
#include "io/train_log.h"
#include "mosaic/plan.h"
#include "mosaic_fixtures.h"
#include "run_fixtures.h"
#include "test_main.h"

using namespace tandem;

class TestFixtures : public QObject {
    Q_OBJECT
private slots:
    /// 256 sequences of 8192 tokens on 64 GPUs at 1664 tokens/s per GPU: 1000 x 256 x 8192 /
    /// (1664 x 64) = 19692.3 ms per iteration, written -1 %, 0, +1 % around it.
    void megatronLogHasTheAskedTime() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path =
            test::writeMegatronLog(dir, QStringLiteral("run.log"), 64, 256, 8192, 1664);
        QCOMPARE(path, dir.filePath(QStringLiteral("run.log")));
        Diagnostics d;
        const auto log = io::loadTrainLogFile(path.toStdString(), d);
        QVERIFY2(log && d.ok(), d.str().c_str());
        QVERIFY(log->format == io::TrainLogFormat::Megatron);
        QCOMPARE(log->steps.size(), size_t(12));
        QCOMPARE(log->steps[0].step, 1LL);
        QCOMPARE(log->steps[0].totalSteps, 100LL);
        QCOMPARE(log->steps[0].globalBatch, 256LL);
        QCOMPARE(log->steps[0].iteration_s, 19.6923);  // i = 1: the time itself
        QCOMPARE(log->steps[1].iteration_s, 19.8892);  // i = 2: +1 %
        QCOMPARE(log->steps[2].iteration_s, 19.4954);  // i = 3: -1 %
        QCOMPARE(log->steady.median_s, 19.6923);
        // A file that cannot be opened: no path.
        QVERIFY(
            test::writeMegatronLog(dir, QStringLiteral("no/such/dir.log"), 8, 8, 8, 1).isEmpty());
    }

    /// The compact MODEL.json of a dense geometry (keys in nlohmann::json's sorted order) reads
    /// back through readPlanModel as the same geometry.
    void explicitModelJsonReadsBack() {
        const mosaic::Geometry g = test::denseGeometry(2, 256, 4, 1024, 1000);
        const QByteArray bytes = test::explicitModelJson(g);
        QCOMPARE(bytes, QByteArray("{\"dense_layers\":2,\"expert_width\":0,\"experts\":0,"
                                   "\"ffn_width\":1024,\"heads\":4,\"hidden\":256,\"kv_heads\":4,"
                                   "\"layers\":2,\"shared_experts\":0,\"top_k\":0,"
                                   "\"vocab\":1000}"));
        const nlohmann::json j = nlohmann::json::parse(bytes.toStdString());
        Diagnostics d;
        JsonReader r(j, "$", d);
        mosaic::Geometry back;
        QVERIFY2(mosaic::readPlanModel(r, back), d.str().c_str());
        QCOMPARE(back.layers, g.layers);
        QCOMPARE(back.dModel, g.dModel);
        QCOMPARE(back.nHead, g.nHead);
        QCOMPARE(back.dFf, g.dFf);
        QCOMPARE(back.vocab, g.vocab);
        QCOMPARE(back.nAct, g.nAct);
        QCOMPARE(back.nTot, g.nTot);
    }

    /// An envelope's values come back through the scenario text; a value the reader refuses is
    /// reported at its path under $.mosaic.
    void envelopeRoundTripKeepsAndReports() {
        mosaic::Envelope e;
        e.nodes = 4;
        e.days = 5.5;
        Diagnostics d;
        const mosaic::Envelope back = test::envelopeRoundTrip(e, d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(back.nodes, 4);
        QCOMPARE(back.days, 5.5);
        e.nodes = 0;
        Diagnostics bad;
        test::envelopeRoundTrip(e, bad);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.str().find("$.mosaic.nodes") != std::string::npos, bad.str().c_str());
    }
};

TANDEM_TEST_APPLESS_MAIN(TestFixtures)
#include "tst_fixtures.moc"
