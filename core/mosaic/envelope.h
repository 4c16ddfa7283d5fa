#pragma once
// The MOSAIC search envelope: cluster, training window, batch, and the discrete grids searched
// [2608.10605 Table 3, Sec. 7.3]. Defaults reproduce Table 3: 32 p6-b200 nodes (256 B200),
// 20 days, eta_good 1, B_global 1024, T_seq 2048, q in {8..18}, K in {1,2,4,6,8},
// E in {4..512}, G in {1,2,4,8}, S >= 0.7, B_micro in {1,2,4}, four checkpointing modes,
// TPP in [40, 150].
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/field_table.h"
#include "common/json_reader.h"
#include "mosaic/background.h"
#include "mosaic/hardware.h"
#include "mosaic/scaling_law.h"
#include "mosaic/stack.h"
#include "mosaic/user_run.h"

namespace tandem::mosaic {

/// Activation checkpointing modes, from least to most recomputation (the enum order is the order
/// a search tries them in). None, Selective, SuperSelective and Full are the layout search's
/// modes [2608.10605 Sec. 5.2, Table 3]. CoreAttention recomputes only the attention core
/// (QK^T, softmax, its dropout and the product with V): the selective activation recomputation of
/// Korthikanti et al. 2022 [arXiv:2205.05198 Sec. 4.3], Megatron's `--recompute-granularity
/// selective` with its default module list `core_attn`. It saves memory only when the stack
/// materialises the attention scores (Stack::flashAttention false); it is not in the paper grid.
enum class Checkpointing { None, CoreAttention, Selective, SuperSelective, Full };
constexpr int kCheckpointingCount = 5;

/// "none", "core-attn", "selective", "super-selective", "full".
const char* checkpointingName(Checkpointing c);
/// Inverse of checkpointingName; returns false for an unknown name.
bool parseCheckpointing(const std::string& s, Checkpointing& out);

/// Which layouts a search enumerates (`layout_grid`; mosaic/layout_grid.h).
enum class LayoutGridRule {
    Auto,    ///< "auto": Listed when the cluster has a layout in the listed grids, else Derived
    Listed,  ///< "listed": exactly the listed TP/CP/PP/EP values; DP x B_micro must divide B_global
    Derived,  ///< "derived": PP and EP from the cluster's divisors; B_global rounded per layout
};

/// "auto", "listed", "derived".
const char* layoutGridRuleName(LayoutGridRule r);

struct Envelope {
    Hardware hardware =
        builtinHardware("p6-b200");  ///< JSON `hardware`: a built-in name or a full object
    /// nccl-tests output files whose curves replace the analytical collective model
    /// (`nccl_tests_files`, optional; mosaic/measured_collectives.h). readEnvelope only reads
    /// the names; loadScenarioFile / parseScenario resolve them (relative to the scenario's
    /// folder when loaded from a file), import them and set hardware.measured.
    std::vector<std::string> ncclTestsFiles;
    /// Hugging Face config files of models shown on the loss-vs-sparsity chart, each costed on
    /// this cluster (`imported_model_files`, optional; File > Import). Resolved like
    /// ncclTestsFiles; loadScenarioFile / parseScenario check that each one imports.
    std::vector<std::string> importedModelFiles;
    /// nccl-tests log shown on the GUI's "Measured collectives" page (`shown_nccl_tests_file`,
    /// optional; "" = none). Shown only: the costing uses ncclTestsFiles.
    std::string shownNcclTestsFile;
    /// The user's own runs imported from training logs (`measured_runs`, optional; File >
    /// Import of a training log): shown on the reality check as "yours" and what "Calibrate to
    /// these runs" fits (mosaic/user_runs.h). Their files are resolved like ncclTestsFiles.
    std::vector<UserRun> userRuns;
    int nodes = 32;  ///< `nodes`; devices = nodes x hardware.gpusPerNode
    /// Co-running jobs on the MoE job's fabric (`background`, optional; mosaic/background.h).
    /// Absent = an idle network and the analytical (or imported) collectives unchanged; present,
    /// clusterOf() attaches the co-run curves of that background to the hardware.
    std::optional<BackgroundLoad> background;
    double days = 20;        ///< T_train (`days`)
    double goodput = 1.0;    ///< eta_good in (0, 1] (`goodput`)
    int globalBatch = 1024;  ///< B_global in sequences (`global_batch_sequences`)
    int seqLen = 2048;       ///< T_seq (`seq_len_tokens`)
    /// Training stack (`stack`: "mosaic-paper", the default, or "megatron-core"; stack.h).
    Stack stack = mosaicPaperStack();
    Precision precision =
        Precision::Bf16;  ///< GEMM precision (`precision`: bf16, fp8, mxfp8, nvfp4)

