#include "mlforml/training.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mlforml/exposure.h"

namespace tandem::mlforml {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr size_t kMaxPoints = 2000;
constexpr long long kMaxUpdates = 50000000;

/// Observed syncs of the foreground, in order of the time they become visible to the controller,
/// with the background level that telemetry reported for them.
struct History {
    std::vector<double> avail;  // time the observation reaches the controller
    std::vector<int> combo;
    std::vector<int> level;
    std::vector<double> exposed;
    size_t lo = 0;    // first observation inside the window
    size_t seen = 0;  // observations already folded into the memory
    // Per (level, combination): the last kMemory visible observations (ring).
    static constexpr int kMemory = 16;
    int nCombos = 0;
    std::vector<double> memSum;
    std::vector<int> memCount, memHead;
    std::vector<double> memRing;
    void init(int levels, int combos) {
        nCombos = combos;
        memSum.assign(size_t(levels) * combos, 0.0);
        memCount.assign(size_t(levels) * combos, 0);
        memHead.assign(size_t(levels) * combos, 0);
        memRing.assign(size_t(levels) * combos * kMemory, 0.0);
    }
    void remember(int lv, int c, double e) {
        const size_t k = size_t(lv) * nCombos + c;
        double& slot = memRing[k * kMemory + memHead[k]];
        if (memCount[k] == kMemory)
            memSum[k] -= slot;
        else
            ++memCount[k];
        slot = e;
        memSum[k] += e;
        memHead[k] = (memHead[k] + 1) % kMemory;
    }
};

/// T_dp estimates for background level `lv` from the observations visible at time t
/// [2608.06046 Sec. 2.3: recent collective durations plus history]: for each combination, the
/// mean of the window's observations of it at this level; else its remembered observations at
/// this level; else the same for the same precision at any g; else the window's observations
/// scaled by wire bytes (transfer = exposed + overlap). Returns false when nothing has been
/// observed yet.
bool estimate(History& h, double t, int lv, double window, double overlap,
              const std::vector<Combo>& combos, const std::vector<double>& wire,
              std::vector<double>& sum, std::vector<int>& cnt, std::vector<double>& est) {
    size_t hi = h.seen;
    while (hi < h.avail.size() && h.avail[hi] <= t) ++hi;
    for (; h.seen < hi; ++h.seen) {
        const int l = h.level[h.seen];
        if (l >= 0 && size_t(l + 1) * h.nCombos <= h.memCount.size())
            h.remember(l, h.combo[h.seen], h.exposed[h.seen]);
    }
    while (h.lo < hi && h.avail[h.lo] <= t - window) ++h.lo;
    if (hi == 0) return false;
    const size_t n = combos.size();
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(cnt.begin(), cnt.end(), 0);
    size_t from = h.lo == hi ? hi - 1 : h.lo;  // empty window: the most recent observation
    for (size_t i = from; i < hi; ++i)
        if (h.level[i] == lv) {
            sum[h.combo[i]] += h.exposed[i];
            ++cnt[h.combo[i]];
        }
    const size_t base = size_t(lv) * h.nCombos;
    const bool lvOk = lv >= 0 && base + n <= h.memCount.size();
    auto known = [&](size_t c, double& out) {
        if (cnt[c] > 0) {
            out = sum[c] / cnt[c];
            return true;
        }
        if (lvOk && h.memCount[base + c] > 0) {
            out = h.memSum[base + c] / h.memCount[base + c];
            return true;
        }
        return false;
    };
    std::vector<char> have(n, 0);
    for (size_t c = 0; c < n; ++c) have[c] = known(c, est[c]);
    for (size_t c = 0; c < n; ++c) {
        if (have[c]) continue;
        double s = 0;
        int k = 0;
        for (size_t o = 0; o < n; ++o)
            if (have[o] && combos[o].p == combos[c].p) {
                s += est[o];
                ++k;
            }
        if (k > 0) {
            est[c] = s / k;
            continue;
        }
        // Scale from what is known at this level, else from the window at any level.
        for (size_t o = 0; o < n; ++o) {
            if (!have[o]) continue;
            const double transfer = est[o] + overlap;
            s += std::max(0.0, (wire[o] > 0 ? transfer * wire[c] / wire[o] : transfer) - overlap);
            ++k;
        }
        if (k == 0)
            for (size_t i = from; i < hi; ++i) {
                const int o = h.combo[i];
                const double transfer = h.exposed[i] + overlap;
                s += std::max(0.0,
                              (wire[o] > 0 ? transfer * wire[c] / wire[o] : transfer) - overlap);
                ++k;
            }
        est[c] = k > 0 ? s / k : 0.0;
    }
    return true;
}

}  // namespace

