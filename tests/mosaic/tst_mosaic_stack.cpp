// Training stacks and Megatron-Core layouts: memory of a small dense model by hand with and
// without the distributed optimizer, the interleaved-1F1B bubble, expert-parallel folding's
// validity rules, precision peaks and the memory remedy order (the measured runs of
// `reproduce reality` are tst_mosaic_reality).
#include <QtTest>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mosaic/geometry.h"
#include "mosaic/layout_form.h"
#include "mosaic/megatron_args.h"
#include "mosaic/perf_model.h"
#include "mosaic/plan.h"
#include "mosaic/plan_report.h"
#include "mosaic/reality.h"
#include "mosaic/stack.h"
#include "test_main.h"

using namespace tandem::mosaic;

namespace {

// L = 2, d = 64, 4 heads (MHA), d_ff = 256, V = 100: 4 d^2 + 3 d d_ff = 65536 per layer.
Geometry smallDense() {
    Geometry g;
    g.layers = 2;
    g.dModel = 64;
    g.nHead = 4;
    g.nKvHead = 4;
    g.dFf = 256;
    g.vocab = 100;
    g.denseLayers = 2;
    countParameters(g);
    return g;
}

Geometry smallMoe() {
    Geometry g;
    g.layers = 8;
    g.dModel = 512;
    g.nHead = 8;
    g.nKvHead = 8;
    g.dFf = 2048;
    g.experts = 16;
    g.topK = 2;
    g.dExpert = 512;
    g.splitG = 4;
    g.vocab = 1000;
    countParameters(g);
    return g;
}

Cluster cluster(const Stack& s, int devices, const char* hw = "h100") {
    Cluster c;
    c.hardware = builtinHardware(hw);
    c.devices = devices;
    c.globalBatch = 64;
    c.seqLen = 1024;
    c.stack = s;
    return c;
}

}  // namespace

class TestMosaicStack : public QObject {
    Q_OBJECT
private slots:
    void denseMemoryByHand_data() {
        QTest::addColumn<bool>("distributed");
        QTest::addColumn<double>("optimizerBytes");
        // 2 x 65536 layer weights + 2 x 100 x 64 embedding and LM head = 143872 parameters on
        // the single stage (TP 1). megatron-core keeps BF16 main gradients (Megatron-Bridge
        // grad_reduce_in_fp32 = False), so the optimizer holds FP32 master weight, two moments
        // and the FP32 main gradient: 16 B, over DP with the distributed optimizer (Megatron-Core
        // distributed optimizer documentation: 4 + 16/d bytes per parameter).
        QTest::newRow("distributed optimizer") << true << 16.0 * 143872 / 4;
        QTest::newRow("replicated optimizer") << false << 16.0 * 143872;
    }
    void denseMemoryByHand() {
        QFETCH(bool, distributed);
        QFETCH(double, optimizerBytes);
        const Geometry g = smallDense();
        QCOMPARE(attentionParams(g) + denseFfnParams(g), 65536.0);
        const PerfModel m(g, cluster(megatronCoreStack(), 4));
        Plan p;
        p.dp = 4;
        p.distributedOptimizer = distributed;
        const PlanEval e = m.evaluate(p);
        QVERIFY2(e.feasible, e.reason.c_str());
        QCOMPARE(e.memory.weights, 2.0 * 143872 / 1e9);
        QCOMPARE(e.memory.gradients, 2.0 * 143872 / 1e9);
        QCOMPARE(e.memory.optimizer, optimizerBytes / 1e9);
        // Activations: 1024 tokens x 2 layers x (7 d + 2 kv + 3 d_ff = 1344 elements) x 2 B, one
        // microbatch in flight; logits 1024 x 100 x 2 B.
        QCOMPARE(e.memory.activations, 1024.0 * 2 * 1344 * 2 / 1e9);
        QCOMPARE(e.memory.other, 1024.0 * 100 * 2 / 1e9);
        const double sum = e.memory.weights + e.memory.gradients + e.memory.optimizer +
                           e.memory.activations + e.memory.other;
        QVERIFY(std::abs(sum - e.memoryGB) < 1e-12);
    }

