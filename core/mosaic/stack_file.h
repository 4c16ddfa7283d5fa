#pragma once
// A training stack as a file of its own: a built-in stack (stack.h) with its fitted constants
// replaced, as `tandem-cli calibrate` writes it for a user's cluster. Read by `--stack FILE`,
// by scenarios (`mosaic.stack` as an object) and by the GUI.
//
//   {"tandem_stack": 1, "name": "my-cluster", "base": "megatron-core",
//    "constants": {"grouped_gemm_max": 0.45, ...},        // stackFitParameters() names
//    "calibration": {"runs": 3, "hardware": "h100", "median_abs_error_before": 0.18,
//                    "median_abs_error_after": 0.06, "leave_one_run_out": 0.09}}
//   "adopted": false in `calibration` marks a refit that was declined (calibrate.h): the
//   constants are the base's. Optional "recipe": {"fused_grouped_mlp": true,
//   "hierarchical_dispatch": true} switches on Stack::fusedGroupedMlp / hierarchicalDispatch
//   (the recipe settings the measured runs carry per run, reality.h MeasuredRecipe), e.g. to
//   plan with the GB200 MXFP8 MoE recipes of Megatron-Bridge 26.06 and later.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "common/json_reader.h"
#include "mosaic/stack.h"

namespace tandem::mosaic {

/// The version written in `tandem_stack`; a file of a later version is refused.
inline constexpr int kStackFileVersion = 1;

/// "calibrated to 3 runs of yours on h100 (median error before 18.2 %, after 6.1 %; 9.0 %
/// for a run left out)": the sentence shown wherever a calibrated stack is named; for a declined
/// refit (c.adopted false), "checked against 3 runs of yours on h100: megatron-core's constants
/// kept (median error 5.3 %; ...a run left out was predicted at 5.9 %, no better ...)".
/// `withConstants` false leaves out the refitted / kept lists (a short form for narrow places,
/// the full sentence then in a tooltip).
std::string calibrationSentence(const StackCalibration& c, bool withConstants = true);

/// "stack my-h100 was calibrated to runs on h100, not gb200-nvl72: ...": the note wherever a
/// stack calibrated to runs on one hardware costs another (its constants carry that cluster's
/// kernels and software); "" for a stack not calibrated, or calibrated on `hardware` itself.
std::string calibrationHardwareNote(const Stack& stack, const std::string& hardware);

/// `stack` as a stack file (above): its base (stack.calibration.base, set for every stack read
/// from a file, calibrated or not; else its own name when it is a built-in stack), every
/// stackFitParameters() member, its "recipe" switches when any is on, and its calibration when
/// it has one.
nlohmann::ordered_json stackToJson(const Stack& stack);

/// A key that files of an earlier Tandem wrote under `constants` and that is no longer a
/// constant of a stack (`dense_gemm_max`, `fp8_gemm_factor`: the GEMM level comes from the
/// kernel tables, resources/kernels/). Such a file is still read; the key's value is ignored
/// and the reader's notes say so.
struct RetiredStackConstant {
    const char* name;        ///< the key under `constants`
    const char* replacedBy;  ///< what it set, e.g. "the dense GEMM level"
};
/// Every retired constant, in the order notes name them.
const std::vector<RetiredStackConstant>& retiredStackConstants();
/// "$.constants.dense_gemm_max: is no longer a constant of a stack: the dense GEMM level now
/// comes from the kernel tables (...); the file's value 0.9 was ignored and ...": the warning
/// for retired key `k` read at `path` with `value`.
std::string retiredConstantNote(const std::string& path, const RetiredStackConstant& k,
                                double value);

/// Reads a stack file's object from `r` (errors name the key: an unknown base, a constant
/// outside its physical range, a missing name or one that is a built-in stack's, a later
/// version; a retired constant, retiredStackConstants(), is not an error: its value is ignored
/// and a note naming it goes to `notes` when given: a warning for the caller to show).
/// Returns the base stack with the constants set, `name` and `calibration` from the
/// file; the base stack when there were errors.
Stack readStackJson(JsonReader& r, std::vector<std::string>* notes = nullptr);

/// A built-in stack by name (builtinStack) or, when `nameOrPath` ends in ".json", the stack
/// file at that path. Errors (unreadable file, bad JSON, bad keys) go to `diag`; returns the
/// mosaic-paper stack then. The file's warnings (readStackJson) go to `notes` when given.
Stack loadStack(const std::string& nameOrPath, Diagnostics& diag,
                std::vector<std::string>* notes = nullptr);

}  // namespace tandem::mosaic
