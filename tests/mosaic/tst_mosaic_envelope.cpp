// Envelope JSON: defaults (Table 3), round trip, error paths, examples, hardware files.
#include <QtTest>
#include <cmath>
#include <fstream>
#include <sstream>

#include "common/json_reader.h"
#include "mosaic/envelope.h"
#include "mosaic/hardware.h"
#include "mosaic/measured_collectives.h"
#include "mosaic/plan.h"
#include "mosaic_fixtures.h"
#include "scenario/scenario.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::mosaic;

namespace {
std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
// Reads {"mosaic": obj} and returns the diagnostics text.
std::string readErrors(const std::string& mosaicJson, Envelope* out = nullptr) {
    Diagnostics d;
    const auto j = nlohmann::json::parse(mosaicJson);
    JsonReader r(j, "$.mosaic", d);
    Envelope e;
    readEnvelope(r, e);
    if (out) *out = e;
    return d.str();
}
}  // namespace

class TestMosaicEnvelope : public QObject {
    Q_OBJECT
private slots:
    void defaultsAreTable3();
    void roundTrip();
    void errors_data();
    void errors();
    void hardwareOverride();
    void examplesParseAndAreCanonical_data();
    void examplesParseAndAreCanonical();
    void hardwareFilesMatchBuiltins();
    void builtinTable();
    void hardwareKeyUnits_data();
    void hardwareKeyUnits();
    void planModelReader();
    void backgroundOrIdleDefault();
    void keysSeparateWhatResultsRead();
};

/// searchKey changes with every field, costingKey only with what the costing reads; both tell
/// measured curves apart by identity and hold them, so a freed set's address is never reused
/// while a cache entry keyed on it lives.
void TestMosaicEnvelope::keysSeparateWhatResultsRead() {
    const Envelope e;
    Envelope days = e;
    days.days = e.days * 2;
    QVERIFY(searchKey(days) != searchKey(e));
    QVERIFY(costingKey(days) == costingKey(e));
    Envelope nodes = e;
    nodes.nodes = e.nodes * 2;
    QVERIFY(costingKey(nodes) != costingKey(e));
    Envelope measured = e;
    measured.hardware.measured = std::make_shared<MeasuredCollectives>();
    const EnvelopeKey held = searchKey(measured);
    QVERIFY(held != searchKey(e));
    QCOMPARE(held.inputs, searchKey(e).inputs);  // the curves, not the written keys, differ
    const MeasuredCollectives* address = measured.hardware.measured.get();
    measured.hardware.measured.reset();
    QCOMPARE(held.curves.get(), address);  // still alive: no new set can take this address
    Envelope other = e;
    other.hardware.measured = std::make_shared<MeasuredCollectives>();
    QVERIFY(searchKey(other) != held);
}

void TestMosaicEnvelope::defaultsAreTable3() {
    const Envelope e;
    QCOMPARE(e.devices(), 256);
    QCOMPARE(e.hardware.name, std::string("p6-b200"));
    QVERIFY(std::abs(e.peakBudgetFlops() / 9.95e23 - 1) < 0.001);  // Table 3's C_peak
    QVERIFY(std::abs(e.modelBudgetFlops() / 1.23e23 - 1) < 0.01);  // Table 4 realizes 1.23e23
    QCOMPARE(e.qValues.size(), size_t(6));
    QCOMPARE(e.expertValues.size(), size_t(13));
    QCOMPARE(e.checkpointing.size(), size_t(4));
}

