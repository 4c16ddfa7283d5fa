#include "common/json_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <sstream>

#include "common/number_format.h"

namespace tandem {
namespace {
const nlohmann::json& emptyObject() {
    static const nlohmann::json e = nlohmann::json::object();
    return e;
}
std::string fmt(double v) { return formatNumber(v); }
}  // namespace

std::string jsonTypeName(const nlohmann::json& v) {
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_boolean()) return "a boolean";
    if (v.is_array()) return "an array";
    if (v.is_object()) return "an object";
    return "null";
}

nlohmann::ordered_json jsonNumber(double v) {
    return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

namespace {
void collectNonFinite(const nlohmann::ordered_json& j, const std::string& path,
                      std::vector<std::string>& out) {
    if (j.is_number_float() && !std::isfinite(j.get<double>())) {
        out.push_back(path);
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            collectNonFinite(it.value(), path + "." + it.key(), out);
    } else if (j.is_array()) {
        for (size_t i = 0; i < j.size(); ++i)
            collectNonFinite(j[i], path + "[" + std::to_string(i) + "]", out);
    }
}
}  // namespace

std::vector<std::string> nonFiniteNumberPaths(const nlohmann::ordered_json& j,
                                              const std::string& root) {
    std::vector<std::string> out;
    collectNonFinite(j, root, out);
    return out;
}

bool Range::contains(double v) const {
    if (std::isnan(v)) return false;
    if (minExclusive ? !(v > min) : !(v >= min)) return false;
    if (maxExclusive ? !(v < max) : !(v <= max)) return false;
    return true;
}

std::string Range::describe() const {
    const bool lo = std::isfinite(min), hi = std::isfinite(max);
    if (lo && hi)
        return std::string("in ") + (minExclusive ? "(" : "[") + fmt(min) + ", " + fmt(max) +
               (maxExclusive ? ")" : "]");
    if (lo) return std::string(minExclusive ? "> " : ">= ") + fmt(min);
    if (hi) return std::string(maxExclusive ? "< " : "<= ") + fmt(max);
    return "finite";
}

JsonReader::JsonReader(const nlohmann::json& obj, std::string path, Diagnostics& diag)
    : m_obj(obj.is_object() ? obj : emptyObject()),
      m_path(std::move(path)),
      m_diag(diag),
      m_valid(obj.is_object()) {}

bool JsonReader::has(const char* key) const { return m_obj.contains(key); }

const nlohmann::json* JsonReader::raw(const char* key) {
    m_known.emplace_back(key);
    auto it = m_obj.find(key);
    return it == m_obj.end() ? nullptr : &*it;
}

bool JsonReader::checkNumber(const nlohmann::json& v, const std::string& p, const Range& r,
                             bool integer) {
    if (!v.is_number()) {
        // A null is what a writer makes of NaN or infinity: say so rather than just "null".
        const std::string got = v.is_null()
                                    ? "null; JSON has no NaN or infinity, write a finite number"
                                    : jsonTypeName(v);
        m_diag.error(p, std::string("must be ") + (integer ? "an integer" : "a number") + " (got " +
                            got + ")");
        return false;
    }
    const double d = v.get<double>();
    if (!std::isfinite(d)) {
        m_diag.error(p, "must be finite");
        return false;
    }
    if (integer && std::floor(d) != d) {
        m_diag.error(p, "must be an integer (got " + fmt(d) + ")");
        return false;
    }
    if (!r.contains(d)) {
        m_diag.error(p, "must be " + r.describe() + " (got " + fmt(d) + ")" +
                            (r.reason ? std::string(": ") + r.reason : std::string()));
        return false;
    }
    return true;
}

double JsonReader::number(const char* key, double def, Range r) {
    const auto* v = raw(key);
    if (!v) return def;
    return checkNumber(*v, childPath(key), r, false) ? v->get<double>() : def;
}

double JsonReader::requiredNumber(const char* key, Range r) {
    const auto* v = raw(key);
    if (!v) {
        m_diag.error(childPath(key), "is required");
        return std::nan("");
    }
    return checkNumber(*v, childPath(key), r, false) ? v->get<double>() : std::nan("");
}

long long JsonReader::integer(const char* key, long long def, Range r) {
    const auto* v = raw(key);
    if (!v) return def;
    return checkNumber(*v, childPath(key), r, true) ? static_cast<long long>(v->get<double>())
                                                    : def;
}

bool JsonReader::boolean(const char* key, bool def) {
    const auto* v = raw(key);
    if (!v) return def;
    if (!v->is_boolean()) {
        m_diag.error(childPath(key), "must be true or false (got " + jsonTypeName(*v) + ")");
        return def;
    }
    return v->get<bool>();
}

static std::string joinQuoted(const std::vector<std::string>& xs) {
    std::string s;
    for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", \"" : "\"") + xs[i] + "\"";
    return s;
}