    std::vector<int> qValues = {8, 10, 12, 14, 16, 18};  ///< `q_values`
    std::vector<int> topKValues = {1, 2, 4, 6, 8};       ///< `top_k_values`
    std::vector<int> expertValues = {4, 6, 8, 16, 24, 32, 48, 96, 128, 192, 256, 384, 512};
    std::vector<int> splitValues = {1, 2, 4, 8};  ///< `expert_split_values`
    double minSparsity = 0.7;                     ///< `min_sparsity`
    double tppMin = 40, tppMax = 150;  ///< `tokens_per_parameter_min` / `_max` [Sec. 7.3]

    std::vector<int> microBatchValues = {1, 2, 4};  ///< `micro_batch_values`
    std::vector<Checkpointing> checkpointing = {Checkpointing::None, Checkpointing::Selective,
                                                Checkpointing::SuperSelective,
                                                Checkpointing::Full};  ///< `checkpointing`
    std::vector<int> tpValues = {1, 2, 4, 8};                          ///< `tensor_parallel_values`
    std::vector<int> cpValues = {1, 2};                    ///< `context_parallel_values`
    std::vector<int> ppValues = {1, 2, 4, 8, 16};          ///< `pipeline_parallel_values`
    std::vector<int> epValues = {1, 2, 4, 8, 16, 32, 64};  ///< `expert_parallel_values`
    /// `layout_grid`: the listed values above (the paper's powers of two, B_global exact), the
    /// grid derived from the cluster (B_global rounded per layout), or auto (listed whenever the
    /// cluster has a layout in them, as the paper's envelopes do).
    LayoutGridRule layoutGrid = LayoutGridRule::Auto;

    /// Model-FLOPs budget C_model of the compute-optimal frontier (`compute_budget_flops`).
    /// 0 = follow the cluster: C_peak x eta_good x kAutoBudgetMfu (the MFU of Table 4's
    /// optimum, so that at the Table 3 envelope C_model = 1.23e23, the FLOPs Table 4 realizes).
    double computeBudgetFlops = 0;
    /// Sparsity grid (bin centres) of both frontiers, ascending (`frontier_sparsity`).
    std::vector<double> frontierSparsity = {0.70, 0.75, 0.80, 0.85, 0.875, 0.90, 0.915, 0.93,
                                            0.94, 0.95, 0.96, 0.97, 0.975, 0.98, 0.985};
    ScalingLaw law;  ///< Eq. 10 coefficients (`scaling_law`, Table 2 defaults)

