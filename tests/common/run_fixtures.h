#pragma once
// Inputs of a user's measured runs shared by the suites that calibrate to them (the CLI's
// `calibrate`, the GUI's "Calibrate to your runs" and Plan page): the copied model configs under
// tests/data/models, Megatron-LM logs written to a temporary folder, and a geometry written as
// Tandem's explicit MODEL.json. For suites registered with tandem_add_test (which defines
// TANDEM_TEST_DATA).
#include <QByteArray>
#include <QFile>
#include <QLatin1Char>
#include <QString>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>

#include "mosaic/geometry.h"

namespace tandem::test {

/// tests/data/models/`name`: a copied Hugging Face config, e.g. "Llama-3-70B.config.json".
/// Absolute path; the file is not opened.
inline QString modelConfigFile(const char* name) {
    return QStringLiteral(TANDEM_TEST_DATA "/models/") + name;
}

/// Writes `dir`/`name`, a Megatron-LM log of iteration lines only (no arguments block) for a run
/// of `gbs` sequences of `seqLen` tokens on `gpus` GPUs measured at `tokensPerSPerGpu` tokens/s
/// per GPU: twelve iterations whose times (ms, one decimal) vary by -1 %, 0, +1 % around
/// gbs seqLen / (tokensPerSPerGpu gpus), so that the steady median is that time, and each line
/// states the global batch. Returns the path, or an empty string when the file cannot be written.
inline QString writeMegatronLog(const QTemporaryDir& dir, const QString& name, int gpus, int gbs,
                                int seqLen, double tokensPerSPerGpu) {
    const double ms = 1000.0 * gbs * seqLen / (tokensPerSPerGpu * gpus);
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    for (int i = 1; i <= 12; ++i)
        f.write(QStringLiteral(" [2026-01-01 00:00:%1] iteration %2/     100 | consumed samples: "
                               "%3 | elapsed time per iteration (ms): %4 | learning rate: "
                               "1.000000E-05 | global batch size: %5 | lm loss: 2.000000E+00 | "
                               "loss scale: 1.0 | grad norm: 1.000 | number of skipped "
                               "iterations:   0 | number of nan iterations:   0 |\n")
                    .arg(i, 2, 10, QLatin1Char('0'))
                    .arg(i, 8)
                    .arg(i * gbs)
                    .arg(ms * (1 + 0.01 * ((i % 3) - 1)), 0, 'f', 1)
                    .arg(gbs)
                    .toUtf8());
    return path;
}

/// `g` as Tandem's explicit MODEL.json (the keys mosaic::readPlanModel reads back: layers,
/// hidden, heads, kv_heads, ffn_width, vocab, experts, top_k, expert_width, shared_experts,
/// dense_layers), compact.
inline QByteArray explicitModelJson(const mosaic::Geometry& g) {
    const nlohmann::json j = {{"layers", g.layers},
                              {"hidden", g.dModel},
                              {"heads", g.nHead},
                              {"kv_heads", g.nKvHead},
                              {"ffn_width", g.dFf},
                              {"vocab", g.vocab},
                              {"experts", g.experts},
                              {"top_k", g.topK},
                              {"expert_width", g.dExpert},
                              {"shared_experts", g.sharedExperts},
                              {"dense_layers", g.denseLayers}};
    return QByteArray::fromStdString(j.dump());
}

}  // namespace tandem::test
