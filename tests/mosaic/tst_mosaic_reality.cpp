// The measured Megatron-Core runs behind `reproduce reality`: the shipped run tables, the
// report's targets, filters and nearest runs, published layouts costed with the least
// recomputation that fits, the error splits, and the stored constants as the fit with its
// leave-one-group-out validation.
#include <QtTest>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mosaic/geometry.h"
#include "mosaic/layout_form.h"
#include "mosaic/megatron_args.h"
#include "mosaic/perf_model.h"
#include "mosaic/plan.h"
#include "mosaic/plan_report.h"
#include "mosaic/reality.h"
#include "mosaic/stack.h"
#include "test_main.h"

using namespace tandem::mosaic;

namespace {

/// Shipped measured layouts out of memory when costed without recomputation (46 while the
/// megatron-core memory kept FP32 main gradients and BF16 copies beside FP8 parameters).
constexpr int kLayoutsOomWithoutCkpt = 24;

}  // namespace

class TestMosaicReality : public QObject {
    Q_OBJECT
private slots:
    void measuredRunTables() {
        // Every model of the measured runs the cost model expresses gives its geometry (layers as
        // in its config; DeepSeek-V3's MTP module one more), the inexpressible families their
        // reason, any other name "unknown model".
        const std::pair<const char*, int> layers[] = {
            {"LLAMA3_8B", 32},       {"LLAMA3_70B", 80},           {"LLAMA3.1_405B", 126},
            {"DeepSeekV3", 62},      {"DeepSeekV3 (w/o MTP)", 61}, {"Qwen3_30B_a3B", 48},
            {"Qwen3_235B_a22B", 94}, {"GPT OSS 120B", 36}};
        for (const auto& [model, n] : layers) {
            Geometry g;
            std::string reason;
            QVERIFY2(measuredModelGeometry(model, g, reason), model);
            QCOMPARE(g.layers, n);
            QVERIFY(reason.empty());
        }
        Geometry g;
        std::string reason;
        QVERIFY(!measuredModelGeometry("DeepSeekV4-Flash", g, reason));
        QCOMPARE(reason.rfind("DeepSeek-V4: no published config", 0), size_t(0));
        QVERIFY(!measuredModelGeometry("LLAMA3_9B", g, reason));
        QCOMPARE(reason, std::string("unknown model \"LLAMA3_9B\""));
        // Every shipped run's system is costed on its built-in hardware.
        int h100 = 0, gb200 = 0;
        for (const RealityCase& c : realityCases(megatronCoreStack())) {
            QVERIFY2(c.reason.rfind("unknown system", 0) == std::string::npos, c.reason.c_str());
            if (!c.expressible) continue;
            if (c.run.system == "DGX-H100") {
                QCOMPARE(c.cluster.hardware.name, std::string("h100"));
                ++h100;
            } else {
                QCOMPARE(c.run.system, std::string("DGX-GB200"));
                QCOMPARE(c.cluster.hardware.name, std::string("gb200-nvl72"));
                ++gb200;
            }
        }
        QVERIFY(h100 > 0 && gb200 > 0);
    }

    void realityTargets() {
        const RealityReport r = reproduceReality();
        QCOMPARE(int(shippedMeasuredRuns().size()), 112);
        int notExpressible = 0;
        for (const auto& c : r.cases) notExpressible += c.expressible ? 0 : 1;
        QCOMPARE(notExpressible,
                 23);  // 21 Nemotron 3, 1 DeepSeek-V4 Flash, 1 flagged by the source
        QCOMPARE(r.summary.rows, 89);
        QCOMPARE(r.summary.feasible, 89);           // every measured layout fits its GPU
        QVERIFY2(r.summary.medianAbsError <= 0.08,  // issue 28: in-sample <= 8 %
                 QByteArray::number(r.summary.medianAbsError).constData());
        QVERIFY2(r.summary.shareWithin25 >= 0.80,
                 QByteArray::number(r.summary.shareWithin25).constData());
    }

