// The MoE workspace's layout and MFU views (offscreen): the PP x EP heatmap (cells, clicks,
// out-of-memory and invalid cells, hover), the MFU charts' best lines, and the optimum card of
// an odd cluster.
#include <QCategoryAxis>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QtTest>

#include "mosaic/layout_grid.h"
#include "mosaic/reproduce.h"
#include "mosaic/search.h"
#include "test_main.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mosaic/frontier_view.h"
#include "ui/mosaic/layout_heatmap_view.h"
#include "ui/mosaic/memory_bar_view.h"
#include "ui/mosaic/mfu_view.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/mosaic/optimum_card.h"
#include "ui/mosaic/step_breakdown_view.h"
#include "ui/shell/main_window.h"
#include "ui/shell/offscreen.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/labeled_slider.h"
#include "ui/widgets/text_fit.h"

using namespace tandem::ui;

namespace {
/// Index of a feasible heatmap cell other than `exclude` whose plan differs, -1 if none.
int otherFeasibleCell(const LayoutCells& cells, int exclude) {
    for (size_t i = 0; i < cells.cells.size(); ++i)
        if (static_cast<int>(i) != exclude && cells.cells[i].feasible) return static_cast<int>(i);
    return -1;
}
}  // namespace

class TstMoeLayout : public QObject {
    Q_OBJECT
private slots:

