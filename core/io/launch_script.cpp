#include "io/launch_script.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <utility>

namespace tandem::io {
namespace {

/// Marks an expandable `$` in a word: unquoted (its value is split at white space when it is the
/// whole word) or inside double quotes (never split).
constexpr char kUnquotedDollar = '\x01';
constexpr char kQuotedDollar = '\x02';

/// One token of a script: a word, a command separator (newline ; & |), a parenthesis or a
/// redirection.
struct Token {
    enum class Kind { Word, Separator, Open, Close, Redirect } kind = Kind::Word;
    std::string text;  ///< the word after quote removal, `$` marked (kUnquotedDollar...)
    int line = 1;
};

bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Splits `s` into tokens as bash does: comments, continuations, quotes, escapes, separators.
bool tokenize(const std::string& s, std::vector<Token>& out, std::string& error) {
    int line = 1;
    std::string word;
    bool inWord = false;  // a word is open (also an empty one, "")
    int wordLine = 1;
    auto start = [&] {
        if (!inWord) wordLine = line;
        inWord = true;
    };
    auto finish = [&] {
        if (inWord) out.push_back({Token::Kind::Word, word, wordLine});
        word.clear();
        inWord = false;
    };
    auto push = [&](Token::Kind k) {
        finish();
        out.push_back({k, "", line});
    };
    const size_t n = s.size();
    // A `$` at s[i]: ${...} and $NAME are marked for expansion, $(...) kept as written.
    auto dollar = [&](size_t& i, char marker) -> bool {
        if (i + 1 < n && s[i + 1] == '{') {
            const size_t close = s.find('}', i + 2);
            if (close == std::string::npos) {
                error = "unterminated ${ (line " + std::to_string(line) + ")";
                return false;
            }
            word += marker + s.substr(i + 1, close - i);
            i = close;
        } else if (i + 1 < n && s[i + 1] == '(') {
            int depth = 0;
            size_t j = i + 1;
            for (; j < n; ++j) {
                if (s[j] == '(') ++depth;
                if (s[j] == ')' && --depth == 0) break;
                if (s[j] == '\n') ++line;
            }
            if (j >= n) {
                error = "unterminated $( (line " + std::to_string(line) + ")";
                return false;
            }
            word += s.substr(i, j - i + 1);
            i = j;
        } else if (i + 1 < n && (isNameStart(s[i + 1]) || std::isdigit((unsigned char)s[i + 1]) ||
                                 s[i + 1] == '@' || s[i + 1] == '*')) {
            word += marker;
        } else {
            word += '$';
        }
        return true;
    };
    for (size_t i = 0; i < n; ++i) {
        const char c = s[i];
        if (c == '\\') {
            if (i + 1 < n && s[i + 1] == '\n') {  // continuation
                ++i;
                ++line;
            } else if (i + 1 < n) {
                start();
                word += s[++i];
            } else {
                start();
                word += c;
            }
        } else if (c == '\'') {
            start();
            const size_t close = s.find('\'', i + 1);
            if (close == std::string::npos) {
                error = "unterminated ' quote (line " + std::to_string(line) + ")";
                return false;
            }
            const std::string inner = s.substr(i + 1, close - i - 1);
            line += int(std::count(inner.begin(), inner.end(), '\n'));
            word += inner;
            i = close;
        } else if (c == '"') {
            start();
            const int opened = line;
            size_t j = i + 1;
            for (; j < n && s[j] != '"'; ++j) {
                if (s[j] == '\\' && j + 1 < n) {
                    const char e = s[j + 1];
                    if (e == '\n') {
                        ++line;
                    } else if (e == '$' || e == '`' || e == '"' || e == '\\') {
                        word += e;
                    } else {
                        word += '\\';
                        word += e;
                    }
                    ++j;
                } else if (s[j] == '$') {
                    if (!dollar(j, kQuotedDollar)) return false;
                } else {
                    if (s[j] == '\n') ++line;
                    word += s[j];
                }
            }
            if (j >= n) {
                error = "unterminated \" quote (line " + std::to_string(opened) + ")";
                return false;
            }
            i = j;
        } else if (c == '$') {
            start();
            if (!dollar(i, kUnquotedDollar)) return false;
        } else if (c == '#' && !inWord) {
            while (i + 1 < n && s[i + 1] != '\n') ++i;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            finish();
        } else if (c == '\n') {
            push(Token::Kind::Separator);
            ++line;
        } else if (c == ';' || c == '&' || c == '|') {
            push(Token::Kind::Separator);
        } else if (c == '(' || c == ')') {
            push(c == '(' ? Token::Kind::Open : Token::Kind::Close);
        } else if (c == '<' || c == '>') {
            // "2>" names a file descriptor, not a word.
            if (inWord && !word.empty() && std::all_of(word.begin(), word.end(), [](char d) {
                    return std::isdigit(static_cast<unsigned char>(d));
                })) {
                word.clear();
                inWord = false;
            }
            push(Token::Kind::Redirect);
            while (i + 1 < n && (s[i + 1] == '<' || s[i + 1] == '>' || s[i + 1] == '&')) ++i;
        } else {
            start();
            word += c;
        }
    }
    finish();
    return true;
}

/// The variables and arrays a script assigns.
struct ShellState {
    std::map<std::string, std::string> scalars;
    std::map<std::string, std::vector<std::string>> arrays;
    std::map<std::string, bool> arrayExpanded;
};

/// The value of one expansion `body` (NAME, {NAME}, {NAME[@]}, {NAME:-default}); `found` false
/// when the name is not assigned in the file (the text is then kept as written).
std::vector<std::string> lookUp(const std::string& body, ShellState& st, bool& found) {
    std::string name = body, fallback;
    bool hasFallback = false;
    if (const auto d = name.find(":-"); d != std::string::npos) {
        fallback = name.substr(d + 2);
        name = name.substr(0, d);
        hasFallback = true;
    } else if (const auto e = name.find_first_of("-="); e != std::string::npos && e > 0) {
        fallback = name.substr(e + 1);
        name = name.substr(0, e);
        hasFallback = true;
    }
    std::string index;
    if (const auto b = name.find('['); b != std::string::npos && name.back() == ']') {
        index = name.substr(b + 1, name.size() - b - 2);
        name = name.substr(0, b);
    }
    found = true;
    if (const auto a = st.arrays.find(name); a != st.arrays.end()) {
        st.arrayExpanded[name] = true;
        if (index == "@" || index == "*") return a->second;
        size_t k = 0;
        if (!index.empty()) {
            try {
                k = size_t(std::stoul(index));
            } catch (const std::exception&) {
                k = 0;
            }
        }
        return {k < a->second.size() ? a->second[k] : std::string()};
    }
    if (const auto v = st.scalars.find(name); v != st.scalars.end()) return {v->second};
    if (hasFallback) return {fallback};
    found = false;
    return {};
}

/// The words one token becomes: expansions substituted, an unquoted whole-word $NAME split at
/// white space, "${NAME[@]}" one word per element.
std::vector<std::string> expand(const std::string& w, ShellState& st) {
    // The whole word is one expansion: arrays give their elements, unquoted scalars split.
    if (!w.empty() && (w[0] == kUnquotedDollar || w[0] == kQuotedDollar)) {
        std::string body;
        size_t end = 1;
        if (w.size() > 1 && w[1] == '{') {
            end = w.find('}');
            body = w.substr(2, end - 2);
            ++end;
        } else {
            while (end < w.size() && isNameChar(w[end])) ++end;
            body = w.substr(1, end - 1);
        }
        if (end == w.size()) {
            bool found = false;
            std::vector<std::string> v = lookUp(body, st, found);
            if (found) {
                if (w[0] == kQuotedDollar || v.size() != 1) return v;
                std::vector<std::string> split;
                std::string cur;
                for (char c : v[0]) {
                    if (std::isspace(static_cast<unsigned char>(c))) {
                        if (!cur.empty()) split.push_back(cur);
                        cur.clear();
                    } else {
                        cur += c;
                    }
                }
                if (!cur.empty()) split.push_back(cur);
                return split;
            }
        }
    }
    std::string out;
    for (size_t i = 0; i < w.size(); ++i) {
        if (w[i] != kUnquotedDollar && w[i] != kQuotedDollar) {
            out += w[i];
            continue;
        }
        size_t end = i + 1;
        std::string body;
        if (end < w.size() && w[end] == '{') {
            const size_t close = w.find('}', end);
            body = w.substr(end + 1, close - end - 1);
            end = close + 1;
        } else {
            while (end < w.size() && isNameChar(w[end])) ++end;
            body = w.substr(i + 1, end - i - 1);
        }
        bool found = false;
        const std::vector<std::string> v = lookUp(body, st, found);
        if (found) {
            for (size_t k = 0; k < v.size(); ++k) out += (k ? " " : "") + v[k];
        } else {
            out += "$" + w.substr(i + 1, end - i - 1);
        }
        i = end - 1;
    }
    return {out};
}

/// The length of "NAME=" or "NAME+=" at the start of `w`; 0 when `w` is no assignment.
size_t assignmentPrefix(const std::string& w) {
    if (w.empty() || !isNameStart(w[0])) return 0;
    size_t i = 1;
    while (i < w.size() && isNameChar(w[i])) ++i;
    if (i < w.size() && w[i] == '=') return i + 1;
    if (i + 1 < w.size() && w[i] == '+' && w[i + 1] == '=') return i + 2;
    return 0;
}

}  // namespace

bool scriptCommands(const std::string& text, std::vector<ScriptCommand>& commands,
                    std::string& error) {
    std::vector<Token> tokens;
    if (!tokenize(text, tokens, error)) return false;
    commands.assign(1, ScriptCommand{});
    ShellState st;
    // Arrays the file assigns: the command they are assigned in, and their name.
    std::vector<std::pair<size_t, std::string>> assigned;
    std::map<std::string, int> assignedLine;  // name -> the line of its last assignment
    bool commandStart = true, declaring = false;
    using TK = Token::Kind;
    for (size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        if (t.kind == TK::Separator) {
            commandStart = true;
            declaring = false;
            if (!commands.back().words.empty()) commands.emplace_back();
            continue;
        }
        if (t.kind == TK::Redirect) {
            if (i + 1 < tokens.size() && tokens[i + 1].kind == TK::Word) ++i;  // its target
            continue;
        }
        if (t.kind != TK::Word) continue;
        const std::string& w = t.text;
        if (commandStart && (w == "export" || w == "declare" || w == "local" || w == "readonly" ||
                             w == "typeset")) {
            declaring = true;
            continue;
        }
        if (declaring && !w.empty() && w[0] == '-') continue;  // declare -a, export -n
        const size_t eq = (commandStart || declaring) ? assignmentPrefix(w) : 0;
        if (eq > 0) {
            const bool append = w[eq - 2] == '+';
            const std::string name = w.substr(0, eq - (append ? 2 : 1));
            if (eq == w.size() && i + 1 < tokens.size() && tokens[i + 1].kind == TK::Open) {
                std::vector<std::string> elements =
                    append ? st.arrays[name] : std::vector<std::string>{};
                size_t j = i + 2;
                for (; j < tokens.size() && tokens[j].kind != TK::Close; ++j)
                    if (tokens[j].kind == TK::Word)
                        for (auto& e : expand(tokens[j].text, st)) elements.push_back(e);
                if (j >= tokens.size()) {
                    error =
                        "unterminated array " + name + "=( (line " + std::to_string(t.line) + ")";
                    return false;
                }
                st.arrays[name] = elements;
                st.arrayExpanded.emplace(name, false);
                assigned.emplace_back(commands.size() - 1, name);
                assignedLine[name] = t.line;
                i = j;
            } else {
                std::string value;
                for (auto& e : expand(w.substr(eq), st)) value += (value.empty() ? "" : " ") + e;
                st.scalars[name] = append ? st.scalars[name] + value : value;
            }
            continue;
        }
        commandStart = false;
        for (auto& e : expand(w, st)) {
            commands.back().words.push_back(e);
            commands.back().lines.push_back(t.line);
        }
    }
    if (commands.back().words.empty()) commands.pop_back();
    // A file of only arrays (or arrays the script builds but never passes): read where assigned
    // (the last assignment of each name), each as a command of its own before the command it
    // is assigned in, the latest first so that earlier positions hold.
    std::map<std::string, size_t> last;  // name -> its last entry of `assigned`
    for (size_t k = 0; k < assigned.size(); ++k) last[assigned[k].second] = k;
    std::vector<size_t> pending;
    for (const auto& [name, k] : last)
        if (!st.arrayExpanded[name]) pending.push_back(k);
    std::sort(pending.begin(), pending.end(), std::greater<size_t>());
    for (size_t k : pending) {
        ScriptCommand a;
        a.array = true;
        a.words = st.arrays[assigned[k].second];
        if (a.words.empty()) continue;
        a.lines.assign(a.words.size(), assignedLine[assigned[k].second]);
        commands.insert(commands.begin() + long(std::min(assigned[k].first, commands.size())),
                        std::move(a));
    }
    return true;
}

bool launchScriptWords(const std::string& text, std::vector<std::string>& words,
                       std::string& error) {
    std::vector<ScriptCommand> commands;
    if (!scriptCommands(text, commands, error)) return false;
    words.clear();
    for (const auto& c : commands) words.insert(words.end(), c.words.begin(), c.words.end());
    return true;
}

}  // namespace tandem::io
