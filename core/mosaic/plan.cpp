#include "mosaic/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "io/model_shape.h"
#include "mosaic/layout_grid.h"
#include "mosaic/report.h"
#include "mosaic/search.h"
#include "mosaic/stack_file.h"

namespace tandem::mosaic {

bool readPlanModel(JsonReader& r, Geometry& g) {
    Diagnostics& diag = r.diagnostics();
    const size_t before = diag.items().size();
    if (r.has("q")) {
        const int q = int(r.integer("q", 12, Range::closed(1, 64)));
        const int e = int(r.integer("experts", 96, Range::closed(1, 65536)));
        const int k = int(r.integer("top_k", 2, Range::closed(1, 65536)));
        const int sg = int(r.integer("expert_split_factor", 4, Range::closed(1, 1280)));
        const int v = int(r.integer("vocab", kGpt2Vocab, Range::closed(1, 1 << 24)));
        if (k > e)
            diag.error(r.childPath("top_k"), "must be <= experts (" + std::to_string(e) + ")");
        if ((1280LL * q) % sg != 0)
            diag.error(r.childPath("expert_split_factor"),
                       "must divide d_ff = " + std::to_string(1280 * q));
        r.finish();
        if (diag.items().size() != before) return false;
        g = ladderGeometry(q, e, k, sg, v);
        return true;
    }
    // Wide read ranges (so the values fit `int`); the model limits and consistency rules are
    // io::checkModelShape's, shared with the Hugging Face importer.
    const Range wide = Range::closed(-(1 << 30), 1 << 30);
    io::ModelShape shape;
    // A value the read refuses (not an integer, beyond the wide range) is reported once: its
    // field is left out of checkModelShape's limits.
    auto field = [&](io::ShapeField& f, const char* key, long long def) {
        const size_t issues = diag.items().size();
        f.value = r.integer(key, def, wide);
        f.path = r.childPath(key);
        if (diag.items().size() != issues) f = {};
        return int(f.value);
    };
    g = Geometry{};
    g.layers = field(shape.layers, "layers", 0);
    if (!r.has("layers"))
        diag.error(r.childPath("layers"), "is required (or give a ladder seed \"q\")");
    g.dModel = field(shape.hidden, "hidden", 0);
    if (!r.has("hidden")) diag.error(r.childPath("hidden"), "is required");
    g.nHead = field(shape.heads, "heads", 0);
    if (!r.has("heads")) diag.error(r.childPath("heads"), "is required");
    g.nKvHead = field(shape.kvHeads, "kv_heads", g.nHead);
    g.dFf = field(shape.ffnWidth, "ffn_width", 0);
    g.vocab = field(shape.vocab, "vocab", kGpt2Vocab);
    g.experts = field(shape.experts, "experts", 0);
    g.topK = field(shape.topK, "top_k", g.experts > 0 ? 1 : 0);
    g.dExpert = field(shape.expertWidth, "expert_width", 0);
    g.sharedExperts = int(r.integer("shared_experts", 0, Range::closed(0, 1024)));
    g.denseLayers = field(shape.denseLayers, "dense_layers", g.experts > 0 ? 0 : g.layers);
    if (g.experts <= 0) {
        g.denseLayers = g.layers;
        g.topK = 0;
        shape.denseLayers.value = g.layers;
        shape.topK = {};
    }
    shape.moeLayers = {shape.layers.value - shape.denseLayers.value, r.childPath("dense_layers")};
    for (auto [f, key] :
         {std::pair{&shape.layers, "layers"}, {&shape.hidden, "hidden"}, {&shape.heads, "heads"}})
        if (!r.has(key)) *f = {};  // reported as required above
    io::checkModelShape(shape, diag);
    if (g.experts > 0) g.splitG = g.dFf > 0 && g.dExpert > 0 ? std::max(1, g.dFf / g.dExpert) : 0;
    r.finish();
    if (diag.items().size() != before) return false;
    countParameters(g);
    return true;
}

std::vector<std::pair<Plan, PlanEval>> planLayouts(const Geometry& g, const Cluster& c,
                                                   const LayoutGrid& grid, int top) {
    std::vector<std::pair<Plan, PlanEval>> out;
    for (auto& pe : evaluateSpace(g, c, resolveLayoutSpace(c, grid, LayoutGridRule::Auto)))
        if (pe.second.feasible) out.push_back(std::move(pe));
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.second.mfu > b.second.mfu; });
    if (top > 0 && int(out.size()) > top) out.resize(size_t(top));
    return out;
}

