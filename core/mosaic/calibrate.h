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

/// A user's run measured this many times faster or slower than the base stack predicts its
/// layout is left out of a calibration (calibrateToRuns). The shipped measured runs lie within
/// 2.4x of the predictions even with their model family held out of the fit
/// (`reproduce reality`), and the same layout measures up to 1.6x apart across container
/// releases; 3x is beyond both.
inline constexpr double kImplausibleFactor = 3.0;

/// Where a user's run came from, as calibrate's messages name it: "line N" of a file of measured
/// runs, else its log's file name (run.note).
std::string runSource(const MeasuredRun& r);

/// A user's run that calibrateToRuns left out, and why.
struct UnusedRun {
    size_t index = 0;    ///< into the cases given
    std::string source;  ///< where the run came from (runSource)
    std::string reason;  ///< e.g. "the model calls this layout infeasible: ..."
};

/// Result of calibrateStack.
struct CalibrationResult {
    Stack stack;  ///< the calibrated stack: `name`, `calibration` (= summary), `description` set
    StackCalibration summary;
    /// The check was declined on a stack calibrated before: `stack` keeps that stack's own
    /// calibration (what made its constants), so stack.calibration is not `summary`.
    bool keptEarlierCalibration = false;
    /// Each case's error predicted by the stack refitted to the others (leave-one-run-out), in
    /// case order; empty with fewer than two cases.
    std::vector<double> errorsLeftOut;
    /// The cases calibrated to, in the order given (calibrateToRuns: the given ones less
    /// `unused`); errorsBefore / errorsAfter index them.
    std::vector<RealityCase> cases;
    /// calibrateToRuns: the given cases it left out (a layout the model calls infeasible under
    /// the base stack, whose error would read -100 %; a run measured more than
    /// kImplausibleFactor times faster or slower than the base predicts its layout, which says
    /// more about the facts given with it, GPUs, layout or batch, than about the cluster; a run
    /// given twice), in order.
    std::vector<UnusedRun> unused;
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
/// each of the user's weighing `userWeight` (minimizeStack on fitObjective plus fitPrior;
/// expressible cases, plans as given, e.g. by choosePlans). Reports the median |error| on the
/// user's cases before and after and, with two or more, the leave-one-run-out median (each
/// predicted by the stack refitted on the others: one more refit per run).
///
/// The refit is adopted only where it predicts a run it did not see better than the base
/// predicts the runs (leave-one-run-out < median before): otherwise the runs carry nothing the
/// base does not already predict, and refitting to them would move the constants to fit these
/// runs at the expense of every other layout (issue 30: calibrating never makes it worse).
/// Declined, the result keeps `base`'s constants, summary.adopted is false and the sentence
/// says why. One run cannot be checked this way and is adopted, held by the prior.
/// `name` names the result; `hardware` is recorded in the summary.
CalibrationResult calibrateStack(const Stack& base, const std::vector<RealityCase>& fitCases,
                                 const std::vector<RealityCase>& cases, const std::string& name,
                                 const std::string& hardware, double userWeight = 1.0);

/// The calibration of `tandem-cli calibrate` and the GUI's "Calibrate to these runs": the user's
/// `cases` (expressible, all on one hardware; their plans chosen here by choosePlans; those the
/// model calls infeasible under `base`, and repeats of a run already given, are left out and
/// listed in `unused`; none left: a result with summary.runs 0 and `base`'s constants) take the
/// place of the shipped runs on that hardware, the shipped runs on other hardware stay in the
/// fit (calibrateStack with replacedRunsWeight). The replaced runs stay out even for the
/// constants the user's runs do not exercise: those are kept at `base`'s values anyway. One
/// stack fit per run and one more (about 0.1 s each on the shipped set).
CalibrationResult calibrateToRuns(const Stack& base, std::vector<RealityCase> cases,
                                  const std::string& name);

}  // namespace tandem::mosaic
