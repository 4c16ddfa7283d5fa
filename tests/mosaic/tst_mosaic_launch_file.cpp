// Megatron-LM launch files (io/launch_script.h, mosaic/megatron_args.h): a launch file is split
// into words as bash does and read into a plan and cluster, with its refusals and notes. The
// launch line megatronArguments writes is tst_mosaic_launch_line.
#include <QtTest>
#include <string>
#include <vector>

#include "io/launch_script.h"
#include "launch_fixtures.h"
#include "mosaic/layout_form.h"
#include "mosaic/layout_grid.h"
#include "mosaic/megatron_args.h"
#include "test_main.h"

using namespace tandem::mosaic;
using namespace launch_fixtures;

class TestMosaicLaunchFile : public QObject {
    Q_OBJECT
private:
    /// The current row's "script" on DeepSeek-V2-Lite over 64 GPUs is refused with exactly its
    /// "error".
    void refusesLaunchFile() {
        QFETCH(QString, script);
        QFETCH(QString, error);
        const ReadBack r = readLaunch(
            script.toStdString(), modelGeometry("DeepSeek-V2-Lite.config.json"), launchCluster(64));
        QVERIFY(!r.ok);
        QCOMPARE(QString::fromStdString(r.error), error);
    }

private slots:
    /// launchScriptWords splits a launch file as bash does.
    void launchWords_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("comment line and trailing comment")
            << "--a 1 # --b 2\n# --c 3\n--d 4" << QStringList{"--a", "1", "--d", "4"};
        QTest::newRow("# inside a word is no comment") << "--a x#y" << QStringList{"--a", "x#y"};
        QTest::newRow("continuation") << "torchrun x.py \\\n  --a 1 \\\n  --b=2"
                                      << QStringList{"torchrun", "x.py", "--a", "1", "--b=2"};
        QTest::newRow("quotes") << "--a 'x y' --b \"p q\" --c=\"r\"'s'"
                                << QStringList{"--a", "x y", "--b", "p q", "--c=rs"};
        QTest::newRow("escapes") << "--a x\\ y --b \\# \"\\\"q\\\"\""
                                 << QStringList{"--a", "x y", "--b", "#", "\"q\""};
        QTest::newRow("array expanded where used")
            << "ARGS=(\n  --a 1   # one\n  # --b 2\n  --c 3\n)\npython x.py \"${ARGS[@]}\" --d 4"
            << QStringList{"python", "x.py", "--a", "1", "--c", "3", "--d", "4"};
        QTest::newRow("array never expanded") << "ARGS=( --a 1 )\nMORE=( --b 2 )\nMORE+=( --c 3 )"
                                              << QStringList{"--a", "1", "--b", "2", "--c", "3"};
        QTest::newRow("variables") << "TP=8\nexport PP=\"4\"\nARGS=\"--x 1 --y 2\"\n"
                                      "run --tp $TP --pp=${PP} --cp ${CP:-2} $ARGS \"$ARGS\""
                                   << QStringList{"run", "--tp", "8",   "--pp=4", "--cp",       "2",
                                                  "--x", "1",    "--y", "2",      "--x 1 --y 2"};
        QTest::newRow("unknown variable kept") << "--a $NOPE" << QStringList{"--a", "$NOPE"};
        QTest::newRow("separators and redirects")
            << "cd /w && python x.py --a 1 2>&1 | tee log.txt; echo done"
            << QStringList{"cd", "/w",  "python",  "x.py", "--a",
                           "1",  "tee", "log.txt", "echo", "done"};
        QTest::newRow("only comments") << "#!/bin/bash\n   # nothing\n\n" << QStringList{};
    }
    void launchWords() {
        QFETCH(QString, script);
        QFETCH(QStringList, words);
        std::vector<std::string> got;
        std::string error;
        QVERIFY2(tandem::io::launchScriptWords(script.toStdString(), got, error), error.c_str());
        QStringList g;
        for (const auto& w : got) g << QString::fromStdString(w);
        QCOMPARE(g, words);
    }

    /// A commented-out flag is not read: the launch file's own micro-batch and recompute mode
    /// are costed (the old reader took "# --micro-batch-size 1" and the quoted 'selective' as
    /// an unknown granularity).
    void launchFileComments() {
        const Geometry g = modelGeometry("DeepSeek-V2-Lite.config.json");
        const std::string script =
            "#!/bin/bash\n"
            "PARALLEL_ARGS=(\n"
            "    --tensor-model-parallel-size 1\n"
            "    --expert-model-parallel-size 8\n"
            "    --micro-batch-size 4\n"
            "    # --micro-batch-size 1   (for debugging)\n"
            "    --global-batch-size=1024\n"
            "    --use-distributed-optimizer\n"
            "    --recompute-granularity 'selective'\n"
            ")\n"
            "torchrun --nproc_per_node 8 pretrain_gpt.py \\\n"
            "    \"${PARALLEL_ARGS[@]}\" \\\n"
            "    --lr 3e-4 --train-iters 1000\n";
        const ReadBack r = readLaunch(script, g, launchCluster(64));
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.plan.mbs, 4);
        QCOMPARE(r.plan.ep, 8);
        QCOMPARE(r.plan.dp, 64);
        QCOMPARE(r.cluster.globalBatch, 1024);
        QCOMPARE(int(r.plan.ckpt), int(C::CoreAttention));
        // Flags it does not model are named in a note, not costed.
        QCOMPARE(r.notes.size(), size_t(1));
        QCOMPARE(QString::fromStdString(r.notes[0]),
                 QStringLiteral("not modelled, not costed: --nproc_per_node --lr --train-iters"));
    }

    /// Values it cannot read, contradictions and empty files are errors naming the flag.
    void launchFileErrors_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("error");
        QTest::newRow("empty") << ""
                               << "the file has no arguments (it is empty or only comments)";
        QTest::newRow("only comments")
            << "#!/bin/bash\n# --micro-batch-size 1\n"
            << "the file has no arguments (it is empty or only comments)";
        QTest::newRow("no flags") << "python pretrain_gpt.py"
                                  << "the file has no --flags (Megatron-LM arguments)";
        QTest::newRow("misspelt granularity")
            << "--recompute-granularity fulll"
            << "--recompute-granularity must be full or selective (got \"fulll\")";
        QTest::newRow("upper-case granularity")
            << "--recompute-granularity FULL"
            << "--recompute-granularity must be full or selective (got \"FULL\")";
        QTest::newRow("unknown recompute module")
            << "--recompute-granularity selective --recompute-modules core_attn mlpp"
            << "--recompute-modules must be core_attn, moe_act, layernorm, mla_up_proj, mlp, moe, "
               "shared_experts or mlp_act (got \"mlpp\")";
        QTest::newRow("fp8 format") << "--fp8-format e5m2"
                                    << "--fp8-format must be e4m3 or hybrid (got \"e5m2\")";
        QTest::newRow("twice, different values")
            << "--micro-batch-size 1 \\\n --micro-batch-size=2"
            << "--micro-batch-size is given twice with different values (\"1\" and \"2\")";
        QTest::newRow("granularity twice")
            << "--recompute-granularity full --recompute-granularity selective"
            << "--recompute-granularity is given twice with different values (\"full\" and "
               "\"selective\")";
        QTest::newRow("layers contradict the model")
            << "--num-layers 61 --tensor-model-parallel-size 1"
            << "--num-layers 61 contradicts the model file (27 layers)";
        QTest::newRow("experts contradict the model")
            << "--num-experts 256"
            << "--num-experts 256 contradicts the model file (64 experts)";
        QTest::newRow("dense blocks contradict the model")
            << "--moe-layer-freq 1"
            << "--moe-layer-freq 1 contradicts the model file (1 dense blocks, then 26 MoE blocks)";
        QTest::newRow("not a number") << "--tensor-model-parallel-size eight"
                                      << "--tensor-model-parallel-size must be a positive "
                                         "integer (got \"eight\")";
        QTest::newRow("unset variable")
            << "--tensor-model-parallel-size $TP"
            << "--tensor-model-parallel-size must be a positive integer (got \"$TP\")";
        QTest::newRow("value missing") << "--micro-batch-size --bf16"
                                       << "--micro-batch-size needs a value";
        QTest::newRow("sequence too long")
            << "--seq-length 99999999"
            << "--seq-length must be at most 16777216 (got 99999999)";
        QTest::newRow("switch with a value") << "--sequence-parallel=true"
                                             << "--sequence-parallel takes no value (got \"true\")";
        QTest::newRow("unterminated quote") << "--a 1\n--recompute-granularity 'full"
                                            << "unterminated ' quote (line 2)";
        QTest::newRow("layers per chunk do not divide")
            << "--pipeline-model-parallel-size 4 --num-layers-per-virtual-pipeline-stage 2"
            << "--num-layers-per-virtual-pipeline-stage 2: the 27 layers do not split into 4 "
               "pipeline stages of whole chunks of 2 (Megatron-LM refuses it; state VP with "
               "--num-virtual-stages-per-pipeline-rank)";
        QTest::newRow("both VP flags")
            << "--pipeline-model-parallel-size 3 --num-layers-per-virtual-pipeline-stage 3 "
               "--num-virtual-stages-per-pipeline-rank 3"
            << "--num-layers-per-virtual-pipeline-stage 3 and "
               "--num-virtual-stages-per-pipeline-rank cannot both be given";
    }
    void launchFileErrors() { refusesLaunchFile(); }

    /// Bash ends a command at a newline that is not escaped: a comment line inside a
    /// continued command (its trailing backslash is part of the comment) or a space after the
    /// backslash ends it, and the --flag on the next line starts a command of its own, which
    /// bash would run as a program. Two commands carrying flags are refused too.
    void launchFileCommandBoundaries_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("error");
        QTest::newRow("comment line ends the command")
            << "torchrun pretrain_gpt.py --tensor-model-parallel-size 2 --sequence-parallel \\\n"
               "  # --expert-model-parallel-size 4 \\\n"
               "  --expert-model-parallel-size 8\n"
            << "line 3: --expert-model-parallel-size starts a command of its own: the line before "
               "does not continue (a comment or a space after the backslash ends the command), "
               "so bash would not pass it to the launch command on line 1";
        QTest::newRow("space after the backslash")
            << "#!/bin/bash\ntorchrun pretrain_gpt.py --tensor-model-parallel-size 2 \\ \n"
               "  --pipeline-model-parallel-size=4\n"
            << "line 3: --pipeline-model-parallel-size=4 starts a command of its own: the line "
               "before does not continue (a comment or a space after the backslash ends the "
               "command), so bash would not pass it to the launch command on line 2";
        QTest::newRow("launcher with other flags only")
            << "python pretrain_gpt.py --lr 3e-4\n--tensor-model-parallel-size 2"
            << "line 2: --tensor-model-parallel-size starts a command of its own: the line "
               "before does not continue (a comment or a space after the backslash ends the "
               "command), so bash would not pass it to the launch command on line 1";
        QTest::newRow("two launch commands")
            << "python a.py --tensor-model-parallel-size 2\n"
               "echo start; python b.py --lr 1 --pipeline-model-parallel-size 4"
            << "line 1 and line 2 are two separate commands that both carry Megatron-LM flags "
               "(--tensor-model-parallel-size, --pipeline-model-parallel-size): bash passes each "
               "command only its own words";
    }
    void launchFileCommandBoundaries() { refusesLaunchFile(); }

    /// The launch command is the one command carrying the flags: the other commands (with
    /// their own --flags) are not read, an array assigned in one command and expanded in
    /// another is passed, and a file of bare arguments on several lines is read whole.
    void launchFileOneCommand() {
        const Geometry g = modelGeometry("DeepSeek-V2-Lite.config.json");
        const ReadBack r = readLaunch(
            "set -euo pipefail\n"
            "pip install --upgrade --quiet x\n"
            "EP=( --expert-model-parallel-size 4 )\n"
            "# --expert-model-parallel-size 8 is too many \\\n"
            "torchrun pretrain_gpt.py --tensor-model-parallel-size 2 \\\n"
            "  \"${EP[@]}\" 2>&1 | tee log.txt\n",
            g, launchCluster(64));
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.plan.tp, 2);
        QCOMPARE(r.plan.ep, 4);
        QCOMPARE(r.plan.dp, 32);
        QVERIFY(r.notes.empty());
        const ReadBack list =
            readLaunch("--tensor-model-parallel-size 2\n--expert-model-parallel-size 8\n", g,
                       launchCluster(64));
        QVERIFY2(list.ok, list.error.c_str());
        QCOMPARE(list.plan.tp, 2);
        QCOMPARE(list.plan.ep, 8);
    }

    /// The same flag given twice with the same value is one flag; --flag=value is --flag value.
    void launchFileRepeatsAlike() {
        const ReadBack r =
            readLaunch("--micro-batch-size 2 --micro-batch-size=2 --num-layers 27 --num-layers 27",
                       modelGeometry("DeepSeek-V2-Lite.config.json"), launchCluster(64));
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.plan.mbs, 2);
    }

    /// Megatron FSDP shards what --data-parallel-sharding-strategy says.
    void launchFileSharding_data() {
        QTest::addColumn<QString>("flags");
        QTest::addColumn<bool>("fsdp");
        QTest::addColumn<bool>("distopt");
        QTest::addColumn<int>("notes");
        QTest::newRow("fsdp, strategy not given") << "--use-megatron-fsdp" << true << true << 0;
        QTest::newRow("optim_grads_params")
            << "--use-megatron-fsdp --data-parallel-sharding-strategy=\"optim_grads_params\""
            << true << true << 0;
        QTest::newRow("optim: ZeRO-1")
            << "--use-megatron-fsdp --data-parallel-sharding-strategy optim" << false << true << 0;
        QTest::newRow("optim_grads: as optim, noted")
            << "--use-megatron-fsdp --data-parallel-sharding-strategy optim_grads" << false << true
            << 1;
        QTest::newRow("no_shard")
            << "--use-megatron-fsdp --data-parallel-sharding-strategy no_shard" << false << false
            << 0;
        QTest::newRow("older name") << "--use-custom-fsdp" << true << true << 0;
        QTest::newRow("torch FSDP2") << "--use-torch-fsdp2" << true << true << 0;
        QTest::newRow("commented out")
            << "#--use-distributed-optimizer\n--overlap-grad-reduce" << false << false << 0;
    }
    void launchFileSharding() {
        QFETCH(QString, flags);
        QFETCH(bool, fsdp);
        QFETCH(bool, distopt);
        QFETCH(int, notes);
        const ReadBack r = readLaunch(flags.toStdString(), modelGeometry("Llama-3-70B.config.json"),
                                      launchCluster(64));
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.plan.fsdp, fsdp);
        QCOMPARE(r.plan.distributedOptimizer, distopt);
        QCOMPARE(int(r.notes.size()), notes);
    }

    /// VP 2 over DeepSeek-V3's 61 layers on 16 stages: 61 / 32 is no whole number of layers
    /// per chunk. --emit states VP (--num-virtual-stages-per-pipeline-rank 2) and reads back
    /// VP 2 with the same iteration time (the old --num-layers-per-virtual-pipeline-stage 1 read
    /// back as VP 3).
    void virtualPipelineRoundTrip_data() {
        QTest::addColumn<int>("vp");
        QTest::newRow("VP 2") << 2;
        QTest::newRow("VP 3") << 3;
    }
    void virtualPipelineRoundTrip() {
        QFETCH(int, vp);
        const Geometry g = modelGeometry("DeepSeek-V3.config.json");
        const Cluster c = launchCluster(2048, 2048);
        Plan p;
        std::string error;
        QVERIFY(parseLayout("tp=2,pp=16,vp=" + std::to_string(vp) + ",ep=64,mbs=1,ckpt=selective",
                            p, error));
        p.dp = 64;
        const PlanEval ev = evaluateLayout(g, c, p);
        QVERIFY2(ev.feasible, ev.reason.c_str());
        const std::string flags = megatronArguments(g, c, p);
        QVERIFY(flags.find(" --num-virtual-stages-per-pipeline-rank " + std::to_string(vp) + " ") !=
                std::string::npos);
        QVERIFY(flags.find("--num-layers-per-virtual-pipeline-stage") == std::string::npos);
        const ReadBack r = readLaunch(flags, g, launchCluster(2048));
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.plan.vp, vp);
        QVERIFY(samePlan(r.plan, p));
        QCOMPARE(evaluateLayout(g, r.cluster, r.plan).iteration_s, ev.iteration_s);
        QVERIFY(r.notes.empty());
        // Megatron's layers-per-chunk flag reads where the layers divide: 80 = 8 x 5 x 2.
        const ReadBack llama =
            readLaunch("--pipeline-model-parallel-size 8 --num-layers-per-virtual-pipeline-stage 2",
                       modelGeometry("Llama-3-70B.config.json"), launchCluster(64));
        QVERIFY2(llama.ok, llama.error.c_str());
        QCOMPARE(llama.plan.vp, 5);
    }
};

TANDEM_TEST_APPLESS_MAIN(TestMosaicLaunchFile)
#include "tst_mosaic_launch_file.moc"