    /// The filter of the reality check: values from the report's runs, the summary of the
    /// filtered rows. DGX-H100 Qwen3_30B_a3B is six CSV rows (26.06, 26.04.01, 26.04, 26.02.01,
    /// 26.02, 25.11; measured 8826, 8960, 8901, 9058, 5113, 5275 tokens/s/GPU).
    void realityFilterSummary() {
        const RealityReport r = reproduceReality();
        const RealityFilterValues v = realityFilterValues(r);
        QCOMPARE(v.systems, (std::vector<std::string>{"DGX-GB200", "DGX-H100"}));
        QCOMPARE(v.precisions, (std::vector<std::string>{"bf16", "fp8", "mxfp8", "nvfp4"}));
        QCOMPARE(v.stacks.size(), size_t(8));  // 25.11 ... 26.08
        QCOMPARE(v.stacks.front(), std::string("25.11"));
        QVERIFY(std::find(v.models.begin(), v.models.end(), "Qwen3_30B_a3B") != v.models.end());
        // An empty filter is the report's summary.
        const RealitySummary all = summarizeRealityFilter(r, {});
        QCOMPARE(all.rows, r.summary.rows);
        QCOMPARE(all.medianAbsError, r.summary.medianAbsError);
        RealityFilter f;
        f.system = "DGX-H100";
        f.model = "Qwen3_30B_a3B";
        const std::vector<RealityRow> rows = filterRealityRows(r, f);
        QCOMPARE(int(rows.size()), 6);
        std::vector<double> measured, absErr;
        for (const RealityRow& row : rows) {
            measured.push_back(r.cases[row.caseIndex].run.tokensPerSPerGpu);
            absErr.push_back(std::abs(
                row.eval.tokensPerSPerGpu / r.cases[row.caseIndex].run.tokensPerSPerGpu - 1));
        }
        QCOMPARE(measured, (std::vector<double>{8826, 8960, 8901, 9058, 5113, 5275}));
        const RealitySummary s = summarizeRealityFilter(r, f);
        QCOMPARE(s.rows, 6);
        std::sort(absErr.begin(), absErr.end());
        // Median of six: the mean of the third and fourth |error|.
        QVERIFY(std::abs(s.medianAbsError - 0.5 * (absErr[2] + absErr[3])) < 1e-12);
        int within = 0;
        for (double e : absErr) within += e <= 0.25 ? 1 : 0;
        QCOMPARE(s.within25, within);
        QVERIFY(std::abs(s.shareWithin25 - within / 6.0) < 1e-12);
        // Filters combine: fp8 H100 runs of the model are the same six; bf16 none.
        f.precision = "fp8";
        QCOMPARE(summarizeRealityFilter(r, f).rows, 6);
        f.precision = "bf16";
        QCOMPARE(summarizeRealityFilter(r, f).rows, 0);
        RealityFilter release;
        release.stack = "25.11";  // 15 CSV rows, 15 expressible (no Nemotron 3 in 25.11)
        QCOMPARE(summarizeRealityFilter(r, release).rows, 15);
    }

