#include "mosaic/log_run.h"

#include <algorithm>
#include <cmath>

#include "mosaic/megatron_args.h"

namespace tandem::mosaic {

std::optional<Geometry> trainLogGeometry(const io::TrainLogLayout& L) {
    if (L.layers <= 0 || L.hidden <= 0 || L.heads <= 0 || L.ffnHidden <= 0 ||
        (L.vocab <= 0 && L.paddedVocab <= 0))
        return std::nullopt;
    Geometry g = denseGeometry(
        L.layers, L.hidden, L.heads, L.queryGroups > 0 ? L.queryGroups : L.heads, L.ffnHidden,
        L.paddedVocab > 0
            ? L.paddedVocab
            : int(megatronPaddedVocab(L.vocab, L.vocabDivisor > 0 ? L.vocabDivisor : 128,
                                      std::max(1, L.tp))));
    if (L.kvChannels > 0 && L.kvChannels * L.heads != L.hidden) g.headDim = L.kvChannels;
    if (!L.swiglu) g.denseFfnMatrices = 2;
    if (L.experts > 0) {
        g.experts = L.experts;
        g.topK = L.topK;
        g.dExpert = L.moeFfnHidden > 0 ? L.moeFfnHidden : L.ffnHidden;
        g.splitG = std::max(1, g.dFf / g.dExpert);
    }
    countParameters(g);
    return g;
}

namespace {

/// One integer field: the given value, else the log's; errors name the field when neither
/// states it or when they disagree. 0 when unknown.
int resolve(const char* field, int given, int logged, const char* logName, Diagnostics& diag) {
    if (given > 0 && logged > 0 && given != logged) {
        diag.error(field, std::to_string(given) + " given, but the log states " + logName + " " +
                              std::to_string(logged));
        return 0;
    }
    const int v = given > 0 ? given : logged;
    if (v <= 0) diag.error(field, std::string("the log does not state ") + logName);
    return v;
}

/// The log's stated value of one layout size (1 where older releases have no such option and
/// the block exists); 0 when the log does not state it.
int loggedSize(int v, const io::TrainLogLayout& L, bool defaultsToOne) {
    if (v > 0) return v;
    return defaultsToOne && L.argumentsLine > 0 ? 1 : 0;
}

/// A layout size the user gave against the log's: an error naming the field when they differ.
void checkSize(const char* key, int given, int logged, const char* logName, Diagnostics& diag) {
    if (logged > 0 && given != logged)
        diag.error("layout", std::string(key) + "=" + std::to_string(given) +
                                 " given, but the log states " + logName + " " +
                                 std::to_string(logged));
}

}  // namespace

std::optional<MeasuredRun> logMeasuredRun(const io::TrainLog& log, const LogRunFacts& facts,
                                          const std::string& name, const std::string& system,
                                          Geometry& geometry, Diagnostics& diag) {
    const io::TrainLogLayout& L = log.layout;
    MeasuredRun r;
    r.system = system;
    r.note = name;
    r.model = !facts.modelName.empty() ? facts.modelName : "model stated in the log";
    r.container = "yours";
    r.gpus = resolve("devices", facts.devices, L.worldSize, "world_size", diag);
    r.gbs = resolve("gbs", facts.globalBatch, L.globalBatch, "global_batch_size", diag);
    r.seqLen = resolve("seqlen", facts.seqLen, L.seqLength, "seq_length", diag);

    if (facts.geometry) {
        geometry = *facts.geometry;
    } else if (const auto g = trainLogGeometry(L)) {
        geometry = *g;
    } else {
        diag.error("model",
                   "the log does not state its model (num_layers, hidden_size, "
                   "num_attention_heads, ffn_hidden_size and the vocabulary)");
    }

    if (facts.precision) {
        r.precisionText = precisionName(*facts.precision);
        if (L.precision.rfind("fp8", 0) == 0 && *facts.precision == Precision::Bf16)
            diag.error("precision", "bf16 given, but the log states " + L.precision);
    } else if (L.precision == "bf16") {
        r.precisionText = "bf16";
    } else if (L.precision.rfind("fp8", 0) == 0) {
        r.precisionText = "fp8";
    } else if (L.precision.empty()) {
        diag.error("precision", "the log does not state its precision");
    } else {
        diag.error("precision", "the log's run is " + L.precision +
                                    ", which Tandem does not cost (give bf16 to cost it as bf16)");
    }

    Plan p;
    if (facts.layout) {
        p = *facts.layout;
        checkSize("tp", p.tp, L.tp, "tensor_model_parallel_size", diag);
        checkSize("pp", p.pp, L.pp, "pipeline_model_parallel_size", diag);
        checkSize("cp", p.cp, loggedSize(L.cp, L, true), "context_parallel_size", diag);
        checkSize("ep", p.ep, loggedSize(L.ep, L, true), "expert_model_parallel_size", diag);
        checkSize("mbs", p.mbs, L.microBatch, "micro_batch_size", diag);
    } else if (L.tp > 0 && L.pp > 0 && L.microBatch > 0) {
        p.tp = L.tp;
        p.pp = L.pp;
        p.cp = std::max(1, L.cp);
        p.ep = std::max(1, L.ep);
        p.vp = std::max(1, L.vp);
        p.mbs = L.microBatch;
        p.dp = 0;
    } else {
        diag.error("layout",
                   "the log does not state its layout (tensor_model_parallel_size, "
                   "pipeline_model_parallel_size, micro_batch_size)");
    }

    const double t = log.steady.median_s;
    if (!(t > 0) || !std::isfinite(t))
        diag.error("log", "the log gives no steady iteration time to calibrate to");
    if (!diag.ok()) return std::nullopt;

    const long long inner = 1LL * p.tp * p.cp * p.pp;
    if (p.dp == 0) {
        if (r.gpus % inner != 0) {
            diag.error("layout", "TP x CP x PP = " + std::to_string(inner) +
                                     " does not divide the devices " + std::to_string(r.gpus));
            return std::nullopt;
        }
        p.dp = int(r.gpus / inner);
    } else if (inner * p.dp != r.gpus) {
        diag.error("layout", "TP x CP x PP x DP = " + std::to_string(inner * p.dp) +
                                 " is not the devices " + std::to_string(r.gpus));
        return std::nullopt;
    }
    if (r.gbs < 1LL * p.dp * p.mbs) {
        // Blame what was given: the batch when it was, else the GPUs or layout that set DP.
        const std::string dpmbs =
            "DP x mbs = " + std::to_string(p.dp) + " x " + std::to_string(p.mbs);
        if (facts.globalBatch > 0)
            diag.error("gbs", std::to_string(r.gbs) + " is smaller than " + dpmbs +
                                  ": every data-parallel rank needs a micro-batch");
        else
            diag.error(facts.devices > 0 ? "devices" : "layout",
                       dpmbs + " is more than the global batch of " + std::to_string(r.gbs) +
                           " sequences the log states: every data-parallel rank needs a "
                           "micro-batch");
        return std::nullopt;
    }
    r.tp = p.tp;
    r.pp = p.pp;
    r.cp = p.cp;
    r.vp = p.vp;
    r.ep = p.ep;
    r.mbs = p.mbs;
    r.fsdp = p.fsdp ? 1 : 0;
    r.tokensPerSPerGpu = double(r.gbs) * r.seqLen / (t * r.gpus);
    if (std::isfinite(log.tflopsPerGpu)) r.modelTflopsPerSPerGpu = log.tflopsPerGpu;
    return r;
}

RealityCase logRunCase(const MeasuredRun& run, const Geometry& geometry, const LogRunFacts& facts,
                       const Stack& stack, const Hardware& hardware) {
    RealityCase c = realityCase(run, stack, &hardware, &geometry);
    if (facts.layout) {
        Plan& p = c.plan;
        p.etp = facts.layout->etp;
        p.distributedOptimizer = facts.layout->distributedOptimizer;
        p.sequenceParallel = facts.layout->sequenceParallel;
        p.firstStageLayers = facts.layout->firstStageLayers;
        p.lastStageLayers = facts.layout->lastStageLayers;
    }
    return c;
}

std::string modelFileLabel(const std::string& path) {
    std::string s = path.substr(path.find_last_of("/\\") + 1);
    for (const std::string ext : {".json", ".config"})
        if (s.size() > ext.size() && s.compare(s.size() - ext.size(), ext.size(), ext) == 0)
            s.resize(s.size() - ext.size());
    return s;
}

}  // namespace tandem::mosaic
