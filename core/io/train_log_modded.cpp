// The modded-nanogpt log reader: `step:N/M` lines with training time and validation loss.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "common/number_format.h"
#include "io/text_file.h"
#include "io/train_log_reader.h"

namespace tandem::io::detail {

void Reader::modded() {
    double prevTime = 0;
    long long prevStep = 0;
    for (std::size_t i = 0; i < lines.size() && !failed; ++i) {
        const CleanLine c = cleanLine(lines[i]);
        const std::string t = trim(c.text);
        const std::size_t ln = i + 1;
        if (!isModdedStart(t)) continue;
        if (!samePrefix(ln, c.prefix)) return;
        const auto tokens = splitBlanks(t);
        long long n = 0, m = 0;
        if (!stepOf(ln, tokens[0].substr(5), n, m)) return;
        double trainMs = kNaN, loss = kNaN, val = kNaN;
        bool hasVal = false, hasAvg = false, hasLoss = false, hasTime = false;
        for (std::size_t k = 1; k < tokens.size(); ++k) {
            const auto colon = tokens[k].find(':');
            if (colon == std::string::npos) continue;
            const std::string key = tokens[k].substr(0, colon);
            std::string value = tokens[k].substr(colon + 1);
            const bool ms = value.size() > 2 && value.compare(value.size() - 2, 2, "ms") == 0;
            if (key == "train_time" || key == "step_avg") {
                if (!ms) {
                    fail(ln, inQuotes(key) + " is not a time in ms: " + inQuotes(value) +
                                 " (a truncated or garbled line)");
                    return;
                }
                value.resize(value.size() - 2);
            }
            double v = 0;
            if (key == "train_time") {
                if (!number(ln, key, value, v)) return;
                trainMs = v;
                hasTime = true;
            } else if (key == "step_avg") {
                if (!number(ln, key, value, v)) return;
                hasAvg = true;
            } else if (key == "val_loss") {
                if (!number(ln, key, value, v)) return;
                val = v;
                hasVal = true;
            } else if (key == "train_loss") {
                if (!number(ln, key, value, v)) return;
                loss = v;
                hasLoss = true;
            }
        }
        if (!hasAvg || !hasTime) {
            fail(ln,
                 "truncated step line: no 'train_time:Tms step_avg:Sms' at its end "
                 "(modded-nanogpt closes every step line with them)");
            return;
        }
        if (hasVal) {
            if (!addVal(ln, n, val)) return;
            continue;  // the time of a validation line includes the evaluation
        }
        TrainStep s;
        s.line = ln;
        s.step = n;
        s.totalSteps = m;
        s.loss = loss;
        s.lossLogged = hasLoss;
        if (n > prevStep) s.iteration_s = (trainMs - prevTime) / 1000.0 / double(n - prevStep);
        prevTime = trainMs;
        prevStep = n;
        if (!add(s)) return;
    }
}

}  // namespace tandem::io::detail
