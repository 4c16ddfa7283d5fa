// MOSAIC search: frontier shape (compute-optimal at the boundary, cluster-optimal interior) on
// the Table 3 and Fig. 1 envelopes, determinism, cancellation, reports, reproduce checks.
#include <QtTest>
#include <array>
#include <atomic>
#include <cmath>
#include <set>
#include <thread>

#include "mosaic/background.h"
#include "mosaic/layout_grid.h"
#include "mosaic/report.h"
#include "mosaic/reproduce.h"
#include "mosaic/search.h"
#include "test_main.h"

using namespace tandem::mosaic;

class TestMosaicSearch : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void boundaryVersusInterior_data();
    void boundaryVersusInterior();
    void candidatesAreFeasibleAndSorted();
    void deterministic();
    void threadCountDoesNotChangeTheResult();
    void rescoredCostingsEqualColdSearches();
    void cancellation();
    void preparedCostingsEqualColdSearches();
    void evaluatePlansHeatmap();
    void quickSpaceEqualsFullSpace_data();
    void quickSpaceEqualsFullSpace();
    void roundedSearchEqualsPlainScan();
    void csvShapes();
    void feasibleBoundary_data();
    void feasibleBoundary();
    void fig1FeasibleBoundary();
    void nearTieCheck_data();
    void nearTieCheck();
    void reproduceChecks();
    void scoreCandidateByHand_data();
    void scoreCandidateByHand();
    void candidatesUseTheScore();

private:
    SearchResult m_table3;
};

void TestMosaicSearch::initTestCase() { m_table3 = search(table3Envelope()); }

void TestMosaicSearch::boundaryVersusInterior_data() {
    QTest::addColumn<bool>("fig1");
    QTest::newRow("table3") << false;
    QTest::newRow("fig1") << true;
}

void TestMosaicSearch::boundaryVersusInterior() {
    QFETCH(bool, fig1);
    const Envelope e = fig1 ? fig1Envelope() : table3Envelope();
    const SearchResult r = fig1 ? search(e) : m_table3;
    const auto& grid = e.frontierSparsity;
    // Compute-optimal: L*(S) strictly decreasing, argmin at the largest sparsity (boundary).
    for (size_t i = 1; i < r.computeOptimal.size(); ++i)
        QVERIFY(r.computeOptimal[i].loss < r.computeOptimal[i - 1].loss);
    QCOMPARE(r.computeOptimalSparsity, grid.back());
    // Cluster-optimal: strictly interior.
    QVERIFY(r.optimum == 0);
    QVERIFY(r.clusterOptimalSparsity > grid.front() && r.clusterOptimalSparsity < grid.back());
    double bestLoss = 1e9;
    size_t bestBin = 0;
    for (size_t i = 0; i < r.clusterOptimal.size(); ++i)
        if (r.clusterOptimal[i].feasible && r.clusterOptimal[i].loss < bestLoss) {
            bestLoss = r.clusterOptimal[i].loss;
            bestBin = i;
        }
    QVERIFY(bestBin > 0 && bestBin + 1 < grid.size());
    QCOMPARE(bestLoss, r.candidates[0].loss);
    // The naive (compute-optimal) choice re-scored on the cluster is worse than the optimum.
    QVERIFY(std::isfinite(r.naiveOnClusterLoss));
    QVERIFY(r.naiveOnClusterLoss > r.candidates[0].loss);
}

void TestMosaicSearch::candidatesAreFeasibleAndSorted() {
    const Envelope e;
    const auto& c = m_table3.candidates;
    QVERIFY(c.size() > 50);
    for (size_t i = 0; i < c.size(); ++i) {
        QVERIFY(c[i].eval.feasible);
        QVERIFY(c[i].eval.memoryGB <= m_table3.deviceMemoryGB);
        QVERIFY(c[i].eval.mfu > 0 && c[i].eval.mfu < 1);
        QVERIFY(c[i].geometry.sparsity >= e.minSparsity);
        const double tpp = c[i].tokens / c[i].geometry.nAct;
        QVERIFY(tpp >= e.tppMin - 1e-9 && tpp <= e.tppMax + 1e-9);
        // Eq. 25: D never exceeds what the cluster delivers at this MFU.
        QVERIFY(c[i].tokens <=
                deliverableTokens(e, c[i].eval.mfu, c[i].geometry.nAct) * (1 + 1e-12));
        if (i) QVERIFY(c[i - 1].loss <= c[i].loss);
    }
    QVERIFY(std::abs(m_table3.peakBudgetFlops / 9.95e23 - 1) < 0.001);
}

