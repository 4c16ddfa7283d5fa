// One validation layer for every input: a table of bad inputs across every reader
// (scenario JSON with both sections, hardware objects, plan MODEL.json, Hugging Face configs,
// nccl-tests logs, loss logs, load traces, sweep axes, shards and merges). Each row names the
// exact path the message must carry (JSON path, `line N`, `line N, column "x"`, `file`, or the
// swept key) and the words of the reason. Includes the faults peer tools are known for: seconds
// read as milliseconds, Gb/s read as GB/s, dimensions that disagree (K > E, EP/DP, nodes x GPUs
// per node != devices), efficiencies above 1, targets below the reachable loss.
#include <QtTest>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "io/hf_config.h"
#include "io/load_trace.h"
#include "io/loss_log.h"
#include "io/nccl_tests.h"
#include "mosaic/hardware.h"
#include "mosaic/plan.h"
#include "scenario/scenario.h"
#include "sweep/sweep.h"
#include "test_main.h"

using namespace tandem;

namespace {

/// Runs the reader named by `kind` on `input` and returns its diagnostics.
Diagnostics diagnose(const QString& kind, const std::string& input) {
    Diagnostics d("input");
    if (kind == "scenario") {
        const auto s = parseScenario(input, d);
        if (s && d.ok()) d.error("(accepted)", "the reader accepted this input");
    } else if (kind == "hardware") {
        // A hardware file on its own (resources/hardware/*.json): paths start at "$".
        const auto j = parseJsonText(input, d);
        if (d.ok()) {
            JsonReader r(j, "$", d);
            if (!j.is_object())
                d.error("$", "must be a JSON object");
            else
                (void)mosaic::readHardware(r);
        }
    } else if (kind == "plan") {
        const auto j = parseJsonText(input, d);
        if (d.ok()) {
            JsonReader r(j, "$", d);
            mosaic::Geometry g;
            (void)mosaic::readPlanModel(r, g);
        }
    } else if (kind == "hf") {
        const auto j = parseJsonText(input, d);
        if (d.ok()) (void)io::importModelConfig(j, d);
    } else if (kind == "nccl") {
        (void)io::parseNcclTests(input, "log.txt", d);
    } else if (kind == "loss") {
        (void)io::parseLossLog(input, d);
    } else if (kind == "trace") {
        (void)io::parseLoadTrace(input, d);
    } else if (kind == "axis" || kind == "shard") {
        // String errors start with the swept key ("mosaic.nodes: ..."); split it off as the path.
        std::string err;
        sweep::Axis a;
        sweep::Shard s;
        const bool ok =
            kind == "axis" ? sweep::parseAxis(input, a, err) : sweep::parseShard(input, s, err);
        if (!ok) {
            const auto colon = err.find(": ");
            if (kind == "axis" && colon != std::string::npos &&
                input.rfind(err.substr(0, colon), 0) == 0)
                d.error(err.substr(0, colon), err.substr(colon + 2));
            else
                d.error("", err);
        }
    } else if (kind == "slurm") {
        // input: "ID|MIN|COUNT" (SLURM_ARRAY_TASK_*; "unset" = the variable is not set).
        std::vector<std::string> f(3);
        size_t k = 0;
        for (char c : input) {
            if (c == '|')
                ++k;
            else if (k < 3)
                f[k] += c;
        }
        auto arg = [&f](size_t i) { return f[i] == "unset" ? nullptr : f[i].c_str(); };
        sweep::Shard s;
        std::string err;
        if (!sweep::shardFromSlurm(arg(0), arg(1), arg(2), s, err)) {
            const auto colon = err.find(": ");
            d.error(err.substr(0, colon), colon == std::string::npos ? err : err.substr(colon + 2));
        }
    } else if (kind == "sweep") {
        // input: "AXIS" applied to a small valid MOSAIC scenario; only validation runs (the
        // sweep stops before computing when any point is invalid).
        Scenario s;
        s.mosaic = mosaic::Envelope{};
        s.mosaic->nodes = 2;
        sweep::Axis a;
        std::string err;
        if (!sweep::parseAxis(input, a, err)) {
            d.error("(axis)", err);
        } else {
            const auto t = sweep::run(scenarioToJson(s), {a}, {}, 1, d);
            if (d.ok()) d.error("(accepted)", "the sweep ran");
        }
    } else if (kind == "merge") {
        // Shard files separated by a line holding only "---".
        std::vector<std::string> csvs(1);
        size_t start = 0;
        while (start <= input.size()) {
            const auto nl = input.find('\n', start);
            const std::string line = input.substr(start, nl == std::string::npos ? nl : nl - start);
            if (line == "---")
                csvs.emplace_back();
            else if (!line.empty() || nl != std::string::npos)
                csvs.back() += line + "\n";
            if (nl == std::string::npos) break;
            start = nl + 1;
        }
        std::vector<std::string> names;
        for (size_t i = 0; i < csvs.size(); ++i)
            names.push_back("shard" + std::to_string(i) + ".csv");
        (void)sweep::merge(csvs, names, d);
    } else {
        d.error("(test)", "unknown kind " + kind.toStdString());
    }
    return d;
}

QByteArray ml(const char* body) { return QByteArray("{\"ml_for_ml\": {") + body + "}}"; }
QByteArray moe(const char* body) { return QByteArray("{\"mosaic\": {") + body + "}}"; }

const char* kMixtral =
    R"({"model_type": "mixtral", "num_hidden_layers": 32, "hidden_size": 4096,
        "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
        "vocab_size": 32000, "num_local_experts": 8, "num_experts_per_tok": %K%,
        "tie_word_embeddings": false})";

QByteArray mixtral(const char* k) { return QByteArray(kMixtral).replace("%K%", k); }

const char* kNcclHeader =
    "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20\n"
    "#  Rank  0 Group  0 Pid 1 on node0 device  0 [0x1b] NVIDIA H100 80GB HBM3\n"
    "#  Rank  1 Group  0 Pid 2 on node0 device  1 [0x2b] NVIDIA H100 80GB HBM3\n"
    "#                                                              out-of-place                   "
    "    in-place\n"
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time "
    "  algbw   busbw #wrong\n"
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us) "
    " (GB/s)  (GB/s)\n";

}  // namespace

