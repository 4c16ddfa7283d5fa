// Calibration to a user's runs (mosaic/calibrate.h) and stack files (mosaic/stack_file.h):
// the shipped runs of one system are hidden from the fit, three of them play the user's logs,
// and calibrating to those three must bring the rest of that system at least halfway to the
// in-sample error and never make it worse; a stack file round-trips and refuses bad keys.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>

#include "common/diagnostics.h"
#include "common/json_reader.h"
#include "mosaic/calibrate.h"
#include "mosaic/envelope.h"
#include "mosaic/reality.h"
#include "mosaic/stack.h"
#include "mosaic/stack_file.h"
#include "mosaic_fixtures.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::mosaic;

namespace {
/// The values of stackFitParameters() in `s`.
std::vector<double> constantsOf(Stack s) {
    std::vector<double> v;
    for (const StackFitParameter& p : stackFitParameters()) v.push_back(p.ref(s));
    return v;
}
}  // namespace

class TstMosaicCalibrate : public QObject {
    Q_OBJECT
private slots:
    void calibrationHalvesTheGap_data() {
        QTest::addColumn<QString>("system");
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<bool>("halfway");
        // H100 hidden is predicted within 3.8 % (in-sample 4.4 %) by the fit that never saw it,
        // and its three runs within 3.3 %: refitted to them, a run left out is predicted at
        // 6.7 %, worse, so the refit is declined and the rest stays at 3.8 %
        // (docs/MODEL-MOSAIC.md section 9). Not halfway: the three runs carry nothing the hidden
        // fit does not already predict. GB200 hidden: the rest 6.1 % (in-sample 7.7 %: with
        // the runs' recipes, hiding GB200 costs nothing), its three runs 19.7 % -> 6.8 %, a run
        // left out 12.1 %: adopted, and the rest stays at 6.1 %.
        QTest::newRow("DGX-H100") << QStringLiteral("DGX-H100") << QStringLiteral("h100") << false;
        QTest::newRow("DGX-GB200")
            << QStringLiteral("DGX-GB200") << QStringLiteral("gb200-nvl72") << true;
    }
    /// Issue 30: calibrating to three runs of a system the shipped fit never saw never makes the
    /// median error on that system's other runs worse, and where the three runs carry the
    /// system's error (GB200) it brings the rest at least halfway to the in-sample error (where
    /// the hidden fit is already at or below it, no worse than before).
    void calibrationHalvesTheGap() {
        QFETCH(QString, system);
        QFETCH(QString, hardware);
        QFETCH(bool, halfway);
        std::vector<RealityCase> cases = realityCases(megatronCoreFitStart());
        choosePlans(cases);
        std::vector<RealityCase> others, mine;
        for (const RealityCase& c : cases) {
            if (!c.expressible) continue;
            (c.run.system == system.toStdString() ? mine : others).push_back(c);
        }
        QVERIFY(mine.size() >= 12);
        // The stack as shipped had it never seen this system: the shipped fit (fitStack, with
        // its prior) of the other system's runs only.
        const std::string sys = system.toStdString();
        const Stack hidden = fitStack(megatronCoreFitStart(), 4000, [&](const RealityCase& c) {
                                 return c.run.system == sys;
                             }).stack;
        // Three of this system's runs, spread over the CSV, play the user's logs.
        const size_t n = mine.size();
        const std::vector<size_t> picks{n / 6, n / 2, 5 * n / 6};
        std::vector<RealityCase> user, rest;
        for (size_t i = 0; i < n; ++i)
            (std::find(picks.begin(), picks.end(), i) != picks.end() ? user : rest)
                .push_back(mine[i]);
        const double before = medianAbsError(caseErrors(hidden, rest));
        const double inSample = medianAbsError(caseErrors(megatronCoreStack(), rest));
        const CalibrationResult cal =
            calibrateStack(hidden, others, user, "my-cluster", hardware.toStdString(),
                           replacedRunsWeight(mine.size(), user.size()));
        const double after = medianAbsError(caseErrors(cal.stack, rest));
        qInfo(
            "%s: rest %zu runs, median |error| hidden %.1f %%, calibrated to 3 %.1f %%, "
            "in-sample %.1f %%; on the 3: %.1f %% -> %.1f %%, left out %.1f %%",
            qPrintable(system), rest.size(), 100 * before, 100 * after, 100 * inSample,
            100 * cal.summary.medianAbsErrorBefore, 100 * cal.summary.medianAbsErrorAfter,
            100 * cal.summary.leaveOneRunOut);
        QVERIFY2(after <= before, "calibration made the rest worse");
        // Adopted exactly where a run left out is predicted better than the base predicts them.
        QCOMPARE(cal.summary.adopted,
                 cal.summary.leaveOneRunOut < cal.summary.medianAbsErrorBefore);
        QCOMPARE(cal.summary.adopted, halfway);
        if (halfway)
            QVERIFY2(after <= before - 0.5 * std::max(0.0, before - inSample),
                     qPrintable(QStringLiteral("not halfway: %1 -> %2, in-sample %3")
                                    .arg(before)
                                    .arg(after)
                                    .arg(inSample)));
        QCOMPARE(cal.summary.runs, 3);
        // The refit minimises the weighted objective over every run, not the median of the
        // three: three runs already within a few percent (H100: 4.7 % -> 3.9 % here, 3.3 % -> 3.6 %
        // before the casts were counted) may move by a fraction of a point.
        QVERIFY(cal.summary.medianAbsErrorAfter <= cal.summary.medianAbsErrorBefore + 0.01);
        QVERIFY(std::isfinite(cal.summary.leaveOneRunOut));
        QCOMPARE(cal.stack.name, std::string("my-cluster"));
        QCOMPARE(cal.stack.calibration.base, std::string("megatron-core"));
        const QString sentence = QString::fromStdString(cal.stack.description);
        if (cal.summary.adopted) {
            QVERIFY(sentence.startsWith(
                QStringLiteral("calibrated to 3 runs of yours on %1").arg(hardware)));
            return;
        }
        // Declined: the hidden fit's constants, the errors before and after the same, and the
        // sentence says why; written and read back, the file says the same.
        Stack kept = cal.stack, hiddenCopy = hidden;
        for (const StackFitParameter& p : stackFitParameters())
            QCOMPARE(p.ref(kept), p.ref(hiddenCopy));
        QCOMPARE(cal.summary.medianAbsErrorAfter, cal.summary.medianAbsErrorBefore);
        QVERIFY2(sentence.startsWith(QStringLiteral("checked against 3 runs of yours on %1: "
                                                    "megatron-core's constants kept")
                                         .arg(hardware)),
                 qPrintable(sentence));
        Diagnostics d;
        const nlohmann::json j = nlohmann::json(stackToJson(cal.stack));
        QCOMPARE(j["calibration"]["adopted"].get<bool>(), false);
        JsonReader r(j, "$", d);
        const Stack back = readStackJson(r);
        QVERIFY2(d.ok(), d.str().c_str());
        QVERIFY(!back.calibration.adopted);
        QCOMPARE(back.description, cal.stack.description);
    }

