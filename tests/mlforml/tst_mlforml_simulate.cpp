// End-to-end engine behaviour [2608.06046 Sec. 3.2; MODEL.md A5]: scenario-1 ratios, determinism,
// seed stability, unreachable targets and zero bandwidth, fixed combinations, trace input.
#include <QtTest>
#include <atomic>
#include <cmath>
#include <fstream>

#include "common/diagnostics.h"
#include "mlforml/exposure.h"
#include "mlforml/presets.h"
#include "mlforml/progress.h"
#include "mlforml/report.h"
#include "mlforml/reproduce.h"
#include "mlforml/schedule.h"
#include "mlforml/simulate.h"
#include "mlforml/training.h"
#include "scenario/scenario.h"
#include "test_main.h"

using namespace tandem::mlforml;

namespace {
double crossing(const PointResult& pt, const std::string& policy, size_t t) {
    for (const auto& r : pt.policies)
        if (r.policy == policy) return r.firstCrossing_s[t];
    return std::nan("");
}
}  // namespace

class TestSimulate : public QObject {
    Q_OBJECT
private slots:
    void scenario1JointBeatsDecoupled() {
        const Result r = simulate(scenario1Params());
        QCOMPARE(r.points.size(), size_t(4));
        QCOMPARE(r.comboLabels.size(), size_t(4));
        QCOMPARE(r.comboLabels[0], std::string("GA4-BF16"));
        for (const auto& pt : r.points)
            for (size_t t = 0; t < r.targetFactors.size(); ++t) {
                const double j = crossing(pt, "Joint", t), d = crossing(pt, "Decoupled", t);
                QVERIFY(std::isfinite(j));
                QVERIFY2(j <= d, pt.label.c_str());
                QVERIFY2(d / j >= 1.05 && d / j <= 1.6, pt.label.c_str());
                QVERIFY(crossing(pt, "Static", t) > j);
                QVERIFY(crossing(pt, "Knob-GA", t) > j);
            }
        // Exposed shares rise with N (Fig. 2a) and compression lowers them.
        for (size_t i = 1; i < r.points.size(); ++i) {
            QVERIFY(r.points[i].dpShareBf16 >= r.points[i - 1].dpShareBf16);
            QVERIFY(r.points[i].dpShareMxfp4 > r.points[i - 1].dpShareMxfp4 - 0.01);
        }
        for (const auto& pt : r.points) QVERIFY(pt.dpShareMxfp4 < pt.dpShareBf16);
    }

    void deterministicOutput() {
        Params p = scenario1Params();
        p.backgroundJobs = {8};
        const auto a = resultToJson(simulate(p)).dump();
        const auto b = resultToJson(simulate(p)).dump();
        QCOMPARE(a, b);
    }

    void threeSeedsAreStable() {
        // Seed stability: changing the seed moves no scenario-1 ratio by more than 0.03.
        std::vector<Result> rs;
        for (std::uint64_t s : {1, 2, 3}) {
            Params p = scenario1Params();
            p.seed = s;
            rs.push_back(simulate(p));
        }
        for (const char* pol : {"Decoupled", "Knob-Precision"})
            for (size_t i = 0; i < rs[0].points.size(); ++i)
                for (size_t t = 0; t < rs[0].targetFactors.size(); ++t) {
                    const double r0 = ratioToJoint(rs[0].points[i], pol, t);
                    for (size_t k = 1; k < rs.size(); ++k) {
                        const double rk = ratioToJoint(rs[k].points[i], pol, t);
                        QVERIFY2(std::fabs(rk - r0) <= 0.03,
                                 qPrintable(QString("%1 %2 t%3: %4 vs %5")
                                                .arg(pol)
                                                .arg(rs[0].points[i].label.c_str())
                                                .arg(t)
                                                .arg(r0)
                                                .arg(rk)));
                    }
                }
    }

