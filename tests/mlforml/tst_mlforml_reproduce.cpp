// `reproduce ml-for-ml`: every check id is present and inside its MODEL.md A6 band, except the
// rows in kOpen, which are reported as not reproducible (the paper's numbers contradict its own
// model; docs/MODEL-ML-FOR-ML.md section 6) and counted apart; the directional checks that
// stand in for them pass.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "mlforml/reproduce.h"
#include "test_main.h"

class TestReproduce : public QObject {
    Q_OBJECT
private slots:
    void checks() {
        const tandem::Report rep = tandem::mlforml::reproduceMlForMl();
        QCOMPARE(rep.paper, std::string("2608.06046"));
        QCOMPARE(rep.checks.size(), size_t(73));
        const std::set<std::string> kOpen = {
            "s2.knobga_over_joint.t1.005",   "s2.knobga_over_joint.t1.01",
            "s2.knobga_over_joint.t1.015",   "s2.knobga_over_joint.t1.02",
            "s2.static_over_joint.t1.005",   "s2.static_over_joint.t1.01",
            "s2.static_over_joint.t1.015",   "s2.static_over_joint.t1.02",
            "s2.joint_share_ga16_mxfp4.bg3", "s2.joint_share_ga16_mxfp4.bg4",
            "s2.joint_share_ga16_mxfp4.bg5",
        };
        std::set<std::string> ids;
        for (const auto& c : rep.checks) {
            ids.insert(c.id);
            QCOMPARE(c.status == tandem::CheckStatus::NotReproducible, kOpen.count(c.id) == 1);
            if (kOpen.count(c.id)) {
                QVERIFY(c.reason.find("section 6") != std::string::npos);
                QVERIFY(std::isfinite(c.tandemValue));  // Tandem's value is still shown
                continue;
            }
            QCOMPARE(c.status, tandem::CheckStatus::Pass);
            QVERIFY2(c.pass, qPrintable(QString("%1: %2 not in [%3, %4]")
                                            .arg(c.id.c_str())
                                            .arg(c.tandemValue)
                                            .arg(c.low)
                                            .arg(c.high)));
        }
        QCOMPARE(ids.size(), rep.checks.size());
        // Joint's GA16-MXFP4 share rises monotonically with a 55 % ceiling (MODEL.md A6): the
        // low bound of each level is the previous level's value; when that is above 55 the band
        // is empty, the check fails and its text says why (never a band like [80.28, 55] with no
        // explanation).
        double prev = -1;
        for (int k = 0; k <= 5; ++k) {
            const std::string id = "s2.joint_share_ga16_mxfp4.bg" + std::to_string(k);
            const auto it = std::find_if(rep.checks.begin(), rep.checks.end(),
                                         [&](const tandem::Check& c) { return c.id == id; });
            QVERIFY2(it != rep.checks.end(), id.c_str());
            if (k >= 1 && k <= 4) QCOMPARE(it->low, prev);
            if (k == 5) QCOMPARE(it->low, std::max(25.0, prev));
            const bool empty = it->low > it->high;
            QCOMPARE(it->quantity.find("band empty") != std::string::npos, empty);
            if (empty) QVERIFY(!it->pass);
            prev = it->tandemValue;
        }
        QCOMPARE(tandem::countStatus(rep, tandem::CheckStatus::Pass), 62);
        QCOMPARE(tandem::countStatus(rep, tandem::CheckStatus::Fail), 0);
        QCOMPARE(tandem::countStatus(rep, tandem::CheckStatus::NotReproducible), 11);
        // The corrected reading of [Sec. 3.3]: "slower by 4.4-4.9x and 5.3-6.3x" are ratios of
        // 5.4-5.9 and 6.3-7.3 (Joint is 6.3-7.3x faster than Static; Knob-GA 1.1-1.3x).
        for (const auto& c : rep.checks) {
            if (c.id.rfind("s2.knobga_over_joint.t", 0) == 0) QCOMPARE(c.paperValue, 5.65);
            if (c.id.rfind("s2.static_over_joint.t", 0) == 0) QCOMPARE(c.paperValue, 6.8);
        }
        // Directional checks: one per target for the slowest pair and the two floors, one for
        // the monotone share; each can fail (the floors are one-sided bands).
        for (const char* stem : {"s2.static_knobga_slowest.", "s2.static_over_joint_min2.",
                                 "s2.knobga_over_joint_min1.5."})
            for (const char* t : {"t1.005", "t1.01", "t1.015", "t1.02"})
                QVERIFY2(ids.count(std::string(stem) + t), stem);
        QVERIFY(ids.count("s2.joint_share_ga16_mxfp4.monotone"));
        QVERIFY(
            !tandem::makeCheck("x", "q", 2, 1.99, 2, std::numeric_limits<double>::infinity()).pass);
        QVERIFY(ids.count("s1.bf16_over_mxfp4_dp.N16"));
        QVERIFY(ids.count("s2.decoupled_share_ga16_mxfp4"));
    }
};

TANDEM_TEST_APPLESS_MAIN(TestReproduce)
#include "tst_mlforml_reproduce.moc"
