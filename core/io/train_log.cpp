#include "io/train_log.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "common/number_format.h"
#include "common/statistics.h"
#include "io/text_file.h"

namespace tandem::io {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// `line` without ANSI escape sequences (ESC [ ... final byte), which coloured loggers
/// (torchtitan's) write around fields.
std::string stripAnsi(const std::string& line) {
    if (line.find('\x1b') == std::string::npos) return line;
    std::string out;
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            std::size_t j = i + 2;
            while (j < line.size() && !(line[j] >= '@' && line[j] <= '~')) ++j;
            i = j;  // skip the final byte too
            continue;
        }
        out += line[i];
    }
    return out;
}

/// Length of a torchrun / torchtitan rank prefix `[rank0]:` or `[default0]:` at the start of
/// `s`, or 0.
std::size_t rankPrefixLength(const std::string& s) {
    for (const char* word : {"[rank", "[default"}) {
        const std::string w = word;
        if (s.compare(0, w.size(), w) != 0) continue;
        std::size_t i = w.size();
        const std::size_t digits = i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        if (i > digits && s.compare(i, 2, "]:") == 0) return i + 2;
    }
    return 0;
}

/// A log line as the readers see it: ANSI codes removed, launcher and rank prefixes split off.
struct CleanLine {
    std::string text;    ///< the line without prefixes
    std::string prefix;  ///< the prefixes removed ("" when none)
};

CleanLine cleanLine(const std::string& raw) {
    CleanLine c;
    std::string s = stripAnsi(raw);
    for (;;) {
        const std::string stripped = stripLauncherPrefix(s);
        if (stripped != s) {
            c.prefix += s.substr(0, s.size() - stripped.size());
            s = stripped;
            continue;
        }
        const std::size_t n = rankPrefixLength(s);
        if (n == 0) break;
        c.prefix += s.substr(0, n);
        s = s.substr(n);
    }
    c.text = s;
    return c;
}

bool startsWith(const std::string& s, const std::string& p) {
    return s.compare(0, p.size(), p) == 0;
}

/// Parses a logged number: finite decimals, thousands separators removed ("7,282"), and "nan" /
/// "inf" (any case, signed) as NaN. False for anything else.
bool parseLogged(std::string s, double& out) {
    s.erase(std::remove(s.begin(), s.end(), ','), s.end());
    const std::string l = toLower(s);
    if (l == "nan" || l == "-nan" || l == "+nan" || l == "inf" || l == "-inf" || l == "+inf") {
        out = kNaN;
        return true;
    }
    return parseDouble(s, out);
}

/// The text after `[...]` timestamps at the start of `t` (Megatron-Core prints
/// ` [2024-04-06 03:02:12] iteration ...`), trimmed.
std::string afterTimestamp(const std::string& t) {
    std::string s = trim(t);
    if (!s.empty() && s[0] == '[') {
        const auto close = s.find(']');
        if (close != std::string::npos) s = trim(s.substr(close + 1));
    }
    return s;
}

bool isMegatronIteration(const std::string& s) {
    const std::string a = afterTimestamp(s);
    if (!startsWith(a, "iteration")) return false;
    std::size_t i = 9;
    while (i < a.size() && a[i] == ' ') ++i;
    return i > 9 && i < a.size() && std::isdigit(static_cast<unsigned char>(a[i]));
}

bool isArgumentsHeader(const std::string& s) {
    const std::string t = trim(s);
    return startsWith(t, "---") && t.find(" arguments ") != std::string::npos &&
           t.find("end of arguments") == std::string::npos;
}

bool isNemoStepLine(const std::string& s) {
    const std::string t = trim(s);
    return startsWith(t, "Training epoch ") && t.find("iteration") != std::string::npos;
}

bool isNemoProgressLine(const std::string& s) {
    const std::string t = trim(s);
    return startsWith(t, "Epoch ") && t.find('|') != std::string::npos &&
           t.find('[') != std::string::npos &&
           (t.find("reduced_train_loss=") != std::string::npos ||
            t.find("train_step_timing") != std::string::npos);
}