class TstBadInputs : public QObject {
    Q_OBJECT
private slots:
    void rejected_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QStringList>("words");
        auto row = [](const char* name, const char* kind, const QByteArray& input, const char* path,
                      QStringList words) {
            QTest::newRow(name) << QString(kind) << input << QString(path) << words;
        };

        // Scenario files: syntax and shape.
        row("scenario: truncated JSON", "scenario", "{\"ml_for_ml\": {\n  \"fabric_GBps\": 400,\n",
            "line 3, column 1", {"invalid JSON"});
        row("scenario: array root", "scenario", "[1, 2]", "$", {"must be a JSON object"});
        row("scenario: no section", "scenario", "{\"name\": \"x\"}", "$", {"ml_for_ml", "mosaic"});
        row("scenario: section not an object", "scenario", "{\"ml_for_ml\": 5}", "$.ml_for_ml",
            {"must be an object", "a number"});
        row("scenario: misspelt section", "scenario", "{\"mosiac\": {}}", "$.mosiac",
            {"unknown key", "did you mean \"mosaic\""});
        row("scenario: future version", "scenario",
            "{\"tandem_scenario_version\": 2, \"mosaic\": {}}", "$.tandem_scenario_version",
            {"in [1, 1]", "got 2"});

        // ml_for_ml: types, ranges and units in key names.
        row("ml: negative fabric bandwidth", "scenario", ml("\"fabric_GBps\": -5"),
            "$.ml_for_ml.fabric_GBps", {"must be > 0", "got -5", "carries nothing"});
        row("ml: bandwidth as text", "scenario", ml("\"nic_GBps\": \"100\""),
            "$.ml_for_ml.nic_GBps", {"must be a number", "a string"});
        // Regression (found by this suite): nlohmann's out_of_range for 1e400 escaped
        // parseJsonText and aborted tandem-cli validate.
        row("ml: overflowing number", "scenario", ml("\"fabric_GBps\": 1e400"), "line 1, column 31",
            {"invalid JSON", "number overflow", "1e400"});
        row("ml: seconds key for a milliseconds field", "scenario",
            ml("\"microbatch_compute_s\": 0.0593"), "$.ml_for_ml.microbatch_compute_s",
            {"unknown key", "did you mean \"microbatch_compute_ms\""});
        row("ml: overlap window in seconds", "scenario", ml("\"overlap_window_s\": 0.01"),
            "$.ml_for_ml.overlap_window_s", {"unknown key", "did you mean \"overlap_window_ms\""});
        row("ml: Gbps (bits) for a GBps (bytes) key", "scenario", ml("\"fabric_Gbps\": 3840"),
            "$.ml_for_ml.fabric_Gbps", {"unknown key", "did you mean \"fabric_GBps\""});
        row("ml: background compute in seconds", "scenario",
            ml("\"background_job\": {\"compute_s\": 0.069}"),
            "$.ml_for_ml.background_job.compute_s", {"unknown key", "did you mean \"compute_ms\""});
        row("ml: target below the reachable loss", "scenario",
            ml("\"target_factors\": [1.01, 0.95]"), "$.ml_for_ml.target_factors[1]",
            {"not above the reachable loss", "loss_floor"});
        row("ml: loss floor above l_min", "scenario", ml("\"progress\": {\"loss_floor\": 3}"),
            "$.ml_for_ml.progress.loss_floor", {"must be below l_min"});
        row("ml: misspelt policy", "scenario", ml("\"policies\": [\"Static\", \"Jiont\"]"),
            "$.ml_for_ml.policies[1]", {"unknown policy", "did you mean \"Joint\""});
        row("ml: unknown precision", "scenario", ml("\"precisions\": [\"BF16\", \"FP6\"]"),
            "$.ml_for_ml.precisions[1]", {"must be one of"});
        row("ml: zero accumulation", "scenario", ml("\"gradient_accumulations\": [4, 0]"),
            "$.ml_for_ml.gradient_accumulations[1]", {"in [1, 4096]"});
        row("ml: fractional accumulation", "scenario", ml("\"gradient_accumulations\": [2.5]"),
            "$.ml_for_ml.gradient_accumulations[0]", {"must be an integer"});
        row("ml: trace scenario without a file", "scenario", ml("\"scenario\": \"trace\""),
            "$.ml_for_ml.trace_file", {"required", "trace"});
        row("ml: empty background sweep", "scenario", ml("\"background_jobs\": []"),
            "$.ml_for_ml.background_jobs", {"at least 1"});
        row("ml: congestion efficiency above 1", "scenario", ml("\"cc_efficiency\": 1.5"),
            "$.ml_for_ml.cc_efficiency", {"in (0, 1]"});
        row("ml: background job on zero nodes", "scenario",
            ml("\"background_job\": {\"nodes\": 0}"), "$.ml_for_ml.background_job.nodes",
            {"in [1, 16384]"});
        row("ml: zero horizon", "scenario", ml("\"horizon_s\": 0"), "$.ml_for_ml.horizon_s",
            {"got 0"});
        row("ml: unknown mode", "scenario", ml("\"mode\": \"closed-loop\""), "$.ml_for_ml.mode",
            {"must be one of", "did you mean \"closed_loop\""});

