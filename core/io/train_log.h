#pragma once
// Training logs -> a measured run: Megatron-LM / Megatron-Core text logs (the arguments block,
// `iteration N/ M | ...` lines, `[Rank 0] (after N iterations) memory (MB)` reports), NeMo 2
// step lines (`Training epoch E, iteration N/M | ... | train_step_timing in s: T`) and NeMo 1's
// Lightning progress bar `Epoch E: ... | N/M [..., reduced_train_loss=X, ...]`, torchtitan
// step lines (`step: N  loss: X  memory: Y GiB(Z%)  tps: T  tflops: F  mfu: M%`) and
// modded-nanogpt lines (`step:N/M val_loss:X train_time:Tms step_avg:Sms`). One reader per
// format, chosen from the content; each gives per-iteration time, loss and memory, the
// steady-state iteration time after warm-up, and the model and layout the log states.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "common/enum_names.h"

namespace tandem::io {

/// The text format of a training log.
enum class TrainLogFormat {
    Megatron,       ///< "megatron": Megatron-LM / Megatron-Core `iteration N/ M | ...` lines
    Nemo,           ///< "nemo": NeMo 2 step lines or NeMo 1 progress bar
    Torchtitan,     ///< "torchtitan": `step: N  loss: X  memory: ...  tps: ...` lines
    ModdedNanoGpt,  ///< "modded-nanogpt": `step:N/M train_time:Tms step_avg:Sms` lines
};
/// "megatron", "nemo", "torchtitan", "modded-nanogpt".
const EnumTable<TrainLogFormat>& trainLogFormatNames();
const char* name(TrainLogFormat f);

/// Logged records that count as warm-up besides the first one: every record of the run's first
/// kWarmupSteps steps (compilation, allocator growth, communicator setup) [steps <= 5].
constexpr long long kWarmupSteps = 5;
/// |median of the second half / median of the first half - 1| of the steady iteration times
/// above which a log's times drift.
constexpr double kDriftThreshold = 0.05;

/// One logged training step (NaN: not logged).
struct TrainStep {
    std::size_t line = 0;      ///< 1-based source line
    long long step = 0;        ///< iteration / step number as logged
    long long totalSteps = 0;  ///< M of `N/M`; 0 when not logged
    /// Wall time per iteration this record stands for, s: Megatron's elapsed time per iteration
    /// (the mean over the log interval), NeMo's train_step_timing (or s/it of the progress bar),
    /// torchtitan's time since the previous step line (its timestamps) per step, and
    /// modded-nanogpt's train_time since the previous step line per step. NaN when the log
    /// cannot say (a torchtitan log's first line).
    double iteration_s;
    double loss;                  ///< training loss; NaN when logged as nan or not logged
    bool lossLogged = false;      ///< the line carries a loss (nan included)
    double tflopsPerGpu;          ///< TFLOP/s per GPU as the log counts them
    double tokensPerSPerGpu;      ///< tokens/s per GPU (torchtitan's tps)
    double mfu;                   ///< model FLOPs utilisation as logged, fraction
    double memoryGiB;             ///< torchtitan's memory per GPU, GiB
    long long globalBatch = 0;    ///< global batch size (sequences) of the record; 0 if not logged
    long long skipped = 0;        ///< Megatron's number of skipped iterations in the interval
    long long nanIterations = 0;  ///< Megatron's number of nan iterations in the interval
    TrainStep();
};

/// A validation loss line (Megatron `validation loss at iteration N`, modded-nanogpt val_loss).
struct TrainValLoss {
    std::size_t line = 0;
    long long step = 0;
    double loss = 0;
};

/// The model and parallel layout a log states; 0 / "" / false = not stated.
struct TrainLogLayout {
    std::size_t argumentsLine = 0;  ///< line of the Megatron arguments header; 0 when none
    /// Every `name .... value` of the Megatron arguments block, as written.
    std::map<std::string, std::string> arguments;
    int worldSize = 0, tp = 0, pp = 0, cp = 0, ep = 0, etp = 0, vp = 0;
    int microBatch = 0, globalBatch = 0, seqLength = 0;
    int layers = 0, hidden = 0, ffnHidden = 0, heads = 0, queryGroups = 0, kvChannels = 0;
    int experts = 0, topK = 0, moeFfnHidden = 0;
    int vocab = 0;         ///< vocab_size, or the tokenizer's size Megatron reports
    int paddedVocab = 0;   ///< padded_vocab_size or `> padded vocab (... new size: N)`
    int vocabDivisor = 0;  ///< make_vocab_size_divisible_by
    bool swiglu = false, sequenceParallel = false, distributedOptimizer = false;
    /// "bf16", "fp16", "fp8-hybrid", "fp8-e4m3" or "" (not stated; fp32 when the block says
    /// neither bf16 nor fp16).
    std::string precision;
    std::string recomputeGranularity, recomputeMethod;  ///< "" = None
    int recomputeLayers = 0;
    /// The argument names a prediction of this run needs and the log does not state (model:
    /// num_layers, hidden_size, num_attention_heads, ffn_hidden_size, the vocabulary; batch:
    /// seq_length, micro_batch_size, global_batch_size; layout: world_size,
    /// tensor_model_parallel_size, pipeline_model_parallel_size; MoE: moe_router_topk). Empty:
    /// complete. Context, expert and virtual-pipeline sizes absent from a block are 1 (older
    /// releases have no such option).
    std::vector<std::string> missingForPrediction() const;
};

/// Steady-state statistics of the iteration times after warm-up.
struct TrainSteadyState {
    int warmupRecords = 0;                  ///< records dropped as warm-up
    int records = 0;                        ///< steady records with a time
    long long firstStep = 0, lastStep = 0;  ///< of the steady records
    double median_s = 0, q25_s = 0, q75_s = 0, min_s = 0, max_s = 0;  ///< iteration time, s
    double spread = 0;  ///< (q75 - q25) / median, the relative interquartile range
    /// median of the second half of the steady records / median of the first half - 1 (0 with
    /// fewer than 4 records)
    double drift = 0;
    bool drifts = false;  ///< |drift| > kDriftThreshold
};

/// A parsed training log: what was measured.
struct TrainLog {
    TrainLogFormat format = TrainLogFormat::Megatron;
    TrainLogLayout layout;
    std::vector<TrainStep> steps;  ///< training records, steps strictly increasing
    std::vector<TrainValLoss> validation;
    TrainSteadyState steady;
    /// Medians over the steady records of what the log reports per step (NaN when absent).
    double tflopsPerGpu, tokensPerSPerGpuLogged, mfu;
    /// Whole-job tokens/s: global batch x sequence length / median iteration time; NaN when the
    /// log does not state both.
    double tokensPerS;
    /// tokensPerS / world size, or torchtitan's logged tps median; NaN when unknown.
    double tokensPerSPerGpu;
    /// Peak memory per GPU, bytes: Megatron's largest `max allocated`, torchtitan's largest
    /// memory; NaN when not logged.
    double peakMemoryBytes;
    std::size_t memoryLine = 0;  ///< line of the memory report with the peak (0: none)
    long long skippedIterations = 0, nanIterations = 0;  ///< sums over the records
    std::vector<std::size_t> nanLossLines;               ///< lines of records whose loss was NaN
    /// Findings that do not stop the measurement: drifting times, NaN loss, skipped iterations.
    std::vector<std::string> notes;
    TrainLog();
};

/// The format of a training log's lines, or nullopt when none is: Megatron when a line holds
/// `iteration` and `elapsed time per iteration` (or opens the `--- arguments ---` block); NeMo
/// when one holds `train_step_timing in s` or `reduced_train_loss`; modded-nanogpt when one
/// starts with `step:N/` and holds `train_time:` or `val_loss:`; torchtitan when one holds
/// `step:` then `loss:` and `tps:`, `wps:` or `memory:`. Launcher prefixes (`0: `,
/// `[1,0]<stdout>:`, `[rank0]:`, `[default0]:`) and ANSI colour codes are ignored.
std::optional<TrainLogFormat> trainLogFormat(const std::vector<std::string>& lines);

/// Parses a training log (format from trainLogFormat). Warm-up: the first timed record and
/// every record of steps <= kWarmupSteps are dropped; the rest give the steady state. Refused,
/// with an error at `line N` and the reason: a truncated record (a Megatron iteration line that
/// does not end with `|`, a field without its value, a torchtitan line without its `mfu:`, a
/// modded-nanogpt line without `step_avg:`), a garbled one (a field that is not a number),
/// interleaved output of several ranks or runs (a step not after the previous one, or two
/// ranks' prefixes; a progress bar redrawn at the same step keeps its later drawing), an arguments
/// block without its end line, a log whose every loss is NaN, and one with no steady-state record
/// after warm-up; a text with no record at all (path "file"). Skipped or NaN iterations, NaN losses
/// and drifting times go to TrainLog::notes. Returns std::nullopt on error.
std::optional<TrainLog> parseTrainLog(const std::string& text, Diagnostics& diag);

/// Reads and parses a file (see parseTrainLog).
std::optional<TrainLog> loadTrainLogFile(const std::string& path, Diagnostics& diag);

}  // namespace tandem::io
