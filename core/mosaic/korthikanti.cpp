#include "mosaic/korthikanti.h"

#include <cmath>
#include <iterator>
#include <sstream>

#include "common/csv.h"
#include "common/number_format.h"
#include "mosaic/geometry.h"
#include "mosaic/hardware.h"

namespace tandem::mosaic {

extern const char* const kKorthikantiCsv;  // korthikanti_data.cpp (generated)

namespace {

const char* const kColumns[] = {"point",
                                "model",
                                "quantity",
                                "layout_mode",
                                "value",
                                "unit",
                                "attention_heads",
                                "hidden",
                                "layers",
                                "ffn_hidden",
                                "vocab",
                                "seq_len",
                                "tp",
                                "pp",
                                "vp",
                                "dp",
                                "gpus",
                                "global_batch",
                                "micro_batch",
                                "precision_bits",
                                "gpu",
                                "source"};
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

bool readNumber(const std::string& text, double& v) {
    const std::optional<double> parsed = parseNumber(text);
    v = parsed.value_or(0);
    return parsed.has_value();
}

}  // namespace

const EnumTable<KorthikantiQuantity>& korthikantiQuantityNames() {
    static const EnumTable<KorthikantiQuantity> t = {
        {KorthikantiQuantity::ParametersAndOptimizer, "parameters_and_optimizer_per_gpu"},
        {KorthikantiQuantity::Activations, "activations_per_gpu"},
        {KorthikantiQuantity::IterationTime, "iteration_time"}};
    return t;
}

const EnumTable<KorthikantiMode>& korthikantiModeNames() {
    static const EnumTable<KorthikantiMode> t = {
        {KorthikantiMode::Baseline, "baseline"},
        {KorthikantiMode::SpSelective, "sp_selective"},
        {KorthikantiMode::FullRecompute, "full_recompute"}};
    return t;
}

const EnumTable<KorthikantiUnit>& korthikantiUnitNames() {
    static const EnumTable<KorthikantiUnit> t = {{KorthikantiUnit::GiB, "GiB"},
                                                 {KorthikantiUnit::Seconds, "s"}};
    return t;
}

std::vector<KorthikantiPoint> parseKorthikantiPoints(const std::string& csv, Diagnostics& diag) {
    std::vector<KorthikantiPoint> out;
    readCsvTable(csv, std::vector<std::string>(std::begin(kColumns), std::end(kColumns)), diag,
                 [&](const std::vector<std::string>& f, const std::string& where, int lineNo) {
                     KorthikantiPoint p;
                     p.line = lineNo;
                     p.point = f[0];
                     p.model = f[1];
                     p.source = f[21];
                     bool ok = true;
                     auto bad = [&](size_t col, const std::string& why) {
                         diag.error(where + ", " + kColumns[col],
                                    why + " (got \"" + f[col] + "\")");
                         ok = false;
                     };
                     const auto quantity = enumFromName(korthikantiQuantityNames(), f[2]);
                     if (quantity)
                         p.quantity = *quantity;
                     else
                         bad(2,
                             "must be parameters_and_optimizer_per_gpu, activations_per_gpu or "
                             "iteration_time");
                     const auto mode = enumFromName(korthikantiModeNames(), f[3]);
                     if (mode)
                         p.mode = *mode;
                     else
                         bad(3, "must be baseline, sp_selective or full_recompute");
                     const bool time = quantity == KorthikantiQuantity::IterationTime;
                     const bool memory = quantity && !time;
                     if (!readNumber(f[4], p.value) || !(p.value > 0))
                         bad(4, "must be a positive number");
                     const auto unit = enumFromName(korthikantiUnitNames(), f[5]);
                     if ((memory && unit != KorthikantiUnit::GiB) ||
                         (time && unit != KorthikantiUnit::Seconds))
                         bad(5, "must be GiB for memory and s for iteration time");
                     else if (unit)
                         p.unit = *unit;
                     int* ints[] = {&p.heads,  &p.hidden,      &p.layers,    &p.ffn, &p.vocab,
                                    &p.seqLen, &p.tp,          &p.pp,        &p.vp,  &p.dp,
                                    &p.gpus,   &p.globalBatch, &p.microBatch};
                     for (size_t i = 0; i < std::size(ints); ++i) {
                         const size_t col = 6 + i;
                         double v = 0;
                         if (!readNumber(f[col], v) || v != std::floor(v) || v < 1 || v > 1e9)
                             bad(col, "must be an integer >= 1");
                         else
                             *ints[i] = int(v);
                     }
                     double bits = 0;
                     if (!readNumber(f[19], bits) || bits != 16)
                         bad(19, "must be 16 (16-bit mixed precision)");
                     if (ok && p.gpus != p.tp * p.pp * p.dp) bad(16, "must equal tp x pp x dp");
                     if (ok && p.hidden % p.heads != 0) bad(6, "must divide hidden");
                     if (ok) out.push_back(std::move(p));
                 });
    return out;
}

const std::vector<KorthikantiPoint>& shippedKorthikantiPoints() {
    static const std::vector<KorthikantiPoint> points = [] {
        Diagnostics d("points.csv");
        return parseKorthikantiPoints(kKorthikantiCsv, d);
    }();
    return points;
}

Geometry korthikantiGeometry(const KorthikantiPoint& p) {
    Geometry g = denseGeometry(p.layers, p.hidden, p.heads, p.heads, p.ffn, p.vocab);
    g.denseFfnMatrices = 2;  // GPT-3's GeLU MLP
    countParameters(g);
    return g;
}

std::vector<KorthikantiResult> costKorthikantiPoints(const Stack& stack) {
    std::vector<KorthikantiResult> out;
    for (const KorthikantiPoint& pt : shippedKorthikantiPoints()) {
        KorthikantiResult r;
        r.point = pt;
        Cluster c;
        c.hardware = builtinHardware("dgx-a100");
        c.devices = pt.gpus;
        c.globalBatch = pt.globalBatch;
        c.seqLen = pt.seqLen;
        c.stack = stack;
        c.precision = Precision::Bf16;
        const PerfModel model(korthikantiGeometry(pt), c);
        Plan& p = r.plan;
        p.tp = pt.tp;
        p.pp = pt.pp;
        p.vp = pt.vp;
        p.dp = pt.dp;
        p.mbs = pt.microBatch;
        p.distributedOptimizer = false;
        p.sequenceParallel = pt.mode != KorthikantiMode::Baseline;
        p.ckpt = pt.mode == KorthikantiMode::FullRecompute ? Checkpointing::Full
                 : pt.mode == KorthikantiMode::SpSelective ? Checkpointing::CoreAttention
                                                           : Checkpointing::None;
        r.eval = model.evaluate(p);
        r.expressible = true;
        const MemoryBreakdown& m = r.eval.memory;
        if (pt.quantity == KorthikantiQuantity::ParametersAndOptimizer)
            r.tandem = (m.weights + m.gradients + m.optimizer) * 1e9 / kGiB;
        else if (pt.quantity == KorthikantiQuantity::Activations)
            r.tandem = m.activations * 1e9 / kGiB;
        else
            r.tandem = r.eval.feasible ? r.eval.iteration_s : std::nan("");
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<Check> korthikantiChecks(const std::vector<KorthikantiResult>& results) {
    std::vector<Check> out;
    for (const KorthikantiResult& r : results) {
        if (!r.expressible) continue;
        const KorthikantiPoint& p = r.point;
        const std::string what = p.quantity == KorthikantiQuantity::IterationTime
                                     ? "iteration time, s"
                                     : (p.quantity == KorthikantiQuantity::Activations
                                            ? "activation memory per GPU (first stage), GiB"
                                            : "parameters + optimizer per GPU, GiB");
        out.push_back(makeCheck("korthikanti." + p.point, what + " (" + p.source + ", band +-10 %)",
                                p.value, r.tandem, 0.9 * p.value, 1.1 * p.value));
    }
    return out;
}

}  // namespace tandem::mosaic
