// Training-log lines as the readers see them: ANSI codes and launcher / rank prefixes removed,
// logged numbers parsed, and the tests that tell each format's record lines apart.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "common/number_format.h"
#include "io/text_file.h"
#include "io/train_log_reader.h"

namespace tandem::io::detail {

namespace {

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

}  // namespace

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

bool parseLogged(std::string s, double& out) {
    s.erase(std::remove(s.begin(), s.end(), ','), s.end());
    const std::string l = toLower(s);
    if (l == "nan" || l == "-nan" || l == "+nan" || l == "inf" || l == "-inf" || l == "+inf") {
        out = kNaN;
        return true;
    }
    return parseDouble(s, out);
}

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

bool isModdedStart(const std::string& s) {
    const std::string t = trim(s);
    if (!startsWith(t, "step:")) return false;
    std::size_t i = 5;
    const std::size_t d = i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    return i > d && i < t.size() && t[i] == '/';
}

bool isModdedLine(const std::string& s) {
    return isModdedStart(s) &&
           (s.find("train_time:") != std::string::npos || s.find("val_loss:") != std::string::npos);
}

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

bool isTorchtitanLine(const std::string& s) {
    const auto st = torchtitanStep(s);
    if (st == std::string::npos) return false;
    const auto lo = s.find("loss:", st);
    return lo != std::string::npos &&
           (s.find("tps:", lo) != std::string::npos || s.find("wps:", lo) != std::string::npos ||
            s.find("memory:", lo) != std::string::npos);
}

std::string inQuotes(const std::string& s) { return "'" + s + "'"; }

}  // namespace tandem::io::detail
