#pragma once
// `tandem-cli calibrate`: a training stack's fitted constants refitted to a user's own measured
// runs together with the runs the stack was fitted to, so that a few runs cannot pull it far.
#include <cstddef>
#include <string>
#include <vector>

#include "mosaic/reality.h"
#include "mosaic/stack_file.h"

namespace tandem::mosaic {

/// The weight of each of `user` runs in a calibration (calibrateStack) that take the place of
/// `replaced` shipped runs on the same hardware: together they weigh as much as the runs they
/// replace, replaced / user, and never less than one shipped run each. The shipped runs on other
/// hardware keep weight 1 and hold the constants the user's runs say nothing about.
double replacedRunsWeight(size_t replaced, size_t user);

/// Result of calibrateStack.
struct CalibrationResult {
    Stack stack;  ///< the calibrated stack: `name`, `calibration` (= summary), `description` set
    StackCalibration summary;
    /// predicted / measured - 1 of each expressible, feasible case (in case order) under the
    /// starting stack and under the calibrated one.
    std::vector<double> errorsBefore, errorsAfter;
};

/// The error (predicted / measured - 1, tokens/s per GPU) of each expressible case under
/// `stack` (cases re-costed; infeasible cases give -1).
std::vector<double> caseErrors(const Stack& stack, std::vector<RealityCase> cases);
/// Median of |e| over `errors`; NaN when empty.
double medianAbsError(const std::vector<double>& errors);

/// Refits the stackFitParameters() that some of the user's `cases` depend on
/// (parametersDependedOn; the others keep `base`'s values, listed with the refitted ones in
/// summary.refitted / summary.kept) from `base`'s values, to the runs it was fitted to
/// (`fitCases`: `tandem-cli calibrate` passes the shipped measured runs on hardware other than
/// the user's, whose runs take the place of the shipped ones there) and the user's `cases`,
/// each of the user's weighing `userWeight` (minimizeStack on fitObjective; expressible cases,
/// plans as given, e.g. by choosePlans). Reports the median |error| on the user's cases before
/// and after and, with two or more, the leave-one-run-out median (each predicted by the stack
/// calibrated on the others; `leaveOneRunOut` false skips it, one refit per run, and leaves
/// summary.leaveOneRunOut NaN). `name` names the result; `hardware` is recorded in the summary.
CalibrationResult calibrateStack(const Stack& base, const std::vector<RealityCase>& fitCases,
                                 const std::vector<RealityCase>& cases, const std::string& name,
                                 const std::string& hardware, double userWeight = 1.0,
                                 bool leaveOneRunOut = true);

/// The calibration of `tandem-cli calibrate` and the GUI's "Calibrate to these runs": the user's
/// `cases` (expressible, all on one hardware; their plans chosen here by choosePlans) take the
/// place of the shipped runs on that hardware, the shipped runs on other hardware stay in the
/// fit (calibrateStack with replacedRunsWeight). The replaced runs stay out even for the
/// constants the user's runs do not exercise: those are kept at `base`'s values anyway. Slow: one
/// stack fit (seconds), and with `leaveOneRunOut` one more per run.
CalibrationResult calibrateToRuns(const Stack& base, std::vector<RealityCase> cases,
                                  const std::string& name, bool leaveOneRunOut = true);

}  // namespace tandem::mosaic
