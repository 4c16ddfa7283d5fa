// The MoE workspace's "Co-running jobs" page and the shared cluster of the two workspaces: the
// levels charted, each level's optimum equal to the engine's search, the loss never improving as
// jobs are added, the levels told apart by colour, line and marker, and one slider driving both
// workspaces (one undo step).
#include <QCheckBox>
#include <QLineSeries>
#include <QSlider>
#include <QTabWidget>
#include <QTextBlock>
#include <QTextDocument>
#include <QtTest>
#include <cmath>

#include "mosaic/background.h"
#include "mosaic/search.h"
#include "scenario/scenario.h"
#include "test_main.h"
#include "ui/mlforml/network_controls.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mosaic/background_levels.h"
#include "ui/mosaic/frontier_levels_view.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/mosaic/optimum_vs_jobs_view.h"
#include "ui/shell/cluster_link.h"
#include "ui/shell/job_runner.h"
#include "ui/shell/main_window.h"
#include "ui/shell/scenario_document.h"
#include "ui/shell/scenario_undo.h"
#include "ui/widgets/labeled_slider.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/workspace_layout.h"

using namespace tandem::ui;

namespace {

tandem::mosaic::Envelope backgroundExample() {
    tandem::Diagnostics d;
    const auto sc = tandem::loadScenarioFile(TANDEM_EXAMPLES "/mosaic-background.json", d);
    if (!sc || !sc->mosaic) qFatal("examples/mosaic-background.json did not load");
    return *sc->mosaic;
}

/// A search result whose optimum sits at (S, loss) with layout TP `tp`.
tandem::mosaic::SearchResult resultAt(double s, double loss, int tp) {
    tandem::mosaic::SearchResult r;
    tandem::mosaic::Candidate c;
    c.geometry.sparsity = s;
    c.loss = loss;
    c.plan.tp = tp;
    c.eval.mfu = 0.2;
    r.candidates.push_back(c);
    r.optimum = 0;
    return r;
}

}  // namespace

class TstBackgroundLevels : public QObject {
    Q_OBJECT
private slots:
    /// The example's fabric holds (256 - 32) / 8 = 28 jobs beside the MoE job: levels 0, 1, 2, 4,
    /// 8, 16 and 28. Without a background section the default 1024-node fabric holds 124: the
    /// doubling ladder is thinned to 8 levels from its small end, keeping 0 and 124.
    void levelsFollowTheFabric() {
        tandem::mosaic::Envelope e = backgroundExample();
        QCOMPARE(tandem::mosaic::maxBackgroundJobs(*e.background, e.nodes), 28);
        QCOMPARE(backgroundChartLevels(e), (std::vector<int>{0, 1, 2, 4, 8, 16, 28}));
        e.background->jobs = 5;  // the envelope's own level is always charted
        QCOMPARE(backgroundChartLevels(e), (std::vector<int>{0, 1, 2, 4, 5, 8, 16, 28}));
        e.background.reset();
        QCOMPARE(backgroundChartLevels(e), (std::vector<int>{0, 2, 4, 8, 16, 32, 64, 124}));
        tandem::mosaic::Envelope full = backgroundExample();
        full.nodes = 256;  // the MoE job takes the whole fabric: no job fits beside it
        QCOMPARE(tandem::mosaic::maxBackgroundJobs(*full.background, full.nodes), 0);
        QCOMPARE(backgroundChartLevels(full), (std::vector<int>{0}));
    }

