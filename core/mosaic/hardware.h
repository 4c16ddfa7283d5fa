#pragma once
// Device and node description used by the MOSAIC performance model [2608.10605 Sec. 5,
// Table 3; MODEL.md B4]. Defaults are compiled in (the p6-b200 node the paper uses); the files
// in resources/hardware/ carry the same values with sources and may override them.
// SI units inside (FLOP/s, bytes, bytes/s, s); JSON keys carry units.
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tandem {
class JsonReader;
}

namespace tandem::mosaic {

class MeasuredCollectives;

/// One accelerator type in its node. Efficiency constants are Tandem's analytical defaults,
/// calibrated to published points (docs/MODEL-MOSAIC.md, "Calibration").
struct Hardware {
    std::string name = "p6-b200";  ///< key used by envelopes and `--hardware`
    std::string description = "AWS p6-b200.48xlarge: 8 x NVIDIA B200, NVLink 5, 8 x 400 Gb/s EFA";
    std::vector<std::string> sources;  ///< where each number comes from (URLs, paper refs)

    int gpusPerNode = 8;         ///< GPUs in one NVLink domain (`gpus_per_node`)
    double peakFlops = 2.25e15;  ///< dense BF16 FLOP/s per GPU (`peak_bf16_TFLOPs_per_s`)
    /// Dense FP8 and FP4 tensor-core FLOP/s per GPU (`peak_fp8_TFLOPs_per_s`,
    /// `peak_fp4_TFLOPs_per_s`); 0 = the precision is not supported by the device.
    double peakFp8Flops = 4.5e15, peakFp4Flops = 9e15;
    double memoryBytes = 179e9;  ///< usable device memory (`memory_usable_GB`) [Table 3]
    /// HBM capacity per GPU as the vendor states it (`memory_capacity_GB`; informational, the
    /// model plans with memoryBytes). 0 = not stated.
    double memoryCapacityBytes = 180e9;
    double hbmBytesPerS = 8e12;      ///< HBM bandwidth (`hbm_GBps`)
    double nvlinkBytesPerS = 900e9;  ///< NVLink per GPU, one direction (`nvlink_GBps`)
    double nicBytesPerS = 50e9;      ///< scale-out NIC per GPU (`nic_Gbps_per_gpu`, 400 Gb/s)

    // Collectives: t = latency + bytes x factor / (bus bandwidth x efficiency x ramp(bytes)),
    // ramp(x) = x / (x + rampHalfBytes) [nccl-tests bus-bandwidth convention].
    double intraLatency_s = 12e-6;  ///< per collective inside a node (`intra_latency_us`)
    /// Fixed start-up of a collective across nodes (`inter_latency_us`); NCCL's per-step
    /// latencies come on top (mosaic/collectives.h). Fitted per scale-out network to the shipped
    /// nccl-tests logs (hardware.cpp); 35 us on p6-b200, the paper's node, which has no log.
    double interLatency_s = 35e-6;
    double intraBusEfficiency = 0.80;  ///< achieved / link bus bandwidth, NVLink
    double interBusEfficiency = 0.90;  ///< achieved / NIC line rate across nodes (fitted, as above)
    double rampHalfBytes = 4e6;        ///< message size at half efficiency (`ramp_half_MB`)
    /// NVLink SHARP (NVLS, in-switch reduction) for all-reduce inside one NVLink domain
    /// (`nvls_efficiency`): NCCL's nvlsEfficiency, the share of the NVLink rate its NVLS model
    /// credits (0.85 Hopper, 0.74 Blackwell [NVIDIA/nccl src/graph/tuning.cc, nvls.cc]); 0 = no
    /// NVLS, the default on every built-in (no shipped log measures it; docs/MODEL-NETWORK.md
    /// section 4). Written to a hardware file only when set.
    double nvlsEfficiency = 0.0;
    /// In-network reduction on the scale-out fabric (InfiniBand SHARP, NCCL's CollNet; `sharp`):
    /// an all-reduce across nodes may send each byte through the network once instead of
    /// 2(n-1)/n times. Off on every built-in; written to a hardware file only when on.
    bool sharp = false;
    /// Share of the NIC line rate NCCL's all-to-all reaches across nodes
    /// (`alltoall_nic_efficiency`): its direct point-to-point sends carry no reduction and no
    /// ring or tree dependency, so a measured cluster can run them nearer the line rate than
    /// its ring and tree kernels (the H100 10 x 8 logs: all-to-all 0.92 of the line rate, ring
    /// 0.80; docs/MODEL-NETWORK.md section 4). 0 = interBusEfficiency, the default on every
    /// built-in. Written to a hardware file only when set.
    double alltoallNicEfficiency = 0.0;