PolicyRun runPolicy(const PolicySpec& spec, const Params& p, const ProgressCurve& curve,
                    const std::vector<Combo>& combos, int actionCount, const NetworkSchedule& net,
                    const std::vector<double>& targetLosses, const std::vector<int>& levelJobs,
                    const tandem::CancelFlag* cancel) {
    PolicyRun run;
    run.policy = spec.label();
    run.kind = spec.policy;
    const int nC = static_cast<int>(combos.size());
    const int nA = std::min(actionCount, nC);
    const int nP = static_cast<int>(p.precisions.size());

    const Policy kind = spec.policy;
    // Static holds the baseline combination, Fixed its own; the others adapt.
    const bool holds = kind == Policy::Static || kind == Policy::Fixed;
    int fixed = 0;
    if (kind == Policy::Fixed)
        for (int c = 0; c < nC; ++c)
            if (combos[c] == spec.combo) fixed = c;

    std::vector<double> dS(nC), comp(nC), wire(nC);
    for (int c = 0; c < nC; ++c) {
        dS[c] = curve.progressPerUpdate(combos[c]);
        comp[c] = combos[c].g * p.microbatchCompute_s;
        wire[c] = foregroundWireBytes(p, combos[c].p);
    }
    const size_t nT = targetLosses.size();
    std::vector<double> sTarget(nT);
    for (size_t i = 0; i < nT; ++i) sTarget[i] = curve.progressForLoss(targetLosses[i]);
    run.firstCrossing_s.assign(nT, std::nan(""));
    size_t crossed = 0;

    History hist;
    hist.avail.reserve(1 << 14);
    hist.combo.reserve(1 << 14);
    hist.exposed.reserve(1 << 14);
    hist.level.reserve(1 << 14);
    hist.init(static_cast<int>(std::max<size_t>(1, levelJobs.size())), nC);
    std::vector<double> sum(nC), est(nC, 0.0), value(nC, 0.0);
    std::vector<int> cnt(nC);
    std::vector<long long> comboCount(nC, 0);
    std::vector<std::vector<long long>> levelCount(levelJobs.size(), std::vector<long long>(nC, 0));

    const double interval = p.decisionInterval_s;
    auto gainOf = [&](int c, double S) {
        if (!std::isfinite(est[c])) return 0.0;
        const double n = interval / (comp[c] + est[c]);
        return curve.loss(S) - curve.loss(S + n * dS[c]);
    };
    auto argmaxWhere = [&](int current, auto&& allowed) {
        int best = -1;
        for (int c = 0; c < nA; ++c) {
            if (!allowed(c)) continue;
            if (best < 0 || value[c] > value[best] * (1 + 1e-12) ||
                (c == current && value[c] >= value[best] * (1 - 1e-12)))
                best = c;
        }
        return best < 0 ? 0 : best;
    };

    int cur = fixed;
    double t = 0, S = 0;
    long long u = 0;
    double nextDecision = 0;
    double exposedTotal = 0;
    // per-interval exposed share
    double ivStart = 0, ivExposed = 0, ivWall = 0;
    std::vector<double> ivWeight;
    // trajectory decimation
    long long stride = 1;
    auto pushPoint = [&]() {
        run.time_s.push_back(t);
        run.updates.push_back(static_cast<double>(u));
        run.loss.push_back(curve.loss(S));
        if (run.time_s.size() > kMaxPoints) {
            size_t k = 0;
            for (size_t i = 0; i < run.time_s.size(); i += 2, ++k) {
                run.time_s[k] = run.time_s[i];
                run.updates[k] = run.updates[i];
                run.loss[k] = run.loss[i];
            }
            run.time_s.resize(k);
            run.updates.resize(k);
            run.loss.resize(k);
            stride *= 2;
        }
    };
    int segCombo = -1;
    double segStart = 0;

    while (t < p.horizon_s && u < kMaxUpdates) {
        if (t >= nextDecision) {
            throwIfCancelled(cancel);
            if (ivWall > 0) {
                run.dpShareTime_s.push_back(ivStart);
                run.dpShare.push_back(ivExposed / ivWall);
                ivWeight.push_back(ivWall);
            }
            ivStart = t;
            ivExposed = ivWall = 0;
            if (!holds) {
                bool have;
                if (kind == Policy::Oracle) {
                    for (int c = 0; c < nA; ++c) est[c] = net.meanExposed(c, t, t + interval);
                    have = true;
                } else {
                    const int seenLevel = net.levelAt(std::max(0.0, t - p.telemetryDelay_s));
                    have = estimate(hist, t, seenLevel, p.historyWindow_s, p.overlapWindow_s,
                                    combos, wire, sum, cnt, est);
                }
                if (have) {
                    for (int c = 0; c < nA; ++c) value[c] = gainOf(c, S);
                    const int baseG = combos[0].g;
                    const Precision baseP = combos[0].p;
                    auto withBaseG = [&](int c) { return combos[c].g == baseG; };
                    auto withBaseP = [&](int c) { return combos[c].p == baseP; };
                    if (kind == Policy::KnobPrecision)
                        cur = argmaxWhere(cur, withBaseG);
                    else if (kind == Policy::KnobGa)
                        cur = argmaxWhere(cur, withBaseP);
                    else if (kind == Policy::Decoupled) {
                        // The two single-knob projections, decided independently, composed.
                        const int gPick = argmaxWhere(cur, withBaseP) / nP;
                        const int pPick = argmaxWhere(cur, withBaseG) % nP;
                        cur = gPick * nP + pPick;
                    } else {
                        cur = argmaxWhere(cur, [](int) { return true; });
                    }
                }
            }
            nextDecision = t + interval;
        }
        // A sync that does not finish under this level's open-loop backlog (an unbounded
        // sample) finishes once the level changes: it waits until then and takes the next
        // level's exposure from there. Without a later change the run stops (not reached).
        double e = net.exposed(cur, t);
        const double syncStart = t + comp[cur];
        double at = syncStart;
        for (int hop = 0; !std::isfinite(e) && hop < 64; ++hop) {
            at = net.nextLevelChange(at);
            if (!std::isfinite(at) || at > p.horizon_s) break;
            const double next = net.exposed(cur, at);
            if (std::isfinite(next)) e = at - syncStart + next;
        }
        if (!std::isfinite(e)) {
            run.stoppedCombo = cur;
            run.nextUpdateEnd_s = std::numeric_limits<double>::infinity();
            break;
        }
        const double tEnd = t + comp[cur] + e;
        if (tEnd > p.horizon_s) {
            run.stoppedCombo = cur;
            run.nextUpdateEnd_s = tEnd;
            break;
        }
        const int level = net.levelAt(t);
        if (segCombo != cur) {
            if (segCombo >= 0) run.timeline.push_back({segStart, t, segCombo});
            segCombo = cur;
            segStart = t;
        }
        S += dS[cur];
        ++u;
        exposedTotal += e;
        ivExposed += e;
        ivWall += tEnd - t;
        ++comboCount[cur];
        if (level >= 0 && level < static_cast<int>(levelCount.size())) ++levelCount[level][cur];
        hist.avail.push_back(tEnd + p.telemetryDelay_s);
        hist.combo.push_back(cur);
        hist.exposed.push_back(e);
        hist.level.push_back(net.levelAt(tEnd));
        t = tEnd;
        for (size_t i = 0; i < nT; ++i)
            if (std::isnan(run.firstCrossing_s[i]) && S >= sTarget[i]) {
                run.firstCrossing_s[i] = t;
                ++crossed;
            }
        if (u % stride == 0) pushPoint();
        if (crossed == nT) break;
        if ((u & 4095) == 0) throwIfCancelled(cancel);
    }
    if (run.time_s.empty() || run.updates.back() != static_cast<double>(u)) pushPoint();
    if (segCombo >= 0) run.timeline.push_back({segStart, t, segCombo});
    if (ivWall > 0) {
        run.dpShareTime_s.push_back(ivStart);
        run.dpShare.push_back(ivExposed / ivWall);
        ivWeight.push_back(ivWall);
    }
    while (run.dpShare.size() > kMaxPoints) {  // merge pairs, weighted by wall-clock
        size_t k = 0;
        for (size_t i = 0; i < run.dpShare.size(); i += 2, ++k) {
            const double w0 = ivWeight[i];
            const double w1 = i + 1 < ivWeight.size() ? ivWeight[i + 1] : 0.0;
            const double s1 = i + 1 < run.dpShare.size() ? run.dpShare[i + 1] : 0.0;
            run.dpShareTime_s[k] = run.dpShareTime_s[i];
            run.dpShare[k] = (run.dpShare[i] * w0 + s1 * w1) / (w0 + w1);
            ivWeight[k] = w0 + w1;
        }
        run.dpShareTime_s.resize(k);
        run.dpShare.resize(k);
        ivWeight.resize(k);
    }
    run.totalUpdates = u;
    run.endTime_s = t;
    run.syncBeyondOverlapShare = t > 0 ? exposedTotal / t : 0.0;
    run.comboShare.assign(nC, 0.0);
    for (int c = 0; c < nC; ++c) run.comboShare[c] = u > 0 ? double(comboCount[c]) / u : 0.0;
    run.comboShareByBackground.resize(levelJobs.size());
    run.updatesByBackground.assign(levelJobs.size(), 0);
    for (size_t l = 0; l < levelJobs.size(); ++l) {
        long long total = 0;
        for (long long x : levelCount[l]) total += x;
        run.updatesByBackground[l] = total;
        if (total == 0) continue;
        run.comboShareByBackground[l].resize(nC);
        for (int c = 0; c < nC; ++c)
            run.comboShareByBackground[l][c] = double(levelCount[l][c]) / total;
    }
    return run;
}

}  // namespace tandem::mlforml
