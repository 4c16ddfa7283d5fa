// CSV writing and merging of sweep tables.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <locale>
#include <map>
#include <sstream>

#include "common/csv.h"
#include "common/number_format.h"
#include "sweep/sweep.h"

namespace tandem::sweep {
namespace {

/// True when `cell` reads in full as a number that is not finite ("nan", "-inf", "Infinity",
/// "1e999"): run() writes finite numbers only, so such a cell marks a damaged or hand-edited shard.
bool nonFiniteNumber(const std::string& cell) {
    if (cell.empty() || cell.find('\0') != std::string::npos) return false;
    const NumberScan s = scanNumber(cell);
    return s.length > 0 && s.length == cell.size() && !std::isfinite(s.value);
}

/// Splits CSV text into records (RFC 4180: quoted fields may hold commas, quotes, newlines).
/// Returns false with the 1-based line of the problem in `badLine`.
bool parseCsv(const std::string& text, std::vector<std::vector<std::string>>& records,
              size_t& badLine) {
    std::vector<std::string> rec;
    std::string field;
    bool inQuotes = false, fieldStarted = false;
    size_t line = 1;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inQuotes) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else
                    inQuotes = false;
            } else {
                if (c == '\n') ++line;
                field += c;
            }
            continue;
        }
        if (c == '"' && field.empty()) {
            inQuotes = true;
            fieldStarted = true;
        } else if (c == ',') {
            rec.push_back(field);
            field.clear();
            fieldStarted = true;
        } else if (c == '\r') {
        } else if (c == '\n') {
            if (fieldStarted || !field.empty() || !rec.empty()) {
                rec.push_back(field);
                records.push_back(rec);
            }
            rec.clear();
            field.clear();
            fieldStarted = false;
            ++line;
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (inQuotes) {
        badLine = line;
        return false;
    }
    if (fieldStarted || !field.empty() || !rec.empty()) {
        rec.push_back(field);
        records.push_back(rec);
    }
    return true;
}

/// Shard identity read from a shard file's comment line.
struct ShardTag {
    bool present = false;
    Shard shard;
    long long gridPoints = 0;
    std::string fingerprint;  ///< "" when the line has none (written before fingerprints)
};

/// Removes leading "#" comment lines from `text` (counted in `skipped`) and reads the shard
/// tag "# tandem sweep shard i/n of P points" when one of them is it.
std::string stripComments(const std::string& text, ShardTag& tag, size_t& skipped) {
    size_t pos = 0;
    skipped = 0;
    while (pos < text.size() && text[pos] == '#' && skipped < 64) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(pos, end - pos);
        int i = -1, n = -1;
        long long points = -1;
        char tail[8] = {0};
        char fp[17] = {0};
        if (std::sscanf(line.c_str(), "# tandem sweep shard %d/%d of %lld point%7s", &i, &n,
                        &points, tail) >= 3 &&
            n >= 1 && i >= 0 && i < n && points >= 0) {
            tag.present = true;
            tag.shard = {i, n};
            tag.gridPoints = points;
            const auto at = line.find(", sweep ");
            if (at != std::string::npos &&
                std::sscanf(line.c_str() + at, ", sweep %16[0-9a-f]", fp) == 1)
                tag.fingerprint = fp;
        }
        pos = end < text.size() ? end + 1 : end;
        ++skipped;
    }
    return text.substr(pos);
}

/// "a, b, c" for at most `limit` numbers, then ", ... (N in all)".
std::string listPoints(const std::vector<long long>& pts, size_t limit = 10) {
    std::string s;
    for (size_t k = 0; k < pts.size() && k < limit; ++k)
        s += (k ? ", " : "") + std::to_string(pts[k]);
    if (pts.size() > limit) s += ", ... (" + std::to_string(pts.size()) + " in all)";
    return s;
}

}  // namespace

std::string toCsv(const Table& t) {
    std::ostringstream out;
    out.imbue(std::locale::classic());  // integers without digit grouping, whatever the locale
    if (t.shard.count > 1)
        out << "# tandem sweep shard " << t.shard.index << "/" << t.shard.count << " of "
            << t.gridPoints << " points, sweep " << t.fingerprint << "\n";
    auto line = [&](const std::vector<std::string>& r) {
        for (size_t i = 0; i < r.size(); ++i) out << (i ? "," : "") << csvQuote(r[i]);
        out << "\n";
    };
    line(t.header);
    for (const auto& r : t.rows) line(r);
    return out.str();
}

