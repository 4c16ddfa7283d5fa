#include "io/loss_log.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "common/csv.h"
#include "common/json_reader.h"
#include "common/number_format.h"
#include "io/text_file.h"

namespace tandem::io {
namespace {

bool isValidationName(const std::string& lower) {
    return lower == "tel" || lower.find("val") != std::string::npos ||
           lower.find("eval") != std::string::npos || lower.find("test") != std::string::npos;
}

bool isStepHeader(const std::string& lower) {
    static const std::vector<std::string> names = {
        "step", "steps", "iter", "iteration", "global_step", "_step", "trainer/global_step", "s"};
    for (const auto& n : names) {
        if (lower == n) return true;
        // W&B exports name columns "<run> - <metric>"; accept a trailing " - step" too.
        const std::string suffix = " - " + n;
        if (n.size() > 1 && lower.size() > suffix.size() &&
            lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) == 0)
            return true;
    }
    return false;
}

/// Value after `key` up to the next blank or comma (llm.c / nanoGPT tokens).
bool valueAfter(const std::string& line, const std::string& key, std::string& out) {
    std::size_t p = 0;
    while ((p = line.find(key, p)) != std::string::npos) {
        if (p == 0 || line[p - 1] == ' ' || line[p - 1] == '\t' || line[p - 1] == ',' ||
            line[p - 1] == '|') {
            std::size_t b = p + key.size();
            while (b < line.size() && line[b] == ' ') ++b;
            std::size_t e = b;
            while (e < line.size() && line[e] != ' ' && line[e] != ',' && line[e] != '\t' &&
                   line[e] != '|')
                ++e;
            out = line.substr(b, e - b);
            return true;
        }
        ++p;
    }
    return false;
}

void addPoint(std::map<std::string, LossSeries>& m, const std::string& name, bool val, double step,
              double loss, std::size_t ln) {
    auto& s = m[name];
    s.name = name;
    s.validation = val;
    s.step.push_back(step);
    s.loss.push_back(loss);
    s.line.push_back(ln);
}

bool parseLlmc(const std::vector<std::string>& lines, LossLog& log, Diagnostics& diag) {
    std::map<std::string, LossSeries> m;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto& l = lines[i];
        if (l.rfind("s:", 0) != 0) continue;
        std::string stepText, v;
        valueAfter(l, "s:", stepText);
        double step = 0;
        if (!parseDouble(stepText, step) || step < 0) {
            diag.error(linePath(i + 1),
                       "step after \"s:\" must be a number >= 0 (got \"" + stepText + "\")");
            continue;
        }
        for (const auto& [key, name, val] :
             {std::tuple<const char*, const char*, bool>{"trl:", "train", false},
              std::tuple<const char*, const char*, bool>{"tel:", "val", true}}) {
            if (!valueAfter(l, key, v)) continue;
            double x = 0;
            if (!parseDouble(v, x)) {
                diag.error(linePath(i + 1), std::string("loss after \"") + key +
                                                "\" must be a finite number (got \"" + v + "\")");
                continue;
            }
            addPoint(m, name, val, step, x, i + 1);
        }
    }
    for (auto& kv : m) log.series.push_back(std::move(kv.second));
    return true;
}

bool parseNanoGpt(const std::vector<std::string>& lines, LossLog& log, Diagnostics& diag) {
    std::map<std::string, LossSeries> m;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string l = trim(lines[i]);
        const bool iter = l.rfind("iter ", 0) == 0, step = l.rfind("step ", 0) == 0;
        if (!iter && !step) continue;
        const auto colon = l.find(':');
        if (colon == std::string::npos) continue;
        double s = 0;
        if (!parseDouble(trim(l.substr(5, colon - 5)), s) || s < 0) continue;
        std::string v;
        double x = 0;
        const std::string rest = l.substr(colon);
        // `step N: train loss` is nanoGPT's periodic evaluation on training batches, a
        // different measurement from the per-iteration `iter N: loss`; kept as its own series
        // so both stay ordered by step.
        if (valueAfter(rest, "train loss", v)) {
            if (parseDouble(v, x))
                addPoint(m, iter ? "train" : "train_eval", false, s, x, i + 1);
            else
                diag.error(linePath(i + 1),
                           "train loss must be a finite number (got \"" + v + "\")");
        }
        if (valueAfter(rest, "val loss", v)) {
            if (parseDouble(v, x))
                addPoint(m, "val", true, s, x, i + 1);
            else
                diag.error(linePath(i + 1), "val loss must be a finite number (got \"" + v + "\")");
        }
        if (iter && valueAfter(rest, "loss", v) && rest.find("train loss") == std::string::npos) {
            if (parseDouble(v, x))
                addPoint(m, "train", false, s, x, i + 1);
            else
                diag.error(linePath(i + 1), "loss must be a finite number (got \"" + v + "\")");
        }
    }
    for (auto& kv : m) log.series.push_back(std::move(kv.second));
    return true;
}