void TestMosaicEnvelope::roundTrip() {
    Envelope e;
    e.nodes = 4;
    e.days = 5.5;
    e.computeBudgetFlops = 3.3e21;
    e.hardware.memoryBytes = 150e9;  // not a built-in any more: written as an object
    e.checkpointing = {Checkpointing::Full};
    const auto j1 = writeEnvelope(e);
    QVERIFY(j1["hardware"].is_object());
    Diagnostics d;
    const Envelope back = test::envelopeRoundTrip(e, d);
    QVERIFY2(d.ok(), d.str().c_str());
    QCOMPARE(writeEnvelope(back).dump(2), j1.dump(2));
    QCOMPARE(back.hardware.memoryBytes, 150e9);
    QCOMPARE(back.nodes, 4);
    // A whole scenario saves and re-parses byte for byte.
    Scenario s;
    s.name = "x";
    s.mosaic = e;
    const std::string text = scenarioToJson(s);
    Diagnostics d2;
    const auto s2 = parseScenario(text, d2);
    QVERIFY2(s2.has_value(), d2.str().c_str());
    QCOMPARE(scenarioToJson(*s2), text);
}

void TestMosaicEnvelope::errors_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("expect");
    QTest::newRow("negative days") << R"({"days": -1})"
                                   << "$.mosaic.days: must be in (0, 3650]";
    QTest::newRow("nodes not integer") << R"({"nodes": 2.5})"
                                       << "$.mosaic.nodes: must be an integer";
    QTest::newRow("devices mismatch")
        << R"({"nodes": 4, "devices": 30})"
        << "$.mosaic.devices: must equal nodes x gpus_per_node = 4 x 8 = 32";
    QTest::newRow("K above every E")
        << R"({"experts_values": [4, 8], "top_k_values": [2, 16]})"
        << "$.mosaic.top_k_values[1]: top-K 16 exceeds every expert count";
    QTest::newRow("unknown hardware") << R"({"hardware": "p6-b20"})"
                                      << "did you mean \"p6-b200\"";
    QTest::newRow("typo key") << R"({"dayz": 3})"
                              << "$.mosaic.dayz: unknown key; did you mean \"days\"?";
    QTest::newRow("bad ckpt") << R"({"checkpointing": ["ful"]})"
                              << "$.mosaic.checkpointing[0]: must be one of";
    QTest::newRow("tpp order")
        << R"({"tokens_per_parameter_min": 200})"
        << "$.mosaic.tokens_per_parameter_min: must be <= tokens_per_parameter_max";
    QTest::newRow("frontier order") << R"({"frontier_sparsity": [0.9, 0.8]})"
                                    << "$.mosaic.frontier_sparsity[1]: must be strictly ascending";
    QTest::newRow("G divides d_ff") << R"({"expert_split_values": [3]})"
                                    << "$.mosaic.expert_split_values[0]: G = 3 does not divide";
    QTest::newRow("hardware field")
        << R"({"hardware": {"name": "h100", "memory_usable_GB": -5}})"
        << "$.mosaic.hardware.memory_usable_GB: must be in [0.001, 1e+06] (got -5)";
    QTest::newRow("law") << R"({"scaling_law": {"beta": 0}})"
                         << "$.mosaic.scaling_law.beta: must be > 0";
    QTest::newRow("usable above capacity")
        << R"({"hardware": {"name": "h100", "memory_usable_GB": 640, "memory_capacity_GB": 80}})"
        << "$.mosaic.hardware.memory_usable_GB: memory_usable_GB (640 GB) must not exceed "
           "memory_capacity_GB (80 GB)";
    QTest::newRow("usable above the base sheet's capacity")
        << R"({"hardware": {"name": "h100", "memory_usable_GB": 640}})"
        << "$.mosaic.hardware.memory_usable_GB: memory_usable_GB (640 GB) must not exceed "
           "memory_capacity_GB (80 GB, the value of h100; state it too)";
    QTest::newRow("alias typo") << R"({"hardware": "dgx-h10"})"
                                << "did you mean \"dgx-h100\"";
}

void TestMosaicEnvelope::errors() {
    QFETCH(QString, json);
    QFETCH(QString, expect);
    const std::string err = readErrors(json.toStdString());
    QVERIFY2(err.find(expect.toStdString()) != std::string::npos, err.c_str());
}