    /// Static state per parameter by stack and precision recipe, by hand on the small dense
    /// model (131072 GEMM weights, 12800 embedding and LM head; DP 4, GB200). megatron-core as
    /// the Megatron-Bridge recipes run it: BF16 main gradients (2 B) and 16 B of optimizer state
    /// over DP; FP8 and MXFP8 keep the GEMM weights only in FP8 (fp8_param_gather: 1 B, MXFP8
    /// 2 + 2/32 B with its row- and column-wise copies), NVFP4 keeps BF16 weights beside its
    /// FP4 copies (1 + 2/16 B). mosaic-paper and megatron-lm-2022: BF16 weights, FP32 main
    /// gradients, 12 B over DP (6 + 12/d).
    void staticBytesPerParameter_data() {
        QTest::addColumn<QString>("stack");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<double>("weights");
        QTest::addColumn<double>("gradients");
        QTest::addColumn<double>("optimizer");
        const double all = 143872, gemm = 131072, vocab = 12800;
        QTest::newRow("megatron-core bf16") << "megatron-core"
                                            << "bf16" << 2 * all << 2 * all << 16 * all / 4;
        QTest::newRow("megatron-core fp8") << "megatron-core"
                                           << "fp8" << 2 * vocab + gemm << 2 * all << 16 * all / 4;
        QTest::newRow("megatron-core mxfp8")
            << "megatron-core"
            << "mxfp8" << 2 * vocab + (2 + 2.0 / 32) * gemm << 2 * all << 16 * all / 4;
        QTest::newRow("megatron-core nvfp4")
            << "megatron-core"
            << "nvfp4" << 2 * all + (1 + 2.0 / 16) * gemm << 2 * all << 16 * all / 4;
        QTest::newRow("mosaic-paper bf16") << "mosaic-paper"
                                           << "bf16" << 2 * all << 4 * all << 12 * all / 4;
        QTest::newRow("megatron-lm-2022 bf16") << "megatron-lm-2022"
                                               << "bf16" << 2 * all << 4 * all << 12 * all / 4;
    }
    void staticBytesPerParameter() {
        QFETCH(QString, stack);
        QFETCH(QString, precision);
        QFETCH(double, weights);
        QFETCH(double, gradients);
        QFETCH(double, optimizer);
        Cluster c = cluster(builtinStack(stack.toStdString()), 4, "gb200-nvl72");
        QVERIFY(parsePrecision(precision.toStdString(), c.precision));
        const PerfModel m(smallDense(), c);
        Plan p;
        p.dp = 4;
        const PlanEval e = m.evaluate(p);
        QVERIFY2(e.feasible, e.reason.c_str());
        QVERIFY2(std::abs(e.memory.weights - weights / 1e9) < 1e-15,
                 QByteArray::number(e.memory.weights * 1e9).constData());
        QCOMPARE(e.memory.gradients, gradients / 1e9);
        QCOMPARE(e.memory.optimizer, optimizer / 1e9);
    }

    /// FSDP shards parameters and gradients over DP and gathers one layer ahead (one layer
    /// prefetched, not two): with 2 layers and 143872 parameters on the stage, one layer is
    /// 71936 parameters of BF16 weight and BF16 gradient (megatron-core), beside the logits.
    void fsdpGathersOneLayer() {
        const PerfModel m(smallDense(), cluster(megatronCoreStack(), 4, "gb200-nvl72"));
        Plan p;
        p.dp = 4;
        p.fsdp = true;
        const PlanEval e = m.evaluate(p);
        QVERIFY2(e.feasible, e.reason.c_str());
        QCOMPARE(e.memory.weights, 2.0 * 143872 / 4 / 1e9);
        QCOMPARE(e.memory.gradients, 2.0 * 143872 / 4 / 1e9);
        QCOMPARE(e.memory.optimizer, 16.0 * 143872 / 4 / 1e9);
        const double layer = 143872.0 / 2, logits = 1024.0 * 100 * 2;
        QVERIFY2(std::abs(e.memory.other - (layer * 2 + layer * 2 + logits) / 1e9) < 1e-15,
                 QByteArray::number(e.memory.other * 1e9).constData());
    }

