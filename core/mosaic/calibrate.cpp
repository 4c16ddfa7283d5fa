#include "mosaic/calibrate.h"

#include <algorithm>
#include <cmath>

#include "common/number_format.h"
#include "common/statistics.h"
#include "mosaic/layout_form.h"

namespace tandem::mosaic {

namespace {
/// The calibrated constants only (no summaries): the fit behind calibrateStack and its
/// leave-one-run-out. Only the constants some of the `user` runs depend on are refitted; the
/// others keep `base`'s values (the runs cannot measure them, and the shipped runs in
/// `fitCases` alone would move them away from the base's fit to all shipped runs). `refitted`
/// (optional) receives the names of the refitted constants.
Stack refit(const Stack& base, std::vector<RealityCase> fitCases, std::vector<RealityCase> user,
            double userWeight, std::vector<std::string>* refitted = nullptr) {
    const std::vector<StackFitParameter> free =
        parametersDependedOn(base, [&](const Stack& s) { return fitObjective(s, user); });
    if (refitted) {
        refitted->clear();
        for (const StackFitParameter& p : free) refitted->push_back(p.name);
    }
    if (free.empty()) return base;
    const auto objective = [&](const Stack& s) {
        return fitObjective(s, fitCases) + fitPrior(s) + userWeight * fitObjective(s, user);
    };
    return minimizeStack(base, free, objective).stack;
}
}  // namespace

std::string runSource(const MeasuredRun& r) {
    return r.line > 0 ? "line " + std::to_string(r.line) : r.note;
}

double replacedRunsWeight(size_t replaced, size_t user) {
    return user == 0 ? 1.0 : std::max(1.0, double(replaced) / double(user));
}

std::vector<double> caseErrors(const Stack& stack, std::vector<RealityCase> cases) {
    for (RealityCase& c : cases) setCaseStack(c, stack);
    std::vector<double> out;
    for (const RealityRow& row : costCases(cases)) out.push_back(row.error);
    return out;
}

double medianAbsError(const std::vector<double>& errors) {
    std::vector<double> a;
    for (double e : errors) a.push_back(std::abs(e));
    return median(a);
}

CalibrationResult calibrateStack(const Stack& base, const std::vector<RealityCase>& fitCases,
                                 const std::vector<RealityCase>& cases, const std::string& name,
                                 const std::string& hardware, double userWeight) {
    std::vector<RealityCase> used;
    for (const RealityCase& c : cases)
        if (c.expressible) used.push_back(c);
    CalibrationResult out;
    out.stack = refit(base, fitCases, used, userWeight, &out.summary.refitted);
    for (const StackFitParameter& p : stackFitParameters())
        if (std::find(out.summary.refitted.begin(), out.summary.refitted.end(), p.name) ==
            out.summary.refitted.end())
            out.summary.kept.push_back(p.name);
    out.errorsBefore = caseErrors(base, used);
    out.summary.runs = int(used.size());
    out.summary.hardware = hardware;
    out.summary.medianAbsErrorBefore = medianAbsError(out.errorsBefore);
    out.summary.leaveOneRunOut = std::nan("");
    if (used.size() >= 2) {
        std::vector<double> left;
        for (size_t i = 0; i < used.size(); ++i) {
            std::vector<RealityCase> others = used;
            others.erase(others.begin() + long(i));
            const Stack s = refit(base, fitCases, others, userWeight);
            const std::vector<double> e = caseErrors(s, {used[i]});
            left.push_back(e.empty() ? std::nan("") : e.front());
        }
        out.errorsLeftOut = left;
        out.summary.leaveOneRunOut = medianAbsError(left);
    }
    // A refit that predicts the runs it did not see no better than the base does has learnt
    // the runs, not the cluster: the base's constants stay.
    out.summary.adopted = !(out.summary.leaveOneRunOut >= out.summary.medianAbsErrorBefore);
    if (!out.summary.adopted) {
        out.stack = base;
        out.summary.refitted.clear();  // nothing was: every constant is the base's
        out.summary.kept.clear();
        for (const StackFitParameter& p : stackFitParameters()) out.summary.kept.push_back(p.name);
    }
    out.errorsAfter = caseErrors(out.stack, used);
    out.cases = used;
    out.summary.medianAbsErrorAfter = medianAbsError(out.errorsAfter);
    out.summary.base = !base.calibration.base.empty() ? base.calibration.base : base.name;
    out.summary.from = base.name;
    out.stack.name = name;
    // A declined check of a stack calibrated before keeps that calibration: it is what made
    // the constants (and names the hardware they were measured on).
    out.keptEarlierCalibration = !out.summary.adopted && base.calibration.runs > 0;
    if (!out.keptEarlierCalibration) out.stack.calibration = out.summary;
    out.stack.description = calibrationSentence(out.stack.calibration);
    return out;
}

}  // namespace tandem::mosaic

