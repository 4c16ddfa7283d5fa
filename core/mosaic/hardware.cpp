#include "mosaic/hardware.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <stdexcept>
#include <string>

#include "common/json_reader.h"

namespace tandem::mosaic {
namespace {

// ---- Built-in hardware ------------------------------------------------------------------------

// Sources shared by several built-ins (each entry's `sources` lists where its numbers come from).
const char* const kPaper = "arXiv:2608.10605 Sec. 5, Table 3 (B200 2.25 PFLOP/s dense BF16, 179 GB usable)";
const char* const kGpusJson = "stas00/ml-engineering compute/accelerator/README.md @7bc7c305 (dense TFLOPS, HBM)";
const char* const kNvlink = "stas00/ml-engineering network/README.md @29c6b708 (NVLink generations, node NICs)";
const char* const kCalib = "efficiency constants: Tandem calibration, docs/MODEL-MOSAIC.md";

/// The Hardware members in which the built-in nodes differ (besides gpusPerNode), in the order
/// of a sheet's columns; every other member keeps its default from hardware.h (the calibrated
/// analytical constants).
constexpr double Hardware::*kSheetColumns[] = {
    &Hardware::peakFlops,           // dense BF16 FLOP/s per GPU
    &Hardware::peakFp8Flops,        // dense FP8 FLOP/s per GPU (0 = unsupported)
    &Hardware::peakFp4Flops,        // dense FP4 FLOP/s per GPU (0 = unsupported)
    &Hardware::memoryBytes,         // usable device memory, bytes
    &Hardware::hbmBytesPerS,        // HBM bandwidth, bytes/s
    &Hardware::nvlinkBytesPerS,     // NVLink per GPU, one direction, bytes/s
    &Hardware::nicBytesPerS,        // scale-out NIC per GPU, bytes/s
    &Hardware::intraBusEfficiency,  // achieved / NVLink bus bandwidth
    &Hardware::rampHalfBytes,       // collective message size at half efficiency, bytes
    &Hardware::dispatchGapS,        // t_gap of Eq. 11, s
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

/// The built-in table, built once on first use (function-local static: safe to call from
/// other translation units' static initialisers, e.g. Envelope's default hardware).
const std::vector<Builtin>& builtins() {
    static const std::vector<Builtin> table = [] {
        const Hardware b200;  // hardware.h's defaults are the p6-b200 node [2608.10605 Table 3]
        // Rows: name, description, sources, GPUs per node, then the sheet: peak BF16, FP8 and
        // FP4 FLOP/s (dense; FP8 = 2 x BF16 and FP4 = 4 x BF16 on Blackwell, no FP4 on Hopper,
        // neither on A100), memory
        // bytes, HBM bytes/s, NVLink bytes/s, NIC bytes/s, NVLink bus efficiency, ramp half
        // bytes, dispatch gap s.
        return std::vector<Builtin>{
            {"p6-b200", b200.description,
             {kPaper, "https://aws.amazon.com/ec2/instance-types/p6/ (8 x 400 Gb/s EFA v4)", kGpusJson,
              kNvlink, kCalib},
             b200.gpusPerNode, sheetOf(b200)},
            // NVLink 4 + NVSwitch (NVLS) all-reduce inside a node reaches 460-480 GB/s bus
            // bandwidth, the 450 GB/s link rate; efficiency 1.0 puts the pipelined 2x8 model at
            // 482 GB/s (measured 487). Size ramp 20 MB fitted to the H100 and A100 nccl-tests
            // logs (1 MiB up, log busbw error).
            {"h100", "8 x H100 SXM5 80 GB (DGX H100 / AWS p5): NVLink 4, 8 x 400 Gb/s",
             {"https://www.nvidia.com/en-us/data-center/h100/", kGpusJson, kNvlink,
              "nccl-tests H100 2x8 all-reduce busbw peak 487 GB/s; 10x8 all-to-all ~50 GB/s", kCalib},
             8, {989e12, 1979e12, 0, 76e9, 3.35e12, 450e9, 50e9, 1.0, 20e6, 30e-6}},
            // H100's node with H200 memory: 141 GB HBM3e (135 usable) at 4.8 TB/s; the NVLink,
            // NIC, ramp and dispatch values are the H100 ones above.
            {"h200", "8 x H200 SXM 141 GB (DGX H200): NVLink 4, 8 x 400 Gb/s",
             {"https://www.nvidia.com/en-us/data-center/h200/", kGpusJson, kNvlink, kCalib},
             8, {989e12, 1979e12, 0, 135e9, 4.8e12, 450e9, 50e9, 1.0, 20e6, 30e-6}},
            // Blackwell: NVLink efficiency, ramp and dispatch gap as the B200 defaults.
            {"gb200-nvl72", "GB200 NVL72 rack: 72 Blackwell GPUs in one NVLink 5 domain, 400 Gb/s per GPU",
             {"https://www.nvidia.com/en-us/data-center/gb200-nvl72/", kGpusJson, kNvlink,
              "coreweave/nccl-tests README (GB200 18x4 and 36x4 all-reduce)",
              "https://glennklockwood.com/garden/processors/B200 (GB200 at 1.2 kW: dense BF16 2500, FP8 5000, "
              "FP4 10000 TFLOP/s)",
              kCalib},
             72, {2.5e15, 5e15, 10e15, 184e9, 8e12, 900e9, 50e9, b200.intraBusEfficiency, b200.rampHalfBytes,
                  b200.dispatchGapS}},
            // 4 x 100 Gb/s EFA for 8 GPUs = 6.25 GB/s per GPU; NVLink efficiency as the B200
            // default; ramp 20 MB fitted with the H100 one (see h100).
            {"a100", "8 x A100 SXM4 80 GB (AWS p4de): NVLink 3, 4 x 100 Gb/s EFA",
             {"https://www.nvidia.com/en-us/data-center/a100/", kGpusJson, kNvlink,
              "nccl-tests A100 2x8 all-reduce (aws-samples/awsome-distributed-training)", kCalib},
             8, {312e12, 0, 0, 76e9, 2.0e12, 300e9, 6.25e9, b200.intraBusEfficiency, 20e6, 35e-6}},
        };
    }();
    return table;
}

const Builtin* findBuiltin(const std::string& name) {
    for (const Builtin& b : builtins())
        if (name == b.name) return &b;
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
    case Unit::Tera: return v / 1e12;
    case Unit::Giga: return v / 1e9;
    case Unit::Mega: return v / 1e6;
    case Unit::Micro: return v * 1e6;
    case Unit::Milli: return v * 1e3;
    case Unit::GigabitPerByte: return v * 8 / 1e9;  // bytes/s -> Gb/s
    case Unit::One: break;
    }
    return v;
}

/// Key unit -> SI (the inverse of toKey).
double fromKey(double x, Unit u) {
    switch (u) {
    case Unit::Tera: return x * 1e12;
    case Unit::Giga: return x * 1e9;
    case Unit::Mega: return x * 1e6;
    case Unit::Micro: return x / 1e6;
    case Unit::Milli: return x / 1e3;
    case Unit::GigabitPerByte: return x * 1e9 / 8;  // Gb/s -> bytes/s
    case Unit::One: break;
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
            {"hbm_GBps", &Hardware::hbmBytesPerS, Unit::Giga, rate},
            {"nvlink_GBps", &Hardware::nvlinkBytesPerS, Unit::Giga, rate},
            {"nic_Gbps_per_gpu", &Hardware::nicBytesPerS, Unit::GigabitPerByte,
             within(1e-3, 1e6, "one device's network rate, 1 Mb/s to 1 Pb/s")},
            {"intra_latency_us", &Hardware::intraLatencyS, Unit::Micro, latency},
            {"inter_latency_us", &Hardware::interLatencyS, Unit::Micro, latency},
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
            {"dispatch_gap_us", &Hardware::dispatchGapS, Unit::Micro,
             within(0, 1e6, "a per-kernel CPU stall, at most 1 s")},
            {"host_per_microbatch_ms", &Hardware::hostPerMicrobatchS, Unit::Milli, hostMs},
            {"host_per_iteration_ms", &Hardware::hostPerIterationS, Unit::Milli, hostMs},
            {"host_per_moe_layer_ms", &Hardware::hostPerMoeLayerS, Unit::Milli, hostMs},
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

std::string toPrecision(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.12g", v);
    return buf;
}

// Unit conversions at the edge (x 1e6 etc.) can leave a last-bit residue; 12 significant
// digits keep written files clean and make write -> read -> write stable.
// std::strtod, not std::stod: stod throws out_of_range on subnormal values (e.g. 1e-310 from a
// hardware file), which aborted tandem-cli run and the GUI's save.
double tidy(double v) { return std::strtod(toPrecision(v).c_str(), nullptr); }

}  // namespace

std::vector<std::string> hardwareNames() {
    std::vector<std::string> names;
    for (const Builtin& b : builtins()) names.emplace_back(b.name);
    return names;
}

std::string hardwareNameList() {
    std::string list;
    for (const auto& n : hardwareNames()) list += (list.empty() ? "" : ", ") + n;
    return list;
}

Hardware builtinHardware(const std::string& name) {
    if (const Builtin* b = findBuiltin(name)) return fromBuiltin(*b);
    throw std::invalid_argument("unknown hardware \"" + name + "\" (known: " + hardwareNameList() + ")");
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
    return j;
}

}  // namespace tandem::mosaic