    /// Rows and caption from hand-made results: the caption names both ends with their numbers
    /// and the nats given up; an infeasible level is a row with NaN values.
    void rowsAndCaption() {
        BackgroundLevels lv;
        lv.jobs = {0, 4, 16};
        lv.results = {resultAt(0.934, 1.38457, 1), tandem::mosaic::SearchResult{},
                      resultAt(0.911, 1.39766, 2)};
        const auto rows = backgroundLevelRows(lv);
        QCOMPARE(rows.size(), size_t(3));
        QVERIFY(rows[0].feasible && !rows[1].feasible && rows[2].feasible);
        QVERIFY(std::isnan(rows[1].loss));
        QCOMPARE(rows[2].sparsity, 0.911);
        const QString caption = backgroundLevelsCaption(rows);
        for (const char* part : {"0 co-running jobs", "S = 0.934", "1.3846", "16 co-running jobs",
                                 "S = 0.911", "1.3977", "0.0131 nats given up", "denser"})
            QVERIFY2(caption.contains(QLatin1String(part)), qPrintable(caption));
        QVERIFY(backgroundLevelsCaption({rows[1]}).contains(QLatin1String("No geometry")));
    }

    /// Neighbouring co-running-job levels differ in colour, line style and point marker in both
    /// themes: the colours run along one sequential ramp (each step at least 1.15:1 in WCAG
    /// contrast, the busier level further from the background, every level at least 2:1 against
    /// it), and each legend entry shows its level's line, marker and colour.
    void levelsAreDistinguishable() {
        BackgroundLevels lv;
        lv.jobs = {0, 1, 2, 4, 8, 16, 28};
        for (size_t i = 0; i < lv.jobs.size(); ++i) {
            tandem::mosaic::SearchResult r = resultAt(0.93, 1.385 + 0.001 * double(i), 1);
            tandem::mosaic::FrontierPoint p;
            p.feasible = true;
            p.candidate = 0;
            p.sparsity = 0.93;
            p.loss = r.candidates[0].loss;
            tandem::mosaic::FrontierPoint q = p;
            q.candidate = -1;
            q.sparsity = 0.80;
            q.loss = p.loss + 0.01;
            r.clusterOptimal = {q, p};
            lv.results.push_back(r);
        }
        // WCAG 2 relative luminance and contrast ratio.
        auto luminance = [](const QColor& c) {
            auto lin = [](double v) {
                return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
            };
            return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
        };
        auto contrast = [&](const QColor& a, const QColor& b) {
            const double la = luminance(a), lb = luminance(b);
            return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
        };
        const QStringList lines = {QStringLiteral("\u2501\u2501"), QStringLiteral("\u254D\u254D"),
                                   QStringLiteral("\u2505\u2505"), QStringLiteral("\u2501\u2505")};
        const QStringList markers = {QStringLiteral("\u25CF"), QStringLiteral("\u25A0"),
                                     QStringLiteral("\u25B2"), QStringLiteral("\u25C6"),
                                     QStringLiteral("\u2605"), QStringLiteral("\u2B1F")};
        for (Theme theme : {Theme::Light, Theme::Dark}) {
            setCurrentTheme(theme);
            FrontierLevelsView v;
            v.resize(700, 500);
            v.show();
            v.setData(lv);
            v.fitTexts();
            const QColor background = v.chart()->backgroundBrush().color();
            QList<QLineSeries*> level;
            for (size_t i = 0; i < lv.jobs.size(); ++i) {
                const QString name = lv.jobs[i] == 1
                                         ? QStringLiteral("1 co-running job")
                                         : QStringLiteral("%1 co-running jobs").arg(lv.jobs[i]);
                for (QAbstractSeries* s : v.chart()->series())
                    if (s->name() == name) level << qobject_cast<QLineSeries*>(s);
                QCOMPARE(level.size(), qsizetype(i + 1));
                QVERIFY(level.back());
            }
            // The legend's symbols in their colours, fragment by fragment.
            QList<QPair<QString, QColor>> shown;
            const QTextDocument* doc = v.legendText()->document();
            for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
                for (auto f = b.begin(); !f.atEnd(); ++f)
                    shown.append({f.fragment().text().trimmed(),
                                  f.fragment().charFormat().foreground().color()});
            for (int i = 0; i < level.size(); ++i) {
                const QColor colour = level[i]->pen().color();
                QVERIFY2(contrast(colour, background) >= 2.0, qPrintable(colour.name()));
                QVERIFY(!level[i]->lightMarker().isNull());
                const QString symbol = lines[i % 4] + markers[i % 6];
                QVERIFY2(
                    shown.contains({symbol, colour}),
                    qPrintable(
                        QStringLiteral("level %1: %2 in %3").arg(i).arg(symbol, colour.name())));
                if (i == 0) continue;
                const QColor before = level[i - 1]->pen().color();
                QVERIFY(level[i]->pen().style() != level[i - 1]->pen().style());
                QVERIFY(level[i]->lightMarker() != level[i - 1]->lightMarker());
                QVERIFY2(
                    contrast(colour, before) >= 1.15,
                    qPrintable(QStringLiteral("%1 after %2").arg(colour.name(), before.name())));
                QVERIFY(contrast(colour, background) > contrast(before, background));
            }
        }
        setCurrentTheme(Theme::Light);
    }