bool parseCsv(const std::vector<std::string>& lines, LossLog& log, Diagnostics& diag) {
    // NCCL's own log lines (NCCL_DEBUG=INFO in the training job) are neither header nor rows.
    const auto skipped = [&](std::size_t i) {
        const std::string t = trim(lines[i]);
        return t.empty() || t[0] == '#' || isNcclLogLine(lines[i]);
    };
    std::size_t h = 0;
    while (h < lines.size() && skipped(h)) ++h;
    if (h == lines.size()) return true;
    const char sep = detectCsvSeparator(lines[h]);
    const auto header = splitCsvRecord(lines[h], sep);
    int stepCol = -1;
    std::vector<int> lossCols;
    for (std::size_t c = 0; c < header.size(); ++c) {
        const std::string lower = toLower(trim(header[c]));
        if (stepCol < 0 && isStepHeader(lower))
            stepCol = static_cast<int>(c);
        else if (lower.find("loss") != std::string::npos || lower == "trl" || lower == "tel")
            lossCols.push_back(static_cast<int>(c));
    }
    if (stepCol < 0) {
        diag.error(linePath(h + 1),
                   "header has no step column; expected one of step, steps, "
                   "iter, iteration, global_step, _step");
        return false;
    }
    if (lossCols.empty()) {
        diag.error(linePath(h + 1),
                   "header has no loss column (a column whose name contains "
                   "\"loss\")");
        return false;
    }
    std::vector<LossSeries> series(lossCols.size());
    for (std::size_t k = 0; k < lossCols.size(); ++k) {
        series[k].name = trim(header[lossCols[k]]);
        series[k].validation = isValidationName(toLower(series[k].name));
    }
    for (std::size_t i = h + 1; i < lines.size(); ++i) {
        if (skipped(i)) continue;
        const auto f = splitCsvRecord(lines[i], sep);
        const auto cell = [&](int c) {
            return c < static_cast<int>(f.size()) ? trim(f[c]) : std::string();
        };
        const std::string stepText = cell(stepCol);
        if (stepText.empty()) continue;
        double step = 0;
        if (!parseDouble(stepText, step) || step < 0) {
            diag.error(linePath(i + 1) + ", column \"" + trim(header[stepCol]) + "\"",
                       "step must be a number >= 0 (got \"" + stepText + "\")");
            continue;
        }
        for (std::size_t k = 0; k < lossCols.size(); ++k) {
            const std::string v = cell(lossCols[k]);
            if (v.empty()) continue;
            double x = 0;
            if (!parseDouble(v, x)) {
                diag.error(linePath(i + 1) + ", column \"" + series[k].name + "\"",
                           "loss must be a finite number (got \"" + v + "\")");
                continue;
            }
            series[k].step.push_back(step);
            series[k].loss.push_back(x);
            series[k].line.push_back(i + 1);
        }
    }
    for (auto& s : series)
        if (!s.step.empty()) log.series.push_back(std::move(s));
    return true;
}

/// Largest loss a training log may state, in nats (or bits): a cross-entropy starts near
/// ln(vocabulary), about 12.5 nats (18 bits) for a 256k vocabulary, and a divergence spike stays
/// within tens; 1e3 leaves that margin, while 1e300 is no cross-entropy.
constexpr double kMaxLoss = 1e3;
/// Smallest positive loss: frameworks average float32 per-token losses, each 0 or at least
/// -ln(1 - 2^-24) = 6e-8, over fewer than 1e12 tokens per step, so a mean loss is 0 or >= 6e-20.
/// Below it a fit only sees rounding (1e-300 fits a floor of -3e-303).
constexpr double kMinLoss = 1e-20;