    void unreachableTargetEndsAtHorizon() {
        Params p = scenario1Params();
        p.backgroundJobs = {4};
        p.targetFactors = {1.02, 0.5};  // 0.5 L_min lies below the loss floor
        p.horizon_s = 20000;
        const Result r = simulate(p);
        for (const auto& run : r.points[0].policies) {
            QVERIFY(std::isnan(run.firstCrossing_s[1]));
            QVERIFY(run.endTime_s <= p.horizon_s);
        }
        QVERIFY(std::isfinite(crossing(r.points[0], "Joint", 0)));
    }

    void unboundedSyncWaitsForLevelChange() {
        // Level 0: every sync unbounded (its replay never finished); level 1: 0.5 s per sync.
        // Static under "level 0 until t = 100 s, then level 1" makes its first update wait for
        // the change: it ends at 100 + 0.5 s instead of 4 T_c + 0.5 s, and every later update is
        // as under level 1 alone, so each first crossing is later by exactly 100 - 4 T_c.
        Params p = scenario1Params();
        p.policies = {Policy::Static};
        const auto combos = actionSpace(p);
        const ProgressCurve curve(p);
        std::vector<double> targets;
        for (double f : p.targetFactors) targets.push_back(f * p.progress.lMin);
        ExposureTable stuck, ok;
        stuck.samples.assign(combos.size(), {std::numeric_limits<double>::infinity()});
        stuck.mean.assign(combos.size(), std::numeric_limits<double>::infinity());
        ok.samples.assign(combos.size(), {0.5});
        ok.mean.assign(combos.size(), 0.5);
        const NetworkSchedule waits({stuck, ok}, {0.0, 100.0}, {0, 1}, 10, 1);
        const NetworkSchedule plain({stuck, ok}, {0.0}, {1}, 10, 1);
        QCOMPARE(waits.nextLevelChange(3.0), 100.0);
        QVERIFY(std::isinf(plain.nextLevelChange(3.0)));
        const int n = static_cast<int>(combos.size());
        const PolicyRun a =
            runPolicy(Policy::Static, p, curve, combos, n, waits, targets, {0, 1}, nullptr);
        const PolicyRun b =
            runPolicy(Policy::Static, p, curve, combos, n, plain, targets, {0, 1}, nullptr);
        QCOMPARE(a.totalUpdates, b.totalUpdates);
        for (size_t t = 0; t < targets.size(); ++t)
            QVERIFY2(std::fabs(a.firstCrossing_s[t] - b.firstCrossing_s[t] -
                               (100.0 - 4 * p.microbatchCompute_s)) < 1e-6,
                     qPrintable(
                         QString("%1 vs %2").arg(a.firstCrossing_s[t]).arg(b.firstCrossing_s[t])));
        // Unbounded for ever (no later change): not reached, and the run ends.
        const NetworkSchedule never({stuck, ok}, {0.0}, {0}, 10, 1);
        const PolicyRun c =
            runPolicy(Policy::Static, p, curve, combos, n, never, targets, {0, 1}, nullptr);
        for (double x : c.firstCrossing_s) QVERIFY(std::isnan(x));
        QCOMPARE(c.totalUpdates, 0LL);
    }

    void zeroBandwidthNotReached() {
        Params p = scenario1Params();
        p.backgroundJobs = {4};
        p.nicBytesPerS = 0;
        p.horizon_s = 5000;
        const Result r = simulate(p);
        for (const auto& run : r.points[0].policies)
            for (double c : run.firstCrossing_s) QVERIFY(std::isnan(c));
        QCOMPARE(r.points[0].dpShareBf16, 1.0);
    }

