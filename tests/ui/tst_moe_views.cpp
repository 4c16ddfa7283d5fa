// The MoE workspace's detail views (offscreen): MFU against S and G, ranked table, PP x EP
// heatmap, step-time breakdown and memory bar; one selection drives them all.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "mosaic/candidate_table.h"
#include "mosaic/frontier_view.h"
#include "mosaic/layout_grid.h"
#include "mosaic/layout_heatmap_view.h"
#include "mosaic/memory_bar_view.h"
#include "mosaic/mfu_view.h"
#include "mosaic/moe_advanced.h"
#include "mosaic/moe_controls.h"
#include "mosaic/moe_workspace.h"
#include "mosaic/optimum_card.h"
#include "mosaic/report.h"
#include "mosaic/reproduce.h"
#include "mosaic/search.h"
#include "mosaic/step_breakdown_view.h"
#include "scenario/scenario.h"
#include "shell/job_runner.h"
#include "shell/main_window.h"
#include "shell/offscreen.h"
#include "shell/presets.h"
#include "shell/scenario_document.h"
#include "widgets/chart_view.h"
#include "widgets/labeled_slider.h"

using namespace tandem::ui;

namespace {
/// Index of a feasible heatmap cell other than `exclude` whose plan differs, -1 if none.
int otherFeasibleCell(const LayoutCells& cells, int exclude) {
    for (size_t i = 0; i < cells.cells.size(); ++i)
        if (static_cast<int>(i) != exclude && cells.cells[i].feasible) return static_cast<int>(i);
    return -1;
}
}  // namespace

class TstMoeViews : public QObject {
    Q_OBJECT
private slots:
    /// A scenario with 300 nodes (beyond the cluster-size slider's 256) shows 300 nodes, keeps
    /// 300 in the engine's input and in a saved file, and the slider's handle sits at 300.
    void nodesOutsideTheSliderShowUnclamped() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        tandem::Scenario sc = tandem::defaultScenario();
        QVERIFY(sc.mosaic.has_value());
        sc.mosaic->nodes = 300;
        const QString path = dir.filePath(QStringLiteral("nodes300.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(tandem::scenarioToJson(sc)));
        f.close();
        MainWindow w;
        QVERIFY(w.openFile(path));
        LabeledSlider* nodes = w.moeWorkspace()->controls()->nodesSlider();
        QCOMPARE(nodes->value(), 300);
        QCOMPARE(nodes->valueText(), QStringLiteral("300 nodes"));
        QCOMPARE(nodes->number(), 300.0);  // a stop of its own at the end of the log ladder
        QCOMPARE(nodes->stops().back(), 300.0);
        QCOMPARE(nodes->slider()->value(), nodes->slider()->maximum());
        tandem::mosaic::Envelope e;
        w.moeWorkspace()->controls()->applyTo(e);
        QCOMPARE(e.nodes, 300);
        const QString saved = dir.filePath(QStringLiteral("saved.json"));
        QVERIFY(w.saveFile(saved));
        QFile g(saved);
        QVERIFY(g.open(QIODevice::ReadOnly));
        QVERIFY(g.readAll().contains("\"nodes\": 300"));
    }

    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// Once a result is shown, the cluster sizes at the nodes slider's neighbouring stops are
    /// costed in the background (upwards first at the start); a step to one of them shows what a
    /// search of that size gives, and a step elsewhere stops the preparation.
    void neighbouringClusterSizesPrepared() {
        MainWindow w;  // the default scenario: Table 3's envelope, 32 nodes
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        LabeledSlider* nodes = ws->controls()->nodesSlider();
        QCOMPARE(nodes->value(), 32);
        tandem::mosaic::Envelope e;
        ws->controls()->applyTo(e);
        tandem::mosaic::Envelope up = e, down = e;
        up.nodes = 40;  // the log ladder's stops next to 32
        down.nodes = 24;
        QCOMPARE(ws->preparingInputs(),
                 (std::vector<std::string>{searchInputsKey(up), searchInputsKey(down)}));
        QVERIFY(ws->prepareRunner()->waitIdle(60000));
        nodes->slider()->setValue(nodes->slider()->value() + 1);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(ws->result()->candidates.size(), tandem::mosaic::search(up).candidates.size());
        QCOMPARE(ws->result()->clusterOptimalS, tandem::mosaic::search(up).clusterOptimalS);
        // At 40 only 48 is prepared (32 was shown before); a jump to another size while it is
        // prepared stops it, and at the last stop (256) only the stop below it is prepared.
        up.nodes = 48;
        QCOMPARE(ws->preparingInputs(), std::vector<std::string>{searchInputsKey(up)});
        const bool stillPreparing = ws->prepareRunner()->isBusy();
        nodes->slider()->setValue(nodes->slider()->maximum());
        if (stillPreparing) QVERIFY(ws->preparingInputs().empty());
        QVERIFY(w.waitForResults(60000));
        down.nodes = 192;
        QCOMPARE(ws->preparingInputs(), std::vector<std::string>{searchInputsKey(down)});
        QVERIFY(ws->prepareRunner()->waitIdle(60000));
    }

    void viewsShowTheOptimumAtStart() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        const auto& r = *ws->result();
        QVERIFY(r.optimum >= 0);
        QCOMPARE(ws->selectedCandidate(), r.optimum);
        QCOMPARE(ws->candidateTable()->selectedCandidate(), r.optimum);
        QVERIFY(ws->candidateTable()->model()->rowCount() >= 10);
        const auto& best = r.candidates[static_cast<size_t>(r.optimum)];
        // MFU charts: the best-per-bin line is on or above the selected candidate.
        const QList<QPointF> sel = ws->mfuSparsityView()->selectedPoint();
        QCOMPARE(sel.size(), 1);
        QCOMPARE(sel.front().y(), 100 * best.eval.mfu);
        double lineMax = 0;
        for (const QPointF& p : ws->mfuSplitView()->bestLine()) lineMax = std::max(lineMax, p.y());
        QVERIFY(lineMax >= 100 * best.eval.mfu);
        // Breakdown parts sum to the iteration time; memory fits the device.
        double sum = 0;
        for (double v : ws->breakdownView()->values(0)) sum += v;
        QVERIFY(std::abs(sum - best.eval.iteration_s) < 1e-9 * best.eval.iteration_s + 1e-12);
        QCOMPARE(ws->memoryView()->usedGB(), best.eval.memoryGB);
        QVERIFY(ws->memoryView()->usedGB() <= ws->memoryView()->capacityGB());
        // Heatmap: the optimum's own (PP, EP) cell is outlined and holds its MFU.
        const LayoutCells& cells = ws->heatmapView()->cells();
        QVERIFY(ws->heatmapView()->selected() >= 0);
        const LayoutCell& c = cells.cells[static_cast<size_t>(ws->heatmapView()->selected())];
        QCOMPARE(c.pp, best.plan.pp);
        QCOMPARE(c.ep, best.plan.ep);
        QCOMPARE(c.eval.mfu, best.eval.mfu);
        QCOMPARE(cells.maxMfu, best.eval.mfu);  // best plan of the geometry = the candidate's plan
    }

