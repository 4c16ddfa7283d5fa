// Training logs (io/train_log.h) on real public excerpts (tests/data/trainlogs/PROVENANCE.md):
// Megatron-LM 2023 (arguments block, untimestamped iteration lines, memory report, skipped
// iterations) and Megatron-Core 2024 (timestamped lines with TFLOP/s/GPU), NeMo 2 step lines and
// the NeMo 1 progress bar, torchtitan (rank-prefixed, every step and every 10 steps, several
// ranks interleaved), modded-nanogpt. Values are the excerpts' numbers, checked by hand; every
// refusal names its line.
#include <QtTest>
#include <cmath>
#include <fstream>
#include <sstream>

#include "io/input_kind.h"
#include "io/text_file.h"
#include "io/train_log.h"
#include "test_main.h"

using namespace tandem;
using namespace tandem::io;

namespace {

std::string data(const std::string& name) {
    return std::string(TANDEM_TEST_DATA) + "/trainlogs/" + name;
}

std::string readData(const std::string& name) {
    std::ifstream in(data(name), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool hasIssue(const Diagnostics& d, const std::string& path, const std::string& fragment) {
    for (const auto& i : d.items())
        if (i.path == path && i.message.find(fragment) != std::string::npos) return true;
    return false;
}

bool near(double a, double b, double tol = 1e-9) {
    return std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
}

/// `text` with the first occurrence of `from` replaced by `to` (which must exist).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto p = text.find(from);
    if (p != std::string::npos) text.replace(p, from.size(), to);
    return text;
}

/// 1-based line of the first line holding `fragment`.
std::size_t lineOf(const std::string& text, const std::string& fragment) {
    const auto lines = splitLines(text);
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].find(fragment) != std::string::npos) return i + 1;
    return 0;
}

}  // namespace

class TstTrainLogs : public QObject {
    Q_OBJECT
private slots:
    void detectedByContent() {
        for (const char* f :
             {"megatron-lm-2023-gpt345m-4xa800.log", "megatron-core-2024-mixtral-16xh100.log",
              "megatron-llm-2023-cut.log", "nemo2-bionemo-2025.log", "nemo1-progress-bar-2023.log",
              "torchtitan-2026-rank0.log", "torchtitan-2025-every10.log",
              "torchtitan-2026-all-ranks.log", "modded-nanogpt-071825-8xh100.txt"})
            QVERIFY2(detectInputKind(readData(f)) == InputKind::TrainLog, f);
        QCOMPARE(inputKindName(InputKind::TrainLog), std::string("train_log"));
        QVERIFY(*trainLogFormat(splitLines(readData("nemo1-progress-bar-2023.log"))) ==
                TrainLogFormat::Nemo);
        QVERIFY(*trainLogFormat(splitLines(readData("modded-nanogpt-071825-8xh100.txt"))) ==
                TrainLogFormat::ModdedNanoGpt);
        // A loss log stays a loss log.
        QVERIFY(detectInputKind("iter 0: loss 10.9\niter 1: loss 10.1\n") == InputKind::LossLog);
    }

