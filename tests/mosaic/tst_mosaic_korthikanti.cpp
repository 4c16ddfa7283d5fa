// Korthikanti et al. 2022 (arXiv:2205.05198) against the megatron-lm-2022 stack on dgx-a100:
// Fig. 1 per-GPU memory within +-10 % (baseline without sequence parallelism included), Table 5
// iteration times within +-10 %, the stored constants the fit's optimum, each model's times
// predicted by a fit to the other three models within +-10 %, the memory of points by hand from
// the paper's Sec. 4 formulas, the 2-matrix GeLU FFN, and the CSV parser's errors.
#include <QtTest>
#include <cmath>

#include "common/diagnostics.h"
#include "mosaic/geometry.h"
#include "mosaic/hardware.h"
#include "mosaic/korthikanti.h"
#include "mosaic/reality.h"
#include "test_main.h"

using namespace tandem::mosaic;

namespace {

const KorthikantiResult* find(const std::vector<KorthikantiResult>& rs, const std::string& id) {
    for (const auto& r : rs)
        if (r.point.point == id) return &r;
    return nullptr;
}

const std::vector<KorthikantiResult>& results() {
    static const std::vector<KorthikantiResult> r = costKorthikantiPoints();
    return r;
}

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

}  // namespace

class TestMosaicKorthikanti : public QObject {
    Q_OBJECT
private slots:
    void shippedPoints() {
        const auto& pts = shippedKorthikantiPoints();
        QCOMPARE(int(pts.size()), 24);
        int fig1 = 0, table5 = 0;
        for (const auto& p : pts) (p.point.rfind("fig1.", 0) == 0 ? fig1 : table5)++;
        QCOMPARE(fig1, 16);
        QCOMPARE(table5, 8);
        // Each point's unit fits its quantity: GiB for memory, s for the iteration time.
        for (const auto& p : pts)
            QVERIFY(p.unit == (p.quantity == KorthikantiQuantity::IterationTime
                                   ? KorthikantiUnit::Seconds
                                   : KorthikantiUnit::GiB));
    }

    void unitNamesRoundTrip() {
        QCOMPARE(tandem::enumNames(korthikantiUnitNames()), (std::vector<std::string>{"GiB", "s"}));
        for (const auto& e : korthikantiUnitNames())
            QVERIFY(tandem::enumFromName(korthikantiUnitNames(), e.name) == e.value);
        QVERIFY(!tandem::enumFromName(korthikantiUnitNames(), "GB"));
        QVERIFY(!tandem::enumFromName(korthikantiUnitNames(), "gib"));
    }

    void gptGeometry() {
        // GPT-3 175B: 12 h^2 L non-embedding parameters (4 h^2 attention + 8 h^2 GeLU MLP).
        KorthikantiPoint p;
        p.layers = 96;
        p.hidden = 12288;
        p.heads = 96;
        p.ffn = 4 * 12288;
        p.vocab = 51200;
        const Geometry g = korthikantiGeometry(p);
        QCOMPARE(g.denseFfnMatrices, 2);
        QCOMPARE(denseFfnParams(g), 2.0 * 12288 * 4 * 12288);
        QCOMPARE(g.nAct, 12.0 * 12288.0 * 12288.0 * 96);
        QCOMPARE(g.nTot, g.nAct);
    }

    void fig1_data() {
        QTest::addColumn<QString>("id");
        for (const auto& p : shippedKorthikantiPoints())
            if (p.point.rfind("fig1.", 0) == 0)
                QTest::newRow(p.point.c_str()) << QString::fromStdString(p.point);
    }
    void fig1() {
        QFETCH(QString, id);
        const KorthikantiResult* r = find(results(), id.toStdString());
        QVERIFY(r);
        QVERIFY(r->expressible);
        QVERIFY2(
            std::fabs(r->tandem / r->point.value - 1) <= 0.10,
            qPrintable(QString("paper %1 GiB, Tandem %2 GiB").arg(r->point.value).arg(r->tandem)));
    }

    void table5_data() {
        QTest::addColumn<QString>("id");
        for (const auto& p : shippedKorthikantiPoints())
            if (p.point.rfind("table5.", 0) == 0)
                QTest::newRow(p.point.c_str()) << QString::fromStdString(p.point);
    }
    void table5() {
        QFETCH(QString, id);
        const KorthikantiResult* r = find(results(), id.toStdString());
        QVERIFY(r && r->expressible && r->eval.feasible);
        QVERIFY2(std::fabs(r->tandem / r->point.value - 1) <= 0.10,
                 qPrintable(QString("paper %1 s, Tandem %2 s").arg(r->point.value).arg(r->tandem)));
    }

