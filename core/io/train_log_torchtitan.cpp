// The torchtitan log reader: `step:` lines with loss, throughput and memory fields.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "common/number_format.h"
#include "io/text_file.h"
#include "io/train_log_reader.h"

namespace tandem::io::detail {

/// Seconds of a `YYYY-MM-DD HH:MM:SS,mmm` timestamp in `t` (days from the civil date);
/// NaN when there is none.
double Reader::timestamp(const std::string& t) {
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
        if (!dig(0, 4, y) || !dig(5, 2, mo) || !dig(8, 2, d) || !dig(11, 2, h) || !dig(14, 2, mi) ||
            !dig(17, 2, se) || !dig(20, 3, ms))
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
std::string Reader::titanValue(const std::string& t, const std::string& key, bool& present) {
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

void Reader::torchtitan() {
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
                    fail(ln, "'memory' is not 'X GiB(Y%)': " + inQuotes(mem) + " (a garbled line)");
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

}  // namespace tandem::io::detail
