#include "mosaic/reproduce.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "common/statistics.h"
#include "mosaic/geometry.h"
#include "mosaic/perf_model.h"
#include "mosaic/scaling_law.h"
#include "mosaic/search.h"

namespace tandem::mosaic {
namespace {

Check rel(const std::string& id, const std::string& what, double paper, double value, double tol) {
    return makeCheck(id, what, paper, value, paper * (1 - tol), paper * (1 + tol));
}

std::string fmt(double v) { return formatNumber(v); }

// Nearest ladder geometry (q 2..18, E and K grids) with split factor G to a continuous
// (N_tot, S), distance in (log N_tot, log(1 - S)).
Geometry realize(double nTot, double s, int splitG) {
    Geometry best;
    double bestDist = -1;
    const std::vector<int> es = {4, 6, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512};
    for (int q = 2; q <= 18; ++q)
        for (int e : es)
            for (int k : {1, 2, 3, 4, 6, 8}) {
                if (k > e) continue;
                const Geometry g = ladderGeometry(q, e, k, splitG);
                const double dn = std::log(g.nTot / nTot),
                             ds = std::log((1 - g.sparsity) / (1 - s));
                const double dist = dn * dn + ds * ds;
                if (bestDist < 0 || dist < bestDist) {
                    best = g;
                    bestDist = dist;
                }
            }
    return best;
}

double bestMfu(const Geometry& g, int nodes) {
    Envelope e;
    e.nodes = nodes;
    return bestPlan(g, e).second.mfu;
}

/// Loss tolerance of Fig. 11's near-tie reading, nats (MODEL.md B6).
constexpr double kNearTieNats = 0.005;

/// N_act (B) of every candidate within `tolerance` nats of the optimum's loss, optimum first
/// (candidates are sorted by loss); empty when nothing is feasible.
std::vector<NearTie> nearTiesOf(const SearchResult& r, double tolerance) {
    std::vector<NearTie> out;
    if (r.candidates.empty()) return out;
    const double best = r.candidates.front().loss;
    for (const Candidate& cd : r.candidates) {
        if (!(cd.loss - best <= tolerance)) break;
        out.push_back({cd.geometry.nAct / 1e9, cd.loss - best, geometryLabel(cd.geometry)});
    }
    return out;
}

}  // namespace

Envelope table3Envelope() { return Envelope{}; }

Envelope fig1Envelope() {
    Envelope e;
    e.nodes = 4;
    e.days = 5;
    e.computeBudgetFlops = 3.3e21;
    e.qValues = {2, 3, 4, 5, 6, 7, 8};
    return e;
}

tandem::Report reproduceMosaic(const tandem::CancelFlag* cancel) {
    Report rep;
    rep.paper = "2608.10605";
    auto& c = rep.checks;
    const ScalingLaw law;

    // Eq. 10 at Table 4's optimum.
    {
        const Geometry g = ladderGeometry(12, 96, 2, 4);
        c.push_back(
            makeCheck("eq10.table4_loss",
                      "Eq. 10 at Table 4's optimum (N_act 14.5 B, S 0.956, D 1.42 T, G 4), nats",
                      1.3898, law.loss(g.nTot, g.sparsity, 1.42e12, 4), 1.3878, 1.3918));
    }
    // Table 9 (E=128, K=3, G=4).
    const double t9tot[] = {15.5, 53.2, 127.3, 250.0, 433.7, 690.5, 1032.8, 1472.8};
    const double t9act[] = {0.7, 2.3, 5.4, 10.4, 17.9, 28.2, 41.9, 59.5};
    for (int i = 0; i < 8; ++i) {
        const int q = 4 + 2 * i;
        const Geometry g = ladderGeometry(q, 128, 3, 4);
        c.push_back(rel("table9.ntot.q" + std::to_string(q),
                        "Table 9 N_tot at q=" + std::to_string(q) + ", B", t9tot[i], g.nTot / 1e9,
                        0.02));
    }
    for (int i = 0; i < 8; ++i) {
        const int q = 4 + 2 * i;
        const Geometry g = ladderGeometry(q, 128, 3, 4);
        // Table 9 prints one decimal: widen by the rounding half-step.
        const double half = 0.05 / t9act[i];
        c.push_back(rel("table9.nact.q" + std::to_string(q),
                        "Table 9 N_act at q=" + std::to_string(q) + ", B", t9act[i], g.nAct / 1e9,
                        0.02 + half));
    }
    // Table 5.
    struct T5 {
        int q, e, k, g;
        double nact, ntot, s, mfu;
    };
    const T5 t5[] = {{10, 128, 2, 4, 8.5, 250.0, 0.966, 14.0},
                     {10, 128, 2, 8, 5.6, 126.4, 0.956, 11.6},
                     {10, 32, 2, 4, 8.5, 66.0, 0.872, 21.8},
                     {8, 32, 2, 2, 7.3, 65.8, 0.889, 23.3}};
    double mfu5[4];
    for (int i = 0; i < 4; ++i) {
        const auto& r = t5[i];
        const Geometry g = ladderGeometry(r.q, r.e, r.k, r.g);
        const std::string id = "id" + std::to_string(i + 1);
        c.push_back(rel("table5.ntot." + id, "Table 5 N_tot, B", r.ntot, g.nTot / 1e9, 0.02));
        c.push_back(rel("table5.nact." + id, "Table 5 N_act, B", r.nact, g.nAct / 1e9, 0.02));
        c.push_back(rel("table5.s." + id, "Table 5 sparsity S", r.s, g.sparsity, 0.02));
    }
    for (int i = 0; i < 4; ++i) {
        throwIfCancelled(cancel);
        const auto& r = t5[i];
        const Geometry g = ladderGeometry(r.q, r.e, r.k, r.g);
        Cluster cl;
        cl.devices = 64;
        Plan p;
        p.pp = 4;
        p.ep = 8;
        p.dp = 16;
        p.mbs = 4;
        PerfModel m(g, cl);
        double best = 0;
        for (auto ck : {Checkpointing::None, Checkpointing::Selective,
                        Checkpointing::SuperSelective, Checkpointing::Full}) {
            p.ckpt = ck;
            const auto ev = m.evaluate(p);
            if (ev.feasible) {
                best = ev.mfu;
                break;
            }
        }
        mfu5[i] = 100 * best;
        c.push_back(rel("table5.pred_mfu.id" + std::to_string(i + 1),
                        "Table 5 predicted MFU at PP4 EP8 mbs4 on 64 B200, %", r.mfu, mfu5[i],
                        0.25));
    }
    c.push_back(makeCheck("table5.mfu_order", "Table 5 MFU order ID4 > ID3 > ID1 > ID2 (1 = yes)",
                          1, (mfu5[3] > mfu5[2] && mfu5[2] > mfu5[0] && mfu5[0] > mfu5[1]) ? 1 : 0,
                          1, 1));

    // Fig. 8 left: compute-optimal N_tot at C_model = 1e22.
    const double sGrid[] = {0.649, 0.812, 0.904, 0.951}, sTot[] = {16, 24, 39, 62};
    const int gGrid[] = {1, 2, 4, 8};
    const double gTot[] = {98, 79, 70, 66};
    for (int i = 0; i < 4; ++i) {
        const auto co = computeOptimum(law, 1e22, sGrid[i], 4);
        c.push_back(rel("fig8.nopt_tot.S" + fmt(sGrid[i]), "Fig. 8 optimal N_tot at C=1e22, G=4, B",
                        sTot[i], co.nTot / 1e9, 0.15));
    }
    for (int i = 0; i < 4; ++i) {
        const auto co = computeOptimum(law, 1e22, 0.958, gGrid[i]);
        c.push_back(rel("fig8.nopt_tot.G" + std::to_string(gGrid[i]),
                        "Fig. 8 optimal N_tot at C=1e22, S=0.958, B", gTot[i], co.nTot / 1e9,
                        0.15));
    }
    // Fig. 8 right: wall-clock per model FLOP on 512 GPUs, relative to the first point.
    {
        const double paperS[] = {1.00, 1.11, 1.33, 1.70}, paperG[] = {1.00, 1.30, 1.83, 2.66};
        double mS[4], mG[4];
        for (int i = 0; i < 4; ++i) {
            throwIfCancelled(cancel);
            const auto co = computeOptimum(law, 1e22, sGrid[i], 4);
            mS[i] = bestMfu(realize(co.nTot, sGrid[i], 4), 64);
            const auto cg = computeOptimum(law, 1e22, 0.958, gGrid[i]);
            mG[i] = bestMfu(realize(cg.nTot, 0.958, gGrid[i]), 64);
        }
        for (int i = 0; i < 4; ++i)
            c.push_back(rel("fig8.time_per_flop.S" + fmt(sGrid[i]),
                            "Fig. 8 time per model FLOP vs S (G=4, 512 B200), x first", paperS[i],
                            mS[0] / mS[i], 0.15));
        for (int i = 0; i < 4; ++i)
            c.push_back(rel("fig8.time_per_flop.G" + std::to_string(gGrid[i]),
                            "Fig. 8 time per model FLOP vs G (S=0.958, 512 B200), x first",
                            paperG[i], mG[0] / mG[i], 0.20));
    }

    // Table 4 and Fig. 10 on the Table 3 envelope.
    throwIfCancelled(cancel);
    const SearchResult t3 = search(table3Envelope(), cancel);
    {
        const bool ok = t3.optimum >= 0;
        const Candidate* o = ok ? &t3.candidates[0] : nullptr;
        const double nan = std::nan("");
        c.push_back(makeCheck("table4.opt.S", "Table 4 optimum sparsity S", 0.956,
                              ok ? o->geometry.sparsity : nan, 0.93, 0.97));
        c.push_back(makeCheck("table4.opt.G", "Table 4 optimum split factor G", 4,
                              ok ? o->geometry.splitG : nan, 4, 4));
        c.push_back(makeCheck("table4.opt.loss", "Table 4 optimum loss, nats", 1.3898,
                              ok ? o->loss : nan, 1.3798, 1.3998));
        c.push_back(rel("table4.opt.mfu", "Table 4 optimum MFU, %", 12.38,
                        ok ? 100 * o->eval.mfu : nan, 0.25));
        c.push_back(rel("table4.opt.nact_B", "Table 4 optimum N_act, B", 14.5,
                        ok ? o->geometry.nAct / 1e9 : nan, 0.30));
        std::vector<double> g2, g8;
        for (const auto& cd : t3.candidates) {
            if (cd.geometry.splitG == 2) g2.push_back(100 * cd.eval.mfu);
            if (cd.geometry.splitG == 8) g8.push_back(100 * cd.eval.mfu);
        }
        c.push_back(makeCheck("fig10.median_mfu.G2",
                              "Fig. 10 median MFU of feasible G=2 geometries, %", 16.5, median(g2),
                              13, 20));
        c.push_back(makeCheck("fig10.median_mfu.G8",
                              "Fig. 10 median MFU of feasible G=8 geometries, % (clearly lowest)",
                              8, median(g8), 4, 11));
    }
    // Fig. 11 budget sweeps.
    for (int days : {10, 20, 30, 40}) {
        Envelope e;
        e.days = days;
        const SearchResult r = days == 20 ? t3 : search(e, cancel);
        c.push_back(makeCheck("fig11.S_opt.days" + std::to_string(days),
                              "Fig. 11 optimal S, 32 nodes, " + std::to_string(days) + " days",
                              0.94, r.clusterOptimalSparsity, 0.90, 0.97));
    }
    const double nactPaper[] = {14.5, 14.5, 34, 58};
    int ni = 0;
    for (int nodes : {16, 32, 64, 128}) {
        Envelope e;
        e.days = 30;
        e.nodes = nodes;
        const SearchResult r = search(e, cancel);
        c.push_back(makeCheck("fig11.S_opt.nodes" + std::to_string(nodes),
                              "Fig. 11 optimal S, 30 days, " + std::to_string(nodes) + " nodes",
                              0.94, r.clusterOptimalSparsity, 0.90, 0.97));
        // "the near-ties at neighboring budgets mean the exact crossover points are not resolved
        // at this granularity" [Sec. 7.3]: judged on every candidate within kNearTieNats of the
        // optimum (MODEL.md B6).
        const double paper = nactPaper[ni++];
        c.push_back(makeNearTieCheck(
            "fig11.nact_B.nodes" + std::to_string(nodes),
            "Fig. 11 optimal N_act, 30 days, " + std::to_string(nodes) + " nodes, B", paper,
            nearTiesOf(r, kNearTieNats), kNearTieNats, paper * 0.7, paper * 1.3));
    }
    // Fig. 1.
    {
        const SearchResult r = search(fig1Envelope(), cancel);
        c.push_back(makeCheck("fig1.compute_opt_S",
                              "Fig. 1 compute-optimal sparsity (boundary S_max)", 0.985,
                              r.computeOptimalSparsity, 0.985, 0.985));
        // "becomes infeasible beyond S_feas^max = 0.96" (Sec. 2.2): where the red region starts.
        c.push_back(makeCheck("fig1.S_feasible_max",
                              "Fig. 1 feasible boundary: last sparsity before the first bin whose "
                              "compute-optimal point the cluster cannot deliver",
                              0.96, feasibleBoundarySparsity(r.computeOptimal), 0.94, 0.97));
        const double cl = r.optimum >= 0 ? r.candidates[0].loss : std::nan("");
        c.push_back(makeCheck("fig1.cluster_opt_gain_nats",
                              "Fig. 1 loss gain of the cluster optimum over the compute-optimal "
                              "choice re-scored on the cluster, nats",
                              0.031, r.naiveOnClusterLoss - cl, 0.02, 0.045));
    }
    return rep;
}

}  // namespace tandem::mosaic
