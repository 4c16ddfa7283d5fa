#include "mosaic/stack_file.h"

#include <cmath>

#include "common/number_format.h"
#include "io/text_file.h"

namespace tandem::mosaic {

namespace {
/// "18.2 %" in the C convention whatever the locale (formatFixed).
std::string percent(double fraction) { return formatFixed(100.0 * fraction, 1) + " %"; }

bool endsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
}  // namespace

std::string calibrationSentence(const StackCalibration& c, bool withConstants) {
    if (!c.adopted) {
        std::string s = "checked against " + std::to_string(c.runs) + " runs of yours";
        if (!c.hardware.empty()) s += " on " + c.hardware;
        const std::string from = !c.from.empty()   ? c.from
                                 : !c.base.empty() ? c.base
                                                   : std::string("the base");
        return s + ": " + from + "'s constants kept (median error " +
               percent(c.medianAbsErrorBefore) +
               "; refitted to all but one, the run left out was predicted at " +
               percent(c.leaveOneRunOut) + " in the median, no better)";
    }
    std::string s =
        "calibrated to " + std::to_string(c.runs) + (c.runs == 1 ? " run" : " runs") + " of yours";
    if (!c.hardware.empty()) s += " on " + c.hardware;
    s += " (median error before " + percent(c.medianAbsErrorBefore) + ", after " +
         percent(c.medianAbsErrorAfter);
    if (std::isfinite(c.leaveOneRunOut))
        s += "; " + percent(c.leaveOneRunOut) + " for a run left out";
    s += ")";
    if (c.kept.empty() || !withConstants) return s;
    const auto list = [](const std::vector<std::string>& names) {
        std::string out;
        for (size_t i = 0; i < names.size(); ++i)
            out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
        return out.empty() ? std::string("none") : out;
    };
    return s + "; refitted " + list(c.refitted) +
           "; kept at the base's values (not exercised by the runs) " + list(c.kept);
}

std::string calibrationHardwareNote(const Stack& stack, const std::string& hardware) {
    const StackCalibration& c = stack.calibration;
    if (c.runs <= 0 || !c.adopted || c.hardware.empty() || c.hardware == hardware) return "";
    return "stack " + stack.name + " was calibrated to runs on " + c.hardware + ", not " +
           hardware + ": its constants carry that cluster's kernels and software, which " +
           hardware + " may not share (calibrate to runs on " + hardware + ", or use " +
           (c.base.empty() ? std::string("the base stack") : c.base) + ")";
}

nlohmann::ordered_json stackToJson(const Stack& stack) {
    const StackCalibration* calibration = stack.calibration.runs > 0 ? &stack.calibration : nullptr;
    nlohmann::ordered_json j;
    j["tandem_stack"] = kStackFileVersion;
    j["name"] = stack.name;
    j["base"] = !stack.calibration.base.empty() ? stack.calibration.base : stack.name;
    nlohmann::ordered_json constants = nlohmann::ordered_json::object();
    Stack s = stack;
    for (const StackFitParameter& p : stackFitParameters()) constants[p.name] = p.ref(s);
    j["constants"] = constants;
    // The recipe switches the measured runs set per run (reality.h, MeasuredRecipe), written
    // only when on (the built-in stacks have them off).
    if (stack.fusedGroupedMlp || stack.hierarchicalDispatch) {
        nlohmann::ordered_json recipe = nlohmann::ordered_json::object();
        if (stack.fusedGroupedMlp) recipe["fused_grouped_mlp"] = true;
        if (stack.hierarchicalDispatch) recipe["hierarchical_dispatch"] = true;
        j["recipe"] = recipe;
    }
    if (calibration) {
        nlohmann::ordered_json c;
        c["runs"] = calibration->runs;
        c["hardware"] = calibration->hardware;
        c["median_abs_error_before"] = calibration->medianAbsErrorBefore;
        c["median_abs_error_after"] = calibration->medianAbsErrorAfter;
        if (std::isfinite(calibration->leaveOneRunOut))
            c["leave_one_run_out"] = calibration->leaveOneRunOut;
        if (!calibration->adopted) c["adopted"] = false;
        if (!calibration->refitted.empty() || !calibration->kept.empty()) {
            c["refitted"] = calibration->refitted;
            c["kept"] = calibration->kept;
        }
        j["calibration"] = c;
    }
    return j;
}

const std::vector<RetiredStackConstant>& retiredStackConstants() {
    static const std::vector<RetiredStackConstant> keys = {
        {"dense_gemm_max", "the dense GEMM level"},
        {"fp8_gemm_factor", "the FP8 GEMM level"},
    };
    return keys;
}

std::string retiredConstantNote(const std::string& path, const RetiredStackConstant& k,
                                double value) {
    return path + ": is no longer a constant of a stack: " + k.replacedBy +
           " now comes from the kernel tables (resources/kernels/, measured achievable "
           "efficiency by shape); the file's value " +
           formatNumber(value) +
           " was ignored and the other constants are used as written (tandem-cli calibrate "
           "refits them on the tables)";
}

Stack readStackJson(JsonReader& r, std::vector<std::string>* notes) {
    Diagnostics& diag = r.diagnostics();
    const size_t errorsBefore = diag.items().size();
    const long long version = r.integer("tandem_stack", 0, Range::closed(1, 1e9));
    if (!r.has("tandem_stack"))
        diag.error(r.childPath("tandem_stack"), "is required (the stack file's version, 1)");
    else if (version > kStackFileVersion)
        diag.error(r.childPath("tandem_stack"), "version " + std::to_string(version) +
                                                    " is newer than this Tandem reads (" +
                                                    std::to_string(kStackFileVersion) + ")");
    const std::string base = r.string("base", "megatron-core", stackNames());
    Stack baseStack = mosaicPaperStack();
    try {
        baseStack = builtinStack(base);
    } catch (const std::exception&) {
        // string() has reported the unknown base with the known ones.
    }
    Stack s = baseStack;
    const std::string name = r.string("name", "");
    if (name.empty())
        diag.error(r.childPath("name"), "is required (a name for this stack, e.g. my-cluster)");
    if (isBuiltinStack(name))
        diag.error(r.childPath("name"),
                   "\"" + name + "\" is a built-in stack; give the calibrated one its own name");
    if (!name.empty()) s.name = name;
    JsonReader constants = r.object("constants");
    for (const StackFitParameter& p : stackFitParameters())
        p.ref(s) = constants.number(p.name, p.ref(s), Range::closed(p.low, p.high));
    for (const RetiredStackConstant& k : retiredStackConstants()) {
        if (!constants.has(k.name)) continue;
        const double value = constants.number(k.name, 0);
        if (notes) notes->push_back(retiredConstantNote(constants.childPath(k.name), k, value));
    }
    constants.finish();
    if (r.has("recipe")) {
        JsonReader recipe = r.object("recipe");
        s.fusedGroupedMlp = recipe.boolean("fused_grouped_mlp", s.fusedGroupedMlp);
        if (s.fusedGroupedMlp && !s.kernelTables)
            diag.error(recipe.childPath("fused_grouped_mlp"),
                       "needs a stack costed from the kernel tables (base megatron-core); " +
                           baseStack.name + " costs the experts as one grouped GEMM");
        s.hierarchicalDispatch = recipe.boolean("hierarchical_dispatch", s.hierarchicalDispatch);
        recipe.finish();
    }
    s.calibration.base = baseStack.name;  // kept with or without a calibration block
    if (r.has("calibration")) {
        JsonReader c = r.object("calibration");
        StackCalibration cal;
        cal.runs = int(c.integer("runs", 0, Range::closed(1, 1e6)));
        cal.hardware = c.string("hardware", "");
        cal.medianAbsErrorBefore = c.number("median_abs_error_before", 0, Range::nonNegative());
        cal.medianAbsErrorAfter = c.number("median_abs_error_after", 0, Range::nonNegative());
        cal.leaveOneRunOut = c.has("leave_one_run_out")
                                 ? c.number("leave_one_run_out", 0, Range::nonNegative())
                                 : std::nan("");
        cal.adopted = c.boolean("adopted", true);
        if (!cal.adopted && !std::isfinite(cal.leaveOneRunOut))
            c.diagnostics().error(c.childPath("adopted"),
                                  "false needs leave_one_run_out, the error that declined it");
        std::vector<std::string> names;
        for (const StackFitParameter& p : stackFitParameters()) names.push_back(p.name);
        cal.refitted = c.strings("refitted", {}, names);
        cal.kept = c.strings("kept", {}, names);
        cal.base = baseStack.name;
        c.finish();
        s.calibration = cal;
        s.description = calibrationSentence(cal);
    }
    r.finish();
    return diag.items().size() > errorsBefore ? baseStack : s;
}

Stack loadStack(const std::string& nameOrPath, Diagnostics& diag, std::vector<std::string>* notes) {
    if (!endsWith(nameOrPath, ".json")) {
        try {
            return builtinStack(nameOrPath);
        } catch (const std::exception& e) {
            diag.error("--stack", std::string(e.what()) + " or a stack file (.json)");
            return mosaicPaperStack();
        }
    }
    std::string text;
    if (!io::readTextFile(nameOrPath, text, diag)) return mosaicPaperStack();
    const size_t before = diag.items().size();
    const nlohmann::json j = parseJsonText(text, diag);
    if (diag.items().size() > before) return mosaicPaperStack();
    JsonReader r(j, "$", diag);
    if (!r.isObject()) return mosaicPaperStack();
    return readStackJson(r, notes);
}

}  // namespace tandem::mosaic