void TestMosaicEnvelope::hardwareOverride() {
    Envelope e;
    QVERIFY(readErrors(R"({"hardware": "h100", "nodes": 2})", &e).empty());
    QCOMPARE(e.hardware.peakFlops, 989e12);
    QCOMPARE(e.devices(), 16);
    QVERIFY(readErrors(
                R"({"hardware": {"name": "gb200-nvl72", "nic_Gbps_per_gpu": 800}, "nodes": 1})", &e)
                .empty());
    QCOMPARE(e.hardware.gpusPerNode, 72);
    QCOMPARE(e.hardware.nicBytesPerS, 100e9);  // 800 Gb/s = 100 GB/s
}

void TestMosaicEnvelope::examplesParseAndAreCanonical_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("table3") << "mosaic-table3.json";
    QTest::newRow("fig1") << "mosaic-fig1.json";
}

void TestMosaicEnvelope::examplesParseAndAreCanonical() {
    QFETCH(QString, file);
    const std::string text = slurp(std::string(TANDEM_EXAMPLES) + "/" + file.toStdString());
    Diagnostics d;
    const auto s = parseScenario(text, d);
    QVERIFY2(s.has_value(), d.str().c_str());
    QVERIFY(s->mosaic.has_value());
    QVERIFY(!s->name.empty() && !s->description.empty());
    QCOMPARE(scenarioToJson(*s), text);
}

void TestMosaicEnvelope::hardwareFilesMatchBuiltins() {
    for (const auto& name : hardwareNames()) {
        const std::string text = slurp(std::string(TANDEM_HARDWARE_DIR) + "/" + name + ".json");
        Diagnostics d;
        const auto j = parseJsonText(text, d);
        QVERIFY2(d.ok(), d.str().c_str());
        JsonReader r(j, "$", d);
        const Hardware h = readHardware(r);
        QVERIFY2(d.ok(), d.str().c_str());
        QVERIFY(!h.sources.empty());
        QCOMPARE(writeHardware(h).dump(), writeHardware(builtinHardware(name)).dump());
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, builtinHardware("tpu"));
}

