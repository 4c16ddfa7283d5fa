// CSV writing and merging of sweep tables.
#include <algorithm>
#include <map>
#include <sstream>

#include "common/csv.h"
#include "sweep/sweep.h"

namespace tandem::sweep {
namespace {

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
                if (i + 1 < text.size() && text[i + 1] == '"') { field += '"'; ++i; }
                else inQuotes = false;
            } else {
                if (c == '\n') ++line;
                field += c;
            }
            continue;
        }
        if (c == '"' && field.empty()) { inQuotes = true; fieldStarted = true; }
        else if (c == ',') { rec.push_back(field); field.clear(); fieldStarted = true; }
        else if (c == '\r') {}
        else if (c == '\n') {
            if (fieldStarted || !field.empty() || !rec.empty()) { rec.push_back(field); records.push_back(rec); }
            rec.clear(); field.clear(); fieldStarted = false; ++line;
        } else { field += c; fieldStarted = true; }
    }
    if (inQuotes) { badLine = line; return false; }
    if (fieldStarted || !field.empty() || !rec.empty()) { rec.push_back(field); records.push_back(rec); }
    return true;
}

}  // namespace

std::string toCsv(const Table& t) {
    std::ostringstream out;
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
    auto nameOf = [&](size_t i) { return i < names.size() ? names[i] : "input " + std::to_string(i + 1); };
    for (size_t i = 0; i < csvs.size(); ++i) {
        std::vector<std::vector<std::string>> recs;
        size_t badLine = 0;
        if (!parseCsv(csvs[i], recs, badLine)) {
            diag.error(nameOf(i) + ": line " + std::to_string(badLine), "unterminated quoted field");
            return Table{};
        }
        if (recs.empty() || recs[0].empty() || recs[0][0] != "point") {
            diag.error(nameOf(i) + ": line 1", "not a sweep table (first column must be \"point\")");
            return Table{};
        }
        if (recs.size() == 1) {  // an empty shard (more shards than points): checked below
            headerOnly.push_back({i, recs[0]});
            continue;
        }
        if (out.header.empty()) out.header = recs[0];
        else if (recs[0] != out.header) {
            diag.error(nameOf(i) + ": line 1", "header differs from the first shard's");
            return Table{};
        }
        for (size_t r = 1; r < recs.size(); ++r) {
            const auto& rec = recs[r];
            const std::string where = nameOf(i) + ": line " + std::to_string(r + 1);
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
    if (byPoint.empty()) {
        diag.error("inputs", "no sweep rows to merge");
        return Table{};
    }
    long expect = 0;
    for (auto& [p, rec] : byPoint) {
        if (p != expect) {
            diag.error("inputs", "point " + std::to_string(expect) + " is missing (a shard was not run?)");
            return Table{};
        }
        out.rows.push_back(std::move(rec));
        ++expect;
    }
    return out;
}

}  // namespace tandem::sweep