    /// Two runs cannot pull the stack far from the other hardware's runs: two H100 runs of a
    /// cluster twice as slow take the place of the 26 shipped H100 runs (weighing 13 each);
    /// their error falls by more than 15 % (98.3 % -> 75.4 %: one of the two, a Qwen3 30B-A3B run
    /// whose recipe does not overlap its all-to-all, leaves the all-to-all overlap nothing to
    /// absorb; 102.4 % -> 57.4 % before the runs' recipes) while the GB200 runs, fitted with
    /// them, stay within 6 points of the shipped fit's error (7.6 % -> 11.0 %: the constants are
    /// shared). The dense
    /// GEMM level is the kernel tables', not a constant (five-fold when the dense and FP8
    /// factors were fitted too): a cluster slower on its dense GEMMs is absorbed only through
    /// the attention, overlap and MoE constants.
    void twoRunsCannotPullTheRestFar() {
        std::vector<RealityCase> cases = realityCases(megatronCoreStack());
        choosePlans(cases);
        std::vector<RealityCase> others, two;
        for (RealityCase& c : cases) {
            if (!c.expressible) continue;
            if (c.run.system != "DGX-H100")
                others.push_back(c);  // the user's hardware: their runs stand in for the shipped
            else if (two.size() < 2) {
                two.push_back(c);
                two.back().run.tokensPerSPerGpu *= 0.5;  // a cluster twice as slow as measured
            }
        }
        const Stack base = megatronCoreStack();
        size_t h100 = 0;
        for (const RealityCase& c : cases) h100 += c.expressible && c.run.system == "DGX-H100";
        const CalibrationResult cal =
            calibrateStack(base, others, two, "slow", "h100", replacedRunsWeight(h100, two.size()));
        const double restBefore = medianAbsError(caseErrors(base, others));
        const double restAfter = medianAbsError(caseErrors(cal.stack, others));
        qInfo("GB200 runs %.1f %% -> %.1f %%; the two runs %.1f %% -> %.1f %%", 100 * restBefore,
              100 * restAfter, 100 * cal.summary.medianAbsErrorBefore,
              100 * cal.summary.medianAbsErrorAfter);
        QVERIFY2(restAfter <= restBefore + 0.06, qPrintable(QString::number(restAfter)));
        QVERIFY(cal.summary.medianAbsErrorAfter < 0.85 * cal.summary.medianAbsErrorBefore);
    }

