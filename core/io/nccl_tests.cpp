#include "io/nccl_tests.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

#include "common/json_reader.h"
#include "common/number_format.h"
#include "io/text_file.h"

namespace tandem::io {
namespace {

/// Largest algbw / busbw a row may give (GB/s): 100 TB/s per GPU, two orders of magnitude above
/// any 2026 interconnect (NVLink 5: 1.8 TB/s); larger values are corrupt text, not measurements.
constexpr double kMaxBandwidth_GBps = 1e5;
/// Largest message size a row may state, 2^40 B = 1 TiB. nccl-tests' size is one rank's buffer
/// (the receive buffer for all-gather and all-to-all), held in a single GPU's memory, and no GPU
/// has 1 TiB of it (B300: 288 GB); the usual sweep ends at -e 8G or 16G.
constexpr long long kMaxMessage_B = 1LL << 40;

int typeSize(const std::string& t) {
    static const std::map<std::string, int> m = {
        {"int8", 1},   {"uint8", 1},  {"char", 1},   {"fp8_e4m3", 1}, {"fp8_e5m2", 1},
        {"f8e4m3", 1}, {"f8e5m2", 1}, {"half", 2},   {"bfloat16", 2}, {"float16", 2},
        {"int32", 4},  {"uint32", 4}, {"int", 4},    {"float", 4},    {"float32", 4},
        {"int64", 8},  {"uint64", 8}, {"double", 8}, {"float64", 8}};
    auto it = m.find(t);
    return it == m.end() ? 0 : it->second;
}

/// What a failure line reports, or "" when `lower` (a lower-cased line) is not one: an NCCL /
/// CUDA / test failure or a failed data check ("NCCL error reported"), or the process dying
/// (abort, signal, kill, scheduler cancel: "the run aborted"). NCCL INFO lines never count
/// (NCCL prints "Abort" steps there on a healthy teardown too).
const char* failureKind(const std::string& lower) {
    static const std::vector<std::string> nccl = {
        "nccl failure",        "cuda failure",    "test failure",           "nccl error",
        "ncclinternalerror",   "ncclsystemerror", "ncclunhandledcudaerror", "ncclinvalidusage",
        "ncclinvalidargument", "ncclremoteerror", "test nccl failure"};
    static const std::vector<std::string> died = {
        "segmentation fault", "bus error",        "aborted",         "core dumped",
        "exited on signal",   "terminate called", "received signal", "killed",
        "cancelled",          "oom-kill",         "out of memory"};
    if (lower.find("nccl info") != std::string::npos) return "";
    for (const auto& m : nccl)
        if (lower.find(m) != std::string::npos) return "NCCL error reported";
    if (lower.find("out of bounds values") != std::string::npos &&
        lower.find("failed") != std::string::npos)
        return "NCCL error reported";
    for (const auto& m : died)
        if (lower.find(m) != std::string::npos) return "the run aborted";
    return "";
}

/// "X_perf" with X a collective's word, at a token boundary, in `lower` (lower-cased text);
/// nullopt if none. The words are tried in collectiveNames() order, so "reduce_scatter_perf"
/// is never read as reduce.
std::optional<Collective> perfToken(const std::string& lower) {
    for (const auto& c : collectiveNames()) {
        const std::string tok = std::string(c.name) + "_perf";
        for (auto p = lower.find(tok); p != std::string::npos; p = lower.find(tok, p + 1)) {
            const bool boundary =
                p == 0 ||
                !(std::isalnum(static_cast<unsigned char>(lower[p - 1])) || lower[p - 1] == '_');
            if (boundary) return c.value;
        }
    }
    return std::nullopt;
}

/// The spellings of collectives that name a file (lower-cased, '-' removed), looked for in this
/// order: the nccl-tests words and their forms without '_'. Gather, scatter and reduce are left
/// out (their words stand inside the others), and so is hypercube.
const EnumTable<Collective>& fileNameSpellings() {
    static const EnumTable<Collective> t = {{Collective::ReduceScatter, "reduce_scatter"},
                                            {Collective::ReduceScatter, "reducescatter"},
                                            {Collective::AllReduce, "all_reduce"},
                                            {Collective::AllReduce, "allreduce"},
                                            {Collective::AllGather, "all_gather"},
                                            {Collective::AllGather, "allgather"},
                                            {Collective::AllToAll, "alltoall"},
                                            {Collective::AllToAll, "all_to_all"},
                                            {Collective::Broadcast, "broadcast"},
                                            {Collective::SendRecv, "sendrecv"}};
    return t;
}

/// The collective a file name spells (fileNameSpellings()), or nullopt.
std::optional<Collective> collectiveFromFileName(const std::string& fileName) {
    std::string n = toLower(baseName(fileName));
    n.erase(std::remove(n.begin(), n.end(), '-'), n.end());
    for (const auto& e : fileNameSpellings())
        if (n.find(e.name) != std::string::npos) return e.value;
    return std::nullopt;
}

/// Whether the `size` column of `c` is `count` x the type size x the rank count (all-gather,
/// reduce-scatter, all-to-all), so that size / count gives the ranks.
bool perRankCount(Collective c) {
    return c == Collective::AllGather || c == Collective::ReduceScatter ||
           c == Collective::AllToAll;
}

/// "2x8" style node x GPU count in a file name; 0 when absent.
int ranksFromFileName(const std::string& fileName) {
    const std::string n = baseName(fileName);
    for (std::size_t i = 0; i < n.size(); ++i) {
        if (n[i] != 'x' || i == 0 || i + 1 >= n.size()) continue;
        std::size_t a = i, b = i + 1;
        while (a > 0 && std::isdigit(static_cast<unsigned char>(n[a - 1]))) --a;
        while (b < n.size() && std::isdigit(static_cast<unsigned char>(n[b]))) ++b;
        if (a == i || b == i + 1) continue;
        const bool leftEdge = a == 0 || !std::isalnum(static_cast<unsigned char>(n[a - 1]));
        const bool rightEdge = b == n.size() || !std::isalnum(static_cast<unsigned char>(n[b]));
        if (!leftEdge || !rightEdge || i - a > 6 || b - i - 1 > 6) continue;
        const long long nodes = std::stoll(n.substr(a, i - a));
        const long long gpus = std::stoll(n.substr(i + 1, b - i - 1));
        if (nodes > 0 && gpus > 0 && nodes * gpus <= 1000000) return static_cast<int>(nodes * gpus);
    }
    return 0;
}

struct RawRow {
    double bytes = 0, count = 0;
    std::string type;
    bool reduces = false;  // a redop column naming a reduction (sum, prod, ...; not "none")
    double t[2] = {0, 0}, algbw[2] = {0, 0}, busbw[2] = {0, 0};
    long long wrong[2] = {0, 0};   // the #wrong column (0 when N/A or the older `error` column)
    double deviation[2] = {0, 0};  // the older layout's `error` column (0 when N/A)
    std::string deviationText[2];  // that column as printed
    int halves = 1;
    std::size_t line = 0;
};

struct Section {
    std::optional<Collective> collective;  // from the log
    int maxRank = -1;
    int headerHalves = 0;      // busbw columns in the header (0 = no header seen)
    bool errorColumn = false;  // the older layout's `error` column (a deviation, not a count)
    std::vector<RawRow> rows;
    std::size_t firstLine = 0;
    std::size_t summaryLine = 0;     // the "# Avg bus bandwidth" line closing the table (0 = none)
    std::vector<std::string> notes;  // truncation and warnings, copied to the curve
};

bool isNumberToken(const std::string& s) {
    double v;
    return parseDouble(s, v);
}

/// Parses a data row; returns false (with `why`) when the line looks like a row but is broken.
bool parseRow(const std::vector<std::string>& tok, int headerHalves, bool errorColumn, RawRow& r,
              std::string& why) {
    long long size = 0, count = 0;
    parseInteger(tok[0], size);
    parseInteger(tok[1], count);
    r.bytes = static_cast<double>(size);
    r.count = static_cast<double>(count);
    r.type = tok[2];
    const std::size_t rest = tok.size() - 3;
    int halves = headerHalves;
    if (halves > 2) {  // nccl-tests prints an out-of-place and an in-place half, no more
        why = "the table header has " + std::to_string(halves) +
              " busbw columns; nccl-tests prints one or two (out-of-place, in-place)";
        return false;
    }
    if (halves == 0) halves = rest >= 8 ? 2 : 1;
    if (rest < 4 * static_cast<std::size_t>(halves) && halves == 2 && rest >= 4 && rest <= 6)
        halves = 1;  // a table printed without the in-place half
    const std::size_t timing = 4 * static_cast<std::size_t>(halves);
    if (rest < timing || rest > timing + 2) {
        why = "expected size, count, type, [redop], [root] and " + std::to_string(4 * halves) +
              " timing columns (got " + std::to_string(tok.size()) + " columns)";
        return false;
    }
    const std::size_t mid = rest - 4 * halves;
    if (mid >= 1) {
        // tok[3]: the redop word ("none" for a collective that does not reduce) or, in a table
        // without a redop column, a number.
        r.reduces = !isNumberToken(tok[3]) && toLower(tok[3]) != "none";
    }
    const std::size_t base = 3 + mid;
    for (int h = 0; h < halves; ++h) {
        const std::size_t o = base + 4 * h;
        const char* half = h ? "in-place" : "out-of-place";
        if (!parseDouble(tok[o], r.t[h]) || !parseDouble(tok[o + 1], r.algbw[h]) ||
            !parseDouble(tok[o + 2], r.busbw[h]) || r.t[h] < 0 || r.algbw[h] < 0 ||
            r.busbw[h] < 0) {
            why = std::string("time, algbw and busbw of the ") + half +
                  " half must be finite numbers >= 0 (got \"" + tok[o] + "\", \"" + tok[o + 1] +
                  "\", \"" + tok[o + 2] + "\")";
            return false;
        }
        if (r.algbw[h] > kMaxBandwidth_GBps || r.busbw[h] > kMaxBandwidth_GBps) {
            why = std::string("busbw / algbw of the ") + half + " half above " +
                  formatNumber(kMaxBandwidth_GBps) + " GB/s, beyond any interconnect (got " +
                  tok[o + 2] + " / " + tok[o + 1] + ")";
            return false;
        }
        // #wrong: elements that failed nccl-tests' data check; N/A when the check is off (-c 0).
        // The older layout's `error` column is the largest deviation, a number or N/A.
        const std::string& w = tok[o + 3];
        double dev = 0;
        if (w == "N/A") continue;
        if (errorColumn ? !parseDouble(w, dev) || dev < 0
                        : !parseInteger(w, r.wrong[h]) || r.wrong[h] < 0) {
            why = std::string(errorColumn ? "error" : "#wrong") + " of the " + half +
                  " half must be " + (errorColumn ? "a number >= 0" : "a count >= 0") +
                  " or N/A (got \"" + w + "\")";
            return false;
        }
        r.deviation[h] = dev;
        r.deviationText[h] = w;
    }
    r.halves = halves;
    if (size < 0 || count < 0) {
        why = "size and count must be >= 0";
        return false;
    }
    return true;
}

/// The largest deviation from the expected result that nccl-tests' data check lets pass for data
/// type `t` (its DeltaMaxValue, common.cu): 1e-2 for half / bfloat16, 1e-5 for float, 1e-12 for
/// double, 0 for integer and unknown types (any deviation fails). Versions that scale it by
/// (ranks - 1) for reductions are covered by deviationTolerance.
double typeTolerance(const std::string& t) {
    if (t == "half" || t == "float16" || t == "bfloat16") return 1e-2;
    if (t == "float" || t == "float32") return 1e-5;
    if (t == "double" || t == "float64") return 1e-12;
    return 0;
}

/// The deviation above which a row of the older layout (`error` column) failed nccl-tests' data
/// check: typeTolerance(t) x max(1, ranks - 1), the most lenient form nccl-tests used (ranks
/// from the log's Rank lines, 1 when unknown).
double deviationTolerance(const std::string& t, int ranks) {
    return typeTolerance(t) * std::max(1, ranks - 1);
}

bool looksLikeRow(const std::vector<std::string>& tok) {
    long long a, b;
    return tok.size() >= 7 && parseInteger(tok[0], a) && parseInteger(tok[1], b) &&
           !tok[2].empty() && std::isalpha(static_cast<unsigned char>(tok[2][0]));
}

double medianRatio(const std::vector<RawRow>& rows) {
    std::vector<double> r;
    for (const auto& row : rows)
        if (row.algbw[0] >= 1.0) r.push_back(row.busbw[0] / row.algbw[0]);
    if (r.empty())
        for (const auto& row : rows)
            if (row.algbw[0] > 0) r.push_back(row.busbw[0] / row.algbw[0]);
    if (r.empty()) return 0;
    std::sort(r.begin(), r.end());
    return r[r.size() / 2];
}

/// Rank counts n whose busbw/algbw factor (f = 2 for all-reduce, 1 otherwise: f (n-1)/n) lies
/// inside every out-of-place row's ratio interval, the printed busbw and algbw (GB/s, two
/// decimals as nccl-tests prints them) each being +-0.005. Rows with algbw < 1 GB/s are too
/// coarse and skipped. Returns {lo, hi} (0, 0 when no row qualifies or the rows disagree).
std::pair<int, int> ranksFromRatioIntervals(const std::vector<RawRow>& rows, double f) {
    double lo = 0, hi = std::numeric_limits<double>::infinity();
    bool any = false;
    for (const auto& r : rows) {
        if (!(r.algbw[0] >= 1.0) || !(r.busbw[0] > 0)) continue;
        any = true;
        lo = std::max(lo, (r.busbw[0] - 0.005) / (r.algbw[0] + 0.005));
        hi = std::min(hi, (r.busbw[0] + 0.005) / (r.algbw[0] - 0.005));
    }
    if (!any || !(lo <= hi) || !(lo < f)) return {0, 0};
    // f (n-1)/n >= lo  <=>  n >= f / (f - lo); <= hi  <=>  n <= f / (f - hi) (hi < f).
    const int nLo = std::max(2, static_cast<int>(std::ceil(f / (f - lo) - 1e-9)));
    const int nHi = hi < f ? static_cast<int>(std::floor(f / (f - hi) + 1e-9)) : 1000000;
    if (nLo > nHi || nLo > 1000000) return {0, 0};
    return {nLo, std::min(nHi, 1000000)};
}

NcclCurve buildCurve(const Section& s, const std::string& fileName, const std::string& wholeLower,
                     bool singleSection) {
    NcclCurve c;
    c.notes = s.notes;
    // Collective.
    std::optional<Collective> named = s.collective;
    c.collectiveSource = "log";
    if (!named && singleSection) named = perfToken(wholeLower);
    if (!named) {
        named = collectiveFromFileName(fileName);
        c.collectiveSource = "file name";
    }
    const double ratio = medianRatio(s.rows);
    if (named) {
        c.collective = *named;
    } else {
        c.collectiveSource = "inferred";
        const bool reduces = !s.rows.empty() && s.rows.back().reduces;
        if (reduces && s.maxRank >= 1) {
            // With the rank count known, pick the convention whose busbw/algbw is closer [N].
            const int n = s.maxRank + 1;
            const double ar = busBandwidthFactor(Collective::AllReduce, n),
                         rs = busBandwidthFactor(Collective::ReduceScatter, n);
            c.collective = std::abs(ratio - ar) <= std::abs(ratio - rs) ? Collective::AllReduce
                                                                        : Collective::ReduceScatter;
        } else if (reduces) {
            c.collective = ratio > 1.01 ? Collective::AllReduce : Collective::ReduceScatter;
        } else {
            c.collective = Collective::AllToAll;  // all-gather and all-to-all look alike here
        }
        c.notes.push_back("collective not named in the log or file name; inferred \"" +
                          std::string(name(c.collective)) + "\" from redop and busbw/algbw");
    }
    // Ranks.
    const RawRow* big = nullptr;
    for (const auto& r : s.rows)
        if (!big || r.bytes > big->bytes) big = &r;
    const bool perRank = perRankCount(c.collective);
    if (s.maxRank >= 0) {
        c.ranks = s.maxRank + 1;
        c.ranksSource = "rank lines";
    } else if (perRank && big && big->count > 0 && typeSize(big->type) > 0) {
        c.ranks = static_cast<int>(std::lround(big->bytes / (big->count * typeSize(big->type))));
        c.ranksSource = "size/count";
    } else if (int n = ranksFromFileName(fileName); n > 0) {
        // The file name and the table's busbw/algbw are two sources; when they disagree the
        // data wins (a file name is only a label someone typed).
        c.ranks = n;
        c.ranksSource = "file name";
        const double f = busFactorLimit(c.collective);
        const bool ratioHasRanks = c.collective == Collective::AllReduce || perRank;
        const auto [lo, hi] =
            ratioHasRanks ? ranksFromRatioIntervals(s.rows, f) : std::pair<int, int>{0, 0};
        if (lo > 0 && (n < lo || n > hi)) {
            const int data = lo == hi ? lo : static_cast<int>(std::lround(f / (f - ratio)));
            c.ranks = std::min(std::max(data, lo), hi);
            c.ranksSource = "busbw/algbw";
            c.notes.push_back(
                "file name says " + std::to_string(n) + " ranks; busbw/algbw " +
                formatNumber(std::round(ratio * 1e4) / 1e4) + " implies " +
                (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                "; using " + std::to_string(c.ranks) + " (the data)");
        } else {
            c.notes.push_back("rank count " + std::to_string(n) + " taken from the file name" +
                              (lo > 0 ? " (consistent with busbw/algbw)" : ""));
        }
    } else if (ratio > 0) {
        const double f = busFactorLimit(c.collective);
        if (ratio < f) {
            c.ranks = static_cast<int>(std::lround(f / (f - ratio)));
            c.ranksSource = "busbw/algbw";
            c.notes.push_back("rank count " + std::to_string(c.ranks) +
                              " estimated from busbw/algbw (no Rank lines in the log)");
        }
    }
    if (c.ranks <= 0) c.notes.push_back("rank count unknown");
    // Points.
    c.dataType = s.rows.empty() ? "" : s.rows.front().type;
    std::size_t zero = 0;
    std::map<double, NcclPoint> bySize;
    for (const auto& r : s.rows) {
        NcclPoint p;
        p.bytes = r.bytes;
        p.timeOutOfPlace_s = r.t[0] * 1e-6;
        p.busbwOutOfPlace_Bps = r.busbw[0] * 1e9;
        if (r.halves == 2) {
            c.hasInPlace = true;
            p.timeInPlace_s = r.t[1] * 1e-6;
            p.busbwInPlace_Bps = r.busbw[1] * 1e9;
        }
        p.busbw_Bps = std::max(p.busbwOutOfPlace_Bps, p.busbwInPlace_Bps);
        p.line = r.line;
        if (p.busbw_Bps > c.peakBusbw_Bps) {
            c.peakBusbw_Bps = p.busbw_Bps;
            c.peakAtBytes = p.bytes;
        }
        if (r.bytes <= 0) {
            ++zero;
            continue;
        }
        auto it = bySize.find(p.bytes);
        if (it == bySize.end()) {
            bySize.emplace(p.bytes, p);
        } else {
            c.notes.push_back(linePath(r.line) + ": size " + formatNumber(r.bytes) +
                              " repeated (first on " + linePath(it->second.line) +
                              "); kept the higher busbw");
            if (p.busbw_Bps > it->second.busbw_Bps) it->second = p;
        }
    }
    if (zero > 0) c.notes.push_back(std::to_string(zero) + " zero-byte row(s) skipped");
    for (const auto& kv : bySize) c.points.push_back(kv.second);
    return c;
}

}  // namespace

std::optional<NcclImport> parseNcclTests(const std::string& text, const std::string& fileName,
                                         Diagnostics& diag) {
    const std::size_t before = diag.items().size();
    const auto lines = splitLines(text);
    const std::string wholeLower = toLower(text);
    // A log cut mid-line (no line end after its last line) ends inside its last row.
    const bool cutMidLine = !text.empty() && text.back() != '\n' && text.back() != '\r';
    std::vector<Section> sections(1);
    int failures = 0;
    std::size_t warnings = 0, firstWarning = 0;
    std::string firstWarningText;
    // A whole run's output opens with nccl-tests' preamble (`# nThread ...`, `# Using devices`,
    // `#  Rank ...` lines, or mpirun's "Collective test starting"); a table pasted from a README
    // has none. A whole log without its "# Avg bus bandwidth" summary was cut short.
    std::size_t preambleLine = 0, lastLine = 0;
    std::string lastLineText;
    const auto quoted = [](std::string t) {
        t.erase(0, t.find_first_not_of(" \t#"));
        return "\"" + t + "\"";
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::size_t ln = i + 1;
        std::string line = stripLauncherPrefix(lines[i]);
        const std::string lower = toLower(line);
        if (const char* kind = failureKind(lower); *kind) {
            if (failures++ < 3)
                diag.error(linePath(ln),
                           std::string(kind) + ": " + quoted(line) +
                               "; the run did not complete, so no curve is produced from this log");
            continue;
        }
        if (lower.find("nccl warn") != std::string::npos) {
            if (warnings++ == 0) {
                firstWarning = ln;
                firstWarningText = quoted(line);
            }
            continue;
        }
        bool comment = false;
        const auto first = line.find_first_not_of(" \t");
        if (first != std::string::npos && line[first] == '#') {
            comment = true;
            line[first] = ' ';
        }
        const auto tok = splitBlanks(line);
        if (tok.empty()) continue;
        lastLine = ln;
        lastLineText = quoted(line);
        if (preambleLine == 0 && (tok[0] == "nThread" || tok[0] == "Rank" ||
                                  lower.find("using devices") != std::string::npos))
            preambleLine = ln;
        Section* cur = &sections.back();
        if (lower.find("collective test starting") != std::string::npos) {
            if (!cur->rows.empty() || cur->collective || cur->maxRank >= 0) {
                sections.emplace_back();
                cur = &sections.back();
            }
            cur->collective = perfToken(lower);
            cur->firstLine = ln;
            if (preambleLine == 0) preambleLine = ln;
            continue;
        }
        if (lower.find("avg bus bandwidth") != std::string::npos) {
            if (cur->summaryLine == 0) cur->summaryLine = ln;
            continue;
        }
        if (tok[0] == "Rank" && tok.size() >= 2) {
            long long r;
            if (parseInteger(tok[1], r) && r >= 0 && r < 10000000)
                cur->maxRank = std::max(cur->maxRank, static_cast<int>(r));
            continue;
        }
        if (std::find(tok.begin(), tok.end(), "busbw") != tok.end() &&
            std::find(tok.begin(), tok.end(), "size") != tok.end()) {
            if (!cur->rows.empty()) {
                sections.emplace_back();
                cur = &sections.back();
            }
            cur->headerHalves = static_cast<int>(std::count(tok.begin(), tok.end(), "busbw"));
            cur->errorColumn = std::find(tok.begin(), tok.end(), "error") != tok.end();
            if (cur->firstLine == 0) cur->firstLine = ln;
            continue;
        }
        if (comment) continue;
        // Inside a table (after its header or first row, before its summary) a line that starts
        // with a size is a row: one that cannot be read is reported, never skipped.
        const bool inTable = (cur->headerHalves > 0 || !cur->rows.empty()) && cur->summaryLine == 0;
        long long size = 0;
        const bool digits = std::all_of(tok[0].begin(), tok[0].end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
        });
        const bool startsWithSize = parseInteger(tok[0], size) || digits;
        if (digits && (inTable || tok.size() >= 7) &&
            (!parseInteger(tok[0], size) || size > kMaxMessage_B)) {
            diag.error(linePath(ln),
                       "size " + tok[0] +
                           " B exceeds 2^40 B (1 TiB): nccl-tests' size is one rank's buffer in "
                           "one GPU's memory, so this row is not a measurement");
            continue;
        }
        std::string why;
        RawRow r;
        r.line = ln;
        bool ok = false;
        if (looksLikeRow(tok)) {
            ok = parseRow(tok, cur->headerHalves, cur->errorColumn, r, why);
        } else if (inTable && startsWithSize) {
            long long count = 0;
            why = tok.size() < 7
                      ? "only " + std::to_string(tok.size()) +
                            " columns (a row has size, count, type, [redop], [root] and 4 timing "
                            "columns per half)"
                  : !parseInteger(tok[1], count)
                      ? "count must be an integer (got \"" + tok[1] + "\")"
                      : "type must be a data type name (got \"" + tok[2] + "\")";
        } else {
            continue;
        }
        // The last line of a log cut mid-line: a row read in part (or read as a one-half row
        // under a two-half header) is not a measurement.
        const bool cutRow = cutMidLine && i + 1 == lines.size() && cur->summaryLine == 0;
        if (cutRow && (!ok || r.halves < cur->headerHalves)) {
            ok = false;
            why = "only " + std::to_string(tok.size()) + " columns of a " +
                  std::to_string(std::max(cur->headerHalves, 1)) + "-half row";
        }
        if (!ok) {
            if (cutRow && preambleLine > 0)
                diag.error(linePath(ln), "the log ends inside this row (" + why +
                                             "): nccl-tests' output was truncated, so no curve is "
                                             "produced from this log");
            else if (cutRow)
                cur->notes.push_back(linePath(ln) + ": the log ends inside this row (" + why +
                                     "); the row is not used");
            else
                diag.error(linePath(ln), "malformed nccl-tests row: " + why);
            continue;
        }
        for (int h = 0; h < r.halves; ++h)
            if (r.wrong[h] > 0)
                diag.error(linePath(ln), std::to_string(r.wrong[h]) + " wrong value(s) in the " +
                                             (h ? "in-place" : "out-of-place") +
                                             " result (#wrong column) at size " +
                                             formatNumber(r.bytes) +
                                             ": the collective returned corrupted data, so "
                                             "this log is not a valid measurement");
        const double tol = deviationTolerance(r.type, cur->maxRank + 1);
        for (int h = 0; h < r.halves; ++h)
            if (cur->errorColumn && r.deviation[h] > tol)
                diag.error(linePath(ln), "error " + r.deviationText[h] + " in the " +
                                             (h ? "in-place" : "out-of-place") +
                                             " result (error column, the largest deviation) at "
                                             "size " +
                                             formatNumber(r.bytes) + " exceeds " +
                                             formatGeneral(tol, 3) + " allowed for " + r.type +
                                             ": the collective returned wrong data, so this log "
                                             "is not a valid measurement");
        cur->rows.push_back(r);
    }
    if (failures > 3)
        diag.error("file", std::to_string(failures) + " failure lines in total (first 3 shown)");

