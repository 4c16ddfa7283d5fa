// The MoE workspace's result views (offscreen): the optimum shown at start in every view, a
// table row selecting everywhere, and the loss-vs-sparsity frontier (Fig. 1 story, legend, red
// region and CSV).
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QtTest>

#include "mosaic/report.h"
#include "mosaic/reproduce.h"
#include "mosaic/search.h"
#include "test_main.h"
#include "ui/mosaic/candidate_table.h"
#include "ui/mosaic/frontier_view.h"
#include "ui/mosaic/layout_heatmap_view.h"
#include "ui/mosaic/memory_bar_view.h"
#include "ui/mosaic/mfu_view.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/mosaic/optimum_card.h"
#include "ui/mosaic/step_breakdown_view.h"
#include "ui/shell/job_runner.h"
#include "ui/shell/main_window.h"
#include "ui/shell/offscreen.h"
#include "ui/widgets/chart_view.h"

using namespace tandem::ui;

class TstMoeFrontier : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

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
                std::abs(p.sparsity - r.clusterOptimalSparsity) < dist) {
                dist = std::abs(p.sparsity - r.clusterOptimalSparsity);
                kl = p.loss;
            }
        QVERIFY(r.naiveOnClusterLoss > kl);
        QCOMPARE(v->gainArrow(),
                 (QList<QPointF>{QPointF(r.computeOptimalSparsity, r.naiveOnClusterLoss),
                                 QPointF(r.clusterOptimalSparsity, kl)}));
        QVERIFY2(v->caption().contains(QString::number(r.naiveOnClusterLoss - kl, 'f', 4) +
                                       QStringLiteral(" nats better")),
                 qPrintable(v->caption()));
        QVERIFY(v->caption().contains(QString::number(r.clusterOptimalSparsity, 'f', 3)));
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
        // The export size: long names. Fixed, so a later layout pass of the window (a card's text
        // changing after the result) cannot give the view back its page width.
        v->setFixedSize(900, 560);
        QApplication::processEvents();
        const QStringList legend = v->legendEntries();
        QCOMPARE(QSet<QString>(legend.begin(), legend.end()).size(), legend.size());
        QVERIFY(legend.size() >= 5);
        QCOMPARE(legend[0], QStringLiteral("Compute-optimal frontier (FLOPs only)"));
        QCOMPARE(legend[1], QStringLiteral("Cluster-optimal frontier (this cluster)"));
        QCOMPARE(legend[2], QStringLiteral("Compute-optimum S = %1 (if FLOPs cost no systems time)")
                                .arg(r.computeOptimalSparsity, 0, 'f', 3));
        QVERIFY(std::isfinite(r.clusterOptimalSparsity));
        QCOMPARE(legend[3],
                 QStringLiteral("Cluster-optimum S = %1").arg(r.clusterOptimalSparsity, 0, 'f', 3));
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
        v->setFixedSize(FrontierView::kCompactLegendWidth - 200, 560);
        QApplication::processEvents();
        const QStringList compact = v->legendEntries();
        QCOMPARE(compact.size(), legend.size());
        QCOMPARE(compact[0], QStringLiteral("Compute-optimal frontier"));
        QCOMPARE(compact[1], QStringLiteral("Cluster-optimal frontier"));
        QCOMPARE(compact[2], QStringLiteral("Compute-opt. S = %1 (FLOPs only)")
                                 .arg(r.computeOptimalSparsity, 0, 'f', 3));
        QCOMPARE(compact[3],
                 QStringLiteral("Cluster-opt. S = %1").arg(r.clusterOptimalSparsity, 0, 'f', 3));
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
};

TANDEM_TEST_MAIN(TstMoeFrontier)
#include "tst_moe_frontier.moc"
