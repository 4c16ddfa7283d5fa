// Kernel tables (resources/kernels/, compiled in) and GEMM efficiency by shape
// (mosaic/kernel_efficiency.h): the published numbers read as published, exact at published
// shapes, the grouped GEMM tending to the dense one at large tokens per group and falling at
// small ones as DeepGEMM's table says, and the expert-granularity check of issue 28 by hand.
#include <QtTest>
#include <cmath>

#include "mosaic/geometry.h"
#include "mosaic/hardware.h"
#include "mosaic/kernel_efficiency.h"
#include "mosaic/perf_model.h"
#include "mosaic/stack.h"
#include "test_main.h"

using namespace tandem::mosaic;

namespace {

constexpr double kH800Fp8Peak = 1979e12;  // resources/hardware/h100.json peak_fp8

/// The shape table at its own level (ceiling = its best published efficiency, 1520 TFLOP/s).
GemmEfficiency asPublished() {
    return GemmEfficiency(builtinKernelTables().shapes, 1520e12 / kH800Fp8Peak);
}

double published(double tflops) { return tflops * 1e12 / kH800Fp8Peak; }

/// Fwd + bwd time of a SwiGLU MLP (fc1 d -> 2 w, fc2 w -> d) on `tokens` rows, FLOPs / eff, in
/// units of 1 / peak.
double mlpTime(const GemmEfficiency& e, double tokens, double d, double w) {
    const double fc1 = 6 * tokens * d * 2 * w, fc2 = 6 * tokens * w * d;
    return fc1 / e.denseLinear(tokens, d, 2 * w) + fc2 / e.denseLinear(tokens, w, d);
}

/// The same for E experts of width w, top-K, over `tokens` rows (E groups of T K / E rows).
double expertTime(const GemmEfficiency& e, double tokens, double d, double w, int experts,
                  int topK) {
    const double m = tokens * topK / experts;
    const double fc1 = 6 * tokens * topK * d * 2 * w, fc2 = 6 * tokens * topK * w * d;
    return fc1 / e.groupedLinear(experts, m, d, 2 * w) + fc2 / e.groupedLinear(experts, m, w, d);
}

/// Two layers of d = 6144 (48 heads, 8 KV heads), 32k vocabulary: MoE with `experts` of width
/// `width`, top-`topK`, or (experts = 0) a dense SwiGLU FFN of width `width`.
Geometry twoLayers(int experts, int topK, int width) {
    Geometry g;
    g.layers = 2;
    g.dModel = 6144;
    g.nHead = 48;
    g.nKvHead = 8;
    g.vocab = 32000;
    g.dFf = experts > 0 ? 16384 : width;
    if (experts > 0) {
        g.experts = experts;
        g.topK = topK;
        g.dExpert = width;
        g.splitG = 16384 / width;
    } else {
        g.denseLayers = 2;
    }
    countParameters(g);
    return g;
}

/// Compute time of one step of `g` under megatron-core, FP8 on 64 H100 (TP 2, EP 8, DP 32,
/// B_micro 4 x 4096 tokens: 8192 tokens per expert in both MoE layers), s.
double megatronCompute(const Geometry& g) {
    Cluster c;
    c.hardware = builtinHardware("h100");
    c.devices = 64;
    c.globalBatch = 256;
    c.seqLen = 4096;
    c.stack = megatronCoreStack();
    c.precision = Precision::Fp8;
    Plan p;
    p.tp = 2;
    p.dp = 32;
    p.ep = g.experts > 0 ? 8 : 1;
    p.mbs = 4;
    p.ckpt = Checkpointing::Full;
    const PlanEval e = PerfModel(g, c).evaluate(p);
    return e.feasible ? e.breakdown.compute_s : -1;
}

}  // namespace