    /// Calibrating to one dense FP8 run refits only the constants that run depends on: the MoE
    /// (grouped GEMM, expert fixed time, all-to-all overlap) and MXFP8 / NVFP4 constants keep
    /// the base's values, and an MoE plan on other hardware keeps its tokens/s but for the
    /// dense constants' share. Before, the one H100 run (with the shipped H100 runs it replaces
    /// taken out) let the GB200 runs alone move them: a2a_overlap 0.668 -> 1, expert_fixed_us
    /// 23.8 -> 10.3, NVFP4 0.78 -> 0.74.
    void oneDenseRunKeepsConstantsItCannotMeasure() {
        const Stack base = megatronCoreStack();
        std::vector<RealityCase> cases = realityCases(base);
        choosePlans(cases);
        std::vector<RealityCase> user;
        const RealityCase* moe = nullptr;
        for (const RealityCase& c : cases) {
            if (!c.expressible) continue;
            if (user.empty() && c.run.system == "DGX-H100" && c.run.model == "LLAMA3_70B" &&
                c.cluster.precision == Precision::Fp8)
                user.push_back(c);
            if (!moe && c.run.system == "DGX-GB200" && c.run.model == "Qwen3_30B_a3B") moe = &c;
        }
        QCOMPARE(int(user.size()), 1);
        QVERIFY(moe);
        const CalibrationResult cal = calibrateToRuns(base, user, "mine");
        const std::vector<std::string> kept = {"grouped_gemm_max", "expert_fixed_us",
                                               "mxfp8_gemm_factor", "nvfp4_gemm_factor",
                                               "a2a_overlap"};
        QCOMPARE(cal.summary.kept, kept);
        QCOMPARE(cal.summary.refitted,
                 (std::vector<std::string>{"attention_efficiency", "tp_overlap"}));
        Stack b = base, a = cal.stack;
        for (const StackFitParameter& p : stackFitParameters()) {
            const bool isKept = std::find(kept.begin(), kept.end(), p.name) != kept.end();
            qInfo("%s: %.4f -> %.4f", p.name, p.ref(b), p.ref(a));
            if (isKept) QCOMPARE(p.ref(a), p.ref(b));
        }
        QVERIFY(a.attentionEfficiency != b.attentionEfficiency || a.tpOverlap != b.tpOverlap);
        const double moeBefore = caseErrors(base, {*moe}).front();
        const double moeAfter = caseErrors(cal.stack, {*moe}).front();
        qInfo("Qwen3-30B-A3B on GB200: error %.1f %% -> %.1f %%; the run %.1f %% -> %.1f %%",
              100 * moeBefore, 100 * moeAfter, 100 * cal.errorsBefore.front(),
              100 * cal.errorsAfter.front());
        QVERIFY2(std::abs((1 + moeAfter) / (1 + moeBefore) - 1) < 0.05,
                 qPrintable(QString::number(moeAfter)));
        QVERIFY(std::abs(cal.errorsAfter.front()) <= std::abs(cal.errorsBefore.front()));
        QVERIFY2(QString::fromStdString(cal.stack.description)
                     .contains(QStringLiteral("refitted attention_efficiency and tp_overlap; "
                                              "kept at the base's values")),
                 cal.stack.description.c_str());
    }

    /// A stack file written and read back gives the same constants, name and sentence.
    void stackFileRoundTrip() {
        Stack s = megatronCoreStack();
        s.name = "my-cluster";
        stackFitParameters()[0].ref(s) = 0.83;
        s.calibration =
            StackCalibration{3, "megatron-core", "h100", 0.182, 0.061, 0.09, {}, {}, true, ""};
        const nlohmann::ordered_json j = stackToJson(s);
        QCOMPARE(j["base"].get<std::string>(), std::string("megatron-core"));
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("my-cluster.json")).toStdString();
        std::ofstream(path) << j.dump(2);
        Diagnostics d;
        const Stack back = loadStack(path, d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(back.name, std::string("my-cluster"));
        QCOMPARE(constantsOf(back), constantsOf(s));
        QCOMPARE(back.calibration.runs, 3);
        QCOMPARE(back.calibration.medianAbsErrorAfter, 0.061);
        QCOMPARE(back.description, std::string("calibrated to 3 runs of yours on h100 (median "
                                               "error before 18.2 %, after 6.1 %; 9.0 % for a "
                                               "run left out)"));
        QCOMPARE(back.interleaving, s.interleaving);  // the base's rules
        Diagnostics d2;
        QCOMPARE(loadStack("megatron-core", d2).name, std::string("megatron-core"));
        QVERIFY(d2.ok());
    }

