// Pure helpers of the UI layer: decimation, time-weighted smoothing, display units, palette.
#include <QtTest>

#include <cmath>

#include <QSlider>
#include <QVBoxLayout>

#include "mlforml/network_controls.h"
#include "mosaic/moe_controls.h"
#include "widgets/control_rows.h"
#include "widgets/count_label.h"
#include "widgets/decimate.h"
#include "widgets/labeled_slider.h"
#include "widgets/palette.h"
#include "widgets/smoothing.h"
#include "widgets/units.h"

using namespace tandem::ui;

class TstUiHelpers : public QObject {
    Q_OBJECT
private slots:
    void decimateKeepsEndsAndPeaks() {
        QList<QPointF> pts;
        for (int i = 0; i < 10000; ++i) pts.append(QPointF(i, std::sin(i * 0.01)));
        pts[5000].setY(7.0);  // a single spike must survive
        const QList<QPointF> out = decimateMinMax(pts, 100);
        QVERIFY(out.size() <= 2 * 100 + 2 + 100);
        QVERIFY(out.size() >= 100);
        QCOMPARE(out.front(), pts.front());
        QCOMPARE(out.back(), pts.back());
        double maxY = -1;
        for (const QPointF& p : out) maxY = std::max(maxY, p.y());
        QCOMPARE(maxY, 7.0);
        for (qsizetype i = 1; i < out.size(); ++i) QVERIFY(out[i].x() >= out[i - 1].x());
    }
    void decimateSmallInputUnchanged() {
        const QList<QPointF> pts{{0, 1}, {1, 2}, {2, 3}};
        QCOMPARE(decimateMinMax(pts, 100), pts);
        QCOMPARE(decimateMinMax(pts, 0), pts);
    }
    void smoothingRespectsSpacing() {
        // A step from 0 to 1: after a gap of tau the EMA covers 1 - e^-1 of it, whatever the
        // number of samples before.
        const double tau = 2.0;
        const QList<QPointF> pts{{0, 0}, {0.1, 0}, {0.2, 0}, {2.2, 1}};
        const QList<QPointF> out = smoothTimeWeighted(pts, tau);
        QCOMPARE(out.size(), pts.size());
        QVERIFY(std::abs(out[3].y() - (1 - std::exp(-1.0))) < 1e-12);
        // Sampling a constant signal twice as densely changes nothing (time-consistent); a plain
        // EMA would move further with more samples.
        const QList<QPointF> twoSteps = smoothTimeWeighted({{0, 0}, {1.0, 1}, {2.0, 1}}, 2.0);
        const QList<QPointF> oneStep = smoothTimeWeighted({{0, 0}, {2.0, 1}}, 2.0);
        QVERIFY(std::abs(twoSteps.back().y() - oneStep.back().y()) < 1e-12);
        QCOMPARE(smoothTimeWeighted(pts, 0), pts);
    }
    void timeUnits_data() {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("divisor");
        QTest::newRow("seconds") << 90.0 << 1.0;
        QTest::newRow("minutes") << 3000.0 << 60.0;
        QTest::newRow("hours") << 20000.0 << 3600.0;
    }
    void timeUnits() {
        QFETCH(double, seconds);
        QFETCH(double, divisor);
        QCOMPARE(chooseTimeUnit(seconds).divisor, divisor);
    }
    void formatting() {
        QCOMPARE(formatDuration(5400), QStringLiteral("90.0 min"));
        QCOMPARE(formatDuration(NAN), QStringLiteral("not reached"));
        QCOMPARE(formatRatio(1.4249), QStringLiteral("x1.42"));
    }
    void fixedPolicyColours() {
        const QStringList policies{"Static", "Knob-Precision", "Knob-GA", "Decoupled", "Joint", "Oracle"};
        QSet<QRgb> seen;
        for (const QString& p : policies) seen.insert(policyColor(p).rgb());
        QCOMPARE(seen.size(), policies.size());
        QCOMPARE(policyColor("Joint"), QColor(0x00, 0x72, 0xB2));  // Okabe-Ito blue
        QCOMPARE(comboColor("GA16-MXFP4"), comboColor("GA16-MXFP4"));
    }
    void countLabelPicksTheNoun_data() {
        QTest::addColumn<qint64>("count");
        QTest::addColumn<QString>("singular");
        QTest::addColumn<QString>("plural");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one node") << qint64(1) << "node" << "nodes" << "1 node";
        QTest::newRow("one day") << qint64(1) << "day" << "days" << "1 day";
        QTest::newRow("one job") << qint64(1) << "job" << "jobs" << "1 job";
        QTest::newRow("one GPU") << qint64(1) << "GPU" << "GPUs" << "1 GPU";
        QTest::newRow("zero jobs") << qint64(0) << "job" << "jobs" << "0 jobs";
        QTest::newRow("two nodes") << qint64(2) << "node" << "nodes" << "2 nodes";
        QTest::newRow("eleven days") << qint64(11) << "day" << "days" << "11 days";
        QTest::newRow("twenty-one GPUs") << qint64(21) << "GPU" << "GPUs" << "21 GPUs";
        QTest::newRow("irregular plural") << qint64(3) << "geometry" << "geometries" << "3 geometries";
        QTest::newRow("minus one") << qint64(-1) << "day" << "days" << "-1 day";
    }
    void countLabelPicksTheNoun() {
        QFETCH(qint64, count);
        QFETCH(QString, singular);
        QFETCH(QString, plural);
        QFETCH(QString, expected);
        QCOMPARE(countLabel(count, singular, plural), expected);
    }
    /// A counted slider row reads "1 node" at 1 and "2 nodes" at 2, whether set silently or dragged.
    void countSliderFollowsItsValue() {
        QWidget panel;
        auto* layout = new QVBoxLayout(&panel);
        LabeledSlider* s = addCountSlider(
            layout, {QStringLiteral("testSlider"), QStringLiteral("Nodes"), QStringLiteral("node"),
                     QStringLiteral("nodes"), 1, 8, QStringLiteral("tooltip")},
            &panel);
        QCOMPARE(s->objectName(), QStringLiteral("testSlider"));
        QCOMPARE(layout->indexOf(s), 0);
        QCOMPARE(s->valueText(), QStringLiteral("1 node"));
        s->setValueSilently(2);
        QCOMPARE(s->valueText(), QStringLiteral("2 nodes"));
        s->slider()->setValue(1);
        QCOMPARE(s->value(), 1);
        QCOMPARE(s->valueText(), QStringLiteral("1 node"));
        LabeledSlider percent(QStringLiteral("Smoothing"), QStringLiteral("%1 %"), 0, 95, 5, QString());
        percent.setValueSilently(35);
        QCOMPARE(percent.valueText(), QStringLiteral("35 %"));
    }
    /// Every counted slider of both side panels says "1 node", "1 day", "1 job" at one.
    void sidePanelSlidersUseTheSingularAtOne() {
        MoeControls moe;
        NetworkControls net;
        moe.nodesSlider()->setValueSilently(1);
        moe.daysSlider()->setValueSilently(1);
        net.nodesSlider()->setValueSilently(1);
        net.backgroundSlider()->setValueSilently(1);
        QCOMPARE(moe.nodesSlider()->valueText(), QStringLiteral("1 node"));
        QCOMPARE(moe.daysSlider()->valueText(), QStringLiteral("1 day"));
        QCOMPARE(net.nodesSlider()->valueText(), QStringLiteral("1 node"));
        QCOMPARE(net.backgroundSlider()->valueText(), QStringLiteral("1 job"));
        moe.nodesSlider()->setValueSilently(32);
        moe.daysSlider()->setValueSilently(20);
        net.backgroundSlider()->setValueSilently(0);
        QCOMPARE(moe.nodesSlider()->valueText(), QStringLiteral("32 nodes"));
        QCOMPARE(moe.daysSlider()->valueText(), QStringLiteral("20 days"));
        QCOMPARE(net.backgroundSlider()->valueText(), QStringLiteral("0 jobs"));
        QCOMPARE(moe.findChild<LabeledSlider*>(QStringLiteral("moeDaysSlider")), moe.daysSlider());
        QCOMPARE(net.findChild<LabeledSlider*>(QStringLiteral("backgroundSlider")), net.backgroundSlider());
    }
};

QTEST_MAIN(TstUiHelpers)
#include "tst_ui_helpers.moc"
