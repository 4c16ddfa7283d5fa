#pragma once
// Transformer geometry as Tandem reads it from a published model config, and the parameter
// counts derived from it (total / active, with and without embeddings, sparsity S, split
// factor G). Counting follows the Hugging Face module layout of each family so that the totals
// match the published figures; MOSAIC's own ladder uses the same pieces [2608.10605 §3, App. A.1].
#include <cstdint>
#include <string>

#include "common/enum_names.h"

namespace tandem::io {

/// The model family whose Hugging Face module layout a config's parameters are counted by
/// (hf_config.h maps each supported model_type to one: mistral counts as llama, kimi_k2 as
/// deepseek_v3, llama4_text as llama4; the others as the family of the same name).
enum class ModelFamily {
    Mixtral,
    DeepseekV2,
    DeepseekV3,
    Qwen2Moe,
    Qwen3Moe,
    GptOss,
    Llama4,
    Gpt2,
    Opt,
    Llama,
    Qwen2,
    Qwen3,
};
/// The word of each family, as the inspect JSON's "family" writes it: "mixtral", "deepseek_v2",
/// "deepseek_v3", "qwen2_moe", "qwen3_moe", "gpt_oss", "llama4", "gpt2", "opt", "llama",
/// "qwen2", "qwen3".
const EnumTable<ModelFamily>& modelFamilyNames();
/// The word of `f` (modelFamilyNames()).
const char* name(ModelFamily f);

/// How attention projections are shaped.
enum class AttentionKind {
    Standard,         ///< Q (h*hd x d), K and V (kv*hd x d), O (d x h*hd): MHA / GQA / MQA
    MultiHeadLatent,  ///< DeepSeek-V2/V3 MLA (low-rank Q and compressed KV) [DeepSeek-V2 §2.1]
};

/// Which embedding matrices a publisher counts in its "active parameters" figure.
enum class ActiveEmbeddingConvention {
    InputAndOutput,  ///< token embedding and output head (Mistral, Qwen, Meta; dense models)
    OutputOnly,      ///< output head only; the input lookup is not a matmul (OpenAI, DeepSeek)
};

/// Layer geometry of a decoder-only transformer, dense or MoE. Widths are element counts.
/// A field that does not apply is 0 (e.g. `experts` for a dense model).
struct ModelGeometry {
    std::string modelType;  ///< `model_type` as written in the config ("mixtral", ...)
    /// Family used for counting (ModelFamily; set with modelType by importModelConfig)
    ModelFamily family = ModelFamily::Llama;

    long long layers = 0;   ///< transformer blocks (MTP / next-n modules not included)
    long long hidden = 0;   ///< model width d
    long long heads = 0;    ///< attention heads
    long long kvHeads = 0;  ///< key/value heads (== heads for MHA)
    long long headDim = 0;  ///< per-head width of Q/K/V (Standard attention)
    AttentionKind attention = AttentionKind::Standard;
    long long qLoraRank = 0;      ///< MLA: Q compression rank (0 = full-rank Q projection)
    long long kvLoraRank = 0;     ///< MLA: KV compression rank
    long long qkRopeHeadDim = 0;  ///< MLA: rotary part of each Q/K head
    long long qkNopeHeadDim = 0;  ///< MLA: non-rotary part of each Q/K head
    long long vHeadDim = 0;       ///< MLA: value head width

    long long vocab = 0;             ///< vocabulary size
    bool tiedEmbeddings = false;     ///< output head shares the token embedding matrix
    long long learnedPositions = 0;  ///< rows of a learned position table (GPT-2, OPT); 0 = RoPE
    long long embedProjDim = 0;      ///< OPT word_embed_proj_dim when != hidden (project_in/out)
    double ropeTheta = 0;            ///< rope_theta, the RoPE base; 0 = not stated

    long long denseLayers = 0;    ///< blocks with a dense FFN
    long long moeLayers = 0;      ///< blocks with an MoE FFN
    long long dFfDense = 0;       ///< dense FFN width (0 when no block is dense and none is given)
    long long experts = 0;        ///< routed experts per MoE block, E
    long long topK = 0;           ///< routed experts per token, K
    long long dExpert = 0;        ///< routed expert hidden width d_expert
    long long sharedExperts = 0;  ///< always-active shared experts per MoE block
    long long dShared = 0;        ///< hidden width of each shared expert
    long long dFfReference = 0;   ///< reference (dense-equivalent) FFN width for G; 0 = undefined

    bool gatedFfn = true;               ///< SwiGLU-style FFN (3 matrices) rather than 2
    bool layerNorm = false;             ///< LayerNorm with bias (GPT-2, OPT) rather than RMSNorm
    bool qkvBias = false;               ///< bias on Q, K, V projections
    bool oBias = false;                 ///< bias on the output projection
    bool mlpBias = false;               ///< bias on FFN / expert matrices
    bool qkNorm = false;                ///< per-head RMSNorm weights on Q and K (Qwen3)
    bool attentionSinks = false;        ///< one learned sink logit per head (gpt-oss)
    bool routerBias = false;            ///< bias vector on the router (gpt-oss)
    bool routerCorrectionBias = false;  ///< DeepSeek-V3 e_score_correction_bias (E values)
    bool sharedExpertGate = false;      ///< Qwen2-MoE sigmoid gate on the shared expert (d x 1)
    bool finalNorm = true;              ///< a norm after the last block
    long long mtpLayers = 0;  ///< DeepSeek-V3 multi-token-prediction modules (never counted)

    ActiveEmbeddingConvention activeConvention = ActiveEmbeddingConvention::InputAndOutput;
};

/// Parameter counts of a geometry (exact integers; multiply by bytes/param for memory).
struct ParameterCounts {
    long long total = 0;                ///< n_total: every parameter, embeddings included
    long long active = 0;               ///< n_active: per-token active, embeddings per convention
    long long activeAllEmbeddings = 0;  ///< active with token embedding and output head both
    long long totalNonEmbedding = 0;    ///< n_total_nonembedding (no token/position tables, head)
    long long activeNonEmbedding = 0;   ///< n_active_nonembedding
    long long tokenEmbedding = 0;       ///< vocab x d
    long long outputHead = 0;           ///< vocab x d, 0 when tied
    long long positionEmbedding = 0;    ///< learned position table, 0 with RoPE
    double sparsity = 0;      ///< S = 1 - N_act / N_tot on non-embedding counts [2608.10605 §3]
    double splitFactorG = 0;  ///< G = d_ff / d_expert [2608.10605 App. A.1]; NaN if undefined
};

/// Counts the parameters of `g`. Per block: attention (by `attention` kind, with the biases and
/// norms the flags say), two block norms, then a dense FFN (dense blocks) or, in MoE blocks, E
/// routed experts + shared experts + router. Active = attention + dense FFN or (K routed +
/// shared experts + router). Embedding counts: token table, output head unless tied, learned
/// positions. Undefined G (no expert width or reference width) gives NaN. No errors: callers
/// validate the geometry first.
ParameterCounts countParameters(const ModelGeometry& g);

/// "standard" or "mla".
std::string attentionKindName(AttentionKind k);

/// "input_and_output" or "output_only".
std::string activeConventionName(ActiveEmbeddingConvention c);

}  // namespace tandem::io
