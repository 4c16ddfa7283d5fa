// Hugging Face config.json import: published parameter counts (within 3 %), hand-computed exact
// counts, geometry mapping, and the messages for unknown / missing / partial configs.
#include <QtTest>
#include <cmath>
#include <fstream>
#include <sstream>

#include "io/hf_config.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::io;
using nlohmann::json;

namespace {
std::string dataFile(const char* name) { return std::string(TANDEM_TEST_DATA) + "/models/" + name; }

json readJson(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return json::parse(ss.str());
}

bool anyIssue(const Diagnostics& d, const std::string& path, const std::string& fragment) {
    for (const auto& i : d.items())
        if (i.path == path && i.message.find(fragment) != std::string::npos) return true;
    return false;
}

bool anyAssumption(const ModelImport& m, const std::string& fragment) {
    for (const auto& a : m.assumptions)
        if (a.find(fragment) != std::string::npos) return true;
    return false;
}
}  // namespace

class TstHfConfig : public QObject {
    Q_OBJECT
private slots:
    // Total and active parameters within 3 % of the figures the model cards publish.
    void publishedCounts_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("totalB");
        QTest::addColumn<double>("activeB");
        QTest::newRow("Mixtral-8x7B") << "Mixtral-8x7B-v0.1.config.json" << 46.7 << 12.9;
        QTest::newRow("Mixtral-8x22B") << "Mixtral-8x22B-v0.1.config.json" << 141.0 << 39.0;
        QTest::newRow("DeepSeek-V3") << "DeepSeek-V3.config.json" << 671.0 << 37.0;
        QTest::newRow("Qwen3-30B-A3B") << "Qwen3-30B-A3B.config.json" << 30.5 << 3.3;
        QTest::newRow("gpt-oss-20b") << "gpt-oss-20b.config.json" << 20.9 << 3.6;
        QTest::newRow("DeepSeek-V2-Lite") << "DeepSeek-V2-Lite.config.json" << 15.7 << 2.4;
        QTest::newRow("Qwen1.5-MoE-A2.7B") << "Qwen1.5-MoE-A2.7B-Chat.config.json" << 14.3 << 2.7;
        QTest::newRow("Llama-4-Scout")
            << "Llama-4-Scout-17B-16E-Instruct.config.json" << 109.0 << 17.0;
        // Configs that state head_dim with heads x head_dim != d (64 x 64 vs 2880; 64 x 128 vs
        // 4096): the shape check must not refuse them. Model cards: gpt-oss-120b 116.8 B total,
        // 5.1 B active (OpenAI, "gpt-oss-120b & gpt-oss-20b Model Card", Table 1); Qwen3-235B-A22B
        // 235 B total, 22 B activated (Qwen3 Technical Report, arXiv:2505.09388, Table 2).
        QTest::newRow("gpt-oss-120b") << "gpt-oss-120b.config.json" << 116.8 << 5.1;
        QTest::newRow("Qwen3-235B-A22B") << "Qwen3-235B-A22B.config.json" << 235.0 << 22.0;
    }
    void publishedCounts() {
        QFETCH(QString, file);
        QFETCH(double, totalB);
        QFETCH(double, activeB);
        Diagnostics d(file.toStdString());
        const auto m = loadModelConfigFile(dataFile(file.toUtf8().constData()), d);
        QVERIFY2(m.has_value(), d.str().c_str());
        const double total = m->counts.total / 1e9, active = m->counts.active / 1e9;
        QVERIFY2(std::abs(total / totalB - 1) <= 0.03,
                 qPrintable(QString("total %1 B vs %2 B").arg(total).arg(totalB)));
        QVERIFY2(std::abs(active / activeB - 1) <= 0.03,
                 qPrintable(QString("active %1 B vs %2 B").arg(active).arg(activeB)));
        // Internal consistency of the four counts and S.
        QVERIFY(m->counts.totalNonEmbedding < m->counts.total);
        QVERIFY(m->counts.activeNonEmbedding < m->counts.active);
        QVERIFY(m->counts.active <= m->counts.activeAllEmbeddings);
        QCOMPARE(m->counts.sparsity,
                 1.0 - double(m->counts.activeNonEmbedding) / double(m->counts.totalNonEmbedding));
    }

    // Exact counts checked by hand against the module shapes (and the totals HF reports).
    void exactDenseCounts() {
        Diagnostics d;
        auto llama = loadModelConfigFile(dataFile("Llama-2-13b-hf.config.json"), d);
        QVERIFY2(llama, d.str().c_str());
        // 40 x (4 x 5120^2 + 3 x 5120 x 13824 + 2 x 5120) + 2 x 32000 x 5120 + 5120
        QCOMPARE(llama->counts.total, 13015864320LL);
        QCOMPARE(llama->counts.active, llama->counts.total);
        QCOMPARE(llama->counts.sparsity, 0.0);
        QVERIFY(std::isnan(llama->counts.splitFactorG));

        auto gpt2 = loadModelConfigFile(dataFile("gpt2-large.config.json"), d);
        QVERIFY2(gpt2, d.str().c_str());
        // 36 x (12 d^2 + 13 d) + 2 d + (50257 + 1024) d, d = 1280, tied head
        QCOMPARE(gpt2->counts.total, 774030080LL);
        QCOMPARE(gpt2->counts.outputHead, 0LL);
        QCOMPARE(gpt2->counts.positionEmbedding, 1024LL * 1280);
    }

    void optFamily() {
        // facebook/opt-125m geometry; HF reports 125,239,296 parameters.
        const json cfg = {{"model_type", "opt"},
                          {"hidden_size", 768},
                          {"num_hidden_layers", 12},
                          {"num_attention_heads", 12},
                          {"ffn_dim", 3072},
                          {"vocab_size", 50272},
                          {"max_position_embeddings", 2048},
                          {"word_embed_proj_dim", 768},
                          {"do_layer_norm_before", true}};
        Diagnostics d;
        const auto m = importModelConfig(cfg, d);
        QVERIFY2(m, d.str().c_str());
        QCOMPARE(m->counts.total, 125239296LL);
    }

    /// GPT-2, OPT and DeepSeek read width, depth, heads and vocab by their own key names, with as
    /// many KV heads as query heads; GPT-2 and OPT derive the per-head width as width / heads.
    void multiHeadFamiliesReadTheirKeys() {
        Diagnostics d;
        const auto gpt2 = loadModelConfigFile(dataFile("gpt2-large.config.json"), d);
        QVERIFY2(gpt2, d.str().c_str());
        QCOMPARE(gpt2->geometry.hidden, 1280LL);
        QCOMPARE(gpt2->geometry.layers, 36LL);
        QCOMPARE(gpt2->geometry.heads, 20LL);
        QCOMPARE(gpt2->geometry.kvHeads, 20LL);
        QCOMPARE(gpt2->geometry.vocab, 50257LL);
        QCOMPARE(gpt2->geometry.headDim, 64LL);  // 1280 / 20
        const json opt = {{"model_type", "opt"},     {"hidden_size", 768},
                          {"num_hidden_layers", 12}, {"num_attention_heads", 16},
                          {"ffn_dim", 3072},         {"vocab_size", 50272}};
        const auto o = importModelConfig(opt, d);
        QVERIFY2(o, d.str().c_str());
        QCOMPARE(o->geometry.kvHeads, 16LL);
        QCOMPARE(o->geometry.headDim, 48LL);  // 768 / 16
        const auto ds = loadModelConfigFile(dataFile("DeepSeek-V3.config.json"), d);
        QVERIFY2(ds, d.str().c_str());
        QCOMPARE(ds->geometry.heads, 128LL);
        QCOMPARE(ds->geometry.kvHeads, 128LL);
        QCOMPARE(ds->geometry.headDim, 192LL);  // MLA: qk_nope 128 + qk_rope 64, not d / heads
        // A GPT-2 config without its head count names the GPT-2 key.
        const json noHeads = {
            {"model_type", "gpt2"}, {"n_embd", 768}, {"n_layer", 12}, {"vocab_size", 50257}};
        Diagnostics bad;
        QVERIFY(!importModelConfig(noHeads, bad));
        QVERIFY2(bad.str().find("$.n_head") != std::string::npos, bad.str().c_str());
    }

    void deepSeekV3Geometry() {
        Diagnostics d;
        const auto m = loadModelConfigFile(dataFile("DeepSeek-V3.config.json"), d);
        QVERIFY2(m, d.str().c_str());
        const auto& g = m->geometry;
        QCOMPARE(g.attention, AttentionKind::MultiHeadLatent);
        QCOMPARE(g.denseLayers, 3LL);
        QCOMPARE(g.moeLayers, 58LL);
        QCOMPARE(g.experts, 256LL);
        QCOMPARE(g.topK, 8LL);
        QCOMPARE(g.sharedExperts, 1LL);
        QCOMPARE(g.qLoraRank, 1536LL);
        QCOMPARE(g.kvLoraRank, 512LL);
        QCOMPARE(g.mtpLayers, 1LL);
        QCOMPARE(m->counts.splitFactorG, 18432.0 / 2048.0);
        QVERIFY(anyAssumption(*m, "multi-token-prediction"));
        // One MLA block by hand: q_a 7168x1536 + norm 1536 + q_b 1536x128x192 + kv_a 7168x576
        // + norm 512 + kv_b 512x128x256 + o 16384x7168.
        const long long mla = 7168LL * 1536 + 1536 + 1536LL * 128 * 192 + 7168LL * 576 + 512 +
                              512LL * 128 * 256 + 16384LL * 7168;
        ModelGeometry one = g;
        one.layers = 1;
        one.denseLayers = 1;
        one.moeLayers = 0;
        one.vocab = 0;
        one.finalNorm = false;
        QCOMPARE(countParameters(one).total, mla + 2 * 7168 + 3LL * 7168 * 18432);
    }

    void splitFactorAndShared_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("G");
        QTest::addColumn<int>("shared");
        QTest::newRow("Qwen1.5-MoE") << "Qwen1.5-MoE-A2.7B-Chat.config.json" << 4.0 << 1;
        QTest::newRow("Qwen3-30B-A3B") << "Qwen3-30B-A3B.config.json" << 8.0 << 0;
        QTest::newRow("Llama-4-Scout") << "Llama-4-Scout-17B-16E-Instruct.config.json" << 2.0 << 1;
        QTest::newRow("Mixtral-8x7B") << "Mixtral-8x7B-v0.1.config.json" << 1.0 << 0;
        QTest::newRow("DeepSeek-V2-Lite") << "DeepSeek-V2-Lite.config.json" << 10944.0 / 1408 << 2;
    }
    void splitFactorAndShared() {
        QFETCH(QString, file);
        QFETCH(double, G);
        QFETCH(int, shared);
        Diagnostics d;
        const auto m = loadModelConfigFile(dataFile(file.toUtf8().constData()), d);
        QVERIFY2(m, d.str().c_str());
        QCOMPARE(m->counts.splitFactorG, G);
        QCOMPARE(m->geometry.sharedExperts, static_cast<long long>(shared));
    }

    void kimiK2UsesDeepSeekFamily() {
        json cfg = readJson(dataFile("DeepSeek-V3.config.json"));
        cfg["model_type"] = "kimi_k2";
        cfg["n_routed_experts"] = 384;
        cfg["num_attention_heads"] = 64;
        cfg["first_k_dense_replace"] = 1;
        cfg["vocab_size"] = 163840;
        Diagnostics d;
        const auto m = importModelConfig(cfg, d);
        QVERIFY2(m, d.str().c_str());
        QVERIFY(m->geometry.family == ModelFamily::DeepseekV3);
        QCOMPARE(modelImportToJson(*m)["family"].get<std::string>(), std::string("deepseek_v3"));
        // Kimi-K2 publishes 1.04 T total and 32 B active.
        QVERIFY(std::abs(m->counts.total / 1.04e12 - 1) < 0.03);
        QVERIFY(std::abs(m->counts.active / 32.0e9 - 1) < 0.03);
    }

    void modelFamilyNamesRoundTrip() {
        // Each family's word reads back to it; a model_type that counts as another family
        // (mistral, kimi_k2, llama4_text) is no family's word.
        QCOMPARE(enumNames(modelFamilyNames()),
                 (std::vector<std::string>{"mixtral", "deepseek_v2", "deepseek_v3", "qwen2_moe",
                                           "qwen3_moe", "gpt_oss", "llama4", "gpt2", "opt", "llama",
                                           "qwen2", "qwen3"}));
        for (const auto& e : modelFamilyNames())
            QVERIFY(enumFromName(modelFamilyNames(), name(e.value)) == e.value);
        for (const char* other : {"mistral", "kimi_k2", "llama4_text", "deepseek", ""})
            QVERIFY(!enumFromName(modelFamilyNames(), other));
    }

    void unknownModelTypeListsSupported() {
        Diagnostics d;
        QVERIFY(!importModelConfig(json{{"model_type", "mixtrall"}, {"hidden_size", 8}}, d));
        QVERIFY(anyIssue(d, "$.model_type", "unsupported model_type \"mixtrall\""));
        QVERIFY(anyIssue(d, "$.model_type", "supported: mixtral, deepseek_v2"));
        QVERIFY(anyIssue(d, "$.model_type", "did you mean \"mixtral\""));
    }

    void missingModelType() {
        Diagnostics d;
        QVERIFY(!importModelConfig(json{{"hidden_size", 8}}, d));
        QVERIFY(anyIssue(d, "$.model_type", "is required"));
        // ...but `architectures` is enough, and the guess is reported.
        json cfg = readJson(dataFile("Mixtral-8x7B-v0.1.config.json"));
        cfg.erase("model_type");
        Diagnostics d2;
        const auto m = importModelConfig(cfg, d2);
        QVERIFY2(m, d2.str().c_str());
        QVERIFY(anyAssumption(*m, "assumed \"mixtral\" from $.architectures[0]"));
    }

    void missingRequiredFieldNamesIt_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("path");
        QTest::newRow("mixtral experts") << "Mixtral-8x7B-v0.1.config.json"
                                         << "num_local_experts"
                                         << "$.num_local_experts";
        QTest::newRow("deepseek kv rank") << "DeepSeek-V3.config.json"
                                          << "kv_lora_rank"
                                          << "$.kv_lora_rank";
        QTest::newRow("qwen layers") << "Qwen3-30B-A3B.config.json"
                                     << "num_hidden_layers"
                                     << "$.num_hidden_layers";
    }
    void missingRequiredFieldNamesIt() {
        QFETCH(QString, file);
        QFETCH(QString, field);
        QFETCH(QString, path);
        json cfg = readJson(dataFile(file.toUtf8().constData()));
        cfg.erase(field.toStdString());
        Diagnostics d;
        QVERIFY(!importModelConfig(cfg, d));
        QVERIFY2(anyIssue(d, path.toStdString(), "is required for model_type"), d.str().c_str());
    }

    void llama4NestedPaths() {
        json cfg = readJson(dataFile("Llama-4-Scout-17B-16E-Instruct.config.json"));
        cfg["text_config"].erase("num_local_experts");
        Diagnostics d;
        QVERIFY(!importModelConfig(cfg, d));
        QVERIFY(anyIssue(d, "$.text_config.num_local_experts", "is required"));
        Diagnostics d2;
        QVERIFY(!importModelConfig(json{{"model_type", "llama4"}}, d2));
        QVERIFY(anyIssue(d2, "$.text_config", "is required"));
    }

    void wrongTypesAndRanges() {
        json cfg = readJson(dataFile("Mixtral-8x7B-v0.1.config.json"));
        cfg["hidden_size"] = "4096";
        cfg["num_experts_per_tok"] = 2.5;
        Diagnostics d;
        QVERIFY(!importModelConfig(cfg, d));
        QVERIFY(anyIssue(d, "$.hidden_size", "must be an integer (got a string)"));
        QVERIFY(anyIssue(d, "$.num_experts_per_tok", "must be an integer (got 2.5)"));
        cfg = readJson(dataFile("Mixtral-8x7B-v0.1.config.json"));
        cfg["num_experts_per_tok"] = 9;
        Diagnostics d2;
        QVERIFY(!importModelConfig(cfg, d2));
        QVERIFY(anyIssue(d2, "$.num_experts_per_tok",
                         "exceeds the number of routed experts (num_local_experts = 8)"));
        Diagnostics d3;
        QVERIFY(!importModelConfig(json::array(), d3));
        QVERIFY(anyIssue(d3, "$", "must be a JSON object"));
    }

    // The shape rules of Tandem's own MODEL.json (io::checkModelShape), with the config's
    // key in each message. Each row edits one field of a published config ("/"-separated JSON
    // pointer = JSON value); before the shared check these imported (a negative dense-block
    // count for a repeated MoE layer, a head width rounded down) or failed at another key.
    void invalidGeometryRefused_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("KV heads do not divide the heads")
            << "Mixtral-8x7B-v0.1.config.json"
            << "/num_key_value_heads"
            << "6"
            << "$.num_key_value_heads"
            << "must divide num_attention_heads (32): each key/value head serves the same number "
               "of query heads (32 / 6";
        QTest::newRow("d not a multiple of the heads")
            << "Mixtral-8x7B-v0.1.config.json"
            << "/hidden_size"
            << "4100"
            << "$.hidden_size"
            << "must be a multiple of num_attention_heads (32)";
        QTest::newRow("GPT-2 d not a multiple of n_head")
            << "gpt2-large.config.json"
            << "/n_head"
            << "24"
            << "$.n_embd"
            << "must be a multiple of n_head (24) when the per-head width is n_embd / n_head (1280 "
               "/ 24";
        QTest::newRow("Llama-4 MoE layer listed twice")
            << "Llama-4-Scout-17B-16E-Instruct.config.json"
            << "/text_config/moe_layers"
            << "[1, 3, 1]"
            << "$.text_config.moe_layers[2]"
            << "duplicate value 1 (also at [0]); each layer is listed once";
        QTest::newRow("Qwen dense layer listed twice") << "Qwen3-30B-A3B.config.json"
                                                       << "/mlp_only_layers"
                                                       << "[0, 5, 5]"
                                                       << "$.mlp_only_layers[2]"
                                                       << "duplicate value 5";
        QTest::newRow("more layers than any model") << "Mixtral-8x7B-v0.1.config.json"
                                                    << "/num_hidden_layers"
                                                    << "20000"
                                                    << "$.num_hidden_layers"
                                                    << "must be in [1, 10000] (got 20000)";
        // A layer count or stride beyond the depth would leave no MoE block at all.
        QTest::newRow("more leading dense blocks than blocks")
            << "DeepSeek-V3.config.json"
            << "/first_k_dense_replace"
            << "100"
            << "$.first_k_dense_replace"
            << "100 exceeds num_hidden_layers (61)";
        QTest::newRow("DeepSeek MoE stride beyond the depth")
            << "DeepSeek-V3.config.json"
            << "/moe_layer_freq"
            << "62"
            << "$.moe_layer_freq"
            << "62 exceeds num_hidden_layers (61)";
        QTest::newRow("Qwen sparse step beyond the depth") << "Qwen3-30B-A3B.config.json"
                                                           << "/decoder_sparse_step"
                                                           << "49"
                                                           << "$.decoder_sparse_step"
                                                           << "49 exceeds num_hidden_layers (48)";
        QTest::newRow("Llama-4 interleave step beyond the depth")
            << "Llama-4-Scout-17B-16E-Instruct.config.json"
            << "/text_config/interleave_moe_layer_step"
            << "100"
            << "$.text_config.interleave_moe_layer_step"
            << "100 exceeds num_hidden_layers (48)";
        QTest::newRow("zero experts per token") << "Qwen3-30B-A3B.config.json"
                                                << "/num_experts_per_tok"
                                                << "0"
                                                << "$.num_experts_per_tok"
                                                << "must be in [1, 16777216] (got 0)";
        QTest::newRow("K above E") << "Qwen3-30B-A3B.config.json"
                                   << "/num_experts_per_tok"
                                   << "200"
                                   << "$.num_experts_per_tok"
                                   << "exceeds the number of routed experts (num_experts = 128)";
    }
    void invalidGeometryRefused() {
        QFETCH(QString, file);
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, path);
        QFETCH(QString, fragment);
        json cfg = readJson(dataFile(file.toUtf8().constData()));
        cfg[json::json_pointer(pointer.toStdString())] = json::parse(value.toStdString());
        Diagnostics d;
        QVERIFY(!importModelConfig(cfg, d));
        QVERIFY2(anyIssue(d, path.toStdString(), fragment.toStdString()), d.str().c_str());
    }

    // head_dim stated: heads x head_dim may differ from d and d need not divide by the heads
    // (the projections are heads x head_dim wide).
    void statedHeadDimFreesTheWidth() {
        json cfg = readJson(dataFile("Qwen3-30B-A3B.config.json"));
        cfg["hidden_size"] = 2050;  // not a multiple of 32 heads; head_dim 128 stays
        Diagnostics d;
        const auto m = importModelConfig(cfg, d);
        QVERIFY2(m, d.str().c_str());
        QCOMPARE(m->geometry.headDim, 128LL);
        QCOMPARE(m->geometry.hidden, 2050LL);
        cfg.erase("head_dim");  // now the head width would be 2050 / 32
        Diagnostics d2;
        QVERIFY(!importModelConfig(cfg, d2));
        QVERIFY2(
            anyIssue(d2, "$.hidden_size",
                     "must be a multiple of num_attention_heads (32) when the per-head width is "
                     "hidden_size / num_attention_heads (2050 / 32 is not an integer); or give "
                     "head_dim"),
            d2.str().c_str());
    }

    void partialConfigListsAssumptions() {
        const json cfg = {{"model_type", "llama"},      {"hidden_size", 4096},
                          {"num_hidden_layers", 32},    {"num_attention_heads", 32},
                          {"intermediate_size", 11008}, {"vocab_size", 32000}};
        Diagnostics d;
        const auto m = importModelConfig(cfg, d);
        QVERIFY2(m, d.str().c_str());
        QCOMPARE(m->geometry.kvHeads, 32LL);
        QCOMPARE(m->geometry.headDim, 128LL);
        QVERIFY(anyAssumption(*m, "$.num_key_value_heads: absent; assumed"));
        QVERIFY(anyAssumption(*m, "$.head_dim: absent; assumed"));
        QVERIFY(anyAssumption(*m, "$.tie_word_embeddings: absent; assumed false"));
        // Llama-2-7B: 6,738,415,616 parameters.
        QCOMPARE(m->counts.total, 6738415616LL);
    }

    void jsonReport() {
        Diagnostics d;
        const auto m = loadModelConfigFile(dataFile("Qwen3-30B-A3B.config.json"), d);
        QVERIFY2(m, d.str().c_str());
        const auto j = modelImportToJson(*m);
        for (const char* k : {"n_total", "n_active", "n_total_nonembedding",
                              "n_active_nonembedding", "sparsity", "split_factor_G", "geometry"})
            QVERIFY2(j.contains(k), k);
        QCOMPARE(j["n_total"].get<long long>(), m->counts.total);
        QCOMPARE(j["geometry"]["experts"].get<long long>(), 128LL);
        QCOMPARE(j["geometry"]["kv_heads"].get<long long>(), 4LL);
    }

    void syntaxErrorHasLine() {
        QTemporaryDir dir;
        const QString p = dir.filePath("bad.json");
        {
            std::ofstream o(p.toStdString());
            o << "{\n  \"model_type\": \"mixtral\",\n  \"hidden_size\": 4096,,\n}\n";
        }
        Diagnostics d;
        QVERIFY(!loadModelConfigFile(p.toStdString(), d));
        QVERIFY2(d.str().find("line 3") != std::string::npos, d.str().c_str());
    }
};

TANDEM_TEST_APPLESS_MAIN(TstHfConfig)
#include "tst_hf_config.moc"
