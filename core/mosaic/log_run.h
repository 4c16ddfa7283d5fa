#pragma once
// A training log (io/train_log.h) as a measured run Tandem can cost and calibrate to: the log
// gives the measured iteration time; what it does not state (the model, the layout, the batch,
// the precision) the user gives, and what both state must agree.
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "io/train_log.h"
#include "mosaic/geometry.h"
#include "mosaic/perf_model.h"
#include "mosaic/reality.h"
#include "mosaic/stack.h"

namespace tandem::mosaic {

/// What the user states about a logged run; an unset field is taken from the log. The field
/// names are those of `tandem-cli plan` / `calibrate` without their dashes: model, layout,
/// devices, gbs, seqlen, precision.
struct LogRunFacts {
    std::optional<Geometry> geometry;  ///< "model"
    std::string modelName;             ///< label of the run (e.g. the model file's name)
    /// "layout" (mosaic::parseLayout; dp 0 = devices / (TP CP PP)); its ckpt is not used: a
    /// measured run is costed with the least recomputation that fits (choosePlans).
    std::optional<Plan> layout;
    int devices = 0, globalBatch = 0, seqLen = 0;  ///< "devices", "gbs", "seqlen"; 0 = not given
    std::optional<Precision> precision;            ///< "precision"
};

/// The model a log's arguments block states (a Megatron log: num_layers, hidden_size,
/// num_attention_heads, num_query_groups, ffn_hidden_size, kv_channels, swiglu, the MoE sizes
/// and the padded vocabulary, or the vocabulary padded as Megatron-LM pads it), or nullopt when
/// it does not state layers, hidden size, heads, FFN width and vocabulary.
std::optional<Geometry> trainLogGeometry(const io::TrainLogLayout& layout);

/// A logged run as a measured run on `system` (a built-in hardware name) whose `note` is
/// `name` (the log's file name) and whose `model` is facts.modelName (or "model stated in the
/// log"), `container` "yours":
/// devices, batch, sequence length, layout and precision from `facts` where given, else from
/// the log; measured tokens/s per GPU = gbs x seqlen / (median steady iteration time x devices).
/// `geometry` receives the model. Errors (path = the field: "model", "layout", "devices", "gbs",
/// "seqlen", "precision", "log"): a field neither gives, a given value the log contradicts (the
/// log's value named), a layout that does not divide the devices or leaves a data-parallel rank
/// without a micro-batch, a log without a steady iteration time. Returns nullopt on error.
std::optional<MeasuredRun> logMeasuredRun(const io::TrainLog& log, const LogRunFacts& facts,
                                          const std::string& name, const std::string& system,
                                          Geometry& geometry, Diagnostics& diag);

/// A logged run (logMeasuredRun, with its `geometry`) as a case on `hardware` under `stack`:
/// realityCase, then the keys of facts.layout a measured-runs row has no column for (etp, the
/// distributed optimizer, sequence parallelism, first / last stage layers).
RealityCase logRunCase(const MeasuredRun& run, const Geometry& geometry, const LogRunFacts& facts,
                       const Stack& stack, const Hardware& hardware);

/// A model file's label: its file name without ".json" and ".config"
/// (".../Llama-3-70B.config.json" -> "Llama-3-70B").
std::string modelFileLabel(const std::string& path);

}  // namespace tandem::mosaic
