// Progress model [MODEL.md A4]: critical-batch progress, precision factor, loss calibration.
#include <QtTest>
#include <cmath>

#include "mlforml/progress.h"
#include "test_main.h"

using namespace tandem::mlforml;

namespace {
/// Hand-checkable set-up: 50 nodes x 8 GPUs x 1 sequence, Bnoise 3040 sequences; the loss
/// curve calibrated on a Static run of the same 50 nodes.
Params handParams() {
    Params p;
    p.foregroundNodes = 50;
    p.progress.staticNodes = 50;
    p.gpusPerNode = 8;
    p.microbatchSequences = 1;
    p.progress.criticalBatchSequences = 3040;
    return p;
}
}  // namespace

class TestProgress : public QObject {
    Q_OBJECT
private slots:
    void progressPerUpdate_data() {
        QTest::addColumn<int>("g");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<double>("expected");
        // B(GA4) = 4 * 1 * 50 * 8 = 1600 sequences, Bnoise = 3040 -> 1 / (1 + 1.9).
        QTest::newRow("GA4-BF16") << 4 << "BF16" << 1.0 / 2.9;
        QTest::newRow("GA16-BF16") << 16 << "BF16" << 1.0 / 1.475;
        QTest::newRow("GA4-MXFP4") << 4 << "MXFP4" << 1.0 / 2.9 / 1.3;
        QTest::newRow("GA16-MXFP4") << 16 << "MXFP4" << 1.0 / 1.475 / 1.3;
        // kappa_fp8 = 1.05 for FP8 and MXFP8; FP32 costs no progress.
        QTest::newRow("GA4-FP8") << 4 << "FP8" << 1.0 / 2.9 / 1.05;
        QTest::newRow("GA4-MXFP8") << 4 << "MXFP8" << 1.0 / 2.9 / 1.05;
        QTest::newRow("GA4-FP32") << 4 << "FP32" << 1.0 / 2.9;
    }
    void progressPerUpdate() {
        QFETCH(int, g);
        QFETCH(QString, precision);
        QFETCH(double, expected);
        Params p = handParams();
        ProgressCurve c(p);
        QVERIFY(std::fabs(c.progressPerUpdate(
                              {g, *enumFromName(precisionNames(), precision.toStdString())}) -
                          expected) < 1e-12);
    }

    void noiseInflationAlternative() {
        Params p = handParams();
        p.progress.precisionModel = PrecisionModel::NoiseInflation;
        p.progress.omegaMxfp4 = 0.5;
        ProgressCurve c(p);
        // 1 / (1 + 3040 * 1.5 / 1600)
        QVERIFY(std::fabs(c.progressPerUpdate({4, Precision::Mxfp4}) - 1.0 / (1.0 + 2.85)) < 1e-12);
        QVERIFY(std::fabs(c.progressPerUpdate({4, Precision::Bf16}) - 1.0 / 2.9) < 1e-12);
        // omega_fp8 = 0.1 for FP8 and MXFP8: 1 / (1 + 3040 * 1.1 / 1600); none for FP32.
        for (Precision fp8 : {Precision::Fp8, Precision::Mxfp8})
            QVERIFY(std::fabs(c.progressPerUpdate({4, fp8}) - 1.0 / (1.0 + 2.09)) < 1e-12);
        QVERIFY(std::fabs(c.progressPerUpdate({4, Precision::Fp32}) - 1.0 / 2.9) < 1e-12);
    }

    void staticReachesLMinAfterCalibratedUpdates() {
        Params p = handParams();
        ProgressCurve c(p);
        const double S = p.progress.staticUpdates / 2.9;
        QVERIFY(std::fabs(c.loss(S) - p.progress.lMin) < 1e-12);
        QVERIFY(c.loss(S * 0.5) > c.loss(S));  // decreasing
    }

    void largerForegroundNeedsFewerUpdates_data() {
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("staticNodes");
        QTest::addColumn<double>("updates");
        // Calibrated on 50 nodes (B = 1600, dS = 1/2.9): on 100 nodes B = 3200, dS = 1/1.95,
        // so Static reaches l_min after 10000 x 1.95 / 2.9 updates; on 25 nodes 10000 x 4.8/2.9.
        QTest::newRow("100 nodes") << 100 << 50 << 10000 * 1.95 / 2.9;
        QTest::newRow("25 nodes") << 25 << 50 << 10000 * 4.8 / 2.9;
        QTest::newRow("same nodes") << 50 << 50 << 10000.0;
        // static_nodes 0 renormalises the curve to the foreground: always static_updates.
        QTest::newRow("0 = own nodes") << 100 << 0 << 10000.0;
    }
    void largerForegroundNeedsFewerUpdates() {
        QFETCH(int, nodes);
        QFETCH(int, staticNodes);
        QFETCH(double, updates);
        Params p = handParams();
        p.foregroundNodes = nodes;
        p.progress.staticNodes = staticNodes;
        ProgressCurve c(p);
        const double S = c.progressForLoss(p.progress.lMin);
        QVERIFY2(
            std::fabs(S / c.progressPerUpdate({4, Precision::Bf16}) - updates) < 1e-6 * updates,
            qPrintable(QString::number(S / c.progressPerUpdate({4, Precision::Bf16}))));
    }

    void inverseRoundTrip() {
        Params p = handParams();
        ProgressCurve c(p);
        for (double L : {2.56, 2.6, 3.0})
            QVERIFY(std::fabs(c.loss(c.progressForLoss(L)) - L) < 1e-9);
        QVERIFY(std::isinf(c.progressForLoss(p.progress.lossFloor)));
        QVERIFY(std::isinf(c.progressForLoss(1.0)));
    }

    void largerBatchHelpsButNotProportionally() {
        Params p = handParams();
        ProgressCurve c(p);
        const double r =
            c.progressPerUpdate({16, Precision::Bf16}) / c.progressPerUpdate({4, Precision::Bf16});
        QVERIFY(r > 1.0);
        QVERIFY(r < 4.0);
        // More foreground nodes raise B and so the progress per update.
        Params q = p;
        q.foregroundNodes = 100;
        ProgressCurve c2(q);
        QVERIFY(c2.globalBatch(4) == 2 * c.globalBatch(4));
        QVERIFY(c2.progressPerUpdate({4, Precision::Bf16}) >
                c.progressPerUpdate({4, Precision::Bf16}));
    }
};

TANDEM_TEST_APPLESS_MAIN(TestProgress)
#include "tst_mlforml_progress.moc"
