// Geometry counting (Table 9, Table 5), Eq. 10 (Table 4) and the compute-optimal solver (Fig. 8
// left) [arXiv:2608.10605].
#include <QtTest>
#include <cmath>

#include "mosaic/geometry.h"
#include "mosaic/scaling_law.h"
#include "test_main.h"

using namespace tandem::mosaic;

class TestMosaicLaw : public QObject {
    Q_OBJECT
private slots:
    void table9_data();
    void table9();
    void table5_data();
    void table5();
    void ladderDimensions();
    void eq10AtTable4();
    void extrapolationFlag();
    void computeOptimalFig8_data();
    void computeOptimalFig8();
    void computeOptimalIsBoundary();
    void badInputsGiveNaN();
    void tokensPerParameterIsDOverNAct();
};

void TestMosaicLaw::table9_data() {
    QTest::addColumn<int>("q");
    QTest::addColumn<double>("nTotB");
    QTest::addColumn<double>("nActB");
    QTest::addColumn<double>("s");
    QTest::newRow("q4") << 4 << 15.5 << 0.7 << 0.954;
    QTest::newRow("q6") << 6 << 53.2 << 2.3 << 0.957;
    QTest::newRow("q8") << 8 << 127.3 << 5.4 << 0.958;
    QTest::newRow("q10") << 10 << 250.0 << 10.4 << 0.958;
    QTest::newRow("q12") << 12 << 433.7 << 17.9 << 0.959;
    QTest::newRow("q14") << 14 << 690.5 << 28.2 << 0.959;
    QTest::newRow("q16") << 16 << 1032.8 << 41.9 << 0.959;
    QTest::newRow("q18") << 18 << 1472.8 << 59.5 << 0.960;
}

void TestMosaicLaw::table9() {
    QFETCH(int, q);
    QFETCH(double, nTotB);
    QFETCH(double, nActB);
    QFETCH(double, s);
    const Geometry g = ladderGeometry(q, 128, 3, 4);
    QVERIFY(std::abs(g.nTot / 1e9 / nTotB - 1) < 0.02);
    QVERIFY(std::abs(g.nAct / 1e9 - nActB) < 0.02 * nActB + 0.05);  // table rounds to 0.1 B
    QVERIFY(std::abs(g.sparsity - s) < 0.0015);
}

void TestMosaicLaw::table5_data() {
    QTest::addColumn<int>("q");
    QTest::addColumn<int>("e");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("sg");
    QTest::addColumn<double>("nActB");
    QTest::addColumn<double>("nTotB");
    QTest::addColumn<double>("s");
    QTest::newRow("id1") << 10 << 128 << 2 << 4 << 8.5 << 250.0 << 0.966;
    QTest::newRow("id2") << 10 << 128 << 2 << 8 << 5.6 << 126.4 << 0.956;
    QTest::newRow("id3") << 10 << 32 << 2 << 4 << 8.5 << 66.0 << 0.872;
    QTest::newRow("id4") << 8 << 32 << 2 << 2 << 7.3 << 65.8 << 0.889;
}

void TestMosaicLaw::table5() {
    QFETCH(int, q);
    QFETCH(int, e);
    QFETCH(int, k);
    QFETCH(int, sg);
    QFETCH(double, nActB);
    QFETCH(double, nTotB);
    QFETCH(double, s);
    const Geometry g = ladderGeometry(q, e, k, sg);
    QVERIFY(std::abs(g.nAct / 1e9 / nActB - 1) < 0.02);
    QVERIFY(std::abs(g.nTot / 1e9 / nTotB - 1) < 0.02);
    QVERIFY(std::abs(g.sparsity - s) < 0.002);
}

void TestMosaicLaw::ladderDimensions() {
    const Geometry g = ladderGeometry(12, 96, 2, 4);
    QCOMPARE(g.layers, 48);
    QCOMPARE(g.nHead, 48);
    QCOMPARE(g.dModel, 6144);
    QCOMPARE(g.dFf, 15360);
    QCOMPARE(g.dExpert, 3840);
    QCOMPARE(g.nKvHead, 8);
    QCOMPARE(g.denseLayers, 1);
    QCOMPARE(g.sharedExperts, 1);
    // By hand: attention 2 d^2 + 2 d (8 x 128) = 88,080,384; expert 3 d d_exp = 70,778,880.
    const double attn = 88080384.0, ex = 70778880.0, router = 6144.0 * 96;
    const double dense = attn + 3.0 * 6144 * 15360;
    QCOMPARE(g.nTot, dense + 47 * (attn + 97 * ex + router));
    QCOMPARE(g.nAct, dense + 47 * (attn + 3 * ex + router));
}

