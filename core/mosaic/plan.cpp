#include "mosaic/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "io/model_shape.h"
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
    auto field = [&](io::ShapeField& f, const char* key, long long def) {
        f.value = r.integer(key, def, wide);
        f.path = r.childPath(key);
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

std::string layoutString(const Plan& p) {
    std::string s = "tp=" + std::to_string(p.tp) + ",pp=" + std::to_string(p.pp) +
                    ",cp=" + std::to_string(p.cp) + ",ep=" + std::to_string(p.ep) +
                    ",dp=" + std::to_string(p.dp) + ",mbs=" + std::to_string(p.mbs) +
                    ",ckpt=" + checkpointingName(p.ckpt);
    const Plan def;
    if (p.vp != def.vp) s += ",vp=" + std::to_string(p.vp);
    if (p.etp != def.etp) s += ",etp=" + std::to_string(p.etp);
    if (p.fsdp != def.fsdp) s += ",fsdp=" + std::to_string(int(p.fsdp));
    if (p.distributedOptimizer != def.distributedOptimizer)
        s += ",distopt=" + std::to_string(int(p.distributedOptimizer));
    if (p.sequenceParallel != def.sequenceParallel)
        s += ",sp=" + std::to_string(int(p.sequenceParallel));
    if (p.firstStageLayers != 0) s += ",pp_first=" + std::to_string(p.firstStageLayers);
    if (p.lastStageLayers != 0) s += ",pp_last=" + std::to_string(p.lastStageLayers);
    return s;
}

namespace {

/// The named form "tp=2,pp=8,vp=4,cp=1,ep=64,etp=1,mbs=1,fsdp=0,sp=1,ckpt=selective" (dp
/// optional).
bool parseNamedLayout(const std::vector<std::string>& parts, Plan& p, std::string& error) {
    p = Plan{};
    p.dp = 0;
    std::vector<std::string> seen;
    for (const std::string& part : parts) {
        const auto eq = part.find('=');
        const std::string key = part.substr(0, eq),
                          value = eq == std::string::npos ? "" : part.substr(eq + 1);
        if (eq == std::string::npos || key.empty()) {
            error = "layout entry \"" + part + "\" must be key=value";
            return false;
        }
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
            error = "layout key \"" + key + "\" given twice";
            return false;
        }
        seen.push_back(key);
        if (key == "ckpt") {
            if (!parseCheckpointing(value, p.ckpt)) {
                error = "ckpt must be none, core-attn, selective, super-selective or full (got \"" +
                        value + "\")";
                return false;
            }
            continue;
        }
        int v = 0;
        try {
            size_t used = 0;
            v = std::stoi(value, &used);
            if (used != value.size()) throw std::invalid_argument("");
        } catch (...) {
            error = "layout key " + key + " must be an integer (got \"" + value + "\")";
            return false;
        }
        const bool flag = key == "fsdp" || key == "distopt" || key == "sp";
        const bool count = key == "pp_first" || key == "pp_last";  // 0 = even split
        if (flag ? (v != 0 && v != 1) : v < (count ? 0 : 1)) {
            error = "layout key " + key +
                    (flag    ? " must be 0 or 1"
                     : count ? " must be >= 0"
                             : " must be >= 1") +
                    " (got " + value + ")";
            return false;
        }
        if (key == "tp")
            p.tp = v;
        else if (key == "pp")
            p.pp = v;
        else if (key == "vp")
            p.vp = v;
        else if (key == "cp")
            p.cp = v;
        else if (key == "ep")
            p.ep = v;
        else if (key == "etp")
            p.etp = v;
        else if (key == "dp")
            p.dp = v;
        else if (key == "mbs")
            p.mbs = v;
        else if (key == "fsdp")
            p.fsdp = v == 1;
        else if (key == "distopt")
            p.distributedOptimizer = v == 1;
        else if (key == "sp")
            p.sequenceParallel = v == 1;
        else if (key == "pp_first")
            p.firstStageLayers = v;
        else if (key == "pp_last")
            p.lastStageLayers = v;
        else {
            error = "unknown layout key \"" + key +
                    "\" (known: tp, pp, vp, cp, ep, etp, dp, mbs, fsdp, distopt, sp, pp_first, "
                    "pp_last, ckpt)";
            return false;
        }
    }
    return true;
}

}  // namespace

