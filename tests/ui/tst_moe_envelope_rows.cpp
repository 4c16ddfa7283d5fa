// The MoE workspace's side panel takes each box's range from the envelope field table
// (mosaic::envelopeFields()): every spin box that edits a `mosaic` key spans what the scenario
// reader accepts, rounded inward to its decimals, and its tooltip names the key, that range and
// the default's source. Sliders and combo boxes keep their own stops; their tooltips name the
// key too.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QSpinBox>
#include <QtTest>
#include <cmath>

#include "fabric/background_job.h"
#include "fabric/topology.h"
#include "mosaic/background.h"
#include "test_main.h"
#include "ui/mosaic/envelope_rows.h"
#include "ui/mosaic/moe_advanced.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/widgets/field_range.h"
#include "ui/widgets/labeled_slider.h"

using namespace tandem;
using namespace tandem::ui;

class TstMoeEnvelopeRows : public QObject {
    Q_OBJECT
private slots:
    void boxesSpanTheTableRanges() {
        MoeControls c;
        QMap<QString, QDoubleSpinBox*> byKey;
        for (QDoubleSpinBox* b : c.findChildren<QDoubleSpinBox*>()) {
            const QString key = b->property("mosaicKey").toString();
            QVERIFY2(!key.isEmpty(), qPrintable(b->toolTip()));  // every box edits a key
            byKey.insert(key, b);
        }
        QCOMPARE(byKey.keys(),
                 (QList<QString>{"compute_budget_flops", "goodput", "min_sparsity",
                                 "tokens_per_parameter_max", "tokens_per_parameter_min"}));
        for (auto it = byKey.begin(); it != byKey.end(); ++it) {
            const mosaic::EnvelopeField& f = mosaic::envelopeField(it.key().toStdString());
            AcceptedRange r = acceptedRange(f.range);
            QDoubleSpinBox* b = it.value();
            const double perBox = b->property("jsonPerBox").toDouble();
            if (std::isinf(r.hi)) r.hi = b->maximum() * perBox;  // the box's own upper end
            const auto [lo, hi] = boxRange(r, perBox, b->decimals());
            QCOMPARE(b->minimum(), lo);
            QCOMPARE(b->maximum(), hi);
            QVERIFY2(b->toolTip().contains(QStringLiteral("\nmosaic.%1 in ").arg(it.key())),
                     qPrintable(b->toolTip()));
            QVERIFY(b->toolTip().contains(QString::fromUtf8(f.source)));
        }
        // The readers' ranges as the boxes show them.
        QCOMPARE(byKey["goodput"]->minimum(), 0.01);  // (0, 1] at 2 decimals
        QCOMPARE(byKey["goodput"]->maximum(), 1.0);
        QCOMPARE(byKey["min_sparsity"]->maximum(), 0.999);  // [0, 1) at 3 decimals
        QCOMPARE(byKey["tokens_per_parameter_min"]->minimum(), 1.0);
        QCOMPARE(byKey["tokens_per_parameter_max"]->maximum(), 1e6);
        QCOMPARE(byKey["compute_budget_flops"]->minimum(), 0.0);
        QVERIFY(byKey["goodput"]->toolTip().endsWith(
            QStringLiteral("mosaic.goodput in (0, 1]; default: 2608.10605 Eq. 25.")));
    }

    void coRunningNodesIsTheJobTable() {
        MoeControls c;
        QSpinBox* b = c.coRunningNodesBox();
        QCOMPARE(b->property("backgroundJobKey").toString(), QStringLiteral("nodes"));
        QCOMPARE(b->minimum(), 1);
        QCOMPARE(b->maximum(), int(fabric::kMaxJobNodes));
        QVERIFY2(b->toolTip().contains(QStringLiteral("mosaic.background.job.nodes in [1, 16384] "
                                                      "nodes")),
                 qPrintable(b->toolTip()));
    }

    void coRunningSliderIsTheBackgroundTable() {
        // mosaic.background.jobs: an integer in [0, 1024]; the slider stops at what the fabric
        // holds (maxBackgroundJobs), never beyond what the reader accepts.
        MoeControls c;
        const mosaic::BackgroundField& jobs =
            tandem::field(mosaic::backgroundFields(), "jobs", "mosaic.background");
        QCOMPARE(jobs.range.min, 0.0);
        QCOMPARE(jobs.range.max, 1024.0);
        QVERIFY2(c.coRunningSlider()->toolTip().contains(
                     QStringLiteral("mosaic.background.jobs in [0, 1024] jobs; default: ")),
                 qPrintable(c.coRunningSlider()->toolTip()));
        mosaic::Envelope e;
        e.nodes = 64;
        e.background.emplace();
        c.setEnvelope(e);
        QSlider* s = c.coRunningSlider()->slider();
        QCOMPARE(s->minimum(), 0);
        QCOMPARE(s->maximum(), mosaic::maxBackgroundJobs(*e.background, e.nodes));
        QVERIFY(s->maximum() <= jobs.range.max);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, backgroundTooltip("no_such_key", {}));
    }

    void slidersAndCombosNameTheirKeys() {
        MoeControls c;
        QVERIFY(c.nodesSlider()->toolTip().contains(
            QStringLiteral("mosaic.nodes in [1, 100000] nodes")));
        QVERIFY(
            c.daysSlider()->toolTip().contains(QStringLiteral("mosaic.days in (0, 3650] days")));
        QVERIFY(c.batchCombo()->toolTip().contains(
            QStringLiteral("mosaic.global_batch_sequences in [1, 16777216] sequences")));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 envelopeTooltip(QStringLiteral("no_such_key"), QString()));
    }
};

TANDEM_TEST_MAIN(TstMoeEnvelopeRows)
#include "tst_moe_envelope_rows.moc"