    void fitIsStored() {
        // The stored megatron-lm-2022 constants are the fit's optimum from its fixed start.
        const StackFit fit = fitStackToKorthikanti(megatronLm2022FitStart());
        const Stack stored = megatronLm2022Stack();
        const auto& params = megatronLm2022FitParameters();
        QCOMPARE(fit.values.size(), params.size());
        Stack copy = stored;
        for (size_t i = 0; i < params.size(); ++i)
            QVERIFY2(std::fabs(params[i].ref(copy) - fit.values[i]) <=
                         1e-3 * std::max(1.0, std::fabs(fit.values[i])),
                     params[i].name);
        QVERIFY(korthikantiFitObjective(stored) <= fit.objective * 1.001 + 1e-9);
    }

    void leaveOneModelOut_data() {
        QTest::addColumn<QString>("model");
        for (const char* m : {"22B", "175B", "530B", "1T"}) QTest::newRow(m) << QString(m);
    }
    void leaveOneModelOut() {
        // Fit the three constants to the other models' four points, then predict this model's
        // two iteration times: a check of the cost model's shape, not of the fit.
        QFETCH(QString, model);
        const std::string held = model.toStdString();
        auto objective = [&](const Stack& st) {
            double sum = 0;
            for (const KorthikantiResult& r : costKorthikantiPoints(st)) {
                if (r.point.quantity != tandem::mosaic::KorthikantiQuantity::IterationTime ||
                    r.point.model == held)
                    continue;
                if (!(r.tandem > 0)) return 1e9;
                const double e = std::log(r.tandem / r.point.value) / 0.1;
                sum += std::sqrt(1.0 + e * e) - 1.0;
            }
            return sum;
        };
        const StackFit fit =
            minimizeStack(megatronLm2022FitStart(), megatronLm2022FitParameters(), objective, 2000);
        int checked = 0;
        for (const KorthikantiResult& r : costKorthikantiPoints(fit.stack)) {
            if (r.point.quantity != tandem::mosaic::KorthikantiQuantity::IterationTime ||
                r.point.model != held)
                continue;
            ++checked;
            qInfo("%s: held-out error %+.1f %%", r.point.point.c_str(),
                  100 * (r.tandem / r.point.value - 1));
            QVERIFY2(std::fabs(r.tandem / r.point.value - 1) <= 0.10,
                     qPrintable(QString("%1: paper %2 s, held-out prediction %3 s")
                                    .arg(QString::fromStdString(r.point.point))
                                    .arg(r.point.value)
                                    .arg(r.tandem)));
        }
        QCOMPARE(checked, 2);
    }

    void baselineActivationsByHand() {
        // 22B without sequence parallelism, no recomputation: s b h (10 + 24/t + 5 a s / (h t))
        // bytes per layer [2205.05198 Eq. 2], L layers (PP 1).
        const KorthikantiResult* r = find(results(), "fig1.22B.activations.baseline");
        QVERIFY(r && r->expressible && !r->plan.sequenceParallel);
        const double s = 2048, b = 4, h = 6144, a = 64, t = 8, L = 48;
        const double bytes = s * b * h * (10 + 24 / t + 5 * a * s / (h * t)) * L;
        QVERIFY(std::fabs(r->tandem * kGiB / bytes - 1) < 1e-9);
        QVERIFY(std::fabs(bytes / kGiB - 59.25) < 1e-9);  // the paper's bar
    }

    void coreAttentionKeepsNoScoresWithFlash() {
        // Under a flash-attention stack the attention scores are never stored, so recomputing
        // the attention core alone saves nothing; under megatron-lm-2022 it drops exactly the
        // 5 a s^2 b bytes per layer of Eq. 1.
        const KorthikantiPoint pt = shippedKorthikantiPoints().at(0);  // 22B
        const Geometry g = korthikantiGeometry(pt);
        for (const Stack& st : {megatronCoreStack(), megatronLm2022Stack()}) {
            Cluster c;
            c.hardware = builtinHardware("dgx-a100");
            c.devices = 8;
            c.globalBatch = 4;
            c.seqLen = 2048;
            c.stack = st;
            const PerfModel m(g, c);
            Plan p;
            p.tp = 8;
            p.dp = 1;
            p.mbs = 4;
            p.ckpt = Checkpointing::None;
            const double none = m.memoryBytes(p);
            p.ckpt = Checkpointing::CoreAttention;
            const double core = m.memoryBytes(p);
            const double scores = 5.0 * 64 * 2048.0 * 2048 * 4 / 8 * 48;  // 5 a s^2 b / t x L
            QCOMPARE(none - core, st.flashAttention ? 0.0 : scores);
            // The recomputed forward costs time.
            p.ckpt = Checkpointing::None;
            const double tNone = m.evaluate(p).iteration_s;
            p.ckpt = Checkpointing::CoreAttention;
            QVERIFY(m.evaluate(p).iteration_s > tNone);
        }
    }

