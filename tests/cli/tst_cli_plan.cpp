// tandem-cli plan end to end: Hugging Face configs, token targets, the text table, Megatron
// arguments (--emit megatron, launch files, their errors and round trip), the network
// extrapolation note and measured collectives.
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <clocale>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_fixtures.h"
#include "common/csv.h"
#include "test_main.h"

using namespace cli_fixtures;

class TestCliPlan : public QObject {
    Q_OBJECT
private slots:
    /// Plan reads a Hugging Face config.json directly. Mixtral-8x7B on 64 p6-b200
    /// GPUs has a feasible best layout with 0 < MFU < 1 on a 64-GPU mesh; the mapping and its
    /// assumptions are reported in JSON and text.
    void planHuggingFaceConfig() {
        const QString cfg =
            QStringLiteral(TANDEM_TEST_DATA "/models/Mixtral-8x7B-v0.1.config.json");
        const QStringList args{QStringLiteral("plan"),      cfg,
                               QStringLiteral("--devices"), QStringLiteral("64"),
                               QStringLiteral("--gbs"),     QStringLiteral("1024"),
                               QStringLiteral("--seqlen"),  QStringLiteral("4096"),
                               QStringLiteral("--top"),     QStringLiteral("3")};
        const auto r = runCli(args + QStringList{QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        const auto& src = j.at("model_source");
        QCOMPARE(src.at("model_type").get<std::string>(), std::string("mixtral"));
        QVERIFY(std::abs(src.at("n_total").get<double>() / 46.7e9 - 1) < 0.03);
        QVERIFY(std::abs(src.at("n_active").get<double>() / 12.9e9 - 1) < 0.03);
        QVERIFY(src.at("mapping_assumptions").is_array() &&
                src.at("import_assumptions").is_array());
        const auto& model = j.at("model");
        QCOMPARE(model.at("experts").get<int>(), 8);
        QCOMPARE(model.at("top_k").get<int>(), 2);
        QCOMPARE(model.at("layers").get<int>(), 32);
        const auto& best = j.at("layouts").at(0);
        QVERIFY(best.at("feasible").get<bool>());
        const double mfu = best.at("mfu").get<double>();
        QVERIFY2(mfu > 0 && mfu < 1, qPrintable(QString::number(mfu)));
        QCOMPARE(best.at("tp").get<int>() * best.at("cp").get<int>() * best.at("pp").get<int>() *
                     best.at("dp").get<int>(),
                 64);
        QVERIFY(best.at("memory_GB").get<double>() <= 179.0);
        QVERIFY(!best.contains("collectives"));  // analytical: no measured keys
        const auto t = runCli(args);
        QVERIFY2(t.exitCode == 0, qPrintable(t.err));
        QVERIFY2(t.out.contains(QStringLiteral("From a Hugging Face config: model_type mixtral")),
                 qPrintable(t.out));
        QVERIFY(t.out.contains(QStringLiteral("Assumed:")));
    }

    /// --tokens D [--goodput G]: the days each layout needs, D / (tokens/s per GPU x N_dev x
    /// G) / 86400, in JSON (days_to_target, token_target) and the text; without --tokens the
    /// output has none of it; a bad value names its flag (exit 2).
    void planTokenTarget() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path =
            writeModel(dir, R"({"q": 8, "experts": 32, "top_k": 2, "expert_split_factor": 4})");
        const QStringList args{QStringLiteral("plan"),      path,
                               QStringLiteral("--devices"), QStringLiteral("64"),
                               QStringLiteral("--top"),     QStringLiteral("2")};
        const QStringList target{QStringLiteral("--tokens"), QStringLiteral("2e11"),
                                 QStringLiteral("--goodput"), QStringLiteral("0.9")};
        const auto j = runCli(args + target + QStringList{QStringLiteral("--json")});
        QVERIFY2(j.exitCode == 0, qPrintable(j.err));
        const auto plan = nlohmann::json::parse(j.out.toStdString());
        QCOMPARE(plan.at("token_target").at("tokens").get<double>(), 2e11);
        QCOMPARE(plan.at("token_target").at("goodput").get<double>(), 0.9);
        const auto& first = plan.at("layouts").at(0);
        const double days =
            2e11 / (first.at("tokens_per_s_per_gpu").get<double>() * 64 * 0.9) / 86400;
        QVERIFY(std::abs(first.at("days_to_target").get<double>() - days) < 1e-12 * days);
        const auto t = runCli(args + target);
        QVERIFY2(t.exitCode == 0, qPrintable(t.err));
        QVERIFY2(t.out.contains(QStringLiteral("Days to train 2e+11 tokens with the first layout: "
                                               "%1 (goodput 0.9)\n")
                                    .arg(days, 0, 'f', 1)),
                 qPrintable(t.out));
        const auto none = runCli(args + QStringList{QStringLiteral("--json")});
        QVERIFY(!none.out.contains(QLatin1String("token_target")));
        QVERIFY(!none.out.contains(QLatin1String("days_to_target")));
        QVERIFY(!runCli(args).out.contains(QLatin1String("Days to train")));
        for (const auto& [flag, value] :
             {std::pair{"--tokens", "0"}, {"--tokens", "lots"}, {"--goodput", "1.5"}}) {
            const auto bad = runCli(args + QStringList{QLatin1String(flag), QLatin1String(value)});
            QCOMPARE(bad.exitCode, 2);
            QVERIFY2(bad.err.contains(QLatin1String(flag)), qPrintable(bad.err));
        }
    }

    /// The text table's MFU never shows a non-zero share as zero: 4.878e-05 printed "0.0 %";
    /// below 0.05 % two significant digits are kept, above it one decimal as before.
    void planTextKeepsSmallMfu_data() {
        QTest::addColumn<QByteArray>("model");
        QTest::addColumn<QString>("devices");
        QTest::addColumn<QString>("mfuText");  // the first layout's MFU cell
        QTest::newRow("tiny model, 8 GPUs (MFU 4.878e-05)")
            << QByteArray(R"({"layers": 2, "hidden": 64, "heads": 2, "ffn_width": 256,
                              "vocab": 1000})")
            << "8"
            << "0.0049 %";
        QTest::newRow("small model, 8 GPUs (one decimal, as before)")
            << QByteArray(R"({"layers": 4, "hidden": 256, "heads": 4, "ffn_width": 1024,
                              "vocab": 32000})")
            << "8"
            << "0.1 %";
    }

    void planTextKeepsSmallMfu() {
        QFETCH(QByteArray, model);
        QFETCH(QString, devices);
        QFETCH(QString, mfuText);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = writeModel(dir, model);
        QVERIFY(!path.isEmpty());
        const QStringList args{QStringLiteral("plan"),      path,
                               QStringLiteral("--devices"), devices,
                               QStringLiteral("--top"),     QStringLiteral("3")};
        const auto j = runCli(args + QStringList{QStringLiteral("--json")});
        QVERIFY2(j.exitCode == 0, qPrintable(j.err));
        const auto layouts = nlohmann::json::parse(j.out.toStdString()).at("layouts");
        QVERIFY(layouts.at(0).at("mfu").get<double>() > 0);
        const auto t = runCli(args);
        QVERIFY2(t.exitCode == 0, qPrintable(t.err));
        const QStringList lines = t.out.split(QLatin1Char('\n'));
        int header = -1;
        for (int i = 0; i < lines.size() && header < 0; ++i)
            if (lines[i].startsWith(QLatin1String("TP ")) &&
                lines[i].contains(QLatin1String(" MFU ")))
                header = i;
        QVERIFY2(header >= 0 && header + 2 < lines.size(), qPrintable(t.out));
        QVERIFY2(lines[header + 2].contains(QStringLiteral("  ") + mfuText + QStringLiteral("  ")),
                 qPrintable(t.out));
        QVERIFY2(!t.out.contains(QStringLiteral(" 0.0 %")), qPrintable(t.out));
    }

    /// plan --emit megatron states the vocabulary divisor that keeps the costed vocabulary, or,
    /// where TP does not divide it, names Megatron-LM's padded size in a note on stderr and as
    /// a `# Note:` comment in the script's header.
    void planEmitMegatronVocabulary_data() {
        QTest::addColumn<int>("vocab");
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("note");
        QTest::newRow("1000, TP 2: divisor 4")
            << 1000 << "    --vocab-size 1000 \\\n    --make-vocab-size-divisible-by 4 \\\n"
            << "";
        QTest::newRow("1001, TP 2: padded to 1002, noted")
            << 1001 << "    --vocab-size 1001 \\\n    --make-vocab-size-divisible-by 1 \\\n"
            << "Megatron-LM pads the vocabulary of 1001 to 1002 (a multiple of TP 2); the plan "
               "costs 1001";
        QTest::newRow("1024, TP 2: the default keeps it")
            << 1024 << "    --vocab-size 1024 \\\n    --seq-length "
            << "";
    }

    void planEmitMegatronVocabulary() {
        QFETCH(int, vocab);
        QFETCH(QString, flag);
        QFETCH(QString, note);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path =
            writeModel(dir, QStringLiteral(R"({"layers": 2, "hidden": 64, "heads": 2,
                                              "ffn_width": 256, "vocab": %1})")
                                .arg(vocab)
                                .toUtf8());
        QVERIFY(!path.isEmpty());
        const auto r =
            runCli({QStringLiteral("plan"), path, QStringLiteral("--devices"), QStringLiteral("8"),
                    QStringLiteral("--layout"), QStringLiteral("tp=2,pp=1,mbs=1"),
                    QStringLiteral("--emit"), QStringLiteral("megatron")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(flag), qPrintable(r.out));
        QVERIFY2(r.out.startsWith(QStringLiteral("#!/usr/bin/env bash\n")), qPrintable(r.out));
        QCOMPARE(r.err, note.isEmpty()
                            ? QString()
                            : QStringLiteral("--emit megatron: note: ") + note + QLatin1Char('\n'));
        QCOMPARE(r.out.contains(QStringLiteral("\n# Note: ") + note + QLatin1Char('\n')),
                 !note.isEmpty());
        QCOMPARE(r.out.count(QStringLiteral("# Note: ")), note.isEmpty() ? 0 : 1);
    }

    /// plan --emit megatron builds the model the config describes, not Megatron-LM's defaults:
    /// the config's head width (--kv-channels), RMSNorm or LayerNorm, rotary or learned
    /// positions with the config's rope_theta, untied embeddings, no linear biases, Q/K norms;
    /// each flag only where the config states it, and --sequence-parallel only with TP > 1.
    void planEmitMegatronModelFlags_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("present");
        QTest::addColumn<QStringList>("absent");
        QTest::newRow("Qwen3-30B-A3B, 512 x p6-b200 (TP 1)")
            << "Qwen3-30B-A3B.config.json"
            << QStringList{"--devices", "512", "--hardware", "p6-b200"}
            << QStringList{"--tensor-model-parallel-size 1 ",
                           "--num-attention-heads 32 ",
                           "--kv-channels 128 ",
                           "--swiglu ",
                           "--normalization RMSNorm ",
                           "--position-embedding-type rope ",
                           "--rotary-base 1000000 ",
                           "--untie-embeddings-and-output-weights ",
                           "--disable-bias-linear ",
                           "--qk-layernorm "}
            << QStringList{"--sequence-parallel", "--add-qkv-bias", "LayerNorm "};
        QTest::newRow("Llama 3 70B, TP 1 with sp asked")
            << "Llama-3-70B.config.json"
            << QStringList{"--devices", "64", "--layout", "tp=1,pp=8,mbs=1,sp=1"}
            << QStringList{"--tensor-model-parallel-size 1 ",
                           "--swiglu ",
                           "--normalization RMSNorm ",
                           "--position-embedding-type rope ",
                           "--untie-embeddings-and-output-weights ",
                           "--disable-bias-linear "}
            << QStringList{"--sequence-parallel", "--kv-channels", "--qk-layernorm",
                           "--rotary-base", "--add-qkv-bias"};
        QTest::newRow("Llama 3 70B, TP 8 with sp")
            << "Llama-3-70B.config.json"
            << QStringList{"--devices", "64", "--layout", "tp=8,pp=1,mbs=1,sp=1"}
            << QStringList{"--tensor-model-parallel-size 8 ", "--sequence-parallel "}
            << QStringList{"--kv-channels", "--qk-layernorm"};
        // MXFP8 runs on Blackwell's microscaling tensor cores (refused on Hopper, see
        // tst_cli_bad_files): the launch script asks Transformer Engine for that recipe.
        QTest::newRow("Llama 3 70B, 64 x gb200-nvl72 mxfp8")
            << "Llama-3-70B.config.json"
            << QStringList{"--devices",     "64",          "--hardware", "gb200-nvl72", "--stack",
                           "megatron-core", "--precision", "mxfp8"}
            << QStringList{"--fp8-format e4m3 ", "--fp8-recipe mxfp8"}
            << QStringList{"--fp8-recipe tensorwise"};
        QTest::newRow("GPT-2 large: LayerNorm, learned positions, tied, biases")
            << "gpt2-large.config.json" << QStringList{"--devices", "8"}
            << QStringList{"--normalization LayerNorm ",
                           "--position-embedding-type learned_absolute "}
            << QStringList{"--untie-embeddings-and-output-weights", "--disable-bias-linear",
                           "--rotary-base", "--qk-layernorm", "RMSNorm"};
    }

    void planEmitMegatronModelFlags() {
        QFETCH(QString, model);
        QFETCH(QStringList, args);
        QFETCH(QStringList, present);
        QFETCH(QStringList, absent);
        const auto r =
            runCli(QStringList{QStringLiteral("plan"),
                               QStringLiteral(TANDEM_TEST_DATA "/models/") + model} +
                   args + QStringList{QStringLiteral("--emit"), QStringLiteral("megatron")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // The flags one a line, joined back into one line of words.
        QString line = r.out;
        line.replace(QStringLiteral(" \\\n    "), QStringLiteral(" "));
        for (const QString& flag : present)
            QVERIFY2(line.contains(flag), qPrintable(flag + "\n" + r.out));
        for (const QString& flag : absent)
            QVERIFY2(!line.contains(flag), qPrintable(flag + "\n" + r.out));
    }

    /// plan --megatron-args reads a launch script as bash would: the commented-out
    /// "--micro-batch-size 1" is not costed (micro-batch 4 is), the quoted 'selective' is
    /// Megatron's selective recompute (core attention), the arrays are expanded, and the flags
    /// it does not model are named in a note on stderr.
    void planMegatronLaunchFile() {
        const auto r =
            runCli({QStringLiteral("plan"),
                    QStringLiteral(TANDEM_TEST_DATA "/models/DeepSeek-V2-Lite.config.json"),
                    QStringLiteral("--devices"), QStringLiteral("64"), QStringLiteral("--stack"),
                    QStringLiteral("megatron-core"), QStringLiteral("--megatron-args"),
                    QStringLiteral(TANDEM_CLI_DATA "/launch-deepseek-v2-lite.sh"),
                    QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto l = nlohmann::json::parse(r.out.toStdString()).at("layouts").at(0);
        QCOMPARE(l.at("mbs").get<int>(), 4);
        QCOMPARE(l.at("ep").get<int>(), 8);
        QCOMPARE(l.at("dp").get<int>(), 64);
        QCOMPARE(l.at("ckpt").get<std::string>(), std::string("core-attn"));
        QCOMPARE(l.at("global_batch_sequences").get<int>(), 1024);
        QVERIFY(l.at("feasible").get<bool>());
        QVERIFY2(r.err.contains(QStringLiteral(
                     "note: not modelled, not costed: --nproc_per_node --nnodes --lr "
                     "--train-iters")),
                 qPrintable(r.err));
    }

    /// plan --layout without a ckpt key: a published Megatron-Bridge layout (Llama 3.1 405B on
    /// 256 DGX-GB200 at FP8, TP 4 PP 16 VP 4; tests/data/megatron-bridge/measured-throughput.csv
    /// line 18) was costed without recomputation and called out of memory. It is costed with
    /// the least recomputation that fits and names it (text and JSON); given ckpt=none it stays
    /// out of memory and names the recomputation that would fit.
    void planLayoutWithoutCkpt() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = writeModel(dir, R"({"layers": 126, "hidden": 16384, "heads": 128,
            "kv_heads": 8, "ffn_width": 53248, "vocab": 128256})");
        QVERIFY(!path.isEmpty());
        const QStringList base{QStringLiteral("plan"),        path,
                               QStringLiteral("--devices"),   QStringLiteral("256"),
                               QStringLiteral("--gbs"),       QStringLiteral("1536"),
                               QStringLiteral("--seqlen"),    QStringLiteral("8192"),
                               QStringLiteral("--hardware"),  QStringLiteral("gb200-nvl72"),
                               QStringLiteral("--stack"),     QStringLiteral("megatron-core"),
                               QStringLiteral("--precision"), QStringLiteral("fp8"),
                               QStringLiteral("--layout")};
        const QString published = QStringLiteral("tp=4,pp=16,vp=4,mbs=1");
        const auto js = runCli(base + QStringList{published, QStringLiteral("--json")});
        QVERIFY2(js.exitCode == 0, qPrintable(js.err + js.out));
        const auto l = nlohmann::json::parse(js.out.toStdString()).at("layouts").at(0);
        QVERIFY(l.at("feasible").get<bool>());
        QCOMPARE(l.at("ckpt").get<std::string>(), std::string("selective"));
        QVERIFY(l.at("ckpt_chosen").get<bool>());
        QVERIFY(l.at("memory_GB").get<double>() <= 184.0);
        const auto t = runCli(base + QStringList{published});
        QCOMPARE(t.exitCode, 0);
        QVERIFY2(t.out.contains(QStringLiteral(
                     "ckpt not given: costed with selective, the least recomputation that fits")),
                 qPrintable(t.out));
        // Given without recomputation: out of memory, and the remedy is named.
        const QString none = published + QStringLiteral(",ckpt=none");
        const auto jn = runCli(base + QStringList{none, QStringLiteral("--json")});
        QCOMPARE(jn.exitCode, 1);
        const auto ln = nlohmann::json::parse(jn.out.toStdString()).at("layouts").at(0);
        QVERIFY(!ln.at("feasible").get<bool>());
        QVERIFY(!ln.contains("ckpt_chosen"));
        QCOMPARE(ln.at("fits_with").at("change").get<std::string>(), std::string("ckpt=selective"));
        QCOMPARE(ln.at("fits_with").at("memory_GB").get<double>(), l.at("memory_GB").get<double>());
        const auto tn = runCli(base + QStringList{none});
        QCOMPARE(tn.exitCode, 1);
        QVERIFY2(tn.out.contains(QStringLiteral("Fits with ckpt=selective (")), qPrintable(tn.out));
        QVERIFY2(tn.out.contains(QStringLiteral(
                     "--layout tp=4,pp=16,cp=1,ep=1,dp=4,mbs=1,ckpt=selective,vp=4")),
                 qPrintable(tn.out));
    }

    /// reproduce reality reports the leave-out errors beside the in-sample ones: one refit per
    /// measured system and per model family, each group's runs predicted by the refit (JSON
    /// leave_out, the text's table and overall line), and the split by dense / MoE and by
    /// micro-batch size.
    void reproduceRealityLeaveOut() {
        const auto j = runCli(
            {QStringLiteral("reproduce"), QStringLiteral("reality"), QStringLiteral("--json")});
        QVERIFY2(j.exitCode == 0, qPrintable(j.err));
        const auto r = nlohmann::json::parse(j.out.toStdString());
        const auto& lo = r.at("leave_out");
        QCOMPARE(lo.at("groups").size(), size_t(6));
        int systemRuns = 0, familyRuns = 0;
        for (const auto& g : lo.at("groups")) {
            (g.at("kind") == "system" ? systemRuns : familyRuns) += g.at("rows").get<int>();
            QCOMPARE(g.at("runs").size(), g.at("rows").get<size_t>());
            QVERIFY(g.at("max_abs_error").get<double>() >= g.at("median_abs_error").get<double>());
        }
        QCOMPARE(systemRuns, 89);
        QCOMPARE(familyRuns, 89);
        QCOMPARE(r.at("split").at("dense_moe").at("dense").at("rows").get<int>(), 41);
        QVERIFY(r.at("split").at("mbs").contains("1"));
        const auto t = runCli({QStringLiteral("reproduce"), QStringLiteral("reality")});
        QCOMPARE(t.exitCode, 0);
        for (const char* s : {"By dense / MoE:", "By micro-batch size:", "Leave-out validation",
                              "system        DGX-H100", "model_family  Llama 3",
                              "Overall median |error|: leave-one-system-out ",
                              "stack megatron-core (measured and predicted: tokens/s per GPU)\n"})
            QVERIFY2(t.out.contains(QString::fromUtf8(s)), s);
        // The verdict names the targets it covers: the summary ones decide the exit code, the
        // leave-out ones (median <= 10 %, no group above 15 %) are listed with what misses.
        QVERIFY2(t.out.contains(QStringLiteral(
                     "\nsummary targets (in-sample median |error| <= 8 %, >= 80 % within +-25 %, "
                     "every layout feasible, Korthikanti points within +-10 %): met\n")),
                 qPrintable(t.out.right(600)));
        QVERIFY(!t.out.contains(QStringLiteral("\ntargets met\n")));
        auto pct = [](double v) { return QString::number(100 * v, 'f', 1) + QStringLiteral(" %"); };
        QStringList misses;
        const auto& overall = lo.at("overall");
        for (const auto& [key, name] : {std::pair{"system", "leave-one-system-out"},
                                        {"model_family", "leave-one-model-family-out"}}) {
            const double median = overall.at(key).at("median_abs_error").get<double>();
            if (median > 0.10) misses << QLatin1String(name) + QLatin1Char(' ') + pct(median);
        }
        for (const auto& g : lo.at("groups"))
            if (g.at("median_abs_error").get<double>() > 0.15)
                misses << QString::fromStdString(g.at("name").get<std::string>()) +
                              QLatin1Char(' ') + pct(g.at("median_abs_error").get<double>());
        QVERIFY(!misses.isEmpty());  // the Qwen3 and gpt-oss family groups (above 15 %)
        QVERIFY2(t.out.endsWith(QStringLiteral("leave-out targets (each median <= 10 %, no group "
                                               "above 15 %): not met: ") +
                                misses.join(QStringLiteral(", ")) + QLatin1Char('\n')),
                 qPrintable(t.out.right(600)));
    }

    /// A launch file it cannot read as written is refused with the flag and exit code 2.
    void planMegatronArgsErrors_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << ""
                               << "the file has no arguments (it is empty or only comments)";
        QTest::newRow("only comments") << "#!/bin/bash\n# --micro-batch-size 1\n"
                                       << "the file has no arguments";
        QTest::newRow("misspelt value")
            << "--recompute-granularity fulll"
            << "--recompute-granularity must be full or selective (got \"fulll\")";
        QTest::newRow("twice, different values")
            << "--micro-batch-size 1 --micro-batch-size 2"
            << "--micro-batch-size is given twice with different values (\"1\" and \"2\")";
        QTest::newRow("contradicts the model")
            << "--num-layers 61 --expert-model-parallel-size 8"
            << "--num-layers 61 contradicts the model file (27 layers)";
        QTest::newRow("comment line ends the launch command")
            << "torchrun pretrain_gpt.py --tensor-model-parallel-size 2 --sequence-parallel \\\n"
               "  # --expert-model-parallel-size 4 \\\n"
               "  --expert-model-parallel-size 8\n"
            << "line 3: --expert-model-parallel-size starts a command of its own: the line before "
               "does not continue";
    }

    void planMegatronArgsErrors() {
        QFETCH(QString, script);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString file = writeFile(dir, QStringLiteral("launch.sh"), script.toUtf8());
        QVERIFY(!file.isEmpty());
        const auto r =
            runCli({QStringLiteral("plan"),
                    QStringLiteral(TANDEM_TEST_DATA "/models/DeepSeek-V2-Lite.config.json"),
                    QStringLiteral("--devices"), QStringLiteral("64"), QStringLiteral("--stack"),
                    QStringLiteral("megatron-core"), QStringLiteral("--megatron-args"), file});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--megatron-args: ") + message), qPrintable(r.err));
    }

    /// plan --emit megatron writes the layout it costed and --megatron-args reads it back to the
    /// same layout and iteration time, bit for bit: VP 2 over DeepSeek-V3's 61 layers on 16
    /// stages (once written as 1 layer per chunk and read back as VP 3), and the planner's best
    /// layout of Llama 3 70B on a batch that DP x mbs does not divide (the rounded batch).
    void planEmitMegatronRoundTrip_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QStringList>("args");
        QTest::newRow("DeepSeek-V3 VP 2 over 61 layers")
            << "DeepSeek-V3.config.json"
            << QStringList{
                   "--devices", "2048", "--gbs",    "2048",
                   "--seqlen",  "4096", "--layout", "tp=2,pp=16,vp=2,ep=64,mbs=1,ckpt=selective"};
        QTest::newRow("Qwen3-30B-A3B on p6-b200: head width 128, TP 1")
            << "Qwen3-30B-A3B.config.json"
            << QStringList{"--devices", "512", "--hardware", "p6-b200"};
        QTest::newRow("Llama 3 70B best layout, rounded batch")
            << "Llama-3-70B.config.json"
            << QStringList{"--devices", "96", "--gbs", "1000", "--seqlen", "8192"};
    }

    void planEmitMegatronRoundTrip() {
        QFETCH(QString, model);
        QFETCH(QStringList, args);
        const QString cfg = QStringLiteral(TANDEM_TEST_DATA "/models/") + model;
        const QStringList common =
            QStringList{QStringLiteral("plan"), cfg} + args +
            QStringList{QStringLiteral("--stack"), QStringLiteral("megatron-core")};
        const auto planned = runCli(common + QStringList{QStringLiteral("--json")});
        QVERIFY2(planned.exitCode == 0, qPrintable(planned.err));
        const auto want = nlohmann::json::parse(planned.out.toStdString()).at("layouts").at(0);
        const auto emitted =
            runCli(common + QStringList{QStringLiteral("--emit"), QStringLiteral("megatron")});
        QVERIFY2(emitted.exitCode == 0, qPrintable(emitted.err));
        QTemporaryDir dir;
        const QString file = writeFile(dir, QStringLiteral("launch.sh"), emitted.out.toUtf8());
        QVERIFY(!file.isEmpty());
        const auto back =
            runCli({QStringLiteral("plan"), cfg, QStringLiteral("--devices"), args.at(1),
                    QStringLiteral("--stack"), QStringLiteral("megatron-core"),
                    QStringLiteral("--megatron-args"), file, QStringLiteral("--json")});
        QVERIFY2(back.exitCode == 0, qPrintable(back.err));
        QVERIFY2(back.err.isEmpty(), qPrintable(back.err));  // every emitted flag is read
        const auto got = nlohmann::json::parse(back.out.toStdString()).at("layouts").at(0);
        for (const char* key :
             {"tp", "pp", "vp", "cp", "ep", "etp", "dp", "mbs", "fsdp", "distopt", "sp",
              "pp_first_layers", "pp_last_layers", "ckpt", "global_batch_sequences"})
            QVERIFY2(got.at(key) == want.at(key), key);
        QCOMPARE(got.at("iteration_s").get<double>(), want.at("iteration_s").get<double>());
        QCOMPARE(got.at("memory_GB").get<double>(), want.at("memory_GB").get<double>());
    }

    /// plan --emit megatron prints a bash script that runs: bash starts torchrun (a stand-in on
    /// PATH that prints what it was given) with the GPUs per node and the node count in
    /// torchrun's PET_* variables, pretrain_gpt.py, every flag of the plan one word each as
    /// --megatron-args reads them, and the script's own arguments last; the header names the
    /// model, hardware and stack.
    void planEmitMegatronIsARunnableScript() {
        const QString cfg = QStringLiteral(TANDEM_TEST_DATA "/models/DeepSeek-V3.config.json");
        const auto emitted =
            runCli({QStringLiteral("plan"), cfg, QStringLiteral("--devices"),
                    QStringLiteral("2048"), QStringLiteral("--gbs"), QStringLiteral("2048"),
                    QStringLiteral("--seqlen"), QStringLiteral("4096"), QStringLiteral("--layout"),
                    QStringLiteral("tp=2,pp=16,vp=2,ep=64,mbs=1,ckpt=selective"),
                    QStringLiteral("--stack"), QStringLiteral("megatron-core"),
                    QStringLiteral("--emit"), QStringLiteral("megatron")});
        QVERIFY2(emitted.exitCode == 0, qPrintable(emitted.err));
        const QString& script = emitted.out;
        QVERIFY2(script.startsWith(QStringLiteral("#!/usr/bin/env bash\n# ")), qPrintable(script));
        for (const QString& line :
             {QStringLiteral("\n# Model: L61 "),
              QStringLiteral("\n# Hardware: 2048 x p6-b200 (256 nodes of 8 GPUs); training stack "
                             "megatron-core; precision bf16\n"),
              QStringLiteral("\nset -euo pipefail\n")})
            QVERIFY2(script.contains(line), qPrintable(line + QStringLiteral(" in\n") + script));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("launch.sh"));
        const QString fake = dir.filePath(QStringLiteral("torchrun"));
        for (const auto& [path, text] :
             {std::pair{file, script.toUtf8()},
              std::pair{fake, QByteArray("#!/bin/sh\nprintf '%s\\n' \"nproc=$PET_NPROC_PER_NODE\" "
                                         "\"nnodes=$PET_NNODES\" \"$@\"\n")}}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
            f.close();
            QVERIFY(f.setPermissions(f.permissions() | QFileDevice::ExeOwner));
        }
        QProcess bash;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"), dir.path() + QStringLiteral(":") + env.value("PATH"));
        env.remove(QStringLiteral("PET_NPROC_PER_NODE"));
        env.remove(QStringLiteral("PET_NNODES"));
        bash.setProcessEnvironment(env);
        bash.start(QStringLiteral("bash"),
                   {file, QStringLiteral("--data-path"), QStringLiteral("my corpus")});
        QVERIFY(bash.waitForFinished(30000));
        QCOMPARE(bash.exitCode(), 0);
        QStringList got = QString::fromUtf8(bash.readAllStandardOutput()).split(QLatin1Char('\n'));
        QCOMPARE(got.takeLast(), QString());
        // The flags as words, from the plan's own --megatron-args reading: compare with the
        // script's flag lines (one flag and its values each).
        QStringList want{QStringLiteral("nproc=8"), QStringLiteral("nnodes=256"),
                         QStringLiteral("pretrain_gpt.py")};
        for (const QString& line : script.split(QLatin1Char('\n')))
            if (line.startsWith(QStringLiteral("    --"))) {
                QString words = line.mid(4);
                words.chop(2);  // " \\"
                // The one quoted value: --moe-layer-freq '([0]*3+[1]*58)'.
                for (const QString& w : words.split(QLatin1Char(' ')))
                    want << QString(w).remove(QLatin1Char('\''));
            }
        want << QStringLiteral("--data-path") << QStringLiteral("my corpus");
        QCOMPARE(got, want);
        QVERIFY(want.contains(QStringLiteral("--num-virtual-stages-per-pipeline-rank")));
    }

    /// --nccl costs the DP collectives from the measured 2x8 all-reduce curve (a
    /// 2^28-parameter dense model on 16 H100: 1 GiB reduce-scatter, 512 MiB all-gather, both
    /// measured sizes), which changes the exposed DP time: the analytical model costs the
    /// reduce-scatter and all-gather across the two H100 nodes as NCCL's ring, bounded by the
    /// node's 8 x 400 Gb/s (351 GB/s at the fitted efficiency), slower than this all-reduce
    /// curve standing in for them at 1 GiB and 512 MiB (441 and 394 GB/s), so the measured
    /// curve lowers it; a log ending in an NCCL error is refused with its line.
    /// plan says when its collectives extrapolate the scale-out constants: 128 H100 nodes
    /// (fitted on runs of 10-12) in the text and in JSON's network_note; 10 nodes say nothing.
    void planNamesNetworkExtrapolation() {
        const QString model = QStringLiteral(TANDEM_TEST_DATA "/models/Llama-2-13b-hf.config.json");
        auto planOn = [&](int devices, bool json) {
            QStringList args{QStringLiteral("plan"),       model,
                             QStringLiteral("--devices"),  QString::number(devices),
                             QStringLiteral("--gbs"),      QStringLiteral("1024"),
                             QStringLiteral("--seqlen"),   QStringLiteral("4096"),
                             QStringLiteral("--hardware"), QStringLiteral("h100")};
            if (json) args << QStringLiteral("--json");
            return runCli(args);
        };
        const auto far = planOn(1024, false);
        QVERIFY2(far.exitCode == 0, qPrintable(far.err));
        QVERIFY2(far.out.contains(QStringLiteral("Note: h100: collectives across 128 nodes")),
                 qPrintable(far.out.left(400)));
        const auto farJson = nlohmann::json::parse(planOn(1024, true).out.toStdString());
        QVERIFY(farJson.at("network_note").get<std::string>().find("10-12 nodes") !=
                std::string::npos);
        const auto near = planOn(80, false);
        QVERIFY2(near.exitCode == 0, qPrintable(near.err));
        QVERIFY(!near.out.contains(QStringLiteral("Note:")));
        QVERIFY(
            !nlohmann::json::parse(planOn(80, true).out.toStdString()).contains("network_note"));
    }

    void planWithMeasuredCollectives() {
        QTemporaryDir dir;
        const QString model = dir.filePath(QStringLiteral("dense.json"));
        {
            std::ofstream(model.toStdString())
                << R"({"layers": 12, "hidden": 1024, "heads": 8, "kv_heads": 8, "ffn_width": 4096, "vocab": 65536})";
        }
        const QString log = QStringLiteral(
            TANDEM_TEST_DATA "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt");
        const QStringList args{QStringLiteral("plan"),       model,
                               QStringLiteral("--devices"),  QStringLiteral("16"),
                               QStringLiteral("--gbs"),      QStringLiteral("16"),
                               QStringLiteral("--seqlen"),   QStringLiteral("512"),
                               QStringLiteral("--hardware"), QStringLiteral("h100"),
                               QStringLiteral("--layout"),   QStringLiteral("1,1,1,1,16,1"),
                               QStringLiteral("--json")};
        const auto a = runCli(args);
        const auto m = runCli(args + QStringList{QStringLiteral("--nccl"), log});
        QVERIFY2(a.exitCode == 0 && m.exitCode == 0, qPrintable(a.err + m.err));
        const auto ja = nlohmann::json::parse(a.out.toStdString());
        const auto jm = nlohmann::json::parse(m.out.toStdString());
        QVERIFY(!ja.contains("measured_collectives"));
        QCOMPARE(jm.at("measured_collectives").at("curves").size(), size_t(1));
        const auto& lm = jm.at("layouts").at(0);
        const auto& coll = lm.at("collectives");
        QCOMPARE(coll.at("measured").get<int>(), 2);
        QCOMPARE(coll.at("extrapolated").get<int>(), 0);
        const double rs = 1073741824.0 * 15 / 16 / 440.96e9, ag = 536870912.0 * 15 / 16 / 394.00e9;
        QVERIFY(std::abs(coll.at("uses").at(0).at("time_s").get<double>() - rs) < 1e-15);
        QVERIFY(std::abs(coll.at("uses").at(1).at("time_s").get<double>() - ag) < 1e-15);
        const double dpA = ja.at("layouts").at(0).at("breakdown_s").at("dp").get<double>();
        const double dpM = lm.at("breakdown_s").at("dp").get<double>();
        QVERIFY2(dpM < dpA, qPrintable(QString::number(dpM) + " vs " + QString::number(dpA)));

        // A log that ends in an NCCL error.
        std::ifstream in(log.toStdString());
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        text += "node01: Test NCCL failure all_reduce.cu:44 'unhandled system error'\n";
        const QString bad = dir.filePath(QStringLiteral("bad.txt"));
        std::ofstream(bad.toStdString()) << text;
        const auto e = runCli(args + QStringList{QStringLiteral("--nccl"), bad});
        QCOMPARE(e.exitCode, 2);
        QVERIFY2(e.err.contains(QStringLiteral("line 35: NCCL error reported")), qPrintable(e.err));
    }

    /// Llama 3 70B's 80 layers over PP 3: the plan's text and JSON state the split (27, 27, 26)
    /// for the first layout, --emit writes it as --decoder-last-pipeline-num-layers 26 (with
    /// the note and the overlap line in its header), --megatron-args reads the script back to
    /// the same layout and costs, and inspect detects it as a Megatron-LM launch script though
    /// its header names nccl-tests.
    void planEmitUnevenPipelineSplit() {
        const QString cfg = QStringLiteral(TANDEM_TEST_DATA "/models/Llama-3-70B.config.json");
        const QStringList common{
            QStringLiteral("plan"),      cfg,
            QStringLiteral("--devices"), QStringLiteral("192"),
            QStringLiteral("--layout"),  QStringLiteral("tp=8,pp=3,mbs=1,ckpt=full")};
        const QString note = QStringLiteral(
            "the 80 layers do not divide over PP 3: the plan costs 2 stages of 27 layers and 1 of "
            "26, which the launch script states with --decoder-last-pipeline-num-layers 26");
        const auto text = runCli(common);
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY2(
            text.out.contains(QStringLiteral("\nNote (first layout): ") + note + QLatin1Char('\n')),
            qPrintable(text.out));
        const auto planned = runCli(common + QStringList{QStringLiteral("--json")});
        QVERIFY2(planned.exitCode == 0, qPrintable(planned.err));
        const auto want = nlohmann::json::parse(planned.out.toStdString());
        QCOMPARE(QString::fromStdString(want.at("pipeline_note").get<std::string>()), note);
        const auto emitted =
            runCli(common + QStringList{QStringLiteral("--emit"), QStringLiteral("megatron")});
        QCOMPARE(emitted.exitCode, 0);
        QCOMPARE(emitted.err, QStringLiteral("--emit megatron: note: ") + note + QLatin1Char('\n'));
        const QString& script = emitted.out;
        for (const QString& line :
             {QStringLiteral("\n# Note: ") + note + QLatin1Char('\n'),
              QStringLiteral("\n# Overlap as stack mosaic-paper costs it: "),
              QStringLiteral(" \\\n    --pipeline-model-parallel-size 3 \\\n    "
                             "--decoder-last-pipeline-num-layers 26 \\\n")})
            QVERIFY2(script.contains(line), qPrintable(line + QStringLiteral("\nin\n") + script));
        QVERIFY(!script.contains(QStringLiteral("--decoder-first-pipeline-num-layers")));
        QTemporaryDir dir;
        const QString file = writeFile(dir, QStringLiteral("launch.sh"), script.toUtf8());
        QVERIFY(!file.isEmpty());
        const auto back =
            runCli({QStringLiteral("plan"), cfg, QStringLiteral("--devices"), QStringLiteral("192"),
                    QStringLiteral("--megatron-args"), file, QStringLiteral("--json")});
        QVERIFY2(back.exitCode == 0, qPrintable(back.err));
        QVERIFY2(back.err.isEmpty(), qPrintable(back.err));
        const auto got = nlohmann::json::parse(back.out.toStdString());
        for (const char* key : {"tp", "pp", "vp", "dp", "mbs", "pp_first_layers", "pp_last_layers",
                                "ckpt", "iteration_s", "memory_GB"})
            QVERIFY2(got.at("layouts").at(0).at(key) == want.at("layouts").at(0).at(key), key);
        QCOMPARE(got.at("pipeline_note"), want.at("pipeline_note"));
        // The header's network note names nccl-tests: a comment, not nccl-tests output.
        QVERIFY2(script.contains(QStringLiteral("nccl-tests")), qPrintable(script));
        const auto inspected = runCli({QStringLiteral("inspect"), file, QStringLiteral("--json")});
        QVERIFY2(inspected.exitCode == 0, qPrintable(inspected.err));
        QCOMPARE(nlohmann::json::parse(inspected.out.toStdString()).at("kind").get<std::string>(),
                 std::string("megatron_launch"));
        const auto inspectedText = runCli({QStringLiteral("inspect"), file});
        QCOMPARE(inspectedText.exitCode, 0);
        QVERIFY2(
            inspectedText.out.startsWith(QStringLiteral("launch.sh: megatron_launch (bash)\n")),
            qPrintable(inspectedText.out));
    }

    /// --emit megatron prints a launch script and --json a JSON document: together they are
    /// refused (exit 2) naming both flags, with nothing on standard output.
    void planEmitWithJsonRefused() {
        const QString cfg = QStringLiteral(TANDEM_TEST_DATA "/models/Llama-3-70B.config.json");
        const auto r = runCli({QStringLiteral("plan"), cfg, QStringLiteral("--devices"),
                               QStringLiteral("64"), QStringLiteral("--emit"),
                               QStringLiteral("megatron"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err, QStringLiteral("tandem-cli: --emit megatron and --json cannot be "
                                       "combined: --emit prints a launch script, --json the "
                                       "plan's JSON; give one of them\n"));
    }

    /// --emit megatron with no feasible layout says why, as plain plan does (the rules that cut
    /// the grid with the smallest memory need and the nearest working cluster, or the given
    /// layout's reason and the setting that makes it fit), and exits 1.
    void planEmitSaysWhyNothingFits_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("grid, one GPU") << QStringList{"--devices", "1"};
        QTest::newRow("given layout out of memory")
            << QStringList{"--devices", "8", "--layout", "tp=1,pp=1,mbs=4,ckpt=none"};
    }
    void planEmitSaysWhyNothingFits() {
        QFETCH(QStringList, args);
        const QString cfg = QStringLiteral(TANDEM_TEST_DATA "/models/Llama-3-70B.config.json");
        const QStringList common = QStringList{QStringLiteral("plan"), cfg} + args;
        const auto plain = runCli(common);
        QCOMPARE(plain.exitCode, 1);
        const auto emitted =
            runCli(common + QStringList{QStringLiteral("--emit"), QStringLiteral("megatron")});
        QCOMPARE(emitted.exitCode, 1);
        QVERIFY(emitted.out.isEmpty());
        const QString head = QStringLiteral(
            "tandem-cli: --emit megatron: no feasible layout to write; nothing "
            "emitted:\n");
        QVERIFY2(emitted.err.startsWith(head), qPrintable(emitted.err));
        const QString why = emitted.err.mid(head.size());
        if (args.contains(QStringLiteral("--layout"))) {
            // The reason is the table's note column, the remedy plain plan's line.
            QVERIFY2(why.startsWith(QStringLiteral("Layout tp=1")), qPrintable(why));
            QVERIFY2(why.contains(QStringLiteral(" is not feasible: does not fit in device "
                                                 "memory")),
                     qPrintable(why));
            const QString remedy = why.section(QLatin1Char('\n'), 1);
            QVERIFY2(!remedy.isEmpty() && plain.out.endsWith(remedy),
                     qPrintable(remedy + QStringLiteral(" vs ") + plain.out));
        } else {
            // Every line plain plan prints after the header.
            QVERIFY2(why.startsWith(QStringLiteral("No feasible layout on this cluster.\n")),
                     qPrintable(why));
            QVERIFY2(why.contains(QStringLiteral("Nearest cluster that works: ")), qPrintable(why));
            QVERIFY2(plain.out.endsWith(why), qPrintable(plain.out + QStringLiteral(" vs ") + why));
        }
    }

    /// A model value the reader refuses ("layers": 1e308) is reported once, naming its path.
    void planModelValueReportedOnce() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = writeModel(
            dir,
            R"({"layers": 1e308, "hidden": 1024, "heads": 8, "kv_heads": 8, "ffn_width": 4096})");
        const auto r = runCli(
            {QStringLiteral("plan"), path, QStringLiteral("--devices"), QStringLiteral("8")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count(QStringLiteral("$.layers")), 1);
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }
};

TANDEM_TEST_GUILESS_MAIN(TestCliPlan)
#include "tst_cli_plan.moc"