    /// A stack file without a calibration block keeps its base through a read and a write: the
    /// file written back names megatron-core as its base (not its own name, which is no
    /// built-in stack and would be refused when read again).
    void uncalibratedStackFileKeepsItsBase() {
        Stack s = megatronCoreStack();
        s.name = "tuned-by-hand";
        stackFitParameters()[0].ref(s) = 0.77;
        nlohmann::ordered_json j;
        j["tandem_stack"] = 1;
        j["name"] = "tuned-by-hand";
        j["base"] = "megatron-core";
        j["constants"][stackFitParameters()[0].name] = 0.77;
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("tuned.json")).toStdString();
        std::ofstream(path) << j.dump(2);
        Diagnostics d;
        const Stack back = loadStack(path, d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(back.calibration.runs, 0);
        QCOMPARE(back.calibration.base, std::string("megatron-core"));
        const nlohmann::ordered_json again = stackToJson(back);
        QCOMPARE(again["base"].get<std::string>(), std::string("megatron-core"));
        QVERIFY(!again.contains("calibration"));
        const std::string path2 = dir.filePath(QStringLiteral("again.json")).toStdString();
        std::ofstream(path2) << again.dump(2);
        Diagnostics d2;
        const Stack twice = loadStack(path2, d2);
        QVERIFY2(d2.ok(), d2.str().c_str());
        QCOMPARE(constantsOf(twice), constantsOf(s));
        QCOMPARE(twice.name, std::string("tuned-by-hand"));
    }

    /// A calibrated stack in a scenario's mosaic section is written whole and read back the same
    /// (constants, name, base and calibration), so saving never drops it; a built-in stack keeps
    /// its name only.
    void scenarioKeepsTheCalibratedStack() {
        Envelope e;
        Stack s = megatronCoreStack();
        s.name = "my-cluster";
        stackFitParameters()[1].ref(s) = 0.41;
        s.calibration =
            StackCalibration{3, "megatron-core", "h100", 0.182, 0.061, 0.09, {}, {}, true, ""};
        e.stack = s;
        const nlohmann::ordered_json j = writeEnvelope(e);
        QVERIFY(j.contains("stack") && j["stack"].is_object());
        Diagnostics d;
        const Envelope back = test::envelopeRoundTrip(e, d);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(back.stack.name, std::string("my-cluster"));
        QCOMPARE(constantsOf(back.stack), constantsOf(s));
        QCOMPARE(back.stack.calibration.runs, 3);
        QCOMPARE(back.stack.calibration.base, std::string("megatron-core"));
        QCOMPARE(back.stack.calibration.leaveOneRunOut, 0.09);
        QCOMPARE(writeEnvelope(back).dump(), j.dump());
        e.stack = megatronCoreStack();
        QCOMPARE(writeEnvelope(e)["stack"].get<std::string>(), std::string("megatron-core"));
    }