    NcclImport imp;
    std::size_t withRows = 0;
    for (const auto& s : sections) withRows += s.rows.empty() ? 0 : 1;
    for (auto& s : sections) {
        if (s.rows.empty()) continue;
        if (s.summaryLine == 0 && failures == 0) {
            const RawRow& last = s.rows.back();
            if (warnings > 0) {
                diag.error(linePath(firstWarning),
                           "NCCL warning " + firstWarningText + " (" + std::to_string(warnings) +
                               " warning line(s)) and the table ends at " + linePath(last.line) +
                               " without its \"# Avg bus bandwidth\" summary: the run stopped "
                               "early, so no "
                               "curve is produced from this log");
                continue;
            }
            if (preambleLine > 0) {
                diag.error(
                    linePath(lastLine),
                    "the log ends here (last line read: " + lastLineText +
                        ") without nccl-tests' closing \"# Avg bus bandwidth\" line, "
                        "although it carries the run's header (" +
                        linePath(preambleLine) +
                        "): the output was truncated, so no curve is produced from this log");
                continue;
            }
            s.notes.push_back(
                "the table ends at " + linePath(last.line) +
                " without nccl-tests' closing \"# Avg bus bandwidth\" line: an excerpt without "
                "run header or summary; its " +
                std::to_string(s.rows.size()) + " rows up to " + formatBytes(last.bytes) +
                " are used; larger sizes are extrapolated");
        } else if (warnings > 0) {
            s.notes.push_back(linePath(firstWarning) + ": NCCL warning " + firstWarningText + " (" +
                              std::to_string(warnings) +
                              " warning line(s)); the run completed its table");
        }
        imp.curves.push_back(buildCurve(s, fileName, wholeLower, withRows == 1));
    }
    if (imp.curves.empty() && diag.items().size() == before) {
        if (warnings > 0)
            diag.error(linePath(firstWarning),
                       "NCCL warning " + firstWarningText +
                           " and no result table: the run stopped before measuring");
        else
            diag.error("file",
                       "no nccl-tests data rows found (expected lines of size, count, type, "
                       "redop, root, time, algbw, busbw, ...)");
    }
    for (const auto& c : imp.curves)
        if (c.points.empty() && diag.items().size() == before)
            diag.error("file",
                       "the " + std::string(name(c.collective)) + " table has only zero-byte rows");
    if (diag.items().size() > before) return std::nullopt;
    return imp;
}

std::optional<NcclImport> loadNcclTestsFile(const std::string& path, Diagnostics& diag) {
    std::string text;
    if (!readTextFile(path, text, diag)) return std::nullopt;
    return parseNcclTests(text, path, diag);
}

namespace {
/// effectiveBusBandwidth with `logAt(i)` giving std::log(curve.points[i].bytes).
template <class LogAt>
BusBandwidth interpolateBusBandwidth(const NcclCurve& curve, double bytes, LogAt logAt) {
    const auto& p = curve.points;
    if (p.empty() || !(bytes > 0)) return {0.0, true};
    if (bytes < p.front().bytes) return {p.front().busbw_Bps * bytes / p.front().bytes, true};
    if (bytes > p.back().bytes) return {p.back().busbw_Bps, true};
    auto hi = std::lower_bound(p.begin(), p.end(), bytes,
                               [](const NcclPoint& a, double b) { return a.bytes < b; });
    if (hi->bytes == bytes) return {hi->busbw_Bps, false};
    auto lo = hi - 1;
    const auto i = static_cast<std::size_t>(hi - p.begin());
    const double w = (std::log(bytes) - logAt(i - 1)) / (logAt(i) - logAt(i - 1));
    return {lo->busbw_Bps + w * (hi->busbw_Bps - lo->busbw_Bps), false};
}
}  // namespace

BusBandwidth effectiveBusBandwidth(const NcclCurve& curve, double bytes) {
    return interpolateBusBandwidth(curve, bytes,
                                   [&](std::size_t i) { return std::log(curve.points[i].bytes); });
}

BusBandwidth effectiveBusBandwidth(const NcclCurve& curve, double bytes,
                                   const std::vector<double>& logBytes) {
    return interpolateBusBandwidth(curve, bytes, [&](std::size_t i) { return logBytes[i]; });
}

std::vector<double> logSizes(const NcclCurve& curve) {
    std::vector<double> out;
    out.reserve(curve.points.size());
    for (const NcclPoint& pt : curve.points) out.push_back(std::log(pt.bytes));
    return out;
}

const NcclCurve* findCurve(const NcclImport& imp, Collective collective, int ranks) {
    for (const auto& c : imp.curves)
        if (c.collective == collective && (ranks <= 0 || c.ranks == ranks)) return &c;
    return nullptr;
}

double collectiveTime_s(const NcclCurve& curve, double bytes, bool* extrapolated) {
    const auto bw = effectiveBusBandwidth(curve, bytes);
    if (extrapolated) *extrapolated = bw.extrapolated;
    const double f = busBandwidthFactor(curve.collective, curve.ranks);
    if (!(bw.busbw_Bps > 0) || !(f > 0)) return std::numeric_limits<double>::infinity();
    return bytes * f / bw.busbw_Bps;
}

nlohmann::ordered_json ncclCurveToJson(const NcclCurve& c) {
    nlohmann::ordered_json j;
    j["collective"] = name(c.collective);
    j["collective_source"] = c.collectiveSource;
    j["ranks"] = c.ranks;
    j["ranks_source"] = c.ranksSource;
    j["data_type"] = c.dataType;
    j["in_place"] = c.hasInPlace;
    j["peak_busbw_GBps"] = c.peakBusbw_Bps / 1e9;
    j["peak_at_bytes"] = c.peakAtBytes;
    j["min_bytes"] = c.points.empty() ? 0.0 : c.points.front().bytes;
    j["max_bytes"] = c.points.empty() ? 0.0 : c.points.back().bytes;
    auto pts = nlohmann::ordered_json::array();
    for (const auto& p : c.points) {
        nlohmann::ordered_json q;
        q["bytes"] = p.bytes;
        q["busbw_GBps"] = p.busbw_Bps / 1e9;
        q["busbw_out_of_place_GBps"] = p.busbwOutOfPlace_Bps / 1e9;
        if (c.hasInPlace) q["busbw_in_place_GBps"] = p.busbwInPlace_Bps / 1e9;
        q["line"] = p.line;
        pts.push_back(q);
    }
    j["points"] = pts;
    j["notes"] = c.notes;
    return j;
}

}  // namespace tandem::io
