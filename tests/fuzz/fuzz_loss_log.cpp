// Fuzz target: loss-log importer (parseLossLog) and the L(S) fit behind `inspect`.
// Invariants: never crashes or hangs (the fit is capped); rejections are explained; every
// series has steps >= 0 and finite losses; a fit reports finite parameters or an error.
#include <algorithm>
#include <cmath>

#include "fuzz_support.h"
#include "io/loss_fit.h"
#include "io/loss_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace tandem;
    Diagnostics diag("loss.csv");
    const auto log = io::parseLossLog(fuzz::text(data, size), diag);
    if (!log) {
        fuzz::requireExplained(diag);
        return 0;
    }
    for (const auto& s : log->series) {
        fuzz::require(s.step.size() == s.loss.size(), "series length mismatch");
        for (size_t i = 0; i < s.step.size(); ++i) {
            fuzz::require(std::isfinite(s.step[i]) && s.step[i] >= 0,
                          "negative or non-finite step");
            fuzz::require(std::isfinite(s.loss[i]), "non-finite loss");
        }
    }
    if (const auto* p = log->preferred()) {
        // The fit is the slow part (Levenberg-Marquardt, up to 2000 evaluations): fit the first
        // 32 points so the fuzzer keeps a useful rate; the parser sees the whole input.
        const size_t n = std::min<size_t>(p->step.size(), 32);
        const std::vector<double> step(p->step.begin(), p->step.begin() + long(n));
        const std::vector<double> loss(p->loss.begin(), p->loss.begin() + long(n));
        Diagnostics fd("loss.csv");
        const auto fit = io::fitLossCurve(step, loss, fd);
        if (fit) {
            (void)fuzz::dumpLikeCli(io::lossFitToJson(*fit));
            (void)io::predictLoss(*fit, step.back());
        } else {
            fuzz::requireExplained(fd);
        }
    }
    return 0;
}