    // GEMM efficiency (fraction of peak): eff = max * M/(M + mHalf) * w/(w + wHalf), w the
    // narrower weight dimension [2608.10605 Sec. 5.3]. Fitted jointly (docs/MODEL-MOSAIC.md,
    // "Calibration") to the paper's published points: Table 5's predicted MFUs with ID3/ID4
    // on the Eq. 11 dispatch floor, Table 4's optimum costed at 12.38 %, Fig. 10's MFU spread
    // (G = 2 median 13-20 %, G = 8 ~8 %) and Fig. 8 right; shapes follow DeepGEMM's grouped
    // GEMM points (efficiency rises steeply with the per-group M, narrow experts lower it).
    /// Large dense GEMM (fwd + dgrad + wgrad of a TE Linear in the paper's unfused Megatron
    /// stack): 0.61 x 8192/(8192 + 800) = 0.56 of the 2.25 PFLOP/s spec at B_micro 4 before the
    /// width term. A ceiling of 0.8 would run wide dense-dominated geometries (attention ~ d^2,
    /// shared expert) at ~75 % and reach 25-34 % MFU on the Table 3 envelope, above the 19.5 %
    /// Fig. 10 reports as the largest (1.94e23 model FLOPs out of 9.95e23).
    double denseGemmMax = 0.61;
    double denseMHalf = 800;      ///< rows (tokens) at half efficiency, dense GEMM
    double denseWidthHalf = 256;  ///< weight width at half efficiency, dense GEMM
    /// Grouped GEMM ceiling, below the dense one (TE GroupedLinear: one GEMM per local expert).
    /// With groupedMHalf and groupedWidthHalf it gives 0.47 x 171/271 x 3840/6940 = 0.16 for
    /// Table 4's optimum (tile 171, d_expert 3840) and 0.13 for Table 5 ID1 (tile 128, 3200).
    double groupedGemmMax = 0.47;
    double groupedMHalf = 100;          ///< per-expert tile M at half efficiency
    double groupedWidthHalf = 3100;     ///< expert width d_expert at half efficiency
    double attentionEfficiency = 0.40;  ///< flash attention fwd+bwd, fraction of peak
    /// HBM bytes per token per d of the pointwise ops of one layer, fwd + bwd (RMSNorms, residual
    /// adds, RoPE, attention gate, SwiGLU of shared and routed experts, router, permutation):
    /// ~100 bf16 d-vector passes, the stack runs them unfused [2608.10605 App. F.3].
    double elementwiseBytesPerTokenPerD = 215;
    /// Allocator fragmentation and framework buffers, as a multiple of the activation bytes
    /// (`activation_memory_factor`); 1.3, fitted with the GEMM constants above.
    double activationMemoryFactor = 1.3;

