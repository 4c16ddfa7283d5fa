// The pruned best-plan search (LayoutTable, memory-first group rejection, MFU upper bound,
// hint) returns exactly what a plain scan of every plan in enumeration order returns, bit for
// bit [2608.10605 App. D.2: exact enumeration].
#include <QtTest>
#include <cmath>
#include <cstring>

#include "mosaic/layout_table.h"
#include "mosaic/perf_model.h"
#include "mosaic/reproduce.h"
#include "mosaic/search.h"
#include "test_main.h"

using namespace tandem::mosaic;

namespace {

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool samePlan(const Plan& a, const Plan& b) {
    return a.tp == b.tp && a.ep == b.ep && a.pp == b.pp && a.cp == b.cp && a.dp == b.dp &&
           a.mbs == b.mbs && a.ckpt == b.ckpt;
}

// Reference: every structurally valid plan in enumeration order; per layout the first
// checkpointing mode that fits memory; the first plan with the highest MFU wins.
bool plainScan(const PerfModel& m, const LayoutGrid& grid, Plan& best, QuickEval& eval) {
    bool found = false;
    const auto plans = m.enumerate(grid);
    for (size_t i = 0; i < plans.size();) {
        size_t j = i;
        bool done = false;
        while (j < plans.size() && plans[j].tp == plans[i].tp && plans[j].cp == plans[i].cp &&
               plans[j].pp == plans[i].pp && plans[j].ep == plans[i].ep &&
               plans[j].mbs == plans[i].mbs) {
            if (!done) {
                const QuickEval q = m.quick(plans[j]);
                if (q.feasible) {
                    done = true;
                    if (!found || q.mfu > eval.mfu) {
                        found = true;
                        best = plans[j];
                        eval = q;
                    }
                }
            }
            ++j;
        }
        i = j;
    }
    return found;
}

}  // namespace

class TestMosaicBest : public QObject {
    Q_OBJECT
private slots:
    void tableFollowsEnumerationOrder();
    void prunedEqualsPlainScan_data();
    void prunedEqualsPlainScan();
    void oddHardwareStillExact();
};

void TestMosaicBest::tableFollowsEnumerationOrder() {
    Envelope e = table3Envelope();
    e.nodes = 4;
    const Cluster c = clusterOf(e);
    const LayoutGrid grid = layoutGridOf(e);
    const LayoutTable table(c, grid);
    // A dense-enough geometry where every (TP, EP) of the grid is structurally possible.
    const PerfModel m(ladderGeometry(16, 64, 2, 4), c);
    std::vector<Plan> fromTable;
    for (const auto& g : table.groups())
        for (int bi = g.batchBegin; bi < g.batchEnd; ++bi)
            for (Checkpointing ck : table.checkpointing()) {
                Plan p;
                p.tp = g.tp;
                p.cp = g.cp;
                p.pp = g.pp;
                p.dp = g.dp;
                p.ep = g.ep;
                p.mbs = table.batches()[size_t(bi)].mbs;
                p.ckpt = ck;
                if (!m.structuralError(p)) fromTable.push_back(p);
            }
    const auto plans = m.enumerate(grid);
    QCOMPARE(fromTable.size(), plans.size());
    QVERIFY(plans.size() > 100);
    for (size_t i = 0; i < plans.size(); ++i) QVERIFY(samePlan(fromTable[i], plans[i]));
}

void TestMosaicBest::prunedEqualsPlainScan_data() {
    QTest::addColumn<int>("nodes");
    QTest::addColumn<QString>("hardware");
    QTest::newRow("table3 16 nodes") << 16 << "p6-b200";
    QTest::newRow("table3 2 nodes") << 2 << "p6-b200";
    QTest::newRow("h100 8 nodes") << 8 << "h100";
    QTest::newRow("h200 16 nodes") << 16 << "h200";
}

