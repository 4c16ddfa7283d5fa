#include <algorithm>
#include <cmath>

#include "common/csv.h"
#include "common/number_format.h"
#include "mosaic/geometry.h"
#include "mosaic/reality.h"

// The shipped measured runs: the Megatron-Bridge CSV parsed into MeasuredRun rows, the
// geometry of each measured model the cost model expresses (and why the others are not), and
// the model families the leave-out validation groups them by.

namespace tandem::mosaic {

extern const char* const kMegatronBridgeCsv;  // measured_runs_data.cpp (generated)

namespace {

/// "n/a" and "" -> absent; "597[^note]" -> 597 with "note" into `footnote`. False when the
/// text is not a number.
bool number(std::string text, double& v, bool& present, std::string& footnote) {
    const auto mark = text.find("[^");
    if (mark != std::string::npos) {
        const auto end = text.find(']', mark);
        footnote =
            text.substr(mark + 2, end == std::string::npos ? std::string::npos : end - mark - 2);
        text.resize(mark);
    }
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

}  // namespace

std::vector<MeasuredRun> parseMeasuredRuns(const std::string& csv, Diagnostics& diag) {
    std::vector<MeasuredRun> out;
    readCsvTable(
        csv, std::vector<std::string>(std::begin(kColumns), std::end(kColumns)), diag,
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
                if (!number(f[col], v, present, r.footnote) || v != std::floor(v) || v > 1e9) {
                    diag.error(where + ", " + kColumns[col],
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
                if (!number(f[col], v, present, r.footnote) || !present || v <= 0) {
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

std::string measuredRunFlaggedBySource(const MeasuredRun& r) {
    // The footnotes of docs/performance-summary-archive.md (Megatron-Bridge, commit 4ab94dfa)
    // that disown a row's measurement.
    struct Flag {
        const char* footnote;
        const char* reason;
    };
    static const Flag kFlags[] = {
        {"gpt-oss-note",
         "the source marks this run as a known performance regression of its container (the "
         "fused grouped MLP's backward kernel, cudnn-frontend issue 256), resolved in the next "
         "one: a software defect, not the stack the model costs"}};
    for (const Flag& f : kFlags)
        if (r.footnote == f.footnote) return f.reason;
    return {};
}

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

}  // namespace tandem::mosaic