    /// The page computes only when shown; each level's optimum is exactly the engine's search of
    /// the envelope at that level, the loss never improves as jobs are added, the optimum moves to
    /// a denser model between the idle and the full fabric (docs/MODEL-NETWORK.md section 7), and
    /// the CSV has one row per level.
    void pageMatchesTheEngine() {
        MainWindow w;
        tandem::Diagnostics d;
        QVERIFY(w.document()->load(QStringLiteral(TANDEM_EXAMPLES "/mosaic-background.json"), d));
        w.show();
        QVERIFY(w.waitForResults(120000));
        MoeWorkspace* moe = w.moeWorkspace();
        QCOMPARE(moe->levelsRunner()->latestGeneration(),
                 quint64(0));  // not shown yet: nothing run
        QCOMPARE(fullTabText(moe->pages(), MoeWorkspace::kCoRunningPage),
                 QStringLiteral("Co-running jobs"));
        moe->pages()->setCurrentIndex(MoeWorkspace::kCoRunningPage);
        QVERIFY(w.waitForResults(300000));
        const auto& rows = moe->optimumVsJobsView()->rows();
        QCOMPARE(rows.size(), size_t(7));
        const tandem::mosaic::Envelope e = *w.document()->scenario().mosaic;
        for (const BackgroundLevelRow& row : rows) {
            QVERIFY2(row.feasible, qPrintable(QString::number(row.jobs)));
            if (row.jobs != 0 && row.jobs != 8 && row.jobs != 28)
                continue;  // three checked by hand
            tandem::mosaic::Envelope level = e;
            level.background->jobs = row.jobs;
            const auto r = tandem::mosaic::search(level);
            QVERIFY(r.optimum >= 0);
            QCOMPARE(row.loss, r.candidates[static_cast<size_t>(r.optimum)].loss);
            QCOMPARE(row.sparsity, r.candidates[static_cast<size_t>(r.optimum)].geometry.sparsity);
        }
        for (size_t i = 1; i < rows.size(); ++i) QVERIFY(rows[i].loss >= rows[i - 1].loss - 1e-12);
        QVERIFY(rows.back().loss > rows.front().loss);
        QVERIFY(rows.back().sparsity < rows.front().sparsity);
        QCOMPARE(moe->optimumVsJobsView()->lossPoints().size(), 7);
        QCOMPARE(moe->frontierLevelsView()->optimumPath().size(), 7);
        QVERIFY(moe->frontierLevelsView()->levelPoints(0).size() >= 3);
        QVERIFY(moe->frontierLevelsView()->levelPoints(7).isEmpty());
        for (int i = 0; i < 7; ++i)  // each level's optimum lies on its own frontier line
            QVERIFY(moe->frontierLevelsView()->levelPoints(i).contains(
                moe->frontierLevelsView()->optimumPath()[i]));
        const QStringList csv = moe->optimumVsJobsView()->csv().trimmed().split(QLatin1Char('\n'));
        QCOMPARE(csv.size(), 8);
        QVERIFY(
            csv[0].startsWith(QLatin1String("co_running_jobs,feasible,cluster_optimal_sparsity")));
        QVERIFY(csv[1].startsWith(QLatin1String("0,1,")));
        QVERIFY(csv[7].startsWith(QLatin1String("28,1,")));
        QVERIFY(moe->optimumVsJobsView()->caption().contains(QLatin1String("28 co-running jobs")));
        // A change while the page is shown recomputes it at once.
        const quint64 before = moe->levelsRunner()->latestGeneration();
        moe->controls()->daysSlider()->setNumber(10);
        QVERIFY(moe->levelsRunner()->latestGeneration() > before);
        QVERIFY(w.waitForResults(300000));
        // The co-running-jobs slider stops at what the fabric holds.
        QCOMPARE(moe->controls()->coRunningSlider()->slider()->maximum(), 28);
    }