namespace tandem::mosaic {

namespace {
/// The same run given twice: same measured speed, model, hardware, GPUs, batch, sequence,
/// precision and layout (the source it was read from aside).
bool sameRun(const RealityCase& a, const RealityCase& b) {
    return a.run.tokensPerSPerGpu == b.run.tokensPerSPerGpu && a.run.model == b.run.model &&
           a.cluster.hardware.name == b.cluster.hardware.name &&
           a.cluster.devices == b.cluster.devices &&
           a.cluster.globalBatch == b.cluster.globalBatch && a.cluster.seqLen == b.cluster.seqLen &&
           a.cluster.precision == b.cluster.precision &&
           layoutString(a.plan) == layoutString(b.plan);
}
}  // namespace

CalibrationResult calibrateToRuns(const Stack& base, std::vector<RealityCase> given,
                                  const std::string& name) {
    choosePlans(given);
    std::vector<UnusedRun> unused;
    std::vector<RealityCase> cases;
    for (size_t i = 0; i < given.size(); ++i) {
        RealityCase c = given[i];
        setCaseStack(c, base);
        if (!c.expressible) continue;  // calibrateStack uses expressible cases only
        const RealityRow row = costCases({c}).front();
        if (!row.eval.feasible) {
            unused.push_back({i, runSource(c.run),
                              "the model calls this layout infeasible under " + base.name + ": " +
                                  row.eval.reason});
            continue;
        }
        const double ratio = row.eval.tokensPerSPerGpu / c.run.tokensPerSPerGpu;
        if (!(ratio <= kImplausibleFactor && ratio >= 1.0 / kImplausibleFactor)) {
            unused.push_back(
                {i, runSource(c.run),
                 "measured " + formatGeneral(c.run.tokensPerSPerGpu, 4) + " tokens/s per GPU, " +
                     formatGeneral(ratio >= 1 ? ratio : 1.0 / ratio, 3) + "x " +
                     (ratio >= 1 ? "slower" : "faster") + " than " + base.name +
                     " predicts for this layout (" + formatGeneral(row.eval.tokensPerSPerGpu, 4) +
                     "): check the GPUs, layout and batch given with it"});
            continue;
        }
        const auto twin = std::find_if(cases.begin(), cases.end(),
                                       [&](const RealityCase& o) { return sameRun(o, c); });
        if (twin != cases.end()) {
            unused.push_back(
                {i, runSource(c.run),
                 "the same run as one given before it (" + runSource(twin->run) + ")"});
            continue;
        }
        cases.push_back(std::move(c));
    }
    const std::string hw = cases.empty() ? std::string() : cases.front().cluster.hardware.name;
    std::vector<RealityCase> shipped;
    size_t replaced = 0;
    for (RealityCase& c : realityCases(base)) {
        if (!c.expressible) continue;
        if (c.cluster.hardware.name == hw)
            ++replaced;
        else
            shipped.push_back(std::move(c));
    }
    choosePlans(shipped);
    CalibrationResult out =
        calibrateStack(base, shipped, cases, name, hw, replacedRunsWeight(replaced, cases.size()));
    out.unused = std::move(unused);
    return out;
}

}  // namespace tandem::mosaic
