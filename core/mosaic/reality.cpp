#include "mosaic/reality.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "common/csv.h"
#include "common/number_format.h"
#include "common/statistics.h"
#include "mosaic/geometry.h"
#include "mosaic/hardware.h"
#include "mosaic/korthikanti.h"
#include "mosaic/plan.h"
#include "mosaic/report.h"

namespace tandem::mosaic {

extern const char* const kMegatronBridgeCsv;  // measured_runs_data.cpp (generated)

namespace {

/// "n/a" and "" -> absent; "597[^note]" -> 597. False when the text is not a number.
bool number(std::string text, double& v, bool& present) {
    const auto mark = text.find("[^");
    if (mark != std::string::npos) text.resize(mark);
    present = !(text.empty() || text == "n/a");
    if (!present) {
        v = 0;
        return true;
    }
    const std::optional<double> parsed = parseNumber(text);
    v = parsed.value_or(0);
    return parsed && v >= 0;
}

const char* const kColumns[] = {"container",
                                "system",
                                "model",
                                "gpus",
                                "precision",
                                "gbs",
                                "mbs",
                                "seq_len",
                                "fsdp",
                                "tp",
                                "pp",
                                "cp",
                                "vp",
                                "ep",
                                "ga",
                                "tokens_per_s_per_gpu",
                                "model_tflops_per_s_per_gpu",
                                "note"};

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

/// A published MoE model: denseGeometry's attention and dense blocks (the first
/// `denseLayers`), then `experts` routed experts of width `dExpert`, `topK` per token, and
/// `shared` shared experts; `headDim` 0 = d / heads.
Geometry moe(int layers, int d, int heads, int kv, int headDim, int ffn, int experts, int topK,
             int dExpert, int shared, int denseLayers, int vocab) {
    Geometry g = denseGeometry(layers, d, heads, kv, ffn, vocab);
    g.headDim = headDim;
    g.experts = experts;
    g.topK = topK;
    g.dExpert = dExpert;
    g.splitG = std::max(1, ffn / dExpert);
    g.sharedExperts = shared;
    g.denseLayers = denseLayers;
    countParameters(g);
    return g;
}

/// tandem::median, 0 for no values (an empty filter's summary reads 0, not NaN).
double median(const std::vector<double>& v) { return v.empty() ? 0.0 : tandem::median(v); }

}  // namespace

std::vector<MeasuredRun> parseMeasuredRuns(const std::string& csv, Diagnostics& diag) {
    std::vector<MeasuredRun> out;
    readCsvTable(csv, std::vector<std::string>(std::begin(kColumns), std::end(kColumns)), diag,
                 [&](const std::vector<std::string>& f, const std::string& where, int lineNo) {
                     MeasuredRun r;
                     r.line = lineNo;
                     r.container = f[0];
                     r.system = f[1];
                     r.model = f[2];
                     r.precisionText = f[4];
                     r.note = f[17];
                     bool ok = true;
                     auto integer = [&](size_t col, int& dst, bool required) {
                         double v = 0;
                         bool present = false;
                         if (!number(f[col], v, present) || v != std::floor(v) || v > 1e9) {
                             diag.error(
                                 where + ", " + kColumns[col],
                                 "must be a non-negative integer or n/a (got \"" + f[col] + "\")");
                             ok = false;
                         } else if (required && (!present || v < 1)) {
                             diag.error(where + ", " + kColumns[col], "is required (>= 1)");
                             ok = false;
                         }
                         dst = present ? int(v) : (col == 8 ? -1 : 0);
                     };
                     integer(3, r.gpus, true);
                     integer(5, r.gbs, true);
                     integer(6, r.mbs, true);
                     integer(7, r.seqLen, true);
                     integer(8, r.fsdp, false);
                     integer(9, r.tp, true);
                     integer(10, r.pp, true);
                     integer(11, r.cp, true);
                     integer(12, r.vp, false);
                     integer(13, r.ep, false);
                     integer(14, r.ga, false);
                     for (size_t col : {size_t(15), size_t(16)}) {
                         double v = 0;
                         bool present = false;
                         if (!number(f[col], v, present) || !present || v <= 0) {
                             diag.error(where + ", " + kColumns[col],
                                        "must be a positive number (got \"" + f[col] + "\")");
                             ok = false;
                         }
                         (col == 15 ? r.tokensPerSPerGpu : r.modelTflopsPerSPerGpu) = v;
                     }
                     Precision p;
                     if (!parsePrecision(r.precisionText, p)) {
                         diag.error(where + ", precision",
                                    "must be BF16, FP8, FP8-CS, FP8-MX, MXFP8 or NVFP4 (got \"" +
                                        r.precisionText + "\")");
                         ok = false;
                     }
                     if (ok) out.push_back(std::move(r));
                 });
    return out;
}

const std::vector<MeasuredRun>& shippedMeasuredRuns() {
    static const std::vector<MeasuredRun> runs = [] {
        Diagnostics d("measured-throughput.csv");
        auto r = parseMeasuredRuns(kMegatronBridgeCsv, d);
        return r;
    }();
    return runs;
}

namespace {

/// A model name of the measured runs and its geometry.
struct ModelGeometry {
    const char* model;
    Geometry geometry;
};

/// Every model the cost model expresses. Widths from the Hugging Face configs
/// (tests/data/models/, PROVENANCE.md) and, for Llama 3, arXiv:2407.21783 Table 3.
const std::vector<ModelGeometry>& modelGeometries() {
    static const std::vector<ModelGeometry> t = {
        {"LLAMA3_8B", denseGeometry(32, 4096, 32, 8, 14336, 128256)},
        {"LLAMA3_70B", denseGeometry(80, 8192, 64, 8, 28672, 128256)},
        {"LLAMA3.1_405B", denseGeometry(126, 16384, 128, 8, 53248, 128256)},
        // DeepSeek-V3: multi-head latent attention costed as standard attention with 128 KV
        // heads (4 d^2 = 205 M parameters per layer against MLA's 187 M); the
        // multi-token-prediction module (num_nextn_predict_layers 1) as one more MoE layer.
        {"DeepSeekV3", moe(62, 7168, 128, 128, 0, 18432, 256, 8, 2048, 1, 3, 129280)},
        {"DeepSeekV3 (w/o MTP)", moe(61, 7168, 128, 128, 0, 18432, 256, 8, 2048, 1, 3, 129280)},
        {"Qwen3_30B_a3B", moe(48, 2048, 32, 4, 128, 6144, 128, 8, 768, 0, 0, 151936)},
        {"Qwen3_235B_a22B", moe(94, 4096, 64, 4, 128, 12288, 128, 8, 1536, 0, 0, 151936)},
        // gpt-oss-120b: attention sinks, biases and the 128-token sliding window of every other
        // layer are not costed (attention is < 1 % of the FLOPs at 4096 tokens).
        {"GPT OSS 120B", moe(36, 2880, 64, 8, 64, 2880, 128, 4, 2880, 0, 0, 201088)},
    };
    return t;
}

/// Model families the cost model cannot express, by name prefix, and why.
struct Inexpressible {
    const char* prefix;
    const char* reason;
};
constexpr Inexpressible kInexpressible[] = {
    {"Nemotron",
     "hybrid Mamba-Transformer (Mamba-2 layers): not a transformer the cost model expresses"},
    {"DeepSeekV4",
     "DeepSeek-V4: no published config, and its compressed sparse attention is not in the "
     "geometry"},
};

}  // namespace

bool measuredModelGeometry(const std::string& model, Geometry& g, std::string& reason) {
    for (const auto& m : modelGeometries())
        if (model == m.model) {
            g = m.geometry;
            return true;
        }
    for (const auto& x : kInexpressible)
        if (model.rfind(x.prefix, 0) == 0) {
            reason = x.reason;
            return false;
        }
    reason = "unknown model \"" + model + "\"";
    return false;
}

RealityCase realityCase(const MeasuredRun& r, const Stack& stack, const Hardware* hardware,
                        const Geometry* geometry) {
    RealityCase c;
    c.run = r;
    const std::string hw = hardware ? hardware->name : hardwareOfSystem(r.system);
    if (hw.empty()) {
        c.reason = "unknown system \"" + r.system + "\"";
    } else if (geometry || measuredModelGeometry(r.model, c.geometry, c.reason)) {
        if (geometry) c.geometry = *geometry;
        c.expressible = true;
        c.cluster.hardware = hardware ? *hardware : builtinHardware(hw);
        c.cluster.devices = r.gpus;
        c.cluster.globalBatch = r.gbs;
        c.cluster.seqLen = r.seqLen;
        c.cluster.stack = stack;
        parsePrecision(r.precisionText, c.cluster.precision);
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

std::vector<RealityCase> realityCases(const Stack& stack) {
    std::vector<RealityCase> out;
    for (const MeasuredRun& r : shippedMeasuredRuns()) out.push_back(realityCase(r, stack));
    return out;
}

void choosePlans(std::vector<RealityCase>& cases) {
    for (RealityCase& c : cases) {
        if (!c.expressible) continue;
        chooseLeastRecomputation(PerfModel(c.geometry, c.cluster), c.plan);
    }
}

namespace {
/// Case `index` of `cases` (expressible) costed under its cluster's stack.
RealityRow costCase(const RealityCase& c, size_t index) {
    RealityRow row;
    row.caseIndex = index;
    row.eval = PerfModel(c.geometry, c.cluster).evaluate(c.plan);
    row.error = row.eval.feasible ? row.eval.tokensPerSPerGpu / c.run.tokensPerSPerGpu - 1.0 : -1.0;
    return row;
}
}  // namespace

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
        if (std::abs(r.error) <= 0.25) ++s.within25;
        abs.push_back(std::abs(r.error));
    }
    s.medianAbsError = median(abs);
    s.shareWithin25 = s.rows > 0 ? double(s.within25) / s.rows : 0.0;
    return s;
}

double fitObjective(const Stack& stack, std::vector<RealityCase>& cases) {
    double sum = 0;
    for (RealityCase& c : cases) {
        if (!c.expressible) continue;
        c.cluster.stack = stack;
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
        return fitObjective(s, cases);
    };
    // A constant no fitted case depends on (the MXFP8 and NVFP4 factors with the GB200 runs,
    // the only ones at those precisions, left out) keeps its start value: Nelder-Mead would
    // move it along the flat direction, and the left-out runs would be predicted with whatever
    // value the simplex left there.
    const std::vector<StackFitParameter> identified = parametersDependedOn(start, objective);
    StackFit fit = minimizeStack(start, identified, objective, maxEvaluations);
    fit.values.clear();
    for (const StackFitParameter& p : stackFitParameters()) fit.values.push_back(p.ref(fit.stack));
    return fit;
}

std::string measuredModelFamily(const std::string& model) {
    struct Family {
        const char* prefix;
        const char* family;
    };
    static const Family families[] = {{"LLAMA3", "Llama 3"},
                                      {"DeepSeekV3", "DeepSeek-V3"},
                                      {"Qwen3", "Qwen3"},
                                      {"GPT OSS", "gpt-oss"}};
    for (const Family& f : families)
        if (model.rfind(f.prefix, 0) == 0) return f.family;
    return model;
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
                    c.cluster.stack = fit.stack;
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
    r.report.checks.push_back(makeCheck("reality.median_abs_error",
                                        "median |predicted / measured - 1|", 0.15,
                                        r.summary.medianAbsError, 0.0, 0.15));
    r.report.checks.push_back(makeCheck("reality.share_within_25pct", "share of runs within +-25 %",
                                        0.85, r.summary.shareWithin25, 0.85, 1.0));
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

bool realityRowMatches(const RealityReport& r, const RealityRow& row, const RealityFilter& f) {
    const MeasuredRun& run = r.cases[row.caseIndex].run;
    return (f.system.empty() || f.system == run.system) &&
           (f.model.empty() || f.model == run.model) &&
           (f.precision.empty() || f.precision == rowPrecision(r, row)) &&
           (f.stack.empty() || f.stack == run.container);
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