    /// A cluster size without candidates is marked on the slider's label (with the nearest node
    /// count that works, when there is one) and the mark goes when candidates return.
    void nodesLabelMarksAClusterWithoutCandidates() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        LabeledSlider* nodes = ws->controls()->nodesSlider();
        QVERIFY(!nodes->valueText().contains(QStringLiteral("none fits")));
        tandem::mosaic::Envelope e = *ws->envelope();
        e.tppMin = e.tppMax = 10000;  // no geometry reaches 10000 tokens per parameter
        ws->setEnvelope(e);
        QVERIFY(w.waitForResults(60000));
        QVERIFY(ws->result()->candidates.empty());
        const int nearest = ws->result()->nearestWorkingNodes;
        QCOMPARE(nodes->valueText(),
                 QStringLiteral("%1 nodes: ").arg(e.nodes) +
                     (nearest > 0 ? QStringLiteral("none fits, try %1").arg(nearest)
                                  : QStringLiteral("none fits")));
        // The MFU charts say why they are empty instead of showing bare axes.
        for (ChartView* v : {static_cast<ChartView*>(ws->mfuSparsityView()),
                             static_cast<ChartView*>(ws->mfuSplitView())})
            QVERIFY2(
                v->emptyReason().contains(
                    QStringLiteral("No geometry has a feasible layout on %1 nodes").arg(e.nodes)),
                qPrintable(v->emptyReason()));
        e.tppMin = 40;
        e.tppMax = 150;
        ws->setEnvelope(e);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(nodes->valueText(), QStringLiteral("%1 nodes").arg(e.nodes));
        QVERIFY(ws->mfuSparsityView()->emptyReason().isEmpty());
        QVERIFY(ws->mfuSplitView()->emptyReason().isEmpty());
    }

    /// The co-running jobs row writes mosaic.background (jobs and nodes per job); 0 jobs on a
    /// scenario without a background section leaves the network idle (no section written).
    void coRunningJobsReachTheEnvelope() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeControls* c = w.moeWorkspace()->controls();
        QVERIFY(!w.document()->scenario().mosaic->background.has_value());
        QCOMPARE(c->coRunningSlider()->value(), 0);
        QVERIFY(!c->coRunningNodesBox()->isEnabled());
        c->coRunningSlider()->setNumber(4);
        QVERIFY(c->coRunningNodesBox()->isEnabled());
        c->coRunningNodesBox()->setValue(16);
        QVERIFY(w.waitForResults(120000));
        const auto& bg = w.document()->scenario().mosaic->background;
        QVERIFY(bg.has_value());
        QCOMPARE(bg->jobs, 4);
        QCOMPARE(bg->job.nodes, 16);
        QCOMPARE(w.moeWorkspace()->envelope()->background->jobs, 4);
        QVERIFY(w.moeWorkspace()->result().has_value());
        QCOMPARE(c->coRunningSlider()->valueText(), QStringLiteral("4 jobs"));
    }

    /// Pinning keeps the MFU charts' best lines of the pinned result as a faded overlay.
    void pinKeepsTheMfuBestLines() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        QVERIFY(ws->mfuSparsityView()->pinnedLine().isEmpty());
        const QList<QPointF> before = ws->mfuSparsityView()->bestLine();
        const QList<QPointF> beforeG = ws->mfuSplitView()->bestLine();
        emit ws->controls()->pinToggled(true);
        QCOMPARE(ws->mfuSparsityView()->pinnedLine(), before);
        QCOMPARE(ws->mfuSplitView()->pinnedLine(), beforeG);
        LabeledSlider* nodes = ws->controls()->nodesSlider();
        nodes->setNumber(nodes->value() / 2);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(ws->mfuSparsityView()->pinnedLine(), before);
        QVERIFY(ws->mfuSparsityView()->bestLine() != before);
        emit ws->controls()->pinToggled(false);
        QVERIFY(ws->mfuSparsityView()->pinnedLine().isEmpty());
    }

    /// The crosshair on the heatmap gives a cell's MFU and memory; on the frontier the loss of
    /// each frontier at S and the nearest candidate's geometry and layout.
    void hoverTablesOfHeatmapAndFrontier() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        const auto& r = *ws->result();
        const auto& best = r.candidates[static_cast<size_t>(r.optimum)];
        LayoutHeatmapView* heat = ws->heatmapView();
        const int sel = heat->selected();
        const LayoutCell& c = heat->cells().cells[static_cast<size_t>(sel)];
        const int epIndex = sel % static_cast<int>(heat->cells().ep.size());
        const int ppIndex = sel / static_cast<int>(heat->cells().ep.size());
        const HoverTable cell = heat->hoverAt(heat->cellCenter(ppIndex, epIndex));
        QCOMPARE(cell.heading, QStringLiteral("PP %1 x EP %2").arg(c.pp).arg(c.ep));
        QCOMPARE(cell.rows.value(0).value,
                 QStringLiteral("%1 %").arg(100 * best.eval.mfu, 0, 'f', 1));
        QCOMPARE(cell.rows.value(1).value,
                 QStringLiteral("%1 GB").arg(best.eval.memoryGB, 0, 'f', 1));
        QVERIFY(heat->hoverAt(QPoint(1, 1)).isEmpty());  // off the grid

        FrontierView* f = ws->frontierView();
        const double s = best.geometry.sparsity;
        const HoverTable t = f->hoverAtX(s);
        QStringList names;
        for (const HoverRow& row : t.rows) names << row.name;
        QVERIFY(names.contains(QStringLiteral("Geometry")));
        const int geometryRow = static_cast<int>(names.indexOf(QStringLiteral("Geometry")));
        QCOMPARE(t.rows[geometryRow].value,
                 QString::fromStdString(tandem::mosaic::geometryLabel(best.geometry)));
        // At a drawn point of a frontier the crosshair reads that point's loss.
        const auto all = f->chart()->series();
        bool readFrontier = false;
        for (QAbstractSeries* a : all) {
            auto* line = qobject_cast<QLineSeries*>(a);
            if (!line || !line->isVisible() || line->name().isEmpty()) continue;
            const QPointF p0 = line->count() > 0 ? line->at(0) : QPointF();
            const HoverTable at0 = f->hoverAtX(p0.x());
            for (const HoverRow& row : at0.rows)
                if (row.name == tandem::ui::plainChartText(line->name())
                                    .replace(QLatin1Char('\n'), QLatin1Char(' ')) &&
                    row.value == QString::number(p0.y(), 'g', 4))
                    readFrontier = true;
        }
        QVERIFY(readFrontier);
    }

    /// 24 nodes (192 GPUs): the heatmap's axes are the searched (derived) grid, the optimum's
    /// cell holds its MFU, and the card states the global batch the layout runs.
    void oddClusterHeatmapAndCard() {
        tandem::mosaic::Envelope e = tandem::mosaic::table3Envelope();
        e.nodes = 24;
        const auto r = tandem::mosaic::search(e);
        QVERIFY(r.optimum >= 0);
        const auto& best = r.candidates[static_cast<size_t>(r.optimum)];
        const LayoutCells cells = layoutCells(best.geometry, e);
        const auto space = tandem::mosaic::layoutSpaceOf(e);
        QVERIFY(space.rule == tandem::mosaic::LayoutGridRule::Derived);
        QCOMPARE(cells.pp, space.grid.pp);
        QCOMPARE(cells.ep, space.grid.ep);
        const int idx = cells.indexOf(best.plan);
        QVERIFY(idx >= 0);
        QCOMPARE(cells.cells[static_cast<size_t>(idx)].eval.mfu, best.eval.mfu);
        OptimumCard card;
        card.setCandidate(best, QStringLiteral("optimum"), r.computeOptimalS, r.naiveOnClusterLoss);
        QVERIFY2(
            card.text().contains(QString::number(best.globalBatch) + QStringLiteral(" sequences")),
            qPrintable(card.text()));
    }

    /// The heatmap's cells, chosen on quick evaluations, are those of every plan evaluated in
    /// full: per cell the feasible plan of the highest MFU (ties: the first), else the valid
    /// plan of the least memory, with the same evaluation and reason; on a listed grid (32
    /// nodes), on rounded batches (24 and 48 nodes) and on a cluster too small for most cells.
    void heatmapCellsEqualFullEvaluation_data() {
        QTest::addColumn<int>("nodes");
        for (int n : {32, 24, 48, 2}) QTest::newRow(qPrintable(QString::number(n))) << n;
    }
    void heatmapCellsEqualFullEvaluation() {
        QFETCH(int, nodes);
        tandem::mosaic::Envelope e = tandem::mosaic::table3Envelope();
        e.nodes = nodes;
        for (const auto& g : {tandem::mosaic::ladderGeometry(12, 96, 2, 4),
                              tandem::mosaic::ladderGeometry(16, 256, 8, 8)}) {
            const LayoutCells cells = layoutCells(g, e);
            LayoutCells ref = cells;  // the axes; every cell chosen again below
            for (LayoutCell& c : ref.cells) {
                LayoutCell empty;
                empty.pp = c.pp;
                empty.ep = c.ep;
                c = empty;
            }
            for (const auto& [plan, eval] : tandem::mosaic::evaluatePlans(g, e)) {
                const int idx = ref.indexOf(plan);
                if (idx < 0) continue;
                LayoutCell& c = ref.cells[static_cast<size_t>(idx)];
                const bool first = !c.anyValid;
                c.anyValid = true;
                if (eval.feasible ? !c.feasible || eval.mfu > c.eval.mfu
                                  : !c.feasible && (first || eval.memoryGB < c.eval.memoryGB)) {
                    c.feasible = eval.feasible;
                    c.plan = plan;
                    c.eval = eval;
                }
            }
            int feasible = 0;
            for (size_t i = 0; i < cells.cells.size(); ++i) {
                const LayoutCell &a = cells.cells[i], &b = ref.cells[i];
                QCOMPARE(a.anyValid, b.anyValid);
                if (!a.anyValid) continue;
                feasible += a.feasible;
                QCOMPARE(a.feasible, b.feasible);
                QCOMPARE(planLabel(a.plan), planLabel(b.plan));
                QCOMPARE(a.eval.mfu, b.eval.mfu);
                QCOMPARE(a.eval.memoryGB, b.eval.memoryGB);
                QCOMPARE(a.eval.iteration_s, b.eval.iteration_s);
                QCOMPARE(a.reason, a.feasible ? std::string() : b.eval.reason);
            }
            if (nodes != 2) QVERIFY(feasible > 0);
        }
    }

    /// The "best per S bin" MFU line is never below a plotted candidate: at each candidate's
    /// sparsity the line (a step per bin) is at or above its MFU, for every MOSAIC preset.
    void mfuBestLineNeverBelowACandidate_data() {
        QTest::addColumn<QString>("preset");
        for (const char* id : {"mosaic-fig1", "mosaic-table4", "mosaic-fig8", "mosaic-fig11"})
            QTest::newRow(id) << QString::fromLatin1(id);
    }
    void mfuBestLineNeverBelowACandidate() {
        QFETCH(QString, preset);
        MainWindow w;
        w.applyPreset(presetIndex(preset), false);
        w.show();
        QVERIFY(w.waitForResults(60000));
        const auto& r = *w.moeWorkspace()->result();
        const QList<QPointF> line = w.moeWorkspace()->mfuSparsityView()->bestLine();
        QVERIFY(line.size() >= 2);
        for (const auto& c : r.candidates) {
            const double x = c.geometry.sparsity, y = 100 * c.eval.mfu;
            double at = -1;  // the line's highest value over x (a riser counts with both ends)
            for (qsizetype i = 0; i + 1 < line.size(); ++i) {
                const QPointF a = line[i], b = line[i + 1];
                if (x < std::min(a.x(), b.x()) - 1e-12 || x > std::max(a.x(), b.x()) + 1e-12)
                    continue;
                at = std::max(at, b.x() == a.x()
                                      ? std::max(a.y(), b.y())
                                      : a.y() + (b.y() - a.y()) * (x - a.x()) / (b.x() - a.x()));
            }
            QVERIFY2(at >= y - 1e-9,
                     qPrintable(
                         QStringLiteral("S %1: candidate %2 %, line %3 %").arg(x).arg(y).arg(at)));
        }
    }

    /// MOSAIC Fig. 1 as a teacher projects it: the title names the cluster and the window; every
    /// frontier point is extrapolated there, so nothing is dashed (a dash would say nothing) and
    /// the title says so; an arrow runs from the compute-optimal choice trained on this cluster
    /// (triangle) to the cluster optimum (circle) and the caption states the nats gained with the
    /// live numbers; the selected ring is white on the dark theme and black on the light one.
    void frontierTellsTheFig1Story() {
        MainWindow w;
        w.applyPreset(presetIndex(QStringLiteral("mosaic-fig1")), false);
        w.setCurrentWorkspace(1);
        w.resize(1024, 768);
        w.show();
        QVERIFY(w.waitForResults(60000));
        QTest::qWait(30);
        const auto& r = *w.moeWorkspace()->result();
        FrontierView* v = w.moeWorkspace()->frontierView();
        const QString title = plainChartText(v->chart()->title()).simplified();
        QVERIFY2(title.contains(QStringLiteral("4 nodes (32 GPUs), 5 days")), qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("all extrapolated")), qPrintable(title));
        QVERIFY(!v->drawsDashes());
        QVERIFY(std::isfinite(r.naiveOnClusterLoss));
        double kl = NAN, dist = 1e300;  // the cluster frontier's point nearest the optimum
        for (const auto& p : r.clusterOptimal)
            if (p.feasible && std::isfinite(p.loss) &&
                std::abs(p.sparsity - r.clusterOptimalS) < dist) {
                dist = std::abs(p.sparsity - r.clusterOptimalS);
                kl = p.loss;
            }
        QVERIFY(r.naiveOnClusterLoss > kl);
        QCOMPARE(v->gainArrow(), (QList<QPointF>{QPointF(r.computeOptimalS, r.naiveOnClusterLoss),
                                                 QPointF(r.clusterOptimalS, kl)}));
        QVERIFY2(v->caption().contains(QString::number(r.naiveOnClusterLoss - kl, 'f', 4) +
                                       QStringLiteral(" nats better")),
                 qPrintable(v->caption()));
        QVERIFY(v->caption().contains(QString::number(r.clusterOptimalS, 'f', 3)));
        QCOMPARE(v->selectedRingColor(), QColor(Qt::black));
        w.setDarkTheme(true);
        QCOMPARE(v->selectedRingColor(), QColor(Qt::white));
        // A disabled control reads as off on the dark theme too: its text is dimmer than an
        // enabled one's.
        const QPalette pal = QApplication::palette();
        for (QPalette::ColorRole role :
             {QPalette::Text, QPalette::WindowText, QPalette::ButtonText})
            QVERIFY(pal.color(QPalette::Disabled, role).lightness() + 60 <
                    pal.color(QPalette::Active, role).lightness());
        w.setDarkTheme(false);
    }

    /// The loss-vs-sparsity legend names each item once and says what it is: the two frontier
    /// lines first (drawn as lines), then the points on them.
    void frontierLegendNamesEachItemOnce() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        const auto& r = *ws->result();
        FrontierView* v = ws->frontierView();
        QCOMPARE(v->chart()->legend()->markerShape(), QLegend::MarkerShapeFromSeries);
        v->resize(900, 560);  // the export size: long names
        QApplication::processEvents();
        const QStringList legend = v->legendEntries();
        QCOMPARE(QSet<QString>(legend.begin(), legend.end()).size(), legend.size());
        QVERIFY(legend.size() >= 5);
        QCOMPARE(legend[0], QStringLiteral("Compute-optimal frontier (FLOPs only)"));
        QCOMPARE(legend[1], QStringLiteral("Cluster-optimal frontier (this cluster)"));
        QCOMPARE(legend[2], QStringLiteral("Compute-optimum S = %1 (if FLOPs cost no systems time)")
                                .arg(r.computeOptimalS, 0, 'f', 3));
        QVERIFY(std::isfinite(r.clusterOptimalS));
        QCOMPARE(legend[3],
                 QStringLiteral("Cluster-optimum S = %1").arg(r.clusterOptimalS, 0, 'f', 3));
        QCOMPARE(legend.contains(QStringLiteral("Compute-optimum trained on this cluster")),
                 std::isfinite(r.naiveOnClusterLoss));
        QVERIFY(legend.contains(QStringLiteral("Selected candidate")));
        for (QLegendMarker* m : v->chart()->legend()->markers()) {
            if (!m->isVisible()) continue;
            const bool line = m->label().contains(QLatin1String("frontier"));
            QCOMPARE(qobject_cast<QLineSeries*>(m->series()) != nullptr &&
                         qobject_cast<QScatterSeries*>(m->series()) == nullptr,
                     line);
        }
        // A narrow chart (the main window's page) names the same items briefly.
        v->resize(FrontierView::kCompactLegendWidth - 200, 560);
        QApplication::processEvents();
        const QStringList compact = v->legendEntries();
        QCOMPARE(compact.size(), legend.size());
        QCOMPARE(compact[0], QStringLiteral("Compute-optimal frontier"));
        QCOMPARE(compact[1], QStringLiteral("Cluster-optimal frontier"));
        QCOMPARE(
            compact[2],
            QStringLiteral("Compute-opt. S = %1 (FLOPs only)").arg(r.computeOptimalS, 0, 'f', 3));
        QCOMPARE(compact[3],
                 QStringLiteral("Cluster-opt. S = %1").arg(r.clusterOptimalS, 0, 'f', 3));
        // Bars keep filled squares (series-shaped bar markers are drawn empty).
        QVERIFY(!ws->breakdownView()->chart()->legend()->markers().isEmpty());
        for (QLegendMarker* m : ws->breakdownView()->chart()->legend()->markers())
            QCOMPARE(m->shape(), QLegend::MarkerShapeRectangle);
        // The MFU charts name each item once.
        for (MfuView* mfu : {ws->mfuSparsityView(), ws->mfuSplitView()}) {
            const QStringList entries = mfu->legendEntries();
            QCOMPARE(entries.size(), 3);
            QCOMPARE(QSet<QString>(entries.begin(), entries.end()).size(), entries.size());
        }
    }

    void clickingAHeatmapCellUpdatesBreakdownMemoryAndCard() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        ws->pages()->setCurrentIndex(1);
        QApplication::processEvents();
        LayoutHeatmapView* map = ws->heatmapView();
        const int before = map->selected();
        const int target = otherFeasibleCell(map->cells(), before);
        QVERIFY(target >= 0);
        const LayoutCell& cell = map->cells().cells[static_cast<size_t>(target)];
        const QList<double> breakdownBefore = ws->breakdownView()->values(0);
        const double memoryBefore = ws->memoryView()->usedGB();
        const QString cardBefore = ws->card()->text();
        const int pi =
            static_cast<int>(std::find(map->cells().pp.begin(), map->cells().pp.end(), cell.pp) -
                             map->cells().pp.begin());
        const int ei =
            static_cast<int>(std::find(map->cells().ep.begin(), map->cells().ep.end(), cell.ep) -
                             map->cells().ep.begin());
        QCOMPARE(map->cellAt(map->cellCenter(pi, ei)), target);
        QTest::mouseClick(map->viewport(), Qt::LeftButton, {}, map->cellCenter(pi, ei));
        QCOMPARE(map->selected(), target);
        QVERIFY(ws->breakdownView()->values(0) != breakdownBefore);
        QCOMPARE(ws->memoryView()->usedGB(), cell.eval.memoryGB);
        QVERIFY(ws->memoryView()->usedGB() != memoryBefore);
        QVERIFY(ws->card()->text() != cardBefore);
        QVERIFY(ws->card()->text().contains(QStringLiteral("PP %1").arg(cell.plan.pp)));
        // The chosen layout's MFU sets D (Eq. 25) and so the loss (Eq. 10).
        const auto shown = ws->shownCandidate();
        QVERIFY(shown.has_value());
        QCOMPARE(shown->eval.mfu, cell.eval.mfu);
        QVERIFY(shown->loss >=
                ws->result()->candidates[static_cast<size_t>(ws->selectedCandidate())].loss);
    }

    void heatmapMarksOutOfMemoryAndInvalidCells() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        LayoutHeatmapView* map = w.moeWorkspace()->heatmapView();
        int oom = -1, invalid = -1;
        for (size_t i = 0; i < map->cells().cells.size(); ++i) {
            const LayoutCell& c = map->cells().cells[i];
            if (!c.feasible && c.anyValid && oom < 0) oom = static_cast<int>(i);
            if (!c.anyValid && invalid < 0) invalid = static_cast<int>(i);
        }
        QVERIFY(oom >= 0);
        QVERIFY(invalid >= 0);
        QVERIFY2(map->cellToolTip(oom).contains(QLatin1String("memory")),
                 qPrintable(map->cellToolTip(oom)));
        QVERIFY2(map->cellToolTip(invalid).contains(QLatin1String("no valid layout")),
                 qPrintable(map->cellToolTip(invalid)));
        QVERIFY(map->csv().count(QLatin1Char('\n')) ==
                static_cast<int>(map->cells().cells.size()) + 1);
    }

    void selectingATableRowSelectsEverywhere() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        const QString cardBefore = ws->card()->text();
        const QList<QPointF> frontierBefore = ws->frontierView()->selectedPoint();
        const QString heatmapTitle = ws->heatmapView()->chart()->title();
        const int row = ws->result()->optimum == 0 ? 3 : 0;
        CandidateTable* table = ws->candidateTable();
        table->selectionModel()->setCurrentIndex(
            table->model()->index(row, 0),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(ws->selectedCandidate(), row);
        QVERIFY(ws->layoutRunner()->waitIdle(60000));
        QApplication::processEvents();
        const auto& c = ws->result()->candidates[static_cast<size_t>(row)];
        QVERIFY(ws->card()->text() != cardBefore);
        QVERIFY(ws->card()->text().contains(QStringLiteral("Candidate #%1").arg(row + 1)));
        QCOMPARE(ws->mfuSparsityView()->selectedPoint().front(),
                 QPointF(c.geometry.sparsity, 100 * c.eval.mfu));
        QCOMPARE(ws->mfuSplitView()->selectedPoint().front().x(),
                 static_cast<double>(c.geometry.splitG));
        QVERIFY(ws->frontierView()->selectedPoint() != frontierBefore);
        QCOMPARE(ws->memoryView()->usedGB(), c.eval.memoryGB);
        if (tandem::mosaic::geometryLabel(c.geometry) !=
            tandem::mosaic::geometryLabel(
                ws->result()->candidates[static_cast<size_t>(ws->result()->optimum)].geometry))
            QVERIFY(ws->heatmapView()->chart()->title() != heatmapTitle);
        QVERIFY(ws->heatmapView()->selected() >= 0);
        // Two bars: the selection and the cluster optimum for comparison.
        QVERIFY(!ws->breakdownView()->values(1).isEmpty());
    }

    /// Each MOSAIC preset with a `tandem-cli reproduce` counterpart builds exactly that envelope
    /// (same JSON), so the GUI and the CLI show the same search.
    void mosaicPresetsUseTheReproduceEnvelopes() {
        tandem::mosaic::Envelope fig11 =
            tandem::mosaic::table3Envelope();  // Fig. 11 node sweep: 30 days
        fig11.nodes = 128;
        fig11.days = 30;
        const QMap<QString, tandem::mosaic::Envelope> expected{
            {QStringLiteral("mosaic-fig1"), tandem::mosaic::fig1Envelope()},
            {QStringLiteral("mosaic-table4"), tandem::mosaic::table3Envelope()},
            {QStringLiteral("mosaic-fig11"), fig11}};
        int seen = 0;
        for (const Preset& p : allPresets()) {
            if (!expected.contains(p.id)) continue;
            ++seen;
            QVERIFY2(p.scenario.mosaic.has_value(), qPrintable(p.id));
            QCOMPARE(
                QString::fromStdString(tandem::mosaic::writeEnvelope(*p.scenario.mosaic).dump()),
                QString::fromStdString(tandem::mosaic::writeEnvelope(expected[p.id]).dump()));
        }
        QCOMPARE(seen, expected.size());
    }

    /// Each MOSAIC preset's note quotes the numbers Tandem shows for its envelope (cluster-optimal
    /// S; Table 4's geometry and MFU; Fig. 11's N_act; Fig. 1's gain) and gives the paper's as the
    /// paper's.
    void mosaicPresetNotesQuoteTandemsNumbers() {
        int seen = 0;
        for (const Preset& p : allPresets()) {
            if (p.workspace != 1) continue;
            ++seen;
            const tandem::mosaic::SearchResult r = tandem::mosaic::search(*p.scenario.mosaic);
            QVERIFY2(r.optimum >= 0, qPrintable(p.id));
            const auto& best = r.candidates[static_cast<size_t>(r.optimum)];
            const auto& g = best.geometry;
            auto has = [&p](const QString& text) {
                QVERIFY2(p.note.contains(text), qPrintable(p.id + QStringLiteral(": ") + text));
            };
            has(QStringLiteral("paper"));
            if (p.id == QLatin1String("mosaic-fig8")) continue;  // explains the two budgets instead
            has(QStringLiteral("S = %1").arg(r.clusterOptimalS, 0, 'f', 3));
            if (p.id == QLatin1String("mosaic-table4")) {
                has(QStringLiteral("L = %1, E = %2, K = %3, G = %4")
                        .arg(g.layers)
                        .arg(g.experts)
                        .arg(g.topK)
                        .arg(g.splitG));
                has(QStringLiteral("MFU %1 %").arg(100 * best.eval.mfu, 0, 'f', 1));
            }
            if (p.id == QLatin1String("mosaic-fig11"))
                has(QStringLiteral("N_act %1 B").arg(g.nAct / 1e9, 0, 'f', 1));
            if (p.id == QLatin1String("mosaic-fig1")) {
                has(QStringLiteral("%1 nats better")
                        .arg(r.naiveOnClusterLoss - best.loss, 0, 'f', 3));
                has(QStringLiteral("boundary %1")
                        .arg(tandem::mosaic::feasibleBoundarySparsity(r.computeOptimal), 0, 'f',
                             3));
            }
        }
        QCOMPARE(seen, 4);
        // Fig. 3's preset runs one Poisson schedule and says so, next to reproduce's 64 and the
        // paper's.
        for (const Preset& p : allPresets())
            if (p.id == QLatin1String("mlforml-fig3")) {
                QCOMPARE(p.scenario.mlForMl->poissonSchedules, 1);
                for (const char* t : {"one arrival schedule", "reproduce ml-for-ml` averages 64",
                                      "paper's Sec. 3.3"})
                    QVERIFY2(p.note.contains(QLatin1String(t)), t);
            }
    }

    /// Fig. 1: the compute-optimal bins the 4-node cluster cannot deliver are shaded red (from the
    /// feasible boundary S ~ 0.96 up), with a legend entry, and the CSV flags them in the CLI's
    /// columns.
    void fig1FrontierShadesTheRedRegion() {
        const tandem::mosaic::SearchResult r =
            tandem::mosaic::search(tandem::mosaic::fig1Envelope());
        FrontierView v;
        v.resize(900, 560);
        v.setData(r);
        v.show();
        QApplication::processEvents();
        const QList<QPair<double, double>> red = v.shadedBands(true);
        QVERIFY(!red.isEmpty());
        int undeliverable = 0;
        for (const auto& p : r.computeOptimal) {
            if (p.feasible) continue;
            ++undeliverable;
            bool inside = false;
            for (const auto& b : red)
                inside = inside || (p.sparsity >= b.first && p.sparsity <= b.second);
            QVERIFY2(inside, qPrintable(QString::number(p.sparsity)));
        }
        QVERIFY(undeliverable > 0);
        // The red region starts just above the feasible boundary (paper: S_feas^max = 0.96).
        const double boundary = tandem::mosaic::feasibleBoundarySparsity(r.computeOptimal);
        QVERIFY(boundary >= 0.94 && boundary <= 0.97);
        QVERIFY(red.front().first > boundary && red.front().first < boundary + 0.02);
        // One region from there to the end of the grid, islands included, as the paper draws it.
        QCOMPARE(red.size(), qsizetype(1));
        QCOMPARE(red.front().second, r.computeOptimal.back().sparsity);
        QVERIFY(v.legendEntries().contains(
            QStringLiteral("Red: cluster cannot deliver C_model at this S")));
        // CSV: the CLI's columns first, one row per bin, the red bins flagged 0.
        const QStringList lines = v.csv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const QString cli = QString::fromStdString(tandem::mosaic::frontierCsv(r));
        const QStringList cliLines = cli.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), cliLines.size());
        QCOMPARE(lines[0], cliLines[0] + QStringLiteral(",compute_optimal_deliverable"));
        int zeros = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QStringList f = lines[i].split(QLatin1Char(',')),
                              g = cliLines[i].split(QLatin1Char(','));
            QCOMPARE(f.size(), 6);
            QCOMPARE(f[0].toDouble(), g[0].toDouble());
            QCOMPARE(f[1].isEmpty(), g[1].isEmpty());
            if (!f[1].isEmpty()) QVERIFY(std::abs(f[1].toDouble() - g[1].toDouble()) < 1e-9);
            QCOMPARE(f[3], g[3]);
            QCOMPARE(f[5], r.computeOptimal[static_cast<size_t>(i - 1)].feasible
                               ? QStringLiteral("1")
                               : QStringLiteral("0"));
            zeros += f[5] == QStringLiteral("0");
        }
        QCOMPARE(zeros, undeliverable);
    }

    void advancedInputsReachTheSearch() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        const double lossBefore =
            ws->result()->candidates[static_cast<size_t>(ws->result()->optimum)].loss;
        ws->controls()->advanced()->goodput()->setValue(0.5);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(ws->envelope()->goodput, 0.5);
        QVERIFY(w.document()->isModified());
        // Half the useful time: fewer tokens, higher loss.
        QVERIFY(ws->result()->candidates[static_cast<size_t>(ws->result()->optimum)].loss >
                lossBefore);
        QComboBox* hw = ws->controls()->advanced()->hardware();
        const int h100 = hw->findData(QStringLiteral("h100"));
        QVERIFY(h100 >= 0);
        const double memBefore = ws->result()->deviceMemoryGB;
        hw->setCurrentIndex(h100);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(QString::fromStdString(ws->envelope()->hardware.name), QStringLiteral("h100"));
        QVERIFY(ws->result()->deviceMemoryGB < memBefore);
        QCOMPARE(ws->memoryView()->capacityGB(), ws->result()->deviceMemoryGB);
    }

    void stackAndPrecisionRoundTripThroughTheScenario_data() {
        QTest::addColumn<QString>("stack");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<QString>("hardware");
        QTest::newRow("megatron-core fp8 h100") << "megatron-core"
                                                << "fp8"
                                                << "h100";
        QTest::newRow("megatron-core nvfp4 gb200") << "megatron-core"
                                                   << "nvfp4"
                                                   << "gb200-nvl72";
        QTest::newRow("mosaic-paper mxfp8 p6-b200") << "mosaic-paper"
                                                    << "mxfp8"
                                                    << "p6-b200";
    }
    void stackAndPrecisionRoundTripThroughTheScenario() {
        QFETCH(QString, stack);
        QFETCH(QString, precision);
        QFETCH(QString, hardware);
        tandem::mosaic::Precision want{};
        QVERIFY(tandem::mosaic::parsePrecision(precision.toStdString(), want));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("scenario.json"));
        {
            MainWindow w;
            w.setCurrentWorkspace(1);
            w.show();
            QVERIFY(w.waitForResults(60000));
            MoeAdvanced* adv = w.moeWorkspace()->controls()->advanced();
            // The default scenario runs the paper's stack in BF16.
            QCOMPARE(adv->stack()->currentData().toString(), QStringLiteral("mosaic-paper"));
            QCOMPARE(adv->precision()->currentData().toInt(), int(tandem::mosaic::Precision::Bf16));
            adv->hardware()->setCurrentIndex(adv->hardware()->findData(hardware));
            adv->stack()->setCurrentIndex(adv->stack()->findData(stack));
            adv->precision()->setCurrentIndex(adv->precision()->findData(int(want)));
            QVERIFY(w.waitForResults(60000));
            const auto& e = *w.moeWorkspace()->envelope();
            QCOMPARE(QString::fromStdString(e.stack.name), stack);
            QCOMPARE(int(e.precision), int(want));
            QVERIFY(adv->precisionNote()->isHidden());
            QString error;
            QVERIFY2(w.document()->save(path, &error), qPrintable(error));
        }
        MainWindow w2;
        tandem::Diagnostics diag("scenario.json");
        QVERIFY2(w2.document()->load(path, diag), diag.str().c_str());
        const auto& e = *w2.document()->scenario().mosaic;
        QCOMPARE(QString::fromStdString(e.stack.name), stack);
        QCOMPARE(int(e.precision), int(want));
        MoeAdvanced* adv = w2.moeWorkspace()->controls()->advanced();
        QCOMPARE(adv->stack()->currentData().toString(), stack);
        QCOMPARE(adv->precision()->currentData().toInt(), int(want));
        QCOMPARE(adv->hardware()->currentData().toString(), hardware);
    }

    void precisionsWithoutAPeakAreDisabledNotClamped() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeAdvanced* adv = w.moeWorkspace()->controls()->advanced();
        auto* model = qobject_cast<QStandardItemModel*>(adv->precision()->model());
        QVERIFY(model);
        const int fp4 = adv->precision()->findData(int(tandem::mosaic::Precision::Nvfp4));
        const int fp8 = adv->precision()->findData(int(tandem::mosaic::Precision::Fp8));
        QVERIFY(model->item(fp4)->isEnabled());  // p6-b200 (B200) has an FP4 peak
        adv->precision()->setCurrentIndex(fp4);
        QVERIFY(w.waitForResults(60000));
        // H100 has no FP4 peak: NVFP4 is disabled, the choice stays and the note says why.
        adv->hardware()->setCurrentIndex(adv->hardware()->findData(QStringLiteral("h100")));
        QVERIFY(w.waitForResults(60000));
        QVERIFY(!model->item(fp4)->isEnabled());
        QVERIFY(model->item(fp8)->isEnabled());
        QVERIFY(adv->precision()
                    ->itemData(fp4, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("no NVFP4 peak")));
        QCOMPARE(adv->precision()->currentIndex(), fp4);
        QCOMPARE(int(w.moeWorkspace()->envelope()->precision),
                 int(tandem::mosaic::Precision::Nvfp4));
        QVERIFY(!adv->precisionNote()->isHidden());
        QVERIFY(adv->precisionNote()->text().contains(QStringLiteral("h100 has no NVFP4 peak")));
        QVERIFY(w.moeWorkspace()->result()->candidates.empty());
        // A100: no FP8 peak either.
        adv->hardware()->setCurrentIndex(adv->hardware()->findData(QStringLiteral("a100")));
        QVERIFY(w.waitForResults(60000));
        QVERIFY(!model->item(fp8)->isEnabled());
        adv->precision()->setCurrentIndex(
            adv->precision()->findData(int(tandem::mosaic::Precision::Bf16)));
        QVERIFY(w.waitForResults(60000));
        QVERIFY(adv->precisionNote()->isHidden());
        QVERIFY(!w.moeWorkspace()->result()->candidates.empty());
    }

    void paperPresetsKeepThePaperStack() {
        for (int i = 0; i < allPresets().size(); ++i) {
            if (allPresets()[i].workspace != 1) continue;
            MainWindow w;
            w.applyPreset(i, false);
            const auto& e = w.document()->scenario().mosaic;
            QVERIFY(e.has_value());
            QCOMPARE(QString::fromStdString(e->stack.name), QStringLiteral("mosaic-paper"));
            QCOMPARE(w.moeWorkspace()->controls()->advanced()->stack()->currentData().toString(),
                     QStringLiteral("mosaic-paper"));
        }
    }
};

QTEST_MAIN(TstMoeViews)
#include "tst_moe_views.moc"