/// The built-in table: names in order, p6-b200 = hardware.h's defaults, the sheet values of
/// the other nodes (datasheets: H100/H200/A100/GB200 product pages; A100 4 x 100 Gb/s EFA for 8
/// GPUs = 6.25 GB/s each), and an unknown name read on top of the p6-b200 values.
void TestMosaicEnvelope::builtinTable() {
    QCOMPARE(hardwareNames(), (std::vector<std::string>{
                                  "p6-b200", "dgx-b200", "dgx-b300", "gb200-nvl72", "gb300-nvl72",
                                  "h100", "h200", "a100", "dgx-a100", "p5-efa", "a3-mega"}));
    Hardware defaults;
    defaults.sources = builtinHardware("p6-b200").sources;
    QCOMPARE(writeHardware(defaults).dump(), writeHardware(builtinHardware("p6-b200")).dump());

    const Hardware h100 = builtinHardware("h100"), h200 = builtinHardware("h200");
    QCOMPARE(h100.peakFlops, 989e12);
    QCOMPARE(h100.intraBusEfficiency, 1.0);
    QCOMPARE(h100.rampHalfBytes, 20e6);
    QCOMPARE(h200.memoryBytes, 135e9);
    QCOMPARE(h200.hbmBytesPerS, 4.8e12);
    Hardware h200AsH100 = h200;  // everything else is the H100 node's
    h200AsH100.name = h100.name;
    h200AsH100.description = h100.description;
    h200AsH100.sources = h100.sources;
    h200AsH100.memoryBytes = h100.memoryBytes;
    h200AsH100.memoryCapacityBytes = h100.memoryCapacityBytes;
    h200AsH100.hbmBytesPerS = h100.hbmBytesPerS;
    QCOMPARE(writeHardware(h200AsH100).dump(), writeHardware(h100).dump());

    const Hardware gb200 = builtinHardware("gb200-nvl72"), a100 = builtinHardware("a100");
    QCOMPARE(gb200.gpusPerNode, 72);
    QCOMPARE(gb200.peakFlops, 2.5e15);
    QCOMPARE(gb200.intraBusEfficiency, defaults.intraBusEfficiency);
    QCOMPARE(a100.nicBytesPerS, 4 * 100e9 / 8 / 8);
    QCOMPARE(a100.dispatchGap_s, 35e-6);
    for (const auto& name : hardwareNames()) {
        const Hardware h = builtinHardware(name);
        QCOMPARE(h.name, name);
        QVERIFY(!h.description.empty() && h.sources.size() >= 4);
        QVERIFY(!h.measured);
    }

    // Dense peaks per precision (sparsity figures are 2x and never used), HBM capacity against
    // usable memory, NVLink domain and NIC per GPU, by hand from the sheets' sources: DGX B200
    // node 72 PFLOP/s FP8 with sparsity = 8 x 4.5 x 2; GB300 NVL72 1,080 PFLOP/s dense FP4 / 72
    // = 15; 13.4 TB / 72 = 186 GB per GB200; 800 Gb/s ConnectX-8 = 100 GB/s; HDR 200 Gb/s = 25
    // GB/s.
    struct Row {
        const char* name;
        int domain;
        double bf16, fp8, fp4, usable, capacity, nic;
    };
    for (const Row& row : {Row{"p6-b200", 8, 2.25e15, 4.5e15, 9e15, 179e9, 180e9, 50e9},
                           Row{"dgx-b200", 8, 2.25e15, 4.5e15, 9e15, 179e9, 180e9, 50e9},
                           Row{"dgx-b300", 8, 2.25e15, 4.5e15, 13.125e15, 270e9, 288e9, 100e9},
                           Row{"gb200-nvl72", 72, 2.5e15, 5e15, 10e15, 184e9, 186e9, 50e9},
                           Row{"gb300-nvl72", 72, 2.5e15, 5e15, 15e15, 279e9, 288e9, 100e9},
                           Row{"h100", 8, 989e12, 1979e12, 0, 76e9, 80e9, 50e9},
                           Row{"h200", 8, 989e12, 1979e12, 0, 135e9, 141e9, 50e9},
                           Row{"a100", 8, 312e12, 0, 0, 76e9, 80e9, 6.25e9},
                           Row{"dgx-a100", 8, 312e12, 0, 0, 76e9, 80e9, 25e9}}) {
        const Hardware h = builtinHardware(row.name);
        QVERIFY2(h.gpusPerNode == row.domain, row.name);
        QVERIFY2(h.peakFlops == row.bf16 && h.peakFp8Flops == row.fp8 && h.peakFp4Flops == row.fp4,
                 row.name);
        QVERIFY2(h.memoryBytes == row.usable && h.memoryCapacityBytes == row.capacity, row.name);
        QVERIFY2(h.memoryBytes <= h.memoryCapacityBytes, row.name);
        QVERIFY2(h.nicBytesPerS == row.nic, row.name);
    }
    // DGX B200 is the paper's B200 in NVIDIA's chassis: the same sheet as p6-b200 but for the
    // scale-out network (InfiniBand, fitted to the H100 InfiniBand logs, against EFA).
    Hardware dgxB200 = builtinHardware("dgx-b200");
    QCOMPARE(dgxB200.interLatency_s, builtinHardware("h100").interLatency_s);
    QCOMPARE(dgxB200.interBusEfficiency, builtinHardware("h100").interBusEfficiency);
    dgxB200.interLatency_s = defaults.interLatency_s;
    dgxB200.interBusEfficiency = defaults.interBusEfficiency;
    dgxB200.name = "p6-b200";
    dgxB200.description = defaults.description;
    dgxB200.sources = defaults.sources;
    QCOMPARE(writeHardware(dgxB200).dump(), writeHardware(builtinHardware("p6-b200")).dump());
    // Aliases give the built-in under its own name; they are accepted wherever a name is.
    QCOMPARE(builtinHardware("dgx-h100").name, std::string("h100"));
    QCOMPARE(writeHardware(builtinHardware("dgx-h200")).dump(), writeHardware(h200).dump());
    QVERIFY(isBuiltinHardware("dgx-h100") && isBuiltinHardware("gb300-nvl72") &&
            !isBuiltinHardware("h300"));
    QVERIFY(hardwareNameList().find("h100 (dgx-h100)") != std::string::npos);
    {
        Envelope e;
        QVERIFY(readErrors(R"({"hardware": "dgx-h100", "nodes": 2})", &e).empty());
        QCOMPARE(e.hardware.name, std::string("h100"));
        QCOMPARE(writeEnvelope(e)["hardware"].get<std::string>(), std::string("h100"));
    }

    Diagnostics d;
    const nlohmann::json j = {{"name", "my-node"}, {"gpus_per_node", 4}};
    JsonReader r(j, "$", d);
    const Hardware mine = readHardware(r);
    QVERIFY2(d.ok(), d.str().c_str());
    QCOMPARE(mine.name, std::string("my-node"));
    QCOMPARE(mine.gpusPerNode, 4);
    Hardware expected = builtinHardware("p6-b200");
    expected.name = "my-node";
    expected.gpusPerNode = 4;
    QCOMPARE(writeHardware(mine).dump(), writeHardware(expected).dump());
}

