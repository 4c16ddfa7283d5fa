#pragma once
// A layout as Megatron-LM (pretrain_gpt.py) / Megatron-Bridge command-line arguments: written
// for `tandem-cli plan --emit megatron`, read from a launch script for `plan --megatron-args`.
#include <string>
#include <vector>

#include "mosaic/geometry.h"
#include "mosaic/perf_model.h"

namespace tandem::mosaic {

/// Megatron-LM's default --make-vocab-size-divisible-by (megatron/training/arguments.py).
constexpr int kMegatronVocabDivisor = 128;

/// The vocabulary Megatron-LM builds for `vocab` tokens: padded up to a multiple of
/// `divisibleBy` (--make-vocab-size-divisible-by) x `tp` (--tensor-model-parallel-size), as
/// megatron/training/tokenizer/tokenizer.py `_vocab_size_with_padding` does. Arguments >= 1.
/// Example: (151936, 128, 2) -> 152064; (129280, 128, 2) -> 129280.
long long megatronPaddedVocab(long long vocab, int divisibleBy, int tp);

/// The pipeline split Megatron-LM runs for plan `p` of `g`: `p` itself, except where its layers
/// do not divide over PP (VP 1, no first / last stage layers given) and the balanced split the
/// plan costs (PerfModel::stageLayers: L mod PP stages of ceil(L / PP) layers, the others
/// floor(L / PP)) can be stated with Megatron-LM's flags, which leave the middle stages equal:
/// L mod PP = PP - 1 sets Plan::lastStageLayers = floor(L / PP) (the same costing), L mod PP = 1
/// sets Plan::firstStageLayers = ceil(L / PP) (the others floor). Example: 80 layers at PP 3 ->
/// lastStageLayers 26 (27, 27, 26).
Plan megatronPipelineSplit(const Geometry& g, const Plan& p);

/// One sentence on a pipeline split of `p` over `g`'s layers that is not even: "" where PP x VP
/// divides the layers or the plan states first / last stage layers; where megatronPipelineSplit
/// states the split, which flag does it; else that the launch script is not runnable as
/// written (Megatron-LM refuses the layers over PP x VP chunks) and how to place them. For the
/// plan's outputs (PlanReport::pipelineNote) and the launch script's header.
std::string pipelineSplitNote(const Geometry& g, const Plan& p);

/// The complete Megatron-LM (pretrain_gpt.py) arguments of a layout of `g` on a cluster, one
/// line that parseMegatronArguments reads back to the same plan and cluster batch, sequence
/// and precision: the model (--num-layers, --hidden-size, --num-attention-heads,
/// --group-query-attention --num-query-groups when KV heads < heads, --kv-channels when the
/// head width (g.headDim) is not d / heads,
/// --ffn-hidden-size, --swiglu for a SwiGLU FFN, what the description states of the rest
/// (--normalization RMSNorm|LayerNorm, --position-embedding-type rope with --rotary-base from
/// rope_theta or learned_absolute, --untie-embeddings-and-output-weights, --disable-bias-linear
/// (with --add-qkv-bias for Q/K/V biases alone), --qk-layernorm; nothing where it is not
/// stated), for multi-head latent attention (g.mla) --multi-latent-attention with
/// --q-lora-rank (when the queries are compressed), --kv-lora-rank, --qk-head-dim
/// (qk_nope_head_dim), --qk-pos-emb-head-dim (qk_rope_head_dim), --v-head-dim (where a width is
/// not stated, none of them and a note: Megatron-LM's defaults are another model), --vocab-size,
/// --max-position-embeddings; MoE: --num-experts, --moe-router-topk, --moe-ffn-hidden-size,
/// --moe-shared-expert-intermediate-size (shared experts x d_expert), --moe-layer-freq with the
/// leading dense blocks), the parallel layout (--tensor-, --pipeline-, --context-,
/// --expert-model-, --expert-tensor-parallel-size (always stated for a MoE model: the costed
/// expert TP, p.etp, where Megatron-LM would default to TP), --num-virtual-stages-per-pipeline-rank
/// when VP > 1, which states VP whether or not the layers divide, --decoder-first- /
/// --decoder-last-pipeline-num-layers of megatronPipelineSplit), --micro-batch-size,
/// --global-batch-size (the batch the layout runs: c.globalBatch, or its rounding to DP x B_micro
/// when they do not divide it, as evaluateLayout costs it), --seq-length, --sequence-parallel when
/// the plan has it and TP > 1,
/// --use-distributed-optimizer / --use-megatron-fsdp, --recompute-* per checkpointing mode,
/// --bf16 and --fp8-format / --fp8-recipe / --fp4-format per precision. The plan costs the
/// model's vocabulary unpadded, so where Megatron-LM's default padding (megatronPaddedVocab
/// with 128) would change it, --make-vocab-size-divisible-by states the largest power of two
/// up to 128 that keeps it (V / TP's); when TP does not divide V no divisor does, and `notes`
/// (when given) says which padded size Megatron-LM will build.
std::string megatronArguments(const Geometry& g, const Cluster& c, const Plan& p,
                              std::vector<std::string>* notes = nullptr);

/// Reads the Megatron-LM / Megatron-Bridge arguments of a launch script (its words as
/// io::launchScriptWords splits them; --flag=value is --flag value) for model `g`. Only the launch
/// command is read: the one command, started by a program, that carries Megatron-LM flags
/// (with arrays the file assigns but never expands); a file without one is a list of
/// arguments, read whole. Then the parallel
/// sizes (--tensor-, --pipeline-, --context-, --expert-model-, --expert-tensor-parallel-size
/// (absent: TP, Megatron-LM's default, on a stack that folds experts; a stack that does not
/// costs unsplit experts, ETP 1, and says so in a note when TP > 1),
/// --decoder-first- / --decoder-last-pipeline-num-layers (where they state the balanced split
/// megatronPipelineSplit writes for layers PP does not divide: that split, Plan's 0 / 0), VP from
/// --num-virtual-stages-per-pipeline-rank (or its config name
/// --virtual-pipeline-model-parallel-size) or --num-layers-per-virtual-pipeline-stage, which
/// as in Megatron needs the layers to split evenly over PP and the stage's layers over it),
/// batch (--micro-batch-size, --global-batch-size, --seq-length), --use-megatron-fsdp (or
/// --use-custom-fsdp) with --data-parallel-sharding-strategy (optim_grads_params or not given:
/// FSDP; optim: distributed optimizer; no_shard: neither; optim_grads: as optim, noted),
/// --use-torch-fsdp2 (FSDP), --use-distributed-optimizer (absent: replicated optimizer state),
/// --sequence-parallel (absent: off, Megatron's default; at TP 1, where Megatron-LM has none
/// either way, the plan's default, costed the same), --recompute-granularity full|selective
/// with --recompute-modules (selective with only core_attn, Megatron's default: core-attn; with
/// layernorm / moe_act / mlp_act: selective; with mlp / moe: super-selective), the precision
/// (--fp8-format e4m3|hybrid [+ --fp8-recipe mxfp8], --fp4-format e2m1, else BF16), and the model
/// flags --emit writes, each checked against `g` (--multi-latent-attention only for an MLA
/// model; its widths, given or Megatron-LM's defaults after --multi-latent-attention, must be
/// g's); --make-vocab-size-divisible-by (default 128)
/// with TP gives the vocabulary Megatron-LM builds, and a note names it when it is not g's. Sets
/// `p` (dp = N_dev / (TP CP PP)) and c's batch, sequence and precision; flags it does not model go
/// to `notes` (one line naming them). False + `error` naming the flag when: the file has no flags;
/// a value is not a positive integer or not one of the flag's choices (--global-batch-size and
/// --seq-length at most kMaxGlobalBatch / kMaxSeqLen); a flag lacks its value; a flag is given
/// twice with different values; a model flag contradicts `g`; VP cannot be derived; TP CP PP does
/// not divide N_dev; the script cannot be split (io::launchScriptWords); beside the launch command
/// a --flag starts a command of its own (bash would run it as a program; "line N: --flag starts a
/// command of its own ..."); or two commands carry Megatron-LM flags (both lines named).
bool parseMegatronArguments(const std::string& text, const Geometry& g, Cluster& c, Plan& p,
                            std::string& error, std::vector<std::string>* notes = nullptr);

}  // namespace tandem::mosaic