    void vpBubble() {
        // Interleaved 1F1B: t_bubble = (PP - 1) / VP x t_mb [Narayanan et al. 2021 Sec. 2.2].
        // Pipeline send/recv made free so that t_mb does not change with VP.
        Cluster c = cluster(megatronCoreStack(), 8);
        c.hardware.intraLatency_s = 0;
        c.hardware.nvlinkBytesPerS = 1e30;
        Geometry g = smallMoe();
        const PerfModel m(g, c);
        Plan p;
        p.pp = 4;
        p.dp = 2;
        p.ep = 2;
        const PlanEval one = m.evaluate(p);
        p.vp = 2;
        const PlanEval two = m.evaluate(p);
        QVERIFY2(one.feasible && two.feasible, (one.reason + two.reason).c_str());
        QVERIFY(one.breakdown.bubble_s > 0);
        QVERIFY(std::abs(two.breakdown.bubble_s / one.breakdown.bubble_s - 0.5) < 1e-9);
        QVERIFY(two.iteration_s < one.iteration_s);
        // Interleaving keeps more activations in flight on the first stage.
        QVERIFY(two.memory.activations > one.memory.activations);
        p.vp = 3;  // 4 x 3 = 12 chunks > 8 layers + 2
        QCOMPARE(QString::fromStdString(m.evaluate(p).reason),
                 QStringLiteral("PP x VP exceeds the number of layers + 2"));
        // The paper's stack has no interleaving.
        const PerfModel paper(g, cluster(mosaicPaperStack(), 8));
        p.vp = 2;
        QVERIFY(!paper.evaluate(p).feasible);
    }

    void expertFolding_data() {
        QTest::addColumn<QString>("stack");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("ep");
        QTest::addColumn<int>("etp");
        QTest::addColumn<QString>("reason");
        // 8 GPUs, PP 1: TP x DP = 8.
        QTest::newRow("folded EP > DP") << "megatron-core" << 2 << 8 << 1 << "";
        QTest::newRow("folded EP x ETP = 8") << "megatron-core" << 2 << 4 << 2 << "";
        QTest::newRow("folded EP x ETP > mesh")
            << "megatron-core" << 2 << 16 << 1
            << "EP x ETP must divide TP x CP x DP (expert-parallel folding)";
        QTest::newRow("paper EP > DP")
            << "mosaic-paper" << 2 << 8 << 1 << "EP must divide DP (DP = EP x EDP, App. D.1)";
        QTest::newRow("paper ETP")
            << "mosaic-paper" << 1 << 2 << 2
            << "ETP > 1 needs an MoE model and a stack with expert-parallel folding";
    }
    void expertFolding() {
        QFETCH(QString, stack);
        QFETCH(int, tp);
        QFETCH(int, ep);
        QFETCH(int, etp);
        QFETCH(QString, reason);
        const PerfModel m(smallMoe(), cluster(builtinStack(stack.toStdString()), 8));
        Plan p;
        p.tp = tp;
        p.dp = 8 / tp;
        p.ep = ep;
        p.etp = etp;
        const char* err = m.structuralError(p);
        QCOMPARE(QString::fromUtf8(err ? err : ""), reason);
    }

    void precisionPeaks() {
        Cluster c = cluster(megatronCoreStack(), 8, "a100");
        c.precision = Precision::Fp8;
        const PerfModel m(smallMoe(), c);
        Plan p;
        p.dp = 8;
        QCOMPARE(QString::fromUtf8(m.structuralError(p)),
                 QStringLiteral("the hardware has no peak for this precision"));
        // FP8 GEMMs at the H100 FP8 peak: faster than BF16 at d = 4096, attention and LM head
        // unchanged. At d = 64 the GEMMs are too small to gain and the casts of every Linear's
        // input and output gradient to FP8 (4 bytes per element over HBM) make it slower.
        Geometry wide = smallDense();
        wide.dModel = 4096;
        wide.nHead = 32;
        wide.nKvHead = 8;
        wide.dFf = 14336;
        wide.vocab = 32000;
        countParameters(wide);
        for (const bool large : {true, false}) {
            const Geometry& g = large ? wide : smallDense();
            Cluster h = cluster(megatronCoreStack(), 8);
            const PlanEval b = PerfModel(g, h).evaluate(p);
            h.precision = Precision::Fp8;
            const PlanEval f = PerfModel(g, h).evaluate(p);
            QVERIFY(b.feasible && f.feasible);
            QVERIFY2(large ? f.iteration_s < b.iteration_s : f.iteration_s > b.iteration_s,
                     large ? "d 4096" : "d 64");
        }
        Precision q;
        QVERIFY(parsePrecision("FP8-MX", q) && q == Precision::Mxfp8);
        QVERIFY(parsePrecision("FP8-CS", q) && q == Precision::Fp8);
        QVERIFY(!parsePrecision("fp16", q));
    }

