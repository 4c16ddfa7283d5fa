#include "io/model_shape.h"

namespace tandem::io {
namespace {

std::string str(long long v) { return std::to_string(v); }

/// The key of a JSON path: "$.text_config.num_attention_heads" -> "num_attention_heads".
std::string key(const ShapeField& f) {
    const auto dot = f.path.find_last_of('.');
    return dot == std::string::npos ? f.path : f.path.substr(dot + 1);
}

/// Where to report a rule about `f`: its own path, else `fallback`'s.
const std::string& where(const ShapeField& f, const ShapeField& fallback) {
    return f.path.empty() ? fallback.path : f.path;
}

/// True when the file gave `f` (a path or a non-zero value).
bool given(const ShapeField& f) { return !f.path.empty() || f.value != 0; }

/// True when `f` was given and lies in [lo, hi]; reports a given field outside the range.
bool inRange(const ShapeField& f, long long lo, long long hi, Diagnostics& diag) {
    if (!given(f)) return false;
    if (f.value >= lo && f.value <= hi) return true;
    diag.error(f.path, "must be in [" + str(lo) + ", " + str(hi) + "] (got " + str(f.value) + ")");
    return false;
}

}  // namespace

bool checkModelShape(const ModelShape& s, Diagnostics& diag) {
    const std::size_t before = diag.items().size();
    const bool layersOk = inRange(s.layers, 1, kMaxLayers, diag);
    const bool hiddenOk = inRange(s.hidden, 1, kMaxHidden, diag);
    const bool headsOk = inRange(s.heads, 1, kMaxHeads, diag);
    const bool kvOk = inRange(s.kvHeads, 1, kMaxHeads, diag);
    inRange(s.vocab, 1, kMaxVocab, diag);
    const bool ffnOk = !given(s.ffnWidth) || inRange(s.ffnWidth, 0, kMaxFfnWidth, diag);
    const bool expertWidthOk =
        !given(s.expertWidth) || inRange(s.expertWidth, 0, kMaxFfnWidth, diag);
    const bool expertsOk = inRange(s.experts, 0, kMaxExperts, diag);

    const long long h = s.heads.value;
    if (headsOk && kvOk) {
        const long long kv = s.kvHeads.value;
        if (kv > h)
            diag.error(s.kvHeads.path,
                       "must be <= " + key(s.heads) + " (" + str(kv) + " > " + str(h) + ")");
        else if (h % kv != 0)
            diag.error(s.kvHeads.path, "must divide " + key(s.heads) + " (" + str(h) +
                                           "): each key/value head serves the same number of query "
                                           "heads (" +
                                           str(h) + " / " + str(kv) + " is not an integer)");
    }
    if (headsOk && hiddenOk && s.headDim.value == 0 && s.hidden.value % h != 0)
        diag.error(s.hidden.path,
                   "must be a multiple of " + key(s.heads) + " (" + str(h) +
                       ") when the per-head width is " + key(s.hidden) + " / " + key(s.heads) +
                       " (" + str(s.hidden.value) + " / " + str(h) + " is not an integer)" +
                       (s.headDim.path.empty() ? std::string() : "; or give " + key(s.headDim)));

    const long long e = s.experts.value, k = s.topK.value;
    if (expertsOk && e > 0) {
        if (k < 1)
            diag.error(where(s.topK, s.experts), "must be >= 1 for an MoE model (" +
                                                     key(s.experts) + " = " + str(e) + "; got " +
                                                     str(k) + ")");
        else if (k > e)
            diag.error(where(s.topK, s.experts), "experts per token (" + str(k) +
                                                     ") exceeds the number of routed experts (" +
                                                     key(s.experts) + " = " + str(e) + ")");
        if (expertWidthOk && s.expertWidth.value < 1)
            diag.error(where(s.expertWidth, s.experts), "is required (> 0) for an MoE model");
    }
    if (layersOk) {
        const long long dense = s.denseLayers.value, moe = s.moeLayers.value, l = s.layers.value;
        if (dense < 0 || dense > l)
            diag.error(where(s.denseLayers, s.layers),
                       dense < 0 ? "must be >= 0 (got " + str(dense) + ")"
                                 : "must be <= " + key(s.layers) + " (" + str(l) + "; got " +
                                       str(dense) + ")");
        else if (dense + moe != l)
            diag.error(where(s.moeLayers, s.layers),
                       "dense blocks (" + str(dense) + ") and MoE blocks (" + str(moe) +
                           ") must add up to " + key(s.layers) + " (" + str(l) + ")");
        if (ffnOk && dense > 0 && s.ffnWidth.value < 1)
            diag.error(where(s.ffnWidth, s.layers),
                       "is required (> 0) when " + str(dense) + " block(s) have a dense FFN");
    }
    return diag.items().size() == before;
}

}  // namespace tandem::io
