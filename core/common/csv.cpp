#include "common/csv.h"

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
    std::vector<std::string> out;
    std::string cur;
    for (char ch : line) {
        if (ch == ',') {
            out.push_back(cur);
            cur.clear();
        } else if (ch != '\r') {
            cur += ch;
        }
    }
    out.push_back(cur);
    return out;
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