/// Each unit-carrying key converts once at the edge: the SI member read from a hand value, and
/// the key written back unchanged.
void TestMosaicEnvelope::hardwareKeyUnits_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("value");
    QTest::addColumn<double>("si");
    QTest::newRow("TFLOP/s") << "peak_bf16_TFLOPs_per_s" << 1000.0 << 1e15;
    QTest::newRow("GB") << "memory_usable_GB" << 70.0 << 70e9;
    QTest::newRow("GB capacity") << "memory_capacity_GB" << 192.0 << 192e9;
    QTest::newRow("TFLOP/s FP8") << "peak_fp8_TFLOPs_per_s" << 2500.0 << 2.5e15;
    QTest::newRow("TFLOP/s FP4") << "peak_fp4_TFLOPs_per_s" << 9000.0 << 9e15;
    QTest::newRow("GB/s HBM") << "hbm_GBps" << 4000.0 << 4e12;
    QTest::newRow("GB/s NVLink") << "nvlink_GBps" << 600.0 << 600e9;
    QTest::newRow("Gb/s NIC") << "nic_Gbps_per_gpu" << 800.0 << 100e9;
    QTest::newRow("us intra") << "intra_latency_us" << 5.0 << 5e-6;
    QTest::newRow("us inter") << "inter_latency_us" << 40.0 << 40e-6;
    QTest::newRow("MB ramp") << "ramp_half_MB" << 2.0 << 2e6;
    QTest::newRow("us gap") << "dispatch_gap_us" << 25.0 << 25e-6;
    QTest::newRow("ms microbatch") << "host_per_microbatch_ms" << 12.0 << 12e-3;
    QTest::newRow("ms iteration") << "host_per_iteration_ms" << 3.0 << 3e-3;
    QTest::newRow("ms MoE layer") << "host_per_moe_layer_ms" << 7.0 << 7e-3;
    QTest::newRow("fraction") << "attention_efficiency" << 0.5 << 0.5;
    QTest::newRow("negative chi constant") << "chi_c_ovl" << -0.3 << -0.3;
}

