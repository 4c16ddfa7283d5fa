// The launch line (mosaic/megatron_args.h): megatronArguments writes a plan as Megatron-LM's
// flags (model, layout, kernels and overlaps, uneven pipeline splits, vocabulary padding,
// multi-latent attention), and every layout it writes is read back by parseMegatronArguments to
// the same plan and cost.
#include <QtTest>
#include <string>
#include <vector>

#include "launch_fixtures.h"
#include "mosaic/layout_form.h"
#include "mosaic/layout_grid.h"
#include "mosaic/megatron_args.h"
#include "test_main.h"

using namespace tandem::mosaic;
using namespace launch_fixtures;

class TestMosaicLaunchLine : public QObject {
    Q_OBJECT
private slots:
    /// --emit megatron writes the whole launch line: the model flags with the layout, so that a
    /// user can paste it; each model flag is checked against the model file on reading.
    void emitCompleteLaunchLine() {
        const Geometry g = modelGeometry("DeepSeek-V3.config.json");
        Cluster c = launchCluster(1024, 4096);
        c.precision = Precision::Fp8;
        Plan p;
        std::string error;
        QVERIFY(parseLayout("tp=2,pp=8,ep=64,mbs=1,ckpt=full", p, error));
        p.dp = 64;
        const std::string flags = megatronArguments(g, c, p);
        QCOMPARE(QString::fromStdString(flags),
                 QStringLiteral(
                     "--num-layers 61 --hidden-size 7168 --num-attention-heads 128 "
                     "--ffn-hidden-size 18432 --swiglu --normalization RMSNorm "
                     "--position-embedding-type rope --rotary-base 10000 "
                     "--untie-embeddings-and-output-weights --disable-bias-linear "
                     "--multi-latent-attention --q-lora-rank 1536 --kv-lora-rank 512 "
                     "--qk-head-dim 128 --qk-pos-emb-head-dim 64 --v-head-dim 128 "
                     "--vocab-size 129280 --num-experts 256 "
                     "--moe-router-topk 8 --moe-ffn-hidden-size 2048 "
                     "--moe-shared-expert-intermediate-size 2048 --moe-layer-freq "
                     "'([0]*3+[1]*58)' --moe-grouped-gemm --moe-token-dispatcher-type alltoall "
                     "--moe-shared-expert-overlap --seq-length 4096 --max-position-embeddings 4096 "
                     "--tensor-model-parallel-size 2 --pipeline-model-parallel-size 8 "
                     "--context-parallel-size 1 --expert-model-parallel-size 64 "
                     "--expert-tensor-parallel-size 1 --micro-batch-size 1 --global-batch-size "
                     "4096 --sequence-parallel --tp-comm-overlap --use-distributed-optimizer "
                     "--overlap-grad-reduce "
                     "--overlap-param-gather --recompute-granularity full --recompute-method "
                     "uniform --recompute-num-layers 1 --bf16 --fp8-format hybrid --fp8-recipe "
                     "tensorwise"));
        // GQA: Qwen3-235B's 4 key/value groups; the config's head width 128 (costed as such,
        // not d / heads = 64) is the one Megatron-LM is told to build, with Q/K norms.
        const Geometry q = modelGeometry("Qwen3-235B-A22B.config.json");
        QCOMPARE(q.headDim, 128);
        const std::string qf = megatronArguments(q, c, p);
        QVERIFY2(qf.find("--num-attention-heads 64 --group-query-attention --num-query-groups 4 "
                         "--kv-channels 128 --ffn-hidden-size 12288") != std::string::npos,
                 qf.c_str());
        QVERIFY2(qf.find(" --qk-layernorm ") != std::string::npos, qf.c_str());
        Geometry narrow = q;
        narrow.headDim = 0;
        const std::string nf = megatronArguments(narrow, c, p);
        QVERIFY2(nf.find("--kv-channels") == std::string::npos, nf.c_str());
        QCOMPARE(QString::fromStdString(readLaunch(qf, narrow, launchCluster(1024)).error),
                 QStringLiteral("--kv-channels 128 contradicts the model file (head width 64)"));
        QVERIFY2(readLaunch(qf, q, launchCluster(1024)).ok, qf.c_str());
        // The line read against another model is refused at its first differing flag.
        const ReadBack wrong = readLaunch(flags, q, launchCluster(1024));
        QVERIFY(!wrong.ok);
        QCOMPARE(QString::fromStdString(wrong.error),
                 QStringLiteral("--num-layers 61 contradicts the model file (94 layers)"));
    }

