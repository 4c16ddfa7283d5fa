#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "mosaic/korthikanti.h"
#include "mosaic/plan.h"
#include "mosaic/reality.h"
#include "mosaic/reality_detail.h"
#include "mosaic/report.h"

// The stack fit to the measured runs (fitStack, Nelder-Mead over the constants the runs
// depend on), its leave-one-group-out validation, and the fit to Korthikanti et al. 2022.

namespace tandem::mosaic {

using detail::costCase;
using detail::median;

double fitObjective(const Stack& stack, std::vector<RealityCase>& cases) {
    double sum = 0;
    for (RealityCase& c : cases) {
        if (!c.expressible) continue;
        setCaseStack(c, stack);
        const QuickEval q = PerfModel(c.geometry, c.cluster).quick(c.plan);
        if (!q.feasible) {
            sum += 1e3;
            continue;
        }
        const double pred =
            double(c.cluster.globalBatch) * c.cluster.seqLen / (q.iteration_s * c.cluster.devices);
        const double r = std::log(pred / c.run.tokensPerSPerGpu) / 0.1;
        sum += std::sqrt(1.0 + r * r) - 1.0;
    }
    return sum;
}

double fitPrior(const Stack& stack) {
    Stack s = stack;
    double sum = 0;
    for (const StackFitParameter& p : stackFitParameters()) {
        const double u = (p.ref(s) - p.start) / (p.high - p.low);
        sum += kFitPriorWeight * u * u;
    }
    return sum;
}

std::vector<StackFitParameter> parametersDependedOn(
    const Stack& at, const std::function<double(const Stack&)>& objective) {
    // Probed by moving each constant half its range (down when that would leave the range).
    const double atStart = objective(at);
    std::vector<StackFitParameter> out;
    for (const StackFitParameter& p : stackFitParameters()) {
        Stack probe = at;
        double& v = p.ref(probe);
        const double half = 0.5 * (p.high - p.low);
        v = v + half <= p.high ? v + half : v - half;
        if (objective(probe) != atStart) out.push_back(p);
    }
    return out;
}

StackFit fitStack(const Stack& start, int maxEvaluations,
                  const std::function<bool(const RealityCase&)>& excluded,
                  const tandem::CancelFlag* cancel) {
    std::vector<RealityCase> cases = realityCases(start);
    choosePlans(cases);
    if (excluded) cases.erase(std::remove_if(cases.begin(), cases.end(), excluded), cases.end());
    const auto objective = [&](const Stack& s) {
        throwIfCancelled(cancel);
        return fitObjective(s, cases) + fitPrior(s);
    };
    // A constant no fitted case depends on (the MXFP8 and NVFP4 factors with the GB200 runs,
    // the only ones at those precisions, left out) keeps its start value: Nelder-Mead would
    // move it along the flat direction, and the left-out runs would be predicted with whatever
    // value the simplex left there.
    // Identified by the runs alone: the prior depends on every constant.
    const std::vector<StackFitParameter> identified =
        parametersDependedOn(start, [&](const Stack& s) { return fitObjective(s, cases); });
    StackFit fit = minimizeStack(start, identified, objective, maxEvaluations);
    fit.values.clear();
    for (const StackFitParameter& p : stackFitParameters()) fit.values.push_back(p.ref(fit.stack));
    return fit;
}

const EnumTable<LeaveOutKind>& leaveOutKindNames() {
    static const EnumTable<LeaveOutKind> t = {{LeaveOutKind::System, "system"},
                                              {LeaveOutKind::ModelFamily, "model_family"}};
    return t;
}

namespace {
/// The group of `kind` case `c` belongs to.
std::string leaveOutGroupOf(LeaveOutKind kind, const RealityCase& c) {
    return kind == LeaveOutKind::System ? c.run.system : measuredModelFamily(c.run.model);
}

/// Median |error|, largest |error| and median signed error of `rows` into `g`.
void leaveOutStats(LeaveOutGroup& g) {
    std::vector<double> abs, sgn;
    for (const RealityRow& r : g.rows) {
        abs.push_back(std::abs(r.error));
        sgn.push_back(r.error);
    }
    g.medianAbsError = median(abs);
    g.maxAbsError = abs.empty() ? 0.0 : *std::max_element(abs.begin(), abs.end());
    g.medianError = median(sgn);
    std::vector<double> inAbs;
    for (const RealityRow& r : g.inSample) inAbs.push_back(std::abs(r.error));
    g.inSampleMedianAbsError = median(inAbs);
}
}  // namespace

LeaveOutReport leaveOutErrors(int maxEvaluations, int threads, const tandem::CancelFlag* cancel) {
    LeaveOutReport out;
    out.maxEvaluations = maxEvaluations;
    out.cases = realityCases(megatronCoreStack());
    choosePlans(out.cases);
    const std::vector<RealityRow> stored = costCases(out.cases);
    for (LeaveOutKind kind : {LeaveOutKind::System, LeaveOutKind::ModelFamily}) {
        std::vector<std::string> names;
        for (const RealityCase& c : out.cases)
            if (c.expressible) names.push_back(leaveOutGroupOf(kind, c));
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
        for (const std::string& n : names) {
            LeaveOutGroup g;
            g.kind = kind;
            g.name = n;
            out.groups.push_back(std::move(g));
        }
    }
    // One refit per group, each on its own thread's copy of the cases.
    std::atomic<size_t> next{0};
    std::atomic<bool> stop{false};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto work = [&]() {
        try {
            for (size_t i = next++; i < out.groups.size() && !stop; i = next++) {
                LeaveOutGroup& g = out.groups[i];
                auto inGroup = [&](const RealityCase& c) {
                    return c.expressible && leaveOutGroupOf(g.kind, c) == g.name;
                };
                const StackFit fit =
                    fitStack(megatronCoreFitStart(), maxEvaluations, inGroup, cancel);
                g.values = fit.values;
                g.objective = fit.objective;
                for (const RealityRow& row : stored) {
                    RealityCase c = out.cases[row.caseIndex];
                    if (!inGroup(c)) continue;
                    g.inSample.push_back(row);
                    setCaseStack(c, fit.stack);
                    g.rows.push_back(costCase(c, row.caseIndex));
                }
                leaveOutStats(g);
            }
        } catch (...) {
            std::lock_guard<std::mutex> lock(errorMutex);
            if (!error) error = std::current_exception();
            stop = true;
        }
    };
    const size_t n = std::min<size_t>(std::max(1, threads), std::max<size_t>(1, out.groups.size()));
    std::vector<std::thread> pool;
    for (size_t t = 1; t < n; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    if (error) std::rethrow_exception(error);
    std::vector<double> bySystem, byFamily;
    for (const LeaveOutGroup& g : out.groups)
        for (const RealityRow& r : g.rows)
            (g.kind == LeaveOutKind::System ? bySystem : byFamily).push_back(std::abs(r.error));
    out.medianAbsErrorSystems = median(bySystem);
    out.medianAbsErrorFamilies = median(byFamily);
    return out;
}

nlohmann::ordered_json leaveOutToJson(const LeaveOutReport& r) {
    using J = nlohmann::ordered_json;
    J j;
    j["max_evaluations"] = r.maxEvaluations;
    j["overall"] = {{"system", {{"median_abs_error", r.medianAbsErrorSystems}}},
                    {"model_family", {{"median_abs_error", r.medianAbsErrorFamilies}}}};
    J groups = J::array();
    const auto& params = stackFitParameters();
    for (const LeaveOutGroup& g : r.groups) {
        J o;
        o["kind"] = enumName(leaveOutKindNames(), g.kind);
        o["name"] = g.name;
        o["rows"] = g.rows.size();
        o["median_abs_error"] = g.medianAbsError;
        o["max_abs_error"] = g.maxAbsError;
        o["median_error"] = g.medianError;
        o["in_sample_median_abs_error"] = g.inSampleMedianAbsError;
        o["objective"] = g.objective;
        J consts;
        for (size_t i = 0; i < params.size() && i < g.values.size(); ++i)
            consts[params[i].name] = g.values[i];
        o["constants"] = consts;
        J runs = J::array();
        for (size_t i = 0; i < g.rows.size(); ++i) {
            const RealityRow& row = g.rows[i];
            const RealityCase& c = r.cases[row.caseIndex];
            J x;
            x["line"] = c.run.line;
            x["system"] = c.run.system;
            x["model"] = c.run.model;
            x["precision"] = precisionName(c.cluster.precision);
            x["measured_tokens_per_s_per_gpu"] = c.run.tokensPerSPerGpu;
            x["predicted_tokens_per_s_per_gpu"] =
                row.eval.feasible ? J(row.eval.tokensPerSPerGpu) : J(nullptr);
            x["error"] = row.eval.feasible ? J(row.error) : J(nullptr);
            x["in_sample_error"] =
                g.inSample[i].eval.feasible ? J(g.inSample[i].error) : J(nullptr);
            runs.push_back(x);
        }
        o["runs"] = runs;
        groups.push_back(o);
    }
    j["groups"] = groups;
    return j;
}

StackFit minimizeStack(const Stack& start, const std::vector<StackFitParameter>& params,
                       const std::function<double(const Stack&)>& objective, int maxEvaluations) {
    const size_t n = params.size();
    // Nelder-Mead on the parameters scaled to [0, 1] within their ranges (clamped), from `start`.
    auto toStack = [&](const std::vector<double>& u) {
        Stack s = start;
        for (size_t i = 0; i < n; ++i) {
            const double x = std::clamp(u[i], 0.0, 1.0);
            params[i].ref(s) = params[i].low + x * (params[i].high - params[i].low);
        }
        return s;
    };
    StackFit fit;
    auto f = [&](const std::vector<double>& u) {
        ++fit.evaluations;
        return objective(toStack(u));
    };
    std::vector<std::vector<double>> simplex(n + 1, std::vector<double>(n));
    Stack s0 = start;
    for (size_t i = 0; i < n; ++i)
        simplex[0][i] = (params[i].ref(s0) - params[i].low) / (params[i].high - params[i].low);
    for (size_t k = 1; k <= n; ++k) {
        simplex[k] = simplex[0];
        simplex[k][k - 1] += simplex[0][k - 1] < 0.85 ? 0.1 : -0.1;
    }
    std::vector<double> val(n + 1);
    for (size_t k = 0; k <= n; ++k) val[k] = f(simplex[k]);
    while (fit.evaluations < maxEvaluations) {
        std::vector<size_t> order(n + 1);
        for (size_t k = 0; k <= n; ++k) order[k] = k;
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return val[a] < val[b]; });
        const size_t best = order.front(), worst = order.back(), second = order[n - 1];
        if (val[worst] - val[best] < 1e-9 * (1 + std::abs(val[best]))) break;
        std::vector<double> centroid(n, 0.0);
        for (size_t k = 0; k <= n; ++k)
            if (k != worst)
                for (size_t i = 0; i < n; ++i) centroid[i] += simplex[k][i] / double(n);
        auto along = [&](double t) {
            std::vector<double> x(n);
            for (size_t i = 0; i < n; ++i)
                x[i] = std::clamp(centroid[i] + t * (simplex[worst][i] - centroid[i]), 0.0, 1.0);
            return x;
        };
        const auto xr = along(-1.0);
        const double fr = f(xr);
        if (fr < val[best]) {
            const auto xe = along(-2.0);
            const double fe = f(xe);
            if (fe < fr) {
                simplex[worst] = xe;
                val[worst] = fe;
            } else {
                simplex[worst] = xr;
                val[worst] = fr;
            }
        } else if (fr < val[second]) {
            simplex[worst] = xr;
            val[worst] = fr;
        } else {
            const auto xc = fr < val[worst] ? along(-0.5) : along(0.5);
            const double fc = f(xc);
            if (fc < std::min(fr, val[worst])) {
                simplex[worst] = xc;
                val[worst] = fc;
            } else {  // shrink towards the best vertex
                for (size_t k = 0; k <= n; ++k) {
                    if (k == best) continue;
                    for (size_t i = 0; i < n; ++i)
                        simplex[k][i] = simplex[best][i] + 0.5 * (simplex[k][i] - simplex[best][i]);
                    val[k] = f(simplex[k]);
                }
            }
        }
    }
    size_t best = 0;
    for (size_t k = 1; k <= n; ++k)
        if (val[k] < val[best]) best = k;
    fit.stack = toStack(simplex[best]);
    fit.objective = val[best];
    for (size_t i = 0; i < n; ++i) fit.values.push_back(params[i].ref(fit.stack));
    return fit;
}

double korthikantiFitObjective(const Stack& stack) {
    double sum = 0;
    for (const KorthikantiResult& r : costKorthikantiPoints(stack)) {
        if (!r.expressible || r.point.quantity != KorthikantiQuantity::IterationTime) continue;
        if (!(r.tandem > 0) || !std::isfinite(r.tandem)) {
            sum += 1e3;
            continue;
        }
        const double e = std::log(r.tandem / r.point.value) / 0.1;
        sum += std::sqrt(1.0 + e * e) - 1.0;
    }
    return sum;
}

StackFit fitStackToKorthikanti(const Stack& start, int maxEvaluations) {
    return minimizeStack(start, megatronLm2022FitParameters(), korthikantiFitObjective,
                         maxEvaluations);
}

}  // namespace tandem::mosaic
