#pragma once
// GEMM efficiency by shape from published kernel measurements (resources/kernels/*.json,
// compiled in): dense GEMM efficiency as a function of (M, N, K) and grouped (MoE expert) GEMM
// efficiency as a function of (groups, tokens per group, N, K), per GPU and precision
// [docs/MODEL-MOSAIC.md section 3, "Kernel tables"; issue 28].
//
// Two tables, both read as published:
//  - the shape table (`deepgemm-h800-fp8.json`): DeepGEMM's README tables of FP8 GEMM TFLOP/s by
//    shape on H800 SXM5 (dense M x N x K; grouped contiguous and masked layouts by groups and M
//    per group), DeepGEMM commit 327ec92f;
//  - the ceilings (`mamf.json`): the maximum achievable matmul TFLOP/s per accelerator and
//    precision (BF16, FP8) of stas00/ml-engineering's MAMF table, commit 744d01e1.
// Efficiency = measured TFLOP/s / the GPU's dense peak of its hardware sheet (resources/hardware).
// The shape dependence is the shape table's, relative to its best point; the level is the
// target GPU's MAMF efficiency: eff(shape) = MAMF_eff(GPU, precision) x eff_table(shape) /
// max eff_table. Routing and token permutation are not GEMMs and are not in these efficiencies.
#include <optional>
#include <string>
#include <vector>

#include "mosaic/stack.h"

namespace tandem::mosaic {

/// One published dense GEMM measurement: rows M (tokens), output features N, reduction K, and
/// the TFLOP/s (2 M N K / time / 1e12) as published.
struct DenseGemmPoint {
    double m = 0, n = 0, k = 0, tflops = 0;
};

/// One published grouped GEMM measurement: `groups` GEMMs of `mPerGroup` rows each, N x K
/// weights per group, TFLOP/s over all groups as published; layout "contiguous" or "masked".
struct GroupedGemmPoint {
    std::string layout;
    int groups = 0;
    double mPerGroup = 0, n = 0, k = 0, tflops = 0;
};

/// A shape table: GEMM TFLOP/s by shape for one GPU and precision.
struct KernelShapeTable {
    std::string name, description;
    std::vector<std::string> sources;
    std::string hardware;  ///< hardware sheet whose dense peak the TFLOP/s are divided by
    Precision precision = Precision::Fp8;
    double peakFlops = 0;  ///< that sheet's dense peak at `precision`, FLOP/s
    std::vector<DenseGemmPoint> dense;
    std::vector<GroupedGemmPoint> grouped;
};

/// A maximum achievable matmul TFLOP/s (MAMF) row: one accelerator and precision.
struct MatmulCeiling {
    std::string accelerator;  ///< as published, e.g. "NVIDIA H100 SXM"
    Precision precision = Precision::Bf16;
    double tflops = 0;                  ///< MAMF, TFLOP/s
    double theoryTflops = 0;            ///< the table's "Theory" column, TFLOP/s
    std::string bestShape;              ///< "MxNxK" as published
    std::vector<std::string> hardware;  ///< Tandem hardware sheets with this accelerator
};

/// The compiled-in kernel tables.
struct KernelTables {
    KernelShapeTable shapes;
    std::vector<MatmulCeiling> ceilings;
    std::vector<std::string> ceilingSources;
};

/// The kernel tables of resources/kernels/, parsed once (thread-safe) from the compiled-in
/// copies with the one JSON reader (parseJsonText, JsonReader). Throws std::logic_error naming
/// the file and the JSON path when a shipped file does not read (a build defect).
const KernelTables& builtinKernelTables();

/// The MAMF efficiency (MAMF / the sheet's dense peak at `p`, dimensionless) of the accelerator
/// of hardware sheet `hardwareName` at precision `p`; MXFP8 and NVFP4 read the FP8 row (the
/// table has no FP4 row). nullopt when no row names the sheet.
std::optional<double> matmulCeilingEfficiency(const std::string& hardwareName, Precision p);

/// GEMM efficiency by shape (fraction of the dense peak of the GPU and precision it was built
/// for). Cheap to copy; every query is a few dozen flops over the precomputed table (logs,
/// levels), no allocation.
class GemmEfficiency {
public:
    /// From shape table `shapes` scaled to the ceiling efficiency `ceiling` (fraction of peak,
    /// in (0, 1]): the table's best dense point maps to `ceiling`.
    GemmEfficiency(const KernelShapeTable& shapes, double ceiling);
    /// The shipped shape table with the MAMF ceiling of `hardwareName` at `p`
    /// (matmulCeilingEfficiency); nullopt when there is none.
    static std::optional<GemmEfficiency> forHardware(const std::string& hardwareName, Precision p);

    /// Dense GEMM efficiency of an M x N x K GEMM (rows, output features, reduction; each >= 1).
    /// Interpolated in log space over the table: at each published M, inverse-distance weights
    /// (power 2) over the published (log2 N, log2 K) pairs (exact at a published shape); between
    /// published Ms linear in log2 M; above the largest M its value; below the smallest M the
    /// time of one smallest-M GEMM (efficiency proportional to M: the kernel's row tile is not
    /// filled).
    double dense(double m, double n, double k) const;
    /// Grouped GEMM efficiency: `groups` GEMMs of `tokensPerGroup` rows, N x K each. The dense
    /// efficiency of (N, K) at the table's largest M times the grouped table's ratio to it at
    /// that tokens per group (geometric mean over the published (N, K), linear in log2 of the
    /// tokens per group): about 1 at 4096-8192 tokens per group (the grouped GEMM tends to the
    /// dense GEMM), 0.83 at 1024, 0.76 at 512, 0.68 at 256. Below the smallest published tokens
    /// per group it falls as the dense table's M ladder does (each group a GEMM of its own rows).
    /// The published points cover 1-8 groups with the group count tied to the tokens per group,
    /// so the efficiency is taken as independent of `groups` at fixed tokens per group (`groups`
    /// must be >= 1; 1 group of m rows is the grouped curve, not the dense one).
    double grouped(double groups, double tokensPerGroup, double n, double k) const;
    /// Fwd + bwd efficiency of a Linear layer applied to `m` rows with `in` x `out` weights
    /// (forward M x out x in, data gradient M x in x out, weight gradient in x out x M, equal
    /// FLOPs): 3 / sum of the three passes' 1 / efficiency.
    double denseLinear(double m, double in, double out) const;
    /// The same for an expert Linear of `groups` local experts with `tokensPerGroup` rows each:
    /// forward and data gradient on the grouped curve, weight gradient as a dense GEMM of
    /// in x out with the tokens per group as reduction.
    double groupedLinear(double groups, double tokensPerGroup, double in, double out) const;
    /// Best dense efficiency of the table after scaling (= the ceiling).
    double ceiling() const { return m_ceiling; }

private:
    struct Level {  // one published M (or tokens per group)
        double log2m = 0;
        std::vector<double> log2n, log2k, eff;
    };
    double levelValue(const Level& l, double ln, double lk) const;
    double denseAtLog(double lm, double ln, double lk) const;
    std::vector<Level> m_dense;                      // by M ascending
    std::vector<double> m_groupLog2m, m_groupRatio;  // tokens per group ascending
    double m_ceiling = 0;
};

}  // namespace tandem::mosaic