    void megatronArgumentsBlockAndIterations() {
        Diagnostics d("m");
        const auto log = loadTrainLogFile(data("megatron-lm-2023-gpt345m-4xa800.log"), d);
        QVERIFY2(log, d.str().c_str());
        QVERIFY(log->format == TrainLogFormat::Megatron);
        const TrainLogLayout& L = log->layout;
        QCOMPARE(L.argumentsLine, std::size_t(3));
        QCOMPARE(L.worldSize, 4);
        QCOMPARE(L.tp, 1);
        QCOMPARE(L.pp, 1);
        QCOMPARE(L.cp, 0);  // not in this 2023 release's block
        QCOMPARE(L.microBatch, 1);
        QCOMPARE(L.globalBatch, 8);
        QCOMPARE(L.seqLength, 1024);
        QCOMPARE(L.layers, 24);
        QCOMPARE(L.hidden, 1024);
        QCOMPARE(L.ffnHidden, 4096);
        QCOMPARE(L.heads, 16);
        QCOMPARE(L.kvChannels, 64);
        QCOMPARE(L.experts, 0);          // None
        QCOMPARE(L.vocab, 50257);        // `> padded vocab (size: 50257) ...`
        QCOMPARE(L.paddedVocab, 50304);  // `... (new size: 50304)`
        QCOMPARE(L.precision, std::string("fp16"));
        QVERIFY(!L.swiglu && !L.sequenceParallel && !L.distributedOptimizer);
        QVERIFY(L.recomputeGranularity.empty());
        QVERIFY(L.missingForPrediction().empty());

        QCOMPARE(log->steps.size(), std::size_t(13));
        const TrainStep& first = log->steps.front();
        QCOMPARE(first.line, std::size_t(43));
        QCOMPARE(first.step, 100LL);
        QCOMPARE(first.totalSteps, 5000LL);
        QVERIFY(near(first.iteration_s, 0.2968));
        QVERIFY(near(first.loss, 9.729805));
        QCOMPARE(first.globalBatch, 8LL);
        QCOMPARE(first.skipped, 16LL);
        QVERIFY(std::isnan(first.tflopsPerGpu));  // this release prints no throughput
        QCOMPARE(log->steps.back().step, 5000LL);
        QVERIFY(near(log->steps.back().loss, 0.1350079));

        // Steady state: 12 records after the first; sorted times (ms) 283.9 286.2 287.0 288.0
        // 289.2 290.9 290.9 291.7 292.5 318.3 373.8 531.2.
        const auto& st = log->steady;
        QCOMPARE(st.warmupRecords, 1);
        QCOMPARE(st.records, 12);
        QCOMPARE(st.firstStep, 1000LL);
        QCOMPARE(st.lastStep, 5000LL);
        QVERIFY(near(st.median_s, 0.2909));
        QVERIFY(near(st.q25_s, 0.28775));
        QVERIFY(near(st.q75_s, 0.29895));
        QVERIFY(near(st.min_s, 0.2839));
        QVERIFY(near(st.max_s, 0.5312));
        // Halves: median(283.9 291.7 292.5 373.8 531.2 290.9) = 292.1, median(289.2 286.2
        // 290.9 318.3 288.0 287.0) = 288.6.
        QVERIFY(near(st.drift, 288.6 / 292.1 - 1.0));
        QVERIFY(!st.drifts);
        QVERIFY(near(log->tokensPerS, 8.0 * 1024.0 / 0.2909));
        QVERIFY(near(log->tokensPerSPerGpu, 8.0 * 1024.0 / 0.2909 / 4.0));
        QVERIFY(near(log->peakMemoryBytes, 8696.8515625 * 1024 * 1024));
        QCOMPARE(log->memoryLine, std::size_t(44));
        QCOMPARE(log->skippedIterations, 16LL);
        QCOMPARE(log->notes.size(), std::size_t(1));
        QVERIFY(log->notes[0].find("16 iteration(s) skipped") != std::string::npos);
        QVERIFY(log->notes[0].find("line(s) 43") != std::string::npos);
        QCOMPARE(log->validation.size(), std::size_t(5));
        QCOMPARE(log->validation[0].step, 1000LL);
        QVERIFY(near(log->validation[0].loss, 6.439325));
    }

    void megatronCoreTimestampedThroughput() {
        Diagnostics d("m");
        const auto log = loadTrainLogFile(data("megatron-core-2024-mixtral-16xh100.log"), d);
        QVERIFY2(log, d.str().c_str());
        QCOMPARE(log->steps.size(), std::size_t(3));
        const TrainStep& s = log->steps[0];
        QCOMPARE(s.step, 71LL);
        QCOMPARE(s.totalSteps, 100LL);
        QVERIFY(near(s.iteration_s, 5.3616));
        QVERIFY(near(s.tflopsPerGpu, 243.6));
        QVERIFY(near(s.loss, 1.818812));
        QCOMPARE(s.globalBatch, 128LL);
        QCOMPARE(log->steady.records, 2);
        QVERIFY(near(log->steady.median_s, (5.4707 + 5.8299) / 2));
        QVERIFY(near(log->tflopsPerGpu, (238.7 + 224.0) / 2));
        const TrainLogLayout& L = log->layout;
        QCOMPARE(L.ep, 8);
        QCOMPARE(L.hidden, 4096);
        QCOMPARE(L.ffnHidden, 14336);
        QCOMPARE(L.globalBatch, 128);
        QVERIFY(L.precision.empty());  // fp16 False, fp8 None, no bf16 line in the excerpt
        const auto missing = L.missingForPrediction();
        QVERIFY(std::find(missing.begin(), missing.end(), "num_layers") != missing.end());
        QVERIFY(std::find(missing.begin(), missing.end(), "tensor_model_parallel_size") !=
                missing.end());
        QVERIFY(std::find(missing.begin(), missing.end(), "hidden_size") == missing.end());
        QVERIFY(std::isnan(log->tokensPerS));  // no seq_length in the excerpt
    }

