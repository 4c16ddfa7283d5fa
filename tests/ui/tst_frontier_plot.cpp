// The frontier chart's model step (FrontierPlot) without a display: a hand-built SearchResult of
// five sparsity bins and the segments, extents, optima, bands, arrow and text it turns into
// [2608.10605 Fig. 1, Eq. 10].
#include <QtTest>
#include <cmath>

#include "mosaic/search.h"
#include "test_main.h"
#include "ui/mosaic/frontier_plot.h"

using namespace tandem;
using namespace tandem::ui;

namespace {
mosaic::FrontierPoint pt(double s, double loss, bool feasible, bool extrapolated) {
    mosaic::FrontierPoint p;
    p.sparsity = s;
    p.loss = loss;
    p.feasible = feasible;
    p.extrapolated = extrapolated;
    return p;
}

bool near(double a, double b) { return std::abs(a - b) < 1e-12; }

bool sameBands(const QList<QPair<double, double>>& got, const QList<QPair<double, double>>& want) {
    if (got.size() != want.size()) return false;
    for (qsizetype i = 0; i < got.size(); ++i)
        if (!near(got[i].first, want[i].first) || !near(got[i].second, want[i].second))
            return false;
    return true;
}

using Lines = QList<QList<QPointF>>;

/// Same polylines, point for point (QPointF's fuzzy ==).
bool sameLines(const Lines& got, const Lines& want) { return got == want; }

/// Bins S = 0.5 .. 0.9. Compute-optimal: losses 2.5 .. 2.1 nats, fitted up to 0.7, deliverable
/// at 0.6, 0.7 and 0.9 (0.9 an island inside the red region). Cluster-optimal: 2.6, 2.5, 2.45,
/// none at 0.8, 2.55; extrapolated at 0.7 and 0.9.
mosaic::SearchResult fiveBins() {
    mosaic::SearchResult r;
    r.computeOptimal = {pt(0.5, 2.5, false, false), pt(0.6, 2.4, true, false),
                        pt(0.7, 2.3, true, false), pt(0.8, 2.2, false, true),
                        pt(0.9, 2.1, true, true)};
    r.clusterOptimal = {pt(0.5, 2.6, true, false), pt(0.6, 2.5, true, false),
                        pt(0.7, 2.45, true, true), pt(0.8, NAN, false, false),
                        pt(0.9, 2.55, true, true)};
    r.computeOptimalSparsity = 0.9;
    r.clusterOptimalSparsity = 0.7;
    r.naiveOnClusterLoss = 2.65;
    return r;
}
}  // namespace

class TstFrontierPlot : public QObject {
    Q_OBJECT
private slots:
    void segmentsSplitWhereTheFittedRangeEnds() {
        const FrontierPlot p = frontierPlot(fiveBins(), {}, false);
        // Compute-optimal: fitted 0.5 .. 0.7, then dashed from the shared point 0.7 on.
        QVERIFY(sameLines(p.computeFitted, Lines{{{0.5, 2.5}, {0.6, 2.4}, {0.7, 2.3}}}));
        QVERIFY(sameLines(p.computeExtrapolated, Lines{{{0.7, 2.3}, {0.8, 2.2}, {0.9, 2.1}}}));
        // Cluster-optimal: broken at the infeasible bin 0.8.
        QVERIFY(sameLines(p.clusterFitted, Lines{{{0.5, 2.6}, {0.6, 2.5}}}));
        QVERIFY(sameLines(p.clusterExtrapolated, Lines{{{0.6, 2.5}, {0.7, 2.45}}, {{0.9, 2.55}}}));
        QVERIFY(!p.allExtrapolated);
        QVERIFY(p.dashes);
        QCOMPARE(p.titleNote, QStringLiteral(" (dashed: outside Eq. 10's fitted range)"));
    }

    void allExtrapolatedIsDrawnSolid() {
        mosaic::SearchResult r = fiveBins();
        for (auto* v : {&r.computeOptimal, &r.clusterOptimal})
            for (auto& q : *v) q.extrapolated = true;
        const FrontierPlot p = frontierPlot(r, {}, false);
        QVERIFY(p.allExtrapolated);
        QVERIFY(!p.dashes);
        QVERIFY(p.computeExtrapolated.isEmpty());
        QVERIFY(p.clusterExtrapolated.isEmpty());
        QCOMPARE(p.computeFitted.size(), 1);
        QCOMPARE(p.computeFitted[0].size(), 5);
        QCOMPARE(p.clusterFitted.size(), 2);  // 0.5 .. 0.7 and 0.9
        QCOMPARE(p.titleNote, QStringLiteral(" (all extrapolated beyond Eq. 10's fitted range)"));
        // Nothing extrapolated: no dash and no note.
        for (auto* v : {&r.computeOptimal, &r.clusterOptimal})
            for (auto& q : *v) q.extrapolated = false;
        const FrontierPlot f = frontierPlot(r, {}, false);
        QVERIFY(!f.allExtrapolated && !f.dashes);
        QVERIFY(f.titleNote.isEmpty());
    }