/// A line opening like modded-nanogpt's step lines: `step:N/` (the reader's test; a cut line
/// counts, to be refused).
bool isModdedStart(const std::string& s) {
    const std::string t = trim(s);
    if (!startsWith(t, "step:")) return false;
    std::size_t i = 5;
    const std::size_t d = i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    return i > d && i < t.size() && t[i] == '/';
}

/// A modded-nanogpt step line as the format's detection wants it (`step:N/` and a field).
bool isModdedLine(const std::string& s) {
    return isModdedStart(s) &&
           (s.find("train_time:") != std::string::npos || s.find("val_loss:") != std::string::npos);
}

/// Position of a torchtitan `step:` field (at the start or after a blank, then blanks and a
/// digit) in `s`, or npos.
std::size_t torchtitanStep(const std::string& s) {
    if (isModdedStart(s)) return std::string::npos;
    for (std::size_t p = s.find("step:"); p != std::string::npos; p = s.find("step:", p + 1)) {
        if (p > 0 && s[p - 1] != ' ' && s[p - 1] != '\t') continue;
        std::size_t i = p + 5;
        while (i < s.size() && s[i] == ' ') ++i;
        if (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) return p;
    }
    return std::string::npos;
}

/// A torchtitan step line as the format's detection wants it: `step:` then `loss:` and
/// `tps:`, `wps:` or `memory:`.
bool isTorchtitanLine(const std::string& s) {
    const auto st = torchtitanStep(s);
    if (st == std::string::npos) return false;
    const auto lo = s.find("loss:", st);
    return lo != std::string::npos &&
           (s.find("tps:", lo) != std::string::npos || s.find("wps:", lo) != std::string::npos ||
            s.find("memory:", lo) != std::string::npos);
}

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

std::string inQuotes(const std::string& s) { return "'" + s + "'"; }

/// The reader's working state: the log being built, the issues, the last record's line.
struct Reader {
    const std::vector<std::string>& lines;
    Diagnostics& diag;
    TrainLog log;
    std::string recordPrefix;  ///< launcher / rank prefix of the first record
    std::size_t recordPrefixLine = 0;
    bool failed = false;

    Reader(const std::vector<std::string>& l, Diagnostics& d) : lines(l), diag(d) {}

    void fail(std::size_t line, const std::string& message) {
        diag.error(linePath(line), message);
        failed = true;
    }

    /// Checks the prefix of a record line against the first record's.
    bool samePrefix(std::size_t line, const std::string& prefix) {
        if (recordPrefixLine == 0) {
            recordPrefix = prefix;
            recordPrefixLine = line;
            return true;
        }
        if (prefix == recordPrefix) return true;
        fail(line, "a record of " +
                       (prefix.empty() ? std::string("unprefixed output")
                                       : "output prefixed " + inQuotes(trim(prefix))) +
                       " among those " +
                       (recordPrefix.empty() ? std::string("without a prefix")
                                             : "prefixed " + inQuotes(trim(recordPrefix))) +
                       " (line " + std::to_string(recordPrefixLine) +
                       "): the output of several ranks is interleaved; keep one rank's lines");
        return false;
    }

    /// Appends a training record; refuses a step not after the previous one.
    bool add(const TrainStep& s) {
        if (!log.steps.empty() && s.step <= log.steps.back().step) {
            const auto& p = log.steps.back();
            fail(s.line, "step " + std::to_string(s.step) + " is not after step " +
                             std::to_string(p.step) + " (line " + std::to_string(p.line) +
                             "): the output of several ranks is interleaved or a restarted run "
                             "was appended; keep one rank's lines of one run");
            return false;
        }
        log.steps.push_back(s);
        return true;
    }

