#include "common/csv.h"

#include <algorithm>
#include <sstream>

namespace tandem {

std::string csvQuote(const std::string& field) {
    if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
    std::string q;
    q.reserve(field.size() + 2);
    q += '"';
    for (char c : field) {
        if (c == '"') q += '"';
        q += c;
    }
    q += '"';
    return q;
}

std::vector<std::string> splitCsvLine(const std::string& line) {
    std::string noCr;
    noCr.reserve(line.size());
    for (char ch : line)
        if (ch != '\r') noCr += ch;
    return splitCsvRecord(noCr, ',');
}

std::vector<std::string> splitCsvRecord(const std::string& line, char sep) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cur.push_back('"');
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cur.push_back(c);
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    out.push_back(cur);
    return out;
}

char detectCsvSeparator(const std::string& header) {
    const auto n = [&](char c) { return std::count(header.begin(), header.end(), c); };
    if (n(',') > 0) return ',';
    if (n('\t') > 0) return '\t';
    if (n(';') > 0) return ';';
    return ',';
}

void readCsvTable(const std::string& csv, const std::vector<std::string>& columns,
                  Diagnostics& diag,
                  const std::function<void(const std::vector<std::string>& fields,
                                           const std::string& where, int line)>& row) {
    std::istringstream in(csv);
    std::string line;
    int lineNo = 0;
    bool header = true;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        const auto f = splitCsvLine(line);
        const std::string where = "line " + std::to_string(lineNo);
        if (header) {
            header = false;
            if (f != columns) {
                std::string names;
                for (size_t i = 0; i < columns.size(); ++i) names += (i ? "," : "") + columns[i];
                diag.error(where, "header must be " + names);
                return;
            }
            continue;
        }
        if (f.size() != columns.size()) {
            diag.error(where, "has " + std::to_string(f.size()) + " fields, expected " +
                                  std::to_string(columns.size()));
            continue;
        }
        row(f, where, lineNo);
    }
}

}  // namespace tandem