bool parseLayout(const std::string& text, Plan& p, std::string& error) {
    std::vector<std::string> parts;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) parts.push_back(item);
    if (text.find('=') != std::string::npos) return parseNamedLayout(parts, p, error);
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
            error = "layout field " + std::to_string(i + 1) +
                    " must be a positive integer (got \"" + parts[size_t(i)] + "\")";
            return false;
        }
    }
    p.tp = v[0];
    p.ep = v[1];
    p.pp = v[2];
    p.cp = v[3];
    p.dp = v[4];
    p.mbs = v[5];
    p.ckpt = Checkpointing::None;
    if (parts.size() == 7 && !parseCheckpointing(parts[6], p.ckpt)) {
        error =
            "checkpointing must be none, core-attn, selective, super-selective or full (got \"" +
            parts[6] + "\")";
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

std::string megatronArguments(const Geometry& g, const Cluster& c, const Plan& p) {
    std::string a = "--tensor-model-parallel-size " + std::to_string(p.tp) +
                    " --pipeline-model-parallel-size " + std::to_string(p.pp);
    if (p.vp > 1) {
        const int perChunk = std::max(1, g.layers / (p.pp * p.vp));
        a += " --num-layers-per-virtual-pipeline-stage " + std::to_string(perChunk);
    }
    if (p.firstStageLayers > 0)
        a += " --decoder-first-pipeline-num-layers " + std::to_string(p.firstStageLayers);
    if (p.lastStageLayers > 0)
        a += " --decoder-last-pipeline-num-layers " + std::to_string(p.lastStageLayers);
    a += " --context-parallel-size " + std::to_string(p.cp);
    if (g.experts > 0)
        a += " --expert-model-parallel-size " + std::to_string(p.ep) +
             " --expert-tensor-parallel-size " + std::to_string(p.etp);
    a += " --micro-batch-size " + std::to_string(p.mbs) + " --global-batch-size " +
         std::to_string(c.globalBatch) + " --seq-length " + std::to_string(c.seqLen);
    if (p.tp > 1 && p.sequenceParallel) a += " --sequence-parallel";
    if (p.fsdp)
        a += " --use-megatron-fsdp --data-parallel-sharding-strategy optim_grads_params";
    else if (p.distributedOptimizer)
        a += " --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather";
    switch (p.ckpt) {
        case Checkpointing::None:
            break;
        case Checkpointing::CoreAttention:
            a += " --recompute-granularity selective --recompute-modules core_attn";
            break;
        case Checkpointing::Selective:
            // The norms and the MLP / expert activation function recomputed with the core.
            a += " --recompute-granularity selective --recompute-modules core_attn layernorm";
            if (g.experts > 0) a += " moe_act";
            break;
        case Checkpointing::SuperSelective:
            a += " --recompute-granularity selective --recompute-modules core_attn mlp";
            break;
        case Checkpointing::Full:
            a +=
                " --recompute-granularity full --recompute-method uniform --recompute-num-layers 1";
            break;
    }
    a += " --bf16";
    switch (c.precision) {
        case Precision::Bf16:
            break;
        case Precision::Fp8:
            a += " --fp8-format hybrid --fp8-recipe tensorwise";
            break;
        case Precision::Mxfp8:
            a += " --fp8-format e4m3 --fp8-recipe mxfp8";
            break;
        case Precision::Nvfp4:
            a += " --fp4-format e2m1 --fp4-recipe nvfp4";
            break;
    }
    return a;
}

bool parseMegatronArguments(const std::string& text, int layers, Cluster& c, Plan& p,
                            std::string& error) {
    std::vector<std::string> words;
    {
        std::stringstream ss(text);
        std::string w;
        while (ss >> w) {
            const auto eq = w.find('=');  // --flag=value
            if (w.rfind("--", 0) == 0 && eq != std::string::npos) {
                words.push_back(w.substr(0, eq));
                words.push_back(w.substr(eq + 1));
            } else {
                words.push_back(w);
            }
        }
    }
    p = Plan{};
    p.distributedOptimizer = false;
    c.precision = Precision::Bf16;
    int layersPerChunk = 0;
    bool fp8 = false, mx = false, fp4 = false, sequenceParallel = false;
    std::string granularity;
    std::vector<std::string> modules;
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string& f = words[i];
        auto value = [&](int& out) {
            if (i + 1 >= words.size()) {
                error = f + " needs a value";
                return false;
            }
            const std::string& v = words[++i];
            try {
                size_t used = 0;
                out = std::stoi(v, &used);
                if (used != v.size() || out < 1) throw std::invalid_argument("");
            } catch (...) {
                error = f + " must be a positive integer (got \"" + v + "\")";
                return false;
            }
            return true;
        };
        bool ok = true;
        if (f == "--tensor-model-parallel-size")
            ok = value(p.tp);
        else if (f == "--pipeline-model-parallel-size")
            ok = value(p.pp);
        else if (f == "--context-parallel-size")
            ok = value(p.cp);
        else if (f == "--expert-model-parallel-size")
            ok = value(p.ep);
        else if (f == "--expert-tensor-parallel-size")
            ok = value(p.etp);
        else if (f == "--virtual-pipeline-model-parallel-size")
            ok = value(p.vp);
        else if (f == "--num-layers-per-virtual-pipeline-stage")
            ok = value(layersPerChunk);
        else if (f == "--decoder-first-pipeline-num-layers")
            ok = value(p.firstStageLayers);
        else if (f == "--decoder-last-pipeline-num-layers")
            ok = value(p.lastStageLayers);
        else if (f == "--micro-batch-size")
            ok = value(p.mbs);
        else if (f == "--global-batch-size")
            ok = value(c.globalBatch);
        else if (f == "--seq-length")
            ok = value(c.seqLen);
        else if (f == "--use-megatron-fsdp" || f == "--use-torch-fsdp2")
            p.fsdp = true;
        else if (f == "--use-distributed-optimizer")
            p.distributedOptimizer = true;
        else if (f == "--recompute-granularity" && i + 1 < words.size())
            granularity = words[++i];
        else if (f == "--recompute-modules") {
            while (i + 1 < words.size() && words[i + 1].rfind("--", 0) != 0)
                modules.push_back(words[++i]);
        } else if (f == "--sequence-parallel")
            sequenceParallel = true;
        else if (f == "--fp8-format")
            fp8 = true;
        else if (f == "--fp8-recipe" && i + 1 < words.size())
            mx = words[++i] == "mxfp8";
        else if (f == "--fp4-format" || f == "--fp4")
            fp4 = true;
        if (!ok) return false;
    }
    if (p.fsdp) p.distributedOptimizer = true;
    p.sequenceParallel = sequenceParallel;
    if (granularity == "full") {
        p.ckpt = Checkpointing::Full;
    } else if (granularity == "selective") {
        // Megatron's default module list is core_attn alone; mlp / moe recompute the whole MLP,
        // layernorm / moe_act the norms and the activation function.
        auto has = [&](const char* m) {
            return std::find(modules.begin(), modules.end(), m) != modules.end();
        };
        p.ckpt = has("mlp") || has("moe") ? Checkpointing::SuperSelective
                 : has("layernorm") || has("moe_act") || has("mlp_act")
                     ? Checkpointing::Selective
                     : Checkpointing::CoreAttention;
    }
    if (layersPerChunk > 0) p.vp = std::max(1, layers / (p.pp * layersPerChunk));
    c.precision = fp4   ? Precision::Nvfp4
                  : fp8 ? (mx ? Precision::Mxfp8 : Precision::Fp8)
                        : Precision::Bf16;
    const long long inner = 1LL * p.tp * p.cp * p.pp;
    if (c.devices % inner != 0) {
        error = "TP x CP x PP = " + std::to_string(inner) + " does not divide the device count " +
                std::to_string(c.devices);
        return false;
    }
    p.dp = int(c.devices / inner);
    return true;
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
    cl["stack"] = c.stack.name;
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