    void precisionTables() {
        // Each precision's word reads back to it, upper or lower case.
        QCOMPARE(tandem::enumNames(precisionNames()),
                 (std::vector<std::string>{"bf16", "fp8", "mxfp8", "nvfp4"}));
        for (const auto& e : precisionNames()) {
            QCOMPARE(std::string(precisionName(e.value)), std::string(e.name));
            Precision q = Precision::Bf16;
            QVERIFY(parsePrecision(e.name, q) && q == e.value);
            std::string upper = e.name;
            for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
            q = Precision::Bf16;
            QVERIFY(parsePrecision(upper, q) && q == e.value);
        }
        // Each alias maps to its precision and is no precision's own word.
        const std::pair<const char*, Precision> aliases[] = {{"fp8-cs", Precision::Fp8},
                                                             {"FP8-DS", Precision::Fp8},
                                                             {"Fp8-Sc", Precision::Fp8},
                                                             {"FP8-MX", Precision::Mxfp8}};
        QCOMPARE(precisionAliases().size(), std::size(aliases));
        for (const auto& [text, want] : aliases) {
            Precision q = Precision::Bf16;
            QVERIFY2(parsePrecision(text, q) && q == want, text);
        }
        for (const auto& e : precisionAliases())
            QVERIFY(!tandem::enumFromName(precisionNames(), e.name));
        // Anything else is rejected and leaves the value alone.
        for (const char* bad : {"fp16", "", "fp8 ", "fp8-", "mx", "nvfp4-cs", "bf16,fp8"}) {
            Precision q = Precision::Nvfp4;
            QVERIFY2(!parsePrecision(bad, q), bad);
            QVERIFY(q == Precision::Nvfp4);
        }
    }

    void megatronModelFlops() {
        // Megatron's count reproduces the published Llama 3 70B ratio: 1892 TFLOP/s at 4224
        // tokens/s/GPU (Megatron-Bridge 26.04.01, 8192 tokens) = 447.9 GFLOP per token.
        Geometry g;
        std::string reason;
        QVERIFY(measuredModelGeometry("LLAMA3_70B", g, reason));
        Cluster c = cluster(megatronCoreStack(), 64);
        c.seqLen = 8192;
        const double perToken = PerfModel(g, c).modelFlopsPerToken();
        QVERIFY2(std::abs(perToken / (1892e12 / 4224) - 1) < 0.01,
                 QByteArray::number(perToken).constData());
        QVERIFY(!measuredModelGeometry("Nemotron_3_Super", g, reason));
        QVERIFY(reason.find("Mamba") != std::string::npos);
    }

    void foldedBestMatchesScan() {
        // The pruned search under expert-parallel folding (EP may exceed DP) returns the
        // plain scan's best plan: same MFU, and EP > DP is reached.
        Cluster c = cluster(megatronCoreStack(), 16);
        c.precision = Precision::Fp8;
        const PerfModel m(smallMoe(), c);
        LayoutGrid grid;
        grid.ep = {1, 2, 4, 8, 16};
        Plan best;
        QuickEval ev;
        QVERIFY(m.best(grid, best, ev));
        double scan = 0;
        bool epAboveDp = false;
        for (const Plan& p : m.enumerate(grid)) {
            const QuickEval q = m.quick(p);
            if (!q.feasible) continue;
            scan = std::max(scan, q.mfu);
            epAboveDp = epAboveDp || p.ep > p.dp;
        }
        QVERIFY(epAboveDp);
        QCOMPARE(ev.mfu, scan);
    }

