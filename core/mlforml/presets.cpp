#include "mlforml/presets.h"

namespace tandem::mlforml {

Params scenario1Params() { return Params{}; }

Params scenario2Params() {
    Params p;
    p.scenario = "poisson";
    p.backgroundJobs = {5};
    p.backgroundJob.model = "GPT-13B";
    p.backgroundJob.nodes = 16;
    p.backgroundJob.gradientBytes = 26e9;  // 13B values in BF16
    p.backgroundJob.computeS = 2.0;
    p.backgroundJob.computeJitter = 0.1;
    p.arrivalRatePerS = 0.002;
    p.maxBackgroundJobs = 5;
    p.backgroundJobDurationS = 1500;
    p.horizonS = 400000;
    return p;
}

}  // namespace tandem::mlforml