    bool addVal(std::size_t line, long long step, double loss) {
        if (!log.validation.empty() && step <= log.validation.back().step) {
            fail(line, "validation at step " + std::to_string(step) + " is not after step " +
                           std::to_string(log.validation.back().step) + " (line " +
                           std::to_string(log.validation.back().line) +
                           "): the output of several ranks is interleaved or a restarted run "
                           "was appended; keep one rank's lines of one run");
            return false;
        }
        log.validation.push_back({line, step, loss});
        return true;
    }

    /// `N/M` (blanks allowed around '/') at the start of `s`.
    bool stepOf(std::size_t line, const std::string& s, long long& n, long long& m) {
        const auto slash = s.find('/');
        long long a = 0, b = 0;
        if (slash == std::string::npos || !parseInteger(trim(s.substr(0, slash)), a) ||
            !parseInteger(trim(s.substr(slash + 1)), b) || a < 0 || b < 0) {
            fail(line, "garbled step " + inQuotes(trim(s)) + ": expected N/M");
            return false;
        }
        n = a;
        m = b;
        return true;
    }

    /// A number field: `value` parsed (parseLogged) or a garbled-line error naming `key`.
    bool number(std::size_t line, const std::string& key, const std::string& value, double& out) {
        if (parseLogged(trim(value), out)) return true;
        fail(line,
             inQuotes(key) + " is not a number: " + inQuotes(trim(value)) + " (a garbled line)");
        return false;
    }

    // --- Megatron-LM / Megatron-Core -----------------------------------------------------

    void megatronArguments(std::size_t& i) {
        const std::size_t header = i + 1;
        log.layout.argumentsLine = header;
        for (++i; i < lines.size(); ++i) {
            const std::string t = trim(cleanLine(lines[i]).text);
            if (t.find("end of arguments") != std::string::npos) return;
            // `  name ........ value`: the name, a run of dots, the value.
            const auto dots = t.find(" ..");
            if (dots == std::string::npos) continue;  // another rank's print between the lines
            const std::string key = trim(t.substr(0, dots));
            std::size_t v = dots + 1;
            while (v < t.size() && t[v] == '.') ++v;
            log.layout.arguments[key] = trim(t.substr(v));
        }
        fail(header,
             "the arguments block opened here has no end line ('---- end of arguments ----'): "
             "the log is truncated");
    }

    void megatronIteration(std::size_t ln, const std::string& text) {
        const std::string a = afterTimestamp(text);
        std::vector<std::string> fields;
        std::size_t start = 0;
        for (;;) {
            const auto bar = a.find('|', start);
            if (bar == std::string::npos) {
                fields.push_back(a.substr(start));
                break;
            }
            fields.push_back(a.substr(start, bar - start));
            start = bar + 1;
        }
        if (!trim(fields.back()).empty() || fields.size() < 2) {
            fail(ln, "truncated iteration line: it ends inside " + inQuotes(trim(fields.back())) +
                         " (Megatron-LM closes every field with ' |')");
            return;
        }
        fields.pop_back();
        TrainStep s;
        s.line = ln;
        if (!stepOf(ln, trim(fields[0]).substr(9), s.step, s.totalSteps)) return;
        bool timed = false;
        for (std::size_t f = 1; f < fields.size(); ++f) {
            const std::string field = trim(fields[f]);
            const auto colon = field.rfind(':');
            if (colon == std::string::npos) {
                fail(ln, "garbled field " + inQuotes(field) + ": expected 'name: value'");
                return;
            }
            const std::string key = trim(field.substr(0, colon));
            const std::string value = trim(field.substr(colon + 1));
            double v = 0;
            if (key == "elapsed time per iteration (ms)") {
                if (!number(ln, key, value, v)) return;
                if (!(v > 0)) {
                    fail(ln, inQuotes(key) + " must be a positive time, not " + inQuotes(value));
                    return;
                }
                s.iteration_s = v / 1000.0;
                timed = true;
            } else if (key == "throughput per GPU (TFLOP/s/GPU)") {
                if (!number(ln, key, value, v)) return;
                s.tflopsPerGpu = v;
            } else if (key == "lm loss") {
                if (!number(ln, key, value, v)) return;
                s.loss = v;
                s.lossLogged = true;
            } else if (key == "global batch size") {
                if (!number(ln, key, value, v)) return;
                s.globalBatch = static_cast<long long>(v);
            } else if (key == "number of skipped iterations") {
                if (!number(ln, key, value, v)) return;
                s.skipped = static_cast<long long>(v);
            } else if (key == "number of nan iterations") {
                if (!number(ln, key, value, v)) return;
                s.nanIterations = static_cast<long long>(v);
            } else if (value.empty()) {
                fail(ln, "field " + inQuotes(key) + " has no value (a truncated or garbled line)");
                return;
            }
        }
        if (!timed) {
            fail(ln,
                 "iteration line without 'elapsed time per iteration (ms)': not a "
                 "Megatron-LM training record (a truncated or garbled line)");
            return;
        }
        add(s);
    }

