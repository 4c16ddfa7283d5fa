// Bad files at the command line: tandem-cli fed broken, binary, empty, non-UTF-8 and oversized
// inputs must exit 2 (bad input) or 1 (run error) with "file: path: reason" lines, never crash
// (exit 134 / a signal) and never hang (each call is bounded).
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>
#ifndef _WIN32
#include <sys/stat.h>
#endif

#include "cli_process.h"
#include "test_main.h"

using reliability::CliRun;
using reliability::runCli;

class TstCliBadFiles : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString file(const QString& name, const QByteArray& content) {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly)) f.write(content);
        return path;
    }

private slots:
    void badInput_data() {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expect");  // a fragment of the output ("%F" = the file path)
        static const char kGarbage[] = "\x00\xff\xfe{\"\x01\x80 \xc3(";
        const QByteArray garbage(kGarbage, sizeof kGarbage - 1);  // the bytes, without the NUL
        QTest::newRow("validate: number overflow")
            << "validate"
            << "ovf.json" << QByteArray(R"({"ml_for_ml": {"fabric_GBps": 1e400}})") << QStringList()
            << 2 << "%F: line 1, column 31: invalid JSON: number overflow";
        // A seed of 2^53 + 1 would run as 2^53; bytes after a NUL were never read.
        QTest::newRow("validate: integer beyond 2^53")
            << "validate"
            << "bigint.json" << QByteArray(R"({"ml_for_ml": {"seed": 9007199254740993}})")
            << QStringList() << 2
            << "%F: $.ml_for_ml.seed: integer 9007199254740993 is beyond 2^53";
        QTest::newRow("inspect: config.json with bytes after a NUL")
            << "inspect"
            << "config.json"
            << QByteArray("{\"model_type\": \"llama\", \"hidden_size\": 512}\n\0\0\0trailing", 55)
            << QStringList() << 2 << "%F: line 2, column 1: invalid JSON: a NUL byte";
        QTest::newRow("validate: truncated")
            << "validate"
            << "cut.json" << QByteArray("{\"mosaic\": {\"nodes\": 4,") << QStringList() << 2
            << "%F: line 1, column 24: invalid JSON";
        QTest::newRow("validate: binary")
            << "validate"
            << "bin.json" << garbage << QStringList() << 2 << "invalid JSON";
        QTest::newRow("validate: empty")
            << "validate"
            << "empty.json" << QByteArray() << QStringList() << 2 << "invalid JSON";
        QTest::newRow("validate: seconds for milliseconds")
            << "validate"
            << "ms.json" << QByteArray(R"({"ml_for_ml": {"microbatch_compute_s": 0.0593}})")
            << QStringList() << 2
            << "%F: $.ml_for_ml.microbatch_compute_s: unknown key; did you mean "
               "\"microbatch_compute_ms\"?";
        // Clear messages, exit 2, each naming the key and the reason.
        const auto fileBytes = [](const QString& path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QByteArray scenario1 =
            fileBytes(QStringLiteral(TANDEM_EXAMPLES "/mlforml-scenario1.json"));
        const QByteArray fabric =
            fileBytes(QStringLiteral(TANDEM_EXAMPLES "/mlforml-fabric-scaling.json"));
        const QByteArray deepseek =
            fileBytes(QStringLiteral(TANDEM_TEST_DATA "/models/DeepSeek-V3.config.json"));
        QTest::newRow("validate: horizon shorter than one decision interval")
            << "validate"
            << "short.json"
            << QByteArray(scenario1).replace("\"horizon_s\": 400000.0", "\"horizon_s\": 30.0")
            << QStringList() << 2
            << "%F: $.ml_for_ml.horizon_s: must be at least one decision interval "
               "(decision_interval_s = 60 s; got 30 s)";
        QTest::newRow("plan: nvfp4 on h100")
            << "plan"
            << "ds.json" << deepseek
            << QStringList{"--devices", "256", "--hardware", "h100", "--precision", "nvfp4"} << 2
            << "tandem-cli: --precision nvfp4: h100 has no FP4 peak (peak_fp4_TFLOPs_per_s is 0)";
        // MXFP8 scales blocks of 32 values: Hopper's tensor cores scale FP8 per tensor only.
        const QByteArray llama =
            fileBytes(QStringLiteral(TANDEM_TEST_DATA "/models/Llama-3-70B.config.json"));
        for (const char* gpu : {"h100", "h200"})
            QTest::newRow(qPrintable(QStringLiteral("plan: mxfp8 on %1").arg(QLatin1String(gpu))))
                << "plan"
                << "llama.json" << llama
                << QStringList{"--devices",        "64",      "--hardware",
                               QLatin1String(gpu), "--stack", "megatron-core",
                               "--precision",      "mxfp8"}
                << 2
                << QStringLiteral(
                       "tandem-cli: --precision mxfp8: %1 has no MXFP8 (block-scaled FP8 "
                       "needs the microscaling tensor cores that come with FP4; "
                       "peak_fp4_TFLOPs_per_s is 0): use bf16, fp8")
                       .arg(QLatin1String(gpu));
        QTest::newRow("plan: mxfp8 on a100")
            << "plan"
            << "llama.json" << llama
            << QStringList{"--devices", "64", "--hardware", "a100", "--precision", "mxfp8"} << 2
            << "tandem-cli: --precision mxfp8: a100 has no FP8 peak (peak_fp8_TFLOPs_per_s is 0): "
               "use bf16";
        QTest::newRow("plan: global batch below DP")
            << "plan"
            << "ds.json" << deepseek
            << QStringList{"--devices", "256", "--hardware", "h100",
                           "--gbs",     "16",  "--layout",   "tp=1,pp=1,ep=8"}
            << 2
            << "tandem-cli: --gbs 16 is smaller than the layout's data-parallel width DP x mbs = "
               "256 x 1 = 256";
        QTest::newRow("scaling: node range with a fractional step")
            << "scaling"
            << "fabric.json" << fabric << QStringList{"--nodes", "8:64:100000", "--out", "s.csv"}
            << 2
            << "tandem-cli: --nodes 8:64:100000: 100000 points from 8 to 64 lie 0.00056 nodes "
               "apart, but a node count is a whole number";
        // UTF-16 / UTF-32 text: the encoding is named, no raw bytes are printed.
        const auto wide = [](const QByteArray& utf8, bool bom) {
            const QString text = QString::fromUtf8(utf8);
            return (bom ? QByteArray("\xFF\xFE") : QByteArray()) +
                   QByteArray(reinterpret_cast<const char*>(text.utf16()), text.size() * 2);
        };
        QTest::newRow("validate: UTF-16 scenario with a byte-order mark")
            << "validate"
            << "u16.json" << wide(scenario1, true) << QStringList() << 2
            << "%F: file: the file is UTF-16LE text (byte-order mark FF FE); Tandem reads UTF-8";
        QTest::newRow("plan: UTF-16 model without a byte-order mark")
            << "plan"
            << "u16.json" << wide(deepseek, false) << QStringList{"--devices", "8"} << 2
            << "%F: file: the file is UTF-16LE text (no byte-order mark";
        QTest::newRow("inspect: UTF-16 nccl-tests log")
            << "inspect"
            << "u16.txt"
            << wide(fileBytes(QStringLiteral(
                        TANDEM_TEST_DATA
                        "/nccl/H100-all_reduce-2x8-awsome-distributed-training.txt")),
                    true)
            << QStringList() << 2 << "%F: file: the file is UTF-16LE text";
        QTest::newRow("run: invalid scenario")
            << "run"
            << "run.json" << QByteArray(R"({"mosaic": {"days": -1}})")
            << QStringList{"--out", "out"} << 2 << "%F: $.mosaic.days: must be in (0, 3650]";
        QTest::newRow("inspect: binary") << "inspect"
                                         << "bin.dat" << garbage << QStringList() << 2 << "";
        QTest::newRow("inspect: empty") << "inspect"
                                        << "empty.txt" << QByteArray() << QStringList() << 2 << "";
        QTest::newRow("inspect: config with K > E")
            << "inspect"
            << "config.json"
            << QByteArray(R"({"model_type": "mixtral", "num_hidden_layers": 2, "hidden_size": 64,
                "num_attention_heads": 4, "num_key_value_heads": 4, "intermediate_size": 128,
                "vocab_size": 100, "num_local_experts": 4, "num_experts_per_tok": 5})")
            << QStringList() << 2 << "exceeds the number of routed experts";
        QTest::newRow("plan: K > E")
            << "plan"
            << "model.json" << QByteArray(R"({"q": 8, "experts": 4, "top_k": 8})")
            << QStringList{"--devices", "8"} << 2 << "%F: $.top_k: must be <= experts (4)";
        // Regression: inspect read this as a model config and plan as Tandem's model JSON
        // ("$.layers: is required"); one detector (io::isHfConfig) decides for both.
        QTest::newRow("plan: config without model_type")
            << "plan"
            << "config2.json"
            << QByteArray(
                   R"({"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4})")
            << QStringList{"--devices", "8"} << 2 << "%F: $.model_type: is required";
        QTest::newRow("plan: zero devices")
            << "plan"
            << "model2.json" << QByteArray(R"({"q": 8})") << QStringList{"--devices", "0"} << 2
            << "--devices must be a positive integer";
        QTest::newRow("plan: 10^12 devices")
            << "plan"
            << "model2.json" << QByteArray(R"({"q": 8})")
            << QStringList{"--devices", "1000000000000"} << 2
            << "--devices must be at most 100000000 (got 1000000000000)";
        QTest::newRow("plan: bad layout")
            << "plan"
            << "model3.json" << QByteArray(R"({"q": 8})")
            << QStringList{"--devices", "8", "--layout", "1,1,x"} << 2 << "--layout";
        QTest::newRow("sweep: '~' in the key")
            << "sweep"
            << "sw.json" << QByteArray(R"({"mosaic": {"nodes": 2}})")
            << QStringList{"--vary", "mosaic.~nodes=1,2", "--out", "sweep.csv"} << 2
            << "no key \"mosaic.~nodes\"";
        QTest::newRow("sweep: 1e10-point grid")
            << "sweep"
            << "sw2.json" << QByteArray(R"({"mosaic": {"nodes": 2}})")
            << QStringList{"--vary", "mosaic.nodes=1:100000:100000",
                           "--vary", "mosaic.days=1:2:100000",
                           "--out",  "sweep.csv"}
            << 2 << "more than 1000000 points";
        // 2^53 + 1 on the command line ran as 2^53: refused by the number parser's rule.
        QTest::newRow("sweep: list integer beyond 2^53")
            << "sweep"
            << "sw3.json" << QByteArray(R"({"mosaic": {"nodes": 2}})")
            << QStringList{"--vary", "mosaic.nodes=9007199254740993", "--out", "sweep.csv"} << 2
            << "--vary: mosaic.nodes: list value 1 is an integer beyond 2^53 (9007199254740992), "
               "the largest integer a number keeps exactly: it would be read as a different "
               "number than the one written";
        QTest::newRow("sweep: range end beyond 2^53")
            << "sweep"
            << "sw4.json" << QByteArray(R"({"mosaic": {"nodes": 2}})")
            << QStringList{"--vary", "mosaic.nodes=2:18014398509481985:2", "--out", "sweep.csv"}
            << 2 << "--vary: mosaic.nodes: range end is an integer beyond 2^53";
        QTest::newRow("merge: not a sweep table")
            << "merge"
            << "shard.csv" << QByteArray("a,b\n1,2\n") << QStringList{"--out", "merged.csv"} << 2
            << "not a sweep table";
        // Geometry no model can have, and failed measurements: refused with the field or line.
        QTest::newRow("inspect: KV heads do not divide the heads")
            << "inspect"
            << "gqa.config.json"
            << QByteArray(R"({"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 4,
                "num_attention_heads": 8, "num_key_value_heads": 3, "intermediate_size": 1376, "vocab_size": 32000})")
            << QStringList() << 2
            << "%F: $.num_key_value_heads: must divide num_attention_heads (8)";
        QTest::newRow("plan: d not a multiple of the heads")
            << "plan"
            << "odd.json"
            << QByteArray(R"({"layers": 4, "hidden": 1000, "heads": 3, "ffn_width": 2048})")
            << QStringList{"--devices", "8"} << 2
            << "%F: $.hidden: must be a multiple of heads (3)";
        const QByteArray header =
            "#       size         count      type   redop    root     time   algbw   busbw #wrong  "
            "   time   algbw   busbw #wrong\n";
        const QByteArray row =
            "     1048576        262144     float     sum      -1    123.2    8.51   15.95      0  "
            "  121.3    8.64   16.21      0\n";
        QTest::newRow("inspect: nccl-tests #wrong")
            << "inspect"
            << "all_reduce-wrong.txt"
            << header + QByteArray(row).replace("15.95      0", "15.95     42") +
                   "# Avg bus bandwidth    : 16\n"
            << QStringList() << 2 << "%F: line 2: 42 wrong value(s) in the out-of-place result";
        // The older layout's `error` column (largest deviation) above float's 1e-5 tolerance.
        QTest::newRow("inspect: nccl-tests older layout, error column")
            << "inspect"
            << "all_reduce-old-error.txt"
            << QByteArray(
                   "#       size         count    type   redop     time   algbw   busbw  "
                   "error     time   algbw   busbw  error\n"
                   "     1048576        262144   float     sum    123.2    8.51   15.95  "
                   "2e+00    121.3    8.64   16.21  0e+00\n")
            << QStringList() << 2
            << "%F: line 2: error 2e+00 in the out-of-place result (error column, the largest "
               "deviation) at size 1048576 exceeds 1e-05 allowed for float";
        QTest::newRow("inspect: nccl-tests warnings and an abort")
            << "inspect"
            << "all_reduce-abort.txt"
            << header +
                   "node0:11:12 [0] NCCL WARN NET/IB : Got completion from peer with error 12\n"
                   "mpirun noticed that process rank 3 with PID 0 on node node0 exited on signal 6 "
                   "(Aborted).\n"
            << QStringList() << 2 << "%F: line 3: the run aborted";
        // The kind comes from the content: each of these imports (exit 0).
        QByteArray tagged;
        for (const QByteArray& l : (header + row + "# Avg bus bandwidth    : 16\n").split('\n'))
            if (!l.isEmpty()) tagged += "[1,0]<stdout>:" + l + "\n";
        QTest::newRow("inspect: nccl-tests with --tag-output")
            << "inspect"
            << "tagged.log" << tagged << QStringList() << 0 << "nccl_tests (nccl-tests)";
        QTest::newRow("inspect: config.json with a BOM")
            << "inspect"
            << "config.json"
            << QByteArray(
                   "\xEF\xBB\xBF{\"model_type\": \"llama\", \"hidden_size\": 512, "
                   "\"num_hidden_layers\": 4, "
                   "\"num_attention_heads\": 8, \"intermediate_size\": 1376, \"vocab_size\": "
                   "32000}")
            << QStringList() << 0 << "model_config (hf_config), model_type llama";
        QTest::newRow("inspect: loss log with NCCL INFO lines")
            << "inspect"
            << "train.log"
            << QByteArray(
                   "node0:11:11 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
                   "s:0 trl:10.95\ns:1 trl:9.80\ns:2 trl:9.01\ns:3 trl:8.52\ns:4 trl:8.10\ns:5 "
                   "trl:7.83\n"
                   "node0:11:40 [0] NCCL INFO comm 0x55d5 rank 0 nranks 8 - Init COMPLETE\n"
                   "s:6 trl:7.60\ns:7 trl:7.42\ns:8 trl:7.30\n")
            << QStringList() << 0 << "loss_log (llmc)";
    }

    void badInput() {
        QFETCH(QString, command);
        QFETCH(QString, fileName);
        QFETCH(QByteArray, content);
        QFETCH(QStringList, extra);
        QFETCH(int, exitCode);
        QFETCH(QString, expect);
        QVERIFY(m_dir.isValid());
        const QString path = file(fileName, content);
        for (auto& e : extra)
            if (e == "out" || e.endsWith(".csv")) e = m_dir.filePath(e);
        QStringList args{command};
        if (command == "merge")
            args << extra << path;
        else
            args << path << extra;
        const CliRun r = runCli(args);
        const QString all = r.out + r.err;
        QVERIFY2(!r.crashed, qPrintable(all));
        QCOMPARE(r.exitCode, exitCode);
        QString want = expect;
        want.replace(QStringLiteral("%F"), path);
        QVERIFY2(all.contains(want),
                 qPrintable(QStringLiteral("missing \"%1\" in:\n%2").arg(want, all)));
        // A wide-encoded file is named, never echoed: no NUL of its text reaches the output.
        if (fileName.startsWith(QLatin1String("u16"))) QVERIFY(!all.contains(QChar(0)));
    }

    void inspectNonUtf8KeepsRunning() {
        // Regression (found by this suite): a CSV header with a non-UTF-8 byte made
        // `inspect --json` abort on nlohmann's type_error 316; now the byte prints as U+FFFD.
        QVERIFY(m_dir.isValid());
        const QString path =
            file(QStringLiteral("latin1.csv"),
                 QByteArray("step,loss\xff\n0,10\n1,9\n2,8.5\n3,8.2\n4,8\n5,7.9\n"));
        const CliRun r = runCli({QStringLiteral("inspect"), path, QStringLiteral("--json")});
        QVERIFY2(!r.crashed, qPrintable(r.err));
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::json::parse(r.out.toStdString(), nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j.at("kind").get<std::string>(), std::string("loss_log"));
    }

    void inspectTrainLogs() {
        // A training log cut inside a field: exit 2, the line and the reason on stderr.
        const QString dir = QStringLiteral(TANDEM_TEST_DATA "/trainlogs/");
        const CliRun cut =
            runCli({QStringLiteral("inspect"), dir + QStringLiteral("megatron-llm-2023-cut.log")});
        QVERIFY2(!cut.crashed, qPrintable(cut.err));
        QCOMPARE(cut.exitCode, 2);
        QVERIFY2(cut.err.contains(QStringLiteral("line 5: truncated iteration line")),
                 qPrintable(cut.err));
        // A whole log: exit 0, its skipped iterations as a warning, the prediction in the JSON.
        const CliRun ok = runCli(
            {QStringLiteral("inspect"), dir + QStringLiteral("megatron-lm-2023-gpt345m-4xa800.log"),
             QStringLiteral("--hardware"), QStringLiteral("a100"), QStringLiteral("--json")});
        QVERIFY2(!ok.crashed, qPrintable(ok.err));
        QCOMPARE(ok.exitCode, 0);
        QVERIFY2(ok.err.contains(QStringLiteral("warning: 16 iteration(s) skipped")),
                 qPrintable(ok.err));
        const auto j = nlohmann::json::parse(ok.out.toStdString(), nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j.at("kind").get<std::string>(), std::string("train_log"));
        QCOMPARE(j.at("iteration_time_s").at("median").get<double>(), 0.2909);
        QVERIFY(j.at("prediction").at("feasible").get<bool>());
        QVERIFY(j.at("prediction").at("predicted_over_measured").at("iteration_time").is_number());
        // An unknown --hardware is bad input before the log is read.
        const CliRun bad = runCli({QStringLiteral("inspect"),
                                   dir + QStringLiteral("megatron-lm-2023-gpt345m-4xa800.log"),
                                   QStringLiteral("--hardware"), QStringLiteral("tpu9")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("--hardware")), qPrintable(bad.err));
    }

    void fuzzRegressionsInspect_data() {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(TANDEM_RELIABILITY_DATA "/fuzz-regressions"));
        for (const auto& name : dir.entryList({QStringLiteral("*.txt")}, QDir::Files))
            QTest::newRow(qPrintable(name)) << dir.filePath(name);
    }
    void fuzzRegressionsInspect() {
        // Inputs the fuzzers found (tests/reliability/data/fuzz-regressions): inspect answers
        // with a result (exit 0) or the problems (exit 2), never a crash.
        QFETCH(QString, path);
        for (const auto& flag : {QStringLiteral("--json"), QString()}) {
            QStringList args{QStringLiteral("inspect"), path};
            if (!flag.isEmpty()) args << flag;
            const CliRun r = runCli(args);
            QVERIFY2(!r.crashed, qPrintable(r.err));
            QVERIFY2(r.exitCode == 0 || r.exitCode == 2,
                     qPrintable(QString::number(r.exitCode) + r.err));
        }
    }

    /// plan --megatron-args names a device, a folder or a FIFO as such, in the words of every
    /// other input file (it said only "cannot open '/dev/null' for reading"), exit 2, no hang.
    void megatronArgsNotAFile_data() {
        QTest::addColumn<QString>("what");  // "dev-null", "folder" or "fifo"
        QTest::addColumn<QString>("reason");
        QTest::newRow("/dev/null") << "dev-null"
                                   << "is not a regular file (devices and pipes are not read)";
        QTest::newRow("folder") << "folder"
                                << "is a folder, not a file";
#ifndef _WIN32
        QTest::newRow("fifo") << "fifo"
                              << "is not a regular file (devices and pipes are not read)";
#endif
    }
    void megatronArgsNotAFile() {
        QFETCH(QString, what);
        QFETCH(QString, reason);
        QVERIFY(m_dir.isValid());
        QString path = QStringLiteral("/dev/null");
        if (what == QLatin1String("folder")) path = m_dir.path();
#ifndef _WIN32
        if (what == QLatin1String("fifo")) {
            path = m_dir.filePath(QStringLiteral("launch.fifo"));
            QFile::remove(path);
            QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
        }
#endif
        const CliRun r =
            runCli({QStringLiteral("plan"),
                    QStringLiteral(TANDEM_TEST_DATA "/models/DeepSeek-V2-Lite.config.json"),
                    QStringLiteral("--devices"), QStringLiteral("64"), QStringLiteral("--hardware"),
                    QStringLiteral("h100"), QStringLiteral("--megatron-args"), path});
        QVERIFY2(!r.crashed, qPrintable(r.err));
        QCOMPARE(r.exitCode, 2);
        const QString want =
            QStringLiteral("tandem-cli: --megatron-args: \"%1\" %2").arg(path, reason);
        QVERIFY2(r.err.contains(want),
                 qPrintable(QStringLiteral("missing \"%1\" in:\n%2").arg(want, r.err)));
    }

    void missingAndUnwritableFiles() {
        QVERIFY(m_dir.isValid());
        const CliRun missing =
            runCli({QStringLiteral("validate"), m_dir.filePath(QStringLiteral("nope.json"))});
        QVERIFY(!missing.crashed);
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.out.contains(QStringLiteral("cannot open file for reading")));
        // A valid sweep whose output cannot be written: exit 1 with the reason, no partial file.
        const QString scen =
            file(QStringLiteral("ok.json"), R"({"mosaic": {"nodes": 2, "q_values": [8],
            "top_k_values": [2], "experts_values": [16], "expert_split_values": [4]}})");
        const QString out = m_dir.filePath(QStringLiteral("no-such-dir/sweep.csv"));
        const CliRun r = runCli({QStringLiteral("sweep"), scen, QStringLiteral("--vary"),
                                 QStringLiteral("mosaic.days=1,2"), QStringLiteral("--out"), out});
        QVERIFY(!r.crashed);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("cannot write")), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }
};

TANDEM_TEST_GUILESS_MAIN(TstCliBadFiles)
#include "tst_cli_bad_files.moc"