class TestMosaicKernels : public QObject {
    Q_OBJECT
private slots:
    void tablesReadAsPublished() {
        const KernelTables& t = builtinKernelTables();
        QCOMPARE(t.shapes.name, std::string("deepgemm-h800-fp8"));
        QCOMPARE(int(t.shapes.dense.size()), 18);
        QCOMPARE(int(t.shapes.grouped.size()), 10);
        QVERIFY(!t.shapes.sources.empty() && !t.ceilingSources.empty());
        QCOMPARE(t.shapes.peakFlops, kH800Fp8Peak);
        // DeepGEMM README @327ec92f: 4096 x 7168 x 16384 at 1520 TFLOPS; masked 4 x 256 rows,
        // 7168 x 2048 at 815 TFLOPS.
        bool dense = false, grouped = false;
        for (const auto& p : t.shapes.dense)
            dense = dense || (p.m == 4096 && p.n == 7168 && p.k == 16384 && p.tflops == 1520);
        for (const auto& p : t.shapes.grouped)
            grouped = grouped || (p.layout == "masked" && p.groups == 4 && p.mPerGroup == 256 &&
                                  p.n == 7168 && p.k == 2048 && p.tflops == 815);
        QVERIFY(dense && grouped);
        QCOMPARE(int(t.ceilings.size()), 10);
        // Every MAMF row's "Theory" is the dense peak of each hardware sheet it stands for, so
        // MAMF / the sheet's peak is the efficiency the table publishes.
        for (const MatmulCeiling& c : t.ceilings) {
            QVERIFY(!c.hardware.empty());
            for (const std::string& name : c.hardware)
                QCOMPARE(precisionPeakFlops(builtinHardware(name), c.precision),
                         c.theoryTflops * 1e12);
        }
    }

    /// MXFP8 (block-scaled FP8) runs only where the microscaling tensor cores are, on the
    /// devices with an FP4 peak (Blackwell): Hopper has per-tensor FP8 only, A100 no FP8.
    void precisionSupport_data() {
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<int>("precision");
        QTest::addColumn<double>("peak");
        QTest::addColumn<QString>("why");
        const int fp8 = int(Precision::Fp8), mx = int(Precision::Mxfp8);
        QTest::newRow("h100 fp8") << "h100" << fp8 << 1979e12 << "";
        QTest::newRow("h100 mxfp8")
            << "h100" << mx << 0.0
            << "h100 has no MXFP8 (block-scaled FP8 needs the microscaling tensor cores that come "
               "with FP4; peak_fp4_TFLOPs_per_s is 0): use bf16, fp8";
        QTest::newRow("h200 mxfp8")
            << "h200" << mx << 0.0
            << "h200 has no MXFP8 (block-scaled FP8 needs the microscaling tensor cores that come "
               "with FP4; peak_fp4_TFLOPs_per_s is 0): use bf16, fp8";
        QTest::newRow("a100 mxfp8")
            << "a100" << mx << 0.0 << "a100 has no FP8 peak (peak_fp8_TFLOPs_per_s is 0): use bf16";
        QTest::newRow("gb200 mxfp8") << "gb200-nvl72" << mx << 5000e12 << "";
    }
    void precisionSupport() {
        QFETCH(QString, hardware);
        QFETCH(int, precision);
        QFETCH(double, peak);
        QFETCH(QString, why);
        const Hardware h = builtinHardware(hardware.toStdString());
        QCOMPARE(precisionPeakFlops(h, Precision(precision)), peak);
        QCOMPARE(QString::fromStdString(precisionUnsupported(h, Precision(precision))), why);
    }