    void extentsArePadded() {
        const FrontierPlot p = frontierPlot(fiveBins(), {}, false);
        // x: 0.5 .. 0.9 widened by 0.005; y: 2.1 .. 2.6 (NaN skipped) widened by 6 % of 0.5.
        QVERIFY(near(p.xLo, 0.495));
        QVERIFY(near(p.xHi, 0.905));
        QVERIFY(near(p.yLo, 2.07));
        QVERIFY(near(p.yHi, 2.63));
        // Nothing at all: x 0 .. 1 and y 0 .. 0.1 nats, padded the same way.
        const FrontierPlot e = frontierPlot(mosaic::SearchResult{}, {}, false);
        QVERIFY(near(e.xLo, -0.005));
        QVERIFY(near(e.xHi, 1.005));
        QVERIFY(near(e.yLo, -0.006));
        QVERIFY(near(e.yHi, 0.106));
        // One loss: 0.1 nats from 0.05 below it.
        mosaic::SearchResult one;
        one.computeOptimal = {pt(0.5, 2.0, true, false)};
        const FrontierPlot o = frontierPlot(one, {}, false);
        QVERIFY(near(o.yLo, 1.95 - 0.006));
        QVERIFY(near(o.yHi, 2.05 + 0.006));
        QVERIFY(near(o.xLo, -0.005));  // a single sparsity is no span
    }

    void markersWidenTheExtents() {
        const QList<FrontierMarker> markers = {{QStringLiteral("m@a"), 0.95, 2.0, true},
                                               {QStringLiteral("off"), 0.99, NAN, false}};
        const FrontierPlot p = frontierPlot(fiveBins(), markers, false);
        // y: 2.0 (marker) .. 2.6 (cluster-optimal), padded by 0.06 x 0.6; x: 0.5 .. 0.95 (marker).
        QVERIFY(near(p.yLo, 1.964));
        QVERIFY(near(p.yHi, 2.636));
        QVERIFY(near(p.xLo, 0.495));
        QVERIFY(near(p.xHi, 0.955));
        QCOMPARE(p.markers.size(), 2);
        QVERIFY(p.markers[0].shown);
        QCOMPARE(p.markers[0].name, QStringLiteral("m@a (extrapolated)"));
        QCOMPARE(p.markers[0].pointLabel, QStringLiteral("m(at)a"));
        QCOMPARE(p.markers[0].point, QPointF(0.95, 2.0));
        QVERIFY(!p.markers[1].shown);
        QCOMPARE(p.markers[1].name, QStringLiteral("off"));
    }

    void optimaGainAndCaption() {
        const FrontierPlot p = frontierPlot(fiveBins(), {}, false);
        QVERIFY(p.computeOptimum && *p.computeOptimum == QPointF(0.9, 2.1));
        QVERIFY(p.clusterOptimum && *p.clusterOptimum == QPointF(0.7, 2.45));
        QVERIFY(p.naiveOnCluster && *p.naiveOnCluster == QPointF(0.9, 2.65));
        QCOMPARE(p.arrow, (QList<QPointF>{{0.9, 2.65}, {0.7, 2.45}}));
        QVERIFY(near(p.gain, 2.65 - 2.45));
        QCOMPARE(p.gainLabel, QStringLiteral("0.200 nats better"));
        QCOMPARE(p.caption,
                 QStringLiteral("Trained on this cluster, the compute-optimal choice (triangle, "
                                "S = 0.900) reaches 2.6500 nats, the cluster optimum (circle, "
                                "S = 0.700) 2.4500: 0.2000 nats better."));
        QCOMPARE(p.computeOptimumName,
                 QStringLiteral("Compute-optimum S = 0.900 (if FLOPs cost no systems time)"));
        QCOMPARE(p.clusterOptimumName, QStringLiteral("Cluster-optimum S = 0.700"));
        QCOMPARE(p.computeName, QStringLiteral("Compute-optimal frontier (FLOPs only)"));
        // The compact legend's names.
        const FrontierPlot c = frontierPlot(fiveBins(), {}, true);
        QCOMPARE(c.computeOptimumName, QStringLiteral("Compute-opt. S = 0.900 (FLOPs only)"));
        QCOMPARE(c.clusterOptimumName, QStringLiteral("Cluster-opt. S = 0.700"));
        QCOMPARE(c.naiveName, QStringLiteral("Compute-opt. on cluster"));
        QCOMPARE(c.redBandName, QStringLiteral("C_model not deliverable"));
    }

    void missingOptimaAreNotDrawn() {
        mosaic::SearchResult r = fiveBins();
        r.clusterOptimalSparsity = NAN;  // no candidate
        r.naiveOnClusterLoss = NAN;
        const FrontierPlot p = frontierPlot(r, {}, false);
        QVERIFY(p.computeOptimum.has_value());
        QVERIFY(!p.clusterOptimum.has_value());
        QVERIFY(!p.naiveOnCluster.has_value());
        QVERIFY(p.arrow.isEmpty());
        QVERIFY(std::isnan(p.gain));
        QVERIFY(p.caption.isEmpty());
        QVERIFY(p.gainLabel.isEmpty());
        // A triangle no worse than the circle: no arrow either.
        r = fiveBins();
        r.naiveOnClusterLoss = 2.45;
        const FrontierPlot q = frontierPlot(r, {}, false);
        QVERIFY(q.naiveOnCluster.has_value());
        QVERIFY(q.arrow.isEmpty());
        QVERIFY(q.caption.isEmpty());
    }

    void bands() {
        const FrontierPlot p = frontierPlot(fiveBins(), {}, false);
        // Red: 0.5 lies below the first deliverable bin; from 0.8 on is beyond the boundary 0.7
        // (the deliverable 0.9 is an island and does not break the region).
        QVERIFY(sameBands(p.redBands, {{0.5, 0.55}, {0.75, 0.9}}));
        // Grey: the cluster has no layout at 0.8.
        QVERIFY(sameBands(p.greyBands, {{0.75, 0.85}}));
        QCOMPARE(p.redBandName, QStringLiteral("Red: cluster cannot deliver C_model at this S"));
        QCOMPARE(p.greyBandName, QStringLiteral("No feasible layout on this cluster"));
    }
};

TANDEM_TEST_GUILESS_MAIN(TstFrontierPlot)
#include "tst_frontier_plot.moc"