        // mosaic: envelope cross-field checks.
        row("moe: top-K above every E", "scenario",
            moe("\"top_k_values\": [2, 8], \"experts_values\": [4]"), "$.mosaic.top_k_values[1]",
            {"K <= E"});
        row("moe: devices disagree with nodes x GPUs", "scenario",
            moe("\"nodes\": 4, \"devices\": 30"), "$.mosaic.devices",
            {"must equal nodes x gpus_per_node", "4 x 8 = 32", "got 30"});
        row("moe: unknown hardware", "scenario", moe("\"hardware\": \"h1000\""),
            "$.mosaic.hardware", {"unknown hardware", "did you mean \"h100\""});
        row("moe: zero days", "scenario", moe("\"days\": 0"), "$.mosaic.days", {"in (0, 3650]"});
        row("moe: budget 1e300 FLOPs", "scenario", moe("\"compute_budget_flops\": 1e300"),
            "$.mosaic.compute_budget_flops", {"must be in [0, 1e+27]", "got 1e+300"});
        row("moe: ten-year window", "scenario", moe("\"days\": 5000"), "$.mosaic.days",
            {"in (0, 3650]"});
        row("moe: goodput above 1", "scenario", moe("\"goodput\": 1.2"), "$.mosaic.goodput",
            {"in (0, 1]"});
        row("moe: G does not divide d_ff", "scenario", moe("\"expert_split_values\": [3]"),
            "$.mosaic.expert_split_values[0]", {"does not divide d_ff"});
        row("moe: TPP min above max", "scenario", moe("\"tokens_per_parameter_min\": 200"),
            "$.mosaic.tokens_per_parameter_min", {"tokens_per_parameter_max"});
        row("moe: frontier not ascending", "scenario", moe("\"frontier_sparsity\": [0.9, 0.8]"),
            "$.mosaic.frontier_sparsity[1]", {"ascending"});
        row("moe: unknown checkpointing", "scenario", moe("\"checkpointing\": [\"partial\"]"),
            "$.mosaic.checkpointing[0]", {"must be one of"});
        row("moe: misspelt law coefficient", "scenario", moe("\"scaling_law\": {\"alpah\": 0.1}"),
            "$.mosaic.scaling_law.alpah", {"unknown key", "did you mean \"alpha\""});
        row("moe: sparsity 1", "scenario", moe("\"min_sparsity\": 1"), "$.mosaic.min_sparsity",
            {"[0, 1)"});
        row("moe: hardware neither name nor object", "scenario", moe("\"hardware\": 5"),
            "$.mosaic.hardware", {"hardware name or an object"});
        row("moe: custom node disagrees with devices", "scenario",
            moe("\"hardware\": {\"gpus_per_node\": 4}, \"nodes\": 2, \"devices\": 16"),
            "$.mosaic.devices", {"2 x 4 = 8", "got 16"});
        row("moe: hardware GPUs per node 0", "scenario",
            moe("\"hardware\": {\"gpus_per_node\": 0}"), "$.mosaic.hardware.gpus_per_node",
            {"in [1, 1024]"});

        // Hardware files.
        row("hardware: negative memory", "hardware", "{\"memory_usable_GB\": -1}",
            "$.memory_usable_GB", {"in [0.001, 1e+06]", "got -1", "usable memory of one device"});
        row("hardware: NIC in GB/s instead of Gb/s", "hardware", "{\"nic_GBps_per_gpu\": 50}",
            "$.nic_GBps_per_gpu", {"unknown key", "did you mean \"nic_Gbps_per_gpu\""});
        row("hardware: bus efficiency above link", "hardware", "{\"inter_bus_efficiency\": 1.3}",
            "$.inter_bus_efficiency", {"in (0, 1]"});
        row("hardware: NVLink as text", "hardware", "{\"nvlink_GBps\": \"900 GB/s\"}",
            "$.nvlink_GBps", {"must be a number"});
        row("hardware: latency in ms", "hardware", "{\"inter_latency_ms\": 0.035}",
            "$.inter_latency_ms", {"unknown key", "did you mean \"inter_latency_us\""});

        // Plan MODEL.json.
        row("plan: K > E (ladder)", "plan", "{\"q\": 8, \"experts\": 4, \"top_k\": 8}", "$.top_k",
            {"must be <= experts"});
        row("plan: K > E (explicit)", "plan",
            "{\"layers\": 4, \"hidden\": 512, \"heads\": 8, \"experts\": 4, \"top_k\": 6, "
            "\"expert_width\": 256}",
            "$.top_k", {"experts = 4"});
        row("plan: kv heads do not divide heads", "plan",
            "{\"layers\": 4, \"hidden\": 512, \"heads\": 16, \"kv_heads\": 5, \"ffn_width\": 2048}",
            "$.kv_heads", {"must divide heads"});
        row("plan: no layers", "plan", "{\"hidden\": 512, \"heads\": 8, \"ffn_width\": 2048}",
            "$.layers", {"is required"});
        row("plan: MoE without expert width", "plan",
            "{\"layers\": 4, \"hidden\": 512, \"heads\": 8, \"experts\": 8, \"top_k\": 2}",
            "$.expert_width", {"is required"});
        row("plan: more dense layers than layers", "plan",
            "{\"layers\": 4, \"hidden\": 512, \"heads\": 8, \"experts\": 8, \"top_k\": 2, "
            "\"expert_width\": 256, "
            "\"ffn_width\": 2048, \"dense_layers\": 5}",
            "$.dense_layers", {"must be <= layers"});
        row("plan: hidden not a multiple of heads", "plan",
            "{\"layers\": 4, \"hidden\": 1000, \"heads\": 3, \"ffn_width\": 2048}", "$.hidden",
            {"must be a multiple of heads (3)", "1000 / 3 is not an integer"});
        row("plan: layers above the limit", "plan",
            "{\"layers\": 20000, \"hidden\": 512, \"heads\": 8, \"ffn_width\": 2048}", "$.layers",
            {"must be in [1, 10000] (got 20000)"});
        row("plan: G does not divide d_ff", "plan", "{\"q\": 8, \"expert_split_factor\": 3}",
            "$.expert_split_factor", {"must divide d_ff"});
        row("plan: HF key in a plan model", "plan", "{\"q\": 8, \"num_layers\": 32}",
            "$.num_layers", {"unknown key"});

        // Hugging Face configs.
        row("hf: not an object", "hf", "[]", "$", {"must be a JSON object"});
        row("hf: unsupported model type", "hf", "{\"model_type\": \"mixtrall\"}", "$.model_type",
            {"unsupported", "did you mean \"mixtral\""});
        row("hf: K > E", "hf", mixtral("9"), "$.num_experts_per_tok",
            {"exceeds the number of routed experts"});
        row("hf: required field missing", "hf",
            "{\"model_type\": \"mixtral\", \"hidden_size\": 4096}", "$.num_hidden_layers",
            {"is required for model_type \"mixtral\""});
        row("hf: width as text", "hf",
            QByteArray(mixtral("2")).replace("\"hidden_size\": 4096", "\"hidden_size\": \"4096\""),
            "$.hidden_size", {"must be an integer"});
        row("hf: kv heads above heads", "hf",
            QByteArray(mixtral("2"))
                .replace("\"num_key_value_heads\": 8", "\"num_key_value_heads\": 64"),
            "$.num_key_value_heads", {"must be <= num_attention_heads"});