    void stackFileRefusals_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("constant out of range")
            << R"({"tandem_stack":1,"name":"x","base":"megatron-core","constants":{"grouped_gemm_max":7}})"
            << "$.constants.grouped_gemm_max";
        QTest::newRow("unknown constant")
            << R"({"tandem_stack":1,"name":"x","base":"megatron-core","constants":{"dense_gem_max":0.5}})"
            << "$.constants.dense_gem_max";
        // A retired constant (read with a warning, retiredConstantIsReadWithAWarning) must still
        // be a number.
        QTest::newRow("retired constant not a number")
            << R"({"tandem_stack":1,"name":"x","base":"megatron-core","constants":{"dense_gemm_max":"high"}})"
            << "$.constants.dense_gemm_max";
        QTest::newRow("unknown base") << R"({"tandem_stack":1,"name":"x","base":"deepspeed"})"
                                      << "$.base";
        QTest::newRow("built-in name")
            << R"({"tandem_stack":1,"name":"megatron-core","base":"megatron-core"})"
            << "built-in stack";
        QTest::newRow("no name") << R"({"tandem_stack":1,"base":"megatron-core"})"
                                 << "$.name: is required";
        QTest::newRow("later version") << R"({"tandem_stack":2,"name":"x","base":"megatron-core"})"
                                       << "newer than";
        QTest::newRow("no version") << R"({"name":"x","base":"megatron-core"})"
                                    << "$.tandem_stack: is required";
        QTest::newRow("declined without its error")
            << R"({"tandem_stack":1,"name":"x","base":"megatron-core","constants":{},)"
               R"("calibration":{"runs":3,"median_abs_error_before":0.05,)"
               R"("median_abs_error_after":0.05,"adopted":false}})"
            << "$.calibration.adopted: false needs leave_one_run_out";
    }
    /// Every bad key is refused with its path and reason; the base stack is returned then.
    void stackFileRefusals() {
        QFETCH(QString, json);
        QFETCH(QString, error);
        Diagnostics d;
        const nlohmann::json j = parseJsonText(json.toStdString(), d);
        QVERIFY(d.ok());
        JsonReader r(j, "$", d);
        const Stack s = readStackJson(r);
        QVERIFY2(!d.ok(), "accepted");
        QVERIFY2(QString::fromStdString(d.str()).contains(error), d.str().c_str());
        QCOMPARE(s.calibration.runs, 0);
        QVERIFY(s.name != "x");
    }

    void retiredConstantIsReadWithAWarning_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("level");
        QTest::newRow("dense_gemm_max") << "dense_gemm_max"
                                        << "the dense GEMM level";
        QTest::newRow("fp8_gemm_factor") << "fp8_gemm_factor"
                                         << "the FP8 GEMM level";
    }
    /// A file `tandem-cli calibrate` wrote before the dense and FP8 GEMM factors became the
    /// kernel tables' level (they are no longer constants of a stack) is still read: its other
    /// constants and calibration as written, the retired key's value ignored (the stack's GEMM
    /// level stays the tables'), and one warning naming the key, why, and what was done.
    void retiredConstantIsReadWithAWarning() {
        QFETCH(QString, key);
        QFETCH(QString, level);
        nlohmann::json j = {{"tandem_stack", 1},
                            {"name", "old-cluster"},
                            {"base", "megatron-core"},
                            {"constants", {{"grouped_gemm_max", 0.41}, {"tp_overlap", 0.55}}},
                            {"calibration",
                             {{"runs", 3},
                              {"hardware", "h100"},
                              {"median_abs_error_before", 0.2},
                              {"median_abs_error_after", 0.05}}}};
        j["constants"][key.toStdString()] = 0.87;
        Diagnostics d;
        JsonReader r(j, "$", d);
        std::vector<std::string> notes;
        const Stack s = readStackJson(r, &notes);
        QVERIFY2(d.ok(), d.str().c_str());
        QCOMPARE(s.name, std::string("old-cluster"));
        QCOMPARE(s.groupedGemmMax, 0.41);
        QCOMPARE(s.tpOverlap, 0.55);
        QCOMPARE(s.calibration.runs, 3);
        const Stack base = megatronCoreStack();
        QCOMPARE(s.denseGemmMax, base.denseGemmMax);
        QCOMPARE(s.precisionGemmFactor[int(Precision::Fp8)],
                 base.precisionGemmFactor[int(Precision::Fp8)]);
        QCOMPARE(int(notes.size()), 1);
        const QString n = QString::fromStdString(notes[0]);
        QVERIFY2(n.startsWith("$.constants." + key + ": is no longer a constant of a stack: " +
                              level + " now comes from the kernel tables"),
                 qPrintable(n));
        QVERIFY2(n.contains("the file's value 0.87 was ignored"), qPrintable(n));
        // Written back, the file holds only the constants a stack has.
        const nlohmann::ordered_json back = stackToJson(s);
        QVERIFY(!back["constants"].contains(key.toStdString()));
        QCOMPARE(back["constants"]["grouped_gemm_max"].get<double>(), 0.41);
        // Without the key: no warning.
        Diagnostics d2;
        const nlohmann::json j2 = parseJsonText(
            R"({"tandem_stack":1,"name":"new","base":"megatron-core","constants":{}})", d2);
        JsonReader r2(j2, "$", d2);
        std::vector<std::string> none;
        readStackJson(r2, &none);
        QVERIFY(d2.ok() && none.empty());
    }
};

TANDEM_TEST_APPLESS_MAIN(TstMosaicCalibrate)
#include "tst_mosaic_calibrate.moc"
