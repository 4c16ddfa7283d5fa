// The network workspace's side panel takes each ML-for-ML input's range from the ml_for_ml field
// table (mlforml::paramFields()): every spin box that edits a table key spans exactly what the
// scenario reader accepts, converted to the box's unit and rounded inward to its decimals; its
// tooltip names the key, that range and the default's source. Sliders widen to any loaded value
// (never clamp), so for them the test checks that the slider span stays inside the accepted range.
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSlider>
#include <QtTest>
#include <cmath>
#include <stdexcept>

#include "fabric/topology.h"
#include "test_main.h"
#include "ui/mlforml/fabric_controls.h"
#include "ui/mlforml/network_advanced.h"
#include "ui/mlforml/network_controls.h"
#include "ui/mlforml/param_rows.h"
#include "ui/widgets/collapsible_section.h"
#include "ui/widgets/labeled_slider.h"
#include "ui/widgets/number_spin_box.h"

using namespace tandem::ui;
using tandem::mlforml::Params;

namespace {
std::pair<double, double> boxSpan(const QDoubleSpinBox* b) { return {b->minimum(), b->maximum()}; }
/// The spin boxes of the panel that are not the fabric rows (those edit the topology object).
QList<QAbstractSpinBox*> panelBoxes(NetworkControls& c) {
    QList<QAbstractSpinBox*> out;
    const QList<QAbstractSpinBox*> all = c.findChildren<QAbstractSpinBox*>();
    // The sliders' number boxes (LabeledSlider::addNumberBox) are the sliders' values, not keys.
    for (QAbstractSpinBox* b : all)
        if (!c.fabricControls()->isAncestorOf(b) && !qobject_cast<LabeledSlider*>(b->parent()))
            out.append(b);
    return out;
}
/// The panel's ml_for_ml rows by key.
QMap<QString, QDoubleSpinBox*> boxesByKey(NetworkControls& c) {
    QMap<QString, QDoubleSpinBox*> out;
    for (QAbstractSpinBox* b : panelBoxes(c))
        out.insert(b->property("mlForMlKey").toString(), qobject_cast<QDoubleSpinBox*>(b));
    return out;
}
}  // namespace

