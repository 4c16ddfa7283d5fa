// Fuzz target: `tandem-cli plan` MODEL.json reader (readPlanModel) and the layout search on a
// small cluster. Invariants: never crashes; rejections are explained; every feasible layout has
// 0 < MFU <= 1, a finite positive iteration time, memory per GPU within the device's usable
// memory (never MFU above 100 % or a config whose dimensions disagree).
#include <cmath>

#include "common/json_reader.h"
#include "fuzz_support.h"
#include "mosaic/plan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace tandem;
    Diagnostics diag("MODEL.json");
    const auto j = parseJsonText(fuzz::text(data, size), diag);
    if (!diag.ok()) return 0;
    if (!j.is_object()) return 0;  // the CLI rejects non-objects before readPlanModel
    JsonReader r(j, "$", diag);
    mosaic::Geometry g;
    if (!mosaic::readPlanModel(r, g)) {
        fuzz::requireExplained(diag);
        return 0;
    }
    mosaic::Cluster c;
    c.hardware = mosaic::builtinHardware("h100");
    c.devices = 16;
    c.globalBatch = 64;
    c.seqLen = 1024;
    mosaic::LayoutGrid grid;
    grid.pp = {1, 2};
    grid.ep = {1, 2, 8};
    grid.mbs = {1};
    const auto layouts = mosaic::planLayouts(g, c, grid, 4);
    for (const auto& [p, ev] : layouts) {
        fuzz::require(ev.feasible, "planLayouts returned an infeasible layout");
        fuzz::require(ev.mfu > 0 && ev.mfu <= 1, "MFU outside (0, 1]");
        fuzz::require(std::isfinite(ev.iteration_s) && ev.iteration_s > 0,
                      "iteration time invalid");
        fuzz::require(ev.memoryGB * 1e9 <= c.hardware.memoryBytes * (1 + 1e-9),
                      "feasible layout above device memory");
        fuzz::require(p.tp * p.cp * p.pp * p.dp == c.devices, "mesh does not cover the devices");
        fuzz::require(p.dp % p.ep == 0, "EP does not divide DP");
    }
    mosaic::Plan one;
    one.dp = c.devices;
    const auto ev = mosaic::evaluateLayout(g, c, one);
    fuzz::require(!ev.feasible || (ev.mfu > 0 && ev.mfu <= 1), "single layout MFU outside (0, 1]");
    (void)fuzz::dumpLikeCli(mosaic::planToJson(g, c, layouts));
    return 0;
}