PlanRejections countRejections(const Geometry& g, const Cluster& c, const LayoutGrid& grid) {
    const LayoutSpace space = resolveLayoutSpace(c, grid, LayoutGridRule::Auto);
    PlanRejections out;
    out.capacityGB = c.hardware.memoryBytes / 1e9;
    out.layoutGrid = space.rule;
    std::map<std::string, int> counts;
    bool memoryCut = false;  // a layout was cut by the memory rule (known by the rule's address)
    if (space.roundBatch) {
        // Layouts with more data-parallel ranks x micro-batch than sequences have no batch to
        // round to; evaluateSpace leaves them out, they are counted here.
        const int k = int(space.grid.ckpt.size() * space.grid.ep.size());
        for (int dp : meshDataParallelDegrees(c, space.grid))
            for (int mbs : space.grid.mbs)
                if (roundedGlobalBatch(c.globalBatch, dp, mbs) == 0) {
                    out.tried += k;
                    counts["DP x B_micro exceeds B_global"] += k;
                }
    }
    for (const auto& [p, ev] : evaluateSpace(g, c, space)) {
        ++out.tried;
        if (ev.feasible) {
            ++out.feasible;
            continue;
        }
        // Counted by rule, without the layout's numbers ("EP must divide DP ...: EP 8 ..."
        // and "does not fit in device memory (95 GB > ...)" are each one kind).
        ++counts[ev.rule ? std::string(ev.rule) : ev.reason];
        memoryCut = memoryCut || ev.rule == kDoesNotFitInMemory;
        if (ev.memoryGB > 0 && (out.smallestMemoryGB == 0 || ev.memoryGB < out.smallestMemoryGB))
            out.smallestMemoryGB = ev.memoryGB;
    }
    out.byReason.assign(counts.begin(), counts.end());
    std::stable_sort(out.byReason.begin(), out.byReason.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    const std::string memoryKey = memoryCut ? kDoesNotFitInMemory : "";
    for (size_t i = 0; memoryCut && i < out.byReason.size(); ++i)
        if (out.byReason[i].first == memoryKey) out.memoryReason = static_cast<int>(i);
    return out;
}

int nearestWorkingDevices(const Geometry& g, const Cluster& c, const LayoutGrid& grid) {
    const int gpn = std::max(1, c.hardware.gpusPerNode);
    const int nodes = std::max(1, c.devices / gpn);
    std::vector<int> tries;
    for (int d = 0; d <= kNearestNodesSpan; ++d)
        for (int n : {nodes - d, nodes + d, nodes + d + 1})
            if (n >= 1 && n * gpn != c.devices &&
                std::find(tries.begin(), tries.end(), n * gpn) == tries.end())
                tries.push_back(n * gpn);
    std::stable_sort(tries.begin(), tries.end(), [&](int a, int b) {
        return std::abs(a - c.devices) < std::abs(b - c.devices);
    });
    for (int devices : tries) {
        Cluster t = c;
        t.devices = devices;
        if (!planLayouts(g, t, grid, 1).empty()) return devices;
    }
    return 0;
}

std::string noFeasibleLayoutText(std::string_view reason) {
    std::string s = "No feasible layout on this cluster";
    if (!reason.empty()) s.append(": ").append(reason);
    return s;
}

std::string rejectionSummary(const PlanRejections& r) {
    std::string s;
    if (r.tried == 0) return "  the layout grid has no layout for this cluster\n";
    for (size_t i = 0; i < r.byReason.size(); ++i) {
        const auto& [kind, n] = r.byReason[i];
        s += "  " + std::to_string(n) + " of " + std::to_string(r.tried) + " layouts: " + kind;
        if (static_cast<int>(i) == r.memoryReason && r.smallestMemoryGB > 0)
            s += " (smallest need " + formatNumber(std::round(r.smallestMemoryGB * 10) / 10) +
                 " GB > " + formatNumber(r.capacityGB) + " GB usable)";
        s += "\n";
    }
    return s;
}

PlanEval evaluateLayout(const Geometry& g, const Cluster& c, const Plan& p) {
    const bool round = p.dp > 0 && p.mbs > 0 && c.globalBatch % (p.dp * p.mbs) != 0;
    return PerfModel(g, clusterForPlan(c, p, round)).evaluate(p);
}

const std::vector<Checkpointing>& leastRecomputationOrder() {
    static const std::vector<Checkpointing> order = {Checkpointing::None, Checkpointing::Selective,
                                                     Checkpointing::SuperSelective,
                                                     Checkpointing::Full};
    return order;
}

bool chooseLeastRecomputation(const PerfModel& m, Plan& p) {
    for (Checkpointing ck : leastRecomputationOrder()) {
        Plan t = p;
        t.ckpt = ck;
        if (m.quick(t).feasible) {
            p.ckpt = ck;
            return true;
        }
    }
    p.ckpt = Checkpointing::Full;
    return false;
}

bool chooseLayoutRecomputation(const Geometry& g, const Cluster& c, Plan& p) {
    const bool round = p.dp > 0 && p.mbs > 0 && c.globalBatch % (p.dp * p.mbs) != 0;
    return chooseLeastRecomputation(PerfModel(g, clusterForPlan(c, p, round)), p);
}

std::optional<Plan> memoryRemedy(const Geometry& g, const Cluster& c, const Plan& p) {
    const PlanEval given = evaluateLayout(g, c, p);
    if (given.feasible || given.rule != kDoesNotFitInMemory) return std::nullopt;
    std::vector<Plan> settings = {p};
    if (!p.distributedOptimizer) {
        Plan t = p;
        t.distributedOptimizer = true;
        settings.push_back(t);
    }
    if (!p.fsdp && c.stack.fsdp) {
        Plan t = p;
        t.fsdp = true;
        t.distributedOptimizer = true;
        settings.push_back(t);
    }
    for (const Plan& s : settings)
        for (Checkpointing ck : leastRecomputationOrder()) {
            Plan t = s;
            t.ckpt = ck;
            if (evaluateLayout(g, c, t).feasible) return t;
        }
    return std::nullopt;
}

std::string remedyChange(const Plan& from, const Plan& to) {
    std::string s;
    auto add = [&](const std::string& kv) { s += (s.empty() ? "" : ",") + kv; };
    if (to.fsdp != from.fsdp) add(std::string("fsdp=") + (to.fsdp ? "1" : "0"));
    if (to.distributedOptimizer != from.distributedOptimizer)
        add(std::string("distopt=") + (to.distributedOptimizer ? "1" : "0"));
    if (to.ckpt != from.ckpt) add(std::string("ckpt=") + checkpointingName(to.ckpt));
    return s;
}

std::vector<StageMemory> layoutStageMemory(const Geometry& g, const Cluster& c, const Plan& p) {
    const bool round = p.dp > 0 && p.mbs > 0 && c.globalBatch % (p.dp * p.mbs) != 0;
    const PerfModel model(g, clusterForPlan(c, p, round));
    if (model.structuralError(p)) return {};
    return model.stageMemory(p);
}

nlohmann::ordered_json planToJson(const Geometry& g, const Cluster& c,
                                  const std::vector<std::pair<Plan, PlanEval>>& layouts) {
    nlohmann::ordered_json j;
    j["model"] = geometryToJson(g);
    nlohmann::ordered_json cl;
    cl["hardware"] = c.hardware.name;
    cl["devices"] = c.devices;
    cl["global_batch_sequences"] = c.globalBatch;
    cl["seq_len_tokens"] = c.seqLen;
    cl["stack"] = c.stack.name;
    if (c.stack.calibration.runs > 0)
        cl["stack_calibration"] = calibrationSentence(c.stack.calibration);
    cl["precision"] = precisionName(c.precision);
    j["conventions"] = conventionsJson();
    j["cluster"] = cl;
    auto arr = nlohmann::ordered_json::array();
    for (const auto& [p, ev] : layouts) {
        nlohmann::ordered_json l = planToJsonObject(p);
        const auto e = planEvalToJson(ev);
        l["mfu"] = e["mfu"];
        l["iteration_s"] = e["iteration_s"];
        l["memory_GB"] = e["memory_GB"];
        l["tokens_per_s_per_gpu"] = e["tokens_per_s_per_gpu"];
        l["model_tflops_per_s_per_gpu"] = e["model_tflops_per_s_per_gpu"];
        l["memory_breakdown_GB"] = e["memory_breakdown_GB"];
        l["breakdown_s"] = e["breakdown_s"];
        l["chi_sys"] = e["chi_sys"];
        l["global_batch_sequences"] = planGlobalBatch(p, ev);
        l["feasible"] = ev.feasible;
        l["reason"] = ev.reason;
        arr.push_back(l);
    }
    j["layouts"] = arr;
    return j;
}

}  // namespace tandem::mosaic