    void fixedCombinationsAndOracle() {
        Params p = scenario1Params();
        p.backgroundJobs = {16};
        p.policies = {Policy::Joint, Policy::Oracle, PolicySpec(Combo{4, Precision::Mxfp4}),
                      PolicySpec(Combo{16, Precision::Mxfp4}),
                      PolicySpec(Combo{8, Precision::Fp8})};
        const Result r = simulate(p);
        QCOMPARE(r.comboLabels.size(), size_t(5));  // GA8-FP8 appended to the action space
        const auto& pt = r.points[0];
        for (const auto& run : pt.policies)
            if (run.policy.rfind("GA", 0) == 0) {
                double share = 0;
                for (size_t c = 0; c < r.comboLabels.size(); ++c)
                    if (r.comboLabels[c] == run.policy) share = run.comboShare[c];
                QCOMPARE(share, 1.0);
            }
        // Oracle knows the true T_dp: never slower than Joint beyond rounding of one interval.
        QVERIFY(crossing(pt, "Oracle", 1) <= crossing(pt, "Joint", 1) * 1.01);
        // Joint ends up close to the better fixed combination.
        QVERIFY(crossing(pt, "Joint", 1) <= crossing(pt, "GA4-MXFP4", 1) * 1.03);
    }

    void closedLoopRuns() {
        Params p = scenario1Params();
        p.backgroundJobs = {8};
        p.mode = ReplayMode::ClosedLoop;
        const Result r = simulate(p);
        const auto& pt = r.points[0];
        QVERIFY(pt.dpShareBf16 > pt.dpShareMxfp4);
        QVERIFY(std::isfinite(crossing(pt, "Joint", 0)));
    }

    void traceInput() {
        const QString path = QDir::temp().filePath("tandem_mlforml_trace.csv");
        {
            std::ofstream f(path.toStdString());
            f << "time_s,bytes_per_s\n0,300e9\n5,100e9\n10,400e9\n";
        }
        Params p = scenario1Params();
        p.scenario = ScenarioKind::Trace;
        p.traceFile = path.toStdString();
        const Result r = simulate(p);
        QCOMPARE(r.points.size(), size_t(1));
        QVERIFY(std::isfinite(crossing(r.points[0], "Joint", 0)));
        QVERIFY(r.points[0].dpShareBf16 > r.points[0].dpShareMxfp4);
        p.traceFile = path.toStdString() + ".missing";
        QVERIFY_THROWS_EXCEPTION(tandem::ValidationError, simulate(p));
    }

