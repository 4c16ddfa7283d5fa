#include "mosaic/reality.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "common/number_format.h"
#include "common/statistics.h"
#include "mosaic/geometry.h"
#include "mosaic/hardware.h"
#include "mosaic/korthikanti.h"
#include "mosaic/plan.h"
#include "mosaic/reality_detail.h"
#include "mosaic/report.h"

namespace tandem::mosaic {

using detail::costCase;
using detail::median;

namespace {

/// A system of the measured runs and the built-in hardware it is costed on.
struct SystemHardware {
    const char* system;
    const char* hardware;
};
constexpr SystemHardware kSystems[] = {{"DGX-H100", "h100"}, {"DGX-GB200", "gb200-nvl72"}};

/// The built-in hardware of `system` ("" for a system not in kSystems).
std::string hardwareOfSystem(const std::string& system) {
    for (const auto& s : kSystems)
        if (system == s.system) return s.hardware;
    return {};
}

}  // namespace

namespace detail {

/// tandem::median, 0 for no values (an empty filter's summary reads 0, not NaN).
double median(const std::vector<double>& v) { return v.empty() ? 0.0 : tandem::median(v); }

/// Case `index` of `cases` (expressible) costed under its cluster's stack.
RealityRow costCase(const RealityCase& c, size_t index) {
    RealityRow row;
    row.caseIndex = index;
    row.eval = PerfModel(c.geometry, c.cluster).evaluate(c.plan);
    row.error = row.eval.feasible ? row.eval.tokensPerSPerGpu / c.run.tokensPerSPerGpu - 1.0 : -1.0;
    return row;
}

}  // namespace detail

RealityCase realityCase(const MeasuredRun& r, const Stack& stack, const Hardware* hardware,
                        const Geometry* geometry) {
    RealityCase c;
    c.run = r;
    const std::string hw = hardware ? hardware->name : hardwareOfSystem(r.system);
    if (hw.empty()) {
        c.reason = "unknown system \"" + r.system + "\"";
    } else if (!(c.reason = measuredRunFlaggedBySource(r)).empty()) {
        // listed, never fitted
    } else if (geometry || measuredModelGeometry(r.model, c.geometry, c.reason)) {
        if (geometry) c.geometry = *geometry;
        c.expressible = true;
        c.cluster.hardware = hardware ? *hardware : builtinHardware(hw);
        c.cluster.devices = r.gpus;
        c.cluster.globalBatch = r.gbs;
        c.cluster.seqLen = r.seqLen;
        parsePrecision(r.precisionText, c.cluster.precision);
        setCaseStack(c, stack);
        Plan& p = c.plan;
        p.tp = r.tp;
        p.pp = r.pp;
        p.cp = r.cp;
        p.vp = std::max(1, r.vp);
        p.ep = std::max(1, r.ep);
        p.etp = 1;
        p.mbs = r.mbs;
        p.fsdp = r.fsdp > 0;
        p.dp = r.gpus / std::max(1, r.tp * r.pp * r.cp);
        p.ckpt = Checkpointing::None;
    }
    return c;
}

MeasuredRecipe measuredRunRecipe(const MeasuredRun& r, const Geometry& g) {
    MeasuredRecipe out;
    if (g.experts <= 1) return out;
    Precision p = Precision::Bf16;
    parsePrecision(r.precisionText, p);
    const std::string family = measuredModelFamily(r.model);
    if (r.system == "DGX-GB200") {
        out.fusedGroupedMlp = r.container >= "26.06" && p == Precision::Mxfp8;
        out.a2aOverlap = out.fusedGroupedMlp || (family == "gpt-oss" && r.container >= "26.04");
        out.hierarchicalDispatch = family != "gpt-oss" || r.container >= "26.04";
    } else {
        out.a2aOverlap = r.model == "Qwen3_235B_a22B" || (r.model == "Qwen3_30B_a3B" && r.pp == 2);
        out.hierarchicalDispatch = (r.model == "Qwen3_30B_a3B" && r.container >= "26.02") ||
                                   (r.model == "Qwen3_235B_a22B" && r.container == "26.02.01");
    }
    return out;
}

void setCaseStack(RealityCase& c, const Stack& stack) {
    c.cluster.stack = stack;
    if (c.recipe.fusedGroupedMlp) c.cluster.stack.fusedGroupedMlp = true;
    if (!c.recipe.a2aOverlap) c.cluster.stack.a2aOverlap = 0;
    if (c.recipe.hierarchicalDispatch) c.cluster.stack.hierarchicalDispatch = true;
}

std::vector<RealityCase> realityCases(const Stack& stack) {
    std::vector<RealityCase> out;
    for (const MeasuredRun& r : shippedMeasuredRuns()) {
        RealityCase c = realityCase(r, stack);
        if (c.expressible) {
            c.recipe = measuredRunRecipe(r, c.geometry);
            setCaseStack(c, stack);
        }
        out.push_back(std::move(c));
    }
    return out;
}

void choosePlans(std::vector<RealityCase>& cases) {
    for (RealityCase& c : cases) {
        if (!c.expressible) continue;
        chooseLeastRecomputation(PerfModel(c.geometry, c.cluster), c.plan);
    }
}

std::vector<RealityRow> costCases(const std::vector<RealityCase>& cases) {
    std::vector<RealityRow> rows;
    for (size_t i = 0; i < cases.size(); ++i)
        if (cases[i].expressible) rows.push_back(costCase(cases[i], i));
    return rows;
}

RealitySummary summarize(const std::vector<RealityRow>& rows) {
    RealitySummary s;
    std::vector<double> abs;
    for (const RealityRow& r : rows) {
        ++s.rows;
        if (r.eval.feasible) ++s.feasible;
        if (!r.eval.feasible) continue;
        if (std::abs(r.error) <= 0.25) ++s.within25;
        abs.push_back(std::abs(r.error));
    }
    s.medianAbsError = median(abs);
    s.shareWithin25 = s.rows > 0 ? double(s.within25) / s.rows : 0.0;
    return s;
}

RealityReport reproduceReality() {
    RealityReport r;
    r.report.paper = "Megatron-Bridge performance summary (measured Megatron-Core runs)";
    r.cases = realityCases(megatronCoreStack());
    choosePlans(r.cases);
    r.rows = costCases(r.cases);
    r.summary = summarize(r.rows);
    for (const RealityRow& row : r.rows) {
        const MeasuredRun& m = r.cases[row.caseIndex].run;
        const std::string id = "reality." + m.container + "." + m.system + "." + m.model + "." +
                               m.precisionText + "." + std::to_string(m.gpus);
        const double pred = row.eval.feasible ? row.eval.tokensPerSPerGpu : std::nan("");
        r.report.checks.push_back(makeCheck(id, "tokens/s/GPU (measured vs predicted, band +-25 %)",
                                            m.tokensPerSPerGpu, pred, 0.75 * m.tokensPerSPerGpu,
                                            1.25 * m.tokensPerSPerGpu));
    }
    r.korthikanti = costKorthikantiPoints();
    for (Check& c : korthikantiChecks(r.korthikanti)) r.report.checks.push_back(std::move(c));
    // Issue 28's in-sample target (median <= 8 %); the share within +-25 % is held at 80 %: the
    // fit's prior (fitPrior) trades one run at the band's edge (76 of 90, 84 %, against 77
    // without it) for leave-one-system-out 6.4 % instead of 13.0 % (docs/MODEL-MOSAIC.md).
    r.report.checks.push_back(makeCheck("reality.median_abs_error",
                                        "median |predicted / measured - 1|", 0.08,
                                        r.summary.medianAbsError, 0.0, 0.08));
    r.report.checks.push_back(makeCheck("reality.share_within_25pct", "share of runs within +-25 %",
                                        0.80, r.summary.shareWithin25, 0.80, 1.0));
    r.report.checks.push_back(
        makeCheck("reality.feasible_share", "share of measured layouts feasible", 1.0,
                  r.summary.rows ? double(r.summary.feasible) / r.summary.rows : 0.0, 1.0, 1.0));
    return r;
}

nlohmann::ordered_json realityToJson(const RealityReport& r) {
    using J = nlohmann::ordered_json;
    J j = reportToJson(r.report);
    j["stack"] = megatronCoreStack().name;
    j["conventions"] = conventionsJson();
    J sum;
    sum["rows"] = r.summary.rows;
    sum["feasible"] = r.summary.feasible;
    sum["within_25pct"] = r.summary.within25;
    sum["median_abs_error"] = r.summary.medianAbsError;
    sum["share_within_25pct"] = r.summary.shareWithin25;
    j["summary"] = sum;
    // Error split by system, precision, model, dense / MoE and micro-batch size: each key of
    // "split" with the group of a case.
    struct ErrorSplit {
        const char* key;
        std::string (*group)(const RealityCase&);
    };
    static const ErrorSplit splits[] = {
        {"system", [](const RealityCase& c) { return c.run.system; }},
        {"precision",
         [](const RealityCase& c) { return std::string(precisionName(c.cluster.precision)); }},
        {"model", [](const RealityCase& c) { return c.run.model; }},
        {"dense_moe",
         [](const RealityCase& c) {
             return std::string(c.geometry.experts > 0 ? "moe" : "dense");
         }},
        {"mbs", [](const RealityCase& c) { return std::to_string(c.run.mbs); }}};
    J split;
    for (const ErrorSplit& by : splits) {
        const char* key = by.key;
        std::map<std::string, std::vector<RealityRow>> groups;
        for (const RealityRow& row : r.rows)
            groups[by.group(r.cases[row.caseIndex])].push_back(row);
        J g;
        for (const auto& [name, rows] : groups) {
            const RealitySummary s = summarize(rows);
            std::vector<double> signedErr;
            double maxAbs = 0;
            for (const auto& row : rows) {
                signedErr.push_back(row.error);
                maxAbs = std::max(maxAbs, std::abs(row.error));
            }
            J e;
            e["rows"] = s.rows;
            e["median_abs_error"] = s.medianAbsError;
            e["max_abs_error"] = maxAbs;
            e["median_error"] = median(signedErr);
            e["share_within_25pct"] = s.shareWithin25;
            g[name] = e;
        }
        split[key] = g;
    }
    j["split"] = split;
    J rows = J::array();
    for (const RealityRow& row : r.rows) {
        const RealityCase& c = r.cases[row.caseIndex];
        const Plan& p = c.plan;
        J o;
        o["line"] = c.run.line;
        o["container"] = c.run.container;
        o["system"] = c.run.system;
        o["model"] = c.run.model;
        o["precision"] = precisionName(c.cluster.precision);
        o["gpus"] = c.run.gpus;
        o["layout"] = {{"tp", p.tp},     {"pp", p.pp},
                       {"vp", p.vp},     {"cp", p.cp},
                       {"ep", p.ep},     {"etp", p.etp},
                       {"dp", p.dp},     {"mbs", p.mbs},
                       {"fsdp", p.fsdp}, {"ckpt", checkpointingName(p.ckpt)}};
        o["measured_tokens_per_s_per_gpu"] = c.run.tokensPerSPerGpu;
        o["error"] = row.eval.feasible ? J(row.error) : J(nullptr);
        o["measured_model_tflops_per_s_per_gpu"] = c.run.modelTflopsPerSPerGpu;
        o["capacity_GB"] = c.cluster.hardware.memoryBytes / 1e9;
        o["recipe"] = {{"fused_grouped_mlp", c.recipe.fusedGroupedMlp},
                       {"a2a_overlap", c.recipe.a2aOverlap},
                       {"hierarchical_dispatch", c.recipe.hierarchicalDispatch}};
        o["eval"] = planEvalToJson(row.eval);
        rows.push_back(o);
    }
    j["rows"] = rows;
    J ne = J::array();
    for (const RealityCase& c : r.cases) {
        if (c.expressible) continue;
        ne.push_back({{"line", c.run.line},
                      {"container", c.run.container},
                      {"system", c.run.system},
                      {"model", c.run.model},
                      {"precision", c.run.precisionText},
                      {"reason", c.reason}});
    }
    j["not_expressible"] = ne;
    J kp = J::array();
    for (const KorthikantiResult& k : r.korthikanti) {
        J o;
        o["point"] = k.point.point;
        o["quantity"] = enumName(korthikantiQuantityNames(), k.point.quantity);
        o["mode"] = enumName(korthikantiModeNames(), k.point.mode);
        o["unit"] = enumName(korthikantiUnitNames(), k.point.unit);
        o["paper"] = k.point.value;
        o["source"] = k.point.source;
        o["layout"] = {{"tp", k.point.tp},          {"pp", k.point.pp},
                       {"vp", k.point.vp},          {"dp", k.point.dp},
                       {"mbs", k.point.microBatch}, {"gbs", k.point.globalBatch}};
        o["expressible"] = k.expressible;
        if (k.expressible) {
            o["tandem"] = std::isfinite(k.tandem) ? J(k.tandem) : J(nullptr);
            o["error"] = std::isfinite(k.tandem) ? J(k.tandem / k.point.value - 1) : J(nullptr);
            o["ckpt"] = checkpointingName(k.plan.ckpt);
            o["sequence_parallel"] = k.plan.sequenceParallel;
            o["stack"] = megatronLm2022Stack().name;
            o["eval"] = planEvalToJson(k.eval);
        } else {
            o["reason"] = k.reason;
        }
        kp.push_back(o);
    }
    j["korthikanti_2022"] = kp;
    return j;
}

int measuredSystemIndex(const std::string& system) {
    for (size_t i = 0; i < std::size(kSystems); ++i)
        if (system == kSystems[i].system) return static_cast<int>(i);
    return -1;
}

namespace {
/// The filterable fields of a row's case.
std::string rowPrecision(const RealityReport& r, const RealityRow& row) {
    return precisionName(r.cases[row.caseIndex].cluster.precision);
}

void addSorted(std::vector<std::string>& v, const std::string& s) {
    const auto it = std::lower_bound(v.begin(), v.end(), s);
    if (it == v.end() || *it != s) v.insert(it, s);
}
}  // namespace

RealityFilterValues realityFilterValues(const RealityReport& r) {
    RealityFilterValues v;
    for (const RealityRow& row : r.rows) {
        const MeasuredRun& run = r.cases[row.caseIndex].run;
        addSorted(v.systems, run.system);
        addSorted(v.models, run.model);
        addSorted(v.precisions, rowPrecision(r, row));
        addSorted(v.stacks, run.container);
    }
    return v;
}

bool realityCaseMatches(const RealityCase& c, const RealityFilter& f) {
    const MeasuredRun& run = c.run;
    return (f.system.empty() || f.system == run.system) &&
           (f.model.empty() || f.model == run.model) &&
           (f.precision.empty() || f.precision == precisionName(c.cluster.precision)) &&
           (f.stack.empty() || f.stack == run.container);
}

bool realityRowMatches(const RealityReport& r, const RealityRow& row, const RealityFilter& f) {
    return realityCaseMatches(r.cases[row.caseIndex], f);
}

std::vector<RealityRow> filterRealityRows(const RealityReport& r, const RealityFilter& f) {
    std::vector<RealityRow> out;
    for (const RealityRow& row : r.rows)
        if (realityRowMatches(r, row, f)) out.push_back(row);
    return out;
}

RealitySummary summarizeRealityFilter(const RealityReport& r, const RealityFilter& f) {
    return summarize(filterRealityRows(r, f));
}

std::string measuredSystemOfHardware(const std::string& hardware) {
    for (const auto& s : kSystems)
        if (hardware == s.hardware) return s.system;
    return {};
}

RealityPlan realityPlan(const Envelope& e, const Candidate& c, const Stack& runs) {
    RealityPlan p;
    p.hardware = e.hardware.name;
    p.system = measuredSystemOfHardware(p.hardware);
    p.gpus = e.devices();
    p.totalParams = c.geometry.nTot;
    p.precision = precisionName(e.precision);
    p.scenarioStack = e.stack.name;
    p.scenarioPredicted = c.eval.feasible ? c.eval.tokensPerSPerGpu : 0.0;
    p.stack = runs.name;
    if (e.stack.name == runs.name) {
        p.predicted = p.scenarioPredicted;
        p.reason = c.eval.feasible ? std::string() : c.eval.reason;
        return p;
    }
    // The layout the scenario chose, costed as the measured runs are.
    Cluster cluster = clusterOf(e);
    cluster.stack = runs;
    const PlanEval ev = evaluateLayout(c.geometry, cluster, c.plan);
    p.predicted = ev.feasible ? ev.tokensPerSPerGpu : 0.0;
    p.reason = ev.feasible ? std::string() : ev.reason;
    return p;
}

std::vector<RealityNeighbour> nearestRealityRuns(const RealityReport& r, const RealityPlan& plan,
                                                 int k, const RealityFilter& filter) {
    std::vector<RealityNeighbour> all;
    if (plan.gpus <= 0 || !(plan.totalParams > 0) || k <= 0) return all;
    for (size_t i = 0; i < r.rows.size(); ++i) {
        const RealityRow& row = r.rows[i];
        if (!row.eval.feasible || !realityRowMatches(r, row, filter)) continue;
        const RealityCase& c = r.cases[row.caseIndex];
        if (c.run.gpus <= 0 || !(c.geometry.nTot > 0)) continue;
        RealityNeighbour n;
        n.row = i;
        n.sameSystem = !plan.system.empty() && c.run.system == plan.system;
        n.distance = std::abs(std::log2(double(c.run.gpus) / plan.gpus)) +
                     std::abs(std::log2(c.geometry.nTot / plan.totalParams)) +
                     (rowPrecision(r, row) == plan.precision ? 0.0 : 1.0);
        all.push_back(n);
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const RealityNeighbour& a, const RealityNeighbour& b) {
                         if (a.sameSystem != b.sameSystem) return a.sameSystem;
                         return a.distance < b.distance;
                     });
    if (all.size() > static_cast<size_t>(k)) all.resize(static_cast<size_t>(k));
    return all;
}

RealityNeighbourSummary summarizeNeighbours(const RealityReport& r,
                                            const std::vector<RealityNeighbour>& nearest) {
    RealityNeighbourSummary s;
    std::vector<double> abs;
    for (const RealityNeighbour& n : nearest) {
        ++s.runs;
        if (n.sameSystem) ++s.sameSystem;
        const double e = std::abs(r.rows[n.row].error);
        s.maxAbsError = std::max(s.maxAbsError, e);
        abs.push_back(e);
    }
    s.medianAbsError = abs.empty() ? 0.0 : median(abs);
    return s;
}

}  // namespace tandem::mosaic