void TestMosaicBest::prunedEqualsPlainScan() {
    QFETCH(int, nodes);
    QFETCH(QString, hardware);
    Envelope e = table3Envelope();
    e.nodes = nodes;
    e.hardware = builtinHardware(hardware.toStdString());
    const Cluster c = clusterOf(e);
    const LayoutGrid grid = layoutGridOf(e);
    const LayoutTable table(c, grid);
    Plan previous, bad;
    bad.tp = 8;
    bad.pp = 16;
    bad.ep = 64;
    bad.mbs = 4;
    bool havePrevious = false;
    int checked = 0, feasible = 0;
    for (int q : {8, 12, 18})
        for (int E : {8, 96, 512})
            for (int K : {1, 2, 8})
                for (int G : {1, 4, 8}) {
                    if (K > E) continue;
                    const PerfModel m(ladderGeometry(q, E, K, G), c);
                    Plan ref;
                    QuickEval refEval;
                    const bool refFound = plainScan(m, grid, ref, refEval);
                    const Plan* hints[] = {nullptr, havePrevious ? &previous : nullptr, &bad};
                    for (const Plan* hint : hints) {
                        Plan p;
                        QuickEval q2;
                        QCOMPARE(m.best(table, p, q2, hint), refFound);
                        if (!refFound) continue;
                        QVERIFY(samePlan(p, ref));
                        QVERIFY(sameBits(q2.mfu, refEval.mfu));
                        QVERIFY(sameBits(q2.iteration_s, refEval.iteration_s));
                        QVERIFY(sameBits(q2.memoryBytes, refEval.memoryBytes));
                    }
                    // An MFU to beat: just below the best gives the best, the best itself or
                    // above gives nothing (a later batch table loses ties).
                    if (refFound)
                        for (const Plan* hint : hints) {
                            Plan p;
                            QuickEval q2;
                            const double below = std::nextafter(refEval.mfu, 0.0);
                            QVERIFY(m.best(table, p, q2, hint, below));
                            QVERIFY(samePlan(p, ref));
                            QVERIFY(sameBits(q2.mfu, refEval.mfu));
                            QVERIFY(!m.best(table, p, q2, hint, refEval.mfu));
                            QVERIFY(!m.best(table, p, q2, hint, refEval.mfu + 0.01));
                        }
                    Plan viaGrid;
                    QuickEval viaGridEval;
                    QCOMPARE(m.best(grid, viaGrid, viaGridEval), refFound);
                    ++checked;
                    if (refFound) {
                        QVERIFY(samePlan(viaGrid, ref));
                        previous = ref;
                        havePrevious = true;
                        ++feasible;
                    }
                }
    QVERIFY(checked > 50);
    QVERIFY(feasible > 3);
}

void TestMosaicBest::oddHardwareStillExact() {
    // Zero latency and negative chi coefficients: the search still equals the plain scan.
    Envelope e = table3Envelope();
    e.nodes = 32;
    e.hardware.intraLatency_s = 0;
    e.hardware.cA2A = -0.5;
    e.hardware.cOvl = 0.4;
    e.hardware.cPP = -0.3;
    const Cluster c = clusterOf(e);
    const LayoutGrid grid = layoutGridOf(e);
    const LayoutTable table(c, grid);
    for (const Geometry& g : {ladderGeometry(8, 32, 2, 2), ladderGeometry(12, 96, 2, 4)}) {
        const PerfModel m(g, c);
        Plan ref, p;
        QuickEval refEval, q;
        QVERIFY(plainScan(m, grid, ref, refEval));
        QVERIFY(m.best(table, p, q));
        QVERIFY(samePlan(p, ref));
        QVERIFY(sameBits(q.mfu, refEval.mfu));
    }
    // A table from another cluster is refused rather than misused.
    Envelope other = e;
    other.nodes = 4;
    const LayoutTable foreign(clusterOf(other), grid);
    Plan p;
    QuickEval q;
    QVERIFY(!PerfModel(ladderGeometry(10, 64, 2, 2), c).best(foreign, p, q));
}

TANDEM_TEST_APPLESS_MAIN(TestMosaicBest)
#include "tst_mosaic_best.moc"