std::string JsonReader::string(const char* key, const std::string& def,
                               const std::vector<std::string>& allowed) {
    const auto* v = raw(key);
    if (!v) return def;
    if (!v->is_string()) {
        m_diag.error(childPath(key), "must be a string (got " + jsonTypeName(*v) + ")");
        return def;
    }
    auto s = v->get<std::string>();
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
        std::string msg = "must be one of " + joinQuoted(allowed) + " (got \"" + s + "\")";
        const auto hint = closestMatch(s, allowed);
        if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        m_diag.error(childPath(key), msg);
        return def;
    }
    return s;
}

std::vector<double> JsonReader::numbers(const char* key, const std::vector<double>& def, Range r,
                                        size_t minSize) {
    const auto* v = raw(key);
    if (!v) return def;
    const auto p = childPath(key);
    if (!v->is_array()) {
        m_diag.error(p, "must be an array of numbers (got " + jsonTypeName(*v) + ")");
        return def;
    }
    if (v->size() < minSize) {
        m_diag.error(p, "must have at least " + std::to_string(minSize) + " element(s)");
        return def;
    }
    std::vector<double> out;
    bool ok = true;
    for (size_t i = 0; i < v->size(); ++i) {
        if (checkNumber((*v)[i], p + "[" + std::to_string(i) + "]", r, false))
            out.push_back((*v)[i].get<double>());
        else
            ok = false;
    }
    return ok ? out : def;
}

std::vector<long long> JsonReader::integers(const char* key, const std::vector<long long>& def,
                                            Range r, size_t minSize) {
    const auto* v = raw(key);
    if (!v) return def;
    const auto p = childPath(key);
    if (!v->is_array()) {
        m_diag.error(p, "must be an array of integers (got " + jsonTypeName(*v) + ")");
        return def;
    }
    if (v->size() < minSize) {
        m_diag.error(p, "must have at least " + std::to_string(minSize) + " element(s)");
        return def;
    }
    std::vector<long long> out;
    bool ok = true;
    for (size_t i = 0; i < v->size(); ++i) {
        if (checkNumber((*v)[i], p + "[" + std::to_string(i) + "]", r, true))
            out.push_back(static_cast<long long>((*v)[i].get<double>()));
        else
            ok = false;
    }
    return ok ? out : def;
}

std::vector<std::string> JsonReader::strings(const char* key, const std::vector<std::string>& def,
                                             const std::vector<std::string>& allowed) {
    const auto* v = raw(key);
    if (!v) return def;
    const auto p = childPath(key);
    if (!v->is_array()) {
        m_diag.error(p, "must be an array of strings (got " + jsonTypeName(*v) + ")");
        return def;
    }
    std::vector<std::string> out;
    bool ok = true;
    for (size_t i = 0; i < v->size(); ++i) {
        const auto ip = p + "[" + std::to_string(i) + "]";
        const auto& e = (*v)[i];
        if (!e.is_string()) {
            m_diag.error(ip, "must be a string (got " + jsonTypeName(e) + ")");
            ok = false;
            continue;
        }
        auto s = e.get<std::string>();
        if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
            std::string msg = "must be one of " + joinQuoted(allowed) + " (got \"" + s + "\")";
            const auto hint = closestMatch(s, allowed);
            if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
            m_diag.error(ip, msg);
            ok = false;
            continue;
        }
        out.push_back(std::move(s));
    }
    return ok ? out : def;
}

