#pragma once
// Typed, path-tracking reader over a JSON object: every read checks type, range and unit-suffixed
// key; unknown keys are reported by finish() with a "did you mean" hint. Errors never throw: they
// accumulate in a Diagnostics so a user sees every problem of a file at once.
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "common/enum_names.h"

namespace tandem {

/// Closed/open numeric bounds for a read. Defaults: any finite value.
struct Range {
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool minExclusive = false;
    bool maxExclusive = false;
    /// Why the bounds hold (what makes a value outside them impossible), appended to an
    /// out-of-range message; nullptr when the bounds speak for themselves.
    const char* reason = nullptr;
    static Range positive() { return {0.0, std::numeric_limits<double>::infinity(), true, false}; }
    static Range nonNegative() {
        return {0.0, std::numeric_limits<double>::infinity(), false, false};
    }
    static Range closed(double lo, double hi) { return {lo, hi, false, false}; }
    static Range atLeast(double lo) {
        return {lo, std::numeric_limits<double>::infinity(), false, false};
    }
    bool contains(double v) const;
    std::string describe() const;  ///< e.g. "> 0", "in [1, 64]"
};

class JsonReader {
public:
    /// `obj` must outlive the reader. `path` is the JSON path of `obj` (e.g. "$" or "$.mosaic").
    JsonReader(const nlohmann::json& obj, std::string path, Diagnostics& diag);

    bool isObject() const { return m_valid; }
    bool has(const char* key) const;
    const std::string& path() const { return m_path; }
    std::string childPath(const char* key) const { return m_path + "." + key; }
    Diagnostics& diagnostics() { return m_diag; }
    const nlohmann::json* raw(const char* key);  ///< marks key as known; nullptr if absent

    /// True when `key` is absent, not an array, or an array of at most `maxSize` entries; else
    /// reports "has N entries; at most M are allowed" once at the key (not one error per entry)
    /// and returns false, so the caller keeps its default instead of reading the elements.
    bool arrayWithin(const char* key, size_t maxSize);

    /// For a list that is a set: reports each entry of `values` (read from `key`) equal to an
    /// earlier one as "duplicate value X" at key[i], X written as in the file (integers plainly,
    /// numbers by formatNumber, strings in double quotes). O(n^2) over at most a few dozen
    /// entries (callers bound the list with arrayWithin first).
    void requireDistinct(const char* key, const std::vector<int>& values);
    void requireDistinct(const char* key, const std::vector<double>& values);
    void requireDistinct(const char* key, const std::vector<std::string>& values);

    /// Optional number: absent -> `def`. Wrong type / out of range -> error, returns `def`.
    double number(const char* key, double def, Range r = {});
    /// Required number: absent -> error "is required".
    double requiredNumber(const char* key, Range r = {});
    /// Optional integer (rejects 2.5, accepts 2.0).
    long long integer(const char* key, long long def, Range r = {});
    bool boolean(const char* key, bool def);
    /// Optional string; when `allowed` is non-empty the value must be one of them.
    std::string string(const char* key, const std::string& def,
                       const std::vector<std::string>& allowed = {});
    /// Optional word of a closed set: absent -> `def`; a word not in `table` -> the error of
    /// string() with the allowed words (and a "did you mean" hint), returns `def`.
    template <class E>
    E choice(const char* key, E def, const EnumTable<E>& table) {
        const std::string word = string(key, enumName(table, def), enumNames(table));
        return enumFromName(table, word).value_or(def);
    }
    /// Optional array of numbers, each checked against `r`; `minSize` enforced when present.
    std::vector<double> numbers(const char* key, const std::vector<double>& def, Range r = {},
                                size_t minSize = 0);
    std::vector<long long> integers(const char* key, const std::vector<long long>& def,
                                    Range r = {}, size_t minSize = 0);
    std::vector<std::string> strings(const char* key, const std::vector<std::string>& def,
                                     const std::vector<std::string>& allowed = {});
    /// Optional array of words of a closed set: absent -> `def`; a word not in `table` (or a
    /// wrong type) -> the errors of strings() with the allowed words, returns `def`.
    template <class E>
    std::vector<E> choices(const char* key, const std::vector<E>& def, const EnumTable<E>& table) {
        std::vector<E> out;
        for (const auto& word : strings(key, enumNames(table, def), enumNames(table)))
            out.push_back(enumFromName(table, word).value_or(E{}));
        return out;
    }

