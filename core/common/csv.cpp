#include "common/csv.h"

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

}  // namespace tandem
