#pragma once
// What the launch line's writer (megatron_args_write.cpp: megatronArguments) and the launch
// script's reader (megatron_args.cpp: parseMegatronArguments) share (mosaic/ only): the flags
// as read, and the multi-latent attention widths both name.
#include <string>
#include <vector>

#include "mosaic/geometry.h"
#include "mosaic/perf_model.h"

namespace tandem::mosaic::detail {

/// What the flags of a launch script say, before they become a plan and a cluster.
struct ReadFlags {
    Plan plan;
    int globalBatch = 0, seqLen = 0;
    int vpPerRank = 0;       ///< --num-virtual-stages-per-pipeline-rank, 0 = not given
    int vpConfig = 0;        ///< --virtual-pipeline-model-parallel-size, 0 = not given
    int layersPerChunk = 0;  ///< --num-layers-per-virtual-pipeline-stage, 0 = not given
    std::string granularity, fp8Format, fp8Recipe, fp4Format, fp4Recipe;
    std::vector<std::string> modules;  ///< --recompute-modules
    std::string recomputeMethod, shardingStrategy, moeLayerFreq;
    int recomputeLayers = 0, maxPositions = 0;
    int etp = 0;           ///< --expert-tensor-parallel-size, 0 = not given (Megatron: TP)
    int vocabDivisor = 0;  ///< --make-vocab-size-divisible-by, 0 = not given (Megatron: 128)
    bool swiglu = false, gqa = false, bf16 = false, overlapGrad = false, overlapParam = false;
    bool torchFsdp = false;  ///< --use-torch-fsdp2: parameters, gradients and optimizer sharded
    /// Kernel and overlap flags: --moe-token-dispatcher-type ("" = not given: Megatron-LM's
    /// allgather), --moe-grouped-gemm, --moe-shared-expert-overlap, --tp-comm-overlap,
    /// --attention-backend ("" = not given: Megatron-LM's auto).
    std::string dispatcher, attentionBackend;
    bool groupedGemm = false, sharedOverlap = false, tpCommOverlap = false;
    /// Architecture flags (read so that they are known; the costing does not depend on them).
    std::string normalization, positions;
    int rotaryBase = 0;
    bool untied = false, noBias = false, qkvBias = false, qkLayernorm = false;
    /// Multi-latent attention: --multi-latent-attention and its widths, 0 = not given.
    bool mla = false;
    int qLoraRank = 0, kvLoraRank = 0, qkHeadDim = 0, qkPosEmbHeadDim = 0, vHeadDim = 0;
    /// Model flags, 0 = not given.
    int layers = 0, hidden = 0, heads = 0, queryGroups = 0, kvChannels = 0, ffn = 0, vocab = 0,
        experts = 0, topK = 0, expertFfn = 0, sharedFfn = 0;
};

/// Head width of `g` as --kv-channels states it.
inline int headWidth(const Geometry& g) { return g.headDim > 0 ? g.headDim : g.dModel / g.nHead; }

/// Megatron-LM's defaults of the MLA widths (megatron/training/arguments.py): --q-lora-rank
/// None (full rank, 0 here), --kv-lora-rank 32, --qk-head-dim 128, --qk-pos-emb-head-dim 64,
/// --v-head-dim 128.
struct LatentWidth {
    const char* flag;
    int megatronDefault;
    int ReadFlags::*given;
    int Geometry::*model;
    const char* field;  ///< the config's name
};
inline const LatentWidth kLatentWidths[] = {
    {"--q-lora-rank", 0, &ReadFlags::qLoraRank, &Geometry::qLoraRank, "q_lora_rank"},
    {"--kv-lora-rank", 32, &ReadFlags::kvLoraRank, &Geometry::kvLoraRank, "kv_lora_rank"},
    {"--qk-head-dim", 128, &ReadFlags::qkHeadDim, &Geometry::qkNopeHeadDim, "qk_nope_head_dim"},
    {"--qk-pos-emb-head-dim", 64, &ReadFlags::qkPosEmbHeadDim, &Geometry::qkRopeHeadDim,
     "qk_rope_head_dim"},
    {"--v-head-dim", 128, &ReadFlags::vHeadDim, &Geometry::vHeadDim, "v_head_dim"},
};

}  // namespace tandem::mosaic::detail