    void examplesLoadAndRun_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("scenario 1") << "mlforml-scenario1.json";
        QTest::newRow("scenario 2") << "mlforml-scenario2.json";
    }
    void examplesLoadAndRun() {
        QFETCH(QString, file);
        const std::string path = std::string(TANDEM_EXAMPLES) + "/" + file.toStdString();
        tandem::Diagnostics d(path);
        const auto s = tandem::loadScenarioFile(path, d);
        QVERIFY2(s && s->mlForMl, d.str().c_str());
        QVERIFY(!s->name.empty() && !s->description.empty());
        std::ifstream in(path);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        QCOMPARE(QString::fromStdString(tandem::scenarioToJson(*s)), QString::fromStdString(text));
        const Result r = simulate(*s->mlForMl);
        QVERIFY(!r.points.empty());
        // Joint reaches every target, no later than Decoupled: per point in scenario 1, on
        // average over the arrival schedules (one point each) in scenario 2.
        const bool poisson = s->mlForMl->scenario == ScenarioKind::Poisson;
        for (size_t t = 0; t < r.targetFactors.size(); ++t) {
            double joint = 0, decoupled = 0;
            for (const auto& pt : r.points) {
                QVERIFY(std::isfinite(crossing(pt, "Joint", t)));
                if (!poisson) QVERIFY(crossing(pt, "Joint", t) <= crossing(pt, "Decoupled", t));
                joint += crossing(pt, "Joint", t);
                decoupled += crossing(pt, "Decoupled", t);
            }
            QVERIFY(joint <= decoupled);
        }
    }

    void scenario2MovingOptimumAndSeedStability() {
        // Sec. 3.3, averaged over the preset's arrival schedules and recordings (reproduce's
        // aggregation): Joint is first at every target, never picks GA16-MXFP4 without
        // background, Decoupled uses it for a large share of its updates; for three seeds.
        // Seed stability (a ratio moves by <= 0.05 in scenario 2) holds for Decoupled/Joint and
        // Knob-Precision/Joint; Knob-GA/Joint and Static/Joint still move by up to ~0.17 / ~0.30
        // (docs/MODEL-ML-FOR-ML.md section 6), so they are not asserted here.
        std::vector<tandem::Report> reps;
        for (std::uint64_t seed : {1, 2, 3}) {
            Params p = scenario2Params();
            p.seed = seed;
            const Result r = simulate(p);
            QCOMPARE(r.points.size(), size_t(p.poissonSchedules));
            tandem::Report rep;
            scenario2Checks(r, rep);
            for (const auto& c : rep.checks) {
                if (c.id.rfind("s2.joint_first.", 0) == 0) QCOMPARE(c.tandemValue, 1.0);
                if (c.id == "s2.joint_share_ga16_mxfp4.bg0") QVERIFY(c.tandemValue < 0.5);
                if (c.id == "s2.decoupled_share_ga16_mxfp4") QVERIFY(c.tandemValue > 30);
            }
            reps.push_back(rep);
        }
        for (size_t i = 0; i < reps[0].checks.size(); ++i) {
            const auto& id = reps[0].checks[i].id;
            if (id.rfind("s2.decoupled_over_joint.", 0) != 0 &&
                id.rfind("s2.knobprecision_over_joint.", 0) != 0)
                continue;
            for (size_t k = 1; k < reps.size(); ++k) {
                const double a = reps[0].checks[i].tandemValue, b = reps[k].checks[i].tandemValue;
                QVERIFY2(std::fabs(a - b) <= 0.05,
                         qPrintable(QString("%1: %2 vs %3").arg(id.c_str()).arg(a).arg(b)));
            }
        }
    }

    void poissonSchedulesAreSeparatePoints() {
        // One point per arrival schedule; schedule 0 is the single-schedule run.
        Params p = scenario2Params();
        p.policies = {Policy::Joint};
        p.exposureRecordings = 1;
        p.poissonSchedules = 3;
        const Result r = simulate(p);
        QCOMPARE(r.points.size(), size_t(3));
        for (int i = 0; i < 3; ++i) QCOMPARE(r.points[i].schedule, i);
        QVERIFY(r.points[1].label != r.points[0].label);
        QVERIFY(r.points[1].loadTime_s != r.points[0].loadTime_s);  // different arrivals
        p.poissonSchedules = 1;
        const Result one = simulate(p);
        QCOMPARE(one.points.size(), size_t(1));
        QCOMPARE(one.points[0].policies[0].firstCrossing_s,
                 r.points[0].policies[0].firstCrossing_s);
        // Pooled updates per level add up to the run's updates.
        long long sum = 0;
        for (long long n : one.points[0].policies[0].updatesByBackground) sum += n;
        QCOMPARE(sum, one.points[0].policies[0].totalUpdates);
    }

    void cancelThrows() {
        std::atomic<bool> flag{true};
        QVERIFY_THROWS_EXCEPTION(tandem::Cancelled, simulate(scenario1Params(), &flag));
    }

    void csvHeaders() {
        Params p = scenario1Params();
        p.backgroundJobs = {4};
        const Result r = simulate(p);
        const std::string a = firstCrossingCsv(r), b = trajectoriesCsv(r);
        QVERIFY(a.rfind("background_jobs,policy,target_factor_x_Lmin,target_loss_nats,first_"
                        "crossing_s,ratio_to_joint\n",
                        0) == 0);
        QVERIFY(b.rfind("background_jobs,policy,time_s,updates,loss\n", 0) == 0);
        for (const auto& run : r.points[0].policies) QVERIFY(run.time_s.size() <= 2001);
    }
};

TANDEM_TEST_APPLESS_MAIN(TestSimulate)
#include "tst_mlforml_simulate.moc"
