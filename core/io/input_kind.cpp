#include "io/input_kind.h"

#include "common/csv.h"
#include "common/diagnostics.h"
#include "common/json_reader.h"
#include "io/hf_config.h"
#include "io/launch_script.h"
#include "io/load_trace.h"
#include "io/loss_log.h"
#include "io/text_file.h"
#include "io/train_log.h"

namespace tandem::io {
namespace {

/// Bytes of a text file the text-kind rules look at.
constexpr std::size_t kDetectBytes = 4u << 20;

/// A line that only nccl-tests prints (lower-cased, launcher prefix removed).
bool isNcclTestsLine(const std::string& lower) {
    static const char* markers[] = {"collective test starting",
                                    "avg bus bandwidth",
                                    "out of bounds values",
                                    "all_reduce_perf",
                                    "all_gather_perf",
                                    "reduce_scatter_perf",
                                    "alltoall_perf",
                                    "broadcast_perf",
                                    "reduce_perf",
                                    "sendrecv_perf",
                                    "gather_perf",
                                    "scatter_perf",
                                    "hypercube_perf"};
    for (const char* m : markers)
        if (lower.find(m) != std::string::npos) return true;
    std::string l = lower;
    for (char& c : l)
        if (c == '#') c = ' ';
    const auto tok = splitBlanks(l);
    bool size = false, busbw = false;
    for (const auto& t : tok) {
        size = size || t == "size";
        busbw = busbw || t == "busbw";
    }
    return size && busbw;
}

/// A launch script whose commands (as bash splits them: comments are not words) carry at least
/// two of Megatron-LM's model / layout / batch flags (--flag or --flag=value).
bool isMegatronLaunch(const std::string& text) {
    static const char* flags[] = {"--tensor-model-parallel-size",
                                  "--pipeline-model-parallel-size",
                                  "--num-layers",
                                  "--hidden-size",
                                  "--num-attention-heads",
                                  "--micro-batch-size",
                                  "--global-batch-size",
                                  "--seq-length"};
    bool any = false;
    for (const char* f : flags) any = any || text.find(f) != std::string::npos;
    if (!any) return false;
    std::vector<ScriptCommand> commands;
    std::string error;
    if (!scriptCommands(text, commands, error)) return false;
    int found = 0;
    std::string seen;  // the flags found, each once
    for (const auto& cmd : commands)
        for (const auto& w : cmd.words) {
            const std::string name = w.substr(0, w.find('='));
            for (const char* f : flags)
                if (name == f && seen.find(name + " ") == std::string::npos) {
                    seen += name + " ";
                    ++found;
                }
        }
    return found >= 2;
}

InputKind csvHeaderKind(const std::string& line) {
    const std::string l = toLower(line);
    if (l.find("loss") != std::string::npos) return InputKind::LossLog;
    if (l.find("bytes") != std::string::npos || l.find("time_s") != std::string::npos ||
        l.find("gbps") != std::string::npos || l.find("time_ms") != std::string::npos ||
        isLoadTraceHeader(line))
        return InputKind::LoadTrace;
    double d;
    const auto f = splitCsvRecord(l, detectCsvSeparator(l));
    if (f.size() == 2 && parseDouble(trim(f[0]), d)) return InputKind::LoadTrace;
    return InputKind::Unknown;
}

}  // namespace

InputKind detectJsonKind(const nlohmann::json& j) {
    if (j.is_object() &&
        (j.contains("ml_for_ml") || j.contains("mosaic") || j.contains("tandem_scenario_version")))
        return InputKind::Scenario;
    if (j.is_object() && j.contains("tandem_stack")) return InputKind::StackFile;
    return isHfConfig(j) ? InputKind::ModelConfig : InputKind::Json;
}

InputKind detectInputKind(const std::string& whole) {
    const std::size_t bom = utf8BomLength(whole);
    const auto first = whole.find_first_not_of(" \t\r\n", bom);
    if (first != std::string::npos && (whole[first] == '{' || whole[first] == '[')) {
        const auto eol = whole.find_first_of("\r\n", first);
        const std::string line =
            whole.substr(first, eol == std::string::npos ? std::string::npos : eol - first);
        if (stripLauncherPrefix(line) == line) {
            Diagnostics quiet;
            const auto j = parseJsonText(whole.substr(bom), quiet);
            if (quiet.ok()) return detectJsonKind(j);
            // Log lines open with brackets too ("[rank0]:[titan] ...", "[2024-04-06 ...]").
            if (trainLogFormat(splitLines(whole.substr(bom, kDetectBytes))))
                return InputKind::TrainLog;
            return InputKind::Json;
        }
    }
    const auto lines = splitLines(whole.substr(bom, kDetectBytes));
    // A script (#! on its first line): its # comments are not content (a launch script's
    // header may name nccl-tests).
    const bool script = whole.compare(bom, 2, "#!") == 0;
    bool mentionsNccl = false;
    for (const auto& raw : lines) {
        if (script && trim(raw).rfind('#', 0) == 0) continue;
        const std::string lower = toLower(stripLauncherPrefix(raw));
        if (isNcclTestsLine(lower)) return InputKind::NcclTests;
        mentionsNccl = mentionsNccl || lower.find("nccl") != std::string::npos;
    }
    if (trainLogFormat(lines)) return InputKind::TrainLog;
    // As the loss-log reader sees the lines (it reads no launcher prefixes).
    if (lossLogFormat(lines) != LossLogFormat::Csv) return InputKind::LossLog;
    if (isMegatronLaunch(whole.substr(bom, kDetectBytes))) return InputKind::LaunchScript;
    for (const auto& l : lines) {
        const std::string t = trim(l);
        if (t.empty() || t[0] == '#' || isNcclLogLine(l)) continue;
        const InputKind k = csvHeaderKind(t);
        if (k != InputKind::Unknown) return k;
        break;
    }
    return mentionsNccl ? InputKind::NcclTests : InputKind::Unknown;
}

const EnumTable<InputKind>& inputKindNames() {
    static const EnumTable<InputKind> t = {
        {InputKind::ModelConfig, "model_config"}, {InputKind::Scenario, "scenario"},
        {InputKind::NcclTests, "nccl_tests"},     {InputKind::LossLog, "loss_log"},
        {InputKind::TrainLog, "train_log"},       {InputKind::LoadTrace, "load_trace"},
        {InputKind::StackFile, "stack_file"},     {InputKind::LaunchScript, "megatron_launch"},
        {InputKind::Unknown, "unknown"}};
    return t;
}

std::string inputKindName(InputKind k) {
    return enumName(inputKindNames(), k == InputKind::Json ? InputKind::Unknown : k);
}

InputKind inputKindFromName(const std::string& name) {
    return enumFromName(inputKindNames(), name).value_or(InputKind::Unknown);
}

}  // namespace tandem::io