    /// The runs nearest to a plan: same system first, then |log2 GPUs ratio| + |log2 N_tot
    /// ratio| + 1 for another precision, ties in report (CSV) order.
    void realityNearestRuns() {
        const RealityReport r = reproduceReality();
        Geometry llama70, qwen30;
        std::string why;
        QVERIFY(measuredModelGeometry("LLAMA3_70B", llama70, why));
        QVERIFY(measuredModelGeometry("Qwen3_30B_a3B", qwen30, why));
        QCOMPARE(measuredSystemOfHardware("h100"), std::string("DGX-H100"));
        QCOMPARE(measuredSystemOfHardware("gb200-nvl72"), std::string("DGX-GB200"));
        QCOMPARE(measuredSystemOfHardware("p6-b200"), std::string());
        // Llama 3 70B on 64 H100 at fp8: four runs at distance 0 (26.04.01, 26.04, 26.02.01,
        // 26.02, then 25.11's FP8-CS row); the first three in CSV order are the nearest.
        RealityPlan p;
        p.hardware = "h100";
        p.system = "DGX-H100";
        p.gpus = 64;
        p.totalParams = llama70.nTot;
        p.precision = "fp8";
        std::vector<RealityNeighbour> n = nearestRealityRuns(r, p, 3);
        QCOMPARE(int(n.size()), 3);
        const char* releases[] = {"26.04.01", "26.04", "26.02.01"};
        for (int i = 0; i < 3; ++i) {
            const MeasuredRun& run = r.cases[r.rows[n[i].row].caseIndex].run;
            QCOMPARE(run.system, std::string("DGX-H100"));
            QCOMPARE(run.model, std::string("LLAMA3_70B"));
            QCOMPARE(run.gpus, 64);
            QCOMPARE(run.container, std::string(releases[i]));
            QVERIFY(n[i].sameSystem);
            QCOMPARE(n[i].distance, 0.0);
        }
        QCOMPARE(r.cases[r.rows[n[0].row].caseIndex].run.tokensPerSPerGpu, 1664.0);
        const RealityNeighbourSummary s = summarizeNeighbours(r, n);
        QCOMPARE(s.runs, 3);
        QCOMPARE(s.sameSystem, 3);
        double maxErr = 0;
        std::vector<double> errs;
        for (const RealityNeighbour& x : n) {
            maxErr = std::max(maxErr, std::abs(r.rows[x.row].error));
            errs.push_back(std::abs(r.rows[x.row].error));
        }
        std::sort(errs.begin(), errs.end());
        QCOMPARE(s.maxAbsError, maxErr);
        QCOMPARE(s.medianAbsError, errs[1]);
        // Qwen3 30B-A3B on 8 H100 at fp8: the H100 runs of the model have 16 GPUs (distance 1),
        // the GB200 ones 8 GPUs at mxfp8 (also distance 1): the system decides, H100 first.
        p.gpus = 8;
        p.totalParams = qwen30.nTot;
        n = nearestRealityRuns(r, p, 6);
        QCOMPARE(int(n.size()), 6);
        for (const RealityNeighbour& x : n) {
            const MeasuredRun& run = r.cases[r.rows[x.row].caseIndex].run;
            QCOMPARE(run.system, std::string("DGX-H100"));
            QCOMPARE(run.model, std::string("Qwen3_30B_a3B"));
            QCOMPARE(x.distance, 1.0);
        }
        // On hardware no run used, every run is "another system"; the distance alone ranks:
        // the GB200 Qwen3 30B-A3B runs on 8 GPUs at mxfp8 are at distance 0.
        p.hardware = "p6-b200";
        p.system = "";
        p.precision = "mxfp8";
        n = nearestRealityRuns(r, p, 2);
        QCOMPARE(int(n.size()), 2);
        for (const RealityNeighbour& x : n) {
            const MeasuredRun& run = r.cases[r.rows[x.row].caseIndex].run;
            QVERIFY(!x.sameSystem);
            QCOMPARE(run.system, std::string("DGX-GB200"));
            QCOMPARE(run.model, std::string("Qwen3_30B_a3B"));
            QCOMPARE(x.distance, 0.0);
        }
        p.gpus = 0;
        QVERIFY(nearestRealityRuns(r, p, 3).empty());
    }

    /// A published layout given without a recomputation key is costed with the least
    /// recomputation that fits (chooseLeastRecomputation, the rule choosePlans applies to the
    /// measured runs): every shipped run's layout fits and gets the run's mode. Costed with none,
    /// as `plan --layout` did before, kLayoutsOomWithoutCkpt of them are out of memory, and the
    /// remedy names the recomputation that fits.
    void publishedLayoutsWithoutCkptFit() {
        std::vector<RealityCase> cases = realityCases(megatronCoreStack());
        choosePlans(cases);
        int total = 0, oomWithNone = 0;
        for (const RealityCase& c : cases) {
            if (!c.expressible) continue;
            ++total;
            PlanRequest req;
            req.geometry = c.geometry;
            req.cluster = c.cluster;
            req.explainInfeasible = false;
            Plan p = c.plan;
            p.ckpt = Checkpointing::None;
            req.layouts = {p};
            const PlanReport asNone = runPlan(req);
            req.leastRecomputation = true;
            const PlanReport chosen = runPlan(req);
            const QByteArray where = QByteArray::number(c.run.line);
            QVERIFY2(chosen.layouts[0].eval.feasible, where.constData());
            QVERIFY(chosen.layouts[0].ckptChosen);
            QVERIFY2(chosen.layouts[0].plan.ckpt == c.plan.ckpt, where.constData());
            QVERIFY(!asNone.layouts[0].ckptChosen);
            const auto jc = planReportToJson(chosen).at("layouts").at(0);
            QCOMPARE(jc.at("ckpt").get<std::string>(), std::string(checkpointingName(c.plan.ckpt)));
            QVERIFY(jc.at("ckpt_chosen").get<bool>());
            QVERIFY(!jc.contains("fits_with"));
            if (asNone.layouts[0].eval.feasible) {
                QVERIFY2(c.plan.ckpt == Checkpointing::None, where.constData());
                continue;
            }
            ++oomWithNone;
            const PlanLayout& l = asNone.layouts[0];
            QVERIFY2(l.eval.rule == kDoesNotFitInMemory, l.eval.reason.c_str());
            QVERIFY(l.remedyChecked && l.fitsWith);
            QVERIFY2(l.fitsWith->ckpt == c.plan.ckpt, where.constData());
            QCOMPARE(remedyChange(l.plan, *l.fitsWith),
                     std::string("ckpt=") + checkpointingName(c.plan.ckpt));
            const auto jn = planReportToJson(asNone).at("layouts").at(0);
            QCOMPARE(jn.at("fits_with").at("change").get<std::string>(),
                     remedyChange(l.plan, *l.fitsWith));
            QCOMPARE(jn.at("fits_with").at("layout").get<std::string>(), layoutString(*l.fitsWith));
            QVERIFY(jn.at("fits_with").at("memory_GB").get<double>() <=
                    c.cluster.hardware.memoryBytes / 1e9);
        }
        QCOMPARE(total, 89);
        QCOMPARE(oomWithNone, kLayoutsOomWithoutCkpt);
    }

