#pragma once
// A run of the user's own, imported from a training log, as a scenario keeps it
// (`mosaic.measured_runs`): the log and what the log does not state, as the user gave it (the
// words of `tandem-cli calibrate`'s flags). Read back by mosaic/user_runs.h.
#include <string>

namespace tandem::mosaic {

struct UserRun {
    std::string logFile;    ///< `log_file`: the training log (resolved like the scenario's files)
    std::string modelFile;  ///< `model_file`: MODEL.json or config.json; "" = the log states it
    std::string hardware;   ///< `hardware`: built-in hardware name the run ran on
    std::string layout;     ///< `layout` (mosaic::parseLayout); "" = the log states it
    int devices = 0;        ///< `devices`; 0 = the log states it
    int globalBatch = 0;    ///< `gbs`; 0 = the log states it
    int seqLen = 0;         ///< `seqlen`; 0 = the log states it
    std::string precision;  ///< `precision` (bf16, fp8, ...); "" = the log states it
    bool operator==(const UserRun& o) const {
        return logFile == o.logFile && modelFile == o.modelFile && hardware == o.hardware &&
               layout == o.layout && devices == o.devices && globalBatch == o.globalBatch &&
               seqLen == o.seqLen && precision == o.precision;
    }
};

}  // namespace tandem::mosaic
