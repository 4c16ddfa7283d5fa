#include "common/diagnostics.h"

#include <algorithm>

namespace tandem {

std::string Issue::str() const {
    std::string s;
    if (!file.empty()) s += file + ": ";
    s += path + ": " + message;
    return s;
}

void Diagnostics::error(const std::string& path, const std::string& message) {
    m_items.push_back({m_file, path, message});
}

std::string Diagnostics::str() const {
    std::string s;
    for (const auto& i : m_items) s += i.str() + "\n";
    return s;
}

ValidationError::ValidationError(Diagnostics d) : m_diag(std::move(d)), m_text(m_diag.str()) {
    if (!m_text.empty() && m_text.back() == '\n') m_text.pop_back();
}

int editDistance(const std::string& a, const std::string& b) {
    std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = static_cast<int>(i);
        for (size_t j = 1; j <= b.size(); ++j) {
            const int sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string closestMatch(const std::string& key, const std::vector<std::string>& candidates) {
    std::string best;
    int bestD = 1 << 30;
    for (const auto& c : candidates) {
        const int d = editDistance(key, c);
        if (d < bestD) {
            bestD = d;
            best = c;
        }
    }
    const int limit = std::max<int>(2, static_cast<int>(key.size()) / 3);
    return bestD <= limit ? best : std::string();
}

}  // namespace tandem