    void launchArguments() {
        // A launch script's flags become the layout; --emit megatron writes the same flags back.
        Cluster c = cluster(megatronCoreStack(), 64);
        Plan p;
        std::string error;
        const std::string script =
            "torchrun pretrain_gpt.py \\\n  --tensor-model-parallel-size 4 "
            "--pipeline-model-parallel-size 8 \\\n"
            "  --num-layers-per-virtual-pipeline-stage 2 --micro-batch-size 1 "
            "--global-batch-size=256 \\\n"
            "  --seq-length 8192 --use-distributed-optimizer --recompute-granularity selective \\\n"
            "  --fp8-format hybrid --bf16";
        Geometry g;
        std::string reason;
        QVERIFY(measuredModelGeometry("LLAMA3_70B", g, reason));
        QVERIFY2(parseMegatronArguments(script, g, c, p, error), error.c_str());
        QCOMPARE(p.tp, 4);
        QCOMPARE(p.pp, 8);
        QCOMPARE(p.vp, 5);  // 80 layers / (8 stages x 2 layers per chunk)
        QCOMPARE(p.dp, 2);
        QCOMPARE(c.globalBatch, 256);
        QCOMPARE(c.seqLen, 8192);
        QVERIFY(p.distributedOptimizer && !p.fsdp);
        // "selective" without --recompute-modules is Megatron's default list, core_attn alone.
        QVERIFY(p.ckpt == Checkpointing::CoreAttention);
        QVERIFY(!p.sequenceParallel);  // no --sequence-parallel: off, Megatron's default
        QVERIFY(c.precision == Precision::Fp8);
        Plan back;
        Cluster c2 = cluster(megatronCoreStack(), 64);
        QVERIFY2(
            parseMegatronArguments(tandem::mosaic::megatronArguments(g, c, p), g, c2, back, error),
            error.c_str());
        QVERIFY(back.tp == p.tp && back.pp == p.pp && back.vp == p.vp && back.dp == p.dp &&
                back.ckpt == p.ckpt && back.sequenceParallel == p.sequenceParallel);
        QVERIFY(c2.precision == c.precision && c2.globalBatch == c.globalBatch);
        QVERIFY(!parseMegatronArguments("--tensor-model-parallel-size x", g, c, p, error));
        QCOMPARE(
            QString::fromStdString(error),
            QStringLiteral("--tensor-model-parallel-size must be a positive integer (got \"x\")"));
        QVERIFY(!parseMegatronArguments("--tensor-model-parallel-size 3", g, c, p, error));
    }

    void recomputeModules_data() {
        QTest::addColumn<QString>("flags");
        QTest::addColumn<int>("ckpt");
        QTest::newRow("none") << "" << int(Checkpointing::None);
        QTest::newRow("selective default")
            << "--recompute-granularity selective" << int(Checkpointing::CoreAttention);
        QTest::newRow("core_attn")
            << "--recompute-granularity selective --recompute-modules core_attn"
            << int(Checkpointing::CoreAttention);
        QTest::newRow("layernorm")
            << "--recompute-granularity selective --recompute-modules core_attn layernorm --bf16"
            << int(Checkpointing::Selective);
        QTest::newRow("moe_act") << "--recompute-modules moe_act --recompute-granularity selective"
                                 << int(Checkpointing::Selective);
        QTest::newRow("mlp")
            << "--recompute-granularity selective --recompute-modules core_attn mlp"
            << int(Checkpointing::SuperSelective);
        QTest::newRow("full") << "--recompute-granularity full --recompute-method uniform"
                              << int(Checkpointing::Full);
        QTest::newRow("moe") << "--recompute-granularity selective --recompute-modules moe"
                             << int(Checkpointing::SuperSelective);
        QTest::newRow("mlp_act") << "--recompute-granularity=selective --recompute-modules mlp_act"
                                 << int(Checkpointing::Selective);
        // Megatron's modules that do not change the mode are passed over; the same granularity
        // given twice is one. (An unknown word or a second, different granularity is an error:
        // launchFileErrors.)
        QTest::newRow("other modules")
            << "--recompute-granularity selective --recompute-modules mla_up_proj shared_experts"
            << int(Checkpointing::CoreAttention);
        QTest::newRow("given twice alike")
            << "--recompute-granularity full --recompute-granularity=full"
            << int(Checkpointing::Full);
    }
    void recomputeModules() {
        QFETCH(QString, flags);
        QFETCH(int, ckpt);
        Cluster c = cluster(megatronCoreStack(), 8);
        Plan p;
        std::string error;
        const std::string script =
            "--tensor-model-parallel-size 2 --sequence-parallel " + flags.toStdString();
        QVERIFY2(parseMegatronArguments(script, smallDense(), c, p, error), error.c_str());
        QCOMPARE(int(p.ckpt), ckpt);
        QVERIFY(p.sequenceParallel);
        // --emit megatron writes flags that read back as the same mode.
        Plan back;
        Cluster c2 = cluster(megatronCoreStack(), 8);
        QVERIFY2(parseMegatronArguments(megatronArguments(smallDense(), c, p), smallDense(), c2,
                                        back, error),
                 error.c_str());
        QCOMPARE(int(back.ckpt), ckpt);
        QVERIFY(back.sequenceParallel);
    }