        // Geometry a config states but no model can have (the plan MODEL.json rules).
        row("hf: kv heads do not divide heads", "hf",
            QByteArray(mixtral("2"))
                .replace("\"num_key_value_heads\": 8", "\"num_key_value_heads\": 5"),
            "$.num_key_value_heads", {"must divide num_attention_heads (32)"});
        row("hf: hidden not a multiple of heads", "hf",
            QByteArray(mixtral("2")).replace("\"hidden_size\": 4096", "\"hidden_size\": 4100"),
            "$.hidden_size",
            {"must be a multiple of num_attention_heads (32)", "4100 / 32", "or give head_dim"});
        row("hf: MoE layer listed twice", "hf",
            R"({"model_type": "llama4_text", "hidden_size": 512, "num_hidden_layers": 4, "num_attention_heads": 8,
                "num_key_value_heads": 2, "vocab_size": 1000, "num_local_experts": 4, "intermediate_size": 256,
                "intermediate_size_mlp": 1024, "moe_layers": [1, 3, 3, 3, 3, 3]})",
            "$.moe_layers[2]", {"duplicate value 3"});
        // Regression: 100 leading dense blocks in a 4-block model imported as a dense model.
        row("hf: more leading dense blocks than blocks", "hf",
            R"({"model_type": "deepseek_v3", "hidden_size": 512, "num_hidden_layers": 4, "num_attention_heads": 8,
                "vocab_size": 1000, "kv_lora_rank": 64, "qk_rope_head_dim": 16, "qk_nope_head_dim": 32,
                "v_head_dim": 32, "n_routed_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 128,
                "intermediate_size": 1024, "first_k_dense_replace": 100})",
            "$.first_k_dense_replace", {"100 exceeds num_hidden_layers (4)"});
        row("hf: GPT-2 width not a multiple of heads", "hf",
            R"({"model_type": "gpt2", "n_embd": 1000, "n_layer": 4, "n_head": 3, "vocab_size": 50257})",
            "$.n_embd", {"must be a multiple of n_head (3)"});

        // nccl-tests logs.
        row("nccl: NCCL failure line", "nccl",
            QByteArray(kNcclHeader) +
                "   1048576        262144     float     sum      -1    30.1   34.84   65.32      0 "
                "   29.9   35.07   65.76      0\n"
                "node0: Test NCCL failure common.cu:958 'unhandled system error'\n",
            "line 8", {"NCCL"});
        row("nccl: no data rows", "nccl", kNcclHeader, "file", {"no"});
        row("nccl: malformed row", "nccl",
            QByteArray(kNcclHeader) +
                "   1048576        262144     float     sum      -1    30.1   abc   65.32      0   "
                " 29.9   35.07   65.76      0\n",
            "line 7", {"row"});
        // Failed or corrupt measurements (a corrupted collective, a run that died, a row that
        // cannot be read, a bandwidth that is not a number): refused, never a curve.
        const QByteArray okRow =
            "   1048576        262144     float     sum      -1    30.1   34.84   65.32      0    "
            "29.9   35.07   65.76      0\n";
        const QByteArray summary = "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 65.5\n";
        row("nccl: #wrong out-of-place", "nccl",
            QByteArray(kNcclHeader) + okRow +
                "   2097152        524288     float     sum      -1    40.1   52.30   98.06     12 "
                "   39.9   52.56   98.55      0\n" +
                summary,
            "line 8", {"12 wrong value(s)", "out-of-place", "not a valid measurement"});
        row("nccl: #wrong in-place", "nccl",
            QByteArray(kNcclHeader) + okRow.left(okRow.size() - 2) + "3\n" + summary, "line 7",
            {"3 wrong value(s)", "in-place"});
        row("nccl: NCCL WARN and an abort", "nccl",
            QByteArray(kNcclHeader) +
                "node0:11:12 [0] NCCL WARN Cuda failure 'out of memory'\nnode0:11:12 [0] NCCL WARN "
                "Aborting\n"
                "Aborted (core dumped)\n",
            "line 7", {"NCCL error reported", "out of memory"});
        row("nccl: rows, NCCL WARN, no summary", "nccl",
            QByteArray(kNcclHeader) + okRow +
                "node0:11:12 [0] NCCL WARN NET/IB : Got completion from peer with error 12\n",
            "line 8",
            {"NCCL warning", "without its \"# Avg bus bandwidth\" summary", "stopped early"});
        row("nccl: busbw inf", "nccl",
            QByteArray(kNcclHeader) + QByteArray(okRow).replace("65.32", "  inf") + summary,
            "line 7", {"finite numbers >= 0", "inf"});
        row("nccl: row cut inside the table", "nccl",
            QByteArray(kNcclHeader) + okRow + "   2097152    524288\n" + summary, "line 8",
            {"malformed nccl-tests row", "only 2 columns"});
        // Regression: a whole run's log cut before its summary, or inside a row, gave a curve.
        row("nccl: whole log cut before its summary", "nccl", QByteArray(kNcclHeader) + okRow,
            "line 7",
            {"without nccl-tests' closing \"# Avg bus bandwidth\" line",
             "the output was truncated"});
        row("nccl: whole log cut inside a row", "nccl",
            QByteArray(kNcclHeader) + okRow +
                "   2097152        524288     float     sum      -1    40.1   52.3",
            "line 8", {"the log ends inside this row"});
        // Regression: a 1e23-byte row was skipped without a word.
        row("nccl: size beyond any GPU memory", "nccl",
            QByteArray(kNcclHeader) + okRow +
                "  99999999999999999999999     268435456   float     sum      -1    40.1   52.30   "
                "98.06      0    39.9   52.56   98.55      0\n" +
                summary,
            "line 8", {"exceeds 2^40 B (1 TiB)"});
        row("nccl: mid-table row with a non-numeric count", "nccl",
            QByteArray(kNcclHeader) + QByteArray(okRow).replace("262144", "262k44") + summary,
            "line 7", {"count must be an integer"});

        // Loss logs.
        row("loss: no step column", "loss", "epoch,loss\n0,10\n1,9\n", "line 1",
            {"no step column"});
        row("loss: no loss column", "loss", "step,lr\n0,0.1\n1,0.1\n", "line 1", {"loss"});
        row("loss: text in a loss cell", "loss", "step,loss\n0,10\n1,nine\n",
            "line 3, column \"loss\"", {"number"});
        row("loss: negative step", "loss", "step,loss\n0,10\n-1,9\n", "line 3, column \"step\"",
            {"must be a number >= 0", "-1"});
        row("loss: empty file", "loss", "", "file", {"no"});
        // Nonsense logs that must not be fitted (they were, with exit 0).
        row("loss: steps going backwards", "loss", "step,loss\n100,5\n80,4.5\n60,4\n", "line 3",
            {"step 80 is not after step 100", "line 2"});
        row("loss: every step 0", "loss", "step,loss\n0,5\n0,4.5\n0,4\n", "line 3",
            {"step 0 is not after step 0"});
        row("loss: negative loss", "loss", "step,loss\n0,-5\n10,-6\n", "line 2, column \"loss\"",
            {"must be > 0", "-5"});
        // Regression: a train loss of 1e300 was fitted without a note; losses of 1e-300 fitted a
        // floor of -2.9e-303.
        row("loss: loss beyond any cross-entropy", "loss",
            "s:0 trl:11.0\ns:1 trl:1e300\ns:2 trl:10.5\n", "line 2",
            {"loss must be at most 1000 (got 1e+300)"});
        row("loss: loss below float32 rounding", "loss", "step,loss\n0,5e-300\n1,4e-300\n",
            "line 2, column \"loss\"", {"loss must be at least 1e-20"});
        row("loss: llm.c step repeated", "loss", "s:0 trl:5\ns:10 trl:4\ns:10 trl:3.9\n", "line 3",
            {"step 10 is not after step 10"});

        // Load traces.
        row("trace: unknown header", "trace", "when,amount\n0,1\n", "line 1",
            {"header needs a load column"});
        row("trace: rate without time", "trace", "GBps\n5\n", "line 1", {"needs a time column"});
        row("trace: negative load", "trace", "time_s,bytes_per_s\n0,1e9\n1,-5\n",
            "line 3, column \"bytes_per_s\"", {">= 0"});
        row("trace: time going backwards", "trace", "time_s,GBps\n0,1\n2,1\n1,1\n", "line 4",
            {"increase strictly"});
        row("trace: window without a length", "trace", "bytes\n1e9\n", "line 2", {"window length"});
        // Regression: 1e300 GBps was accepted as an infinite load (inspect printed null).
        row("trace: load overflows after conversion", "trace", "time_s,GBps\n0,1e300\n1,1\n",
            "line 2", {"too large"});
        row("trace: empty", "trace", "# nothing\n", "file", {"no rows"});
        // Regression: one rate row lasted 0 s (inspect: duration 0) while the engine gave it 1 s.
        row("trace: one rate row", "trace", "time_s,GBps\n0,5\n", "file", {"two rows or more"});
        row("trace: end beyond any time", "trace", "time_s,bytes_per_s\n0,1\n1.7e308,1\n", "file",
            {"largest representable time"});

        // Regression: lists that are sets accepted repeated entries (["Joint", "Joint"] gave
        // duplicate rows).
        row("set: policy twice", "scenario", ml(R"("policies": ["Joint", "Static", "Joint"])"),
            "$.ml_for_ml.policies[2]", {"duplicate value \"Joint\""});
        row("set: precision twice", "scenario", ml(R"("precisions": ["BF16", "BF16"])"),
            "$.ml_for_ml.precisions[1]", {"duplicate value \"BF16\""});
        row("set: gradient accumulation twice", "scenario",
            ml(R"("gradient_accumulations": [1, 4, 4])"), "$.ml_for_ml.gradient_accumulations[2]",
            {"duplicate value 4"});
        row("set: background size twice", "scenario", ml(R"("background_jobs": [4, 4])"),
            "$.ml_for_ml.background_jobs[1]", {"duplicate value 4"});
        row("set: target factor twice", "scenario", ml(R"("target_factors": [1.01, 1.01])"),
            "$.ml_for_ml.target_factors[1]", {"duplicate value 1.01"});
        row("set: q twice", "scenario", moe(R"("q_values": [8, 10, 8])"), "$.mosaic.q_values[2]",
            {"duplicate value 8"});
        row("set: experts twice", "scenario", moe(R"("experts_values": [8, 16, 8])"),
            "$.mosaic.experts_values[2]", {"duplicate value 8"});
        row("set: top-K twice", "scenario", moe(R"("top_k_values": [1, 1])"),
            "$.mosaic.top_k_values[1]", {"duplicate value 1"});
        row("set: TP twice", "scenario", moe(R"("tensor_parallel_values": [1, 2, 2])"),
            "$.mosaic.tensor_parallel_values[2]", {"duplicate value 2"});
        row("set: checkpointing twice", "scenario", moe(R"("checkpointing": ["full", "full"])"),
            "$.mosaic.checkpointing[1]", {"duplicate value \"full\""});
        // Regression: scaling_law.eta had no range (a negative G exponent makes finer experts
        // raise the loss, against Sec. 4.2).
        row("law: eta negative", "scenario", moe(R"("scaling_law": {"eta": -0.5})"),
            "$.mosaic.scaling_law.eta", {"in (0, 4]"});
        row("law: eta huge", "scenario", moe(R"("scaling_law": {"eta": 50})"),
            "$.mosaic.scaling_law.eta", {"in (0, 4]"});
        // Regression: "hardware": {} silently became p6-b200.
        row("hardware: empty object", "scenario", moe(R"("hardware": {})"), "$.mosaic.hardware",
            {"empty object", "name a built-in", "p6-b200"});
        // Regression: values that validated but ran for minutes without output.
        row("limit: background_jobs entries", "scenario",
            ml(("\"background_jobs\": [" + QByteArray("4,").repeated(70) + "4]").constData()),
            "$.ml_for_ml.background_jobs", {"71 entries", "at most 64"});
        row("limit: foreground_nodes", "scenario", ml(R"("foreground_nodes": 100000)"),
            "$.ml_for_ml.foreground_nodes", {"in [1, 16384]"});
        row("limit: background job nodes", "scenario", ml(R"("background_job": {"nodes": 20000})"),
            "$.ml_for_ml.background_job.nodes", {"in [1, 16384]"});
        row("limit: sync_bursts", "scenario", ml(R"("background_job": {"sync_bursts": 10000})"),
            "$.ml_for_ml.background_job.sync_bursts", {"in [1, 1024]"});
        row("limit: replays per point", "scenario",
            ml(R"("replay_iterations": 1000, "start_offsets": 64)"),
            "$.ml_for_ml.replay_iterations", {"1000 x 64", "at most 4096"});
        row("limit: target_factors entries", "scenario",
            ml(("\"target_factors\": [" + QByteArray("1.01,").repeated(16) + "1.02]").constData()),
            "$.ml_for_ml.target_factors", {"17 entries", "at most 16"});
        row("limit: policies entries", "scenario",
            ml(("\"policies\": [" + QByteArray("\"Joint\",").repeated(70) + "\"Static\"]")
                   .constData()),
            "$.ml_for_ml.policies", {"71 entries", "at most 64"});
        // Regression: each of these validated and then ran for minutes (the recording was
        // simulated up to the last offset's start; time stopped advancing at 1e300 s).
        row("limit: offset spacing 1e300 s", "scenario", ml(R"("offset_spacing_s": 1e300)"),
            "$.ml_for_ml.offset_spacing_s",
            {"must be at most 600 s", "got 1e+300", "physical bound"});
        row("limit: record warm-up 1e7 s", "scenario", ml(R"("record_warmup_s": 1e7)"),
            "$.ml_for_ml.record_warmup_s",
            {"must be at most 600 s", "got 1e+07", "physical bound"});
        row("limit: last replay starts after 600 s", "scenario",
            ml(R"("record_warmup_s": 300, "start_offsets": 64, "offset_spacing_s": 5)"),
            "$.ml_for_ml.offset_spacing_s", {"= 615 s", "at most 600 s", "bound on the work"});
        row("limit: fabric 1e12 GB/s", "scenario", ml(R"("fabric_GBps": 1e12)"),
            "$.ml_for_ml.fabric_GBps", {"must be at most 1e+09 GB/s", "got 1e+12"});
        row("limit: NIC 1e300 GB/s", "scenario", ml(R"("nic_GBps": 1e300)"), "$.ml_for_ml.nic_GBps",
            {"must be at most 1e+09 GB/s", "got 1e+300"});
        // Regression: each of these validated and ran to "no optimizer update finished".
        struct Bound {
            const char* name;
            const char* body;
            const char* key;
            const char* limit;
        };
        const Bound bounds[] = {
            {"NIC 1e-300 GB/s", R"("nic_GBps": 1e-300)", "nic_GBps", "at least 0.001 GB/s"},
            {"fabric 1e-300 GB/s", R"("fabric_GBps": 1e-300)", "fabric_GBps",
             "at least 0.001 GB/s"},
            {"microbatch compute 1e300 ms", R"("microbatch_compute_ms": 1e300)",
             "microbatch_compute_ms", "at most 3.6e+06 ms"},
            {"microbatch compute 1e-300 ms", R"("microbatch_compute_ms": 1e-300)",
             "microbatch_compute_ms", "at least 0.001 ms"},
            {"foreground parameters 1e300", R"("foreground_parameters": 1e300)",
             "foreground_parameters", "at most 1e+13"},
            {"foreground parameters 1e-300", R"("foreground_parameters": 1e-300)",
             "foreground_parameters", "at least 1"},
            {"microbatch sequences 1e300", R"("microbatch_sequences": 1e300)",
             "microbatch_sequences", "at most 100000"},
            {"background compute 1e300 ms", R"("background_job": {"compute_ms": 1e300})",
             "background_job.compute_ms", "at most 3.6e+06 ms"},
            {"background gradient 1e7 GB", R"("background_job": {"gradient_GB": 1e7})",
             "background_job.gradient_GB", "at most 100000 GB"},
            {"burst gap 1e300 ms", R"("background_job": {"burst_gap_ms": 1e300})",
             "background_job.burst_gap_ms", "at most 3.6e+06 ms"},
            {"overlap window 1e300 ms", R"("overlap_window_ms": 1e300)", "overlap_window_ms",
             "at most 3.6e+06 ms"},
            {"cc drop 1e300", R"("cc_efficiency_drop_per_flow": 1e300)",
             "cc_efficiency_drop_per_flow", "at most 10"},
            {"arrival rate 1e300", R"("arrival_rate_per_s": 1e300)", "arrival_rate_per_s",
             "at most 1000 /s"},
            {"job duration 1e300 s", R"("background_job_duration_s": 1e300)",
             "background_job_duration_s", "at most 1e+09 s"},
            {"decision interval 1e300 s",
             R"("decision_interval_s": 1e300, "sample_period_s": 1e300)", "decision_interval_s",
             "at most 1e+09 s"},
            {"history window 1e300 s", R"("history_window_s": 1e300)", "history_window_s",
             "at most 1e+09 s"},
            {"decision interval 1e-300 s", R"("decision_interval_s": 1e-300)",
             "decision_interval_s", "at least 0.001 s"},
            {"history window 1e-300 s", R"("history_window_s": 1e-300)", "history_window_s",
             "at least 0.001 s"},
            {"horizon 1e-300 s", R"("horizon_s": 1e-300)", "horizon_s", "at least 0.001 s"},
            {"telemetry delay 1e300 s", R"("telemetry_delay_s": 1e300)", "telemetry_delay_s",
             "at most 1e+09 s"},
            {"target factor 1e300", R"("target_factors": [1e300])", "target_factors[0]",
             "at most 10"},
            {"kappa 1e300", R"("progress": {"kappa_mxfp4": 1e300})", "progress.kappa_mxfp4",
             "at most 1000"},
            {"omega 1e300", R"("progress": {"omega_fp8": 1e300})", "progress.omega_fp8",
             "at most 1000"},
            {"critical batch 1e300", R"("progress": {"critical_batch_sequences": 1e300})",
             "progress.critical_batch_sequences", "at most 1e+09 sequences"},
            {"l_min 1e300", R"("progress": {"l_min": 1e300})", "progress.l_min",
             "at most 100 nats"},
            {"loss offset 1e300", R"("progress": {"loss_offset": 1e300})", "progress.loss_offset",
             "at most 1e+09"},
        };
        for (const auto& b : bounds) {
            const QByteArray name = QByteArray("limit: ") + b.name;
            const QByteArray path = QByteArray("$.ml_for_ml.") + b.key;
            row(name.constData(), "scenario", ml(b.body), path.constData(),
                {QString("must be ") + b.limit, "(got ", "physical bound"});
        }
        // Regression: a trace with a scenario that does not replay it was ignored (results
        // identical to no trace, whatever the file held).
        row("ml: trace file with scenario sweep", "scenario",
            ml(R"("scenario": "sweep", "trace_file": "missing.csv")"), "$.ml_for_ml.trace_file",
            {"only used when scenario is \"trace\"", "(scenario is \"sweep\")"});
        row("ml: trace file with scenario poisson", "scenario",
            ml(R"("scenario": "poisson", "trace_file": "/dev/zero")"), "$.ml_for_ml.trace_file",
            {"only used when scenario is \"trace\"", "(scenario is \"poisson\")"});
        row("ml: trace file with the default scenario", "scenario", ml(R"("trace_file": "t.csv")"),
            "$.ml_for_ml.trace_file",
            {"only used when scenario is \"trace\"", "(scenario is \"sweep\")"});
        // Regression: arrivals beyond the first million were dropped silently (no background
        // after them), and drawing them took minutes.
        row("limit: Poisson arrivals", "scenario",
            ml(R"("scenario": "poisson", "arrival_rate_per_s": 1)"),
            "$.ml_for_ml.arrival_rate_per_s",
            {"400000 expected arrivals", "at most 100000", "bound on the work"});
        row("limit: network phases per decision", "scenario", ml(R"("sample_period_s": 0.001)"),
            "$.ml_for_ml.sample_period_s", {"60000 network phases", "at most 10000"});
        row("limit: expert count", "scenario", moe(R"("experts_values": [8, 8192])"),
            "$.mosaic.experts_values[1]", {"in [1, 4096]"});
        row("limit: expert values entries", "scenario",
            moe(("\"experts_values\": [" + QByteArray("8,").repeated(64) + "8]").constData()),
            "$.mosaic.experts_values", {"65 entries", "at most 64"});
        row("limit: EP degree", "scenario", moe(R"("expert_parallel_values": [65536])"),
            "$.mosaic.expert_parallel_values[0]", {"in [1, 4096]"});

        // Sweep axes, shards, runs and merges.
        row("axis: no equals sign", "axis", "mosaic.nodes", "", {"expected PATH=VALUES"});
        row("axis: range without count", "axis", "mosaic.nodes=1:4", "mosaic.nodes", {"lo:hi:n"});
        row("axis: one-point range", "axis", "mosaic.nodes=1:4:1", "mosaic.nodes", {"2 <= n"});
        row("axis: empty list item", "axis", "mosaic.nodes=1,,3", "mosaic.nodes", {"empty value"});
        // Regression: nan, inf and 1e400 reached the scenario as strings ("must be a number (got
        // a string)").
        row("axis: nan", "axis", "mosaic.days=nan", "mosaic.days", {"nan must be a finite number"});
        row("axis: inf", "axis", "mosaic.days=5,-inf", "mosaic.days",
            {"-inf must be a finite number"});
        row("axis: overflow", "axis", "mosaic.days=1e400", "mosaic.days",
            {"1e400 must be a finite number"});
        row("axis: infinite range end", "axis", "mosaic.days=1:inf:3", "mosaic.days",
            {"finite numbers"});
        row("shard: index equals count", "shard", "2/2", "", {"0 <= i < n"});
        // Regression: SLURM_ARRAY_TASK_ID=abc (toInt() gave 0) ran shard 0/3 and exited 0.
        row("slurm: task id not a number", "slurm", "abc|unset|3", "SLURM_ARRAY_TASK_ID=\"abc\"",
            {"non-negative integer"});
        row("slurm: negative task id", "slurm", "-1|unset|3", "SLURM_ARRAY_TASK_ID=\"-1\"",
            {"non-negative integer"});
        row("slurm: trailing junk", "slurm", "1x|unset|3", "SLURM_ARRAY_TASK_ID=\"1x\"",
            {"non-negative integer"});
        row("slurm: task id >= count", "slurm", "3|unset|3", "SLURM_ARRAY_TASK_ID=3",
            {"< SLURM_ARRAY_TASK_COUNT=3"});
        row("slurm: task id below the minimum", "slurm", "0|1|3", "SLURM_ARRAY_TASK_ID=0",
            {">= 0"});
        row("slurm: count zero", "slurm", "0|unset|0", "SLURM_ARRAY_TASK_COUNT=0",
            {"between 1 and"});
        row("slurm: count junk", "slurm", "0|unset|3 ", "SLURM_ARRAY_TASK_COUNT=\"3 \"",
            {"non-negative integer"});
        row("slurm: count unset", "slurm", "0|unset|unset",
            "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (both are needed to pick "
            "a shard; or give --shard i/n)",
            {"SLURM_ARRAY_TASK_COUNT is not"});
        row("slurm: min junk", "slurm", "1|a|3", "SLURM_ARRAY_TASK_MIN=\"a\"",
            {"non-negative integer"});
        row("sweep: unknown key", "sweep", "mosaic.node=2,4", "mosaic.node",
            {"no key \"mosaic.node\""});
        row("sweep: value invalid at a point", "sweep", "mosaic.nodes=2,0",
            "point 1 (mosaic.nodes=0) $.mosaic.nodes", {"in [1, 100000]"});
        // Regression (found by this suite): '~' made nlohmann::json_pointer throw out of
        // sweep::run and aborted tandem-cli sweep.
        row("sweep: pointer syntax in the key", "sweep", "mosaic.~nodes=2", "mosaic.~nodes",
            {"no key"});
        row("sweep: slash in the key", "sweep", "mosaic/nodes=2", "mosaic/nodes", {"no key"});
        row("merge: header differs", "merge", "point,a\n0,1\n---\npoint,b\n1,2\n",
            "shard1.csv: line 1", {"header differs"});
        row("merge: point missing", "merge", "point,a\n0,1\n---\npoint,a\n2,2\n", "inputs",
            {"point 1 is missing"});
        row("merge: point twice", "merge", "point,a\n0,1\n---\npoint,a\n0,1\n",
            "shard1.csv: line 2", {"more than one shard"});
        row("merge: unterminated quote", "merge", "point,a\n0,\"x\n", "shard0.csv: line 3",
            {"unterminated"});
        // Regression (fuzz_sweep_merge): strtol took "\0\0 0", " 1", "+1" and "01" as points,
        // so a merged table could carry a NUL-prefixed point cell.
        row("merge: NUL in the point column", "merge", QByteArray("point,a\n\0\x30,1\n", 13),
            "shard0.csv: line 2", {"point must be a non-negative integer"});
        // Regression: nan and inf cells passed into the merged table ("wrote ... 2 point(s)").
        row("merge: nan value", "merge", "point,a,b\n0,8,nan\n", "shard0.csv: line 2, column \"b\"",
            {"must be a finite number (got \"nan\")"});
        row("merge: inf value in the second shard", "merge", "point,a\n0,1\n---\npoint,a\n1,-inf\n",
            "shard1.csv: line 2, column \"a\"", {"must be a finite number (got \"-inf\")"});
        row("merge: value overflowing a double", "merge", "point,a\n0,1e999\n",
            "shard0.csv: line 2, column \"a\"", {"finite number"});
        row("merge: point with a sign", "merge", "point,a\n+0,1\n", "shard0.csv: line 2",
            {"non-negative integer"});
        row("merge: point with a leading zero", "merge", "point,a\n00,1\n", "shard0.csv: line 2",
            {"non-negative integer"});
        row("merge: not a sweep table", "merge", "a,b\n0,1\n", "shard0.csv: line 1",
            {"first column"});
    }

    void rejected() {
        QFETCH(QString, kind);
        QFETCH(QByteArray, input);
        QFETCH(QString, path);
        QFETCH(QStringList, words);
        const Diagnostics d = diagnose(kind, input.toStdString());
        QVERIFY2(!d.ok(), "input was accepted");
        bool found = false;
        for (const auto& issue : d.items()) {
            if (QString::fromStdString(issue.path) != path) continue;
            bool all = true;
            for (const auto& w : words)
                all = all && QString::fromStdString(issue.message).contains(w);
            found = found || all;
        }
        QVERIFY2(found, qPrintable(QStringLiteral("expected %1: %2\ngot:\n%3")
                                       .arg(path, words.join(QStringLiteral(" ... ")),
                                            QString::fromStdString(d.str()))));
    }

    void hugeGridRefused() {
        // Regression (found by this suite): two 100000-value axes made sweep::run enumerate 1e10
        // points before validating anything (tens of GB, minutes); now refused up front.
        sweep::Axis a, b;
        std::string err;
        QVERIFY(sweep::parseAxis("mosaic.nodes=1:100000:100000", a, err));
        QVERIFY(sweep::parseAxis("mosaic.days=1:2:100000", b, err));
        Scenario s;
        s.mosaic = mosaic::Envelope{};
        Diagnostics d;
        const auto t = sweep::run(scenarioToJson(s), {a, b}, {}, 1, d);
        QVERIFY(t.rows.empty());
        QCOMPARE(d.items().size(), size_t(1));
        QCOMPARE(QString::fromStdString(d.items()[0].path), QStringLiteral("mosaic.days"));
        QVERIFY(QString::fromStdString(d.items()[0].message).contains("more than 1000000 points"));
    }

    void slurmTaskGivesTheShard() {
        sweep::Shard s;
        std::string err;
        QVERIFY2(sweep::shardFromSlurm("5", "4", "3", s, err), err.c_str());
        QCOMPARE(s.index, 1);
        QCOMPARE(s.count, 3);
        QVERIFY2(sweep::shardFromSlurm("2", nullptr, "3", s, err), err.c_str());
        QCOMPARE(s.index, 2);
    }

    void limitsCoverThePapersPlans() {
        // The largest documented settings stay valid: scenario 2's 300 x 4 replays, 64 entries
        // in every capped list, 16 targets, 16384 nodes, 1024 bursts, 4096 experts.
        std::string bg = "[", pol = "[\"Static\"", tf = "[";
        for (int i = 0; i < 64; ++i) bg += (i ? "," : "") + std::to_string(i);
        for (int i = 0; i < 16; ++i) tf += (i ? "," : "") + formatNumber(1.001 + 0.001 * i);
        const std::string text =
            R"({"ml_for_ml": {"background_jobs": )" + bg + R"(], "target_factors": )" + tf +
            R"(], "replay_iterations": 300, "start_offsets": 4, "foreground_nodes": 16384,
            "background_job": {"nodes": 16384, "sync_bursts": 1024}, "policies": )" +
            pol +
            R"(]}, "mosaic": {"experts_values": [8, 4096], "expert_parallel_values": [1, 4096],
            "hardware": {"name": "h100"}, "scaling_law": {"eta": 4}}})";
        Diagnostics d;
        QVERIFY2(parseScenario(text, d), d.str().c_str());
    }

    void subnormalHardwareValueSaves() {
        // Regression: a subnormal hardware value (1e-310 ms) made writeHardware's std::stod throw
        // out_of_range, aborting tandem-cli run (scenario.json) and the GUI's save.
        Diagnostics d;
        const auto s = parseScenario(
            R"({"mosaic": {"hardware": {"name": "p6-b200", "host_per_moe_layer_ms": 1e-310}, "nodes": 1}})",
            d);
        QVERIFY2(s, d.str().c_str());
        const std::string saved = scenarioToJson(*s);
        Diagnostics again;
        const auto s2 = parseScenario(saved, again);
        QVERIFY2(s2, again.str().c_str());
        QCOMPARE(scenarioToJson(*s2), saved);
    }

    void everyRowHasAFileLabel() {
        // Messages carry the file name they were given (Issue::str() = "file: path: reason").
        Diagnostics d("my-scenario.json");
        (void)parseScenario(ml("\"fabric_GBps\": -5").toStdString(), d);
        QVERIFY(!d.ok());
        QCOMPARE(QString::fromStdString(d.items().front().str()),
                 QStringLiteral(
                     "my-scenario.json: $.ml_for_ml.fabric_GBps: must be > 0 (got -5): a link "
                     "of capacity 0 or less carries nothing: no gradient synchronisation "
                     "could finish and every policy would report not reached"));
    }

    void allProblemsReportedAtOnce() {
        // A file with three independent problems lists all three, not only the first.
        Diagnostics d;
        (void)parseScenario(
            R"({"ml_for_ml": {"fabric_GBps": -1, "nic_GBps": "x"}, "mosaic": {"days": 0}})", d);
        QCOMPARE(d.items().size(), size_t(3));
    }
};

TANDEM_TEST_APPLESS_MAIN(TstBadInputs)
#include "tst_bad_inputs.moc"
