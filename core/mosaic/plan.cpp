#include "mosaic/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include "common/json_reader.h"
#include "mosaic/layout_grid.h"
#include "mosaic/report.h"
#include "mosaic/search.h"

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
        if (k > e) diag.error(r.childPath("top_k"), "must be <= experts (" + std::to_string(e) + ")");
        if ((1280LL * q) % sg != 0)
            diag.error(r.childPath("expert_split_factor"), "must divide d_ff = " + std::to_string(1280 * q));
        r.finish();
        if (diag.items().size() != before) return false;
        g = ladderGeometry(q, e, k, sg, v);
        return true;
    }
    g = Geometry{};
    g.layers = int(r.integer("layers", 0, Range::closed(1, 10000)));
    if (!r.has("layers")) diag.error(r.childPath("layers"), "is required (or give a ladder seed \"q\")");
    g.dModel = int(r.integer("hidden", 0, Range::closed(1, 1 << 20)));
    if (!r.has("hidden")) diag.error(r.childPath("hidden"), "is required");
    g.nHead = int(r.integer("heads", 0, Range::closed(1, 1 << 16)));
    if (!r.has("heads")) diag.error(r.childPath("heads"), "is required");
    g.nKvHead = int(r.integer("kv_heads", g.nHead, Range::closed(1, 1 << 16)));
    g.dFf = int(r.integer("ffn_width", 0, Range::closed(0, 1 << 22)));
    g.vocab = int(r.integer("vocab", kGpt2Vocab, Range::closed(1, 1 << 24)));
    g.experts = int(r.integer("experts", 0, Range::closed(0, 65536)));
    g.topK = int(r.integer("top_k", g.experts > 0 ? 1 : 0, Range::closed(0, 65536)));
    g.dExpert = int(r.integer("expert_width", 0, Range::closed(0, 1 << 22)));
    g.sharedExperts = int(r.integer("shared_experts", 0, Range::closed(0, 1024)));
    g.denseLayers = int(r.integer("dense_layers", g.experts > 0 ? 0 : g.layers, Range::closed(0, 10000)));
    if (g.nHead > 0 && g.nKvHead > 0 && g.nHead % g.nKvHead != 0)
        diag.error(r.childPath("kv_heads"), "must divide heads (" + std::to_string(g.nHead) + ")");
    if (g.experts > 0) {
        if (g.topK < 1 || g.topK > g.experts)
            diag.error(r.childPath("top_k"), "must be in [1, experts = " + std::to_string(g.experts) + "]");
        if (g.dExpert < 1) diag.error(r.childPath("expert_width"), "is required (> 0) for an MoE model");
        if (g.denseLayers > g.layers) diag.error(r.childPath("dense_layers"), "must be <= layers");
        if (g.denseLayers > 0 && g.dFf < 1) diag.error(r.childPath("ffn_width"), "is required (> 0) when dense_layers > 0");
        g.splitG = g.dFf > 0 && g.dExpert > 0 ? std::max(1, g.dFf / g.dExpert) : 0;
    } else {
        if (g.dFf < 1) diag.error(r.childPath("ffn_width"), "is required (> 0) for a dense model");
        g.denseLayers = g.layers;
        g.topK = 0;
    }
    r.finish();
    if (diag.items().size() != before) return false;
    countParameters(g);
    return true;
}

bool parseLayout(const std::string& text, Plan& p, std::string& error) {
    std::vector<std::string> parts;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) parts.push_back(item);
    if (parts.size() < 6 || parts.size() > 7) {
        error = "layout must be tp,ep,pp,cp,dp,mbs[,ckpt] (got \"" + text + "\")";
        return false;
    }
    int v[6];
    for (int i = 0; i < 6; ++i) {
        try {
            size_t used = 0;
            v[i] = std::stoi(parts[size_t(i)], &used);
            if (used != parts[size_t(i)].size() || v[i] < 1) throw std::invalid_argument("");
        } catch (...) {
            error = "layout field " + std::to_string(i + 1) + " must be a positive integer (got \"" + parts[size_t(i)] + "\")";
            return false;
        }
    }
    p.tp = v[0]; p.ep = v[1]; p.pp = v[2]; p.cp = v[3]; p.dp = v[4]; p.mbs = v[5];
    p.ckpt = Checkpointing::None;
    if (parts.size() == 7 && !parseCheckpointing(parts[6], p.ckpt)) {
        error = "checkpointing must be none, selective, super-selective or full (got \"" + parts[6] + "\")";
        return false;
    }
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
        // The reason without its per-layout numbers: "EP must divide DP: EP 8 ..." and
        // "does not fit in device memory (95 GB > ...)" are each counted as one kind.
        std::string kind = ev.reason;
        for (const char* cut : {" (", ": "}) {
            const auto at = kind.find(cut);
            if (at != std::string::npos) kind.resize(at);
        }
        ++counts[kind];
        if (ev.memoryGB > 0 && (out.smallestMemoryGB == 0 || ev.memoryGB < out.smallestMemoryGB))
            out.smallestMemoryGB = ev.memoryGB;
    }
    out.byReason.assign(counts.begin(), counts.end());
    std::stable_sort(out.byReason.begin(), out.byReason.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
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

std::string rejectionSummary(const PlanRejections& r) {
    std::string s;
    if (r.tried == 0) return "  the layout grid has no layout for this cluster\n";
    for (const auto& [kind, n] : r.byReason) {
        s += "  " + std::to_string(n) + " of " + std::to_string(r.tried) + " layouts: " + kind;
        if (kind == "does not fit in device memory" && r.smallestMemoryGB > 0)
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

nlohmann::ordered_json planToJson(const Geometry& g, const Cluster& c,
                                  const std::vector<std::pair<Plan, PlanEval>>& layouts) {
    nlohmann::ordered_json j;
    j["model"] = geometryToJson(g);
    nlohmann::ordered_json cl;
    cl["hardware"] = c.hardware.name;
    cl["devices"] = c.devices;
    cl["global_batch_sequences"] = c.globalBatch;
    cl["seq_len_tokens"] = c.seqLen;
    j["cluster"] = cl;
    auto arr = nlohmann::ordered_json::array();
    for (const auto& [p, ev] : layouts) {
        nlohmann::ordered_json l = planToJsonObject(p);
        const auto e = planEvalToJson(ev);
        l["mfu"] = e["mfu"];
        l["iteration_s"] = e["iteration_s"];
        l["memory_GB"] = e["memory_GB"];
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