    /// The error split of `reproduce reality --json`: dense / MoE and micro-batch size beside
    /// system, precision and model, each with its median |error|, largest |error| and signed
    /// median, recomputed here from the rows.
    void realitySplits() {
        const RealityReport r = reproduceReality();
        const auto j = realityToJson(r);
        const auto& split = j.at("split");
        int dense = 0, moe = 0;
        std::map<std::string, std::vector<double>> byMbs;
        std::vector<double> denseErr;
        for (const RealityRow& row : r.rows) {
            const RealityCase& c = r.cases[row.caseIndex];
            (c.geometry.experts > 0 ? moe : dense) += 1;
            if (c.geometry.experts == 0) denseErr.push_back(row.error);
            byMbs[std::to_string(c.run.mbs)].push_back(row.error);
        }
        QCOMPARE(dense, 41);  // Llama 3 8B, 70B, 3.1 405B: 3 + 18 + 20
        QCOMPARE(moe, 48);
        QCOMPARE(split.at("dense_moe").at("dense").at("rows").get<int>(), dense);
        QCOMPARE(split.at("dense_moe").at("moe").at("rows").get<int>(), moe);
        std::sort(denseErr.begin(), denseErr.end());
        QCOMPARE(split.at("dense_moe").at("dense").at("median_error").get<double>(), denseErr[20]);
        double maxAbs = 0;
        for (double e : denseErr) maxAbs = std::max(maxAbs, std::abs(e));
        QCOMPARE(split.at("dense_moe").at("dense").at("max_abs_error").get<double>(), maxAbs);
        QCOMPARE(split.at("mbs").size(), byMbs.size());
        for (const auto& [mbs, errs] : byMbs)
            QCOMPARE(split.at("mbs").at(mbs).at("rows").get<int>(), int(errs.size()));
        QVERIFY(byMbs.count("1") && byMbs.count("2"));
    }

