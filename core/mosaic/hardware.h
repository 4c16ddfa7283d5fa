#pragma once
// Device and node description used by the MOSAIC performance model [2608.10605 Sec. 5,
// Table 3; MODEL.md B4]. Defaults are compiled in (the p6-b200 node the paper uses); the files
// in resources/hardware/ carry the same values with sources and may override them.
// SI units inside (FLOP/s, bytes, bytes/s, s); JSON keys carry units.
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
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

    int gpusPerNode = 8;          ///< GPUs in one NVLink domain (`gpus_per_node`)
    double peakFlops = 2.25e15;   ///< dense BF16 FLOP/s per GPU (`peak_bf16_TFLOPs_per_s`)
    double memoryBytes = 179e9;   ///< usable device memory (`memory_usable_GB`) [Table 3]
    double hbmBytesPerS = 8e12;   ///< HBM bandwidth (`hbm_GBps`)
    double nvlinkBytesPerS = 900e9;  ///< NVLink per GPU, one direction (`nvlink_GBps`)
    double nicBytesPerS = 50e9;      ///< scale-out NIC per GPU (`nic_Gbps_per_gpu`, 400 Gb/s)

    // Collectives: t = latency + bytes x factor / (bus bandwidth x efficiency x ramp(bytes)),
    // ramp(x) = x / (x + rampHalfBytes) [nccl-tests bus-bandwidth convention].
    double intraLatencyS = 12e-6;      ///< per collective inside a node (`intra_latency_us`)
    double interLatencyS = 35e-6;      ///< per collective across nodes (`inter_latency_us`)
    double intraBusEfficiency = 0.80;  ///< achieved / link bus bandwidth, NVLink
    double interBusEfficiency = 0.90;  ///< achieved / NIC bandwidth, scale-out
    double rampHalfBytes = 4e6;        ///< message size at half efficiency (`ramp_half_MB`)

    // GEMM efficiency (fraction of peak): eff = max * M/(M + mHalf) * w/(w + wHalf), w the
    // narrower weight dimension [DeepGEMM README points; Calculon H100 steps; 2608.10605 Sec. 5.3].
    double denseGemmMax = 0.80;      ///< large dense GEMM
    double denseMHalf = 48;          ///< rows (tokens) at half efficiency, dense GEMM
    double denseWidthHalf = 256;     ///< weight width at half efficiency, dense GEMM
    double groupedGemmMax = 0.80;    ///< grouped GEMM, large per-expert tile
    double groupedMHalf = 320;       ///< per-expert tile M at half efficiency
    double groupedWidthHalf = 4200;  ///< expert width d_expert at half efficiency
    double attentionEfficiency = 0.45;  ///< flash attention fwd+bwd, fraction of peak
    double elementwiseBytesPerTokenPerD = 40;  ///< HBM bytes per token per d of fused pointwise ops
    /// Allocator fragmentation and framework buffers, as a multiple of the activation bytes
    /// (`activation_memory_factor`); calibrated, see docs/MODEL-MOSAIC.md.
    double activationMemoryFactor = 1.0;

    // CPU dispatch floor [2608.10605 Eq. 11]: t_disp = L_stage (k0 + k1 E_loc) t_gap + t_host.
    double kernelsBase = 642;            ///< k0, kernels per layer per microbatch (fwd + bwd)
    double kernelsPerLocalExpert = 7.29; ///< k1
    double dispatchGapS = 27e-6;         ///< t_gap, per-kernel CPU enqueue stall (B200)
    double hostPerMicrobatchS = 0.0;     ///< t_host per microbatch (our reading: 0, see docs)
    double hostPerIterationS = 24e-3;    ///< host term once per iteration
    double hostPerMoeLayerS = 10e-3;     ///< + per MoE layer of a stage, per iteration, if EP > 1

    // chi_sys calibration [2608.10605 Eq. 15].
    double cA2A = 1.2, cPP = 0.5, cOvl = -0.18, chiFloor = 0.5;

    /// Measured nccl-tests curves used in place of the analytical collective model
    /// (mosaic/measured_collectives.h; scenario key `mosaic.nccl_tests_files`, CLI `plan
    /// --nccl`). nullptr (the default) = analytical. Shared and immutable, so copies are cheap;
    /// not part of the hardware JSON (readHardware / writeHardware ignore it).
    std::shared_ptr<const MeasuredCollectives> measured;
};

/// Names of the compiled-in hardware: "p6-b200", "h100", "h200", "gb200-nvl72", "a100".
std::vector<std::string> hardwareNames();

/// Compiled-in hardware by name; throws std::invalid_argument for an unknown name (the
/// message lists the known names).
Hardware builtinHardware(const std::string& name);

/// Reads a hardware object (every key optional; defaults from the built-in named by `name`
/// when given, else p6-b200). Errors carry JSON paths in r.diagnostics(); calls r.finish().
Hardware readHardware(JsonReader& r);

/// Writes every key of `h` with units in the key names.
nlohmann::ordered_json writeHardware(const Hardware& h);

}  // namespace tandem::mosaic