    void megatronTruncatedLine() {
        Diagnostics d("m");
        QVERIFY(!loadTrainLogFile(data("megatron-llm-2023-cut.log"), d));
        QVERIFY2(hasIssue(d, "line 5", "truncated iteration line"), d.str().c_str());
        QVERIFY(hasIssue(d, "line 5", "'lm loss: 2'"));
    }

    void megatronGarbledField() {
        const std::string text = replaced(readData("megatron-lm-2023-gpt345m-4xa800.log"),
                                          "elapsed time per iteration (ms): 283.9",
                                          "elapsed time per iteration (ms): 28#.9");
        Diagnostics d("m");
        QVERIFY(!parseTrainLog(text, d));
        const std::size_t ln = lineOf(text, "28#.9");
        QCOMPARE(ln, std::size_t(46));
        QVERIFY2(hasIssue(d, linePath(ln), "is not a number: '28#.9'"), d.str().c_str());
    }

    void megatronArgumentsBlockWithoutEnd() {
        // The log cut inside its arguments block (the first 20 lines).
        const auto lines = splitLines(readData("megatron-lm-2023-gpt345m-4xa800.log"));
        std::string text;
        for (std::size_t i = 0; i < 20; ++i) text += lines[i] + "\n";
        Diagnostics d("m");
        QVERIFY(!parseTrainLog(text, d));
        QVERIFY2(hasIssue(d, "line 3", "no end line"), d.str().c_str());
    }

    void nemoStepLines() {
        Diagnostics d("n");
        const auto log = loadTrainLogFile(data("nemo2-bionemo-2025.log"), d);
        QVERIFY2(log, d.str().c_str());
        QVERIFY(log->format == TrainLogFormat::Nemo);
        QCOMPARE(log->steps.size(), std::size_t(6));
        QCOMPARE(log->steps[0].step, 120LL);
        QCOMPARE(log->steps[0].totalSteps, 149LL);
        QVERIFY(near(log->steps[0].iteration_s, 0.03146));
        QVERIFY(near(log->steps[0].loss, 1.233));
        QCOMPARE(log->steps[0].globalBatch, 1LL);
        // Steady: 0.03163 0.03215 0.03157 0.0317 0.03147 -> median 0.03163.
        QCOMPARE(log->steady.records, 5);
        QVERIFY(near(log->steady.median_s, 0.03163));
        QVERIFY(near(log->steady.min_s, 0.03147));
        QVERIFY(near(log->steady.max_s, 0.03215));
        QVERIFY(log->notes.empty());
    }

    void nemoTruncatedLine() {
        Diagnostics d("n");
        QVERIFY(!loadTrainLogFile(data("nemo2-bionemo-2025-cut.log"), d));
        QVERIFY2(hasIssue(d, "line 7", "truncated or garbled field 'train_step_timing in s:'"),
                 d.str().c_str());
    }

    void nemoProgressBarOneRecordIsOnlyWarmup() {
        Diagnostics d("n");
        QVERIFY(!loadTrainLogFile(data("nemo1-progress-bar-2023.log"), d));
        // global_step=794.0 of the bar, 41.36 s/it: one record, which is warm-up.
        QVERIFY2(hasIssue(d, "line 1",
                          "no steady-state iteration: the 1 record(s) (steps 794 to "
                          "794)"),
                 d.str().c_str());
        // The bar redrawn at the same step (a refresh) is one record, not interleaved output.
        const std::string bar = readData("nemo1-progress-bar-2023.log");
        Diagnostics d2("n");
        QVERIFY(!parseTrainLog(bar + bar, d2));
        QVERIFY2(hasIssue(d2, "line 2", "no steady-state iteration: the 1 record(s)"),
                 d2.str().c_str());
    }

    void nemoNanLoss() {
        const std::string real = readData("nemo2-bionemo-2025.log");
        // One NaN among finite losses: measured, with a note naming the line.
        Diagnostics d1("n");
        const auto one = parseTrainLog(
            replaced(real, "reduced_train_loss: 1.333", "reduced_train_loss: nan"), d1);
        QVERIFY2(one, d1.str().c_str());
        QCOMPARE(one->nanLossLines, std::vector<std::size_t>{3});
        QCOMPARE(one->notes.size(), std::size_t(1));
        QVERIFY(one->notes[0].find("NaN loss logged at line(s) 3") != std::string::npos);
        QVERIFY(near(one->steady.median_s, 0.03163));
        // Every loss NaN: refused at the first record.
        std::string allNan;
        for (const auto& l : splitLines(real)) {
            const auto k = l.find("reduced_train_loss: ");
            const auto e = l.find(" |", k);
            allNan += l.substr(0, k) + "reduced_train_loss: nan" + l.substr(e) + "\n";
        }
        Diagnostics d2("n");
        QVERIFY(!parseTrainLog(allNan, d2));
        QVERIFY2(hasIssue(d2, "line 1", "every logged loss is NaN (6 records, lines 1 to 6)"),
                 d2.str().c_str());
    }