    void megatronMemory(std::size_t ln, const std::string& t) {
        const auto k = t.find("max allocated:");
        if (k == std::string::npos) return;
        const auto end = t.find('|', k);
        const std::string value =
            trim(t.substr(k + 14, end == std::string::npos ? std::string::npos : end - k - 14));
        double mb = 0;
        if (!number(ln, "max allocated", value, mb)) return;
        const double bytes = mb * 1024.0 * 1024.0;  // Megatron's MB: 2^20 bytes
        if (!std::isfinite(log.peakMemoryBytes) || bytes > log.peakMemoryBytes) {
            log.peakMemoryBytes = bytes;
            log.memoryLine = ln;
        }
    }

    void megatronValidation(std::size_t ln, const std::string& t) {
        // ` validation loss at iteration 1000 | lm loss value: 6.439325E+00 | lm loss PPL: ...`
        const std::string head = "validation loss at iteration";
        const auto bar = t.find('|');
        long long step = 0;
        if (bar == std::string::npos ||
            !parseInteger(trim(t.substr(head.size(), bar - head.size())), step))
            return;  // "validation loss at the end of training": no iteration
        const auto k = t.find("lm loss value:");
        if (k == std::string::npos) return;
        const auto end = t.find('|', k);
        double v = 0;
        if (!number(ln, "lm loss value",
                    t.substr(k + 14, end == std::string::npos ? std::string::npos : end - k - 14),
                    v))
            return;
        addVal(ln, step, v);
    }

    void megatron() {
        for (std::size_t i = 0; i < lines.size() && !failed; ++i) {
            const CleanLine c = cleanLine(lines[i]);
            const std::string t = trim(c.text);
            const std::size_t ln = i + 1;
            if (isArgumentsHeader(t)) {
                megatronArguments(i);
            } else if (isMegatronIteration(t)) {
                if (samePrefix(ln, c.prefix)) megatronIteration(ln, t);
            } else if (t.find("memory (MB)") != std::string::npos) {
                megatronMemory(ln, t);
            } else if (startsWith(t, "validation loss at iteration")) {
                megatronValidation(ln, t);
            } else if (startsWith(t, "> padded vocab (size:")) {
                // `> padded vocab (size: 50257) with 47 dummy tokens (new size: 50304)`
                long long v = 0, nv = 0;
                const auto a = t.find(':'), b = t.find(')');
                const auto c2 = t.find("new size:");
                if (a != std::string::npos && b != std::string::npos && b > a &&
                    parseInteger(trim(t.substr(a + 1, b - a - 1)), v))
                    log.layout.vocab = int(v);
                if (c2 != std::string::npos) {
                    const auto e = t.find(')', c2);
                    if (e != std::string::npos &&
                        parseInteger(trim(t.substr(c2 + 9, e - c2 - 9)), nv))
                        log.layout.paddedVocab = int(nv);
                }
            }
        }
    }

    // --- NeMo ------------------------------------------------------------------------------

