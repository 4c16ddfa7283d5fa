#pragma once
// A layout as Megatron-LM (pretrain_gpt.py) / Megatron-Bridge command-line arguments: written
// for `tandem-cli plan --emit megatron`, read from a launch script for `plan --megatron-args`.
#include <string>

#include "mosaic/geometry.h"
#include "mosaic/perf_model.h"

namespace tandem::mosaic {

/// The Megatron-LM (pretrain_gpt.py) / Megatron-Bridge arguments of a layout on a cluster:
/// --tensor-model-parallel-size, --pipeline-model-parallel-size, --num-layers-per-virtual-
/// pipeline-stage, --context-parallel-size, --expert-model-parallel-size, --expert-tensor-
/// parallel-size, --micro-batch-size, --global-batch-size, --seq-length, --sequence-parallel
/// (TP > 1 and the plan's sp), --use-distributed-optimizer, --use-megatron-fsdp, --recompute-* per
/// checkpointing mode, --fp8-format / --fp8-recipe / --fp4-format per precision, --bf16. One line.
std::string megatronArguments(const Geometry& g, const Cluster& c, const Plan& p);

/// Reads the Megatron-LM / Megatron-Bridge arguments of a launch script (whitespace-separated,
/// --flag=value split at the '=', line continuations and anything that is not a known flag
/// ignored): the parallel sizes (--tensor-, --pipeline-, --context-, --expert-model-,
/// --expert-tensor-parallel-size, --decoder-first- / --decoder-last-pipeline-num-layers,
/// --virtual-pipeline-model-parallel-size or --num-layers-per-virtual-pipeline-stage), batch
/// (--micro-batch-size, --global-batch-size, --seq-length), --use-megatron-fsdp (or
/// --use-torch-fsdp2), --use-distributed-optimizer, --sequence-parallel (absent: off, Megatron's
/// default), --recompute-granularity full|selective with --recompute-modules (selective with only
/// core_attn, Megatron's default list: core-attn; with layernorm / moe_act: selective; with
/// mlp / moe: super-selective), and the precision
/// (--fp8-format [+ --fp8-recipe mxfp8], --fp4-format, else BF16). Sets `p` (dp = N_dev /
/// (TP CP PP), `layers` sets vp from the layers per chunk; no --use-distributed-optimizer =
/// replicated optimizer state) and c's batch, sequence and precision. False + `error` naming the
/// flag when a value is not a positive integer, a flag lacks its value, or TP CP PP does not
/// divide N_dev.
bool parseMegatronArguments(const std::string& text, int layers, Cluster& c, Plan& p,
                            std::string& error);

}  // namespace tandem::mosaic
