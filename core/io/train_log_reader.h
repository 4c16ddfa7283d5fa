#pragma once
// The training-log readers' shared parts (io/ only; the public interface is io/train_log.h):
// line cleaning and classification (train_log_lines.cpp) and the reader's working state, whose
// per-format parts live in train_log_megatron.cpp, train_log_nemo.cpp, train_log_torchtitan.cpp
// and train_log_modded.cpp, and whose steady-state statistics live in train_log_steady.cpp.
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "common/number_format.h"
#include "io/text_file.h"
#include "io/train_log.h"

namespace tandem::io::detail {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A log line as the readers see it: ANSI codes removed, launcher and rank prefixes split off.
struct CleanLine {
    std::string text;    ///< the line without prefixes
    std::string prefix;  ///< the prefixes removed ("" when none)
};

/// `raw` with ANSI codes removed and its launcher and rank prefixes split off.
CleanLine cleanLine(const std::string& raw);

/// True when `s` begins with `p`.
bool startsWith(const std::string& s, const std::string& p);

/// Parses a logged number: finite decimals, thousands separators removed ("7,282"), and "nan" /
/// "inf" (any case, signed) as NaN. False for anything else.
bool parseLogged(std::string s, double& out);

/// The text after `[...]` timestamps at the start of `t` (Megatron-Core prints
/// ` [2024-04-06 03:02:12] iteration ...`), trimmed.
std::string afterTimestamp(const std::string& t);

/// A Megatron-LM `iteration N` line (after any `[...]` timestamp).
bool isMegatronIteration(const std::string& s);

/// The `---- arguments ----` line opening Megatron-LM's arguments block.
bool isArgumentsHeader(const std::string& s);

/// A NeMo 2 `Training epoch E, iteration N/M | ...` step line.
bool isNemoStepLine(const std::string& s);

/// A NeMo 1 Lightning progress-bar line `Epoch E: ... | N/M [..., reduced_train_loss=X]`.
bool isNemoProgressLine(const std::string& s);

/// A line opening like modded-nanogpt's step lines: `step:N/` (the reader's test; a cut line
/// counts, to be refused).
bool isModdedStart(const std::string& s);

/// A modded-nanogpt step line as the format's detection wants it (`step:N/` and a field).
bool isModdedLine(const std::string& s);

/// Position of a torchtitan `step:` field (at the start or after a blank, then blanks and a
/// digit) in `s`, or npos.
std::size_t torchtitanStep(const std::string& s);

/// A torchtitan step line as the format's detection wants it: `step:` then `loss:` and
/// `tps:`, `wps:` or `memory:`.
bool isTorchtitanLine(const std::string& s);

/// `s` in single quotes, for messages.
std::string inQuotes(const std::string& s);

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

    // --- Megatron-LM / Megatron-Core (train_log_megatron.cpp) ------------------------------

    void megatronArguments(std::size_t& i);
    void megatronIteration(std::size_t ln, const std::string& text);
    void megatronMemory(std::size_t ln, const std::string& t);
    void megatronValidation(std::size_t ln, const std::string& t);
    void megatron();

    // --- NeMo (train_log_nemo.cpp) ---------------------------------------------------------

    void nemoStep(std::size_t ln, const std::string& t);
    void nemoProgress(std::size_t ln, const std::string& t);
    void nemo();

    // --- torchtitan (train_log_torchtitan.cpp) ---------------------------------------------

    static double timestamp(const std::string& t);
    static std::string titanValue(const std::string& t, const std::string& key, bool& present);
    void torchtitan();

    // --- modded-nanogpt (train_log_modded.cpp) ---------------------------------------------

    void modded();

    // --- after any format (train_log_megatron.cpp, train_log_steady.cpp) -------------------

    void layoutFromArguments();
    void finish();
};

}  // namespace tandem::io::detail
