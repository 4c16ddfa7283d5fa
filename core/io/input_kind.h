#pragma once
// What a user file is, decided from its content (never its name or extension): the one
// detector behind `tandem-cli inspect`, File > Import and a file dropped on the window.
#include <nlohmann/json.hpp>
#include <string>

#include "common/enum_names.h"

namespace tandem::io {

/// The kinds of input Tandem reads.
enum class InputKind {
    ModelConfig,   ///< Hugging Face config.json (io/hf_config.h)
    Scenario,      ///< Tandem scenario (scenario/scenario.h)
    NcclTests,     ///< nccl-tests output (io/nccl_tests.h)
    LossLog,       ///< training loss log (io/loss_log.h)
    TrainLog,      ///< training log with step times (io/train_log.h)
    LoadTrace,     ///< background load trace (io/load_trace.h)
    StackFile,     ///< a calibrated training stack (mosaic/stack_file.h: `tandem_stack`)
    LaunchScript,  ///< a Megatron-LM launch script (read by `plan --megatron-args`)
    Json,          ///< other JSON, or text that opens like JSON but does not parse
    Unknown,       ///< none of the above
};

/// The kind of `text` (a whole file):
///  1. JSON: the first non-blank character, after a UTF-8 byte-order mark, is '{' or '[' and
///     the first line has no launcher prefix ("[1,0]<stdout>:" opens mpirun --tag-output
///     lines, not a JSON array). A JSON object with ml_for_ml, mosaic or
///     tandem_scenario_version is a Scenario; one with tandem_stack a StackFile; one with
///     model_type, architectures or a model-config key (hidden_size, num_hidden_layers, ..., also
///     inside text_config) is a ModelConfig; anything else is Json, and so is a syntax error unless
///     the text is a training log (rule 3: "[rank0]:[titan] ... step: 1 ..." opens with a bracket).
///  2. nccl-tests: (in a script, #! on its first line, # comment lines are not read for
///     rules 2 and 7) after launcher prefixes ("0: ", "[1,0]<stdout>:"), a table header with size
///     and busbw columns, "Collective test starting", "# Avg bus bandwidth", "Out of bounds
///     values" or an X_perf binary name (all_reduce_perf, ...).
///  3. training log: a Megatron-LM, NeMo, torchtitan or modded-nanogpt step line anywhere
///     (trainLogFormat), so NCCL INFO prints and warnings between them do not change the kind.
///  4. loss log: llm.c (`s:N trl:`) or nanoGPT (`iter N: loss`) lines anywhere (see
///     lossLogFormat), so NCCL INFO prints between them do not change the kind; or a first
///     line that is neither a comment nor an NCCL log line (a CSV header) with a loss column.
///  5. Megatron-LM launch script: its commands, as bash splits them (io/launch_script.h:
///     comments are not words), carry two or more of --tensor-model-parallel-size,
///     --pipeline-model-parallel-size, --num-layers, --hidden-size, --num-attention-heads,
///     --micro-batch-size, --global-batch-size, --seq-length.
///  6. load trace: that first line with time / bytes / GBps columns, or two numbers.
///  7. nccl-tests again for any other text mentioning NCCL (a run that printed only NCCL
///     warnings and died: the nccl-tests reader says why it holds no table).
/// Reads at most the first 4 MiB for the text kinds. No errors: a kind is always returned.
InputKind detectInputKind(const std::string& text);

/// The kind of a parsed JSON value (rule 1 above): Scenario, StackFile, ModelConfig or Json.
InputKind detectJsonKind(const nlohmann::json& j);

/// The words `inspect` prints for the kinds (its JSON `kind`): model_config, scenario,
/// nccl_tests, loss_log, train_log, load_trace, stack_file, megatron_launch, unknown. Json has no
/// word of its own.
const EnumTable<InputKind>& inputKindNames();
/// The word of `k` (inputKindNames(); "unknown" for Json).
std::string inputKindName(InputKind k);
/// The kind whose word is `name` (inputKindNames()); Unknown for any other word.
InputKind inputKindFromName(const std::string& name);

}  // namespace tandem::io
