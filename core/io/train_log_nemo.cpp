// The NeMo / Megatron-Bridge log reader: `Training epoch` step lines and progress-bar lines.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "common/number_format.h"
#include "io/text_file.h"
#include "io/train_log_reader.h"

namespace tandem::io::detail {

void Reader::nemoStep(std::size_t ln, const std::string& t) {
    // `Training epoch 0, iteration 120/149 | lr: 3e-05 | ... | train_step_timing in s: 0.03146`
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (;;) {
        const auto bar = t.find('|', start);
        fields.push_back(t.substr(start, bar == std::string::npos ? bar : bar - start));
        if (bar == std::string::npos) break;
        start = bar + 1;
    }
    TrainStep s;
    s.line = ln;
    const auto it = fields[0].find("iteration");
    if (it == std::string::npos || !stepOf(ln, fields[0].substr(it + 9), s.step, s.totalSteps))
        return;
    for (std::size_t f = 1; f < fields.size(); ++f) {
        const std::string field = trim(fields[f]);
        const auto colon = field.rfind(':');
        if (colon == std::string::npos || trim(field.substr(colon + 1)).empty()) {
            fail(ln, "truncated or garbled field " + inQuotes(field) + ": expected 'name: value'");
            return;
        }
        const std::string key = trim(field.substr(0, colon));
        const std::string value = trim(field.substr(colon + 1));
        double v = 0;
        if (key == "train_step_timing in s") {
            if (!number(ln, key, value, v)) return;
            s.iteration_s = v;
        } else if (key == "reduced_train_loss") {
            if (!number(ln, key, value, v)) return;
            s.loss = v;
            s.lossLogged = true;
        } else if (key == "global_batch_size") {
            if (!number(ln, key, value, v)) return;
            s.globalBatch = static_cast<long long>(v);
        }
    }
    add(s);
}

void Reader::nemoProgress(std::size_t ln, const std::string& t) {
    // `Epoch 0:   1%|   | 795/77225 [9:07:58<878:01:48, 41.36s/it, loss=3.1, ...]`
    const auto open = t.find('[');
    if (t.back() != ']') {
        fail(ln, "truncated progress line: it does not end with ']'");
        return;
    }
    const auto lastBar = t.rfind('|', open);
    TrainStep s;
    s.line = ln;
    long long n = 0, m = 0;
    if (lastBar == std::string::npos ||
        !stepOf(ln, t.substr(lastBar + 1, open - lastBar - 1), n, m))
        return;
    s.step = n;
    s.totalSteps = m;
    const std::string inside = t.substr(open + 1, t.size() - open - 2);
    std::size_t start = 0;
    double perIt = kNaN;
    for (;;) {
        const auto comma = inside.find(',', start);
        const std::string item =
            trim(inside.substr(start, comma == std::string::npos ? comma : comma - start));
        start = comma + 1;
        const auto eq = item.find('=');
        double v = 0;
        if (eq != std::string::npos) {
            const std::string key = trim(item.substr(0, eq));
            const std::string value = trim(item.substr(eq + 1));
            if (key == "reduced_train_loss") {
                if (!number(ln, key, value, v)) return;
                s.loss = v;
                s.lossLogged = true;
            } else if (key == "train_step_timing in s") {
                if (!number(ln, key, value, v)) return;
                s.iteration_s = v;
            } else if (key == "global_step") {
                if (!number(ln, key, value, v)) return;
                s.step = static_cast<long long>(v);
            }
        } else if (item.size() > 4 && item.compare(item.size() - 4, 4, "s/it") == 0) {
            if (!number(ln, "s/it", item.substr(0, item.size() - 4), v)) return;
            perIt = v;
        } else if (item.size() > 4 && item.compare(item.size() - 4, 4, "it/s") == 0) {
            if (!number(ln, "it/s", item.substr(0, item.size() - 4), v)) return;
            perIt = v > 0 ? 1.0 / v : kNaN;
        }
        if (comma == std::string::npos) break;
    }
    if (!std::isfinite(s.iteration_s)) s.iteration_s = perIt;
    // A progress bar redraws its line at the same step (a refresh, the metrics added at
    // the end of an epoch): the later drawing replaces the earlier one.
    if (!log.steps.empty() && log.steps.back().step == s.step) {
        log.steps.back() = s;
        return;
    }
    add(s);
}

void Reader::nemo() {
    for (std::size_t i = 0; i < lines.size() && !failed; ++i) {
        const CleanLine c = cleanLine(lines[i]);
        const std::string t = trim(c.text);
        const std::size_t ln = i + 1;
        if (isNemoStepLine(t)) {
            if (samePrefix(ln, c.prefix)) nemoStep(ln, t);
        } else if (isNemoProgressLine(t)) {
            if (samePrefix(ln, c.prefix)) nemoProgress(ln, t);
        }
    }
}

}  // namespace tandem::io::detail