    void ceilingEfficiency() {
        QCOMPARE(*matmulCeilingEfficiency("h100", Precision::Bf16), 794.5e12 / 989e12);
        QCOMPARE(*matmulCeilingEfficiency("dgx-h100", Precision::Fp8), 1402.6e12 / 1979e12);
        QCOMPARE(*matmulCeilingEfficiency("h200", Precision::Fp8), 1453.4e12 / 1979e12);
        QCOMPARE(*matmulCeilingEfficiency("gb200-nvl72", Precision::Mxfp8), 3615.6e12 / 5000e12);
        QCOMPARE(*matmulCeilingEfficiency("dgx-a100", Precision::Bf16), 271.2e12 / 312e12);
        QVERIFY(!matmulCeilingEfficiency("a100", Precision::Fp8));  // no FP8 row for A100
        QVERIFY(!matmulCeilingEfficiency("no-such-gpu", Precision::Bf16));
        const auto e = GemmEfficiency::forHardware("h100", Precision::Bf16);
        QVERIFY(e.has_value());
        QCOMPARE(e->ceiling(), 794.5 / 989);
        // The table's best shape lands on the ceiling.
        QVERIFY(std::abs(e->dense(4096, 7168, 16384) - 794.5 / 989) < 1e-12);
    }

    void denseExactAtPublishedShapes() {
        const GemmEfficiency e = asPublished();
        for (const DenseGemmPoint& p : builtinKernelTables().shapes.dense)
            QVERIFY2(std::abs(e.dense(p.m, p.n, p.k) - published(p.tflops)) < 1e-12,
                     qPrintable(QString("%1x%2x%3").arg(p.m).arg(p.n).arg(p.k)));
        // Between published Ms: linear in log2 M (M = 1024 is 3/5 of the way from 128 to 4096).
        const double at1024 = 0.4 * published(533) + 0.6 * published(1410);
        QVERIFY(std::abs(e.dense(1024, 4096, 7168) - at1024) < 1e-12);
        // Above 4096 rows: the 4096-row value; below 64: one 64-row GEMM's time.
        QCOMPARE(e.dense(65536, 4096, 7168), published(1410));
        QVERIFY(std::abs(e.dense(16, 4096, 7168) - published(287) / 4) < 1e-12);
        // Off the table: between its neighbours (inverse-distance weights in log space).
        const double mid = e.dense(4096, 8192, 8192);
        QVERIFY(mid > published(775) && mid < published(1520));
    }

    void groupedTendsToDenseAndFallsAtSmallTiles() {
        const GemmEfficiency e = asPublished();
        // Ratio of the grouped table to the dense GEMM of the same (N, K) at 4096 rows,
        // geometric mean over the two published (N, K) pairs.
        auto ratio = [](double a, double b) { return std::sqrt(a / 1410.0 * (b / 1168.0)); };
        const double r8192 = ratio(1346, 1214), r1024 = ratio(1233, 925), r512 = ratio(1040, 916),
                     r256 = ratio(932, 815);
        QVERIFY(std::abs(e.grouped(4, 8192, 4096, 7168) / published(1410) - r8192) < 1e-12);
        QVERIFY(std::abs(e.grouped(1, 1024, 7168, 2048) / published(1168) - r1024) < 1e-12);
        QVERIFY(std::abs(e.grouped(2, 512, 4096, 7168) / published(1410) - r512) < 1e-12);
        QVERIFY(std::abs(e.grouped(4, 256, 7168, 2048) / published(1168) - r256) < 1e-12);
        // Large tokens per group: the dense GEMM of the same shape within 1 %.
        for (double n : {2048.0, 4096.0, 7168.0, 16384.0})
            for (double k : {2048.0, 7168.0})
                QVERIFY(std::abs(e.grouped(8, 16384, n, k) / e.dense(16384, n, k) - 1) < 0.01);
        // Small tokens per group: falls as the table says (0.68 of dense at 256 rows), and
        // below 256 as the dense M ladder (128 rows: 533 / 1410 of 4096 rows at 4096 x 7168,
        // relative to 256 rows on that ladder).
        QVERIFY(r256 > 0.67 && r256 < 0.69);
        const double g128 = e.grouped(64, 128, 4096, 7168);
        const double ladder = published(533) / e.dense(256, 4096, 7168);
        QVERIFY(std::abs(g128 - published(1410) * r256 * ladder) < 1e-12);
        QVERIFY(g128 < e.grouped(64, 256, 4096, 7168));
        // Independent of the group count at fixed tokens per group.
        QCOMPARE(e.grouped(1, 700, 4096, 7168), e.grouped(128, 700, 4096, 7168));
    }