void TestMosaicEnvelope::hardwareKeyUnits() {
    QFETCH(QString, key);
    QFETCH(double, value);
    QFETCH(double, si);
    const std::string k = key.toStdString();
    Diagnostics d;
    const nlohmann::json j = {{"name", "h100"}, {k, value}};
    JsonReader r(j, "$", d);
    const Hardware h = readHardware(r);
    QVERIFY2(d.ok(), d.str().c_str());
    const auto written = writeHardware(h);
    QCOMPARE(written[k].get<double>(), value);
    // The member that changed is the one named by the key, by the SI amount.
    const Hardware base = builtinHardware("h100");
    const double members[][2] = {{h.peakFlops, base.peakFlops},
                                 {h.peakFp8Flops, base.peakFp8Flops},
                                 {h.peakFp4Flops, base.peakFp4Flops},
                                 {h.memoryBytes, base.memoryBytes},
                                 {h.memoryCapacityBytes, base.memoryCapacityBytes},
                                 {h.hbmBytesPerS, base.hbmBytesPerS},
                                 {h.nvlinkBytesPerS, base.nvlinkBytesPerS},
                                 {h.nicBytesPerS, base.nicBytesPerS},
                                 {h.intraLatency_s, base.intraLatency_s},
                                 {h.interLatency_s, base.interLatency_s},
                                 {h.rampHalfBytes, base.rampHalfBytes},
                                 {h.dispatchGap_s, base.dispatchGap_s},
                                 {h.hostPerMicrobatch_s, base.hostPerMicrobatch_s},
                                 {h.hostPerIteration_s, base.hostPerIteration_s},
                                 {h.hostPerMoeLayer_s, base.hostPerMoeLayer_s},
                                 {h.attentionEfficiency, base.attentionEfficiency},
                                 {h.cOvl, base.cOvl}};
    int changed = 0;
    for (const auto& m : members)
        if (m[0] != m[1]) {
            ++changed;
            QVERIFY2(std::abs(m[0] / si - 1) < 1e-12, qPrintable(QString::number(m[0], 'g', 17)));
        }
    QCOMPARE(changed, 1);
}

void TestMosaicEnvelope::planModelReader() {
    Diagnostics d;
    nlohmann::json j = {{"q", 12}, {"experts", 96}, {"top_k", 2}, {"expert_split_factor", 4}};
    JsonReader r(j, "$", d);
    Geometry g;
    QVERIFY(readPlanModel(r, g));
    QCOMPARE(g.layers, 48);
    // Explicit Mixtral-like geometry (8 experts, top-2, no shared expert, 32 layers).
    nlohmann::json m = {{"layers", 32},        {"hidden", 4096},     {"heads", 32},
                        {"kv_heads", 8},       {"ffn_width", 14336}, {"vocab", 32000},
                        {"experts", 8},        {"top_k", 2},         {"expert_width", 14336},
                        {"shared_experts", 0}, {"dense_layers", 0}};
    Diagnostics d2;
    JsonReader r2(m, "$", d2);
    QVERIFY2(readPlanModel(r2, g), d2.str().c_str());
    // Mixtral 8x7B: 46.7 B with embeddings; 32 x (attention 41.9 M + 8 x 176.2 M + router) = 46.44
    // B.
    QVERIFY(std::abs(g.nTot / 1e9 - 46.44) < 0.05);
    QVERIFY(std::abs(g.nAct / 1e9 - 12.62) < 0.05);
    nlohmann::json bad = {{"layers", 32}, {"hidden", 4096}, {"heads", 32},
                          {"experts", 8}, {"top_k", 9},     {"expert_width", 10}};
    Diagnostics d3;
    JsonReader r3(bad, "$", d3);
    QVERIFY(!readPlanModel(r3, g));
    QVERIFY(d3.str().find("$.top_k") != std::string::npos);
}

void TestMosaicEnvelope::backgroundOrIdleDefault() {
    // No background: the idle default, zero jobs, one object for every envelope.
    Envelope e;
    const BackgroundLoad& idle = backgroundOrIdle(e);
    QCOMPARE(idle.jobs, 0);
    QCOMPARE(&backgroundOrIdle(Envelope()), &idle);
    // A background: that very object.
    e.background.emplace();
    e.background->jobs = 3;
    QCOMPARE(&backgroundOrIdle(e), &*e.background);
    QCOMPARE(backgroundOrIdle(e).jobs, 3);
    QCOMPARE(idle.jobs, 0);
}

TANDEM_TEST_APPLESS_MAIN(TestMosaicEnvelope)
#include "tst_mosaic_envelope.moc"
