#include "mosaic/hardware.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <stdexcept>
#include <string>

#include "common/json_reader.h"
#include "common/number_format.h"

namespace tandem::mosaic {
namespace {

// ---- Built-in hardware ------------------------------------------------------------------------

// Sources shared by several built-ins (each entry's `sources` lists where its numbers come from).
// Peaks are dense (no 2:4 sparsity): vendor pages headline the sparse figures, 2x the dense ones
// (1.33x for Blackwell Ultra FP4); those are never used here.
const char* const kPaper =
    "arXiv:2608.10605 Sec. 5, Table 3 (B200 2.25 PFLOP/s dense BF16, 179 GB usable)";
const char* const kGpusJson =
    "stas00/ml-engineering compute/accelerator/README.md @7bc7c305 (dense TFLOPS, HBM)";
const char* const kNvlink =
    "stas00/ml-engineering network/README.md @29c6b708 (NVLink generations, node NICs)";
const char* const kCalib = "efficiency constants: Tandem calibration, docs/MODEL-MOSAIC.md";
const char* const kBasePod =
    "https://docs.nvidia.com/dgx-basepod/"
    "reference-architecture-infrastructure-foundation-enterprise-ai/latest/"
    "core-components.html (DGX B200: 1.4 TB GPU memory, 8 x single-port ConnectX-7 up to 400 Gb/s; "
    "DGX H100/H200: "
    "640 / 1,128 GB, 8 x single-port ConnectX-7 400 Gb/s)";
const char* const kKlockwoodB200 =
    "https://glennklockwood.com/garden/processors/B200 (dense TFLOP/s: HGX B200 at 1 kW BF16 2250, "
    "FP8 4500, FP4 "
    "9000; GB200 at 1.2 kW BF16 2500, FP8 5000, FP4 10000)";
const char* const kVerdaGb300 =
    "https://verda.com/blog/gb300-nvl72-architecture (dense per GPU: B300 BF16 2.25, FP8 4.5 "
    "PFLOP/s, 270 GB; GB300 "
    "BF16 2.5, FP8 5, FP4 15 PFLOP/s, 279 GB, 8 TB/s; NVLink 5 900 GB/s each way)";

/// The Hardware members in which the built-in nodes differ (besides gpusPerNode), in the order
/// of a sheet's columns; every other member keeps its default from hardware.h (the calibrated
/// analytical constants).
constexpr double Hardware::*kSheetColumns[] = {
    &Hardware::peakFlops,            // dense BF16 FLOP/s per GPU
    &Hardware::peakFp8Flops,         // dense FP8 FLOP/s per GPU (0 = unsupported)
    &Hardware::peakFp4Flops,         // dense FP4 FLOP/s per GPU (0 = unsupported)
    &Hardware::memoryBytes,          // usable device memory, bytes
    &Hardware::memoryCapacityBytes,  // HBM capacity as the vendor states it, bytes
    &Hardware::hbmBytesPerS,         // HBM bandwidth, bytes/s
    &Hardware::nvlinkBytesPerS,      // NVLink per GPU, one direction, bytes/s
    &Hardware::nicBytesPerS,         // scale-out NIC per GPU, bytes/s
    &Hardware::intraBusEfficiency,   // achieved / NVLink bus bandwidth
    &Hardware::rampHalfBytes,        // collective message size at half efficiency, bytes
    &Hardware::dispatchGap_s,        // t_gap of Eq. 11, s
    &Hardware::interLatency_s,       // fixed start-up of a collective across nodes, s
    &Hardware::interBusEfficiency,   // achieved / NIC line rate across nodes
};
using DeviceSheet = std::array<double, std::size(kSheetColumns)>;

/// One compiled-in node: `hardwareNames()` lists the names in table order.
struct Builtin {
    const char* name;
    std::string description;
    std::vector<std::string> sources;
    int gpusPerNode;
    DeviceSheet sheet;  ///< values of kSheetColumns, SI units
};

/// The sheet of `h` (used for p6-b200, whose values are hardware.h's member defaults).
DeviceSheet sheetOf(const Hardware& h) {
    DeviceSheet s{};
    for (size_t i = 0; i < s.size(); ++i) s[i] = h.*kSheetColumns[i];
    return s;
}

/// The two free constants of the collective model across nodes (interLatency_s,
/// interBusEfficiency) for one kind of scale-out network: fitNetworkConstants' optimum over every
/// row >= 64 MiB of the shipped nccl-tests logs of that network (mosaic/network_fit.h;
/// tests/mosaic/tst_mosaic_network_fit.cpp re-fits them and fails when they drift;
/// docs/MODEL-NETWORK.md section 4). Nodes on the same kind of network share them.
struct ScaleOutNetwork {
    double latency_s, efficiency;
    const char* name;        ///< the network, as messages name it
    int minNodes, maxNodes;  ///< nodes spanned by the fitted logs' runs
};
/// ConnectX-7 InfiniBand, one 400 Gb/s NIC per GPU: the H100 10 x 8 all-reduce, reduce-scatter
/// and all-to-all logs and the H100 8 x 8 all-reduce log.
constexpr ScaleOutNetwork kInfiniBand{261.65e-6, 0.87758, "InfiniBand", 10, 12};
/// AWS EFA on p4de (4 x 100 Gb/s for 8 A100): the A100 2 x 8 all-reduce log.
constexpr ScaleOutNetwork kEfaP4de{465.79e-6, 0.88463, "EFA (p4de)", 2, 2};
/// AWS EFA on p5 (32 x 100 Gb/s for 8 H100): the H100 2 x 8 p5 all-reduce log.
constexpr ScaleOutNetwork kEfaP5{180.16e-6, 0.63205, "EFA (p5)", 2, 2};
/// Google Cloud A3 Mega GPUDirect-TCPXO (8 x 200 Gb/s): the H100 2 x 8 A3 Mega all-reduce log.
constexpr ScaleOutNetwork kTcpxo{694.99e-6, 0.91709, "GPUDirect-TCPXO", 2, 2};
/// Every fitted network (networkFitScope looks a node's constants up here).
constexpr ScaleOutNetwork kFittedNetworks[] = {kInfiniBand, kEfaP4de, kEfaP5, kTcpxo};

/// Sets the column of `s` that holds `member` to `value`.
void setColumn(DeviceSheet& s, double Hardware::*member, double value) {
    for (size_t i = 0; i < s.size(); ++i)
        if (kSheetColumns[i] == member) s[i] = value;
}

/// `s` with the scale-out network constants of `n`.
DeviceSheet withNetwork(DeviceSheet s, ScaleOutNetwork n) {
    setColumn(s, &Hardware::interLatency_s, n.latency_s);
    setColumn(s, &Hardware::interBusEfficiency, n.efficiency);
    return s;
}

/// `s` with another NIC per GPU (line rate `nicBytesPerS`) on the network `n`: the same node on
/// another cloud's scale-out network.
DeviceSheet onNetwork(DeviceSheet s, double nicBytesPerS, ScaleOutNetwork n) {
    setColumn(s, &Hardware::nicBytesPerS, nicBytesPerS);
    return withNetwork(s, n);
}

/// The built-in table, built once on first use (function-local static: safe to call from
/// other translation units' static initialisers, e.g. Envelope's default hardware).
/// gpus_per_node is the NVLink domain: 8 for a DGX/HGX node, 72 for an NVL72 rack.
const std::vector<Builtin>& builtins() {
    static const std::vector<Builtin> table = [] {
        const Hardware b200;  // hardware.h's defaults are the p6-b200 node [2608.10605 Table 3]
        const double eff = b200.intraBusEfficiency, ramp = b200.rampHalfBytes,
                     gap = b200.dispatchGap_s;
        // NVLink 4 + NVSwitch (NVLS) all-reduce inside a node reaches 460-480 GB/s bus
        // bandwidth, the 450 GB/s link rate: efficiency 1.0. Size ramp 20 MB fitted to the H100
        // and A100 nccl-tests logs (1 MiB up, log busbw error).
        const DeviceSheet h100 = {989e12,
                                  1979e12,
                                  0,
                                  76e9,
                                  80e9,
                                  3.35e12,
                                  450e9,
                                  50e9,
                                  1.0,
                                  20e6,
                                  30e-6,
                                  kInfiniBand.latency_s,
                                  kInfiniBand.efficiency};
        // Rows: name, description, sources, GPUs per node, then the sheet: peak BF16, FP8 and
        // FP4 FLOP/s (dense; no FP4 on Hopper, neither FP8 nor FP4 on A100), usable memory
        // bytes, HBM capacity bytes, HBM bytes/s, NVLink bytes/s (one direction), NIC bytes/s
        // per GPU, NVLink bus efficiency, ramp half bytes, dispatch gap s.
        return std::vector<Builtin>{
            {"p6-b200",
             b200.description,
             {kPaper,
              "https://aws.amazon.com/ec2/instance-types/p6/ (8 x 400 Gb/s EFA v4, 1,440 GB HBM3e)",
              kGpusJson, kNvlink, kKlockwoodB200, kCalib},
             b200.gpusPerNode,
             sheetOf(b200)},
            // The paper's B200 in NVIDIA's own chassis: same GPU, same usable memory (179 GB of
            // 180), one 400 Gb/s ConnectX-7 per GPU instead of EFA.
            {"dgx-b200",
             "NVIDIA DGX B200: 8 x B200 180 GB, NVLink 5 (14.4 TB/s per node), 8 x 400 Gb/s "
             "ConnectX-7",
             {"https://www.nvidia.com/en-us/data-center/dgx-b200/ (1,440 GB HBM3e, 64 TB/s; FP8 72 "
              "/ FP4 144 PFLOP/s "
              "with sparsity per node)",
              kBasePod, kKlockwoodB200, kPaper, kCalib},
             8,
             withNetwork(sheetOf(b200), kInfiniBand)},
            // Blackwell Ultra: BF16 and FP8 as B200, FP4 13.1 PFLOP/s dense (Klockwood's HGX B300
            // table; Verda lists 14 per GPU); 288 GB (2.3 TB per node), 270 GB visible; one
            // 800 Gb/s ConnectX-8 per GPU.
            {"dgx-b300",
             "NVIDIA DGX B300: 8 x B300 (Blackwell Ultra) 288 GB, NVLink 5, 8 x 800 Gb/s "
             "ConnectX-8",
             {"https://glennklockwood.com/garden/processors/B300 (HGX B300 dense TFLOP/s: BF16 "
              "2250, FP8 4500, FP4 "
              "13125; 288 GB HBM3e, 8 TB/s, NVLink 5 2 x 900 GB/s)",
              kVerdaGb300,
              "https://docs.nvidia.com/dgx-superpod/reference-architecture/"
              "scalable-infrastructure-b300/latest/"
              "abstract.html (DGX B300 SuperPOD: XDR 800 Gb/s InfiniBand)",
              "https://aiwiki.ai/wiki/nvidia_dgx_b300 (2.3 TB HBM3e per node, 72 PFLOP/s FP8 "
              "training)",
              kCalib},
             8,
             {2.25e15, 4.5e15, 13.125e15, 270e9, 288e9, 8e12, 900e9, 100e9, eff, ramp, gap,
              kInfiniBand.latency_s, kInfiniBand.efficiency}},
            // Blackwell: NVLink efficiency, ramp and dispatch gap as the B200 defaults. 13.4 TB
            // HBM3e per rack = 186 GB per GPU (184 usable); one 400 Gb/s ConnectX-7 per GPU.
            {"gb200-nvl72",
             "GB200 NVL72 rack: 72 Blackwell GPUs in one NVLink 5 domain, 400 Gb/s per GPU",
             {"https://www.nvidia.com/en-us/data-center/gb200-nvl72/", kGpusJson, kNvlink,
              "coreweave/nccl-tests README (GB200 18x4 and 36x4 all-reduce)", kKlockwoodB200,
              kCalib},
             72,
             {2.5e15, 5e15, 10e15, 184e9, 186e9, 8e12, 900e9, 50e9, eff, ramp, gap,
              kInfiniBand.latency_s, kInfiniBand.efficiency}},
            // Blackwell Ultra rack: 1,080 PFLOP/s dense FP4, 360 FP8, 180 BF16 per 72 GPUs; 288 GB
            // per GPU (279 visible); 72 ConnectX-8 at 800 Gb/s.
            {"gb300-nvl72",
             "GB300 NVL72 rack: 72 Blackwell Ultra GPUs (288 GB) in one NVLink 5 domain, 800 Gb/s "
             "ConnectX-8 per GPU",
             {"https://www.nvidia.com/en-us/data-center/gb300-nvl72/", kVerdaGb300,
              "https://glennklockwood.com/garden/processors/B300 (GB300 NVL72: 1.1 EF dense FP4, "
              "360 PF FP8, 20 TB HBM "
              "at 576 TB/s, 72 ConnectX-8)",
              "https://vendordeep.com/report/nvidia-launches-blackwell-ultra-gb300 (ConnectX-8 800 "
              "Gb/s per GPU)",
              kCalib},
             72,
             {2.5e15, 5e15, 15e15, 279e9, 288e9, 8e12, 900e9, 100e9, eff, ramp, gap,
              kInfiniBand.latency_s, kInfiniBand.efficiency}},
            {"h100",
             "8 x H100 SXM5 80 GB (DGX H100): NVLink 4, 8 x 400 Gb/s InfiniBand",
             {"https://www.nvidia.com/en-us/data-center/h100/ (dense BF16 989, FP8 1,979 TFLOP/s; "
              "80 GB, 3.35 TB/s)",
              kGpusJson, kNvlink, kBasePod,
              "nccl-tests H100 2x8 all-reduce busbw peak 487 GB/s; 10x8 all-to-all ~50 GB/s",
              kCalib},
             8,
             h100},
            // H100's node with H200 memory: 141 GB HBM3e (135 usable) at 4.8 TB/s; the NVLink,
            // NIC, ramp and dispatch values are the H100 ones above.
            {"h200",
             "8 x H200 SXM 141 GB (DGX H200): NVLink 4, 8 x 400 Gb/s",
             {"https://www.nvidia.com/en-us/data-center/h200/ (dense BF16 989, FP8 1,979 TFLOP/s; "
              "141 GB, 4.8 TB/s)",
              kGpusJson, kNvlink, kBasePod, kCalib},
             8,
             {989e12, 1979e12, 0, 135e9, 141e9, 4.8e12, 450e9, 50e9, 1.0, 20e6, 30e-6,
              kInfiniBand.latency_s, kInfiniBand.efficiency}},
            // 4 x 100 Gb/s EFA for 8 GPUs = 6.25 GB/s per GPU; NVLink efficiency as the B200
            // default; ramp 20 MB fitted with the H100 one (see h100).
            {"a100",
             "8 x A100 SXM4 80 GB (AWS p4de): NVLink 3, 4 x 100 Gb/s EFA",
             {"https://www.nvidia.com/en-us/data-center/a100/ (dense BF16 312 TFLOP/s, no FP8; 80 "
              "GB HBM2e, 2.0 TB/s)",
              kGpusJson, kNvlink,
              "nccl-tests A100 2x8 all-reduce (aws-samples/awsome-distributed-training)", kCalib},
             8,
             {312e12, 0, 0, 76e9, 80e9, 2.0e12, 300e9, 6.25e9, eff, 20e6, 35e-6, kEfaP4de.latency_s,
              kEfaP4de.efficiency}},
            // The same GPU in NVIDIA's DGX A100 (Selene, where arXiv:2205.05198 measured): one
            // 200 Gb/s HDR InfiniBand NIC per GPU; everything else as a100.
            {"dgx-a100",
             "NVIDIA DGX A100 80 GB: 8 x A100 SXM4 80 GB, NVLink 3, 8 x 200 Gb/s HDR InfiniBand",
             {"https://www.nvidia.com/en-us/data-center/a100/ (dense BF16 312 TFLOP/s, no FP8; 80 "
              "GB HBM2e, 2.0 TB/s)",
              kGpusJson, kNvlink,
              "https://docs.nvidia.com/dgx-superpod/"
              "reference-architecture-scalable-infrastructure-h100/latest/"
              "dgx-superpod-components.html (DGX H100 has \"2X faster networking @ 400 Gbps\" than "
              "DGX A100)",
              kCalib},
             8,
             {312e12, 0, 0, 76e9, 80e9, 2.0e12, 300e9, 25e9, eff, 20e6, 35e-6,
              kInfiniBand.latency_s, kInfiniBand.efficiency}},
            // The H100 node on AWS EFA: 32 x 100 Gb/s EFA adapters, 4 per GPU (400 Gb/s each).
            {"p5-efa",
             "AWS p5.48xlarge: 8 x H100 SXM5 80 GB, NVLink 4, 32 x 100 Gb/s EFA",
             {"https://aws.amazon.com/ec2/instance-types/p5/ (3,200 Gb/s EFA, 8 x H100 80 GB)",
              "https://www.nvidia.com/en-us/data-center/h100/ (dense BF16 989, FP8 1,979 TFLOP/s; "
              "80 GB, 3.35 TB/s)",
              kGpusJson, kNvlink,
              "nccl-tests H100 2x8 all-reduce on p5 (aws-samples/awsome-distributed-training)",
              kCalib},
             8,
             onNetwork(h100, 32 * 100e9 / 8 / 8, kEfaP5)},
            // The H100 node on Google Cloud A3 Mega: 8 x 200 Gb/s GPU NICs (GPUDirect-TCPXO).
            {"a3-mega",
             "Google Cloud A3 Mega: 8 x H100 SXM5 80 GB, NVLink 4, 8 x 200 Gb/s GPUDirect-TCPXO",
             {"https://cloud.google.com/compute/docs/gpus/gpu-network-bandwidth (a3-megagpu-8g: "
              "8 x 200 Gb/s GPU NICs, 1,600 Gb/s)",
              "https://www.nvidia.com/en-us/data-center/h100/ (dense BF16 989, FP8 1,979 TFLOP/s; "
              "80 GB, 3.35 TB/s)",
              kGpusJson, kNvlink,
              "nccl-tests H100 2x8 all-reduce on A3 Mega (lessizzmore/create-a3mega-ztan-fork)",
              kCalib},
             8,
             onNetwork(h100, 200e9 / 8, kTcpxo)},
        };
    }();
    return table;
}

/// Other accepted names: {alias, built-in name}.
const std::vector<std::pair<std::string, std::string>>& aliasTable() {
    static const std::vector<std::pair<std::string, std::string>> aliases = {
        {"dgx-h100", "h100"},
        {"dgx-h200", "h200"},
        {"h100-ib-8x400g", "h100"},  // the node docs/MODEL-NETWORK.md fits the InfiniBand logs on
        {"p4de-efa", "a100"}};
    return aliases;
}

/// The built-in of a name or alias, nullptr if none.
const Builtin* findBuiltin(const std::string& name) {
    std::string target = name;
    for (const auto& [alias, to] : aliasTable())
        if (name == alias) target = to;
    for (const Builtin& b : builtins())
        if (target == b.name) return &b;
    return nullptr;
}

Hardware fromBuiltin(const Builtin& b) {
    Hardware h;
    h.name = b.name;
    h.description = b.description;
    h.sources = b.sources;
    h.gpusPerNode = b.gpusPerNode;
    for (size_t i = 0; i < b.sheet.size(); ++i) h.*kSheetColumns[i] = b.sheet[i];
    return h;
}

// ---- JSON keys --------------------------------------------------------------------------------

/// How a JSON key's unit relates to the SI member: value in the file = toKey(member).
enum class Unit { One, Tera, Giga, Mega, Micro, Milli, GigabitPerByte };

/// SI -> key unit. The operations are the ones the reader and writer have always used, so
/// files read and written give the same bits.
double toKey(double v, Unit u) {
    switch (u) {
        case Unit::Tera:
            return v / 1e12;
        case Unit::Giga:
            return v / 1e9;
        case Unit::Mega:
            return v / 1e6;
        case Unit::Micro:
            return v * 1e6;
        case Unit::Milli:
            return v * 1e3;
        case Unit::GigabitPerByte:
            return v * 8 / 1e9;  // bytes/s -> Gb/s
        case Unit::One:
            break;
    }
    return v;
}

/// Key unit -> SI (the inverse of toKey).
double fromKey(double x, Unit u) {
    switch (u) {
        case Unit::Tera:
            return x * 1e12;
        case Unit::Giga:
            return x * 1e9;
        case Unit::Mega:
            return x * 1e6;
        case Unit::Micro:
            return x / 1e6;
        case Unit::Milli:
            return x / 1e3;
        case Unit::GigabitPerByte:
            return x * 1e9 / 8;  // Gb/s -> bytes/s
        case Unit::One:
            break;
    }
    return x;
}

/// One numeric key of the hardware JSON: name (with its unit), member, unit, allowed range.
struct NumberKey {
    const char* key;
    double Hardware::*member;
    Unit unit;
    Range range;
};

/// Every numeric key after `gpus_per_node`, in file order (readHardware and writeHardware).
/// Each range is what one device or link can physically be (in the key's unit), wide enough for
/// any accelerator built or planned and narrow enough that no unit conversion overflows and no
/// rate, size or time reaches an absurd magnitude; efficiencies are fractions of a peak, so a
/// step can never beat the peak and a collective never the link rate.
const std::vector<NumberKey>& numberKeys() {
    static const std::vector<NumberKey> keys = [] {
        auto within = [](double lo, double hi, const char* why) {
            return Range{lo, hi, false, false, why};
        };
        const Range frac{
            0.0, 1.0, true, false,
            "an efficiency is a fraction of the peak; above 1 the device would beat its own peak"};
        const Range busFrac{
            0.0, 1.0, true, false,
            "achieved over link bus bandwidth; above 1 a collective would beat the link rate"};
        const Range rate = within(1e-3, 1e6, "one device's rate, 1 MB/s to 1 PB/s");
        const Range latency = within(0, 1e6, "a collective's latency, at most 1 s");
        const Range shape = within(0, 1e9, "a matrix dimension, at most 1e9");
        const Range count = within(0, 1e6, "a per-layer count, at most 1e6");
        const Range hostMs = within(0, 1e6, "a host overhead, at most 1000 s");
        const Range chiTerm =
            within(-10, 10, "a calibration term of chi_sys (Eq. 15, paper values within +-1.2)");
        return std::vector<NumberKey>{
            {"peak_bf16_TFLOPs_per_s", &Hardware::peakFlops, Unit::Tera,
             within(1e-3, 1e6, "dense BF16 peak of one device, 1 GFLOP/s to 1 EFLOP/s")},
            {"peak_fp8_TFLOPs_per_s", &Hardware::peakFp8Flops, Unit::Tera,
             within(0, 1e6, "dense FP8 peak of one device, at most 1 EFLOP/s (0: no FP8)")},
            {"peak_fp4_TFLOPs_per_s", &Hardware::peakFp4Flops, Unit::Tera,
             within(0, 1e6, "dense FP4 peak of one device, at most 1 EFLOP/s (0: no FP4)")},
            {"memory_usable_GB", &Hardware::memoryBytes, Unit::Giga,
             within(1e-3, 1e6, "usable memory of one device, 1 MB to 1 PB")},
            {"memory_capacity_GB", &Hardware::memoryCapacityBytes, Unit::Giga,
             within(0, 1e6,
                    "memory capacity of one device as the vendor states it, at most 1 PB "
                    "(0: not stated)")},
            {"hbm_GBps", &Hardware::hbmBytesPerS, Unit::Giga, rate},
            {"nvlink_GBps", &Hardware::nvlinkBytesPerS, Unit::Giga, rate},
            {"nic_Gbps_per_gpu", &Hardware::nicBytesPerS, Unit::GigabitPerByte,
             within(1e-3, 1e6, "one device's network rate, 1 Mb/s to 1 Pb/s")},
            {"intra_latency_us", &Hardware::intraLatency_s, Unit::Micro, latency},
            {"inter_latency_us", &Hardware::interLatency_s, Unit::Micro, latency},
            {"intra_bus_efficiency", &Hardware::intraBusEfficiency, Unit::One, busFrac},
            {"inter_bus_efficiency", &Hardware::interBusEfficiency, Unit::One, busFrac},
            {"ramp_half_MB", &Hardware::rampHalfBytes, Unit::Mega,
             within(0, 1e6, "a collective message size, at most 1 TB")},
            {"dense_gemm_max_efficiency", &Hardware::denseGemmMax, Unit::One, frac},
            {"dense_gemm_m_half", &Hardware::denseMHalf, Unit::One, shape},
            {"dense_gemm_width_half", &Hardware::denseWidthHalf, Unit::One, shape},
            {"grouped_gemm_max_efficiency", &Hardware::groupedGemmMax, Unit::One, frac},
            {"grouped_gemm_m_half", &Hardware::groupedMHalf, Unit::One, shape},
            {"grouped_gemm_width_half", &Hardware::groupedWidthHalf, Unit::One, shape},
            {"attention_efficiency", &Hardware::attentionEfficiency, Unit::One, frac},
            {"elementwise_bytes_per_token_per_d", &Hardware::elementwiseBytesPerTokenPerD,
             Unit::One, within(0, 1e6, "HBM bytes per token per d of one layer, at most 1e6")},
            {"activation_memory_factor", &Hardware::activationMemoryFactor, Unit::One,
             Range{0.0, 100.0, true, false, "a multiple of the activation bytes, at most 100"}},
            {"dispatch_kernels_per_layer", &Hardware::kernelsBase, Unit::One, count},
            {"dispatch_kernels_per_local_expert", &Hardware::kernelsPerLocalExpert, Unit::One,
             count},
            {"dispatch_gap_us", &Hardware::dispatchGap_s, Unit::Micro,
             within(0, 1e6, "a per-kernel CPU stall, at most 1 s")},
            {"host_per_microbatch_ms", &Hardware::hostPerMicrobatch_s, Unit::Milli, hostMs},
            {"host_per_iteration_ms", &Hardware::hostPerIteration_s, Unit::Milli, hostMs},
            {"host_per_moe_layer_ms", &Hardware::hostPerMoeLayer_s, Unit::Milli, hostMs},
            {"chi_c_a2a", &Hardware::cA2A, Unit::One, chiTerm},
            {"chi_c_pp", &Hardware::cPP, Unit::One, chiTerm},
            {"chi_c_ovl", &Hardware::cOvl, Unit::One, chiTerm},
            // chi_sys >= chi_floor > 0 always, so no combination of the terms above makes the
            // step time zero or negative; below 0.1 the calibration would claim a step ten
            // times faster than the analytical model, above 10 ten times slower.
            {"chi_floor", &Hardware::chiFloor, Unit::One,
             within(0.1, 10,
                    "the floor of the chi_sys multiplier on the analytical step time (Eq. 15, "
                    "paper 0.5); chi_sys >= chi_floor keeps every step time positive")},
        };
    }();
    return keys;
}

std::string toPrecision(double v) { return formatGeneral(v, 12); }

// Unit conversions at the edge (x 1e6 etc.) can leave a last-bit residue; 12 significant
// digits keep written files clean and make write -> read -> write stable.
// scanNumber, not parseNumber: a subnormal value (e.g. 1e-310 from a hardware file) is out of
// range to parseNumber (and made std::stod throw, which aborted tandem-cli run and the GUI's
// save); scanNumber returns it as it is.
double tidy(double v) { return scanNumber(toPrecision(v)).value; }

}  // namespace

std::vector<std::string> hardwareNames() {
    std::vector<std::string> names;
    for (const Builtin& b : builtins()) names.emplace_back(b.name);
    return names;
}

std::vector<std::pair<std::string, std::string>> hardwareAliases() { return aliasTable(); }

std::string hardwareNameList() {
    std::string list;
    for (const auto& n : hardwareNames()) {
        list += (list.empty() ? "" : ", ") + n;
        for (const auto& [alias, to] : aliasTable())
            if (to == n) list += " (" + alias + ")";
    }
    return list;
}

bool isBuiltinHardware(const std::string& name) { return findBuiltin(name) != nullptr; }

Hardware builtinHardware(const std::string& name) {
    if (const Builtin* b = findBuiltin(name)) return fromBuiltin(*b);
    throw std::invalid_argument("unknown hardware \"" + name + "\" (known: " + hardwareNameList() +
                                ")");
}

std::optional<NetworkFitScope> networkFitScope(const Hardware& hw) {
    const Builtin* b = findBuiltin(hw.name);
    if (!b) return std::nullopt;
    const Hardware ref = fromBuiltin(*b);
    if (hw.gpusPerNode != ref.gpusPerNode || hw.nicBytesPerS != ref.nicBytesPerS ||
        hw.interLatency_s != ref.interLatency_s ||
        hw.interBusEfficiency != ref.interBusEfficiency ||
        hw.alltoallNicEfficiency != ref.alltoallNicEfficiency)
        return std::nullopt;  // a hardware file changed the network: no log measured it
    for (const ScaleOutNetwork& n : kFittedNetworks)
        if (n.latency_s == hw.interLatency_s && n.efficiency == hw.interBusEfficiency)
            return NetworkFitScope{n.name, n.minNodes, n.maxNodes, 64.0 * 1024 * 1024};
    return std::nullopt;
}

std::string networkExtrapolation(const Hardware& hw, int nodes) {
    if (nodes <= 1) return "";
    const auto scope = networkFitScope(hw);
    if (!scope)
        return hw.name +
               ": its scale-out constants (inter_latency_us, inter_bus_efficiency) were fitted to "
               "no nccl-tests log, so collectives across nodes are an estimate "
               "(docs/MODEL-NETWORK.md section 4)";
    if (nodes >= scope->minNodes && nodes <= scope->maxNodes) return "";
    const std::string range =
        scope->minNodes == scope->maxNodes
            ? std::to_string(scope->minNodes)
            : std::to_string(scope->minNodes) + "-" + std::to_string(scope->maxNodes);
    return hw.name + ": collectives across " + std::to_string(nodes) +
           " nodes extrapolate its scale-out constants, fitted to nccl-tests runs of " + range +
           " nodes on " + scope->network + " (docs/MODEL-NETWORK.md section 4)";
}

Hardware readHardware(JsonReader& r) {
    const std::string base = r.string("name", "p6-b200");
    const Builtin* known = findBuiltin(base);
    Hardware h = fromBuiltin(known ? *known : builtins().front());
    h.name = base;
    h.description = r.string("description", h.description);
    h.sources = r.strings("sources", h.sources);
    h.gpusPerNode = int(r.integer("gpus_per_node", h.gpusPerNode, Range::closed(1, 1024)));
    for (const NumberKey& k : numberKeys())
        h.*k.member = fromKey(r.number(k.key, toKey(h.*k.member, k.unit), k.range), k.unit);
    h.nvlsEfficiency =
        r.number("nvls_efficiency", h.nvlsEfficiency,
                 Range{0.0, 1.0, false, false, "a share of the NVLink rate (0: no NVLink SHARP)"});
    h.sharp = r.boolean("sharp", h.sharp);
    h.alltoallNicEfficiency = r.number(
        "alltoall_nic_efficiency", h.alltoallNicEfficiency,
        Range{0.0, 1.0, false, false,
              "a share of the NIC line rate (0: the all-to-all runs at inter_bus_efficiency)"});
    // A usable memory above the HBM capacity is a typo (e.g. GiB against GB or the node's
    // total), not a device. Checked whichever of the two the file states, against the base
    // sheet's value for the other, so a file and the copy Tandem writes of it (which states
    // both) are accepted or refused alike.
    if (h.memoryCapacityBytes > 0 && h.memoryBytes > h.memoryCapacityBytes)
        r.diagnostics().error(
            r.childPath(r.has("memory_usable_GB") ? "memory_usable_GB" : "memory_capacity_GB"),
            "memory_usable_GB (" + formatNumber(h.memoryBytes / 1e9) +
                " GB) must not exceed memory_capacity_GB (" +
                formatNumber(h.memoryCapacityBytes / 1e9) + " GB" +
                (r.has("memory_capacity_GB") ? "" : ", the value of " + base + "; state it too") +
                ")");
    r.finish();
    return h;
}

nlohmann::ordered_json writeHardware(const Hardware& h) {
    nlohmann::ordered_json j{{"name", h.name},
                             {"description", h.description},
                             {"sources", h.sources},
                             {"gpus_per_node", h.gpusPerNode}};
    for (const NumberKey& k : numberKeys())
        j[k.key] = k.unit == Unit::One ? h.*k.member : tidy(toKey(h.*k.member, k.unit));
    if (h.nvlsEfficiency > 0) j["nvls_efficiency"] = h.nvlsEfficiency;
    if (h.sharp) j["sharp"] = true;
    if (h.alltoallNicEfficiency > 0) j["alltoall_nic_efficiency"] = h.alltoallNicEfficiency;
    return j;
}

}  // namespace tandem::mosaic
