#pragma once
// The published per-GPU memory (Fig. 1) and iteration times (Table 5) of Korthikanti et al. 2022,
// "Reducing Activation Recomputation in Large Transformer Models" (arXiv:2205.05198), for GPT-3
// style models of 22B, 175B, 530B and 1T parameters on A100 80 GB, against the performance model
// under the megatron-core stack on `dgx-a100` (tests/data/korthikanti-2022/, PROVENANCE.md).
#include <string>
#include <vector>

#include "common/check.h"
#include "common/diagnostics.h"
#include "common/enum_names.h"
#include "mosaic/perf_model.h"

namespace tandem::mosaic {

/// What a published point measures (points.csv column `quantity`).
enum class KorthikantiQuantity {
    ParametersAndOptimizer,  ///< "parameters_and_optimizer_per_gpu", GiB
    Activations,             ///< "activations_per_gpu" (first pipeline stage), GiB
    IterationTime,           ///< "iteration_time", s
};
/// The CSV words of KorthikantiQuantity, in the order above.
const EnumTable<KorthikantiQuantity>& korthikantiQuantityNames();

/// The recomputation setting of a point (points.csv column `layout_mode`).
enum class KorthikantiMode {
    Baseline,       ///< "baseline": no sequence parallelism, no recomputation
    SpSelective,    ///< "sp_selective": sequence parallelism + selective (core-attention) recompute
    FullRecompute,  ///< "full_recompute": sequence parallelism + full recomputation
};
/// The CSV words of KorthikantiMode, in the order above.
const EnumTable<KorthikantiMode>& korthikantiModeNames();

/// The unit of a published value (points.csv column `unit`): GiB for the memory quantities, s
/// for the iteration time.
enum class KorthikantiUnit {
    GiB,      ///< "GiB", 2^30 bytes
    Seconds,  ///< "s"
};
/// The CSV words of KorthikantiUnit, in the order above.
const EnumTable<KorthikantiUnit>& korthikantiUnitNames();

/// One published point (one CSV row of points.csv).
struct KorthikantiPoint {
    int line = 0;       ///< 1-based line in the CSV
    std::string point;  ///< e.g. "fig1.175B.activations.present"
    std::string model;  ///< "22B", "175B", "530B", "1T"
    KorthikantiQuantity quantity = KorthikantiQuantity::IterationTime;
    KorthikantiMode mode = KorthikantiMode::Baseline;
    double value = 0;                                 ///< published value in `unit`
    KorthikantiUnit unit = KorthikantiUnit::Seconds;  ///< GiB (memory) or s (time)
    int heads = 0, hidden = 0, layers = 0, ffn = 0, vocab = 0, seqLen = 0;
    int tp = 0, pp = 0, vp = 0, dp = 0, gpus = 0, globalBatch = 0, microBatch = 0;
    std::string source;
};

/// Parses points.csv (header `point,model,quantity,layout_mode,value,unit,attention_heads,
/// hidden,layers,ffn_hidden,vocab,seq_len,tp,pp,vp,dp,gpus,global_batch,micro_batch,
/// precision_bits,gpu,source`). Errors name the line and the column (unknown quantity or mode,
/// a unit that does not fit the quantity, a value that is not positive, a layout integer < 1,
/// gpus != tp pp dp); rows with errors are skipped.
std::vector<KorthikantiPoint> parseKorthikantiPoints(const std::string& csv, Diagnostics& diag);
/// The shipped points (compiled in).
const std::vector<KorthikantiPoint>& shippedKorthikantiPoints();

/// GPT-3 style dense geometry of a point: multi-head attention (KV heads = heads), d = hidden,
/// a 2-matrix GeLU FFN of width ffn_hidden, the point's vocabulary.
Geometry korthikantiGeometry(const KorthikantiPoint& p);

/// A point as the model costs it. `expressible` false with `reason` when the model cannot
/// express the point's setting. Memory in GiB (2^30 bytes), time in s.
struct KorthikantiResult {
    KorthikantiPoint point;
    bool expressible = false;
    std::string reason;
    Plan plan;
    PlanEval eval;
    double tandem = 0;  ///< the model's value of the point's quantity, in the point's unit
};
/// Every shipped point costed under `stack` (default megatron-lm-2022, the paper's own software)
/// on dgx-a100 at BF16 with the distributed optimizer off (18 bytes per parameter, Sec. 4).
/// Modes: baseline -> sequence parallelism off, Checkpointing::None (the attention scores kept);
/// sp_selective -> sequence parallelism on, Checkpointing::CoreAttention (the paper's selective
/// recomputation: QK^T, softmax, dropout and AV recomputed); full_recompute -> sequence
/// parallelism on, Checkpointing::Full.
std::vector<KorthikantiResult> costKorthikantiPoints(const Stack& stack = megatronLm2022Stack());

/// The checks of the expressible results: id "korthikanti." + point, band +-10 % of the
/// published value.
std::vector<Check> korthikantiChecks(const std::vector<KorthikantiResult>& results);

}  // namespace tandem::mosaic
