// Hugging Face config -> mosaic::Geometry for `tandem-cli plan CONFIG.json`: widths
// and MoE axes per family, the approximations noted, the config's exact counts kept for MFU.
#include <QtTest>
#include <algorithm>

#include "mosaic/imported_geometry.h"
#include "mosaic/perf_model.h"
#include "mosaic/plan.h"
#include "mosaic/reality.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::io;
using namespace tandem::mosaic;

namespace {

ModelImport load(const char* name) {
    Diagnostics d;
    auto m = loadModelConfigFile(std::string(TANDEM_TEST_DATA) + "/models/" + name, d);
    if (!m) qFatal("%s", d.str().c_str());
    return *m;
}

bool noted(const ImportedGeometry& mm, const std::string& fragment) {
    return std::any_of(mm.assumptions.begin(), mm.assumptions.end(),
                       [&](const std::string& a) { return a.find(fragment) != std::string::npos; });
}

}  // namespace

class TstImportedGeometry : public QObject {
    Q_OBJECT
private slots:
    /// Widths, MoE axes and dense leading blocks per family, from the published configs.
    void geometry_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QVector<int>>(
            "want");  // layers, d, heads, kv, d_ff, E, K, d_expert, shared, dense, vocab
        QTest::newRow("Mixtral-8x7B")
            << "Mixtral-8x7B-v0.1.config.json"
            << QVector<int>{32, 4096, 32, 8, 14336, 8, 2, 14336, 0, 0, 32000};
        QTest::newRow("DeepSeek-V3")
            << "DeepSeek-V3.config.json"
            << QVector<int>{61, 7168, 128, 128, 18432, 256, 8, 2048, 1, 3, 129280};
        QTest::newRow("Qwen1.5-MoE")
            << "Qwen1.5-MoE-A2.7B-Chat.config.json"
            << QVector<int>{24, 2048, 16, 16, 5632, 60, 4, 1408, 4, 0, 151936};
        QTest::newRow("Llama-2-13b dense")
            << "Llama-2-13b-hf.config.json"
            << QVector<int>{40, 5120, 40, 40, 13824, 0, 0, 0, 0, 40, 32000};
        QTest::newRow("gpt2-large (2-matrix FFN)")
            << "gpt2-large.config.json"
            << QVector<int>{36, 1280, 20, 20, 3413, 0, 0, 0, 0, 36, 50257};
    }
    void geometry() {
        QFETCH(QString, file);
        QFETCH(QVector<int>, want);
        const ModelImport m = load(file.toUtf8().constData());
        const ImportedGeometry mm = importedGeometry(m);
        const auto& g = mm.geometry;
        const QVector<int> got{g.layers,        g.dModel,      g.nHead, g.nKvHead,
                               g.dFf,           g.experts,     g.topK,  g.dExpert,
                               g.sharedExperts, g.denseLayers, g.vocab};
        QCOMPARE(got, want);
        // MFU credits the config's own count; S is the one `inspect` prints.
        QCOMPARE(g.nAct, double(m.counts.activeNonEmbedding));
        QCOMPARE(g.nTot, double(m.counts.totalNonEmbedding));
        QCOMPARE(g.sparsity, m.counts.sparsity);
    }

    /// Each approximation is written down.
    void assumptions() {
        QVERIFY(noted(importedGeometry(load("DeepSeek-V3.config.json")),
                      "multi-head latent attention"));
        QVERIFY(noted(importedGeometry(load("Qwen1.5-MoE-A2.7B-Chat.config.json")),
                      "1 shared expert(s) of width 5632 costed as 4 of width d_expert = 1408"));
        QVERIFY(noted(importedGeometry(load("gpt2-large.config.json")),
                      "2-matrix FFN of width 5120 costed as a SwiGLU FFN of width 3413"));
        // Qwen3's head_dim 128 on d = 2048 with 32 heads is costed as the config states it: the
        // costed widths give the config's own count, so nothing is noted.
        const ImportedGeometry qwen3 = importedGeometry(load("Qwen3-30B-A3B.config.json"));
        QCOMPARE(qwen3.geometry.headDim, 128);
        QVERIFY(qwen3.assumptions.empty());
        QVERIFY(importedGeometry(load("Mixtral-8x7B-v0.1.config.json")).assumptions.empty());
        const auto j =
            importedGeometryToJson(load("Mixtral-8x7B-v0.1.config.json"),
                                   importedGeometry(load("Mixtral-8x7B-v0.1.config.json")));
        QCOMPARE(j.at("source").get<std::string>(), std::string("hf_config"));
        QVERIFY(j.at("n_total").get<long long>() > 46'000'000'000LL);
    }

    /// A config.json is costed as the reality check costs the same model's measured runs: the
    /// same widths (Qwen3's head_dim 128 included), so `plan` on the config predicts what the
    /// reality check predicts for the measured layout.
    void configCostedAsTheMeasuredModel_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("measured");
        QTest::newRow("Qwen3-30B-A3B") << "Qwen3-30B-A3B.config.json"
                                       << "Qwen3_30B_a3B";
        QTest::newRow("Qwen3-235B-A22B") << "Qwen3-235B-A22B.config.json"
                                         << "Qwen3_235B_a22B";
        QTest::newRow("Llama 3 70B") << "Llama-3-70B.config.json"
                                     << "LLAMA3_70B";
    }
    void configCostedAsTheMeasuredModel() {
        QFETCH(QString, config);
        QFETCH(QString, measured);
        const Geometry g = importedGeometry(load(config.toLatin1().constData())).geometry;
        Geometry m;
        std::string reason;
        QVERIFY2(measuredModelGeometry(measured.toStdString(), m, reason), reason.c_str());
        const auto widths = [](const Geometry& x) {
            const int head = x.headDim > 0 ? x.headDim : x.dModel / x.nHead;
            return std::vector<int>{x.layers, x.dModel,  x.nHead, x.nKvHead, head,
                                    x.dFf,    x.experts, x.topK,  x.dExpert, x.vocab};
        };
        QCOMPARE(widths(g), widths(m));
        // The same iteration time on a measured layout (MFU differs only by the config's
        // exact parameter count).
        Cluster c;
        c.hardware = builtinHardware("h100");
        c.stack = builtinStack("megatron-core");
        c.precision = Precision::Fp8;
        c.devices = 256;
        c.globalBatch = 2048;
        c.seqLen = 4096;
        Plan p;
        p.tp = 2;
        p.pp = 8;
        p.vp = 2;
        p.dp = 16;
        p.ep = g.experts > 0 ? 16 : 1;
        p.ckpt = Checkpointing::Full;
        const PlanEval a = evaluateLayout(g, c, p), b = evaluateLayout(m, c, p);
        QVERIFY2(a.feasible, a.reason.c_str());
        QCOMPARE(a.iteration_s, b.iteration_s);
    }

    void detection() {
        QVERIFY(isHfConfig(nlohmann::json{{"model_type", "llama"}}));
        QVERIFY(isHfConfig(nlohmann::json{{"architectures", {"MixtralForCausalLM"}}}));
        QVERIFY(!isHfConfig(nlohmann::json{{"q", 12}, {"experts", 96}}));
        QVERIFY(!isHfConfig(nlohmann::json{{"layers", 12}, {"hidden", 1024}}));
        QVERIFY(!isHfConfig(nlohmann::json::array()));
    }
};

TANDEM_TEST_APPLESS_MAIN(TstImportedGeometry)
#include "tst_imported_geometry.moc"