JsonReader JsonReader::object(const char* key) {
    const auto* v = raw(key);
    const auto p = childPath(key);
    if (v && !v->is_object()) {
        m_diag.error(p, "must be an object (got " + jsonTypeName(*v) + ")");
        return JsonReader(emptyObject(), p, m_diag);
    }
    return JsonReader(v ? *v : emptyObject(), p, m_diag);
}

void JsonReader::finish() {
    for (auto it = m_obj.begin(); it != m_obj.end(); ++it) {
        if (std::find(m_known.begin(), m_known.end(), it.key()) != m_known.end()) continue;
        std::string msg = "unknown key";
        const auto hint = closestMatch(it.key(), m_known);
        if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        m_diag.error(childPath(it.key().c_str()), msg);
    }
}

bool JsonReader::arrayWithin(const char* key, size_t maxSize) {
    const auto* v = raw(key);
    if (!v || !v->is_array() || v->size() <= maxSize) return true;
    m_diag.error(childPath(key), "has " + std::to_string(v->size()) + " entries; at most " +
                                     std::to_string(maxSize) + " are allowed");
    return false;
}

namespace {
/// Index of each entry of `values` equal to an earlier one, in order.
template <class T>
std::vector<size_t> repeatedEntries(const std::vector<T>& values) {
    std::vector<size_t> out;
    for (size_t i = 1; i < values.size(); ++i) {
        const auto end = values.begin() + static_cast<long>(i);
        if (std::find(values.begin(), end, values[i]) != end) out.push_back(i);
    }
    return out;
}
}  // namespace

void JsonReader::requireDistinct(const char* key, const std::vector<int>& values) {
    for (size_t i : repeatedEntries(values))
        m_diag.error(childPath(key) + "[" + std::to_string(i) + "]",
                     "duplicate value " + std::to_string(values[i]));
}

void JsonReader::requireDistinct(const char* key, const std::vector<double>& values) {
    for (size_t i : repeatedEntries(values))
        m_diag.error(childPath(key) + "[" + std::to_string(i) + "]",
                     "duplicate value " + formatNumber(values[i]));
}

void JsonReader::requireDistinct(const char* key, const std::vector<std::string>& values) {
    for (size_t i : repeatedEntries(values))
        m_diag.error(childPath(key) + "[" + std::to_string(i) + "]",
                     "duplicate value \"" + values[i] + "\"");
}

namespace {
/// Calls `visit(i)` for each byte i of JSON text that lies outside strings (a string's quotes,
/// contents and escapes are skipped). `visit` returns the last byte it consumed (i itself for
/// one byte), or npos to stop there. Returns the byte it stopped at, or npos after the whole
/// text. Linear; malformed text is left to the parser.
template <class Visit>
size_t walkOutsideStrings(const std::string& text, Visit visit) {
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else {
            const size_t last = visit(i);
            if (last == std::string::npos) return i;
            i = last;
        }
    }
    return std::string::npos;
}

/// Every number token outside strings, in document order: its literal when it is an integer
/// beyond 2^53 (integerBeyondDouble), else "". Linear; malformed text is left to the parser.
std::vector<std::string> oversizedIntegerTokens(const std::string& text) {
    std::vector<std::string> out;
    walkOutsideStrings(text, [&](size_t i) {
        const char c = text[i];
        if (c != '-' && (c < '0' || c > '9')) return i;
        size_t end = i;
        while (end < text.size() && std::strchr("0123456789+-.eE", text[end]) && text[end]) ++end;
        const std::string literal = text.substr(i, end - i);
        out.push_back(integerBeyondDouble(literal) ? literal : std::string());
        return end - 1;
    });
    return out;
}