    // CPU dispatch floor [2608.10605 Eq. 11]: t_disp = L_stage (k0 + k1 E_loc) t_gap + t_host.
    double kernelsBase = 642;             ///< k0, kernels per layer per microbatch (fwd + bwd)
    double kernelsPerLocalExpert = 7.29;  ///< k1
    double dispatchGap_s = 27e-6;         ///< t_gap, per-kernel CPU enqueue stall (B200)
    /// t_host, once per microbatch as Eq. 11 prints it ("a fixed per-microbatch host term";
    /// released value 24 ms). Charged per microbatch it puts Fig. 8 right at G = 8 in band
    /// (2.31, paper 2.66) and keeps Table 5 ID3/ID4 in band.
    double hostPerMicrobatch_s = 24e-3;
    /// Host term once per iteration; 0, as Eq. 11 charges it per microbatch.
    double hostPerIteration_s = 0.0;
    double hostPerMoeLayer_s = 10e-3;  ///< + per MoE layer of a stage, per iteration, if EP > 1

    // chi_sys calibration [2608.10605 Eq. 15].
    double cA2A = 1.2, cPP = 0.5, cOvl = -0.18, chiFloor = 0.5;

    /// Measured nccl-tests curves used in place of the analytical collective model
    /// (mosaic/measured_collectives.h; scenario key `mosaic.nccl_tests_files`, CLI `plan
    /// --nccl`). nullptr (the default) = analytical. Shared and immutable, so copies are cheap;
    /// not part of the hardware JSON (readHardware / writeHardware ignore it).
    std::shared_ptr<const MeasuredCollectives> measured;
};

/// Names of the compiled-in hardware, in table order: "p6-b200", "dgx-b200", "dgx-b300",
/// "gb200-nvl72", "gb300-nvl72", "h100" (DGX H100), "h200" (DGX H200), "a100" (AWS p4de),
/// "dgx-a100", "p5-efa" (AWS p5), "a3-mega" (Google Cloud A3 Mega). Aliases (hardwareAliases)
/// are not listed.
std::vector<std::string> hardwareNames();
/// Other names accepted for a built-in: {alias, name}: "dgx-h100" and "h100-ib-8x400g" (h100),
/// "dgx-h200" (h200), "p4de-efa" (a100).
std::vector<std::pair<std::string, std::string>> hardwareAliases();
/// hardwareNames() joined with ", ", each alias in parentheses after its name, for messages and
/// help texts.
std::string hardwareNameList();
/// True for a built-in name or alias.
bool isBuiltinHardware(const std::string& name);

/// Compiled-in hardware by name or alias (an alias gives the built-in under its own name, e.g.
/// "dgx-h100" gives "h100"); throws std::invalid_argument for an unknown name (the message
/// lists the known names).
Hardware builtinHardware(const std::string& name);

/// What a node's scale-out constants (interLatency_s, interBusEfficiency) were fitted on: the
/// network's name, the node counts of the fitted nccl-tests runs, and the smallest size fitted.
struct NetworkFitScope {
    std::string network;  ///< e.g. "InfiniBand"
    int minNodes = 0, maxNodes = 0;
    double minBytes = 0;  ///< bytes per rank; smaller sizes were not fitted
};

/// The fit scope of `hw`'s scale-out constants: a built-in (by name) whose network keys
/// (gpus_per_node, nic_Gbps_per_gpu, inter_latency_us, inter_bus_efficiency) are the built-in's
/// and were fitted to logs (docs/MODEL-NETWORK.md section 4). nullopt for p6-b200 (calibrated
/// to the paper, no log), an unknown name, or a hardware file that changed any of those keys.
std::optional<NetworkFitScope> networkFitScope(const Hardware& hw);

/// A sentence naming the extrapolation when collectives across `nodes` nodes of `hw` are costed
/// outside what its scale-out constants were fitted on (no fitted log, or a node count outside
/// the fitted runs'); "" within the scope or for one node.
std::string networkExtrapolation(const Hardware& hw, int nodes);

/// Reads a hardware object (every key optional; defaults from the built-in named by `name`
/// when given, else p6-b200). Errors carry JSON paths in r.diagnostics(); calls r.finish().
Hardware readHardware(JsonReader& r);

/// Writes every key of `h` with units in the key names.
nlohmann::ordered_json writeHardware(const Hardware& h);

}  // namespace tandem::mosaic
