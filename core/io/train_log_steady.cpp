// The steady state of a read training log: warm-up cut, iteration-time statistics and drift,
// throughput, peak memory and the findings (NaN losses, skipped iterations).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "common/number_format.h"
#include "common/statistics.h"
#include "io/text_file.h"
#include "io/train_log_reader.h"

namespace tandem::io::detail {

namespace {

/// Quantile q of sorted values (linear interpolation between order statistics).
double quantile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return kNaN;
    const double pos = q * double(sorted.size() - 1);
    const std::size_t lo = std::size_t(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (pos - double(lo)) * (sorted[hi] - sorted[lo]);
}

/// tandem::median of the finite values of `v` (NaN when none).
double finiteMedian(std::vector<double> v) {
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }),
            v.end());
    return median(v);
}

}  // namespace

void Reader::finish() {
    if (log.steps.empty()) {
        if (!failed)
            diag.error("file", std::string("no ") + name(log.format) +
                                   " training record: the log stops before the first "
                                   "iteration is reported");
        failed = true;
        return;
    }
    // Loss: NaN-only logs measure nothing; NaN among finite losses is a finding.
    std::size_t logged = 0;
    for (const auto& s : log.steps)
        if (s.lossLogged) {
            ++logged;
            if (!std::isfinite(s.loss)) log.nanLossLines.push_back(s.line);
        }
    if (logged > 0 && log.nanLossLines.size() == logged) {
        fail(log.steps.front().line, "every logged loss is NaN (" + std::to_string(logged) +
                                         " records, lines " +
                                         std::to_string(log.steps.front().line) + " to " +
                                         std::to_string(log.steps.back().line) +
                                         "): the run diverged; a NaN run measures nothing");
        return;
    }
    // Warm-up: the first record and the run's first kWarmupSteps steps.
    std::vector<const TrainStep*> steady;
    for (std::size_t k = 0; k < log.steps.size(); ++k) {
        if (k == 0 || log.steps[k].step <= kWarmupSteps)
            ++log.steady.warmupRecords;
        else
            steady.push_back(&log.steps[k]);
    }
    std::vector<double> times, tflops, tps, mfu;
    for (const TrainStep* s : steady) {
        if (std::isfinite(s->iteration_s)) times.push_back(s->iteration_s);
        tflops.push_back(s->tflopsPerGpu);
        tps.push_back(s->tokensPerSPerGpu);
        mfu.push_back(s->mfu);
    }
    log.tflopsPerGpu = finiteMedian(tflops);
    log.tokensPerSPerGpuLogged = finiteMedian(tps);
    log.mfu = finiteMedian(mfu);
    if (times.empty() && !std::isfinite(log.tokensPerSPerGpuLogged)) {
        const TrainStep& last = log.steps.back();
        fail(last.line, "no steady-state iteration: the " + std::to_string(log.steps.size()) +
                            " record(s) (steps " + std::to_string(log.steps.front().step) + " to " +
                            std::to_string(last.step) +
                            ") are all warm-up (the first record and steps <= " +
                            std::to_string(kWarmupSteps) + ") or carry no time");
        return;
    }
    auto& st = log.steady;
    st.records = int(times.size());
    st.firstStep = steady.front()->step;
    st.lastStep = steady.back()->step;
    if (!times.empty()) {
        std::vector<double> sorted = times;
        std::sort(sorted.begin(), sorted.end());
        st.median_s = quantile(sorted, 0.5);
        st.q25_s = quantile(sorted, 0.25);
        st.q75_s = quantile(sorted, 0.75);
        st.min_s = sorted.front();
        st.max_s = sorted.back();
        st.spread = (st.q75_s - st.q25_s) / st.median_s;
        if (times.size() >= 4) {
            const std::size_t h = times.size() / 2;
            const double first =
                finiteMedian(std::vector<double>(times.begin(), times.begin() + long(h)));
            const double second =
                finiteMedian(std::vector<double>(times.end() - long(h), times.end()));
            st.drift = second / first - 1.0;
            st.drifts = std::abs(st.drift) > kDriftThreshold;
            if (st.drifts)
                log.notes.push_back(
                    "iteration times drift: the median of the later half of the steady "
                    "records (" +
                    formatGeneral(second * 1000.0, 4) + " ms) is " +
                    formatFixed(std::abs(st.drift) * 100.0, 1) + " % " +
                    (st.drift > 0 ? "above" : "below") + " the earlier half's (" +
                    formatGeneral(first * 1000.0, 4) + " ms)");
        }
    }
    // Throughput and memory.
    const auto& L = log.layout;
    if (st.median_s > 0 && L.globalBatch > 0 && L.seqLength > 0)
        log.tokensPerS = double(L.globalBatch) * L.seqLength / st.median_s;
    if (std::isfinite(log.tokensPerS) && L.worldSize > 0)
        log.tokensPerSPerGpu = log.tokensPerS / L.worldSize;
    else
        log.tokensPerSPerGpu = log.tokensPerSPerGpuLogged;
    for (const auto& s : log.steps)
        if (std::isfinite(s.memoryGiB)) {
            const double b = s.memoryGiB * 1024.0 * 1024.0 * 1024.0;
            if (!std::isfinite(log.peakMemoryBytes) || b > log.peakMemoryBytes) {
                log.peakMemoryBytes = b;
                log.memoryLine = s.line;
            }
        }
    // Findings.
    std::vector<std::size_t> skippedLines, nanItLines;
    for (const auto& s : log.steps) {
        log.skippedIterations += s.skipped;
        log.nanIterations += s.nanIterations;
        if (s.skipped > 0) skippedLines.push_back(s.line);
        if (s.nanIterations > 0) nanItLines.push_back(s.line);
    }
    auto lineList = [](const std::vector<std::size_t>& v) {
        std::string out;
        for (std::size_t k = 0; k < v.size() && k < 5; ++k)
            out += (k ? ", " : "") + std::to_string(v[k]);
        if (v.size() > 5) out += ", ...";
        return out;
    };
    if (log.skippedIterations > 0)
        log.notes.push_back(std::to_string(log.skippedIterations) +
                            " iteration(s) skipped (loss-scale overflow or non-finite "
                            "gradients), reported at line(s) " +
                            lineList(skippedLines));
    if (log.nanIterations > 0)
        log.notes.push_back(std::to_string(log.nanIterations) +
                            " NaN iteration(s) reported at line(s) " + lineList(nanItLines));
    if (!log.nanLossLines.empty())
        log.notes.push_back("NaN loss logged at line(s) " + lineList(log.nanLossLines));
}

}  // namespace tandem::io::detail