class TstParamRows : public QObject {
    Q_OBJECT
private slots:
    void acceptedRangeJoinsRangeAndBounds() {
        // foreground_nodes: Range [1, 16384], no further bounds.
        AcceptedRange r = acceptedRange(mlForMlField(QStringLiteral("foreground_nodes")));
        QCOMPARE(r.lo, 1.0);
        QCOMPARE(r.hi, 16384.0);
        QVERIFY(!r.loOpen && !r.hiOpen);
        // history_window_s: Range > 0, at least 1e-3 s, at most 1e9 s -> [1e-3, 1e9].
        r = acceptedRange(mlForMlField(QStringLiteral("history_window_s")));
        QCOMPARE(r.lo, 1e-3);
        QCOMPARE(r.hi, 1e9);
        QVERIFY(!r.loOpen && !r.hiOpen);
        // fabric_GBps: > 0 (0 refused), at least 1e-3, at most 1e9 -> [1e-3, 1e9].
        r = acceptedRange(mlForMlField(QStringLiteral("fabric_GBps")));
        QCOMPARE(r.lo, 1e-3);
        QCOMPARE(r.hi, 1e9);
        QVERIFY(!r.loOpen);
        // cc_efficiency: (0, 1].
        r = acceptedRange(mlForMlField(QStringLiteral("cc_efficiency")));
        QCOMPARE(r.lo, 0.0);
        QCOMPARE(r.hi, 1.0);
        QVERIFY(r.loOpen && !r.hiOpen);
        // A nested key.
        r = acceptedRange(mlForMlField(QStringLiteral("progress.kappa_mxfp4")));
        QCOMPARE(r.lo, 1e-3);
        QCOMPARE(r.hi, 1e3);
    }
    void unknownKeyThrows() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 mlForMlField(QStringLiteral("no_such_key")));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 mlForMlField(QStringLiteral("nodes")));  // needs its section
    }
    void boxRangeRoundsInward() {
        using P = std::pair<double, double>;
        QCOMPARE(boxRange({0, 1, true, false}, 1, 2), P(0.01, 1));
        QCOMPARE(boxRange({1e-3, 3.6e6, false, false}, 1, 1), P(0.1, 3.6e6));
        QCOMPARE(boxRange({1, 1e13, false, false}, 1e6, 0), P(1, 1e7));  // values shown in millions
        QCOMPARE(boxRange({0, 5, true, true}, 1, 0), P(1, 4));
        QCOMPARE(boxRange({0.25, 2.75, false, false}, 1, 1), P(0.3, 2.7));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 boxRange({0, INFINITY, false, false}, 1, 0));
    }
    void everyPanelBoxSpansTheTableRange() {
        NetworkControls c;
        const QList<QAbstractSpinBox*> boxes = panelBoxes(c);
        // 16 advanced inputs, fabric and NIC; a new box without a table key fails here.
        QCOMPARE(boxes.size(), 18);
        for (QAbstractSpinBox* box : boxes) {
            const QString key = box->property("mlForMlKey").toString();
            QVERIFY2(!key.isEmpty(), qPrintable(box->toolTip()));
            auto* b = qobject_cast<QDoubleSpinBox*>(box);
            QVERIFY(b);
            const AcceptedRange r = acceptedRange(mlForMlField(key));
            const double per = b->property("jsonPerBox").toDouble();
            const double res = std::pow(10.0, -b->decimals());
            const double lo = r.lo / per, hi = r.hi / per;
            const auto [min, max] = boxSpan(b);
            const QString what = QStringLiteral("%1: box [%2, %3], table [%4, %5] / %6")
                                     .arg(key)
                                     .arg(min, 0, 'g', 17)
                                     .arg(max, 0, 'g', 17)
                                     .arg(r.lo, 0, 'g', 17)
                                     .arg(r.hi, 0, 'g', 17)
                                     .arg(per);
            // Inside the accepted range, and the closest value the box can show to each end.
            QVERIFY2(r.loOpen ? min > lo : min >= lo * (1 - 1e-12), qPrintable(what));
            QVERIFY2(min - lo <= res * (1 + 1e-9), qPrintable(what));
            QVERIFY2(r.hiOpen ? max < hi : max <= hi * (1 + 1e-12), qPrintable(what));
            QVERIFY2(hi - max <= res * (1 + 1e-9), qPrintable(what));
            QVERIFY2(
                b->toolTip().contains(QStringLiteral("ml_for_ml.") + key + QStringLiteral(" in ")),
                qPrintable(b->toolTip()));
        }
    }
    void handPickedRows() {
        NetworkControls c;
        const QMap<QString, QDoubleSpinBox*> byKey = boxesByKey(c);
        using P = std::pair<double, double>;
        QCOMPARE(boxSpan(byKey.value(QStringLiteral("background_job.nodes"))), P(1, 16384));
        QCOMPARE(boxSpan(byKey.value(QStringLiteral("max_background_jobs"))), P(0, 64));
        QCOMPARE(boxSpan(byKey.value(QStringLiteral("cc_efficiency"))), P(0.01, 1));
        QCOMPARE(boxSpan(byKey.value(QStringLiteral("foreground_parameters"))),
                 P(1, 1e7));  // millions
        QCOMPARE(boxSpan(byKey.value(QStringLiteral("progress.kappa_mxfp4"))), P(0.001, 1000));
        QCOMPARE(boxSpan(byKey.value(QStringLiteral("fabric_GBps"))), P(1, 1e9));  // whole GB/s
        QCOMPARE(boxSpan(byKey.value(QStringLiteral("seed"))), P(0, 9007199254740991.0));
        const QString tip = byKey.value(QStringLiteral("background_job.nodes"))->toolTip();
        QVERIFY2(tip.endsWith(QStringLiteral(
                     "\nml_for_ml.background_job.nodes in [1, 16384] nodes; default: "
                     "2608.06046 Sec. 3.2.")),
                 qPrintable(tip));
        QVERIFY(byKey.value(QStringLiteral("cc_efficiency"))
                    ->toolTip()
                    .contains(QStringLiteral(" in (0, 1];")));
    }
    void largeLoadedValuesAreShownUnclamped() {
        // Values the reader accepts but the old hard-coded ranges cut: 16384 nodes per background
        // job, a seed above 1e6, a critical batch of 1e8 sequences.
        NetworkControls c;
        Params p;
        p.backgroundJob.nodes = 16384;
        p.seed = 123456789012ULL;
        p.progress.criticalBatchSequences = 1e8;
        c.setParams(p, 0);
        Params back;
        back.backgroundJob.nodes = 1;
        c.applyTo(back);  // nothing edited: loaded values are not written back
        QCOMPARE(back.backgroundJob.nodes, 1);
        const QMap<QString, QDoubleSpinBox*> byKey = boxesByKey(c);
        QCOMPARE(byKey.value(QStringLiteral("background_job.nodes"))->value(), 16384.0);
        QCOMPARE(byKey.value(QStringLiteral("seed"))->value(), 123456789012.0);
        QCOMPARE(byKey.value(QStringLiteral("progress.critical_batch_sequences"))->value(), 1e8);
    }
    void editedRowsAreWrittenThroughTheTable() {
        // One conversion per key: a box in ms, one in millions of values, one integer count.
        NetworkControls c;
        Params p;
        c.setParams(p, 0);
        const QMap<QString, QDoubleSpinBox*> byKey = boxesByKey(c);
        byKey.value(QStringLiteral("background_job.compute_ms"))->setValue(12.5);
        byKey.value(QStringLiteral("foreground_parameters"))->setValue(774);
        byKey.value(QStringLiteral("background_job.nodes"))->setValue(40);
        byKey.value(QStringLiteral("fabric_GBps"))->setValue(250);
        Params back = p;
        back.nicBytesPerS = 1;  // not edited: stays
        back.progress.kappaMxfp4 = 2.5;
        c.applyTo(back);
        QCOMPARE(back.backgroundJob.compute_s, 0.0125);
        QCOMPARE(back.foregroundParameters, 7.74e8);
        QCOMPARE(back.backgroundJob.nodes, 40);
        QCOMPARE(back.fabricBytesPerS, 2.5e11);
        QCOMPARE(back.nicBytesPerS, 1.0);
        QCOMPARE(back.progress.kappaMxfp4, 2.5);
        // Shown from Params in box units: 2.81 GB, 59.3 ms.
        p.backgroundJob.gradientBytes = 2.81e9;
        p.microbatchCompute_s = 0.0593;
        c.setParams(p, 0);
        QCOMPARE(byKey.value(QStringLiteral("background_job.gradient_GB"))->value(), 2.81);
        QCOMPARE(byKey.value(QStringLiteral("microbatch_compute_ms"))->value(), 59.3);
    }
    /// The Fabric box (1 to 1e9 GB/s) refuses 2e9 with its range written in full: "1,000,000,000
    /// GB/s", not "1e+09 GB/s".
    void fabricRefusalWritesItsRangeInFull() {
        NetworkControls c;
        c.setParams(Params{}, 0);
        auto* box =
            qobject_cast<NumberSpinBox*>(boxesByKey(c).value(QStringLiteral("fabric_GBps")));
        QVERIFY(box);
        box->setValue(250);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        box->setFocus();
        QLineEdit* edit = box->findChild<QLineEdit*>();
        QVERIFY(edit);
        edit->selectAll();
        QTest::keyClicks(edit, QStringLiteral("2e9"));
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(box->value(), 250.0);
        QCOMPARE(box->refusal(),
                 QStringLiteral("Fabric: 2e9 is above the maximum 1,000,000,000 (accepted: 1 to "
                                "1,000,000,000 GB/s); the value stays 250 GB/s"));
    }
    void slidersStayInsideTheTableRange() {
        NetworkControls c;
        const AcceptedRange nodes = acceptedRange(mlForMlField(QStringLiteral("foreground_nodes")));
        const std::vector<double>& stops = c.nodesSlider()->stops();
        QVERIFY(!stops.empty());
        QVERIFY(stops.front() >= nodes.lo && stops.back() <= nodes.hi);
        // background_jobs entries: [0, 1000].
        const tandem::Range jobs = mlForMlField(QStringLiteral("background_jobs")).range;
        QSlider* n = c.backgroundSlider()->slider();
        QVERIFY(n->minimum() >= jobs.min && n->maximum() <= jobs.max);
    }
    void slidersNameTheirKeys() {
        NetworkControls c;
        QVERIFY2(c.nodesSlider()->toolTip().contains(
                     QStringLiteral("ml_for_ml.foreground_nodes in [1, 16384] nodes; default: ")),
                 qPrintable(c.nodesSlider()->toolTip()));
        QVERIFY2(c.backgroundSlider()->toolTip().contains(
                     QStringLiteral("ml_for_ml.background_jobs in [0, 1000] jobs; default: ")),
                 qPrintable(c.backgroundSlider()->toolTip()));
    }
    void fabricRowsAreTheTopologyAndPlacementTables() {
        using namespace tandem::fabric;
        using P = std::pair<double, double>;
        FabricControls f;
        // Topology: one item per word of the preset row, in its order; the tooltip lists them.
        const TopologyField& preset =
            tandem::field(topologyFields(), "preset", "ml_for_ml.topology");
        QCOMPARE(preset.words, topologyPresetNames());
        QCOMPARE(f.topologyBox()->count(), int(preset.words.size()));
        for (int i = 0; i < f.topologyBox()->count(); ++i)
            QCOMPARE(f.topologyBox()->itemData(i).toString().toStdString(),
                     preset.words[size_t(i)]);
        QVERIFY2(f.topologyBox()->toolTip().contains(
                     QStringLiteral("ml_for_ml.topology.preset: one of paper-fabric, leaf-spine, "
                                    "leaf-spine-2to1, leaf-spine-4to1, rail-optimised or "
                                    "nvl72; default: ")),
                 qPrintable(f.topologyBox()->toolTip()));
        // Oversubscription: the row's [1, 64] at the box's one decimal.
        const TopologyField& ratio =
            tandem::field(topologyFields(), "oversubscription", "ml_for_ml.topology");
        QCOMPARE(boxSpan(f.oversubscriptionBox()), boxRange(acceptedRange(ratio.range), 1, 1));
        QCOMPARE(boxSpan(f.oversubscriptionBox()), P(1, 64));
        QVERIFY(f.oversubscriptionBox()
                    ->property("baseToolTip")
                    .toString()
                    .contains(QStringLiteral(
                        "ml_for_ml.topology.oversubscription in [1, 64]; default: ")));
        // Placement: every policy of the row but "explicit" (offered when a file lists nodes).
        const std::pair<QComboBox*, const char*> placements[] = {
            {f.foregroundPlacementBox(), "foreground"}, {f.backgroundPlacementBox(), "background"}};
        for (const auto& [box, key] : placements) {
            const PlacementField& row =
                tandem::field(placementFields(), key, "ml_for_ml.placement");
            QStringList want;
            for (const std::string& w : row.words)
                if (w != "explicit") want << QString::fromStdString(w);
            QStringList got;
            for (int i = 0; i < box->count(); ++i) got << box->itemData(i).toString();
            QCOMPARE(got, want);
            QVERIFY(box->property("baseToolTip")
                        .toString()
                        .contains(QStringLiteral("ml_for_ml.placement.%1: one of packed, spread, "
                                                 "random or explicit; default: ")
                                      .arg(QLatin1String(key))));
        }
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            tandem::field(topologyFields(), "no_such_key", "ml_for_ml.topology"));
    }
    void fabricRowsWriteThroughTheTables() {
        FabricControls f;
        Params p;
        p.topology = {};
        QVERIFY(tandem::fabric::topologyPreset("leaf-spine-4to1", p.topology));
        f.setParams(p);
        QVERIFY(f.oversubscriptionBox()->isEnabled());
        f.foregroundPlacementBox()->setCurrentIndex(
            f.foregroundPlacementBox()->findData(QStringLiteral("spread")));
        Params back = p;
        f.applyTo(back);
        QCOMPARE(back.placement.foreground, tandem::fabric::PlacementPolicy::Spread);
        QCOMPARE(back.placement.background, p.placement.background);
        // On the shared paper fabric the rows are disabled with the reason first.
        QVERIFY(tandem::fabric::topologyPreset("paper-fabric", p.topology));
        f.setParams(p);
        QVERIFY(!f.oversubscriptionBox()->isEnabled());
        QVERIFY(f.oversubscriptionBox()->toolTip().startsWith(QStringLiteral("Disabled: ")));
        QVERIFY(f.oversubscriptionBox()->toolTip().contains(
            QStringLiteral("ml_for_ml.topology.oversubscription in [1, 64]")));
    }
    void panelFitsItsColumn() {
        // The side column is 290 px wide (layOutWorkspace); with Advanced open the panel's minimum
        // width stays below it although ranges reach 1e9 (fabric) and 2^53 - 1 (seed).
        NetworkControls c;
        c.advanced()->section()->setExpanded(true);
        c.show();
        QCoreApplication::processEvents();
        QVERIFY2(c.minimumSizeHint().width() < 290,
                 qPrintable(QString::number(c.minimumSizeHint().width())));
    }
    void disabledReasonKeepsTheBaseTooltip() {
        QWidget w;
        w.setToolTip(QStringLiteral("Base text.\nSecond line."));
        setDisabledReason(&w, QStringLiteral("no reason to edit it"));
        QVERIFY(!w.isEnabled());
        QCOMPARE(w.toolTip(),
                 QStringLiteral("Disabled: no reason to edit it.\nBase text.\nSecond line."));
        setDisabledReason(&w, QStringLiteral("another"));
        QCOMPARE(w.toolTip(), QStringLiteral("Disabled: another.\nBase text.\nSecond line."));
        setDisabledReason(&w, QString());
        QVERIFY(w.isEnabled());
        QCOMPARE(w.toolTip(), QStringLiteral("Base text.\nSecond line."));
    }
};

TANDEM_TEST_MAIN(TstParamRows)
#include "tst_param_rows.moc"
