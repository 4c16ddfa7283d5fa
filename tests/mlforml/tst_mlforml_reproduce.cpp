// `reproduce ml-for-ml`: every check id of issue 3 is present and inside its MODEL.md A6 band,
// except the ones listed in kOpen (still outside; see docs/MODEL-ML-FOR-ML.md).
#include <QtTest>

#include <algorithm>
#include <set>

#include "mlforml/reproduce.h"

class TestReproduce : public QObject {
    Q_OBJECT
private slots:
    void checks() {
        const tandem::Report rep = tandem::mlforml::reproduceMlForMl();
        QCOMPARE(rep.paper, std::string("2608.06046"));
        QCOMPARE(rep.checks.size(), size_t(60));
        const std::set<std::string> kOpen = {
            "s2.knobga_over_joint.t1.005",
            "s2.knobga_over_joint.t1.01",
            "s2.knobga_over_joint.t1.015",
            "s2.knobga_over_joint.t1.02",
            "s2.static_over_joint.t1.005",
            "s2.static_over_joint.t1.01",
            "s2.static_over_joint.t1.015",
            "s2.static_over_joint.t1.02",
            "s2.joint_share_ga16_mxfp4.bg3",
            "s2.joint_share_ga16_mxfp4.bg4",
            "s2.joint_share_ga16_mxfp4.bg5",
        };
        std::set<std::string> ids;
        for (const auto& c : rep.checks) {
            ids.insert(c.id);
            if (kOpen.count(c.id)) continue;
            QVERIFY2(c.pass, qPrintable(QString("%1: %2 not in [%3, %4]")
                                            .arg(c.id.c_str()).arg(c.tandemValue)
                                            .arg(c.low).arg(c.high)));
        }
        QCOMPARE(ids.size(), rep.checks.size());
        // Joint's GA16-MXFP4 share rises monotonically with a 55 % ceiling (MODEL.md A6): the
        // low bound of each level is the previous level's value; when that is above 55 the band
        // is empty, the check fails and its text says why (a band like [80.28, 55] unexplained
        // was the finding).
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
        QVERIFY(ids.count("s1.bf16_over_mxfp4_dp.N16"));
        QVERIFY(ids.count("s2.decoupled_share_ga16_mxfp4"));
    }
};

QTEST_APPLESS_MAIN(TestReproduce)
#include "tst_mlforml_reproduce.moc"