void TestMosaicLaw::eq10AtTable4() {
    const ScalingLaw law;
    const Geometry g = ladderGeometry(12, 96, 2, 4);
    QVERIFY(std::abs(g.nAct / 1e9 - 14.5) < 0.05);
    QVERIFY(std::abs(g.sparsity - 0.956) < 0.001);
    const double l = law.loss(g.nTot, g.sparsity, 1.42e12, 4);
    QVERIFY2(std::abs(l - 1.3898) < 0.002, qPrintable(QString::number(l, 'g', 8)));
    // Hand evaluation of each term at a round point.
    const double n = 1e10, d = 1e11, s = 0.9;
    const double byHand =
        8.462 * std::pow(n, -0.1048) + 88.32 * std::pow(d, -0.2070) +
        0.1828 * std::pow(0.1, -0.1249) +
        0.7123 / (std::pow(0.1, 0.5567) * std::pow(n, 0.1702) * std::pow(2.0, 0.9513)) + 0.3129;
    QCOMPARE(law.loss(n, s, d, 2), byHand);
}

void TestMosaicLaw::extrapolationFlag() {
    QVERIFY(!isExtrapolated(10e9, 0.9, 20e9, 4));
    QVERIFY(isExtrapolated(327e9, 0.956, 1.42e12, 4));  // Table 4: far beyond the fit
    QVERIFY(isExtrapolated(10e9, 0.985, 20e9, 4));
    QVERIFY(extrapolationNote(327e9, 0.9, 20e9, 4).find("N_tot") != std::string::npos);
    QVERIFY(extrapolationNote(10e9, 0.9, 20e9, 4).empty());
}

void TestMosaicLaw::computeOptimalFig8_data() {
    QTest::addColumn<double>("s");
    QTest::addColumn<int>("sg");
    QTest::addColumn<double>("nTotB");
    QTest::newRow("S0.649") << 0.649 << 4 << 16.0;
    QTest::newRow("S0.812") << 0.812 << 4 << 24.0;
    QTest::newRow("S0.904") << 0.904 << 4 << 39.0;
    QTest::newRow("S0.951") << 0.951 << 4 << 62.0;
    QTest::newRow("G1") << 0.958 << 1 << 98.0;
    QTest::newRow("G2") << 0.958 << 2 << 79.0;
    QTest::newRow("G4") << 0.958 << 4 << 70.0;
    QTest::newRow("G8") << 0.958 << 8 << 66.0;
}

void TestMosaicLaw::computeOptimalFig8() {
    QFETCH(double, s);
    QFETCH(int, sg);
    QFETCH(double, nTotB);
    const ScalingLaw law;
    const ComputeOptimum co = computeOptimum(law, 1e22, s, sg);
    QVERIFY2(std::abs(co.nTot / 1e9 / nTotB - 1) < 0.15,
             qPrintable(QString::number(co.nTot / 1e9)));
    QCOMPARE(6 * co.nAct * co.tokens, 1e22);
    // It is a minimum: 5 % either way in N_tot along the budget raises the loss.
    for (double f : {0.95, 1.05}) {
        const double n = co.nTot * f;
        QVERIFY(law.loss(n, s, 1e22 / (6 * (1 - s) * n), sg) > co.loss);
    }
}

void TestMosaicLaw::computeOptimalIsBoundary() {
    // L*(S) falls monotonically over the calibrated range [2608.10605 Sec. 6.1].
    const ScalingLaw law;
    double prev = 1e9;
    for (double s = 0.5; s <= 0.981; s += 0.01) {
        const double l = computeOptimum(law, 1e22, s, 4).loss;
        QVERIFY(l < prev);
        prev = l;
    }
}

void TestMosaicLaw::badInputsGiveNaN() {
    const ScalingLaw law;
    QVERIFY(std::isnan(law.loss(-1, 0.5, 1e9, 4)));
    QVERIFY(std::isnan(law.loss(1e9, 1.0, 1e9, 4)));
    QVERIFY(std::isnan(computeOptimum(law, 0, 0.5, 4).loss));
}

// Tokens per active parameter, D / N_act: Chinchilla's 1.4 T tokens on 70 B parameters is 20;
// 3.2 T tokens on a 2.6 B-active MoE is 1230.77 (the reports' tokens_per_parameter column).
void TestMosaicLaw::tokensPerParameterIsDOverNAct() {
    QCOMPARE(tokensPerParameter(1.4e12, 70e9), 20.0);
    QVERIFY(std::abs(tokensPerParameter(3.2e12, 2.6e9) - 1230.769) < 1e-3);
}

TANDEM_TEST_APPLESS_MAIN(TestMosaicLaw)
#include "tst_mosaic_law.moc"
