#pragma once
// MoE geometry: the ladder q -> (L, n_head, d, d_ff), the MoE axes (E, K, G) and the parameter
// counts N_act, N_tot, S [2608.10605 Sec. 3.4, 7.1, App. A.1, Table 9].
//
// Counting convention (reproduces Table 9 and Table 5 to < 0.3 %; see docs/MODEL-MOSAIC.md):
//   non-embedding parameters only; norms and the per-head attention gate are not counted;
//   attention  = Q (d x d) + O (d x d) + K, V (d x n_kv d_head each), n_kv = 8 KV heads
//                (grouped-query attention as in the paper's App. E listing);
//   dense FFN  = SwiGLU, 3 d d_ff (GeLU: 2 d d_ff, Geometry::denseFfnMatrices),
//                in the `denseLayers` leading blocks (1 on the ladder);
//   MoE block  = E routed + `sharedExperts` shared SwiGLU experts of width d_expert
//                (3 d d_expert each) + router d x E;
//   N_tot counts all of it; N_act counts attention, the dense FFN, K routed + the shared
//   experts, and the router. S = 1 - N_act / N_tot.
#include <string>

namespace tandem::mosaic {

/// One realizable model geometry. Widths are element counts; nAct / nTot are non-embedding
/// parameter counts (raw, not billions); sparsity in [0, 1). A dense model has experts = 0.
struct Geometry {
    int layers = 0;   ///< L_layers, transformer blocks
    int dModel = 0;   ///< d, residual width
    int nHead = 0;    ///< query heads
    int nKvHead = 0;  ///< key/value heads (GQA)
    /// Query/key/value head width; 0 = d / nHead (the ladder). Set when heads x head width
    /// differs from d (Qwen3: 32 x 128 on d = 2048; gpt-oss: 64 x 64 on d = 2880).
    int headDim = 0;
    int dFf = 0;  ///< d_ff, reference dense FFN width (also the dense blocks' width)
    /// Weight matrices of a dense FFN block: 3 = SwiGLU (gate, up, down; 3 d d_ff), 2 = GeLU
    /// MLP of GPT-2/3 (up, down; 2 d d_ff). Experts are SwiGLU in every case.
    int denseFfnMatrices = 3;
    int experts = 0;        ///< E routed experts per MoE block (0 = dense model)
    int topK = 0;           ///< K routed experts per token
    int splitG = 0;         ///< G = d_ff / d_expert (0 when undefined)
    int dExpert = 0;        ///< d_expert, hidden width of one routed (and shared) expert
    int sharedExperts = 0;  ///< always-active shared experts per MoE block
    int denseLayers = 0;    ///< leading blocks with a dense FFN
    int vocab = 0;          ///< vocabulary (embedding and untied LM head, not in nAct/nTot)
    double nAct = 0;        ///< active non-embedding parameters per token
    double nTot = 0;        ///< total non-embedding parameters
    double sparsity = 0;    ///< S = 1 - nAct / nTot
    // What the model's description states about the parts a launch script must name
    // (megatronArguments); none of it is costed. -1 / 0 = not stated: no flag is written.
    int rmsNorm = -1;         ///< 1 = RMSNorm, 0 = LayerNorm
    int rotary = -1;          ///< 1 = rotary positions (RoPE), 0 = learned absolute positions
    double ropeTheta = 0;     ///< RoPE base (rope_theta); 0 = not stated
    int tiedEmbeddings = -1;  ///< 1 = output head tied to the token embedding, 0 = separate
    /// Biases of the linear layers: 0 = none, 1 = on Q, K, V only, 2 = others too.
    int linearBias = -1;
    int qkNorm = -1;  ///< 1 = per-head norms on Q and K, 0 = none
    /// Attention: 1 = multi-head latent attention (MLA, DeepSeek-V2/V3), 0 = standard
    /// (GQA/MHA), -1 = not stated. MLA is costed as standard attention with nKvHead = nHead.
    int mla = -1;
    // MLA widths from the description (elements; 0 = not stated). qLoraRank 0 with mla = 1 is
    // a full-rank query projection (q_lora_rank null, as in DeepSeek-V2-Lite).
    int qLoraRank = 0;      ///< q_lora_rank, query compression rank
    int kvLoraRank = 0;     ///< kv_lora_rank, compressed key/value rank
    int qkNopeHeadDim = 0;  ///< qk_nope_head_dim, non-rotary part of each Q/K head
    int qkRopeHeadDim = 0;  ///< qk_rope_head_dim, rotary part of each Q/K head
    int vHeadDim = 0;       ///< v_head_dim, value head width
};

/// Head width of the ladder [2608.10605 Sec. 7.1].
constexpr int kLadderHeadDim = 128;
/// KV heads used by the counting convention [2608.10605 App. E listing: n_kv_heads 8].
constexpr int kLadderKvHeads = 8;
/// GPT-2 vocabulary [2608.10605 App. A.1].
constexpr int kGpt2Vocab = 50257;

/// Ladder rung q with MoE axes (E, K, G): L = 4q, n_head = 4q, d = 128 n_head, d_ff = 2.5 d,
/// d_expert = d_ff / G (integer division), one shared expert, first block dense, n_kv = 8
/// [2608.10605 Sec. 7.1, App. A.1]. Counts are filled by countParameters. No checks: q >= 1,
/// E >= K >= 1, G >= 1 are the caller's job.
Geometry ladderGeometry(int q, int experts, int topK, int splitG, int vocab = kGpt2Vocab);

/// A dense transformer: `layers` blocks of width d = `dModel`, `heads` query and `kvHeads`
/// key/value heads (head width d / heads), every block a SwiGLU FFN of width `ffn`, `vocab`
/// tokens. Counts are filled by countParameters. No checks (the caller's numbers are a
/// published model's). Callers change what differs (experts, head width, GeLU) and count again.
Geometry denseGeometry(int layers, int dModel, int heads, int kvHeads, int ffn, int vocab);

/// Fills nAct, nTot, sparsity of `g` from its widths with the convention above. Dense models
/// (experts == 0): every FFN is dense, nAct == nTot, S = 0.
void countParameters(Geometry& g);

/// Attention parameters of one block (Q, K, V, O), elements.
double attentionParams(const Geometry& g);
/// One SwiGLU expert (3 d d_expert), elements.
double expertParams(const Geometry& g);
/// Dense FFN, denseFfnMatrices x d x d_ff elements (SwiGLU 3 d d_ff, GeLU 2 d d_ff).
double denseFfnParams(const Geometry& g);
/// MoE blocks (layers - denseLayers; 0 for a dense model).
int moeLayers(const Geometry& g);

/// Short label, e.g. "L48 d6144 E96 K2 G4".
std::string geometryLabel(const Geometry& g);

}  // namespace tandem::mosaic
