// inspectFile / inspectText: every real test file is recognised and reported with the keys
// `tandem-cli inspect --json` promises; unknown and broken files give messages, not crashes.
#include <QDir>
#include <QtTest>
#include <fstream>
#include <sstream>

#include "inspect/inspect.h"
#include "io/text_file.h"
#include "mosaic/collectives.h"
#include "mosaic/hardware.h"
#include "mosaic/perf_model.h"
#include "mosaic/stack.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::io;
using namespace tandem::inspect;

namespace {
std::string writeFile(const QTemporaryDir& dir, const char* name, const std::string& text) {
    const std::string p = dir.filePath(name).toStdString();
    std::ofstream(p, std::ios::binary) << text;
    return p;
}
}  // namespace

class TstInspect : public QObject {
    Q_OBJECT
private slots:
    void scenarioFileIsRecognised() {
        tandem::Diagnostics d("mosaic-fig1.json");
        const auto j = tandem::inspect::inspectFile(TANDEM_EXAMPLES "/mosaic-fig1.json", d);
        QCOMPARE(QString::fromStdString(j.at("kind").get<std::string>()),
                 QStringLiteral("scenario"));
        QCOMPARE(d.items().size(), size_t(1));
        QCOMPARE(QString::fromStdString(d.items()[0].path), QStringLiteral("$"));
        QVERIFY(d.items()[0].message.find("tandem-cli validate") != std::string::npos);
    }
    void everyDataFile_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("kind");
        const QDir root(TANDEM_TEST_DATA);
        const std::pair<const char*, const char*> dirs[] = {
            {"models", "model_config"}, {"nccl", "nccl_tests"}, {"losslogs", "loss_log"}};
        for (const auto& [sub, kind] : dirs) {
            const QDir d(root.filePath(sub));
            for (const auto& f : d.entryList(QDir::Files, QDir::Name))
                QTest::newRow(qPrintable(f)) << d.filePath(f) << QString(kind);
        }
    }
    void everyDataFile() {
        QFETCH(QString, path);
        QFETCH(QString, kind);
        Diagnostics d(path.toStdString());
        const auto j = inspectFile(path.toStdString(), d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(QString::fromStdString(j["kind"].get<std::string>()), kind);
        std::vector<const char*> keys;
        if (kind == "model_config")
            keys = {"n_total",
                    "n_active",
                    "n_total_nonembedding",
                    "n_active_nonembedding",
                    "sparsity",
                    "split_factor_G",
                    "geometry"};
        else if (kind == "nccl_tests")
            keys = {"collective", "ranks", "peak_busbw_GBps", "points"};
        else
            keys = {"L_inf", "A", "alpha", "S0", "stderr", "rmse", "predicted_at_last_step"};
        for (const char* k : keys) QVERIFY2(j.contains(k), k);
        const std::string text = inspectText(j);
        QVERIFY(text.find(j["file"].get<std::string>()) == 0);
        QVERIFY(text.find("not imported") == std::string::npos);
        // One vocabulary: the text header names the JSON's kind and format.
        const std::string header = j["file"].get<std::string>() + ": " +
                                   j["kind"].get<std::string>() + " (" +
                                   j["format"].get<std::string>() + ")";
        QVERIFY2(text.find(header) == 0, text.c_str());
        QCOMPARE(j.at("errors").size(), std::size_t(0));
        QVERIFY(j.at("warnings").is_array());
    }

    void textRendering() {
        Diagnostics d;
        const auto m =
            inspectFile(std::string(TANDEM_TEST_DATA) + "/models/DeepSeek-V3.config.json", d);
        const std::string t = inspectText(m);
        QVERIFY2(t.find("total 671.03 B") != std::string::npos, t.c_str());
        QVERIFY(t.find("E = 256, K = 8") != std::string::npos);
        QVERIFY(t.find("multi-token-prediction") != std::string::npos);
        const auto n = inspectFile(std::string(TANDEM_TEST_DATA) +
                                       "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt",
                                   d);
        const std::string nt = inspectText(n);
        QVERIFY2(nt.find("all_reduce on 16 ranks") != std::string::npos, nt.c_str());
        QVERIFY(nt.find("peak busbw 487.26 GB/s at 16 GiB") != std::string::npos);
        QVERIFY(d.ok());
    }

    /// nccl-tests JSON carries the analytical model of the chosen hardware at every measured
    /// size (same rank count, packed on its nodes): S x 2(n-1)/n / analytical time.
    void ncclAnalyticalBusbw_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<int>("collective");
        QTest::addColumn<int>("ranks");
        QTest::newRow("H100 2x8 all_reduce on h100")
            << "H100-all_reduce-2x8-awsome-distributed-training.txt"
            << "h100" << int(mosaic::Collective::AllReduce) << 16;
        QTest::newRow("A100 1x8 alltoall on p6-b200")
            << "A100-alltoall-1x8-superbenchmark.txt"
            << "p6-b200" << int(mosaic::Collective::AllToAll) << 8;
    }
    void ncclAnalyticalBusbw() {
        QFETCH(QString, file);
        QFETCH(QString, hardware);
        QFETCH(int, collective);
        QFETCH(int, ranks);
        Diagnostics d;
        const auto j = inspectFile(std::string(TANDEM_TEST_DATA) + "/nccl/" + file.toStdString(), d,
                                   hardware.toStdString());
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(QString::fromStdString(j.at("analytical_hardware").get<std::string>()), hardware);
        QCOMPARE(j.at("ranks").get<int>(), ranks);
        const auto hw = mosaic::builtinHardware(hardware.toStdString());
        const auto c = mosaic::Collective(collective);
        double peak = 0;
        for (const auto& p : j.at("points")) {
            const double bytes = p.at("bytes").get<double>();
            const double want = bytes * mosaic::busFactor(c, ranks) /
                                mosaic::analyticalCollectiveTime(hw, c, bytes, ranks, 1) / 1e9;
            QCOMPARE(p.at("analytical_busbw_GBps").get<double>(), want);
            peak = std::max(peak, want);
        }
        QCOMPARE(j.at("analytical_peak_busbw_GBps").get<double>(), peak);
        QVERIFY(inspectText(j).find("analytical model (" + hardware.toStdString()) !=
                std::string::npos);
    }

    void loadTraceAndCsvLossDetected() {
        QTemporaryDir dir;
        Diagnostics d;
        auto j = inspectFile(writeFile(dir, "bg.csv", "time_s,GBps\n0,1\n10,3\n"), d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(j["kind"].get<std::string>(), std::string("load_trace"));
        QCOMPARE(j["peak_GBps"].get<double>(), 3.0);
        std::string csv = "step,loss\n";
        for (int s = 0; s < 20; ++s)
            csv += std::to_string(s * 10) + "," + std::to_string(3.0 + 8.0 / (s + 1)) + "\n";
        j = inspectFile(writeFile(dir, "loss.csv", csv), d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(j["kind"].get<std::string>(), std::string("loss_log"));
        QVERIFY(j.contains("rmse"));
    }

    void problemsAreReported_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");  // fragment of Diagnostics::str()
        QTest::newRow("nccl error") << "run.txt"
                                    << "# Collective test starting: all_reduce_perf\nnode01: Test "
                                       "NCCL failure common.cu:1005 'internal error'\n"
                                    << "nccl_tests"
                                    << "run.txt: line 2: NCCL error reported";
        // Only a JSON object with a model_type is a model config (any object was read as one:
        // "$.model_type: is required" for a GPU table).
        QTest::newRow("json not a config")
            << "gpus.json"
            << "{\"_notes\": \"x\", \"gpus\": [{\"name\": \"H100\"}]}"
            << "unknown"
            << "gpus.json: $: not a recognised input: a JSON object with no model_type";
        QTest::newRow("json array") << "list.json"
                                    << "[1, 2]"
                                    << "unknown"
                                    << "list.json: $: not a recognised input: a JSON value";
        QTest::newRow("config missing model_type") << "x.json"
                                                   << "{\"hidden_size\": 64}"
                                                   << "model_config"
                                                   << "x.json: $.model_type: is required";
        QTest::newRow("json syntax") << "y.json"
                                     << "{\"model_type\": }"
                                     << "unknown"
                                     << "y.json: line 1";
        QTest::newRow("loss steps backwards") << "back.csv"
                                              << "step,loss\n100,5\n80,4.5\n60,4\n40,3.8\n20,3.6\n"
                                              << "loss_log"
                                              << "back.csv: line 3: step 80 is not after step 100";
        QTest::newRow("unknown") << "notes.txt"
                                 << "hello world\n"
                                 << "unknown"
                                 << "not a recognised input";
    }
    void problemsAreReported() {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string p = writeFile(dir, name.toUtf8().constData(), text.toStdString());
        Diagnostics d(name.toStdString());
        const auto j = inspectFile(p, d);
        QVERIFY(!d.ok());
        QCOMPARE(QString::fromStdString(j["kind"].get<std::string>()), kind);
        QVERIFY2(d.str().find(expected.toStdString()) != std::string::npos, d.str().c_str());
        // `inspect --json` on a bad file lists every error (it held only file and kind).
        QCOMPARE(j.at("errors").size(), d.items().size());
        for (std::size_t i = 0; i < d.items().size(); ++i) {
            QCOMPARE(j["errors"][i].at("path").get<std::string>(), d.items()[i].path);
            QCOMPARE(j["errors"][i].at("message").get<std::string>(), d.items()[i].message);
        }
        QVERIFY(j.contains("format"));
        QVERIFY2(inspectText(j).find(name.toStdString() + ": " + kind.toStdString() + " (") == 0,
                 inspectText(j).c_str());
    }

    // The kind comes from the content (io::detectInputKind), and the file then imports: each
    // row failed before the shared detector (read as invalid JSON, as nccl-tests output, or as
    // unknown text).
    void kindFromContent_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("key");  // a key the imported result must carry
        std::ifstream in(TANDEM_TEST_DATA "/nccl/H100-all_reduce-2x8-gcp-a3mega-lessizzmore.txt",
                         std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        QByteArray tagged;
        for (const auto& l : splitLines(ss.str()))
            tagged += "[1,0]<stdout>:" + QByteArray::fromStdString(l) + "\n";
        QTest::newRow("nccl-tests with mpirun --tag-output") << "nccl.log" << tagged << "nccl_tests"
                                                             << "peak_busbw_GBps";
        QTest::newRow("config.json with a byte-order mark")
            << "config.json"
            << QByteArray(
                   "\xEF\xBB\xBF{\"model_type\": \"llama\", \"hidden_size\": 512, "
                   "\"num_hidden_layers\": 4, "
                   "\"num_attention_heads\": 8, \"intermediate_size\": 1376, \"vocab_size\": "
                   "32000}")
            << "model_config"
            << "n_total";
        QTest::newRow("llm.c loss log with NCCL INFO lines")
            << "train.log"
            << QByteArray(
                   "node01:1234:1234 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
                   "node01:1234:1234 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so)\n"
                   "s:0 trl:10.95\ns:1 trl:9.80\ns:2 trl:9.01\ns:3 trl:8.52\n"
                   "node01:1234:1290 [0] NCCL INFO comm 0x55d5 rank 0 nranks 8 cudaDev 0 - Init "
                   "COMPLETE\n"
                   "s:4 trl:8.10\ns:5 trl:7.83\ns:6 trl:7.60\ns:7 trl:7.42\ns:8 trl:7.30\n")
            << "loss_log"
            << "series";
        QTest::newRow("nanoGPT loss log with NCCL INFO lines")
            << "nanogpt.log"
            << QByteArray(
                   "node01:1234:1234 [0] NCCL INFO cudaDriverVersion 12040\n"
                   "iter 0: loss 10.9500, time 1000.00ms\niter 10: loss 9.1200, time 100.00ms\n"
                   "iter 20: loss 8.0100, time 100.00ms\niter 30: loss 7.4000, time 100.00ms\n"
                   "iter 40: loss 7.0200, time 100.00ms\niter 50: loss 6.8000, time 100.00ms\n")
            << "loss_log"
            << "series";
        QTest::newRow("CSV loss log with NCCL INFO lines")
            << "loss.log"
            << QByteArray(
                   "node01:1234:1234 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
                   "step,loss\n0,10\n10,9\n20,8.5\n"
                   "node01:1234:1290 [0] NCCL INFO comm 0x55d5 rank 0 nranks 8 cudaDev 0 - Init "
                   "COMPLETE\n"
                   "30,8.2\n40,8\n50,7.9\n")
            << "loss_log"
            << "series";
        QTest::newRow("CSV loss log with a byte-order mark")
            << "loss.csv"
            << QByteArray("\xEF\xBB\xBFstep,loss\n0,10\n10,9\n20,8.5\n30,8.2\n40,8\n50,7.9\n")
            << "loss_log"
            << "series";
        // A script's # comments are not content: a launch script whose header names
        // nccl-tests (and a size / busbw line) is a Megatron-LM launch script.
        QTest::newRow("Megatron-LM launch script with nccl-tests in its comments")
            << "launch.sh"
            << QByteArray(
                   "#!/usr/bin/env bash\n"
                   "# Note: fitted to nccl-tests runs of 2 to 16 nodes (all_reduce_perf)\n"
                   "#  size  count  type  busbw\n"
                   "set -euo pipefail\n"
                   "export NCCL_DEBUG=INFO\n"
                   "torchrun pretrain_gpt.py \\\n    --num-layers 80 \\\n"
                   "    --tensor-model-parallel-size 8 \\\n"
                   "    --pipeline-model-parallel-size=3 \\\n    \"$@\"\n")
            << "megatron_launch"
            << "note";
        QTest::newRow("Megatron-LM arguments without #!")
            << "args.txt"
            << QByteArray("--tensor-model-parallel-size 2 --micro-batch-size 1 --seq-length 4096\n")
            << "megatron_launch"
            << "note";
    }
    void kindFromContent() {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, kind);
        QFETCH(QString, key);
        QTemporaryDir dir;
        const std::string path = writeFile(dir, name.toUtf8().constData(), content.toStdString());
        Diagnostics d(name.toStdString());
        const auto j = inspectFile(path, d);
        QCOMPARE(QString::fromStdString(j.at("kind").get<std::string>()), kind);
        QVERIFY2(d.ok(), d.str().c_str());
        QVERIFY2(j.contains(key.toStdString()), j.dump().c_str());
        // The same answer from the text itself (the entry point of the fuzz target).
        Diagnostics d2(name.toStdString());
        QCOMPARE(inspectContent(content.toStdString(), path, d2).at("kind"), j.at("kind"));
        QVERIFY2(d2.ok(), d2.str().c_str());
    }

    void unknownJsonListsWhatIsSupported() {
        QTemporaryDir dir;
        Diagnostics d;
        (void)inspectFile(writeFile(dir, "gpus.json", "{\"gpus\": []}"), d);
        QCOMPARE(d.items().size(), std::size_t(1));
        for (const char* what :
             {"expected a Hugging Face config.json (model_type)", "a Tandem scenario",
              "nccl-tests output", "a training loss log", "a load trace"})
            QVERIFY2(d.items()[0].message.find(what) != std::string::npos, what);
    }

    // The hardware comes from the file name (every curve was compared with p6-b200 otherwise).
    void hardwareFromFileName_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("hardwareArg");
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<QString>("source");
        QTest::newRow("H100 in the name") << "H100-all_reduce-2x8-awsome-distributed-training.txt"
                                          << ""
                                          << "h100"
                                          << "file name";
        QTest::newRow("A100 in the name") << "A100-alltoall-1x8-superbenchmark.txt"
                                          << ""
                                          << "a100"
                                          << "file name";
        QTest::newRow("A3 Mega in the name") << "H100-all_reduce-2x8-gcp-a3mega-lessizzmore.txt"
                                             << ""
                                             << "a3-mega"
                                             << "file name";
        QTest::newRow("a fitted node by its network's name")
            << "H100-all_reduce-10x8-nccl-tests-cluster.txt"
            << "h100-ib-8x400g"
            << "h100"
            << "--hardware";
        QTest::newRow("--hardware overrides")
            << "H100-all_reduce-2x8-awsome-distributed-training.txt"
            << "gb200-nvl72"
            << "gb200-nvl72"
            << "--hardware";
        QTest::newRow("no GPU in the name") << "run.txt"
                                            << ""
                                            << "p6-b200"
                                            << "default";
    }
    void hardwareFromFileName() {
        QFETCH(QString, file);
        QFETCH(QString, hardwareArg);
        QFETCH(QString, hardware);
        QFETCH(QString, source);
        QTemporaryDir dir;
        std::string path = std::string(TANDEM_TEST_DATA) + "/nccl/" + file.toStdString();
        if (file == "run.txt") {  // the H100 2x8 table under a name that names no GPU
            std::ifstream in(std::string(TANDEM_TEST_DATA) +
                             "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt");
            std::stringstream text;
            text << in.rdbuf();
            path = writeFile(dir, "run.txt", text.str());
        }
        Diagnostics d;
        const auto j = inspectFile(path, d, hardwareArg.toStdString());
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(QString::fromStdString(j.at("analytical_hardware").get<std::string>()), hardware);
        QCOMPARE(QString::fromStdString(j.at("analytical_hardware_source").get<std::string>()),
                 source);
        const std::string t = inspectText(j);
        QVERIFY2(t.find("analytical model (" + hardware.toStdString()) != std::string::npos,
                 t.c_str());
        if (source == "file name") QVERIFY(t.find("named in the file name") != std::string::npos);
        if (source == "default") QVERIFY(t.find("--hardware sets another") != std::string::npos);
    }

    // What bounds the model at the largest size, its line-rate ceiling, and the notes: a run
    // beyond the fitted node counts, and a measurement above the ceiling of the node named.
    void modelBoundAndNotes_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<QString>("bound");
        QTest::addColumn<double>("ceilingGBps");
        QTest::addColumn<QString>("note");  // a phrase of the one expected note, "" for none
        // 10 x 8 reduce-scatter on its own node: the ring's 8 NICs of 50 GB/s.
        QTest::newRow("in scope") << "H100-reduce_scatter-10x8-nccl-tests-cluster.txt"
                                  << "h100"
                                  << "NIC" << 400.0 << "";
        // The p5 all-reduce on 25 GB/s NICs: the tree's NIC stage binds, 2 x 15/16 x 8 x 25 GB/s,
        // with the NVLink stage's 16 GiB / 4 MiB pipeline fill: 374.93 GB/s.
        QTest::newRow("above the ceiling")
            << "H100-all_reduce-2x8-awsome-distributed-training.txt"
            << "a3-mega"
            << "NIC" << 1.875 / (1 / 200.0 + 1.75 / 450 / 4096) << "exceeds the line-rate";
        // Another cluster's 2 x 8 all-to-all on the InfiniBand node fitted on 10-12 nodes.
        QTest::newRow("beyond the fitted nodes")
            << "H100-alltoall-2x8-nccl-tests-cluster.txt"
            << "h100"
            << "NIC" << 93.75 << "fitted to nccl-tests runs of 10-12 nodes";
        // One GB200 rack: NVLink, 2 x 71/72 x 900 / (2 x 71/72) = 900 GB/s.
        // Its own node: the fitted NIC stage (0.63 x 400 GB/s) binds; the line-rate ceiling is
        // NVLink's 482 GB/s (the NIC stage's 400 GB/s as pipeline fill over 16 GiB / 4 MiB
        // chunks), measured 487 (NVLS): within the 5 % slack.
        QTest::newRow("own node, NVLS above the ring bound")
            << "H100-all_reduce-2x8-awsome-distributed-training.txt"
            << "p5-efa"
            << "NIC" << 1.875 / (1.75 / 450 + 1 / 400.0 / 4096) << "";
        QTest::newRow("one NVLink domain") << "GB200-all_reduce-18x4-coreweave.txt"
                                           << "gb200-nvl72"
                                           << "NVLink" << 900.0 << "";
    }
    void modelBoundAndNotes() {
        QFETCH(QString, file);
        QFETCH(QString, hardware);
        QFETCH(QString, bound);
        QFETCH(double, ceilingGBps);
        QFETCH(QString, note);
        Diagnostics d;
        const auto j = inspectFile(std::string(TANDEM_TEST_DATA) + "/nccl/" + file.toStdString(), d,
                                   hardware.toStdString());
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(QString::fromStdString(j.at("analytical_bound").get<std::string>()), bound);
        QVERIFY2(std::abs(j.at("analytical_ceiling_busbw_GBps").get<double>() - ceilingGBps) <
                     1e-6 * ceilingGBps,
                 j.at("analytical_ceiling_busbw_GBps").dump().c_str());
        const auto& notes = j.at("analytical_notes");
        if (note.isEmpty()) {
            QVERIFY2(notes.empty(), notes.dump().c_str());
        } else {
            QCOMPARE(notes.size(), std::size_t(1));
            QVERIFY2(notes[0].get<std::string>().find(note.toStdString()) != std::string::npos,
                     notes.dump().c_str());
            QVERIFY(inspectText(j).find("model note: ") != std::string::npos);
        }
    }

    // One size format everywhere (it was "32.00 MiB" in one place, "8.0 GiB" in others).
    void sizesHaveOneFormat_data() {
        QTest::addColumn<double>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("0") << 0.0 << "0 B";
        QTest::newRow("1023 B") << 1023.0 << "1023 B";
        QTest::newRow("1000 KiB") << 1000.0 * 1024 << "1000 KiB";
        QTest::newRow("32 MiB") << 33554432.0 << "32 MiB";
        QTest::newRow("1e8 B") << 1e8 << "95.4 MiB";
        QTest::newRow("1.5 GiB") << 1.5 * 1073741824.0 << "1.5 GiB";
        QTest::newRow("8 GiB less 8 B") << 8589934584.0 << "8 GiB";
        QTest::newRow("16 GiB") << 17179869184.0 << "16 GiB";
        QTest::newRow("2 PiB in TiB") << 2.0 * 1125899906842624.0 << "2048 TiB";
    }
    void sizesHaveOneFormat() {
        QFETCH(double, bytes);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(formatBytes(bytes)), text);
    }

    void ncclTextUsesTheSizeFormatter() {
        // The 10x8 alltoall log's sizes are multiples of 80 ranks (8 GiB less a few bytes): they
        // printed as "8.0 GiB" while other logs printed "8 GiB".
        Diagnostics d;
        const auto j = inspectFile(
            std::string(TANDEM_TEST_DATA) + "/nccl/H100-alltoall-10x8-nccl-tests-cluster.txt", d);
        QVERIFY2(d.ok(), d.str().c_str());
        const std::string t = inspectText(j);
        QVERIFY2(t.find("at 8 GiB; 10 sizes from 32 MiB to 16 GiB") != std::string::npos,
                 t.c_str());
        QVERIFY(t.find(".0 GiB") == std::string::npos && t.find(".00 MiB") == std::string::npos);
    }

    void hugeStepsInScientificNotation() {
        // Huge steps print in scientific notation (not as 300-digit integers).
        QTemporaryDir dir;
        Diagnostics d;
        const auto j = inspectFile(
            writeFile(
                dir, "huge.csv",
                "step,loss\n1e300,3\n2e300,2.5\n3e300,2.3\n4e300,2.2\n5e300,2.1\n6e300,2.05\n"),
            d);
        QVERIFY2(d.ok(), d.str().c_str());
        const std::string t = inspectText(j);
        QVERIFY2(t.find("steps 1e+300..6e+300") != std::string::npos, t.c_str());
        QVERIFY(t.find("at step 6e+300") != std::string::npos);
        QVERIFY(t.find("000000000000") == std::string::npos);
        QCOMPARE(QString::fromStdString(formatCount(19560)), QStringLiteral("19560"));
        QCOMPARE(QString::fromStdString(formatCount(2.5)), QStringLiteral("2.5"));
    }

    void implausibleFitIsAWarningNotAnError() {
        // A rising loss gets a warning (it was fitted to alpha 1e-12, S0 7e21 with no word).
        QTemporaryDir dir;
        Diagnostics d;
        const auto j = inspectFile(
            writeFile(dir, "rise.csv", "step,loss\n0,3\n10,3.5\n20,4\n30,4.5\n40,5\n50,5.5\n"), d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(j.at("usable").get<bool>(), false);
        QVERIFY(!j.at("warnings").empty());
        for (const auto& w : j.at("warnings"))
            QVERIFY(w.get<std::string>().rfind("series \"loss\": ", 0) == 0);
        const std::string t = inspectText(j);
        QVERIFY2(t.find("not usable as a progress curve") != std::string::npos, t.c_str());
        QVERIFY(t.find("warning: series \"loss\": the loss does not fall over the log") !=
                std::string::npos);
        // A sound fit: usable, no warnings.
        Diagnostics d2;
        const auto ok = inspectFile(
            std::string(TANDEM_TEST_DATA) + "/losslogs/llmc-gpt2-124M-10B-8xH100.txt", d2);
        QVERIFY2(d2.ok(), d2.str().c_str());
        QCOMPARE(ok.at("usable").get<bool>(), true);
        QCOMPARE(ok.at("warnings").size(), std::size_t(0));
    }

    void trainLogMeasuredBesidePrediction() {
        const std::string path =
            std::string(TANDEM_TEST_DATA) + "/trainlogs/megatron-lm-2023-gpt345m-4xa800.log";
        // Without --hardware: the measured run, no prediction, and why.
        Diagnostics d0(path);
        const auto m = inspectFile(path, d0);
        QVERIFY2(d0.ok(), d0.str().c_str());
        QCOMPARE(m["kind"].get<std::string>(), std::string("train_log"));
        QCOMPARE(m["format"].get<std::string>(), std::string("megatron"));
        QCOMPARE(m["iteration_time_s"]["median"].get<double>(), 0.2909);
        QCOMPARE(m["steady_records"].get<int>(), 12);
        QVERIFY(m["prediction"].is_null());
        QVERIFY(m["prediction_note"].get<std::string>().find("--hardware") != std::string::npos);
        QCOMPARE(m["warnings"].size(), std::size_t(1));
        // With --hardware a100: PerfModel::evaluate of the log's layout, nothing else.
        Diagnostics d(path);
        const auto j = inspectFile(path, d, "a100");
        QVERIFY2(d.ok(), d.str().c_str());
        const auto& p = j["prediction"];
        QVERIFY(p.value("feasible", false));
        // At TP 1 sequence parallelism does nothing: the plan keeps its default and the layout
        // names no sp (a launch script writes --sequence-parallel only at TP > 1).
        QCOMPARE(p["layout"].get<std::string>(),
                 std::string("tp=1,pp=1,cp=1,ep=1,dp=4,mbs=1,ckpt=none,distopt=0"));
        mosaic::Geometry g = mosaic::denseGeometry(24, 1024, 16, 16, 4096, 50304);
        g.denseFfnMatrices = 2;  // GeLU: the block has swiglu False
        mosaic::countParameters(g);
        mosaic::Cluster c;
        c.hardware = mosaic::builtinHardware("a100");
        c.devices = 4;
        c.globalBatch = 8;
        c.seqLen = 1024;
        c.stack = mosaic::builtinStack("megatron-core");
        mosaic::Plan plan;
        plan.dp = 4;
        plan.distributedOptimizer = false;
        plan.sequenceParallel = false;
        const auto e = mosaic::PerfModel(g, c).evaluate(plan);
        QVERIFY(e.feasible);
        QCOMPARE(p["iteration_s"].get<double>(), e.iteration_s);
        QCOMPARE(p["memory_GB"].get<double>(), e.memoryGB);
        QCOMPARE(p["predicted_over_measured"]["iteration_time"].get<double>(),
                 e.iteration_s / 0.2909);
        QCOMPARE(p["predicted_over_measured"]["memory"].get<double>(),
                 e.memoryGB * 1e9 / (8696.8515625 * 1024 * 1024));
        QVERIFY(p["predicted_over_measured"]["tflops_per_gpu"].is_null());  // not logged
        const std::string text = inspectText(j);
        QVERIFY2(text.find("iteration time: median 0.2909 s") != std::string::npos, text.c_str());
        QVERIFY(text.find("Tandem on a100 (megatron-core stack") != std::string::npos);
        QVERIFY(text.find("predicted / measured: iteration time") != std::string::npos);
        // An incomplete layout says what the log lacks.
        Diagnostics d2("mixtral");
        const auto x = inspectFile(
            std::string(TANDEM_TEST_DATA) + "/trainlogs/megatron-core-2024-mixtral-16xh100.log", d2,
            "h100");
        QVERIFY2(d2.ok(), d2.str().c_str());
        QVERIFY(x["prediction"].is_null());
        QVERIFY(x["prediction_note"].get<std::string>().find("num_layers") != std::string::npos);
        // A refused log: the error with its line, the kind still named.
        Diagnostics d3("cut");
        const auto y =
            inspectFile(std::string(TANDEM_TEST_DATA) + "/trainlogs/megatron-llm-2023-cut.log", d3);
        QVERIFY(!d3.ok());
        QCOMPARE(y["kind"].get<std::string>(), std::string("train_log"));
        QCOMPARE(y["format"].get<std::string>(), std::string("megatron"));
        QCOMPARE(y["errors"][0]["path"].get<std::string>(), std::string("line 5"));
    }
    void missingFile() {
        Diagnostics d;
        const auto j = inspectFile("/nonexistent/file.json", d);
        QVERIFY(!d.ok());
        QCOMPARE(d.items().front().path, std::string("file"));
        QCOMPARE(j["kind"].get<std::string>(), std::string("unknown"));
    }
};

TANDEM_TEST_APPLESS_MAIN(TstInspect)
#include "tst_inspect.moc"