    /// Where a page is taller than the window and scrolls, each chart whose top shows at the
    /// scroll's start shows its legend too: at 800x600 the frontier chart's legend (drawn at its
    /// bottom) lay under the visible part, so the chart showed no key to its curves.
    void chartsShowTheirLegendAtTheScrollStart_data() {
        QTest::addColumn<int>("workspace");
        QTest::addColumn<QSize>("size");
        for (int ws : {0, 1})
            for (QSize sz : {QSize(800, 600), QSize(1024, 768)})
                QTest::newRow(qPrintable(
                    QStringLiteral("workspace %1 %2x%3").arg(ws).arg(sz.width()).arg(sz.height())))
                    << ws << sz;
    }
    void chartsShowTheirLegendAtTheScrollStart() {
        QFETCH(int, workspace);
        QFETCH(QSize, size);
        MainWindow w;
        w.setCurrentWorkspace(workspace);
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.waitForResults(60000));
        QWidget* ws = workspace == 0 ? static_cast<QWidget*>(w.networkWorkspace())
                                     : static_cast<QWidget*>(w.moeWorkspace());
        QTabWidget* pages =
            workspace == 0 ? w.networkWorkspace()->pages() : w.moeWorkspace()->pages();
        auto* scroll = ws->findChild<QScrollArea*>(QStringLiteral("pagesScroll"));
        QVERIFY(scroll);
        pages->setCurrentIndex(0);
        QVERIFY(w.waitForResults(60000));
        for (int round = 0; round < 5; ++round) {  // charts fit their texts, layouts settle
            QCoreApplication::processEvents();
            QTest::qWait(20);
        }
        scroll->verticalScrollBar()->setValue(0);
        QWidget* view = scroll->viewport();
        int checked = 0;
        const auto charts = pages->currentWidget()->findChildren<ChartView*>();
        for (ChartView* c : charts) {
            if (!c->isVisible() || !c->legendText() || !c->legendText()->isVisible()) continue;
            const QPoint top = c->mapTo(view, QPoint(0, 0));
            if (top.y() >= view->height()) continue;  // starts below the fold: scrolled to
            const QRectF inScene = c->legendText()->sceneBoundingRect();
            const QPoint bottom =
                c->mapTo(view, c->mapFromScene(QPointF(inScene.left(), inScene.bottom() - 1)));
            ++checked;
            QVERIFY2(bottom.y() < view->height(),
                     qPrintable(QStringLiteral("%1: legend ends at y %2 of a view %3 px high "
                                               "(chart at y %4, %5 px high)")
                                    .arg(c->exportName())
                                    .arg(bottom.y())
                                    .arg(view->height())
                                    .arg(top.y())
                                    .arg(c->height())));
        }
        QVERIFY(checked >= 1);
    }
    /// A grid as wide as a rack-scale cluster's (19 PP x 21 EP values, a small chart): the axes
    /// label every k-th value whole (never "..."), a value that does not fit its cell is left out
    /// (not cut), and a wide chart labels every value.
    void heatmapLegibleOnLargeGrids() {
        LayoutCells lc;
        for (int v : {1, 2, 3, 4, 6, 8, 9, 12, 16, 18, 24, 32, 36, 48, 64, 72, 96, 144, 288})
            lc.pp.push_back(v);
        lc.ep = lc.pp;
        lc.ep.insert(lc.ep.end(), {576, 1152});
        lc.maxMfu = 0.123;
        for (int pp : lc.pp)
            for (int ep : lc.ep) {
                LayoutCell c;
                c.pp = pp;
                c.ep = ep;
                c.feasible = c.anyValid = (pp * ep) % 3 == 0;
                c.eval.mfu = 0.1;
                lc.cells.push_back(c);
            }
        LayoutHeatmapView v;
        v.resize(360, 330);
        v.show();
        v.setData(lc, 0, QStringLiteral("MFU (%) per layout"));
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
        v.ensureBuilt();
        v.fitTexts();
        const QStringList problems = chartTextProblems(&v);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        auto labels = [&](Qt::Orientation o) {
            for (QAbstractAxis* a : v.chart()->axes(o))
                if (auto* c = qobject_cast<QCategoryAxis*>(a)) return c->categoriesLabels();
            return QStringList();
        };
        const QStringList x = labels(Qt::Horizontal), y = labels(Qt::Vertical);
        QVERIFY2(x.size() > 1 && x.size() < int(lc.ep.size()), qPrintable(x.join(',')));
        QVERIFY2(y.size() > 1 && y.size() < int(lc.pp.size()), qPrintable(y.join(',')));
        QCOMPARE(x.front(), QStringLiteral("1"));
        for (const QString& l : x + y) QVERIFY2(!l.contains(QStringLiteral("...")), qPrintable(l));
        v.resize(1600, 1200);
        for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
        v.ensureBuilt();
        QCOMPARE(labels(Qt::Horizontal).size(), int(lc.ep.size()));
    }
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// The side panel's pin button pins the whole window (View > Pin for comparison): the MFU
    /// charts keep their best lines as pinned curves through a change, and a second click clears.
    void pinKeepsTheMfuBestLines() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        const auto pinnedBest = [](MfuView* v) {
            for (const ChartView::PinnedCurve& c : v->pinnedCurves())
                if (c.line) return c.points;
            return QList<QPointF>();
        };
        QVERIFY(pinnedBest(ws->mfuSparsityView()).isEmpty());
        const QList<QPointF> before = ws->mfuSparsityView()->bestLine();
        const QList<QPointF> beforeG = ws->mfuSplitView()->bestLine();
        QVERIFY(!before.isEmpty() && !beforeG.isEmpty());
        ws->controls()->pinButton()->click();
        QVERIFY(w.comparisonPinned());
        QCOMPARE(pinnedBest(ws->mfuSparsityView()), before);
        QCOMPARE(pinnedBest(ws->mfuSplitView()), beforeG);
        LabeledSlider* nodes = ws->controls()->nodesSlider();
        nodes->setNumber(nodes->value() / 2);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(pinnedBest(ws->mfuSparsityView()), before);
        QVERIFY(ws->mfuSparsityView()->bestLine() != before);
        ws->controls()->pinButton()->click();
        QVERIFY(!w.comparisonPinned());
        QVERIFY(pinnedBest(ws->mfuSparsityView()).isEmpty());
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
        card.setCandidate(best, QStringLiteral("optimum"), r.computeOptimalSparsity,
                          r.naiveOnClusterLoss);
        QVERIFY2(
            card.text().contains(QString::number(best.globalBatch) + QStringLiteral(" sequences")),
            qPrintable(card.text()));
        // "micro-batch N" is kept whole on a wrapped line (non-breaking hyphen and space).
        QVERIFY2(card.text().contains(QStringLiteral("micro\u2011batch\u00a0") +
                                      QString::number(best.plan.mbs)),
                 qPrintable(card.text()));
        QVERIFY2(!card.text().contains(QStringLiteral("micro-batch")), qPrintable(card.text()));
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
};

TANDEM_TEST_MAIN(TstMoeLayout)
#include "tst_moe_layout.moc"