    int devices() const { return nodes * hardware.gpusPerNode; }
    /// C_peak = F_peak N_dev T_train, FLOPs [2608.10605 Sec. 2.1].
    double peakBudgetFlops() const;
    /// Model FLOPs the cluster delivers in the window at `mfu`: C_peak eta_good MFU, FLOPs
    /// [2608.10605 Eq. 25's numerator, Fig. 1 caption].
    double deliverableModelFlops(double mfu) const;
    /// computeBudgetFlops, or the automatic value (deliverableModelFlops(kAutoBudgetMfu)) when
    /// it is 0.
    double modelBudgetFlops() const;
};

/// The MoE job's co-running jobs: `e.background` when set, else the idle default (a
/// default-constructed BackgroundLoad, zero jobs). The reference lives as long as `e` (or for
/// the whole program, for the default).
const BackgroundLoad& backgroundOrIdle(const Envelope& e);

/// Largest cluster and batch shape an envelope or `tandem-cli plan` accepts: 1e8 devices (the
/// largest clusters built hold ~1e5 GPUs), 2^24 sequences per step, 2^24 tokens per sequence.
constexpr int kMaxDevices = 100000000, kMaxGlobalBatch = 1 << 24, kMaxSeqLen = 1 << 24;

/// Longest list the reader accepts for any search axis (q, K, E, G, micro-batch, TP, CP, PP, EP,
/// checkpointing, frontier_sparsity): Table 3's grid has at most 13 values per axis; 64 covers any
/// realistic plan while keeping the search's Cartesian product from running for minutes.
constexpr size_t kMaxAxisValues = 64;
/// Largest expert count (`experts_values`) and expert-parallel degree: 8x the largest in the
/// paper's grid (512) and above any published MoE.
constexpr long long kMaxExperts = 4096;

/// MFU used for the automatic compute budget (Table 4's 12.38 %).
constexpr double kAutoBudgetMfu = 0.1238;

/// One key of the `mosaic` object (or of its `scaling_law` object) (tandem::Field,
/// common/field_table.h): the single definition its reader, writer and the MoE side panel's
/// boxes take the key, unit, range, meaning and source from. A number or integer key has `get`
/// and `set`; a set of integer search values (`maxItems` entries at most) and every key of
/// another shape (hardware, background, devices, stack, precision, the checkpointing,
/// layout-grid and frontier lists) has its own `read` and `write` (no `write`: read only).
/// Table order is the order writeEnvelope writes and readEnvelope reads; the `scaling_law` keys
/// are consecutive, at the end.
using EnvelopeField = tandem::Field<Envelope>;

/// Every key of the `mosaic` object in canonical order (see EnvelopeField). Ranges: nodes in
/// [1, 1e5], devices in [1, kMaxDevices], days in (0, 3650], goodput in (0, 1],
/// global_batch_sequences in [1, kMaxGlobalBatch], seq_len_tokens in [1, kMaxSeqLen],
/// q_values [1, 64], top_k_values [1, 1024], experts_values [1, 4096], expert_split_values
/// [1, 1280], min_sparsity [0, 1), tokens_per_parameter_min / _max (0, 1e6],
/// micro_batch_values [1, 4096], tensor / context / pipeline_parallel_values [1, 1024],
/// expert_parallel_values [1, 4096], compute_budget_flops >= 0; scaling_law a, b, alpha, beta
/// > 0, c, j, e, lambda, delta, gamma >= 0, eta in (0, 4].
const std::vector<EnvelopeField>& envelopeFields();

/// The row of `path`: a top-level key ("days") or section and key joined by a dot
/// ("scaling_law.eta"). Throws std::invalid_argument naming `path` when the table has no such
/// key (a wrong key in the caller's code).
const EnvelopeField& envelopeField(const std::string& path);

/// Reads the `mosaic` object (every key optional, defaults above); type, range and unit checks;
/// cross-field checks (every K has some E >= K, G divides d_ff on every rung, `devices` when
/// given equals nodes x gpus_per_node, tokens_per_parameter_min <= _max, frontier grid
/// ascending). Every list of search values is a set: at most 64 entries, none repeated
/// ("duplicate value X" at key[i]); experts_values and expert_parallel_values <= 4096. An
/// empty `hardware` object is refused (name a built-in or give the fields).
/// scaling_law.eta must be in (0, 4]. Errors go to r.diagnostics() with JSON paths; then
/// r.finish().
void readEnvelope(JsonReader& r, Envelope& e);

/// Writes every key (hardware as its name when it equals the built-in of that name);
/// `nccl_tests_files` only when it is not empty and `background` only when set, so analytical
/// scenarios keep their bytes.
nlohmann::ordered_json writeEnvelope(const Envelope& e);

/// The identity of what a result computed from an envelope depends on: everything the scenario
/// writes of it (writeEnvelope) and its measured collective curves by identity. The key holds the
/// curves, so while it lives no other curves can take their address; equal keys give equal
/// results. Caches of searches (the MoE workspace) and of costings (mosaic::search) use it.
struct EnvelopeKey {
    std::string inputs;  ///< writeEnvelope(...).dump() of the fields the result reads
    std::shared_ptr<const MeasuredCollectives> curves;  ///< hardware.measured (may be null)
    bool operator==(const EnvelopeKey& o) const { return curves == o.curves && inputs == o.inputs; }
    bool operator!=(const EnvelopeKey& o) const { return !(*this == o); }
};

/// The key of a whole search of `e` (every field).
EnvelopeKey searchKey(const Envelope& e);

/// The key of the costing of `e`'s geometries: the fields only the scoring of candidates reads
/// (T_train, goodput, the TPP bounds, C_model, Eq. 10's coefficients, the frontier bins) at
/// their defaults, so a change of those (a slider) finds the same costing.
EnvelopeKey costingKey(const Envelope& e);

}  // namespace tandem::mosaic