    /// Leave-out: the refit without a group excludes it (fitting the remaining cases alone gives
    /// the same constants, bit for bit; the group's runs take no part in its objective), and its
    /// predictions of the group differ from the in-sample ones. A small evaluation budget keeps
    /// the test short; the refits do not depend on the thread count.
    void leaveOutExcludesTheGroup() {
        constexpr int kEvaluations = 60;
        const LeaveOutReport lo = leaveOutErrors(kEvaluations, 2);
        QCOMPARE(lo.maxEvaluations, kEvaluations);
        std::vector<std::string> names;
        for (const LeaveOutGroup& g : lo.groups)
            names.push_back(std::string(enumName(leaveOutKindNames(), g.kind)) + ":" + g.name);
        QCOMPARE(names, (std::vector<std::string>{
                            "system:DGX-GB200", "system:DGX-H100", "model_family:DeepSeek-V3",
                            "model_family:Llama 3", "model_family:Qwen3", "model_family:gpt-oss"}));
        int systemRows = 0, familyRows = 0;
        for (const LeaveOutGroup& g : lo.groups)
            (g.kind == LeaveOutKind::System ? systemRows : familyRows) += int(g.rows.size());
        QCOMPARE(systemRows, 89);
        QCOMPARE(familyRows, 89);
        // DGX-H100 held back (26 runs): the fit of the other 63 runs alone.
        const LeaveOutGroup& h100 = lo.groups[1];
        QCOMPARE(int(h100.rows.size()), 26);
        std::vector<RealityCase> kept = realityCases(megatronCoreFitStart());
        choosePlans(kept);
        kept.erase(std::remove_if(kept.begin(), kept.end(),
                                  [](const RealityCase& c) { return c.run.system == "DGX-H100"; }),
                   kept.end());
        const StackFit subset = minimizeStack(
            megatronCoreFitStart(), stackFitParameters(),
            [&](const Stack& s) { return fitObjective(s, kept) + fitPrior(s); }, kEvaluations);
        QCOMPARE(h100.values, subset.values);
        QCOMPARE(h100.objective, subset.objective);
        // The all-run fit with the same budget differs: the group changed the constants.
        const StackFit all = fitStack(megatronCoreFitStart(), kEvaluations);
        QVERIFY(all.values != h100.values);
        // Predictions of the held-back runs under the refit, not the stored constants.
        int differ = 0;
        Stack refit = megatronCoreFitStart();
        for (size_t i = 0; i < stackFitParameters().size(); ++i)
            stackFitParameters()[i].ref(refit) = h100.values[i];
        for (size_t i = 0; i < h100.rows.size(); ++i) {
            const RealityRow& row = h100.rows[i];
            RealityCase c = lo.cases[row.caseIndex];
            QCOMPARE(c.run.system, std::string("DGX-H100"));
            QCOMPARE(h100.inSample[i].caseIndex, row.caseIndex);
            setCaseStack(c, refit);
            const PlanEval e = PerfModel(c.geometry, c.cluster).evaluate(c.plan);
            QCOMPARE(row.eval.tokensPerSPerGpu, e.tokensPerSPerGpu);
            differ += row.error != h100.inSample[i].error ? 1 : 0;
        }
        QCOMPARE(differ, 26);
        // One thread gives the same refits.
        const LeaveOutReport one = leaveOutErrors(kEvaluations, 1);
        for (size_t i = 0; i < lo.groups.size(); ++i)
            QCOMPARE(one.groups[i].values, lo.groups[i].values);
        QCOMPARE(one.medianAbsErrorFamilies, lo.medianAbsErrorFamilies);
        const auto j = leaveOutToJson(lo);
        QCOMPARE(j.at("groups").size(), size_t(6));
        QCOMPARE(j.at("groups").at(1).at("runs").size(), size_t(26));
        QCOMPARE(j.at("overall").at("system").at("median_abs_error").get<double>(),
                 lo.medianAbsErrorSystems);
    }

    /// The dense GEMMs run at the kernel tables' level (dense and FP8 factors 1, not fitted), so
    /// a refit without every dense run (Llama 3) no longer trades them against the MoE runs'
    /// terms: Llama 3 held out is predicted within 10 % (7.5 %; 38.4 % too slow when both
    /// factors were fitted). With the fit's prior (fitPrior) each system held out is predicted
    /// within 10 % (GB200 9.2 %, H100 4.9 %; 11.4 and 13.3 % without it), leave-one-system-out
    /// 6.4 % and leave-one-family-out 9.7 % overall: issue 28's overall targets
    /// (docs/MODEL-MOSAIC.md section 8).
    void leaveOutWithTheDenseGemmsAtTheTables() {
        const Stack s = megatronCoreStack();
        QCOMPARE(s.denseGemmMax, 1.0);
        QCOMPARE(s.precisionGemmFactor[int(Precision::Fp8)], 1.0);
        for (const StackFitParameter& p : stackFitParameters()) {
            QVERIFY(std::string(p.name) != "dense_gemm_max");
            QVERIFY(std::string(p.name) != "fp8_gemm_factor");
        }
        const Stack start = megatronCoreFitStart();
        QCOMPARE(start.precisionGemmFactor[int(Precision::Mxfp8)], 1.0);
        QCOMPARE(start.precisionGemmFactor[int(Precision::Nvfp4)], 1.0);
        const LeaveOutReport lo = leaveOutErrors(4000, 2);
        std::map<std::string, const LeaveOutGroup*> byName;
        for (const LeaveOutGroup& g : lo.groups) byName[g.name] = &g;
        const LeaveOutGroup& llama = *byName.at("Llama 3");
        QCOMPARE(int(llama.rows.size()), 41);
        QVERIFY2(llama.medianAbsError <= 0.10, QByteArray::number(llama.medianAbsError));
        QVERIFY2(std::abs(llama.medianError) <= 0.10, QByteArray::number(llama.medianError));
        for (const char* system : {"DGX-GB200", "DGX-H100"}) {
            const LeaveOutGroup& g = *byName.at(system);
            QVERIFY2(g.medianAbsError <= 0.10, system);
        }
        QVERIFY2(lo.medianAbsErrorFamilies <= 0.10, QByteArray::number(lo.medianAbsErrorFamilies));
        QVERIFY2(lo.medianAbsErrorSystems <= 0.10, QByteArray::number(lo.medianAbsErrorSystems));
    }

