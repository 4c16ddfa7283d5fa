// The loss chart's model step (LossPlot) without a display: hand-built runs of three policies
// (two of them on one curve) and the time unit, coincidences, first crossings and axis extents
// they turn into [2608.06046 Fig. 2b].
#include <QtTest>
#include <cmath>

#include "test_main.h"
#include "ui/mlforml/loss_plot.h"

using namespace tandem;
using namespace tandem::ui;

namespace {

mlforml::PolicyRun run(const char* policy, std::vector<double> time_s, std::vector<double> loss,
                       std::vector<double> firstCrossing_s) {
    mlforml::PolicyRun r;
    r.policy = policy;
    r.time_s = std::move(time_s);
    for (size_t i = 0; i < r.time_s.size(); ++i) r.updates.push_back(double(10 * i));
    r.loss = std::move(loss);
    r.firstCrossing_s = std::move(firstCrossing_s);
    return r;
}

/// Static and Joint on one curve (3.0 .. 2.0 nats over 0 .. 600 s), Oracle faster (its last
/// point at 400 s). Targets 2.3 and 2.1 nats: Static and Joint cross them at 300 and 500 s,
/// Oracle at 200 and 300 s.
mlforml::PointResult point() {
    mlforml::PointResult p;
    const std::vector<double> t = {0, 100, 200, 300, 400, 500, 600};
    const std::vector<double> l = {3.0, 2.6, 2.4, 2.3, 2.2, 2.1, 2.0};
    p.policies.push_back(run("Static", t, l, {300, 500}));
    p.policies.push_back(run("Joint", t, l, {300, 500}));
    p.policies.push_back(
        run("Oracle", {0, 100, 200, 300, 400}, {3.0, 2.5, 2.3, 2.1, 1.9}, {200, 300}));
    return p;
}

const std::vector<double> kTargets = {2.3, 2.1};

}  // namespace

class TestLossPlot : public QObject {
    Q_OBJECT
private slots:
    /// Wall-clock axis: minutes (the latest first crossing, 500 s, is past 2 minutes), the x range
    /// cut at 1.15 x 500 s, Joint coinciding with Static, the markers on the selected target.
    void wallClock() {
        LossViewOptions o;
        o.targetIndex = 1;
        QCOMPARE(lossPlotUnitSeconds(point(), o), 500.0);
        const LossPlot plot = lossPlot(point(), kTargets, o, chooseTimeUnit(500), 0);
        QCOMPARE(plot.xDivisor, 60.0);
        QCOMPARE(plot.xUnitName, QStringLiteral("minutes"));
        QCOMPARE(plot.curves.size(), size_t(3));
        QCOMPARE(plot.sameAs, (QList<int>{-1, 0, -1}));
        QCOMPARE(plot.curves[1].leader, 0);
        QCOMPARE(plot.curves[1].memberIndex, 1);
        QCOMPARE(plot.curves[1].groupSize, 2);
        QCOMPARE(plot.curves[2].memberIndex, 0);
        QCOMPARE(plot.curves[0].points.size(), 7);
        QCOMPARE(plot.curves[0].points.back(), QPointF(10.0, 2.0));
        QVERIFY(plot.curves[0].firstCrossing);
        QCOMPARE(*plot.curves[0].firstCrossing, QPointF(500.0 / 60, 2.1));
        QCOMPARE(*plot.curves[2].firstCrossing, QPointF(5.0, 2.1));
        QCOMPARE(plot.xLo, 0.0);
        QCOMPARE(plot.xHi, 1.15 * 500 / 60);
        QCOMPARE(plot.yLo, 1.9 - 0.002);
        QCOMPARE(plot.yHi, 2.1 * 1.04);
    }

    /// Updates axis: x in updates, the marker at the first update at or after the crossing time;
    /// hiding Oracle leaves its curve out of the extents and the coincidences.
    void updatesAndHidden() {
        LossViewOptions o;
        o.updatesAxis = true;
        o.targetIndex = 0;
        o.hiddenPolicies = {QStringLiteral("Oracle")};
        const LossPlot plot = lossPlot(point(), kTargets, o, chooseTimeUnit(500), 0);
        QCOMPARE(plot.xDivisor, 1.0);
        QCOMPARE(plot.curves.size(), size_t(3));
        QVERIFY(plot.curves[2].hidden);
        QCOMPARE(plot.sameAs, (QList<int>{-1, 0, -1}));
        QCOMPARE(*plot.curves[0].firstCrossing, QPointF(30.0, 2.3));
        QCOMPARE(plot.xHi, 60.0);  // Static's last update; the updates axis is not cut
        // Hidden curves still count toward the y extent (as they are drawn: 1.9 nats).
        QCOMPARE(plot.yLo, 1.9 - 0.002);
    }

    /// The unit is the caller's: an hour unit for the same runs puts x in hours (the view holds
    /// its unit while a comparison is pinned); hiding every policy leaves no duration.
    void unitFromTheCaller() {
        LossViewOptions o;
        const LossPlot plot = lossPlot(point(), kTargets, o, chooseTimeUnit(5 * 3600), 0);
        QCOMPARE(plot.xDivisor, 3600.0);
        QCOMPARE(plot.xUnitName, QStringLiteral("hours"));
        QCOMPARE(plot.curves[0].points.back(), QPointF(600.0 / 3600, 2.0));
        QCOMPARE(plot.xHi, 1.15 * 500 / 3600);
        o.hiddenPolicies = {QStringLiteral("Static"), QStringLiteral("Joint"),
                            QStringLiteral("Oracle")};
        QCOMPARE(lossPlotUnitSeconds(point(), o), 0.0);
        o.hiddenPolicies = {QStringLiteral("Static"), QStringLiteral("Joint")};
        QCOMPARE(lossPlotUnitSeconds(point(), o), 300.0);  // Oracle's latest crossing
    }

    /// Logarithmic axis: points at x <= 0 dropped, the range starting at the first drawn x.
    void logAxis() {
        LossViewOptions o;
        o.logX = true;
        const LossPlot plot = lossPlot(point(), kTargets, o, chooseTimeUnit(500), 0);
        QCOMPARE(plot.curves[0].points.size(), 6);
        QCOMPARE(plot.curves[0].points.front().x(), 100.0 / 60);
        QCOMPARE(plot.xLo, 100.0 / 60);
    }
};

TANDEM_TEST_APPLESS_MAIN(TestLossPlot)
#include "tst_loss_plot.moc"
