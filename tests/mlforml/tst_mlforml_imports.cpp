// Bring-your-own inputs in the ML-for-ML engine: a loss curve fitted to a training log
// replaces the default progress curve; a Hugging Face config sets the foreground's parameter
// count (gradient bytes per sync). The engine's event count that `tandem-cli bench` reports as
// events/s.
#include <QtTest>
#include <cmath>
#include <string>

#include "common/json_reader.h"
#include "io/hf_config.h"
#include "io/loss_fit.h"
#include "io/loss_log.h"
#include "mlforml/exposure.h"
#include "mlforml/params.h"
#include "mlforml/progress.h"
#include "mlforml/report.h"
#include "mlforml/simulate.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::mlforml;

namespace {

/// Reads `j` as an `ml_for_ml` object on top of the defaults; fails the test on an error.
Params readJson(const nlohmann::ordered_json& j, bool& ok) {
    Diagnostics d;
    const nlohmann::json plain = nlohmann::json::parse(j.dump());
    JsonReader r(plain, "$.ml_for_ml", d);
    Params p;
    readParams(r, p);
    ok = d.ok();
    if (!ok) qWarning("%s", d.str().c_str());
    return p;
}

}  // namespace

class TestImports : public QObject {
    Q_OBJECT
private slots:
    /// The llm.c log's validation series, fitted by tandem::io::fitLossCurve, applied through
    /// applyFittedLossCurve and through the scenario JSON it writes: the engine's curve passes
    /// through the logged points with the fit's RMSE, and equals the fit at every logged step.
    void fittedLossCurveReplacesDefault() {
        Diagnostics d;
        const auto log = io::loadLossLogFile(
            std::string(TANDEM_TEST_DATA) + "/losslogs/llmc-gpt2-124M-10B-8xH100.txt", d);
        QVERIFY2(log && d.ok(), d.str().c_str());
        const io::LossSeries* s = log->preferred();
        QVERIFY(s && s->step.size() >= 5);
        const auto fit = io::fitLossCurve(s->step, s->loss, d);
        QVERIFY2(fit, d.str().c_str());
        QVERIFY(fit->rmse > 0);

        Params p;
        p.progress.staticUpdates = s->step.back();  // the logged run is the Static run
        applyFittedLossCurve(p, fit->lInf, fit->a, fit->alpha, fit->s0);
        // Through the scenario JSON too (the keys a user writes by hand).
        bool ok = false;
        const Params q = readJson(writeParams(p), ok);
        QVERIFY(ok);
        for (const Params* pp : std::initializer_list<const Params*>{&p, &q}) {
            const ProgressCurve c(*pp);
            const double dS =
                c.progressPerUpdate({pp->gradientAccumulations.front(), pp->precisions.front()});
            double ss = 0, maxModelDiff = 0;
            for (size_t i = 0; i < s->step.size(); ++i) {
                const double engine = c.loss(s->step[i] * dS);
                const double r = engine - s->loss[i];
                ss += r * r;
                maxModelDiff =
                    std::max(maxModelDiff, std::fabs(engine - io::predictLoss(*fit, s->step[i])));
            }
            const double rmse = std::sqrt(ss / s->step.size());
            QVERIFY2(std::fabs(rmse - fit->rmse) <= 1e-6 * fit->rmse + 1e-9,
                     qPrintable(QString("engine RMSE %1, fit RMSE %2").arg(rmse).arg(fit->rmse)));
            QVERIFY2(maxModelDiff < 1e-9, qPrintable(QString::number(maxModelDiff)));
            // Static (the baseline) ends at the fitted loss of the last logged step.
            QVERIFY(std::fabs(c.loss(pp->progress.staticUpdates * dS) -
                              io::predictLoss(*fit, s->step.back())) < 1e-12);
        }
    }

    /// GPT-2 Large from its Hugging Face config as the foreground: n_total becomes
    /// `foreground_parameters`, and the ring all-reduce bytes per node follow from it.
    void huggingFaceConfigSetsForegroundGradientBytes() {
        Diagnostics d;
        const auto m = io::loadModelConfigFile(
            std::string(TANDEM_TEST_DATA) + "/models/gpt2-large.config.json", d);
        QVERIFY2(m && d.ok(), d.str().c_str());
        const double n = static_cast<double>(m->counts.total);
        QVERIFY2(std::fabs(n / 774e6 - 1) < 0.01, qPrintable(QString::number(n)));  // 774 M [A 3.1]

        const Params defaults;
        nlohmann::ordered_json j = writeParams(defaults);
        j["foreground_model"] = "gpt2-large";
        j["foreground_parameters"] = n;
        j["foreground_nodes"] = 8;
        bool ok = false;
        const Params p = readJson(j, ok);
        QVERIFY(ok);
        QCOMPARE(p.foregroundParameters, n);
        // 2 (n-1)/n * V with V = values * bytes per value: BF16 2, MXFP4 0.5 + 1/32 (OCP MX).
        QVERIFY(std::fabs(foregroundWireBytes(p, Precision::Bf16) - 2.0 * 7 / 8 * 2 * n) < 1);
        QVERIFY(std::fabs(foregroundWireBytes(p, Precision::Mxfp4) -
                          2.0 * 7 / 8 * (0.5 + 1.0 / 32) * n) < 1);

        // A foreground alone on the fabric: the sync takes wire bytes / NIC rate.
        Params alone = p;
        alone.backgroundJobs = {0};
        alone.policies = {PolicySpec(Combo{4, Precision::Bf16})};
        alone.startOffsets = 1;
        alone.replayIterations = 2;
        const Result r = simulate(alone);
        QCOMPARE(r.points.size(), size_t(1));
        const double expect = foregroundWireBytes(p, Precision::Bf16) / p.nicBytesPerS;
        QVERIFY2(std::fabs(r.points[0].meanSyncBeyondOverlap_s[0] - expect) < 1e-6 * expect,
                 qPrintable(
                     QString("%1 vs %2").arg(r.points[0].meanSyncBeyondOverlap_s[0]).arg(expect)));
    }

    /// Result::eventsSimulated counts flow starts and finishes: a foreground alone for
    /// warm-up + k iterations per combination starts and finishes one flow per iteration.
    void eventsSimulatedCountsFlowEvents() {
        Params p;
        p.backgroundJobs = {0};
        p.policies = {Policy::Static};
        p.startOffsets = 2;
        p.replayWarmupIterations = 1;
        p.replayIterations = 3;
        const Result r = simulate(p);
        const std::uint64_t combos = r.comboLabels.size();
        QCOMPARE(r.eventsSimulated, combos * 2 * 4 * 2);  // offsets x iterations x (start + finish)
        QCOMPARE(resultToJson(r)["events_simulated"].get<std::uint64_t>(), r.eventsSimulated);
        // With background jobs the count grows (their flows and the recording).
        p.backgroundJobs = {4};
        QVERIFY(simulate(p).eventsSimulated > r.eventsSimulated);
    }
};

TANDEM_TEST_APPLESS_MAIN(TestImports)
#include "tst_mlforml_imports.moc"