void TestMosaicSearch::deterministic() {
    const SearchResult again = search(table3Envelope());
    QCOMPARE(searchToJson(again).dump(), searchToJson(m_table3).dump());
}

/// The geometries costed on 1, 2 or 3 threads give the same result, byte for byte in the
/// report and the candidate table: on the listed grid (Table 3, 16 nodes), the derived grid (24
/// nodes, several batch tables) and beside co-running jobs (measured-style curves attached).
void TestMosaicSearch::threadCountDoesNotChangeTheResult() {
    Envelope derived = table3Envelope();
    derived.nodes = 24;
    Envelope joined = table3Envelope();
    BackgroundLoad bg;
    bg.jobs = 8;
    bg.topology.nodes = 256;
    bg.placement.foreground = tandem::fabric::PlacementPolicy::Spread;
    bg.placement.background = tandem::fabric::PlacementPolicy::Random;
    joined.background = bg;
    for (const Envelope& e : {table3Envelope(), derived, joined}) {
        const SearchResult one = search(e, nullptr, 1);
        QVERIFY(!one.candidates.empty());
        for (int threads : {2, 3}) {
            const SearchResult many = search(e, nullptr, threads);
            QCOMPARE(searchToJson(many).dump(), searchToJson(one).dump());
            QCOMPARE(candidatesCsv(many), candidatesCsv(one));
        }
    }
}

/// search() keeps the costing of each cluster's geometries and only re-scores it when the
/// training window, goodput, TPP bounds, C_model, Eq. 10's law or the frontier bins change: each
/// such envelope searched after the costing was made for another one gives the report of a cold
/// search (the costings cleared first).
void TestMosaicSearch::rescoredCostingsEqualColdSearches() {
    for (int nodes : {12, 32}) {
        Envelope base = table3Envelope();
        base.nodes = nodes;
        std::vector<Envelope> variants;
        for (double days : {3.0, 20.0, 60.0}) {
            Envelope v = base;
            v.days = days;
            variants.push_back(v);
        }
        Envelope v = base;
        v.goodput = 0.8;
        v.tppMin = 20;
        v.tppMax = 300;
        v.law.e = 0.35;
        v.frontierSparsity = {0.8, 0.9, 0.95};
        variants.push_back(v);
        Envelope budget = base;
        budget.computeBudgetFlops = 3.3e21;
        variants.push_back(budget);
        std::vector<std::string> cold;
        for (const Envelope& x : variants) {
            clearSearchCostings();
            cold.push_back(searchToJson(search(x)).dump() + candidatesCsv(search(x)));
        }
        clearSearchCostings();
        (void)search(variants.front());
        for (size_t i = 0; i < variants.size(); ++i)
            QCOMPARE(searchToJson(search(variants[i])).dump() + candidatesCsv(search(variants[i])),
                     cold[i]);
        // A costing field (B_global) is not re-scored: it gives its own, different, costing.
        Envelope batch = base;
        batch.globalBatch = 512;
        QVERIFY(candidatesCsv(search(batch)) != cold[1]);
    }
}