    /// Child object reader (absent -> reader over an empty object; wrong type -> error).
    JsonReader object(const char* key);

    /// Reports every key not read so far as unknown, with the closest known key as a hint.
    void finish();

private:
    bool checkNumber(const nlohmann::json& v, const std::string& p, const Range& r, bool integer);
    const nlohmann::json& m_obj;
    std::string m_path;
    Diagnostics& m_diag;
    bool m_valid;
    std::vector<std::string> m_known;
};

/// Reports `key` = `value` below `limit` (unit `unit`, e.g. " ms") at the key's path in
/// r.diagnostics(), with `why` (what the bound protects): "must be at least 0.001 ms (got 0):
/// <why>". Nothing when value >= limit.
void requireAtLeast(JsonReader& r, const char* key, double value, double limit, const char* unit,
                    const std::string& why);
/// Reports `key` = `value` above `limit` the same way ("must be at most ..."), so validate names
/// the key, the value, the limit and its reason. Nothing when value <= limit.
void requireAtMost(JsonReader& r, const char* key, double value, double limit, const char* unit,
                   const std::string& why);
/// A bound of a key beyond its type-level Range, with the reason it holds (what makes a value
/// beyond it impossible, or what work it keeps bounded); `why` nullptr: no such bound.
struct FieldBound {
    double limit = 0;
    const char* why = nullptr;
    bool unlessZero = false;  ///< the bound does not apply to 0 (a lower bound with 0 allowed)
};

/// How a message names the JSON type of `v`: "a number", "a string", "a boolean", "an array",
/// "an object" or "null".
std::string jsonTypeName(const nlohmann::json& v);

/// Deepest nesting of arrays and objects parseJsonText accepts. Tandem's own files nest fewer
/// than ten levels; the limit keeps a hostile file (60 000 nested objects in 360 KB) from
/// exhausting the stack in the recursive copy, dump and destruction of a parsed tree.
constexpr int kMaxJsonDepth = 256;

/// Byte offset of the first '[' or '{' (outside strings) that opens nesting level
/// kMaxJsonDepth + 1, or std::string::npos when the text stays within the limit. Linear and
/// non-recursive; malformed text is left to the parser. Call it before handing untrusted text
/// to nlohmann::json::parse directly (parseJsonText already does).
size_t firstTooDeepJson(const std::string& text);

/// Why `bytes` cannot be read as UTF-8 text because they are UTF-16 or UTF-32 (recognised by a
/// byte-order mark, or without one by NUL bytes alternating with ASCII in the first 16 bytes):
/// "the file is UTF-16LE text (byte-order mark FF FE); Tandem reads UTF-8: save it as UTF-8
/// (e.g. iconv -f UTF-16LE -t UTF-8)". "" for anything else (UTF-8, ASCII, binary). Never
/// quotes the bytes themselves. Every text reader (parseJsonText, io::readTextFile) asks it.
std::string wideUnicodeProblem(const std::string& bytes);

/// Parses JSON text, reporting a syntax error as `line L, column C: reason` in `diag`, a key
/// repeated inside one object with its JSON path, nesting deeper than kMaxJsonDepth with the
/// line and column where it goes too deep, a NUL byte anywhere (nlohmann_json would stop
/// reading there and ignore what follows) at its line and column, and an integer literal beyond
/// 2^53 (a double would hold it rounded) at its JSON path, and UTF-16 / UTF-32 text
/// (wideUnicodeProblem) at "file". Returns a null json on failure. The one
/// path by which Tandem reads a JSON file.
nlohmann::json parseJsonText(const std::string& text, Diagnostics& diag);

/// A finite value as a JSON number; NaN or infinity (e.g. "not reached") as null, since JSON
/// has no NaN.
nlohmann::ordered_json jsonNumber(double v);

/// JSON paths (from `root`, e.g. "$.mosaic") of every number in `j` that is NaN or infinite:
/// nlohmann_json would write each as `null`. Depth-first in document order; empty when all are
/// finite. Used to refuse an input whose unit conversion overflows and to keep such a number out
/// of every written file.
std::vector<std::string> nonFiniteNumberPaths(const nlohmann::ordered_json& j,
                                              const std::string& root = "$");

}  // namespace tandem