    /// Megatron-LM's default expert TP is TP: a launch file without
    /// --expert-tensor-parallel-size was costed at ETP 1. A stack that folds experts costs
    /// ETP = TP; one that does not costs unsplit experts and says so in a note.
    void expertTensorParallelDefault_data() {
        QTest::addColumn<QString>("stack");
        QTest::addColumn<QString>("flags");
        QTest::addColumn<int>("etp");
        QTest::addColumn<QString>("note");  // "" = no note
        const QString layout = QStringLiteral(
            "--tensor-model-parallel-size 2 --pipeline-model-parallel-size 1 "
            "--expert-model-parallel-size 8 --micro-batch-size 1 ");
        QTest::newRow("megatron-core, TP 2, no ETP flag: ETP 2")
            << "megatron-core" << layout << 2 << "";
        QTest::newRow("megatron-core, TP 2, ETP 1 stated")
            << "megatron-core" << layout + "--expert-tensor-parallel-size 1" << 1 << "";
        QTest::newRow("megatron-core, TP 1, no ETP flag: ETP 1")
            << "megatron-core"
            << "--tensor-model-parallel-size 1 --expert-model-parallel-size 8" << 1 << "";
        QTest::newRow("mosaic-paper, TP 2, no ETP flag: unsplit, noted")
            << "mosaic-paper" << layout << 1
            << "--expert-tensor-parallel-size not given: Megatron-LM splits the experts over "
               "ETP = TP = 2; the mosaic-paper stack does not fold experts and costs them "
               "unsplit (ETP 1; the megatron-core stack costs ETP)";
        QTest::newRow("mosaic-paper, TP 2, ETP 1 stated: no note")
            << "mosaic-paper" << layout + "--expert-tensor-parallel-size 1" << 1 << "";
    }
    void expertTensorParallelDefault() {
        QFETCH(QString, stack);
        QFETCH(QString, flags);
        QFETCH(int, etp);
        QFETCH(QString, note);
        const Geometry g = modelGeometry("Mixtral-8x7B-v0.1.config.json");
        const ReadBack r =
            readLaunch(flags.toStdString(), g, launchCluster(64, 1024, 4096, qPrintable(stack)));
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.plan.etp, etp);
        QStringList notes;
        for (const auto& n : r.notes) notes << QString::fromStdString(n);
        QCOMPARE(notes, note.isEmpty() ? QStringList() : QStringList{note});
    }

    /// --emit writes the kernels and overlaps the costing assumes (Megatron-LM's defaults are an
    /// all-gather dispatcher and one GEMM per expert); the reader knows them, and an all-gather
    /// dispatcher is costed as the all-to-all with a note.
    void kernelAndOverlapFlags() {
        const Geometry g = modelGeometry("DeepSeek-V3.config.json");
        Plan p;
        std::string error;
        QVERIFY(parseLayout("tp=2,pp=8,ep=64,mbs=1,ckpt=full", p, error));
        p.dp = 64;
        const std::string core = megatronArguments(g, launchCluster(1024, 4096), p);
        QVERIFY2(core.find(" --moe-grouped-gemm --moe-token-dispatcher-type alltoall "
                           "--moe-shared-expert-overlap ") != std::string::npos,
                 core.c_str());
        QVERIFY2(core.find(" --tp-comm-overlap ") != std::string::npos, core.c_str());
        // The paper's stack hides no TP collective: no --tp-comm-overlap.
        const std::string paper =
            megatronArguments(g, launchCluster(1024, 4096, 1024, "mosaic-paper"), p);
        QVERIFY2(paper.find("--tp-comm-overlap") == std::string::npos, paper.c_str());
        // Flash attention unless the stack is costed without it (megatron-lm-2022).
        QVERIFY2(core.find("--attention-backend") == std::string::npos, core.c_str());
        const std::string y2022 =
            megatronArguments(g, launchCluster(1024, 4096, 1024, "megatron-lm-2022"), p);
        QVERIFY2(y2022.find(" --attention-backend local") != std::string::npos, y2022.c_str());
        const ReadBack back2022 = readLaunch(y2022, g, launchCluster(1024));
        QVERIFY2(back2022.ok, back2022.error.c_str());
        // A dense model gets no MoE flag.
        Plan dense;
        QVERIFY(parseLayout("tp=8,pp=1,mbs=1,ckpt=none", dense, error));
        dense.dp = 8;
        const std::string llama =
            megatronArguments(modelGeometry("Llama-3-70B.config.json"), launchCluster(64), dense);
        QVERIFY2(llama.find("--moe-") == std::string::npos, llama.c_str());
        QVERIFY2(llama.find(" --sequence-parallel --tp-comm-overlap ") != std::string::npos,
                 llama.c_str());
        const ReadBack back = readLaunch(core, g, launchCluster(1024));
        QVERIFY2(back.ok, back.error.c_str());
        QVERIFY(back.notes.empty());
        QString allgather = QString::fromStdString(core);
        allgather.replace(QStringLiteral("--moe-token-dispatcher-type alltoall"),
                          QStringLiteral("--moe-token-dispatcher-type allgather"));
        const ReadBack ag = readLaunch(allgather.toStdString(), g, launchCluster(1024));
        QVERIFY2(ag.ok, ag.error.c_str());
        QCOMPARE(ag.notes, std::vector<std::string>{
                               "--moe-token-dispatcher-type allgather: the plan costs the "
                               "expert all-to-all (alltoall)"});
        QCOMPARE(QString::fromStdString(
                     readLaunch("--moe-token-dispatcher-type ring", g, launchCluster(1024)).error),
                 QStringLiteral("--moe-token-dispatcher-type must be allgather, alltoall, flex "
                                "or alltoall_seq (got \"ring\")"));
    }

    /// Megatron-LM splits the layers evenly over PP x VP chunks only when they divide. The plan
    /// costs a balanced split; where --decoder-first- / --decoder-last-pipeline-num-layers state
    /// it (Megatron-Core: the other stages share the rest evenly) the launch line carries them
    /// and reads back to the same plan and costs, bit for bit; where they cannot, the note says
    /// plainly that the script is not runnable as written. The note is pipelineSplitNote (the
    /// plan's outputs), not one of megatronArguments' notes.
    void unevenPipelineSplit_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("layout");
        QTest::addColumn<int>("first");     // --decoder-first-pipeline-num-layers, 0 = none
        QTest::addColumn<int>("last");      // --decoder-last-pipeline-num-layers, 0 = none
        QTest::addColumn<QString>("note");  // "" = none
        const QString notRunnable94 =
            "the launch script is not runnable as written: Megatron-LM refuses 94 layers over "
            "PP x VP = %1 model chunks (they do not divide); the plan costs a balanced split (%2 "
            "layers on the fullest chunk), which --decoder-first- / "
            "--decoder-last-pipeline-num-layers %3; place them with "
            "--pipeline-model-parallel-layout, or count the embedding and the loss as layers "
            "with --account-for-embedding-in-pipeline-split / "
            "--account-for-loss-in-pipeline-split where 94 + 1 or + 2 divides";
        QTest::newRow("Qwen3 94 layers over PP 2")
            << "Qwen3-235B-A22B.config.json"
            << "tp=1,pp=2,ep=8,mbs=1,ckpt=full" << 0 << 0 << "";
        QTest::newRow("Qwen3 94 layers over PP 8 x VP 3")
            << "Qwen3-235B-A22B.config.json"
            << "tp=1,pp=8,vp=3,ep=8,mbs=1,ckpt=full" << 0 << 0
            << notRunnable94.arg(24).arg(4).arg(
                   "do not state with VP > 1 (the plan costs them with VP 1)");
        QTest::newRow("Qwen3 94 layers over PP 4 (2 full stages of 4)")
            << "Qwen3-235B-A22B.config.json"
            << "tp=1,pp=4,ep=8,mbs=1,ckpt=full" << 0 << 0
            << notRunnable94.arg(4).arg(24).arg(
                   "cannot state (they leave the middle stages equal)");
        QTest::newRow("Qwen3 94 layers, first / last stated")
            << "Qwen3-235B-A22B.config.json"
            << "tp=1,pp=4,ep=8,mbs=1,ckpt=full,pp_first=22,pp_last=24" << 22 << 24 << "";
        QTest::newRow("Llama 3 70B 80 layers over PP 3")
            << "Llama-3-70B.config.json"
            << "tp=8,pp=3,mbs=1,ckpt=selective" << 0 << 26
            << "the 80 layers do not divide over PP 3: the plan costs 2 stages of 27 layers and "
               "1 of 26, which the launch script states with "
               "--decoder-last-pipeline-num-layers 26";
        QTest::newRow("DeepSeek-V3 61 layers over PP 4")
            << "DeepSeek-V3.config.json"
            << "tp=2,pp=4,ep=8,mbs=1,ckpt=full" << 16 << 0
            << "the 61 layers do not divide over PP 4: the plan costs 1 stage of 16 layers and 3 "
               "of 15, which the launch script states with --decoder-first-pipeline-num-layers "
               "16 (the plan costs a middle stage at 16 layers, one more than Megatron-LM places "
               "there)";
        QTest::newRow("DeepSeek-V3 61 layers over PP 2")
            << "DeepSeek-V3.config.json"
            << "tp=2,pp=2,ep=8,mbs=1,ckpt=full" << 0 << 30
            << "the 61 layers do not divide over PP 2: the plan costs 1 stage of 31 layers and 1 "
               "of 30, which the launch script states with "
               "--decoder-last-pipeline-num-layers 30";
    }
    void unevenPipelineSplit() {
        QFETCH(QString, model);
        QFETCH(QString, layout);
        QFETCH(int, first);
        QFETCH(int, last);
        QFETCH(QString, note);
        const Geometry g = modelGeometry(model.toUtf8().constData());
        Plan p;
        std::string error;
        QVERIFY2(parseLayout(layout.toStdString(), p, error), error.c_str());
        const int devices = 64 * p.pp;
        p.dp = devices / (p.pp * p.tp);
        const Cluster c = launchCluster(devices);
        QCOMPARE(QString::fromStdString(pipelineSplitNote(g, p)), note);
        std::vector<std::string> notes;
        const std::string flags = megatronArguments(g, c, p, &notes);
        for (const auto& n : notes) QVERIFY2(n.find("layers") == std::string::npos, n.c_str());
        // The flags Megatron-Core checks: the layers besides the first / last stage split evenly
        // over the other stages.
        auto value = [&](const std::string& flag) {
            const auto at = flags.find(" " + flag + " ");
            return at == std::string::npos ? 0 : std::stoi(flags.substr(at + flag.size() + 2));
        };
        QCOMPARE(value("--decoder-first-pipeline-num-layers"), first);
        QCOMPARE(value("--decoder-last-pipeline-num-layers"), last);
        if (first > 0 || last > 0) {
            const int others = p.pp - (first > 0) - (last > 0);
            const int rest = g.layers - first - last;
            QVERIFY(others == 0 ? rest == 0 : rest > 0 && rest % others == 0);
        }
        // The script reads back to the same plan, costed the same, bit for bit.
        const ReadBack back = readLaunch(flags, g, launchCluster(devices));
        QVERIFY2(back.ok, back.error.c_str());
        QVERIFY2(samePlan(back.plan, p), layoutString(back.plan).c_str());
        const PlanEval want = evaluateLayout(g, c, p);
        const PlanEval got = evaluateLayout(g, back.cluster, back.plan);
        QCOMPARE(got.feasible, want.feasible);
        QCOMPARE(got.iteration_s, want.iteration_s);
        QCOMPARE(got.memoryGB, want.memoryGB);
        // Megatron's own split, read as stated, costs the same time.
        if (first > 0 || last > 0) {
            Plan stated = p;
            stated.firstStageLayers = first;
            stated.lastStageLayers = last;
            QCOMPARE(evaluateLayout(g, c, stated).iteration_s, want.iteration_s);
        }
    }

    /// Megatron-LM pads the vocabulary to a multiple of --make-vocab-size-divisible-by (128) x
    /// TP; the plan costs the model's vocabulary, so --emit states a divisor that keeps it, and
    /// a launch file that pads it gets a note naming the padded size.
    void vocabularyPadding_data() {
        QTest::addColumn<int>("vocab");
        QTest::addColumn<int>("tp");
        QTest::addColumn<QString>("divisorFlag");  // "" = the default keeps the vocabulary
        QTest::addColumn<QString>("emitNote");     // "" = none
        QTest::addColumn<QString>("defaultNote");  // reading the line without the divisor
        QTest::newRow("Qwen3 151936, TP 1") << 151936 << 1 << ""
                                            << ""
                                            << "";
        QTest::newRow("Qwen3 151936, TP 2")
            << 151936 << 2 << "--make-vocab-size-divisible-by 64"
            << ""
            << "Megatron-LM pads the vocabulary of 151936 to 152064 (a multiple of "
               "--make-vocab-size-divisible-by 128 x TP 2); the plan costs 151936";
        QTest::newRow("Qwen3 151936, TP 8")
            << 151936 << 8 << "--make-vocab-size-divisible-by 16"
            << ""
            << "Megatron-LM pads the vocabulary of 151936 to 152576 (a multiple of "
               "--make-vocab-size-divisible-by 128 x TP 8); the plan costs 151936";
        QTest::newRow("DeepSeek-V3 129280, TP 2") << 129280 << 2 << ""
                                                  << ""
                                                  << "";
        QTest::newRow("odd 50257, TP 2")
            << 50257 << 2 << "--make-vocab-size-divisible-by 1"
            << "Megatron-LM pads the vocabulary of 50257 to 50258 (a multiple of TP 2); the "
               "plan costs 50257"
            << "Megatron-LM pads the vocabulary of 50257 to 50432 (a multiple of "
               "--make-vocab-size-divisible-by 128 x TP 2); the plan costs 50257";
    }
    void vocabularyPadding() {
        QFETCH(int, vocab);
        QFETCH(int, tp);
        QFETCH(QString, divisorFlag);
        QFETCH(QString, emitNote);
        QFETCH(QString, defaultNote);
        Geometry g = modelGeometry("Qwen3-235B-A22B.config.json");
        g.vocab = vocab;
        const Cluster c = launchCluster(64);
        Plan p;
        std::string error;
        QVERIFY(parseLayout("tp=" + std::to_string(tp) + ",pp=1,ep=8,mbs=1,ckpt=full", p, error));
        p.dp = 64 / tp;
        std::vector<std::string> notes;
        const QString flags = QString::fromStdString(megatronArguments(g, c, p, &notes));
        if (divisorFlag.isEmpty())
            QVERIFY2(!flags.contains(QStringLiteral("--make-vocab-size-divisible-by")),
                     qPrintable(flags));
        else
            QVERIFY2(
                flags.contains(QStringLiteral("--vocab-size %1 %2").arg(vocab).arg(divisorFlag)),
                qPrintable(flags));
        QCOMPARE(notes.size(), size_t(emitNote.isEmpty() ? 0 : 1));
        if (!emitNote.isEmpty()) QCOMPARE(QString::fromStdString(notes[0]), emitNote);
        // Megatron-LM's padding with the stated divisor keeps the costed vocabulary (where TP
        // divides it), and the line reads back with no vocabulary note.
        const int divisor = divisorFlag.isEmpty()
                                ? kMegatronVocabDivisor
                                : divisorFlag.section(QLatin1Char(' '), 1).toInt();
        if (vocab % tp == 0) QCOMPARE(megatronPaddedVocab(vocab, divisor, tp), (long long)vocab);
        const ReadBack back = readLaunch(flags.toStdString(), g, launchCluster(64));
        QVERIFY2(back.ok, back.error.c_str());
        QCOMPARE(back.notes.size(), size_t(emitNote.isEmpty() ? 0 : 1));
        // Without the divisor, Megatron-LM's default padding is named.
        QString plain = flags;
        if (!divisorFlag.isEmpty()) plain.remove(QStringLiteral(" ") + divisorFlag);
        const ReadBack padded = readLaunch(plain.toStdString(), g, launchCluster(64));
        QVERIFY2(padded.ok, padded.error.c_str());
        QStringList got;
        for (const auto& n : padded.notes) got << QString::fromStdString(n);
        QCOMPARE(got, defaultNote.isEmpty() ? QStringList() : QStringList{defaultNote});
    }

    /// A model with multi-head latent attention (MLA) is launched as one: --emit states
    /// --multi-latent-attention and the config's widths (DeepSeek-V3: q_lora_rank 1536,
    /// kv_lora_rank 512, qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128; DeepSeek-V2-
    /// Lite: full-rank queries, no --q-lora-rank), which read back to the same plan and cost
    /// bit for bit; a model without MLA gets none of them.
    void latentAttentionFlags_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("mla");
        QTest::newRow("DeepSeek-V3")
            << "DeepSeek-V3.config.json"
            << " --multi-latent-attention --q-lora-rank 1536 --kv-lora-rank 512 --qk-head-dim 128 "
               "--qk-pos-emb-head-dim 64 --v-head-dim 128 ";
        QTest::newRow("DeepSeek-V2-Lite full-rank queries")
            << "DeepSeek-V2-Lite.config.json"
            << " --multi-latent-attention --kv-lora-rank 512 --qk-head-dim 128 "
               "--qk-pos-emb-head-dim 64 --v-head-dim 128 ";
        QTest::newRow("Llama 3 70B, standard attention") << "Llama-3-70B.config.json"
                                                         << "";
    }
    void latentAttentionFlags() {
        QFETCH(QString, model);
        QFETCH(QString, mla);
        const Geometry g = modelGeometry(qPrintable(model));
        Cluster c = launchCluster(512);
        Plan p;
        std::string error;
        QVERIFY(parseLayout(
            g.experts > 0 ? "tp=2,pp=4,ep=8,mbs=1,ckpt=full" : "tp=8,pp=4,mbs=1,ckpt=full", p,
            error));
        p.dp = 512 / (p.tp * p.pp);
        std::vector<std::string> notes;
        const std::string flags = megatronArguments(g, c, p, &notes);
        QVERIFY(notes.empty());
        if (mla.isEmpty())
            QVERIFY2(flags.find("latent") == std::string::npos &&
                         flags.find("lora") == std::string::npos,
                     flags.c_str());
        else
            QVERIFY2(flags.find(mla.toStdString()) != std::string::npos, flags.c_str());
        const ReadBack back = readLaunch(flags, g, c);
        QVERIFY2(back.ok, back.error.c_str());
        QVERIFY(back.notes.empty());
        QVERIFY2(samePlan(back.plan, p), layoutString(back.plan).c_str());
        const PlanEval ev = evaluateLayout(g, c, p);
        const PlanEval again = evaluateLayout(g, back.cluster, back.plan);
        QCOMPARE(again.feasible, ev.feasible);
        QCOMPARE(again.iteration_s, ev.iteration_s);
        QCOMPARE(again.memoryGB, ev.memoryGB);
    }

    /// MLA flags that contradict the model file are refused with the flag and the config's
    /// value; a width left out after --multi-latent-attention is Megatron-LM's default, which
    /// contradicts it too.
    void latentAttentionContradictions_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("error");
        QTest::newRow("kv rank")
            << "DeepSeek-V3.config.json"
            << "--multi-latent-attention --kv-lora-rank 256"
            << "--kv-lora-rank 256 contradicts the model file (kv_lora_rank 512)";
        QTest::newRow("rope width without the switch")
            << "DeepSeek-V3.config.json"
            << "--qk-pos-emb-head-dim 32"
            << "--qk-pos-emb-head-dim 32 contradicts the model file (qk_rope_head_dim 64)";
        QTest::newRow("query rank left out")
            << "DeepSeek-V3.config.json"
            << "--multi-latent-attention --kv-lora-rank 512"
            << "--q-lora-rank not given: Megatron-LM builds a full-rank query projection, which "
               "contradicts the model file (q_lora_rank 1536)";
        QTest::newRow("kv rank left out")
            << "DeepSeek-V3.config.json"
            << "--multi-latent-attention --q-lora-rank 1536"
            << "--kv-lora-rank not given: Megatron-LM builds 32, which contradicts the model "
               "file (kv_lora_rank 512)";
        QTest::newRow("query rank on full-rank queries")
            << "DeepSeek-V2-Lite.config.json"
            << "--multi-latent-attention --q-lora-rank 1536"
            << "--q-lora-rank 1536 contradicts the model file (a full-rank query projection, "
               "q_lora_rank null)";
        QTest::newRow("MLA on a standard-attention model")
            << "Llama-3-70B.config.json"
            << "--multi-latent-attention --kv-lora-rank 512"
            << "--multi-latent-attention contradicts the model file (standard attention with 8 "
               "key/value heads)";
    }
    void latentAttentionContradictions() {
        QFETCH(QString, model);
        QFETCH(QString, script);
        QFETCH(QString, error);
        const ReadBack r =
            readLaunch(script.toStdString(), modelGeometry(qPrintable(model)), launchCluster(64));
        QVERIFY(!r.ok);
        QCOMPARE(QString::fromStdString(r.error), error);
    }

    /// An MLA geometry that does not state a width Megatron-LM needs gets no MLA flags (its
    /// defaults would build another model) and a note naming the missing fields.
    void latentAttentionMissingWidth() {
        Geometry g = modelGeometry("DeepSeek-V3.config.json");
        g.kvLoraRank = 0;
        g.vHeadDim = 0;
        Plan p;
        std::string error;
        QVERIFY(parseLayout("tp=2,pp=4,ep=8,mbs=1,ckpt=full", p, error));
        p.dp = 64;
        std::vector<std::string> notes;
        const std::string flags = megatronArguments(g, launchCluster(512), p, &notes);
        QVERIFY2(flags.find("--multi-latent-attention") == std::string::npos, flags.c_str());
        QVERIFY2(flags.find("--qk-head-dim") == std::string::npos, flags.c_str());
        QCOMPARE(notes, std::vector<std::string>{
                            "the model has multi-latent attention, but its description does not "
                            "state kv_lora_rank, v_head_dim: the script leaves out "
                            "--multi-latent-attention and its widths (Megatron-LM builds "
                            "standard attention); add them with the model's values"});
    }

    /// Property: every layout the planner enumerates (layout_grid "auto" on the cluster), and
    /// each of them with VP 2-4, an uneven pipeline split, FSDP, a replicated optimizer and
    /// core-attention recompute, for DeepSeek-V3, Mixtral-8x7B, Qwen3-235B and Llama 3 70B on
    /// three cluster sizes (with an indivisible batch and FP8 / MXFP8 on some), under the
    /// megatron-core stack (experts folded, ETP costed) and the mosaic-paper one (experts
    /// unsplit), is written by
    /// megatronArguments and read back by parseMegatronArguments to the same plan, batch,
    /// sequence and precision, and costs the same iteration time, bit for bit. Every layout is
    /// walked (no sampling).
    void emitReadRoundTripProperty() {
        struct Setup {
            int devices, globalBatch;
            Precision precision;
        };
        const Setup setups[] = {{64, 512, Precision::Bf16},
                                {512, 1000, Precision::Fp8},
                                {2048, 4096, Precision::Mxfp8}};
        const char* models[] = {"DeepSeek-V3.config.json", "Mixtral-8x7B-v0.1.config.json",
                                "Qwen3-235B-A22B.config.json", "Llama-3-70B.config.json"};
        long long walked = 0, feasible = 0, vpAboveOne = 0;
        for (const char* stack : {"megatron-core", "mosaic-paper"})
            for (const char* file : models) {
                const Geometry g = modelGeometry(file);
                for (const Setup& s : setups) {
                    Cluster c = launchCluster(s.devices, s.globalBatch, 4096, stack);
                    c.precision = s.precision;
                    const LayoutSpace space =
                        resolveLayoutSpace(c, LayoutGrid{}, LayoutGridRule::Auto);
                    for (const auto& [base, baseEval] : evaluateSpace(g, c, space)) {
                        std::vector<Plan> variants = {base};
                        if (base.pp >= 2) {
                            for (int vp = 2; vp <= 4; ++vp) {
                                Plan v = base;
                                v.vp = vp;
                                variants.push_back(v);
                            }
                            Plan uneven = base;
                            uneven.firstStageLayers = g.layers / base.pp + 1;
                            uneven.lastStageLayers = std::max(1, g.layers / base.pp - 1);
                            variants.push_back(uneven);
                        }
                        Plan fsdp = base;
                        fsdp.fsdp = true;
                        variants.push_back(fsdp);
                        Plan replicated = base;
                        replicated.distributedOptimizer = false;
                        variants.push_back(replicated);
                        Plan core = base;
                        core.ckpt = C::CoreAttention;
                        variants.push_back(core);
                        for (const Plan& p : variants) {
                            // The planner's costing of the layout (as --layout costs a variant).
                            const PlanEval ev =
                                &p == &variants.front() ? baseEval : evaluateLayout(g, c, p);
                            const std::string flags = megatronArguments(g, c, p);
                            const ReadBack r =
                                readLaunch(flags, g, launchCluster(s.devices, 1024, 4096, stack));
                            ++walked;
                            if (!r.ok || !samePlan(r.plan, p) ||
                                r.cluster.precision != c.precision || r.cluster.seqLen != c.seqLen)
                                QFAIL(qPrintable(
                                    QStringLiteral("%1 on %2: %3 read back as %4 (%5)")
                                        .arg(QString::fromUtf8(file) + " " + stack)
                                        .arg(s.devices)
                                        .arg(QString::fromStdString(layoutString(p)))
                                        .arg(QString::fromStdString(layoutString(r.plan)))
                                        .arg(QString::fromStdString(r.error))));
                            const PlanEval back = evaluateLayout(g, r.cluster, r.plan);
                            if (back.feasible != ev.feasible ||
                                back.iteration_s != ev.iteration_s ||
                                back.memoryGB != ev.memoryGB ||
                                (ev.feasible && planGlobalBatch(p, ev) != r.cluster.globalBatch))
                                QFAIL(qPrintable(
                                    QStringLiteral("%1 on %2: %3 costs %4 s, read back %5 s")
                                        .arg(file)
                                        .arg(s.devices)
                                        .arg(QString::fromStdString(layoutString(p)))
                                        .arg(ev.iteration_s, 0, 'g', 17)
                                        .arg(back.iteration_s, 0, 'g', 17)));
                            feasible += ev.feasible;
                            vpAboveOne += ev.feasible && p.vp > 1;
                        }
                    }
                }
            }
        // The walk covers the space, feasible layouts and interleaved ones among them.
        QVERIFY2(walked > 10000, qPrintable(QString::number(walked)));
        QVERIFY(feasible > 1000);
        QVERIFY(vpAboveOne > 100);
        qInfo("emit/read round trip: %lld layouts, %lld feasible, %lld with VP > 1", walked,
              feasible, vpAboveOne);
    }
};

TANDEM_TEST_APPLESS_MAIN(TestMosaicLaunchLine)
#include "tst_mosaic_launch_line.moc"