/// prepareSearch costs what a later search re-scores: the same result as a cold search, whether
/// the search comes after it, runs while it runs (it waits for the costing), or follows a
/// preparation that was cancelled (it costs the cluster itself).
void TestMosaicSearch::preparedCostingsEqualColdSearches() {
    Envelope e = table3Envelope();
    e.nodes = 48;  // rounded batches: the costing that takes longest
    clearSearchCostings();
    const std::string cold = searchToJson(search(e)).dump() + candidatesCsv(search(e));
    Envelope later = e;
    later.days = 7;  // a scoring field: the prepared costing serves it
    clearSearchCostings();
    const std::string coldLater = searchToJson(search(later)).dump();

    clearSearchCostings();
    prepareSearch(e, nullptr, 2);
    QCOMPARE(searchToJson(search(later)).dump(), coldLater);

    clearSearchCostings();
    std::thread preparing([&] { prepareSearch(e, nullptr, 1); });
    const SearchResult during = search(e, nullptr, 2);
    preparing.join();
    QCOMPARE(searchToJson(during).dump() + candidatesCsv(during), cold);

    clearSearchCostings();
    std::atomic<bool> stop{false};
    std::thread cancelled([&] {
        try {
            prepareSearch(e, &stop, 1);
        } catch (const tandem::Cancelled&) {
        }
    });
    stop = true;
    const SearchResult after = search(e, nullptr, 2);
    cancelled.join();
    QCOMPARE(searchToJson(after).dump() + candidatesCsv(after), cold);
    std::atomic<bool> already{true};
    QVERIFY_THROWS_EXCEPTION(tandem::Cancelled, prepareSearch(e, &already));
}

void TestMosaicSearch::cancellation() {
    std::atomic<bool> flag{true};
    QVERIFY_THROWS_EXCEPTION(tandem::Cancelled, search(table3Envelope(), &flag));
    // Raised on every worker thread: the exception reaches the caller once the threads stopped.
    QVERIFY_THROWS_EXCEPTION(tandem::Cancelled, search(table3Envelope(), &flag, 3));
}

void TestMosaicSearch::evaluatePlansHeatmap() {
    const auto plans = evaluatePlans(ladderGeometry(12, 96, 2, 4), table3Envelope());
    QVERIFY(plans.size() > 100);
    int feasible = 0, infeasible = 0;
    std::set<std::pair<int, int>> ppEp;
    for (const auto& [p, ev] : plans) {
        ev.feasible ? ++feasible : ++infeasible;
        if (!ev.feasible) QVERIFY(!ev.reason.empty());
        ppEp.insert({p.pp, p.ep});
    }
    QVERIFY(feasible > 0 && infeasible > 0);
    QVERIFY(ppEp.size() > 10);
}

namespace {
/// Table 3's envelope on `nodes` nodes (48: 384 GPUs, a derived grid with 10 batch tables).
Envelope table3On(int nodes) {
    Envelope e = table3Envelope();
    e.nodes = nodes;
    return e;
}
}  // namespace

void TestMosaicSearch::quickSpaceEqualsFullSpace_data() {
    QTest::addColumn<int>("nodes");
    QTest::newRow("32 nodes, listed grid") << 32;
    QTest::newRow("48 nodes, rounded batches") << 48;
    QTest::newRow("24 nodes, rounded batches") << 24;
}

/// quickEvaluateSpace lists the plans of evaluateSpace in the same order with the same
/// feasibility, MFU, step time and memory, bit for bit.
void TestMosaicSearch::quickSpaceEqualsFullSpace() {
    QFETCH(int, nodes);
    const Envelope e = table3On(nodes);
    const Cluster c = clusterOf(e);
    const LayoutSpace space = layoutSpaceOf(e);
    QCOMPARE(space.roundBatch, nodes != 32);
    for (const Geometry& g : {ladderGeometry(12, 96, 2, 4), ladderGeometry(16, 256, 8, 8)}) {
        const auto full = evaluateSpace(g, c, space);
        const auto quick = quickEvaluateSpace(g, c, space);
        QCOMPARE(quick.size(), full.size());
        QVERIFY(full.size() > 100);
        int feasible = 0;
        for (size_t i = 0; i < full.size(); ++i) {
            const auto& [pf, ef] = full[i];
            const auto& [pq, eq] = quick[i];
            QVERIFY(pq.tp == pf.tp && pq.cp == pf.cp && pq.pp == pf.pp && pq.ep == pf.ep &&
                    pq.dp == pf.dp && pq.mbs == pf.mbs && pq.ckpt == pf.ckpt);
            QCOMPARE(eq.feasible, ef.feasible);
            QCOMPARE(eq.memoryBytes / 1e9, ef.memoryGB);
            if (ef.feasible) {
                ++feasible;
                QCOMPARE(eq.mfu, ef.mfu);
                QCOMPARE(eq.iteration_s, ef.iteration_s);
            }
        }
        QVERIFY(feasible > 0);
    }
}