/// Tracks the JSON path during parsing so that a key repeated inside one object (which
/// nlohmann_json would silently resolve to the last value) is reported with its path, and so is
/// an integer beyond 2^53 (`numbers`: oversizedIntegerTokens of the text being parsed).
class DuplicateKeyFinder {
public:
    explicit DuplicateKeyFinder(std::vector<std::string> numbers) : m_numbers(std::move(numbers)) {}
    bool operator()(int /*depth*/, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        using E = nlohmann::json::parse_event_t;
        if (event == E::value && parsed.is_number()) {
            const size_t k = m_numberIndex++;
            if (k < m_numbers.size() && !m_numbers[k].empty())
                m_oversized.push_back({valuePath(), m_numbers[k]});
        }
        switch (event) {
            case E::object_start:
                m_frames.push_back({true, {}, 0, {}});
                break;
            case E::array_start:
                m_frames.push_back({false, {}, 0, {}});
                break;
            case E::key: {
                auto& f = m_frames.back();
                f.key = parsed.get<std::string>();
                if (!f.keys.insert(f.key).second) m_duplicates.push_back(prefix() + "." + f.key);
                break;
            }
            case E::object_end:
            case E::array_end:
                m_frames.pop_back();
                [[fallthrough]];
            case E::value:
                if (!m_frames.empty() && !m_frames.back().object) ++m_frames.back().index;
                break;
        }
        return true;
    }
    const std::vector<std::string>& duplicates() const { return m_duplicates; }
    /// {JSON path, literal} of each integer beyond 2^53, in document order.
    const std::vector<std::pair<std::string, std::string>>& oversized() const {
        return m_oversized;
    }

private:
    struct Frame {
        bool object;
        std::string key;
        long index;
        std::set<std::string> keys;
    };
    /// Path of the innermost open container.
    std::string prefix() const {
        std::string p = "$";
        for (size_t i = 0; i + 1 < m_frames.size(); ++i)
            p += m_frames[i].object ? "." + m_frames[i].key
                                    : "[" + std::to_string(m_frames[i].index) + "]";
        return p;
    }
    /// Path of the value being parsed now (before its container's index moves on).
    std::string valuePath() const {
        if (m_frames.empty()) return "$";
        const Frame& f = m_frames.back();
        return prefix() + (f.object ? "." + f.key : "[" + std::to_string(f.index) + "]");
    }
    std::vector<Frame> m_frames;
    std::vector<std::string> m_duplicates;
    std::vector<std::string> m_numbers;
    size_t m_numberIndex = 0;
    std::vector<std::pair<std::string, std::string>> m_oversized;
};
}  // namespace

size_t firstTooDeepJson(const std::string& text) {
    int depth = 0;
    return walkOutsideStrings(text, [&](size_t i) {
        const char c = text[i];
        if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth) return std::string::npos;
        } else if (c == ']' || c == '}') {
            --depth;
        }
        return i;
    });
}

namespace {
/// 1-based line and column of byte `offset`, as an editor shows them.
std::string lineColumn(const std::string& text, size_t offset) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(col);
}
}  // namespace

std::string wideUnicodeProblem(const std::string& bytes) {
    const auto at = [&](size_t i) {
        return i < bytes.size() ? static_cast<unsigned char>(bytes[i]) : 256u;
    };
    std::string name, bom;
    if (at(0) == 0xFF && at(1) == 0xFE && at(2) == 0 && at(3) == 0) {
        name = "UTF-32LE", bom = "FF FE 00 00";
    } else if (at(0) == 0 && at(1) == 0 && at(2) == 0xFE && at(3) == 0xFF) {
        name = "UTF-32BE", bom = "00 00 FE FF";
    } else if (at(0) == 0xFF && at(1) == 0xFE) {
        name = "UTF-16LE", bom = "FF FE";
    } else if (at(0) == 0xFE && at(1) == 0xFF) {
        name = "UTF-16BE", bom = "FE FF";
    } else {
        // No mark: ASCII text in a wide encoding has a NUL beside every character. Look at up
        // to 16 bytes (at least 4) for one of the four patterns.
        const size_t n = std::min<size_t>(bytes.size(), 16) / 4 * 4;
        const auto pattern = [&](size_t width, size_t asciiAt) {
            if (n < 4) return false;
            for (size_t i = 0; i < n; ++i) {
                const bool ascii = i % width == asciiAt;
                if (ascii ? at(i) == 0 || at(i) > 0x7F : at(i) != 0) return false;
            }
            return true;
        };
        if (pattern(4, 0))
            name = "UTF-32LE";
        else if (pattern(4, 3))
            name = "UTF-32BE";
        else if (pattern(2, 0))
            name = "UTF-16LE";
        else if (pattern(2, 1))
            name = "UTF-16BE";
    }
    if (name.empty()) return "";
    return "the file is " + name + " text (" +
           (bom.empty() ? "no byte-order mark; a NUL byte beside every character"
                        : "byte-order mark " + bom) +
           "); Tandem reads UTF-8: save it as UTF-8 (e.g. iconv -f " + name + " -t UTF-8)";
}

