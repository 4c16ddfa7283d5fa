#include "io/train_log.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "io/text_file.h"
#include "io/train_log_reader.h"

// The public entry points: format detection, the reader run over one log, and the record
// types' defaults. The readers are train_log_<format>.cpp; the statistics train_log_steady.cpp.

namespace tandem::io {

using detail::cleanLine;
using detail::isArgumentsHeader;
using detail::isMegatronIteration;
using detail::isModdedLine;
using detail::isTorchtitanLine;
using detail::kNaN;
using detail::Reader;

TrainStep::TrainStep()
    : iteration_s(kNaN),
      loss(kNaN),
      tflopsPerGpu(kNaN),
      tokensPerSPerGpu(kNaN),
      mfu(kNaN),
      memoryGiB(kNaN) {}

TrainLog::TrainLog()
    : tflopsPerGpu(kNaN),
      tokensPerSPerGpuLogged(kNaN),
      mfu(kNaN),
      tokensPerS(kNaN),
      tokensPerSPerGpu(kNaN),
      peakMemoryBytes(kNaN) {}

const EnumTable<TrainLogFormat>& trainLogFormatNames() {
    static const EnumTable<TrainLogFormat> t = {{TrainLogFormat::Megatron, "megatron"},
                                                {TrainLogFormat::Nemo, "nemo"},
                                                {TrainLogFormat::Torchtitan, "torchtitan"},
                                                {TrainLogFormat::ModdedNanoGpt, "modded-nanogpt"}};
    return t;
}
const char* name(TrainLogFormat f) { return enumName(trainLogFormatNames(), f); }

std::vector<std::string> TrainLogLayout::missingForPrediction() const {
    std::vector<std::string> m;
    auto need = [&](int v, const char* k) {
        if (v <= 0) m.push_back(k);
    };
    need(layers, "num_layers");
    need(hidden, "hidden_size");
    need(heads, "num_attention_heads");
    need(ffnHidden, "ffn_hidden_size");
    need(std::max(vocab, paddedVocab), "vocab_size");
    need(seqLength, "seq_length");
    need(microBatch, "micro_batch_size");
    need(globalBatch, "global_batch_size");
    need(worldSize, "world_size");
    need(tp, "tensor_model_parallel_size");
    need(pp, "pipeline_model_parallel_size");
    if (experts > 0) need(topK, "moe_router_topk");
    return m;
}

std::optional<TrainLogFormat> trainLogFormat(const std::vector<std::string>& lines) {
    for (const auto& raw : lines) {
        const std::string t = trim(cleanLine(raw).text);
        if (t.empty()) continue;
        if ((isMegatronIteration(t) && t.find("elapsed time per iteration") != std::string::npos) ||
            isArgumentsHeader(t))
            return TrainLogFormat::Megatron;
        if (t.find("train_step_timing in s") != std::string::npos ||
            t.find("reduced_train_loss") != std::string::npos)
            return TrainLogFormat::Nemo;
        if (isModdedLine(t)) return TrainLogFormat::ModdedNanoGpt;
        if (isTorchtitanLine(t)) return TrainLogFormat::Torchtitan;
    }
    return std::nullopt;
}

std::optional<TrainLog> parseTrainLog(const std::string& text, Diagnostics& diag) {
    const auto lines = splitLines(text.substr(utf8BomLength(text)));
    const auto format = trainLogFormat(lines);
    if (!format) {
        diag.error("file",
                   "not a training log: no Megatron-LM, NeMo, torchtitan or modded-nanogpt step "
                   "line");
        return std::nullopt;
    }
    Reader r(lines, diag);
    r.log.format = *format;
    switch (*format) {
        case TrainLogFormat::Megatron:
            r.megatron();
            break;
        case TrainLogFormat::Nemo:
            r.nemo();
            break;
        case TrainLogFormat::Torchtitan:
            r.torchtitan();
            break;
        case TrainLogFormat::ModdedNanoGpt:
            r.modded();
            break;
    }
    if (!r.failed) r.layoutFromArguments();
    if (!r.failed) r.finish();
    if (r.failed) return std::nullopt;
    return std::move(r.log);
}

std::optional<TrainLog> loadTrainLogFile(const std::string& path, Diagnostics& diag) {
    std::string text;
    if (!readTextFile(path, text, diag)) return std::nullopt;
    return parseTrainLog(text, diag);
}

}  // namespace tandem::io