/// On a cluster whose layouts run rounded batches (several batch tables, whose common terms the
/// search costs once), each candidate's MFU is the highest over the layouts of its geometry
/// evaluated one by one in full, each layout in its least recomputing checkpointing mode that
/// is feasible (the search's rule, PerfModel::best).
void TestMosaicSearch::roundedSearchEqualsPlainScan() {
    const Envelope e = table3On(48);
    clearSearchCostings();
    const SearchResult r = search(e);
    QVERIFY(r.candidates.size() > 20);
    QVERIFY(r.layoutGrid == LayoutGridRule::Derived);
    for (size_t i = 0; i < r.candidates.size(); i += 7) {
        const Candidate& c = r.candidates[i];
        double best = -1;
        std::set<std::array<int, 6>> decided;                     // layouts whose mode is chosen
        for (const auto& [p, ev] : evaluatePlans(c.geometry, e))  // modes in grid order
            if (ev.feasible && decided.insert({p.tp, p.cp, p.pp, p.ep, p.dp, p.mbs}).second)
                best = std::max(best, ev.mfu);
        QCOMPARE(c.eval.mfu, best);
    }
}

void TestMosaicSearch::csvShapes() {
    const std::string f = frontierCsv(m_table3);
    QVERIFY(f.rfind("sparsity,compute_optimal_loss,cluster_optimal_loss,feasible,extrapolated\n",
                    0) == 0);
    QCOMPARE(int(std::count(f.begin(), f.end(), '\n')), int(m_table3.clusterOptimal.size()) + 1);
    const std::string c = candidatesCsv(m_table3);
    QCOMPARE(int(std::count(c.begin(), c.end(), '\n')), int(m_table3.candidates.size()) + 1);
    const auto j = searchToJson(m_table3);
    QCOMPARE(j["candidates"].size(), m_table3.candidates.size());
    QVERIFY(j["cluster_optimal"].size() == m_table3.clusterOptimal.size());
}

void TestMosaicSearch::feasibleBoundary_data() {
    // Deliverable flags of bins at S = 0.90, 0.92, 0.94, ... (ascending), expected boundary.
    QTest::addColumn<QString>("flags");
    QTest::addColumn<double>("boundary");
    const double nan = std::nan("");
    QTest::newRow("all deliverable") << "1111" << 0.96;
    QTest::newRow("none") << "0000" << nan;
    QTest::newRow("red from the third bin") << "1100" << 0.92;
    QTest::newRow("island above the red region ignored") << "11101" << 0.94;
    QTest::newRow("first bin undeliverable") << "0110" << 0.94;
    QTest::newRow("only the first bin") << "1000" << 0.90;
    QTest::newRow("only the last bin") << "0001" << 0.96;
}

void TestMosaicSearch::feasibleBoundary() {
    QFETCH(QString, flags);
    QFETCH(double, boundary);
    std::vector<FrontierPoint> f;
    for (int i = 0; i < flags.size(); ++i) {
        FrontierPoint p;
        p.sparsity = 0.90 + 0.02 * i;
        p.feasible = flags[i] == QLatin1Char('1');
        f.push_back(p);
    }
    const double got = feasibleBoundarySparsity(f);
    if (std::isnan(boundary))
        QVERIFY(std::isnan(got));
    else
        QCOMPARE(got, boundary);  // fuzzy: 0.90 + 0.02 i is not exact in binary
}

void TestMosaicSearch::fig1FeasibleBoundary() {
    // Fig. 1 envelope: the boundary is the bin before the first undeliverable one, every bin up
    // to it is deliverable (C_peak eta_good MFU* >= C_model) and the next one is not.
    const Envelope e = fig1Envelope();
    const SearchResult r = search(e);
    const double b = feasibleBoundarySparsity(r.computeOptimal);
    QVERIFY(std::isfinite(b));
    size_t i = 0;
    while (i < r.computeOptimal.size() && r.computeOptimal[i].sparsity < b)
        QVERIFY(r.computeOptimal[i++].feasible);
    QVERIFY(i + 1 < r.computeOptimal.size());
    QCOMPARE(r.computeOptimal[i].sparsity, b);
    const FrontierPoint& next = r.computeOptimal[i + 1];
    QVERIFY(!next.feasible);
    // Undeliverable: the bin's geometry exists but its MFU* is below C_model / (C_peak eta_good).
    QVERIFY(next.candidate >= 0);
    QVERIFY(r.peakBudgetFlops * e.goodput * r.candidates[size_t(next.candidate)].eval.mfu <
            r.modelBudgetFlops);
}

