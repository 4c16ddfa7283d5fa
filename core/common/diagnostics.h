#pragma once
// Validation messages shared by every input path (scenario JSON, hardware files, importers).
#include <string>
#include <vector>

namespace tandem {

/// One problem found in an input: where (file, JSON path such as `$.ml_for_ml.fabric_GBps` or
/// `line 12`) and why (a sentence a user can act on).
struct Issue {
    std::string file;     ///< file name as the user gave it; empty for in-memory text
    std::string path;     ///< JSON path (`$.a.b[2]`) or `line N`
    std::string message;  ///< the reason, e.g. "must be > 0 (got -5)"

    /// `file: path: message` (file omitted when empty).
    std::string str() const;
};

/// Ordered list of problems; an input is valid when it stays empty.
class Diagnostics {
public:
    explicit Diagnostics(std::string file = {}) : m_file(std::move(file)) {}
    void error(const std::string& path, const std::string& message);
    bool ok() const { return m_items.empty(); }
    const std::vector<Issue>& items() const { return m_items; }
    const std::string& file() const { return m_file; }
    /// All issues, one `str()` per line.
    std::string str() const;

private:
    std::string m_file;
    std::vector<Issue> m_items;
};

/// Thrown by loaders when the input is not usable; carries every problem found, not just the first.
class ValidationError : public std::exception {
public:
    explicit ValidationError(Diagnostics d);
    const char* what() const noexcept override { return m_text.c_str(); }
    const Diagnostics& diagnostics() const { return m_diag; }

private:
    Diagnostics m_diag;
    std::string m_text;
};

/// Levenshtein distance, used for "did you mean" hints on unknown keys.
int editDistance(const std::string& a, const std::string& b);

/// The candidate closest to `key` if it is a plausible typo (distance <= max(2, len/3)), else "".
std::string closestMatch(const std::string& key, const std::vector<std::string>& candidates);

}  // namespace tandem