    /// With the link on, either workspace's co-running-jobs and nodes sliders drive the other's,
    /// the scenario holds both values, and one undo step takes back both workspaces' edits.
    void oneSliderDrivesBothWorkspaces() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(120000));
        NetworkControls* net = w.networkWorkspace()->controls();
        MoeControls* moe = w.moeWorkspace()->controls();
        QVERIFY(!w.clusterLink()->isLinked());
        const int n = net->backgroundSlider()->value();
        moe->coRunningSlider()->setNumber(n + 3);  // unlinked: the other workspace stays
        QCOMPARE(net->backgroundSlider()->value(), n);

        w.setCurrentWorkspace(0);
        moe->linkBox()->setChecked(true);  // either box (or View > Same cluster) links
        QVERIFY(w.clusterLink()->isLinked());
        QVERIFY(net->linkBox()->isChecked() && w.clusterLinkAction()->isChecked());
        QCOMPARE(moe->coRunningSlider()->value(), n);  // copied from the workspace shown
        QCOMPARE(moe->nodesSlider()->value(), net->nodesSlider()->value());
        QCOMPARE(w.document()->scenario().mosaic->nodes,
                 w.document()->scenario().mlForMl->foregroundNodes);

        QTest::qWait(ScenarioEditCommand::kMergeMs +
                     100);  // the next move is an undo step of its own
        const int steps = w.undoStack()->count();
        moe->coRunningSlider()->setNumber(12);
        QCOMPARE(net->backgroundSlider()->value(), 12);
        QCOMPARE(w.document()->scenario().mosaic->background->jobs, 12);
        net->nodesSlider()->setNumber(16);
        QCOMPARE(moe->nodesSlider()->value(), 16);
        QCOMPARE(w.document()->scenario().mosaic->nodes, 16);
        QCOMPARE(w.document()->scenario().mlForMl->foregroundNodes, 16);
        QCOMPARE(w.undoStack()->count(), steps + 2);  // two moves, each with its follow-up merged
        w.undoStack()->undo();
        QVERIFY(w.document()->scenario().mosaic->nodes != 16);
        QVERIFY(w.document()->scenario().mlForMl->foregroundNodes != 16);
        QCOMPARE(w.document()->scenario().mosaic->background->jobs, 12);
        QVERIFY(w.waitForResults(120000));

        // Opening a scenario whose workspaces differ shows it as it is and unlinks.
        tandem::Scenario other = tandem::defaultScenario();
        other.mosaic->nodes = 64;
        other.mlForMl->foregroundNodes = 8;
        tandem::Diagnostics d;
        QVERIFY(w.document()->loadText(QString::fromStdString(tandem::scenarioToJson(other)),
                                       QStringLiteral("x"), d));
        QVERIFY(!w.clusterLink()->isLinked());
        QVERIFY(!moe->linkBox()->isChecked());
        QCOMPARE(moe->nodesSlider()->value(), 64);
        QCOMPARE(net->nodesSlider()->value(), 8);
        QVERIFY(w.waitForResults(120000));
    }
};

TANDEM_TEST_MAIN(TstBackgroundLevels)
#include "tst_background_levels.moc"