    void driftingTimes() {
        // NeMo step lines whose times rise by 20 % halfway: steady halves 1.0 s and 1.2 s.
        std::string text;
        for (int i = 1; i <= 14; ++i)
            text += "Training epoch 0, iteration " + std::to_string(i) +
                    "/14 | reduced_train_loss: 2.5 | train_step_timing in s: " +
                    (i <= 10 ? "1.0" : "1.2") + "\n";
        // Steps 1..5 are warm-up; steady 6..14: 1.0 x5, 1.2 x4; halves of 4: (1.0) and (1.2).
        Diagnostics d("n");
        const auto log = parseTrainLog(text, d);
        QVERIFY2(log, d.str().c_str());
        QCOMPARE(log->steady.warmupRecords, 5);
        QCOMPARE(log->steady.records, 9);
        QVERIFY(near(log->steady.drift, 0.2));
        QVERIFY(log->steady.drifts);
        QCOMPARE(log->notes.size(), std::size_t(1));
        QVERIFY2(log->notes[0].find("iteration times drift") != std::string::npos &&
                     log->notes[0].find("20.0 % above") != std::string::npos,
                 log->notes[0].c_str());
    }

    void torchtitanEveryStep() {
        Diagnostics d("t");
        const auto log = loadTrainLogFile(data("torchtitan-2026-rank0.log"), d);
        QVERIFY2(log, d.str().c_str());
        QVERIFY(log->format == TrainLogFormat::Torchtitan);
        QCOMPARE(log->steps.size(), std::size_t(8));
        const TrainStep& s = log->steps[0];
        QCOMPARE(s.step, 14LL);
        QVERIFY(near(s.loss, 3.24405));
        QVERIFY(near(s.memoryGiB, 9.46));
        QVERIFY(near(s.tokensPerSPerGpu, 7282));  // "7,282"
        QVERIFY(near(s.tflopsPerGpu, 0.52));
        QVERIFY(near(s.mfu, 0.0017));
        QVERIFY(std::isnan(s.iteration_s));  // no previous timestamp
        QVERIFY(near(log->steps[1].iteration_s, 47.456 - 46.338, 1e-6));
        // Steady times (s): 1.118 1.121 1.125 1.119 1.121 1.127 1.122 -> median 1.121.
        QCOMPARE(log->steady.records, 7);
        QVERIFY(near(log->steady.median_s, 1.121, 1e-6));
        QVERIFY(near(log->steady.min_s, 1.118, 1e-6));
        QVERIFY(near(log->steady.max_s, 1.127, 1e-6));
        // tps 7334 7313 7282 7322 7309 7272 7304 -> 7309.
        QVERIFY(near(log->tokensPerSPerGpu, 7309));
        QVERIFY(near(log->peakMemoryBytes, 9.46 * 1024 * 1024 * 1024));
    }

    void torchtitanAnsiColours() {
        // torchtitan colours each field on a terminal (red step, green loss, ...).
        std::string coloured;
        for (const auto& l : splitLines(readData("torchtitan-2026-rank0.log"))) {
            std::string c = l;
            for (const auto& [field, code] :
                 std::vector<std::pair<std::string, std::string>>{{"step:", "31"},
                                                                  {"loss:", "32"},
                                                                  {"memory:", "33"},
                                                                  {"tps:", "34"},
                                                                  {"tflops:", "36"},
                                                                  {"mfu:", "35"}}) {
                const auto p = c.find(field, c.find("INFO"));
                c.insert(p, "\x1b[" + code + "m");
            }
            coloured += c + "\x1b[39m\n";
        }
        QVERIFY(detectInputKind(coloured) == InputKind::TrainLog);
        Diagnostics d("t");
        const auto log = parseTrainLog(coloured, d);
        QVERIFY2(log, d.str().c_str());
        QCOMPARE(log->steps.size(), std::size_t(8));
        QVERIFY(near(log->steady.median_s, 1.121, 1e-6));
        QVERIFY(near(log->tokensPerSPerGpu, 7309));
        QVERIFY(near(log->steps[0].mfu, 0.0017));
    }