    // Issue 28, done-when 2: at fixed active FLOPs and large tokens per expert an 8-expert layer
    // (width 16384, top-2) and its 64-expert fine-grained twin (width 2048, top-16) cost within
    // 10 % of each other and of the dense GEMM of the same FLOPs; at small tokens per expert
    // the grouped GEMM's efficiency falls as the kernel table says.
    void expertGranularity() {
        const auto e = GemmEfficiency::forHardware("h100", Precision::Fp8);
        QVERIFY(e.has_value());
        const double d = 6144, tokens = 16384;  // 4096 tokens per expert in both layers
        const double coarse = expertTime(*e, tokens, d, 16384, 8, 2);
        const double fine = expertTime(*e, tokens, d, 2048, 64, 16);
        const double dense = mlpTime(*e, tokens, d, 2 * 16384);
        qInfo("8 x 16384 top-2: %.4g, 64 x 2048 top-16: %.4g, dense 32768: %.4g (1/peak s)", coarse,
              fine, dense);
        QVERIFY(std::abs(coarse / fine - 1) < 0.10);
        QVERIFY(std::abs(coarse / dense - 1) < 0.10);
        QVERIFY(std::abs(fine / dense - 1) < 0.10);
        // Small tokens per expert (1024 tokens: 256 rows per expert in the fine-grained layer):
        // the forward and data-gradient GEMMs run at 0.679 / 0.996 of their 4096-row efficiency
        // (DeepGEMM's masked 256-row points over its contiguous 4096-row ones, 1.47x the time),
        // the weight gradient (reduction over the 256 rows) at about 0.87: 1.36x per FLOP.
        const double fineSmall = expertTime(*e, 1024, d, 2048, 64, 16) * tokens / 1024;
        qInfo("fine-grained at 256 tokens per expert: %.4g (x %.3f)", fineSmall, fineSmall / fine);
        QVERIFY(fineSmall / fine > 1.3 && fineSmall / fine < 1.47);
        const double fall = std::sqrt(932.0 / 1410 * (815.0 / 1168)) /
                            std::sqrt(1346.0 / 1410 * (1214.0 / 1168));  // 0.682
        QVERIFY(std::abs(e->grouped(64, 256, 4096, 6144) / e->grouped(64, 4096, 4096, 6144) -
                         fall) < 1e-12);
    }

    // Through the performance model: under megatron-core (kernel tables) the 64-expert twin
    // (width 2048, top-16) costs 1.12x the 8-expert layer (width 16384, top-2) at 8192 tokens
    // per expert: the table's narrower GEMMs, its casts of 8x more routed copies of d in FP8 and
    // the fixed time of its 8 local experts (EP 8) against 1. On the analytical curves (grouped
    // width half 1093) the twin's width-2048 experts ran at 0.65 of the width-16384 ones'
    // efficiency: about 1.37x. (The MoE layers still cost about 1.8x the dense FFN of the same
    // FLOPs, by the fitted grouped factor, 0.46 of the grouped table, and the experts' memory-bound
    // passes: docs/MODEL-MOSAIC.md section 3.)
    void megatronCoreExpertGranularity() {
        const double coarse = megatronCompute(twoLayers(8, 2, 16384));
        const double fine = megatronCompute(twoLayers(64, 16, 2048));
        const double dense = megatronCompute(twoLayers(0, 0, 32768));
        qInfo("compute per step: 8 x 16384 top-2 %.4g s, 64 x 2048 top-16 %.4g s, dense %.4g s",
              coarse, fine, dense);
        QVERIFY(coarse > 0 && fine > 0 && dense > 0);
        QVERIFY(fine / coarse > 1.0 && fine / coarse < 1.15);
    }

