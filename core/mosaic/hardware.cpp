#include "mosaic/hardware.h"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "common/json_reader.h"

namespace tandem::mosaic {
namespace {

std::string toPrecision(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.12g", v);
    return buf;
}

const char* kPaper = "arXiv:2608.10605 Sec. 5, Table 3 (B200 2.25 PFLOP/s dense BF16, 179 GB usable)";
const char* kGpusJson = "stas00/ml-engineering compute/accelerator/README.md @7bc7c305 (dense TFLOPS, HBM)";
const char* kNvlink = "stas00/ml-engineering network/README.md @29c6b708 (NVLink generations, node NICs)";
const char* kCalib = "efficiency constants: Tandem calibration, docs/MODEL-MOSAIC.md";

Hardware p6b200() {
    Hardware h;
    h.sources = {kPaper, "https://aws.amazon.com/ec2/instance-types/p6/ (8 x 400 Gb/s EFA v4)",
                 kGpusJson, kNvlink, kCalib};
    return h;
}

Hardware h100() {
    Hardware h;
    h.name = "h100";
    h.description = "8 x H100 SXM5 80 GB (DGX H100 / AWS p5): NVLink 4, 8 x 400 Gb/s";
    h.sources = {"https://www.nvidia.com/en-us/data-center/h100/", kGpusJson, kNvlink,
                 "nccl-tests H100 2x8 all-reduce busbw peak 487 GB/s; 10x8 all-to-all ~50 GB/s",
                 kCalib};
    h.peakFlops = 989e12;
    h.memoryBytes = 76e9;
    h.hbmBytesPerS = 3.35e12;
    h.nvlinkBytesPerS = 450e9;
    h.nicBytesPerS = 50e9;
    // NVLink 4 + NVSwitch (NVLS) all-reduce inside a node reaches 460-480 GB/s bus bandwidth,
    // the 450 GB/s link rate; 1.0 puts the pipelined 2x8 model at 482 GB/s (measured 487).
    h.intraBusEfficiency = 1.0;
    // Size ramp fitted to the H100 and A100 nccl-tests logs (1 MiB up, log busbw error).
    h.rampHalfBytes = 20e6;
    h.dispatchGapS = 30e-6;
    return h;
}

Hardware h200() {
    Hardware h = h100();
    h.name = "h200";
    h.description = "8 x H200 SXM 141 GB (DGX H200): NVLink 4, 8 x 400 Gb/s";
    h.sources = {"https://www.nvidia.com/en-us/data-center/h200/", kGpusJson, kNvlink, kCalib};
    h.memoryBytes = 135e9;
    h.hbmBytesPerS = 4.8e12;
    return h;
}

Hardware gb200() {
    Hardware h;
    h.name = "gb200-nvl72";
    h.description = "GB200 NVL72 rack: 72 Blackwell GPUs in one NVLink 5 domain, 400 Gb/s per GPU";
    h.sources = {"https://www.nvidia.com/en-us/data-center/gb200-nvl72/", kGpusJson, kNvlink,
                 "coreweave/nccl-tests README (GB200 18x4 and 36x4 all-reduce)", kCalib};
    h.gpusPerNode = 72;
    h.peakFlops = 2.5e15;
    h.memoryBytes = 184e9;
    h.hbmBytesPerS = 8e12;
    h.nvlinkBytesPerS = 900e9;
    h.nicBytesPerS = 50e9;
    return h;
}

Hardware a100() {
    Hardware h;
    h.name = "a100";
    h.description = "8 x A100 SXM4 80 GB (AWS p4de): NVLink 3, 4 x 100 Gb/s EFA";
    h.sources = {"https://www.nvidia.com/en-us/data-center/a100/", kGpusJson, kNvlink,
                 "nccl-tests A100 2x8 all-reduce (aws-samples/awsome-distributed-training)",
                 kCalib};
    h.peakFlops = 312e12;
    h.memoryBytes = 76e9;
    h.hbmBytesPerS = 2.0e12;
    h.nvlinkBytesPerS = 300e9;
    h.nicBytesPerS = 6.25e9;
    h.rampHalfBytes = 20e6;  // fitted with the H100 ramp (see h100())
    h.dispatchGapS = 35e-6;
    return h;
}

// Unit conversions at the edge (x 1e6 etc.) can leave a last-bit residue; 12 significant
// digits keep written files clean and make write -> read -> write stable.
// std::strtod, not std::stod: stod throws out_of_range on subnormal values (e.g. 1e-310 from a
// hardware file), which aborted tandem-cli run and the GUI's save.
double tidy(double v) { return std::strtod(toPrecision(v).c_str(), nullptr); }

}  // namespace

std::vector<std::string> hardwareNames() { return {"p6-b200", "h100", "h200", "gb200-nvl72", "a100"}; }

Hardware builtinHardware(const std::string& name) {
    if (name == "p6-b200") return p6b200();
    if (name == "h100") return h100();
    if (name == "h200") return h200();
    if (name == "gb200-nvl72") return gb200();
    if (name == "a100") return a100();
    std::string known;
    for (const auto& n : hardwareNames()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown hardware \"" + name + "\" (known: " + known + ")");
}

Hardware readHardware(JsonReader& r) {
    const auto names = hardwareNames();
    const std::string base = r.string("name", "p6-b200");
    Hardware h;
    bool known = false;
    for (const auto& n : names) known = known || n == base;
    h = known ? builtinHardware(base) : p6b200();
    h.name = base;
    h.description = r.string("description", h.description);
    h.sources = r.strings("sources", h.sources);
    const auto pos = Range::positive();
    h.gpusPerNode = int(r.integer("gpus_per_node", h.gpusPerNode, Range::closed(1, 1024)));
    h.peakFlops = r.number("peak_bf16_TFLOPs_per_s", h.peakFlops / 1e12, pos) * 1e12;
    h.memoryBytes = r.number("memory_usable_GB", h.memoryBytes / 1e9, pos) * 1e9;
    h.hbmBytesPerS = r.number("hbm_GBps", h.hbmBytesPerS / 1e9, pos) * 1e9;
    h.nvlinkBytesPerS = r.number("nvlink_GBps", h.nvlinkBytesPerS / 1e9, pos) * 1e9;
    h.nicBytesPerS = r.number("nic_Gbps_per_gpu", h.nicBytesPerS * 8 / 1e9, pos) * 1e9 / 8;
    h.intraLatencyS = r.number("intra_latency_us", h.intraLatencyS * 1e6, Range::nonNegative()) / 1e6;
    h.interLatencyS = r.number("inter_latency_us", h.interLatencyS * 1e6, Range::nonNegative()) / 1e6;
    const auto frac = Range{0.0, 1.0, true, false};
    h.intraBusEfficiency = r.number("intra_bus_efficiency", h.intraBusEfficiency, frac);
    h.interBusEfficiency = r.number("inter_bus_efficiency", h.interBusEfficiency, frac);
    h.rampHalfBytes = r.number("ramp_half_MB", h.rampHalfBytes / 1e6, Range::nonNegative()) * 1e6;
    h.denseGemmMax = r.number("dense_gemm_max_efficiency", h.denseGemmMax, frac);
    h.denseMHalf = r.number("dense_gemm_m_half", h.denseMHalf, Range::nonNegative());
    h.denseWidthHalf = r.number("dense_gemm_width_half", h.denseWidthHalf, Range::nonNegative());
    h.groupedGemmMax = r.number("grouped_gemm_max_efficiency", h.groupedGemmMax, frac);
    h.groupedMHalf = r.number("grouped_gemm_m_half", h.groupedMHalf, Range::nonNegative());
    h.groupedWidthHalf = r.number("grouped_gemm_width_half", h.groupedWidthHalf, Range::nonNegative());
    h.attentionEfficiency = r.number("attention_efficiency", h.attentionEfficiency, frac);
    h.elementwiseBytesPerTokenPerD =
        r.number("elementwise_bytes_per_token_per_d", h.elementwiseBytesPerTokenPerD, Range::nonNegative());
    h.activationMemoryFactor = r.number("activation_memory_factor", h.activationMemoryFactor, Range::positive());
    h.kernelsBase = r.number("dispatch_kernels_per_layer", h.kernelsBase, Range::nonNegative());
    h.kernelsPerLocalExpert =
        r.number("dispatch_kernels_per_local_expert", h.kernelsPerLocalExpert, Range::nonNegative());
    h.dispatchGapS = r.number("dispatch_gap_us", h.dispatchGapS * 1e6, Range::nonNegative()) / 1e6;
    h.hostPerMicrobatchS = r.number("host_per_microbatch_ms", h.hostPerMicrobatchS * 1e3, Range::nonNegative()) / 1e3;
    h.hostPerIterationS = r.number("host_per_iteration_ms", h.hostPerIterationS * 1e3, Range::nonNegative()) / 1e3;
    h.hostPerMoeLayerS = r.number("host_per_moe_layer_ms", h.hostPerMoeLayerS * 1e3, Range::nonNegative()) / 1e3;
    h.cA2A = r.number("chi_c_a2a", h.cA2A);
    h.cPP = r.number("chi_c_pp", h.cPP);
    h.cOvl = r.number("chi_c_ovl", h.cOvl);
    h.chiFloor = r.number("chi_floor", h.chiFloor, Range::positive());
    r.finish();
    return h;
}

nlohmann::ordered_json writeHardware(const Hardware& h) {
    nlohmann::ordered_json j;
    j["name"] = h.name;
    j["description"] = h.description;
    j["sources"] = h.sources;
    j["gpus_per_node"] = h.gpusPerNode;
    j["peak_bf16_TFLOPs_per_s"] = tidy(h.peakFlops / 1e12);
    j["memory_usable_GB"] = tidy(h.memoryBytes / 1e9);
    j["hbm_GBps"] = tidy(h.hbmBytesPerS / 1e9);
    j["nvlink_GBps"] = tidy(h.nvlinkBytesPerS / 1e9);
    j["nic_Gbps_per_gpu"] = tidy(h.nicBytesPerS * 8 / 1e9);
    j["intra_latency_us"] = tidy(h.intraLatencyS * 1e6);
    j["inter_latency_us"] = tidy(h.interLatencyS * 1e6);
    j["intra_bus_efficiency"] = h.intraBusEfficiency;
    j["inter_bus_efficiency"] = h.interBusEfficiency;
    j["ramp_half_MB"] = tidy(h.rampHalfBytes / 1e6);
    j["dense_gemm_max_efficiency"] = h.denseGemmMax;
    j["dense_gemm_m_half"] = h.denseMHalf;
    j["dense_gemm_width_half"] = h.denseWidthHalf;
    j["grouped_gemm_max_efficiency"] = h.groupedGemmMax;
    j["grouped_gemm_m_half"] = h.groupedMHalf;
    j["grouped_gemm_width_half"] = h.groupedWidthHalf;
    j["attention_efficiency"] = h.attentionEfficiency;
    j["elementwise_bytes_per_token_per_d"] = h.elementwiseBytesPerTokenPerD;
    j["activation_memory_factor"] = h.activationMemoryFactor;
    j["dispatch_kernels_per_layer"] = h.kernelsBase;
    j["dispatch_kernels_per_local_expert"] = h.kernelsPerLocalExpert;
    j["dispatch_gap_us"] = tidy(h.dispatchGapS * 1e6);
    j["host_per_microbatch_ms"] = tidy(h.hostPerMicrobatchS * 1e3);
    j["host_per_iteration_ms"] = tidy(h.hostPerIterationS * 1e3);
    j["host_per_moe_layer_ms"] = tidy(h.hostPerMoeLayerS * 1e3);
    j["chi_c_a2a"] = h.cA2A;
    j["chi_c_pp"] = h.cPP;
    j["chi_c_ovl"] = h.cOvl;
    j["chi_floor"] = h.chiFloor;
    return j;
}

}  // namespace tandem::mosaic