    void torchtitanEveryTenSteps() {
        Diagnostics d("t");
        const auto log = loadTrainLogFile(data("torchtitan-2025-every10.log"), d);
        QVERIFY2(log, d.str().c_str());
        QCOMPARE(log->steps.size(), std::size_t(6));
        QCOMPARE(log->steps[1].line, std::size_t(5));  // GC and profiler lines between
        // 22:30:50,322 -> 22:31:04,970 over 10 steps.
        QVERIFY(near(log->steps[1].iteration_s, 1.4648, 1e-6));
        // Steady: 1.4648 1.3964 1.3961 1.3974 1.3977 -> 1.3974.
        QVERIFY(near(log->steady.median_s, 1.3974, 1e-6));
        QVERIFY(near(log->tokensPerSPerGpu, 5864));
        QVERIFY(near(log->tflopsPerGpu, 339.59));
        QVERIFY(near(log->mfu, 0.3434));
        QVERIFY(near(log->peakMemoryBytes, 49.66 * 1024 * 1024 * 1024));
    }

    void torchtitanInterleavedRanks() {
        Diagnostics d("t");
        QVERIFY(!loadTrainLogFile(data("torchtitan-2026-all-ranks.log"), d));
        QVERIFY2(hasIssue(d, "line 2", "step 4 is not after step 4 (line 1)"), d.str().c_str());
        QVERIFY(hasIssue(d, "line 2", "several ranks"));
        // Rank prefixes that differ: the rank-0 log with one line of rank 1.
        const std::string mixed =
            replaced(readData("torchtitan-2026-rank0.log"), "[rank0]:[titan] 2026-05-18 16:04:48",
                     "[rank1]:[titan] 2026-05-18 16:04:48");
        Diagnostics d2("t");
        QVERIFY(!parseTrainLog(mixed, d2));
        QVERIFY2(hasIssue(d2, "line 3",
                          "output prefixed '[rank1]:' among those prefixed "
                          "'[rank0]:' (line 1)"),
                 d2.str().c_str());
    }

    void torchtitanTruncatedLine() {
        std::string text = readData("torchtitan-2026-rank0.log");
        text = text.substr(0, text.rfind("  tflops:")) + "\n";  // the last line cut
        Diagnostics d("t");
        QVERIFY(!parseTrainLog(text, d));
        QVERIFY2(hasIssue(d, "line 8", "truncated step line: no 'mfu: M%'"), d.str().c_str());
    }

    void moddedNanoGpt() {
        Diagnostics d("mn");
        const auto log = loadTrainLogFile(data("modded-nanogpt-071825-8xh100.txt"), d);
        QVERIFY2(log, d.str().c_str());
        QVERIFY(log->format == TrainLogFormat::ModdedNanoGpt);
        QCOMPARE(log->steps.size(), std::size_t(31));  // steps 1..20 and 120..130
        QCOMPARE(log->steps[0].step, 1LL);
        QCOMPARE(log->steps[0].totalSteps, 1750LL);
        QVERIFY(near(log->steps[0].iteration_s, 0.151));
        QVERIFY(near(log->steps[20].iteration_s, (10947.0 - 1790.0) / 100.0 / 1000.0));
        QCOMPARE(log->validation.size(), std::size_t(2));
        QCOMPARE(log->validation[1].step, 125LL);
        QVERIFY(near(log->validation[1].loss, 4.6317));
        // Warm-up: steps 1..5. The 26 steady step times (ms), sorted: 71, 90 x5, 91 x7, 91.57,
        // 92 x6, 93, 94 x2, 95, 97, 121 -> median (91 + 91.57) / 2.
        QCOMPARE(log->steady.warmupRecords, 5);
        QCOMPARE(log->steady.records, 26);
        QVERIFY(near(log->steady.median_s, (91.0 + 91.57) / 2 / 1000.0));
        QVERIFY(near(log->steady.min_s, 0.071));
        QVERIFY(near(log->steady.max_s, 0.121));
        QVERIFY(std::isnan(log->tokensPerS));  // the batch is not in the step lines
    }

    void moddedNanoGptTruncated() {
        const std::string text =
            replaced(readData("modded-nanogpt-071825-8xh100.txt"),
                     "step:130/1750 train_time:11881ms step_avg:91.39ms", "step:130/1750 train_ti");
        Diagnostics d("mn");
        QVERIFY(!parseTrainLog(text, d));
        QVERIFY2(hasIssue(d, "line 34", "truncated step line"), d.str().c_str());
    }
};

TANDEM_TEST_APPLESS_MAIN(TstTrainLogs)
#include "tst_train_logs.moc"
