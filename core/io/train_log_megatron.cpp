// The Megatron-LM / Megatron-Core log reader: the arguments block, iteration lines, memory and
// validation reports, and the layout the arguments give.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "common/number_format.h"
#include "io/text_file.h"
#include "io/train_log_reader.h"

namespace tandem::io::detail {

void Reader::megatronArguments(std::size_t& i) {
    const std::size_t header = i + 1;
    log.layout.argumentsLine = header;
    for (++i; i < lines.size(); ++i) {
        const std::string t = trim(cleanLine(lines[i]).text);
        if (t.find("end of arguments") != std::string::npos) return;
        // `  name ........ value`: the name, a run of dots, the value.
        const auto dots = t.find(" ..");
        if (dots == std::string::npos) continue;  // another rank's print between the lines
        const std::string key = trim(t.substr(0, dots));
        std::size_t v = dots + 1;
        while (v < t.size() && t[v] == '.') ++v;
        log.layout.arguments[key] = trim(t.substr(v));
    }
    fail(header,
         "the arguments block opened here has no end line ('---- end of arguments ----'): "
         "the log is truncated");
}

void Reader::megatronIteration(std::size_t ln, const std::string& text) {
    const std::string a = afterTimestamp(text);
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (;;) {
        const auto bar = a.find('|', start);
        if (bar == std::string::npos) {
            fields.push_back(a.substr(start));
            break;
        }
        fields.push_back(a.substr(start, bar - start));
        start = bar + 1;
    }
    if (!trim(fields.back()).empty() || fields.size() < 2) {
        fail(ln, "truncated iteration line: it ends inside " + inQuotes(trim(fields.back())) +
                     " (Megatron-LM closes every field with ' |')");
        return;
    }
    fields.pop_back();
    TrainStep s;
    s.line = ln;
    if (!stepOf(ln, trim(fields[0]).substr(9), s.step, s.totalSteps)) return;
    bool timed = false;
    for (std::size_t f = 1; f < fields.size(); ++f) {
        const std::string field = trim(fields[f]);
        const auto colon = field.rfind(':');
        if (colon == std::string::npos) {
            fail(ln, "garbled field " + inQuotes(field) + ": expected 'name: value'");
            return;
        }
        const std::string key = trim(field.substr(0, colon));
        const std::string value = trim(field.substr(colon + 1));
        double v = 0;
        if (key == "elapsed time per iteration (ms)") {
            if (!number(ln, key, value, v)) return;
            if (!(v > 0)) {
                fail(ln, inQuotes(key) + " must be a positive time, not " + inQuotes(value));
                return;
            }
            s.iteration_s = v / 1000.0;
            timed = true;
        } else if (key == "throughput per GPU (TFLOP/s/GPU)") {
            if (!number(ln, key, value, v)) return;
            s.tflopsPerGpu = v;
        } else if (key == "lm loss") {
            if (!number(ln, key, value, v)) return;
            s.loss = v;
            s.lossLogged = true;
        } else if (key == "global batch size") {
            if (!number(ln, key, value, v)) return;
            s.globalBatch = static_cast<long long>(v);
        } else if (key == "number of skipped iterations") {
            if (!number(ln, key, value, v)) return;
            s.skipped = static_cast<long long>(v);
        } else if (key == "number of nan iterations") {
            if (!number(ln, key, value, v)) return;
            s.nanIterations = static_cast<long long>(v);
        } else if (value.empty()) {
            fail(ln, "field " + inQuotes(key) + " has no value (a truncated or garbled line)");
            return;
        }
    }
    if (!timed) {
        fail(ln,
             "iteration line without 'elapsed time per iteration (ms)': not a "
             "Megatron-LM training record (a truncated or garbled line)");
        return;
    }
    add(s);
}

void Reader::megatronMemory(std::size_t ln, const std::string& t) {
    const auto k = t.find("max allocated:");
    if (k == std::string::npos) return;
    const auto end = t.find('|', k);
    const std::string value =
        trim(t.substr(k + 14, end == std::string::npos ? std::string::npos : end - k - 14));
    double mb = 0;
    if (!number(ln, "max allocated", value, mb)) return;
    const double bytes = mb * 1024.0 * 1024.0;  // Megatron's MB: 2^20 bytes
    if (!std::isfinite(log.peakMemoryBytes) || bytes > log.peakMemoryBytes) {
        log.peakMemoryBytes = bytes;
        log.memoryLine = ln;
    }
}

void Reader::megatronValidation(std::size_t ln, const std::string& t) {
    // ` validation loss at iteration 1000 | lm loss value: 6.439325E+00 | lm loss PPL: ...`
    const std::string head = "validation loss at iteration";
    const auto bar = t.find('|');
    long long step = 0;
    if (bar == std::string::npos ||
        !parseInteger(trim(t.substr(head.size(), bar - head.size())), step))
        return;  // "validation loss at the end of training": no iteration
    const auto k = t.find("lm loss value:");
    if (k == std::string::npos) return;
    const auto end = t.find('|', k);
    double v = 0;
    if (!number(ln, "lm loss value",
                t.substr(k + 14, end == std::string::npos ? std::string::npos : end - k - 14), v))
        return;
    addVal(ln, step, v);
}

void Reader::megatron() {
    for (std::size_t i = 0; i < lines.size() && !failed; ++i) {
        const CleanLine c = cleanLine(lines[i]);
        const std::string t = trim(c.text);
        const std::size_t ln = i + 1;
        if (isArgumentsHeader(t)) {
            megatronArguments(i);
        } else if (isMegatronIteration(t)) {
            if (samePrefix(ln, c.prefix)) megatronIteration(ln, t);
        } else if (t.find("memory (MB)") != std::string::npos) {
            megatronMemory(ln, t);
        } else if (startsWith(t, "validation loss at iteration")) {
            megatronValidation(ln, t);
        } else if (startsWith(t, "> padded vocab (size:")) {
            // `> padded vocab (size: 50257) with 47 dummy tokens (new size: 50304)`
            long long v = 0, nv = 0;
            const auto a = t.find(':'), b = t.find(')');
            const auto c2 = t.find("new size:");
            if (a != std::string::npos && b != std::string::npos && b > a &&
                parseInteger(trim(t.substr(a + 1, b - a - 1)), v))
                log.layout.vocab = int(v);
            if (c2 != std::string::npos) {
                const auto e = t.find(')', c2);
                if (e != std::string::npos && parseInteger(trim(t.substr(c2 + 9, e - c2 - 9)), nv))
                    log.layout.paddedVocab = int(nv);
            }
        }
    }
}

void Reader::layoutFromArguments() {
    auto& L = log.layout;
    const auto& a = L.arguments;
    auto text = [&](const char* k) -> std::string {
        const auto it = a.find(k);
        return it == a.end() || it->second == "None" ? std::string() : it->second;
    };
    auto integer = [&](const char* k, int& out) {
        const std::string v = text(k);
        long long n = 0;
        if (v.empty()) return;
        if (!parseInteger(v, n) || n < 0 || n > std::numeric_limits<int>::max()) {
            fail(L.argumentsLine, "argument " + std::string(k) + " is not a count: " + inQuotes(v) +
                                      " (a garbled arguments block)");
            return;
        }
        out = int(n);
    };
    auto flag = [&](const char* k) { return text(k) == "True"; };
    integer("world_size", L.worldSize);
    integer("tensor_model_parallel_size", L.tp);
    integer("pipeline_model_parallel_size", L.pp);
    integer("context_parallel_size", L.cp);
    integer("expert_model_parallel_size", L.ep);
    integer("expert_tensor_parallel_size", L.etp);
    integer("virtual_pipeline_model_parallel_size", L.vp);
    integer("micro_batch_size", L.microBatch);
    integer("global_batch_size", L.globalBatch);
    integer("seq_length", L.seqLength);
    integer("num_layers", L.layers);
    integer("hidden_size", L.hidden);
    integer("ffn_hidden_size", L.ffnHidden);
    integer("num_attention_heads", L.heads);
    if (flag("group_query_attention")) integer("num_query_groups", L.queryGroups);
    integer("kv_channels", L.kvChannels);
    integer("num_experts", L.experts);
    integer("moe_router_topk", L.topK);
    integer("moe_ffn_hidden_size", L.moeFfnHidden);
    int vocab = 0, padded = 0;
    integer("vocab_size", vocab);
    integer("padded_vocab_size", padded);
    if (vocab > 0) L.vocab = vocab;
    if (padded > 0) L.paddedVocab = padded;
    integer("make_vocab_size_divisible_by", L.vocabDivisor);
    L.swiglu = flag("swiglu");
    L.sequenceParallel = flag("sequence_parallel");
    L.distributedOptimizer = flag("use_distributed_optimizer");
    const std::string fp8 = text("fp8");
    if (!fp8.empty())
        L.precision = "fp8-" + fp8;
    else if (flag("bf16"))
        L.precision = "bf16";
    else if (flag("fp16"))
        L.precision = "fp16";
    else if (a.count("bf16") && a.count("fp16"))
        L.precision = "fp32";
    L.recomputeGranularity = text("recompute_granularity");
    L.recomputeMethod = text("recompute_method");
    if (!L.recomputeGranularity.empty()) integer("recompute_num_layers", L.recomputeLayers);
    if (L.globalBatch == 0)
        for (const auto& s : log.steps)
            if (s.globalBatch > 0) L.globalBatch = int(s.globalBatch);
}

}  // namespace tandem::io::detail