    /// The memory-bound passes of a megatron-core layer, by hand: doubling the HBM bandwidth
    /// halves exactly the pointwise ops, counted byte by byte (two RMSNorms 10 d each, two
    /// residual adds 12 d each, RoPE 8 (q + kv); the MoE layer's FP32 router scores 24 E, the
    /// dense layer's SwiGLU 16 d_ff; not the paper stack's 215 B per token per d, which holds the
    /// experts' passes as well), and for an MoE layer the token
    /// permutation (8 T K d BF16 bytes) and the experts' own passes, T K (16 d_expert + 8 d +
    /// 12 d_expert) bytes in FP8 (SwiGLU forward and backward, the casts of each expert GEMM
    /// operand), 16 d_expert in BF16; in FP8 also the attention Linears' casts, 4 bytes per
    /// element of d, q, q + 2 kv and d, and a dense FFN's, 4 bytes per element of d, d_ff, d and
    /// 2 d_ff. Each per TP rank, per layer and micro-batch.
    void megatronCoreMemoryPasses_data() {
        QTest::addColumn<bool>("fp8");
        QTest::addColumn<bool>("moe");
        QTest::newRow("moe fp8") << true << true;
        QTest::newRow("moe bf16") << false << true;
        QTest::newRow("dense fp8") << true << false;
        QTest::newRow("dense bf16") << false << false;
    }
    void megatronCoreMemoryPasses() {
        QFETCH(bool, fp8);
        QFETCH(bool, moe);
        const Geometry g = moe ? twoLayers(64, 16, 2048) : twoLayers(0, 0, 32768);
        Cluster c;
        c.hardware = builtinHardware("h100");
        c.devices = 64;
        c.globalBatch = 256;
        c.seqLen = 4096;
        c.stack = megatronCoreStack();
        c.precision = fp8 ? Precision::Fp8 : Precision::Bf16;
        Plan p;
        p.tp = 2;
        p.dp = 32;
        p.ep = moe ? 8 : 1;
        p.mbs = 4;
        p.ckpt = Checkpointing::None;
        const PlanEval slow = PerfModel(g, c).evaluate(p);
        Cluster fast = c;
        fast.hardware.hbmBytesPerS *= 2;
        const PlanEval quick = PerfModel(g, fast).evaluate(p);
        QVERIFY(slow.feasible && quick.feasible);
        const double T = 4096.0 * 4, d = 6144, q = 6144, kv = 8 * 128, tp = 2;
        const double microbatches = 256.0 / (32 * 4), layers = 2;
        double bytes = T * (44 * d + 8 * (q + kv));
        bytes += moe ? T * 24 * 64 : T * 16 * 32768;
        if (fp8) bytes += T * (d + (q + 2 * kv) + q + d) * 4;
        if (moe) {
            const double w = 2048, k = 16;
            bytes += 8 * T * k * d * 2 + T * k * (16 * w + (fp8 ? 8 * d + 12 * w : 0.0));
        } else if (fp8) {
            const double ff = 32768;
            bytes += T * (d + ff + d + 2 * ff) * 4;
        }
        const double expected = microbatches * layers * bytes / tp / c.hardware.hbmBytesPerS / 2;
        const double measured = slow.breakdown.compute_s - quick.breakdown.compute_s;
        qInfo("compute %.6g s -> %.6g s: %.6g s less, by hand %.6g s", slow.breakdown.compute_s,
              quick.breakdown.compute_s, measured, expected);
        QVERIFY2(std::abs(measured / expected - 1) < 1e-9, QByteArray::number(measured / expected));
    }
};

TANDEM_TEST_APPLESS_MAIN(TestMosaicKernels)
#include "tst_mosaic_kernels.moc"
