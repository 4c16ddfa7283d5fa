#include "ui/shell/presets.h"

#include <QObject>

#include "mlforml/presets.h"
#include "mosaic/reproduce.h"

namespace tandem::ui {

namespace {
/// A preset's scenario: its title as the name, its note as the description, and both sections.
Scenario presetScenario(const QString& name, const QString& note, const mlforml::Params& p,
                        const mosaic::Envelope& e) {
    Scenario s;
    s.name = name.toStdString();
    s.description = note.toStdString();
    s.mlForMl = p;
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
    auto ml = [&](QString id, QString title, QString note, int n, int target, bool updates,
                  mlforml::Params p) {
        const Scenario s = presetScenario(title, note, p, mosaic::Envelope{});
        out.append(Preset{id, title, note, 0, n, target, updates, s});
    };
    auto moe = [&](QString id, QString title, QString note, const mosaic::Envelope& e) {
        const Scenario s = presetScenario(title, note, mlforml::scenario1Params(), e);
        out.append(Preset{id, title, note, 1, -1, 1, false, s});
    };
    const mlforml::Params s1 = mlforml::scenario1Params();
    ml(QStringLiteral("mlforml-fig2a"),
       QObject::tr("ML-for-ML Fig. 2a: exposed DP share vs co-running jobs"),
       QObject::tr("At GA4, BF16 gradients leave 75-91 % of each iteration exposed to the network "
                   "as N grows from 4 to 16 GPT-1B jobs (the paper: 73-91 %); MXFP4 cuts that to "
                   "39-61 % (the paper: 40-58 %). Drag the co-running jobs slider and watch the "
                   "status line's shares rise."),
       16, 1, false, s1);
    ml(QStringLiteral("mlforml-fig2b"),
       QObject::tr("ML-for-ML Fig. 2b: the accumulation trade-off (loss vs updates)"),
       QObject::tr(
           "Against optimizer updates, GA16 needs fewer updates than GA4 but not four times fewer "
           "(critical "
           "batch). Compare Knob-GA with Static: fewer syncs, more samples per unit of progress."),
       8, 1, true, s1);
    ml(QStringLiteral("mlforml-fig2c"),
       QObject::tr("ML-for-ML Fig. 2c: first crossing at 1.02 L_min"),
       QObject::tr("Time to reach 1.02 x L_min per policy with N = 4 co-running jobs; Joint equals "
                   "Knob-Precision and "
                   "Decoupled is about 1.4x slower. Move the slider to N = 16 and the gap narrows "
                   "to about 1.1x."),
       4, 3, false, s1);
    ml(QStringLiteral("mlforml-fig2d"),
       QObject::tr("ML-for-ML Fig. 2d: first crossing at 1.01 L_min"),
       QObject::tr("The same comparison at the tighter 1.01 x L_min target. Static and Knob-GA "
                   "fall behind as background load grows: 1.9x to 3.3x and 1.6x to 2.2x Joint "
                   "from N = 4 to N = 8, then level off (the paper: 1.7x to 3.7x)."),
       4, 1, false, s1);
    ml(QStringLiteral("mlforml-fig3"),
       QObject::tr("ML-for-ML Fig. 3: Poisson GPT-13B background (scenario 2)"),
       QObject::tr("This preset runs one arrival schedule of GPT-13B jobs (0.002/s, at most five "
                   "at once): at "
                   "1.01 x L_min its first-crossing chart shows Static x1.45, Knob-GA x1.37 and "
                   "Decoupled x1.08 "
                   "against Joint. `tandem-cli reproduce ml-for-ml` averages 64 schedules (Static "
                   "x2.43, Knob-GA "
                   "x1.94, Decoupled x1.07); the paper's Sec. 3.3 reports Static 5.3-6.3x, Knob-GA "
                   "4.4-4.9x and "
                   "Decoupled 1.05-1.21x."),
       -1, 1, false, [] {
           // One arrival schedule keeps the preset live; `tandem-cli reproduce` averages 64.
           auto p = mlforml::scenario2Params();
           p.poissonSchedules = 1;
           return p;
       }());
    moe(QStringLiteral("mosaic-fig1"),
        QObject::tr("MOSAIC Fig. 1: 4 nodes, 5 days, C_model 3.3e21"),
        QObject::tr("The compute-optimal point sits at the boundary S = 0.985, and the red bands "
                    "mark where 4 nodes "
                    "in 5 days cannot deliver C_model (from S = 0.975; Tandem's boundary 0.970, "
                    "the paper's 0.96). "
                    "The cluster-optimal model is interior at S = 0.924, 0.024 nats better than "
                    "the compute-optimal "
                    "choice trained on this cluster (the paper reports 0.031)."),
        mosaic::fig1Envelope());
    moe(QStringLiteral("mosaic-table4"),
        QObject::tr("MOSAIC Table 3/4 and Fig. 10: 32 nodes, 20 days"),
        QObject::tr("On the paper's main envelope (256 B200 for 20 days) the card shows Tandem's "
                    "optimum L = 56, "
                    "E = 48, K = 1, G = 4 at S = 0.934 and MFU 15.4 % (N_act 17.6 B, loss 1.385 "
                    "nats). The paper's "
                    "Table 4 optimum is q = 12, E = 96, K = 2, G = 4 at S 0.956, MFU 12.4 %, loss "
                    "1.390; in the MFU "
                    "against G chart fine experts (G = 8) have the lowest MFU, as in its Fig. 10."),
        mosaic::table3Envelope());
    moe(QStringLiteral("mosaic-fig8"), QObject::tr("MOSAIC Fig. 8: C_model 1e22 and 512 GPUs"),
        QObject::tr("The two curves have different budgets: the compute-optimal curve is Eq. 10 at "
                    "the fixed "
                    "C_model = 1e22 (Fig. 8 left, blind to hardware), the cluster curve what 64 "
                    "nodes (512 B200) "
                    "train in 20 days, far more FLOPs, so it lies lower. Fig. 8 right (time per "
                    "model FLOP on 512 "
                    "GPUs) is the MFU charts inverted: `tandem-cli reproduce mosaic` gives x1.82 "
                    "from S 0.649 to "
                    "0.951 and x2.31 from G = 1 to 8 (the paper: x1.70 and x2.66)."),
        table3With(64, 20, 1e22));
    moe(QStringLiteral("mosaic-fig11"), QObject::tr("MOSAIC Fig. 11: 128 nodes, 30 days"),
        QObject::tr("At the paper's node sweep point (128 nodes, 30 days) the card shows Tandem's "
                    "optimum with "
                    "N_act 41.9 B at S = 0.921 (the paper: about 58 B, with S on a plateau near "
                    "0.94). Drag the "
                    "cluster size from 16 to 128 nodes to see N_act grow (17.6, 26.1, 41.9, 41.9 B "
                    "at 16, 32, 64, "
                    "128 nodes) while S stays between 0.92 and 0.97."),
        table3With(128, 30, 0));
    return out;
}

QString scenarioNoteHtml(const Scenario& current, const Preset* preset, const Scenario* origin,
                         const QString& originLabel) {
    const QString name = QString::fromStdString(current.name).toHtmlEscaped();
    const QString description = QString::fromStdString(current.description).toHtmlEscaped();
    const std::string now = scenarioToJson(current);
    if (preset) {
        if (now == scenarioToJson(preset->scenario))
            return QStringLiteral("<b>%1</b> %2").arg(name, description);
        return QObject::tr(
                   "<b>Modified from preset \u201c%1\u201d</b> The controls no longer show "
                   "the preset's values. The preset: %2")
            .arg(preset->title.toHtmlEscaped(),
                 QString::fromStdString(preset->scenario.description).toHtmlEscaped());
    }
    // The defaults' name and description on other values (the default scenario edited, saved
    // and opened again, or recovered): they are not about these values, so the heading is the
    // file's name and says what the text was written for.
    const Scenario defaults = defaultScenario();
    const Scenario& shown = origin ? *origin : current;
    if (shown.name == defaults.name && shown.description == defaults.description &&
        scenarioToJson(shown) != scenarioToJson(defaults)) {
        const QString title = originLabel.isEmpty() || originLabel.toStdString() == defaults.name
                                  ? QObject::tr("Untitled scenario")
                                  : originLabel;
        return QObject::tr(
                   "<b>%1</b> Modified from \u201c%2\u201d: the controls show this scenario's "
                   "values, not the defaults.")
            .arg(title.toHtmlEscaped(), name);
    }
    if (!origin || now == scenarioToJson(*origin))
        return QStringLiteral("<b>%1</b> %2").arg(name, description);
    const QString from = origin->name.empty() ? originLabel : QString::fromStdString(origin->name);
    if (origin->description.empty())
        return QObject::tr("<b>Modified from \u201c%1\u201d</b>").arg(from.toHtmlEscaped());
    return QObject::tr(
               "<b>Modified from \u201c%1\u201d</b> The controls no longer show the values "
               "its description is about. As opened: %2")
        .arg(from.toHtmlEscaped(), QString::fromStdString(origin->description).toHtmlEscaped());
}

}  // namespace tandem::ui