    void nemoStep(std::size_t ln, const std::string& t) {
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
                fail(ln,
                     "truncated or garbled field " + inQuotes(field) + ": expected 'name: value'");
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

    void nemoProgress(std::size_t ln, const std::string& t) {
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

    void nemo() {
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

    // --- torchtitan ------------------------------------------------------------------------

    /// Seconds of a `YYYY-MM-DD HH:MM:SS,mmm` timestamp in `t` (days from the civil date);
    /// NaN when there is none.
    static double timestamp(const std::string& t) {
        for (std::size_t p = 0; p + 23 <= t.size(); ++p) {
            const std::string s = t.substr(p, 23);
            auto dig = [&](std::size_t a, std::size_t n, int& out) {
                out = 0;
                for (std::size_t k = a; k < a + n; ++k) {
                    if (!std::isdigit(static_cast<unsigned char>(s[k]))) return false;
                    out = out * 10 + (s[k] - '0');
                }
                return true;
            };
            int y, mo, d, h, mi, se, ms;
            if (s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':' ||
                (s[19] != ',' && s[19] != '.'))
                continue;
            if (!dig(0, 4, y) || !dig(5, 2, mo) || !dig(8, 2, d) || !dig(11, 2, h) ||
                !dig(14, 2, mi) || !dig(17, 2, se) || !dig(20, 3, ms))
                continue;
            // Days from civil (H. Hinnant's algorithm).
            const int yy = y - (mo <= 2);
            const int era = (yy >= 0 ? yy : yy - 399) / 400;
            const int yoe = yy - era * 400;
            const int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
            const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
            const double days = double(era) * 146097 + doe - 719468;
            return days * 86400.0 + h * 3600.0 + mi * 60.0 + se + ms / 1000.0;
        }
        return kNaN;
    }

    /// The token after `key` in a torchtitan line (blanks allowed after the colon), or "".
    static std::string titanValue(const std::string& t, const std::string& key, bool& present) {
        std::size_t p = 0;
        present = false;
        while ((p = t.find(key, p)) != std::string::npos) {
            if (p == 0 || t[p - 1] == ' ' || t[p - 1] == '\t') break;
            ++p;
        }
        if (p == std::string::npos) return "";
        present = true;
        std::size_t b = p + key.size();
        while (b < t.size() && t[b] == ' ') ++b;
        std::size_t e = b;
        while (e < t.size() && t[e] != ' ' && t[e] != '\t') ++e;
        return t.substr(b, e - b);
    }

    void torchtitan() {
        double prevTime = kNaN;
        long long prevStep = 0;
        for (std::size_t i = 0; i < lines.size() && !failed; ++i) {
            const CleanLine c = cleanLine(lines[i]);
            const std::string& t = c.text;
            const std::size_t ln = i + 1;
            const std::size_t at = torchtitanStep(t);
            if (at == std::string::npos) continue;
            if (!samePrefix(ln, c.prefix)) return;
            const std::string body = t.substr(at);
            TrainStep s;
            s.line = ln;
            bool has = false;
            const std::string stepText = titanValue(body, "step:", has);
            long long step = 0;
            if (!parseInteger(stepText, step) || step < 0) {
                fail(ln, "garbled step " + inQuotes(stepText) + ": expected an integer");
                return;
            }
            s.step = step;
            const std::string mfu = titanValue(body, "mfu:", has);
            if (!has || mfu.empty() || mfu.back() != '%') {
                fail(ln,
                     "truncated step line: no 'mfu: M%' at its end (torchtitan closes every step "
                     "line with it)");
                return;
            }
            double v = 0;
            if (!number(ln, "mfu", mfu.substr(0, mfu.size() - 1), v)) return;
            s.mfu = v / 100.0;
            const std::string loss = titanValue(body, "loss:", has);
            if (!number(ln, "loss", loss, v)) return;
            s.loss = v;
            s.lossLogged = true;
            const std::string mem = titanValue(body, "memory:", has);
            if (has) {
                const auto g = mem.find("GiB");
                if (g == std::string::npos || !number(ln, "memory", mem.substr(0, g), v)) {
                    if (!failed)
                        fail(ln,
                             "'memory' is not 'X GiB(Y%)': " + inQuotes(mem) + " (a garbled line)");
                    return;
                }
                s.memoryGiB = v;
            }
            for (const char* key : {"tps:", "wps:"}) {
                const std::string tps = titanValue(body, key, has);
                if (!has) continue;
                if (!number(ln, std::string(key, 3), tps, v)) return;
                s.tokensPerSPerGpu = v;
            }
            const std::string tf = titanValue(body, "tflops:", has);
            if (has) {
                if (!number(ln, "tflops", tf, v)) return;
                s.tflopsPerGpu = v;
            }
            const double now = timestamp(t);
            if (std::isfinite(now) && std::isfinite(prevTime) && step > prevStep)
                s.iteration_s = (now - prevTime) / double(step - prevStep);
            prevTime = now;
            prevStep = step;
            if (!add(s)) return;
        }
    }

    // --- modded-nanogpt --------------------------------------------------------------------

    void modded() {
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

    // --- after any format ------------------------------------------------------------------

    void layoutFromArguments() {
        auto& L = log.layout;
        const auto& a = L.arguments;
        auto text = [&](const char* k) -> std::string {
            const auto it = a.find(k);
            return it == a.end() || it->second == "None" ? std::string() : it->second;
        };
        auto integer = [&](const char* k, int& out) {
            const std::string v = text(k);
            long long n = 0;
            if (v.empty()) return;
            if (!parseInteger(v, n) || n < 0 || n > std::numeric_limits<int>::max()) {
                fail(L.argumentsLine, "argument " + std::string(k) + " is not a count: " +
                                          inQuotes(v) + " (a garbled arguments block)");
                return;
            }
            out = int(n);
        };
        auto flag = [&](const char* k) { return text(k) == "True"; };
        integer("world_size", L.worldSize);
        integer("tensor_model_parallel_size", L.tp);
        integer("pipeline_model_parallel_size", L.pp);
        integer("context_parallel_size", L.cp);
        integer("expert_model_parallel_size", L.ep);
        integer("expert_tensor_parallel_size", L.etp);
        integer("virtual_pipeline_model_parallel_size", L.vp);
        integer("micro_batch_size", L.microBatch);
        integer("global_batch_size", L.globalBatch);
        integer("seq_length", L.seqLength);
        integer("num_layers", L.layers);
        integer("hidden_size", L.hidden);
        integer("ffn_hidden_size", L.ffnHidden);
        integer("num_attention_heads", L.heads);
        if (flag("group_query_attention")) integer("num_query_groups", L.queryGroups);
        integer("kv_channels", L.kvChannels);
        integer("num_experts", L.experts);
        integer("moe_router_topk", L.topK);
        integer("moe_ffn_hidden_size", L.moeFfnHidden);
        int vocab = 0, padded = 0;
        integer("vocab_size", vocab);
        integer("padded_vocab_size", padded);
        if (vocab > 0) L.vocab = vocab;
        if (padded > 0) L.paddedVocab = padded;
        integer("make_vocab_size_divisible_by", L.vocabDivisor);
        L.swiglu = flag("swiglu");
        L.sequenceParallel = flag("sequence_parallel");
        L.distributedOptimizer = flag("use_distributed_optimizer");
        const std::string fp8 = text("fp8");
        if (!fp8.empty())
            L.precision = "fp8-" + fp8;
        else if (flag("bf16"))
            L.precision = "bf16";
        else if (flag("fp16"))
            L.precision = "fp16";
        else if (a.count("bf16") && a.count("fp16"))
            L.precision = "fp32";
        L.recomputeGranularity = text("recompute_granularity");
        L.recomputeMethod = text("recompute_method");
        if (!L.recomputeGranularity.empty()) integer("recompute_num_layers", L.recomputeLayers);
        if (L.globalBatch == 0)
            for (const auto& s : log.steps)
                if (s.globalBatch > 0) L.globalBatch = int(s.globalBatch);
    }

    void finish() {
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
                                " record(s) (steps " + std::to_string(log.steps.front().step) +
                                " to " + std::to_string(last.step) +
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
};

}  // namespace

TrainStep::TrainStep()
    : iteration_s(kNaN),
      loss(kNaN),
      tflopsPerGpu(kNaN),
      tokensPerSPerGpu(kNaN),
      mfu(kNaN),
      memoryGiB(kNaN) {}

TrainLog::TrainLog()
    : tflopsPerGpu(kNaN),
      tokensPerSPerGpuLogged(kNaN),
      mfu(kNaN),
      tokensPerS(kNaN),
      tokensPerSPerGpu(kNaN),
      peakMemoryBytes(kNaN) {}

const EnumTable<TrainLogFormat>& trainLogFormatNames() {
    static const EnumTable<TrainLogFormat> t = {{TrainLogFormat::Megatron, "megatron"},
                                                {TrainLogFormat::Nemo, "nemo"},
                                                {TrainLogFormat::Torchtitan, "torchtitan"},
                                                {TrainLogFormat::ModdedNanoGpt, "modded-nanogpt"}};
    return t;
}
const char* name(TrainLogFormat f) { return enumName(trainLogFormatNames(), f); }

std::vector<std::string> TrainLogLayout::missingForPrediction() const {
    std::vector<std::string> m;
    auto need = [&](int v, const char* k) {
        if (v <= 0) m.push_back(k);
    };
    need(layers, "num_layers");
    need(hidden, "hidden_size");
    need(heads, "num_attention_heads");
    need(ffnHidden, "ffn_hidden_size");
    need(std::max(vocab, paddedVocab), "vocab_size");
    need(seqLength, "seq_length");
    need(microBatch, "micro_batch_size");
    need(globalBatch, "global_batch_size");
    need(worldSize, "world_size");
    need(tp, "tensor_model_parallel_size");
    need(pp, "pipeline_model_parallel_size");
    if (experts > 0) need(topK, "moe_router_topk");
    return m;
}

std::optional<TrainLogFormat> trainLogFormat(const std::vector<std::string>& lines) {
    for (const auto& raw : lines) {
        const std::string t = trim(cleanLine(raw).text);
        if (t.empty()) continue;
        if ((isMegatronIteration(t) && t.find("elapsed time per iteration") != std::string::npos) ||
            isArgumentsHeader(t))
            return TrainLogFormat::Megatron;
        if (t.find("train_step_timing in s") != std::string::npos ||
            t.find("reduced_train_loss") != std::string::npos)
            return TrainLogFormat::Nemo;
        if (isModdedLine(t)) return TrainLogFormat::ModdedNanoGpt;
        if (isTorchtitanLine(t)) return TrainLogFormat::Torchtitan;
    }
    return std::nullopt;
}

std::optional<TrainLog> parseTrainLog(const std::string& text, Diagnostics& diag) {
    const auto lines = splitLines(text.substr(utf8BomLength(text)));
    const auto format = trainLogFormat(lines);
    if (!format) {
        diag.error("file",
                   "not a training log: no Megatron-LM, NeMo, torchtitan or modded-nanogpt step "
                   "line");
        return std::nullopt;
    }
    Reader r(lines, diag);
    r.log.format = *format;
    switch (*format) {
        case TrainLogFormat::Megatron:
            r.megatron();
            break;
        case TrainLogFormat::Nemo:
            r.nemo();
            break;
        case TrainLogFormat::Torchtitan:
            r.torchtitan();
            break;
        case TrainLogFormat::ModdedNanoGpt:
            r.modded();
            break;
    }
    if (!r.failed) r.layoutFromArguments();
    if (!r.failed) r.finish();
    if (r.failed) return std::nullopt;
    return std::move(r.log);
}

std::optional<TrainLog> loadTrainLogFile(const std::string& path, Diagnostics& diag) {
    std::string text;
    if (!readTextFile(path, text, diag)) return std::nullopt;
    return parseTrainLog(text, diag);
}

}  // namespace tandem::io