    /// The prior keeps a constant that one system barely identifies where the fit starts: the
    /// GB200 runs alone (every all-to-all inside the NVLink domain, TP at most 4) drive the TP
    /// and all-to-all overlaps to their bound 1 without it (0.998 and 1.0 measured before the
    /// prior), and the H100 runs (EP 16-32 across nodes) were predicted 10 % too fast; with it
    /// they stay near mid-range. Where the runs do identify a constant, the prior moves it
    /// little: the all-run fit with and without it agrees on the grouped GEMM ceiling within
    /// 0.02 (0.438 and 0.448).
    void priorHoldsWhatOneSystemBarelyIdentifies() {
        const auto onlyGb200 = [](const RealityCase& c) { return c.run.system == "DGX-H100"; };
        const StackFit held = fitStack(megatronCoreFitStart(), 4000, onlyGb200);
        QVERIFY2(held.stack.tpOverlap < 0.8, QByteArray::number(held.stack.tpOverlap));
        QVERIFY2(held.stack.a2aOverlap < 0.8, QByteArray::number(held.stack.a2aOverlap));
        std::vector<RealityCase> kept = realityCases(megatronCoreFitStart());
        choosePlans(kept);
        kept.erase(std::remove_if(kept.begin(), kept.end(), onlyGb200), kept.end());
        const auto plain = [&](const Stack& s) { return fitObjective(s, kept); };
        const StackFit unregularised =
            minimizeStack(megatronCoreFitStart(),
                          parametersDependedOn(megatronCoreFitStart(), plain), plain, 4000);
        QVERIFY2(unregularised.stack.tpOverlap > 0.95 || unregularised.stack.a2aOverlap > 0.95,
                 QByteArray::number(unregularised.stack.tpOverlap));
        QVERIFY(fitPrior(megatronCoreFitStart()) == 0.0);
        Stack moved = megatronCoreFitStart();
        moved.tpOverlap = 1.0;  // half the range from the start 0.5: 20 x 0.5^2
        QCOMPARE(fitPrior(moved), kFitPriorWeight * 0.25);
    }

    /// A refit without every run at a precision leaves that precision's GEMM factor where the
    /// fit starts (the tables' level, 1): with the GB200 runs (the only MXFP8 and NVFP4 ones)
    /// left out, no run depends on the MXFP8 and NVFP4 factors. Before, Nelder-Mead moved them
    /// along the flat direction (MXFP8 0.54) and GB200 held out was predicted with that.
    void leaveOutKeepsConstantsNoRunDependsOn() {
        const StackFit fit = fitStack(megatronCoreFitStart(), 4000, [](const RealityCase& c) {
            return c.run.system == "DGX-GB200";
        });
        QCOMPARE(fit.stack.precisionGemmFactor[int(Precision::Mxfp8)], 1.0);
        QCOMPARE(fit.stack.precisionGemmFactor[int(Precision::Nvfp4)], 1.0);
        QVERIFY(fit.stack.groupedGemmMax != megatronCoreFitStart().groupedGemmMax);
        QCOMPARE(int(fit.values.size()), int(stackFitParameters().size()));
        QCOMPARE(fit.values[3], 1.0);  // mxfp8_gemm_factor, in stackFitParameters() order
    }

    void storedConstantsAreTheFit() {
        // The stored megatron-core constants are the optimum of the fit from its fixed start.
        const StackFit fit = fitStack(megatronCoreFitStart());
        std::vector<RealityCase> cases = realityCases(megatronCoreStack());
        choosePlans(cases);
        const double stored =
            fitObjective(megatronCoreStack(), cases) + fitPrior(megatronCoreStack());
        QVERIFY2(stored <= fit.objective * 1.002, QByteArray::number(stored).constData());
        Stack s = megatronCoreStack();
        const auto& params = stackFitParameters();
        for (size_t i = 0; i < params.size(); ++i) {
            const double range = params[i].high - params[i].low;
            QVERIFY2(std::abs(params[i].ref(s) - fit.values[i]) <= 0.02 * range, params[i].name);
        }
    }
};

TANDEM_TEST_APPLESS_MAIN(TestMosaicReality)
#include "tst_mosaic_reality.moc"
