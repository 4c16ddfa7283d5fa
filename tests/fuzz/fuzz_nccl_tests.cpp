// Fuzz target: nccl-tests log importer (parseNcclTests), interpolation and collective times.
// Invariants: never crashes; rejections are explained; every curve has finite, non-negative
// bus bandwidths, sorted unique sizes; interpolated busbw never exceeds the measured peak;
// collective times are never negative or NaN (no int overflow on > 2 GB buffers, no achieved
// bandwidth above the measured one).
#include <cmath>

#include "fuzz_support.h"
#include "io/nccl_tests.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace tandem;
    Diagnostics diag("H100-all_reduce-2x8.txt");
    const auto imp = io::parseNcclTests(fuzz::text(data, size), "H100-all_reduce-2x8.txt", diag);
    if (!imp) {
        fuzz::requireExplained(diag);
        return 0;
    }
    for (const auto& c : imp->curves) {
        double prev = -1;
        for (const auto& p : c.points) {
            fuzz::require(std::isfinite(p.busbw_Bps) && p.busbw_Bps >= 0,
                          "busbw not finite or negative");
            fuzz::require(p.bytes > prev, "sizes not strictly increasing");
            fuzz::require(p.busbw_Bps <= c.peakBusbw_Bps, "a point above the curve's peak");
            prev = p.bytes;
        }
        for (double bytes : {1.0, 1e6, 2.5e9, 4.3e9, 1e10, 1e12}) {
            const auto bw = io::effectiveBusBandwidth(c, bytes);
            fuzz::require(std::isfinite(bw.busbw_Bps) && bw.busbw_Bps >= 0,
                          "busbw at size invalid");
            fuzz::require(bw.busbw_Bps <= c.peakBusbw_Bps * (1 + 1e-12), "interpolated above peak");
            const double t = io::collectiveTime_s(c, bytes);
            fuzz::require(!std::isnan(t) && t >= 0, "collective time negative or NaN");
        }
        (void)fuzz::dumpLikeCli(io::ncclCurveToJson(c));
    }
    return 0;
}
