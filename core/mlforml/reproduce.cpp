#include "mlforml/reproduce.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "mlforml/presets.h"
#include "mlforml/report.h"

namespace tandem::mlforml {

namespace {

const double kNan = std::nan("");

const PointResult* pointFor(const Result& r, int n) {
    for (const auto& pt : r.points)
        if (pt.backgroundJobs == n) return &pt;
    return nullptr;
}

int targetIndex(const Result& r, double factor) {
    for (size_t i = 0; i < r.targetFactors.size(); ++i)
        if (std::fabs(r.targetFactors[i] - factor) < 1e-9) return static_cast<int>(i);
    return -1;
}

double ratio(const Result& r, const PointResult* pt, Policy policy, double factor) {
    const int t = targetIndex(r, factor);
    if (!pt || t < 0) return kNan;
    return ratioToJoint(*pt, name(policy), static_cast<size_t>(t));
}

int comboIndex(const Result& r, const Combo& combo) {
    const std::string label = combo.label();
    for (size_t i = 0; i < r.comboLabels.size(); ++i)
        if (r.comboLabels[i] == label) return static_cast<int>(i);
    return -1;
}

std::string tlabel(double f) { return "t" + formatNumber(f); }

}  // namespace

void scenario1Checks(const Result& r, Report& out) {
    const int ns[4] = {4, 8, 12, 16};
    auto interp = [](double a, double b, int i) { return a + (b - a) * i / 3.0; };
    for (int i = 0; i < 4; ++i) {
        const auto* pt = pointFor(r, ns[i]);
        const std::string n = "N" + std::to_string(ns[i]);
        const bool end = i == 0 || i == 3;
        const double bf = interp(73, 91, i);
        out.checks.push_back(
            makeCheck("s1.dp_share.bf16." + n,
                      "exposed DP share at GA4 BF16, %, N=" + std::to_string(ns[i]) +
                          (end ? "" : " (paper value interpolated; band spans the ends)"),
                      bf, pt ? 100 * pt->dpShareBf16 : kNan, end ? bf - 6 : 67, end ? bf + 6 : 97));
    }
    for (int i = 0; i < 4; ++i) {
        const auto* pt = pointFor(r, ns[i]);
        const std::string n = "N" + std::to_string(ns[i]);
        const bool end = i == 0 || i == 3;
        const double mx = interp(40, 58, i);
        out.checks.push_back(makeCheck(
            "s1.dp_share.mxfp4." + n,
            "exposed DP share at GA4 MXFP4, %, N=" + std::to_string(ns[i]) +
                (end ? "" : " (paper value interpolated; band spans the ends)"),
            mx, pt ? 100 * pt->dpShareMxfp4 : kNan, end ? mx - 6 : 34, end ? mx + 6 : 64));
    }
    const double p95[4] = {17.55, 22.02, 25.83, 26.16};
    for (int i = 0; i < 4; ++i) {
        const auto* pt = pointFor(r, ns[i]);
        out.checks.push_back(
            makeCheck("s1.bg_p95_GB_per_50ms.N" + std::to_string(ns[i]),
                      "background volume, 95th percentile per 50 ms, GB [Sec. 3.2]", p95[i],
                      pt ? pt->bgP95GBPer50ms : kNan, p95[i] * 0.85, p95[i] * 1.15));
    }
    {
        const auto* pt = pointFor(r, 16);
        const int b = comboIndex(r, {4, Precision::Bf16}), m = comboIndex(r, {4, Precision::Mxfp4});
        const double v = pt && b >= 0 && m >= 0
                             ? pt->meanSyncBeyondOverlap_s[b] / pt->meanSyncBeyondOverlap_s[m]
                             : kNan;
        out.checks.push_back(makeCheck("s1.bf16_over_mxfp4_dp.N16",
                                       "BF16 / MXFP4 exposed DP time at GA4, N=16 [Fig. 2a]", 7.3,
                                       v, 5.5, 9.0));
    }
    const double dec102[4] = {1.40, 1.21, 1.16, 1.12}, dec101[4] = {1.42, 1.22, 1.18, 1.13};
    for (int i = 0; i < 4; ++i)
        out.checks.push_back(
            makeCheck("s1.decoupled_over_joint.t1.02.N" + std::to_string(ns[i]),
                      "Decoupled / Joint first-crossing time at 1.02 L_min [Fig. 2c]", dec102[i],
                      ratio(r, pointFor(r, ns[i]), Policy::Decoupled, 1.02), dec102[i] - 0.08,
                      dec102[i] + 0.08));
    for (int i = 0; i < 4; ++i)
        out.checks.push_back(
            makeCheck("s1.decoupled_over_joint.t1.01.N" + std::to_string(ns[i]),
                      "Decoupled / Joint first-crossing time at 1.01 L_min [Fig. 2d]", dec101[i],
                      ratio(r, pointFor(r, ns[i]), Policy::Decoupled, 1.01), dec101[i] - 0.08,
                      dec101[i] + 0.08));
    for (int i = 0; i < 4; ++i)
        out.checks.push_back(
            makeCheck("s1.knobprecision_over_joint.t1.01.N" + std::to_string(ns[i]),
                      "Knob-Precision / Joint at 1.01 L_min (Joint picks GA4-MXFP4) [Fig. 2d]", 1.0,
                      ratio(r, pointFor(r, ns[i]), Policy::KnobPrecision, 1.01), 0.98, 1.02));
    for (int i = 0; i < 4; ++i) {
        const bool end = i == 0 || i == 3;
        const double v = interp(1.71, 3.65, i);
        out.checks.push_back(
            makeCheck("s1.static_over_joint.t1.01.N" + std::to_string(ns[i]),
                      std::string("Static / Joint at 1.01 L_min [Sec. 3.2]") +
                          (end ? "" : " (paper value interpolated; band spans the ends)"),
                      v, ratio(r, pointFor(r, ns[i]), Policy::Static, 1.01),
                      end ? v * 0.8 : 1.71 * 0.8, end ? v * 1.2 : 3.65 * 1.2));
    }
    for (int i = 0; i < 4; ++i) {
        const bool end = i == 0 || i == 3;
        const double v = interp(1.54, 2.26, i);
        out.checks.push_back(
            makeCheck("s1.knobga_over_joint.t1.01.N" + std::to_string(ns[i]),
                      std::string("Knob-GA / Joint at 1.01 L_min [Sec. 3.2]") +
                          (end ? "" : " (paper value interpolated; band spans the ends)"),
                      v, ratio(r, pointFor(r, ns[i]), Policy::KnobGa, 1.01),
                      end ? v * 0.8 : 1.54 * 0.8, end ? v * 1.2 : 2.26 * 1.2));
    }
}

namespace {

/// Mean first-crossing time of `policy` at target index t over every point (schedule) of r;
/// NaN when the policy is missing or did not reach the target in some schedule.
double meanCrossing(const Result& r, Policy policy, int t) {
    if (t < 0 || r.points.empty()) return kNan;
    double sum = 0;
    for (const auto& pt : r.points) {
        const PolicyRun* run = findRun(pt, policy);
        if (!run || static_cast<size_t>(t) >= run->firstCrossing_s.size()) return kNan;
        const double x = run->firstCrossing_s[t];
        if (!std::isfinite(x)) return kNan;
        sum += x;
    }
    return sum / r.points.size();
}

/// Share (%) of updates of `policy` in combination c, pooled over every schedule; level < 0 pools
/// all levels, else only updates with `level` active background jobs. NaN if there are none.
double pooledShare(const Result& r, Policy policy, int c, int level) {
    double in = 0, all = 0;
    for (const auto& pt : r.points) {
        const PolicyRun* run = findRun(pt, policy);
        if (!run || c < 0) continue;
        if (level < 0) {
            all += static_cast<double>(run->totalUpdates);
            in += run->comboShare[c] * static_cast<double>(run->totalUpdates);
        } else if (level < static_cast<int>(run->updatesByBackground.size()) &&
                   !run->comboShareByBackground[level].empty()) {
            const double n = static_cast<double>(run->updatesByBackground[level]);
            all += n;
            in += run->comboShareByBackground[level][c] * n;
        }
    }
    return all > 0 ? 100 * in / all : kNan;
}

/// Why the scenario-2 rows that cannot hold together are reported apart.
const char* const kContradictsModel =
    "the paper's numbers contradict its stated model (docs/MODEL-ML-FOR-ML.md section 6)";

/// Directional scenario-2 checks that hold whatever the open rows' magnitudes [Sec. 3.3]:
/// Static and Knob-GA are the two slowest policies at every target, Static / Joint >= 2,
/// Knob-GA / Joint >= 1.5, and Joint's GA16-MXFP4 share never falls as background jobs are
/// added (`shares`: the pooled share, %, at 0, 1, ... jobs; the value is its smallest step).
void directionalChecks(const Result& r, const double (&targets)[4],
                       const std::vector<double>& shares, const std::string& over, Report& out) {
    const double inf = std::numeric_limits<double>::infinity();
    for (double f : targets) {
        const int t = targetIndex(r, f);
        const double slowPair =
            std::min(meanCrossing(r, Policy::Static, t), meanCrossing(r, Policy::KnobGa, t));
        double fastest = kNan;
        for (Policy fast : {Policy::Joint, Policy::Decoupled, Policy::KnobPrecision}) {
            const double x = meanCrossing(r, fast, t);
            fastest = std::isnan(fastest) ? x : std::max(fastest, x);
        }
        const double yes =
            std::isfinite(slowPair) && std::isfinite(fastest) ? (slowPair > fastest ? 1 : 0) : kNan;
        out.checks.push_back(
            makeCheck("s2.static_knobga_slowest." + tlabel(f),
                      "scenario 2: Static and Knob-GA are the two slowest to the target "
                      "(1 = yes; directional) [Sec. 3.3]" +
                          over,
                      1, yes, 1, 1));
    }
    struct Floor {
        const char* id;
        Policy policy;
        double floor;
    };
    for (const Floor& fl : {Floor{"s2.static_over_joint_min2.", Policy::Static, 2.0},
                            Floor{"s2.knobga_over_joint_min1.5.", Policy::KnobGa, 1.5}})
        for (double f : targets) {
            const int t = targetIndex(r, f);
            const double j = meanCrossing(r, Policy::Joint, t);
            const double v = j > 0 ? meanCrossing(r, fl.policy, t) / j : kNan;
            out.checks.push_back(makeCheck(std::string(fl.id) + tlabel(f),
                                           std::string("scenario 2: ") + name(fl.policy) +
                                               " / Joint, at least " + formatNumber(fl.floor) +
                                               " (directional) [Sec. 3.3]" + over,
                                           fl.floor, v, fl.floor, inf));
        }
    double minStep = shares.size() > 1 ? inf : kNan;
    for (size_t k = 1; k < shares.size(); ++k)
        minStep = std::min(minStep, shares[k] - shares[k - 1]);
    out.checks.push_back(
        makeCheck("s2.joint_share_ga16_mxfp4.monotone",
                  "scenario 2: smallest change of Joint's GA16-MXFP4 share from one "
                  "background level to the next, percentage points (never falls; "
                  "directional) [Sec. 3.3]" +
                      over,
                  0, minStep, 0, inf));
}

}  // namespace

void scenario2Checks(const Result& r, Report& out) {
    // Every point is one arrival schedule; times are averaged and shares pooled over them.
    const double targets[4] = {1.005, 1.01, 1.015, 1.02};
    const std::string over = r.points.size() > 1
                                 ? " (mean over " + std::to_string(r.points.size()) + " schedules)"
                                 : std::string();
    std::vector<Policy> others;
    if (!r.points.empty())
        for (const auto& run : r.points.front().policies)
            if (run.kind != Policy::Joint && run.kind != Policy::Oracle) others.push_back(run.kind);
    for (double f : targets) {
        double first = kNan;
        const int t = targetIndex(r, f);
        const double j = meanCrossing(r, Policy::Joint, t);
        if (std::isfinite(j)) {
            first = 1;
            for (Policy other : others)
                if (!(meanCrossing(r, other, t) > j) && std::isfinite(meanCrossing(r, other, t)))
                    first = 0;
        }
        out.checks.push_back(makeCheck(
            "s2.joint_first." + tlabel(f),
            "scenario 2: Joint reaches the target first (1 = yes)" + over, 1, first, 1, 1));
    }
    struct Row {
        const char* id;
        Policy policy;
        const char* quantity;
        double paper, low, high;
        bool contradictsModel;  ///< reported apart (docs/MODEL-ML-FOR-ML.md section 6)
    };
    const Row rows[4] = {
        {"s2.decoupled_over_joint.", Policy::Decoupled,
         "scenario 2: Decoupled / Joint (paper 1.054-1.208 over the targets) [Sec. 3.3]", 1.131,
         1.02, 1.30, false},
        {"s2.knobprecision_over_joint.", Policy::KnobPrecision,
         "scenario 2: Knob-Precision / Joint (paper 1.227-1.363) [Sec. 3.3]", 1.295, 1.12, 1.45,
         false},
        // "Knob-GA and Static are slower by 4.4-4.9x and 5.3-6.3x" stands beside "Knob-GA is
        // 1.1-1.3x faster [than Static]" and "Joint reaches 6.3-7.3x": the slowdowns are ratios
        // of 5.4-5.9 and 6.3-7.3 [Sec. 3.3].
        {"s2.knobga_over_joint.", Policy::KnobGa,
         "scenario 2: Knob-GA / Joint (paper 'slower by 4.4-4.9x': ratio 5.4-5.9) [Sec. 3.3]", 5.65,
         5.4 * 0.75, 5.9 * 1.25, true},
        {"s2.static_over_joint.", Policy::Static,
         "scenario 2: Static / Joint (paper 'slower by 5.3-6.3x': ratio 6.3-7.3) [Sec. 3.3]", 6.8,
         6.3 * 0.75, 7.3 * 1.25, true},
    };
    for (const auto& row : rows)
        for (double f : targets) {
            const int t = targetIndex(r, f);
            const double j = meanCrossing(r, Policy::Joint, t);
            const double v = j > 0 ? meanCrossing(r, row.policy, t) / j : kNan;
            Check c = makeCheck(std::string(row.id) + tlabel(f), row.quantity + over, row.paper, v,
                                row.low, row.high);
            if (row.contradictsModel) markNotReproducible(c, kContradictsModel);
            out.checks.push_back(c);
        }
    const int c = comboIndex(r, {16, Precision::Mxfp4});
    double prev = 0;
    std::vector<double> shares;
    for (int k = 0; k <= 5; ++k) {
        const double v = pooledShare(r, Policy::Joint, c, k);
        const double paper = 8.0 * k;
        double low = k == 0 ? 0 : prev, high = k == 0 ? 5 : 55;
        if (k == 5) low = std::max(25.0, prev);
        // MODEL.md A6 reads this row as "monotone; top 25-55 %": each level at least the
        // previous one and none above the 55 % ceiling. When the previous level is already
        // above 55 no value can satisfy both, so the band stays [previous, 55] (it is empty
        // and the check fails) and the text says so; clamping low to 55 would pass a level that
        // fell from the previous one, which A6 does not allow.
        const std::string empty =
            low > high
                ? "; band empty: the previous level " + formatNumber(std::round(low * 100) / 100) +
                      " % is already above the " + formatNumber(high) + " % ceiling"
                : std::string();
        out.checks.push_back(
            makeCheck("s2.joint_share_ga16_mxfp4.bg" + std::to_string(k),
                      "scenario 2: Joint's share of GA16-MXFP4 with " + std::to_string(k) +
                          " background jobs, % (paper 0 rising monotonically to 40; intermediate "
                          "interpolated; low bound = previous level" +
                          empty + ")" + over,
                      paper, v, low, high));
        if (k >= 3) markNotReproducible(out.checks.back(), kContradictsModel);
        if (std::isfinite(v)) prev = v;
        shares.push_back(v);
    }
    out.checks.push_back(
        makeCheck("s2.decoupled_share_ga16_mxfp4",
                  "scenario 2: Decoupled's share of GA16-MXFP4, % (paper 43-58)" + over, 50.5,
                  pooledShare(r, Policy::Decoupled, c, -1), 30, 70));
    directionalChecks(r, targets, shares, over, out);
}

Report reproduceMlForMl(const CancelFlag* cancel) {
    Report rep;
    rep.paper = "2608.06046";
    scenario1Checks(simulate(scenario1Params(), cancel), rep);
    scenario2Checks(simulate(scenario2Params(), cancel), rep);
    return rep;
}

}  // namespace tandem::mlforml