nlohmann::json parseJsonText(const std::string& text, Diagnostics& diag) {
    if (const std::string wide = wideUnicodeProblem(text); !wide.empty()) {
        diag.error("file", wide);
        return nullptr;
    }
    if (const size_t deep = firstTooDeepJson(text); deep != std::string::npos) {
        diag.error(lineColumn(text, deep), "invalid JSON: arrays and objects nested more than " +
                                               std::to_string(kMaxJsonDepth) + " levels deep");
        return nullptr;
    }
    // nlohmann_json ends its input at a NUL byte outside a string, so "{...}\0anything" would
    // parse as the part before it; JSON text has no NUL (inside a string it must be \u0000).
    if (const size_t nul = text.find('\0'); nul != std::string::npos) {
        diag.error(lineColumn(text, nul),
                   "invalid JSON: a NUL byte, followed by " +
                       std::to_string(text.size() - nul - 1) +
                       " more byte(s); JSON text has no NUL bytes and ends after its value (the "
                       "file is binary, corrupt or has data appended)");
        return nullptr;
    }
    try {
        DuplicateKeyFinder finder(oversizedIntegerTokens(text));
        nlohmann::json j = nlohmann::json::parse(text, std::ref(finder));
        for (const auto& path : finder.duplicates())
            diag.error(path,
                       "key appears more than once in this object (only one value is allowed)");
        for (const auto& [path, literal] : finder.oversized())
            diag.error(path, "integer " +
                                 (literal.size() > 40 ? literal.substr(0, 40) + "..." : literal) +
                                 " is beyond 2^53 (9007199254740992), the largest integer a JSON "
                                 "number keeps exactly: it would be read as a different number "
                                 "than the one written");
        if (!finder.duplicates().empty() || !finder.oversized().empty()) return nullptr;
        return j;
    } catch (const nlohmann::json::parse_error& e) {
        // Translate the byte offset into line/column, which is what an editor shows.
        const size_t upto = std::min<size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
        std::string what = e.what();
        const auto pos = what.find("syntax error");
        if (pos != std::string::npos) what = what.substr(pos);
        diag.error(lineColumn(text, upto), "invalid JSON: " + what);
        return nullptr;
    } catch (const nlohmann::json::exception& e) {
        // nlohmann reports a number beyond double's range ("1e400") as out_of_range.406 with
        // the token but no offset; locate the token so the message still names line and column.
        std::string what = e.what();
        const auto pos = what.find("] ");
        if (pos != std::string::npos) what = what.substr(pos + 2);
        std::string where = "$";
        const auto q1 = what.find('\''), q2 = what.rfind('\'');
        if (q1 != std::string::npos && q2 > q1 + 1) {
            const auto at = text.find(what.substr(q1 + 1, q2 - q1 - 1));
            if (at != std::string::npos) {
                size_t line = 1, col = 1;
                for (size_t i = 0; i < at; ++i) {
                    if (text[i] == '\n') {
                        ++line;
                        col = 1;
                    } else {
                        ++col;
                    }
                }
                where = "line " + std::to_string(line) + ", column " + std::to_string(col);
            }
        }
        diag.error(where, "invalid JSON: " + what);
        return nullptr;
    }
}

void requireAtLeast(JsonReader& r, const char* key, double value, double limit, const char* unit,
                    const std::string& why) {
    if (!(value < limit)) return;
    r.diagnostics().error(r.childPath(key), "must be at least " + formatNumber(limit) + unit +
                                                " (got " + formatNumber(value) + "): " + why);
}

void requireAtMost(JsonReader& r, const char* key, double value, double limit, const char* unit,
                   const std::string& why) {
    if (value <= limit) return;
    r.diagnostics().error(r.childPath(key), "must be at most " + formatNumber(limit) + unit +
                                                " (got " + formatNumber(value) + "): " + why);
}

}  // namespace tandem