/// makeNearTieCheck by hand: band [10, 20], optimum first.
void TestMosaicSearch::nearTieCheck_data() {
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<bool>("pass");
    QTest::addColumn<QString>("noteHas");
    QTest::newRow("optimum in band") << QList<double>{15, 30} << true << "optimum itself is inside";
    QTest::newRow("second in band") << QList<double>{26, 30, 17.5} << true << "17.5";
    QTest::newRow("none in band") << QList<double>{26, 30} << false << "none of the 2";
    QTest::newRow("NaN never passes")
        << QList<double>{std::nan(""), 25} << false << "none of the 2";
    QTest::newRow("no candidate") << QList<double>{} << false << "none of the 0";
}

void TestMosaicSearch::nearTieCheck() {
    QFETCH(QList<double>, values);
    QFETCH(bool, pass);
    QFETCH(QString, noteHas);
    std::vector<tandem::NearTie> ties;
    for (int i = 0; i < values.size(); ++i)
        ties.push_back({values[i], 0.001 * i, "c" + std::to_string(i)});
    const tandem::Check c = tandem::makeNearTieCheck("x", "q", 14.5, ties, 0.005, 10, 20);
    QCOMPARE(c.pass, pass);
    QCOMPARE(int(c.nearTies.size()), int(values.size()));
    if (!values.isEmpty() && std::isfinite(values[0]))
        QCOMPARE(c.tandemValue, values[0]);
    else
        QVERIFY(!std::isfinite(c.tandemValue));
    QVERIFY2(c.note.find(noteHas.toStdString()) != std::string::npos, c.note.c_str());
}

void TestMosaicSearch::reproduceChecks() {
    const tandem::Report rep = reproduceMosaic();
    QCOMPARE(rep.paper, std::string("2608.10605"));
    // Every check passes (docs/MODEL-MOSAIC.md section 5).
    std::set<std::string> ids;
    for (const auto& c : rep.checks) {
        ids.insert(c.id);
        QVERIFY2(c.pass,
                 qPrintable(QString::fromStdString(c.id) + " = " + QString::number(c.tandemValue)));
    }
    // fig11.nact_B.nodes32 passes by the near-tie rule of MODEL.md B6 [2608.10605 Sec. 7.3]: the
    // argmin (26.1 B, L64 E96 K1 G4) is outside [10.15, 18.85] B; L56 E48 K1 G4 (17.6 B) is 0.0034
    // nats behind it. The report keeps the argmin as Tandem's value and lists the near-ties.
    for (const auto& c : rep.checks) {
        if (c.id.rfind("fig11.nact_B.", 0) != 0) continue;
        QVERIFY2(!c.nearTies.empty() && !c.note.empty(), c.id.c_str());
        QCOMPARE(c.nearTies.front().value, c.tandemValue);
        QCOMPARE(c.nearTies.front().lossGapNats, 0.0);
        for (size_t i = 1; i < c.nearTies.size(); ++i) {
            QVERIFY(c.nearTies[i].lossGapNats >= c.nearTies[i - 1].lossGapNats);
            QVERIFY(c.nearTies[i].lossGapNats <= 0.005);
        }
        if (c.id != "fig11.nact_B.nodes32") continue;
        QVERIFY(c.tandemValue > c.high);
        bool inBand = false;
        for (const auto& t : c.nearTies) inBand = inBand || (t.value >= c.low && t.value <= c.high);
        QVERIFY(inBand);
        QVERIFY(c.note.find("outside the band") != std::string::npos);
    }
    for (const char* id :
         {"eq10.table4_loss", "table9.ntot.q4", "table9.nact.q18", "table5.s.id4",
          "fig8.nopt_tot.S0.649", "fig8.nopt_tot.G8", "fig8.time_per_flop.S0.951",
          "table5.pred_mfu.id1", "table5.mfu_order", "table4.opt.G", "fig11.S_opt.days10",
          "fig11.nact_B.nodes128", "fig10.median_mfu.G8", "fig1.compute_opt_S",
          "fig1.S_feasible_max", "fig1.cluster_opt_gain_nats"})
        QVERIFY2(ids.count(id), id);
    QCOMPARE(int(rep.checks.size()), 72);
}