    void activationsByHand() {
        // 175B, SP + selective: 34 s b h / t bytes per layer [2205.05198 Sec. 4.2.2, Table 2],
        // L layers on the first stage, x (1 + (p - 1) / (p m)) interleaved (Sec. 4.2.3).
        const KorthikantiResult* r = find(results(), "fig1.175B.activations.present");
        QVERIFY(r && r->expressible);
        const double s = 2048, b = 1, h = 12288, t = 8, L = 96, p = 8, m = 3;
        const double bytes = 34 * s * b * h / t * L * (1 + (p - 1) / (p * m));
        QVERIFY(std::fabs(r->tandem * kGiB / bytes - 1) < 1e-9);
        QVERIFY(std::fabs(bytes / kGiB - 12.3515625) < 1e-9);  // the paper's bar
    }

    void parametersByHand() {
        // 22B, TP 8, PP 1: 18 bytes x (12 h^2 L + embedding V h + untied LM head V h) / TP.
        // The paper counts 12 h^2 L only (45.5625 GiB); the vocabulary adds 2.9 %.
        const KorthikantiResult* r = find(results(), "fig1.22B.params_optimizer.present");
        QVERIFY(r && r->expressible);
        const double h = 6144, L = 48, V = 51200, t = 8;
        const double bytes = 18 * (12 * h * h * L + 2 * V * h) / t;
        QVERIFY(std::fabs(r->tandem * kGiB / bytes - 1) < 1e-9);
        QVERIFY(std::fabs(18 * 12 * h * h * L / t / kGiB - 45.5625) < 1e-9);
    }

    void inReport() {
        const RealityReport rep = reproduceReality();
        int points = 0;
        for (const auto& c : rep.report.checks)
            if (c.id.rfind("korthikanti.", 0) == 0) {
                ++points;
                QVERIFY2(c.pass, c.id.c_str());
            }
        QCOMPARE(points, 24);
        const auto j = realityToJson(rep);
        QCOMPARE(int(j.at("korthikanti_2022").size()), 24);
        QVERIFY(j.at("korthikanti_2022").at(1).at("expressible") == true);
        QVERIFY(j.at("korthikanti_2022").at(1).at("sequence_parallel") == false);
        QCOMPARE(j.at("korthikanti_2022").at(1).at("stack").get<std::string>(),
                 std::string("megatron-lm-2022"));
    }

    void parseErrors_data() {
        QTest::addColumn<QString>("row");
        QTest::addColumn<QString>("where");
        const QString ok =
            "x,22B,iteration_time,sp_selective,1.1,s,64,6144,48,24576,51200,2048,8,1,1,1,8,4,4,16,"
            "A100,src";
        QTest::newRow("unit") << QString(ok).replace(",s,", ",GiB,") << "line 2, unit";
        QTest::newRow("unknown unit") << QString(ok).replace(",s,", ",ms,") << "line 2, unit";
        QTest::newRow("mode") << QString(ok).replace("sp_selective", "none")
                              << "line 2, layout_mode";
        QTest::newRow("value") << QString(ok).replace(",1.1,", ",-1,") << "line 2, value";
        QTest::newRow("tp") << QString(ok).replace(",2048,8,", ",2048,0,") << "line 2, tp";
        QTest::newRow("gpus") << QString(ok).replace(",1,8,4,4,", ",1,16,4,4,") << "line 2, gpus";
        QTest::newRow("fields") << QString("a,b") << "line 2";
    }
    void parseErrors() {
        QFETCH(QString, row);
        QFETCH(QString, where);
        const std::string header =
            "point,model,quantity,layout_mode,value,unit,attention_heads,hidden,layers,ffn_hidden,"
            "vocab,seq_len,tp,pp,vp,dp,gpus,global_batch,micro_batch,precision_bits,gpu,source\n";
        tandem::Diagnostics d("points.csv");
        const auto pts = parseKorthikantiPoints(header + row.toStdString() + "\n", d);
        QVERIFY(pts.empty());
        QVERIFY(!d.ok());
        QCOMPARE(QString::fromStdString(d.items().at(0).path), where);
        // The valid row parses.
        tandem::Diagnostics d2("points.csv");
        const std::string good =
            "x,22B,iteration_time,sp_selective,1.1,s,64,6144,48,24576,51200,2048,8,1,1,1,8,4,4,16,"
            "A100,src\n";
        QCOMPARE(int(parseKorthikantiPoints(header + good, d2).size()), 1);
    }
};

TANDEM_TEST_APPLESS_MAIN(TestMosaicKorthikanti)
#include "tst_mosaic_korthikanti.moc"