Table merge(const std::vector<std::string>& csvs, const std::vector<std::string>& names,
            Diagnostics& diag) {
    Table out;
    std::map<long, std::vector<std::string>> byPoint;
    std::vector<std::pair<size_t, std::vector<std::string>>> headerOnly;
    auto nameOf = [&](size_t i) {
        return i < names.size() ? names[i] : "input " + std::to_string(i + 1);
    };
    // Shard tags: which shards were given (index -> input), the shard count and grid size.
    std::map<int, size_t> givenShards;
    int shardCount = 0;
    long long gridPoints = -1;
    size_t tagged = 0;
    size_t firstTagged = 0;
    std::string fingerprint;
    for (size_t i = 0; i < csvs.size(); ++i) {
        std::vector<std::vector<std::string>> recs;
        size_t badLine = 0, skipped = 0;
        ShardTag tag;
        const std::string body = stripComments(csvs[i], tag, skipped);
        if (tag.present) {
            if (tagged == 0) {
                firstTagged = i;
                fingerprint = tag.fingerprint;
            } else if (tag.fingerprint != fingerprint) {
                auto fp = [](const std::string& f) { return f.empty() ? std::string("none") : f; };
                diag.error(nameOf(i) + ": line 1",
                           nameOf(firstTagged) + " and " + nameOf(i) +
                               " are shards of different sweeps (sweep " + fp(fingerprint) +
                               " vs " + fp(tag.fingerprint) +
                               "): the scenario or the --vary values differ");
                return Table{};
            }
            ++tagged;
            if (shardCount == 0) {
                shardCount = tag.shard.count;
                gridPoints = tag.gridPoints;
            } else if (tag.shard.count != shardCount || tag.gridPoints != gridPoints) {
                diag.error(
                    nameOf(i) + ": line 1",
                    "is shard " + std::to_string(tag.shard.index) + "/" +
                        std::to_string(tag.shard.count) + " of " + std::to_string(tag.gridPoints) +
                        " points; the first shard is one of " + std::to_string(shardCount) +
                        " shards of " + std::to_string(gridPoints) + " points (another sweep?)");
                return Table{};
            }
            if (!givenShards.emplace(tag.shard.index, i).second) {
                diag.error(nameOf(i) + ": line 1", "shard " + std::to_string(tag.shard.index) +
                                                       "/" + std::to_string(tag.shard.count) +
                                                       " is given twice (also " +
                                                       nameOf(givenShards[tag.shard.index]) + ")");
                return Table{};
            }
        }
        if (!parseCsv(body, recs, badLine)) {
            diag.error(nameOf(i) + ": line " + std::to_string(badLine + skipped),
                       "unterminated quoted field");
            return Table{};
        }
        if (recs.empty() || recs[0].empty() || recs[0][0] != "point") {
            diag.error(nameOf(i) + ": line " + std::to_string(1 + skipped),
                       "not a sweep table (first column must be \"point\")");
            return Table{};
        }
        // A writer ends every line with '\n': a file without one was cut short, perhaps right
        // at a field boundary, where its last row still parses (with an empty last cell).
        if (csvs[i].back() != '\n') {
            diag.error(nameOf(i) + ": line " + std::to_string(recs.size() + skipped),
                       "the file ends without a line end: it was cut short while being written "
                       "(its last row may be incomplete); run this shard again");
            return Table{};
        }
        // A shard i/n of P points holds the points i, i + n, ... below P: one row each.
        if (tag.present) {
            const long long want =
                tag.gridPoints > tag.shard.index
                    ? (tag.gridPoints - tag.shard.index + tag.shard.count - 1) / tag.shard.count
                    : 0;
            const long long have = static_cast<long long>(recs.size()) - 1;
            if (have != want) {
                diag.error(nameOf(i) + ": line " + std::to_string(recs.size() + skipped),
                           "holds " + std::to_string(have) + " row(s); shard " +
                               std::to_string(tag.shard.index) + "/" +
                               std::to_string(tag.shard.count) + " of " +
                               std::to_string(tag.gridPoints) + " points has " +
                               std::to_string(want) +
                               ": the file is incomplete or was edited; run this shard again");
                return Table{};
            }
        }
        if (recs.size() == 1) {  // an empty shard (more shards than points): checked below
            headerOnly.push_back({i, recs[0]});
            continue;
        }
        if (out.header.empty())
            out.header = recs[0];
        else if (recs[0] != out.header) {
            diag.error(nameOf(i) + ": line " + std::to_string(1 + skipped),
                       "header differs from the first shard's");
            return Table{};
        }
        for (size_t r = 1; r < recs.size(); ++r) {
            const auto& rec = recs[r];
            const std::string where = nameOf(i) + ": line " + std::to_string(r + 1 + skipped);
            if (rec.size() != out.header.size()) {
                diag.error(where, "has " + std::to_string(rec.size()) + " fields, header has " +
                                      std::to_string(out.header.size()));
                return Table{};
            }
            // Digits only, as run() writes them: strtol alone would take " 7", "+7", "07" or
            // "7\0junk" (an embedded NUL ends the C string) as point 7.
            const bool digits = !rec[0].empty() && rec[0].size() <= 15 &&
                                rec[0].find_first_not_of("0123456789") == std::string::npos;
            const long p = digits ? std::strtol(rec[0].c_str(), nullptr, 10) : -1;
            if (!digits || std::to_string(p) != rec[0]) {
                diag.error(where, "point must be a non-negative integer (got \"" + rec[0] + "\")");
                return Table{};
            }
            for (size_t c = 1; c < rec.size(); ++c)
                if (nonFiniteNumber(rec[c])) {
                    diag.error(where + ", column \"" + out.header[c] + "\"",
                               "must be a finite number (got \"" + rec[c] +
                                   "\"); a shard written by a sweep never holds nan or inf");
                    return Table{};
                }
            if (!byPoint.emplace(p, rec).second) {
                diag.error(where, "point " + rec[0] + " appears in more than one shard");
                return Table{};
            }
        }
    }
    // An empty shard writes "point" and the axis columns only: that must be the start of the
    // full header, or the file belongs to another sweep.
    for (const auto& [i, header] : headerOnly) {
        const bool prefix = !out.header.empty() && header.size() <= out.header.size() &&
                            std::equal(header.begin(), header.end(), out.header.begin());
        if (!out.header.empty() && !prefix) {
            diag.error(nameOf(i) + ": line 1", "header does not match the other shards' header");
            return Table{};
        }
    }
    // With shard tags, name every missing shard and its points (also trailing ones, which the
    // gap check below cannot see).
    if (tagged > 0) {
        bool missing = false;
        for (int k = 0; k < shardCount; ++k) {
            if (givenShards.count(k)) continue;
            std::vector<long long> pts;
            for (long long p = k; p < gridPoints; p += shardCount) pts.push_back(p);
            diag.error("inputs", "shard " + std::to_string(k) + "/" + std::to_string(shardCount) +
                                     " is missing" +
                                     (pts.empty() ? std::string(" (it holds no points)")
                                                  : " (points " + listPoints(pts) + ")"));
            missing = true;
        }
        if (missing) return Table{};
        std::vector<long long> absent;
        for (long long p = 0; p < gridPoints; ++p)
            if (!byPoint.count(static_cast<long>(p))) absent.push_back(p);
        if (!absent.empty()) {
            diag.error("inputs", "point(s) " + listPoints(absent) + " of " +
                                     std::to_string(gridPoints) + " missing");
            return Table{};
        }
        if (!byPoint.empty() && byPoint.rbegin()->first >= gridPoints) {
            diag.error("inputs", "point " + std::to_string(byPoint.rbegin()->first) +
                                     " is beyond the grid of " + std::to_string(gridPoints) +
                                     " points");
            return Table{};
        }
    }
    if (byPoint.empty()) {
        diag.error("inputs", "no sweep rows to merge");
        return Table{};
    }
    long expect = 0;
    for (auto& [p, rec] : byPoint) {
        if (p != expect) {
            diag.error("inputs",
                       "point " + std::to_string(expect) + " is missing (a shard was not run?)");
            return Table{};
        }
        out.rows.push_back(std::move(rec));
        ++expect;
    }
    return out;
}

}  // namespace tandem::sweep