void TestMosaicSearch::scoreCandidateByHand_data() {
    // Table 3 envelope: C_peak = 2.25e15 FLOP/s x 256 x 20 d x 86400 s = 9.95328e23, eta_good 1,
    // TPP in [40, 150]. D* = C_peak MFU / (6 N_act); loss = Eq. 10 with Table 2's coefficients
    // evaluated by hand (a N^-alpha + b D^-beta + c (1-S)^-lambda + j / ((1-S)^delta N^gamma
    // G^eta) + e).
    QTest::addColumn<double>("mfu");
    QTest::addColumn<double>("nAct");
    QTest::addColumn<double>("nTot");
    QTest::addColumn<double>("sparsity");
    QTest::addColumn<int>("splitG");
    QTest::addColumn<double>("dStar");
    QTest::addColumn<double>("tokens");
    QTest::addColumn<double>("lawG");
    QTest::addColumn<bool>("reachesTppMin");
    QTest::addColumn<double>("loss");
    QTest::addColumn<bool>("extrapolated");
    QTest::newRow("Table 4 optimum, below the cap")
        << 0.1238 << 14.5e9 << 327e9 << 0.956 << 4 << 1416340303448.276 << 1416340303448.276 << 4.0
        << true << 1.390164457663632 << true;
    QTest::newRow("capped at TPP_max") << 0.5 << 14.5e9 << 327e9 << 0.956 << 4 << 5720275862068.966
                                       << 2175e9 << 4.0 << true << 1.3672553455707221 << true;
    QTest::newRow("below TPP_min")
        << 0.001 << 14.5e9 << 327e9 << 0.956 << 4 << 11440551724.137932 << 11440551724.137932 << 4.0
        << false << 1.8516076352531157 << true;
    QTest::newRow("dense, scored at G = 1") << 0.3 << 2e9 << 2e9 << 0.0 << 0 << 24883200000000.0
                                            << 300e9 << 1.0 << true << 1.7829534365698936 << true;
    QTest::newRow("inside the law's range")
        << 1.2e-4 << 0.5e9 << 4e9 << 0.875 << 2 << 39813120000.0 << 39813120000.0 << 2.0 << true
        << 1.9758936427070428 << false;
}

void TestMosaicSearch::scoreCandidateByHand() {
    QFETCH(double, mfu);
    QFETCH(double, nAct);
    QFETCH(double, nTot);
    QFETCH(double, sparsity);
    QFETCH(int, splitG);
    Geometry g;
    g.nAct = nAct;
    g.nTot = nTot;
    g.sparsity = sparsity;
    g.splitG = splitG;
    const Envelope e;  // the Table 3 envelope
    const CandidateScore s = scoreCandidate(e, g, mfu);
    QTEST(s.deliverableTokens, "dStar");
    QTEST(s.tokens, "tokens");
    QTEST(s.splitG, "lawG");
    QTEST(s.reachesTppMin, "reachesTppMin");
    QTEST(s.loss, "loss");
    QTEST(s.extrapolated, "extrapolated");
    QCOMPARE(deliverableTokens(e, mfu, nAct), s.deliverableTokens);
    QCOMPARE(e.deliverableModelFlops(mfu), 9.95328e23 * mfu);
}

void TestMosaicSearch::candidatesUseTheScore() {
    // Every candidate of the search carries exactly scoreCandidate's D and loss at its MFU.
    const Envelope e;
    QVERIFY(!m_table3.candidates.empty());
    for (const Candidate& c : m_table3.candidates) {
        const CandidateScore s = scoreCandidate(e, c.geometry, c.eval.mfu);
        QVERIFY(s.reachesTppMin);
        QCOMPARE(c.tokens, s.tokens);
        QCOMPARE(c.loss, s.loss);
        QCOMPARE(c.extrapolated, s.extrapolated);
    }
}

TANDEM_TEST_APPLESS_MAIN(TestMosaicSearch)
#include "tst_mosaic_search.moc"