/// Every series: steps strictly increasing in file order, losses in [kMinLoss, kMaxLoss]
/// (cross-entropy in nats or bits is never <= 0). The first offending point of each kind per series
/// is reported, at `line N` (a CSV loss at `line N, column "x"`), with the count of further ones; a
/// step error shared by several CSV loss columns is reported once per line.
void checkSeries(const LossLog& log, Diagnostics& diag) {
    std::set<std::size_t> stepLines;
    const bool csv = log.format == LossLogFormat::Csv;
    const auto more = [](std::size_t n, const char* what) {
        return n > 1 ? " (" + std::to_string(n - 1) + " more " + what + " after it)"
                     : std::string();
    };
    for (const auto& s : log.series) {
        std::size_t badLoss = 0, badStep = 0, firstLoss = 0, firstStep = 0;
        for (std::size_t i = 0; i < s.step.size(); ++i) {
            if (!(s.loss[i] >= kMinLoss && s.loss[i] <= kMaxLoss) && badLoss++ == 0) firstLoss = i;
            if (i > 0 && !(s.step[i] > s.step[i - 1]) && badStep++ == 0) firstStep = i;
        }
        if (badLoss > 0)
            diag.error(
                csv ? linePath(s.line[firstLoss]) + ", column \"" + s.name + "\""
                    : linePath(s.line[firstLoss]),
                (s.loss[firstLoss] > kMaxLoss
                     ? "loss must be at most 1000 (got " + formatNumber(s.loss[firstLoss]) +
                           "): a cross-entropy starts near ln(vocabulary), about 12 nats"
                 : s.loss[firstLoss] > 0
                     ? "loss must be at least 1e-20 (got " + formatNumber(s.loss[firstLoss]) +
                           "): a mean of float32 per-token losses is 0 or above it"
                     : "loss must be > 0 (got " + formatNumber(s.loss[firstLoss]) + ")") +
                    more(badLoss, "losses outside [1e-20, 1000]"));
        if (badStep > 0 && stepLines.insert(s.line[firstStep]).second) {
            const std::size_t i = firstStep;
            diag.error(linePath(s.line[i]),
                       "step " + formatCount(s.step[i]) + " is not after step " +
                           formatCount(s.step[i - 1]) + " (" + linePath(s.line[i - 1]) +
                           "); steps of a series must increase" + more(badStep, "such steps"));
        }
    }
}

}  // namespace

const EnumTable<LossLogFormat>& lossLogFormatNames() {
    static const EnumTable<LossLogFormat> t = {{LossLogFormat::Llmc, "llmc"},
                                               {LossLogFormat::NanoGpt, "nanogpt"},
                                               {LossLogFormat::Csv, "csv"}};
    return t;
}
const char* name(LossLogFormat f) { return enumName(lossLogFormatNames(), f); }

const LossSeries* LossLog::preferred() const {
    const LossSeries* best = nullptr;
    for (const auto& s : series)
        if (s.validation && s.step.size() >= 5 && (!best || s.step.size() > best->step.size()))
            best = &s;
    if (best) return best;
    for (const auto& s : series)
        if (!best || s.step.size() > best->step.size()) best = &s;
    return best;
}

LossLogFormat lossLogFormat(const std::vector<std::string>& lines) {
    bool nano = false;
    for (const auto& l : lines) {
        if (l.rfind("s:", 0) == 0 &&
            (l.find("trl:") != std::string::npos || l.find("tel:") != std::string::npos))
            return LossLogFormat::Llmc;
        if (!nano) {
            const std::string t = trim(l);
            nano = (t.rfind("iter ", 0) == 0 || t.rfind("step ", 0) == 0) &&
                   t.find("loss") != std::string::npos;
        }
    }
    return nano ? LossLogFormat::NanoGpt : LossLogFormat::Csv;
}

std::optional<LossLog> parseLossLog(const std::string& text, Diagnostics& diag) {
    const std::size_t before = diag.items().size();
    const auto lines = splitLines(text);
    LossLog log;
    log.format = lossLogFormat(lines);
    switch (log.format) {
        case LossLogFormat::Llmc:
            parseLlmc(lines, log, diag);
            break;
        case LossLogFormat::NanoGpt:
            parseNanoGpt(lines, log, diag);
            break;
        case LossLogFormat::Csv:
            parseCsv(lines, log, diag);
            break;
    }
    if (diag.items().size() > before) return std::nullopt;
    checkSeries(log, diag);
    if (diag.items().size() > before) return std::nullopt;
    if (log.series.empty()) {
        diag.error("file",
                   "no loss values found (expected a CSV with step and loss columns or an "
                   "llm.c log with \"s:<step> trl:<loss>\" lines)");
        return std::nullopt;
    }
    return log;
}

std::optional<LossLog> loadLossLogFile(const std::string& path, Diagnostics& diag) {
    std::string text;
    if (!readTextFile(path, text, diag)) return std::nullopt;
    return parseLossLog(text, diag);
}

}  // namespace tandem::io