    void sequenceParallelMemoryByHand() {
        // TP 2 on the small dense model: with sequence parallelism every activation is split
        // over TP, 512 tokens x 2 layers x 1344 elements x 2 B; without it the norm inputs, the
        // QKV and fc1 inputs and the attention output (5 d = 320 elements) stay whole on each
        // rank: 512 x 2 x (1344 + (TP - 1) x 320) x 2 B [Korthikanti et al. 2022 Eq. 2 vs. 3].
        const Geometry g = smallDense();
        const PerfModel m(g, cluster(megatronCoreStack(), 4));
        Plan p;
        p.tp = 2;
        p.dp = 2;
        const PlanEval on = m.evaluate(p);
        QVERIFY2(on.feasible, on.reason.c_str());
        QCOMPARE(on.memory.activations, 512.0 * 2 * 1344 * 2 / 1e9);
        p.sequenceParallel = false;
        const PlanEval off = m.evaluate(p);
        QVERIFY2(off.feasible, off.reason.c_str());
        QCOMPARE(off.memory.activations, 512.0 * 2 * (1344 + 320) * 2 / 1e9);
        // TP 1: nothing to replicate.
        p.tp = 1;
        p.dp = 4;
        const double tp1 = m.evaluate(p).memory.activations;
        p.sequenceParallel = true;
        QCOMPARE(m.evaluate(p).memory.activations, tp1);
        // MoE layers with TP > 1 need sequence parallelism.
        const PerfModel moe(smallMoe(), cluster(megatronCoreStack(), 8));
        Plan q;
        q.tp = 2;
        q.dp = 4;
        q.sequenceParallel = false;
        const PlanEval e = moe.evaluate(q);
        QVERIFY(!e.feasible);
        QVERIFY2(e.reason.find("sequence parallelism") != std::string::npos, e.reason.c_str());
    }

    void unevenStagesByHand() {
        // 12 layers on PP 4 with one layer on the first and one on the last stage: the two middle
        // stages hold (12 - 2) / 2 = 5 layers each and set the pace. The fullest stage is a
        // middle one: 5 x 65536 BF16 weights, and 3 in-flight microbatches (1F1B keeps PP - s on
        // stage s) of 1024 tokens x 5 layers x 1344 elements x 2 B.
        Geometry g = smallDense();
        g.layers = 12;
        g.denseLayers = 12;
        countParameters(g);
        const PerfModel m(g, cluster(megatronCoreStack(), 4));
        Plan p;
        p.pp = 4;
        const PlanEval even = m.evaluate(p);
        QVERIFY2(even.feasible, even.reason.c_str());
        p.firstStageLayers = 1;
        p.lastStageLayers = 1;
        const PlanEval uneven = m.evaluate(p);
        QVERIFY2(uneven.feasible, uneven.reason.c_str());
        QCOMPARE(uneven.memory.weights, 2.0 * 5 * 65536 / 1e9);
        QCOMPARE(uneven.memory.activations, 2.0 * 1024 * 3 * 5 * 1344 / 1e9);
        QVERIFY(uneven.iteration_s > even.iteration_s);  // 5 layers per stage instead of 3
        // Only one given: the other three stages share the rest (12 - 3 = 9, 3 each).
        p.lastStageLayers = 0;
        p.firstStageLayers = 3;
        QVERIFY(m.evaluate(p).feasible);
        QCOMPARE(m.evaluate(p).iteration_s, even.iteration_s);
        // Rules: the rest must split evenly; PP >= 2; VP = 1.
        p.firstStageLayers = 2;
        p.lastStageLayers = 3;
        QVERIFY(m.evaluate(p).reason.find("split evenly") != std::string::npos);
        p.firstStageLayers = 13;
        p.lastStageLayers = 0;
        QVERIFY(m.evaluate(p).reason.find("exceed") != std::string::npos);
        p.firstStageLayers = 2;
        p.lastStageLayers = 2;
        p.vp = 2;
        QVERIFY(m.evaluate(p).reason.find("VP = 1") != std::string::npos);
        // The layout keys and Megatron's flags round-trip.
        Plan q;
        std::string error;
        QVERIFY2(parseLayout("pp=4,pp_first=1,pp_last=1", q, error), error.c_str());
        QCOMPARE(q.firstStageLayers, 1);
        QCOMPARE(q.lastStageLayers, 1);
        q.dp = 1;
        Cluster c = cluster(megatronCoreStack(), 4);
        const std::string flags = megatronArguments(g, c, q);
        QVERIFY(flags.find("--decoder-first-pipeline-num-layers 1") != std::string::npos);
        Plan back;
        Cluster c2 = cluster(megatronCoreStack(), 4);
        QVERIFY2(parseMegatronArguments(flags, g, c2, back, error), error.c_str());
        QVERIFY(back.firstStageLayers == 1 && back.lastStageLayers == 1 && back.pp == 4);
    }

