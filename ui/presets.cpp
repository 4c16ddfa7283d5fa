#include "presets.h"

#include <QObject>

#include "mlforml/presets.h"
#include "mosaic/reproduce.h"

namespace tandem::ui {

namespace {
Scenario mlScenario(const mlforml::Params& p, const QString& name, const QString& note) {
    Scenario s;
    s.name = name.toStdString();
    s.description = note.toStdString();
    s.mlForMl = p;
    s.mosaic = mosaic::Envelope{};
    return s;
}
Scenario moeScenario(const mosaic::Envelope& e, const QString& name, const QString& note) {
    Scenario s;
    s.name = name.toStdString();
    s.description = note.toStdString();
    s.mlForMl = mlforml::scenario1Params();
    s.mosaic = e;
    return s;
}
/// Table 3's envelope with another cluster size, window and budget (Fig. 8, Fig. 11).
mosaic::Envelope table3With(int nodes, double days, double budgetFlops) {
    mosaic::Envelope e = mosaic::table3Envelope();
    e.nodes = nodes;
    e.days = days;
    e.computeBudgetFlops = budgetFlops;
    return e;
}
}  // namespace

QList<Preset> allPresets() {
    QList<Preset> out;
    auto ml = [&](QString id, QString title, QString note, int n, int target, bool updates, mlforml::Params p) {
        Preset pr{id, title, note, 0, n, target, updates, mlScenario(p, title, note)};
        out.append(pr);
    };
    auto moe = [&](QString id, QString title, QString note, const mosaic::Envelope& e) {
        Preset pr{id, title, note, 1, -1, 1, false, moeScenario(e, title, note)};
        out.append(pr);
    };
    const mlforml::Params s1 = mlforml::scenario1Params();
    ml(QStringLiteral("mlforml-fig2a"), QObject::tr("ML-for-ML Fig. 2a: exposed DP share vs co-running jobs"),
       QObject::tr("At GA4, BF16 gradients leave 73-91 % of each iteration exposed to the network as N grows from 4 "
                   "to 16 GPT-1B jobs; MXFP4 cuts that to 40-58 %. Drag the co-running jobs slider and watch the "
                   "status line's shares rise."),
       16, 1, false, s1);
    ml(QStringLiteral("mlforml-fig2b"), QObject::tr("ML-for-ML Fig. 2b: the accumulation trade-off (loss vs updates)"),
       QObject::tr("Against optimizer updates, GA16 needs fewer updates than GA4 but not four times fewer (critical "
                   "batch). Compare Knob-GA with Static: fewer syncs, more samples per unit of progress."),
       8, 1, true, s1);
    ml(QStringLiteral("mlforml-fig2c"), QObject::tr("ML-for-ML Fig. 2c: first crossing at 1.02 L_min"),
       QObject::tr("Time to reach 1.02 x L_min per policy with N = 4 co-running jobs; Joint equals Knob-Precision and "
                   "Decoupled is about 1.4x slower. Move the slider to N = 16 and the gap narrows to about 1.1x."),
       4, 3, false, s1);
    ml(QStringLiteral("mlforml-fig2d"), QObject::tr("ML-for-ML Fig. 2d: first crossing at 1.01 L_min"),
       QObject::tr("The same comparison at the tighter 1.01 x L_min target. Static and Knob-GA fall further behind "
                   "as background load grows (1.7x to 3.7x Joint)."),
       4, 1, false, s1);
    ml(QStringLiteral("mlforml-fig3"), QObject::tr("ML-for-ML Fig. 3: Poisson GPT-13B background (scenario 2)"),
       QObject::tr("GPT-13B jobs arrive at 0.002/s, at most five at once, so the load changes during the run. Joint "
                   "reaches every target first; Decoupled is 5-21 % slower."),
       -1, 1, false, [] {
           // One arrival schedule keeps the preset live; `tandem-cli reproduce` averages 64.
           auto p = mlforml::scenario2Params();
           p.poissonSchedules = 1;
           return p;
       }());
    moe(QStringLiteral("mosaic-fig1"), QObject::tr("MOSAIC Fig. 1: 4 nodes, 5 days, C_model 3.3e21"),
        QObject::tr("The compute-optimal sparsity sits at the boundary S = 0.985, but above S ~ 0.96 no layout fits "
                    "this small cluster. The cluster-optimal model is interior and about 0.03 nats better than the "
                    "naive choice run on the cluster."),
        mosaic::fig1Envelope());
    moe(QStringLiteral("mosaic-table4"), QObject::tr("MOSAIC Table 3/4 and Fig. 10: 32 nodes, 20 days"),
        QObject::tr("The paper's main envelope (256 B200 for 20 days): the optimum is q = 12, E = 96, K = 2, G = 4 at "
                    "S ~ 0.956 and MFU ~ 12 %. Fine experts (G = 8) lose MFU to small grouped-GEMM tiles."),
        mosaic::table3Envelope());
    moe(QStringLiteral("mosaic-fig8"), QObject::tr("MOSAIC Fig. 8: C_model 1e22 on 512 GPUs"),
        QObject::tr("With a fixed model-FLOPs budget the law keeps rewarding sparsity, while the wall-clock per model "
                    "FLOP grows with S and G. Compare the two frontiers' slopes at high S."),
        table3With(64, 20, 1e22));
    moe(QStringLiteral("mosaic-fig11"), QObject::tr("MOSAIC Fig. 11: 128 nodes, 20 days"),
        QObject::tr("A larger cluster moves the optimum to more active parameters (~58 B at 128 nodes) while the "
                    "optimal sparsity stays on a plateau near 0.92-0.96. Drag cluster size and days to sweep."),
        table3With(128, 30, 0));
    return out;
}

}  // namespace tandem::ui