    void layoutKeySp() {
        Plan p;
        std::string error;
        QVERIFY2(parseLayout("tp=2,sp=0,ckpt=core-attn", p, error), error.c_str());
        QVERIFY(!p.sequenceParallel);
        QVERIFY(p.ckpt == Checkpointing::CoreAttention);
        QVERIFY(parseLayout("tp=2", p, error));
        QVERIFY(p.sequenceParallel);
        QVERIFY(!parseLayout("tp=2,sp=2", p, error));
        QCOMPARE(QString::fromStdString(error),
                 QStringLiteral("layout key sp must be 0 or 1 (got 2)"));
    }

    /// The remedy of a layout no recomputation fits: the distributed optimizer, then FSDP, each
    /// with the least recomputation; none for a model no setting fits.
    void memoryRemedyOrder() {
        // Llama 3 70B on 32 H100 (TP 8, DP 4), 8192 tokens, distributed optimizer off: the
        // static state of 8.6 B parameters per GPU alone exceeds 76 GB under every
        // recomputation mode; the distributed optimizer or FSDP (which shards parameters and
        // gradients over DP 4 as well) makes it fit.
        Geometry llama70;
        std::string why;
        QVERIFY(measuredModelGeometry("LLAMA3_70B", llama70, why));
        Cluster c = cluster(megatronCoreStack(), 32);
        c.globalBatch = 32;
        c.seqLen = 8192;
        Plan p;
        p.tp = 8;
        p.dp = 4;
        p.mbs = 1;
        p.distributedOptimizer = false;
        QCOMPARE(evaluateLayout(llama70, c, p).rule, kDoesNotFitInMemory);
        const std::optional<Plan> fix = memoryRemedy(llama70, c, p);
        QVERIFY(fix);
        QVERIFY(evaluateLayout(llama70, c, *fix).feasible);
        // No recomputation alone fits: the remedy changes the optimizer or FSDP.
        for (Checkpointing ck : leastRecomputationOrder()) {
            Plan t = p;
            t.ckpt = ck;
            QVERIFY(!evaluateLayout(llama70, c, t).feasible);
        }
        QVERIFY(fix->distributedOptimizer);
        QCOMPARE(remedyChange(p, *fix).rfind(fix->fsdp ? "fsdp=1,distopt=1" : "distopt=1", 0),
                 size_t(0));
        // The first setting of the order that fits: with the distributed optimizer on, no mode
        // of the ones before the chosen one fits.
        for (Checkpointing ck : leastRecomputationOrder()) {
            if (ck == fix->ckpt) break;
            Plan t = *fix;
            t.ckpt = ck;
            QVERIFY(!evaluateLayout(llama70, c, t).feasible);
        }
        // DeepSeek-V3 on 8 H100: nothing fits.
        Geometry dsv3;
        QVERIFY(measuredModelGeometry("DeepSeekV3", dsv3, why));
        Cluster c8 = cluster(megatronCoreStack(), 8);
        Plan q;
        q.ep = 8;
        q.dp = 8;
        QCOMPARE(evaluateLayout(dsv3, c8, q).rule, kDoesNotFitInMemory);
        QVERIFY(!memoryRemedy(dsv3, c8, q));
        PlanRequest req;
        req.geometry = dsv3;
        req.cluster = c8;
        req.layouts = {q};
        req.explainInfeasible = false;
        const auto j = planReportToJson(runPlan(req)).at("layouts").at(0);
        QVERIFY(j.at("fits_with").is_null());
        // A structural error is not a memory problem: no remedy.
        q.ep = 3;
        QVERIFY(!memoryRemedy(dsv3, c8, q));
    }
};

TANDEM_TEST_APPLESS_MAIN(TestMosaicStack)
#include "tst_mosaic_stack.moc"