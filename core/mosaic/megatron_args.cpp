#include "mosaic/megatron_args.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "mosaic/envelope.h"
#include "mosaic/layout_grid.h"

namespace tandem::mosaic {
namespace {

// ---------------------------------------------------------------------------------------------
// The bash words of a launch script.

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

namespace {

/// One command of a script as bash runs it: its words after expansion (assignments left out),
/// each with the line it is on. `array`: the elements of an array the script assigns but never
/// expands, kept where it is assigned.
struct ScriptCommand {
    std::vector<std::string> words;
    std::vector<int> lines;
    bool array = false;
};

/// The commands of `text` in order (launchScriptWords' rules); empty commands left out.
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

}  // namespace

bool launchScriptWords(const std::string& text, std::vector<std::string>& words,
                       std::string& error) {
    std::vector<ScriptCommand> commands;
    if (!scriptCommands(text, commands, error)) return false;
    words.clear();
    for (const auto& c : commands) words.insert(words.end(), c.words.begin(), c.words.end());
    return true;
}

namespace {

// ---------------------------------------------------------------------------------------------
// The flags.

/// What the flags of a launch script say, before they become a plan and a cluster.
struct ReadFlags {
    Plan plan;
    int globalBatch = 0, seqLen = 0;
    int vpPerRank = 0;       ///< --num-virtual-stages-per-pipeline-rank, 0 = not given
    int vpConfig = 0;        ///< --virtual-pipeline-model-parallel-size, 0 = not given
    int layersPerChunk = 0;  ///< --num-layers-per-virtual-pipeline-stage, 0 = not given
    std::string granularity, fp8Format, fp8Recipe, fp4Format, fp4Recipe;
    std::vector<std::string> modules;  ///< --recompute-modules
    std::string recomputeMethod, shardingStrategy, moeLayerFreq;
    int recomputeLayers = 0, maxPositions = 0;
    bool swiglu = false, gqa = false, bf16 = false, overlapGrad = false, overlapParam = false;
    bool torchFsdp = false;  ///< --use-torch-fsdp2: parameters, gradients and optimizer sharded
    /// Model flags, 0 = not given.
    int layers = 0, hidden = 0, heads = 0, queryGroups = 0, kvChannels = 0, ffn = 0, vocab = 0,
        experts = 0, topK = 0, expertFfn = 0, sharedFfn = 0;
};

/// How a flag takes its value.
enum class FlagKind {
    Count,    ///< one value, a positive integer
    Switch,   ///< no value: the flag's presence sets it
    Choice,   ///< one value, one of `choices` (any text when there are none)
    Choices,  ///< the next words up to the next --flag, each one of `choices`
};

/// One flag parseMegatronArguments reads; the member set is the one of `kind`.
struct MegatronFlag {
    const char* flag;
    FlagKind kind;
    int& (*count)(ReadFlags&) = nullptr;
    bool& (*on)(ReadFlags&) = nullptr;
    std::string& (*word)(ReadFlags&) = nullptr;
    std::vector<std::string>& (*words)(ReadFlags&) = nullptr;
    std::vector<const char*> choices = {};
};

using K = FlagKind;
using R = ReadFlags;

MegatronFlag count(const char* f, int& (*c)(R&)) { return {f, K::Count, c}; }
MegatronFlag toggle(const char* f, bool& (*b)(R&)) { return {f, K::Switch, nullptr, b}; }
MegatronFlag choice(const char* f, std::string& (*w)(R&), std::vector<const char*> choices) {
    return {f, K::Choice, nullptr, nullptr, w, nullptr, std::move(choices)};
}

/// Megatron-LM's --recompute-modules words.
const std::vector<const char*> kRecomputeModules = {
    "core_attn", "moe_act", "layernorm", "mla_up_proj", "mlp", "moe", "shared_experts", "mlp_act"};

/// Every flag the reader knows (a flag not listed is reported in the notes, not costed).
const std::vector<MegatronFlag>& megatronFlags() {
    static const std::vector<MegatronFlag> flags = {
        // Parallel layout.
        count("--tensor-model-parallel-size", [](R& r) -> int& { return r.plan.tp; }),
        count("--pipeline-model-parallel-size", [](R& r) -> int& { return r.plan.pp; }),
        count("--context-parallel-size", [](R& r) -> int& { return r.plan.cp; }),
        count("--expert-model-parallel-size", [](R& r) -> int& { return r.plan.ep; }),
        count("--expert-tensor-parallel-size", [](R& r) -> int& { return r.plan.etp; }),
        count("--num-virtual-stages-per-pipeline-rank", [](R& r) -> int& { return r.vpPerRank; }),
        count("--virtual-pipeline-model-parallel-size", [](R& r) -> int& { return r.vpConfig; }),
        count("--num-layers-per-virtual-pipeline-stage",
              [](R& r) -> int& { return r.layersPerChunk; }),
        count("--decoder-first-pipeline-num-layers",
              [](R& r) -> int& { return r.plan.firstStageLayers; }),
        count("--decoder-last-pipeline-num-layers",
              [](R& r) -> int& { return r.plan.lastStageLayers; }),
        // Batch and sequence.
        count("--micro-batch-size", [](R& r) -> int& { return r.plan.mbs; }),
        count("--global-batch-size", [](R& r) -> int& { return r.globalBatch; }),
        count("--seq-length", [](R& r) -> int& { return r.seqLen; }),
        // Sharding, sequence parallelism, recomputation.
        toggle("--use-megatron-fsdp", [](R& r) -> bool& { return r.plan.fsdp; }),
        toggle("--use-custom-fsdp", [](R& r) -> bool& { return r.plan.fsdp; }),
        toggle("--use-torch-fsdp2", [](R& r) -> bool& { return r.torchFsdp; }),
        choice("--data-parallel-sharding-strategy",
               [](R& r) -> std::string& { return r.shardingStrategy; },
               {"no_shard", "optim", "optim_grads", "optim_grads_params"}),
        toggle("--use-distributed-optimizer",
               [](R& r) -> bool& { return r.plan.distributedOptimizer; }),
        toggle("--overlap-grad-reduce", [](R& r) -> bool& { return r.overlapGrad; }),
        toggle("--overlap-param-gather", [](R& r) -> bool& { return r.overlapParam; }),
        toggle("--sequence-parallel", [](R& r) -> bool& { return r.plan.sequenceParallel; }),
        choice("--recompute-granularity", [](R& r) -> std::string& { return r.granularity; },
               {"full", "selective"}),
        {"--recompute-modules", K::Choices, nullptr, nullptr, nullptr,
         [](R& r) -> std::vector<std::string>& { return r.modules; }, kRecomputeModules},
        choice("--recompute-method", [](R& r) -> std::string& { return r.recomputeMethod; },
               {"uniform", "block"}),
        count("--recompute-num-layers", [](R& r) -> int& { return r.recomputeLayers; }),
        // Precision.
        toggle("--bf16", [](R& r) -> bool& { return r.bf16; }),
        choice("--fp8-format", [](R& r) -> std::string& { return r.fp8Format; },
               {"e4m3", "hybrid"}),
        choice("--fp8-recipe", [](R& r) -> std::string& { return r.fp8Recipe; },
               {"tensorwise", "delayed", "mxfp8", "blockwise", "custom"}),
        choice("--fp4-format", [](R& r) -> std::string& { return r.fp4Format; }, {"e2m1"}),
        choice("--fp4-recipe", [](R& r) -> std::string& { return r.fp4Recipe; },
               {"nvfp4", "custom"}),
        // The model, checked against the model file.
        count("--num-layers", [](R& r) -> int& { return r.layers; }),
        count("--hidden-size", [](R& r) -> int& { return r.hidden; }),
        count("--num-attention-heads", [](R& r) -> int& { return r.heads; }),
        toggle("--group-query-attention", [](R& r) -> bool& { return r.gqa; }),
        count("--num-query-groups", [](R& r) -> int& { return r.queryGroups; }),
        count("--kv-channels", [](R& r) -> int& { return r.kvChannels; }),
        count("--ffn-hidden-size", [](R& r) -> int& { return r.ffn; }),
        toggle("--swiglu", [](R& r) -> bool& { return r.swiglu; }),
        count("--vocab-size", [](R& r) -> int& { return r.vocab; }),
        count("--max-position-embeddings", [](R& r) -> int& { return r.maxPositions; }),
        count("--num-experts", [](R& r) -> int& { return r.experts; }),
        count("--moe-router-topk", [](R& r) -> int& { return r.topK; }),
        count("--moe-ffn-hidden-size", [](R& r) -> int& { return r.expertFfn; }),
        count("--moe-shared-expert-intermediate-size", [](R& r) -> int& { return r.sharedFfn; }),
        choice("--moe-layer-freq", [](R& r) -> std::string& { return r.moeLayerFreq; }, {}),
    };
    return flags;
}

/// "a, b or c".
std::string choiceList(const std::vector<const char*>& choices) {
    std::string s;
    for (size_t i = 0; i < choices.size(); ++i)
        s += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + std::string(choices[i]);
    return s;
}

bool isFlag(const std::string& w) { return w.size() > 2 && w.rfind("--", 0) == 0; }

/// Reads the value(s) of `f` (the attached --flag=value `attached`, else from words[i + 1...],
/// advancing `i`) into `r`; `canonical` is the value as compared for a flag given twice.
bool readFlag(const MegatronFlag& f, const std::string* attached,
              const std::vector<std::string>& words, size_t& i, R& r, std::string& canonical,
              std::string& error) {
    const std::string name = f.flag;
    if (f.kind == K::Switch) {
        if (attached) {
            error = name + " takes no value (got \"" + *attached + "\")";
            return false;
        }
        f.on(r) = true;
        return true;
    }
    std::vector<std::string> values;
    if (attached) {
        values.push_back(*attached);
    } else {
        while (i + 1 < words.size() && !isFlag(words[i + 1])) {
            values.push_back(words[++i]);
            if (f.kind != K::Choices) break;
        }
    }
    if (values.empty()) {
        error = name + " needs a value";
        return false;
    }
    for (const std::string& v : values) {
        if (f.choices.empty() ||
            std::any_of(f.choices.begin(), f.choices.end(), [&](const char* c) { return v == c; }))
            continue;
        error = name + " must be " + choiceList(f.choices) + " (got \"" + v + "\")";
        return false;
    }
    for (const std::string& v : values) canonical += (canonical.empty() ? "" : " ") + v;
    if (f.kind == K::Choice) {
        f.word(r) = values.front();
        return true;
    }
    if (f.kind == K::Choices) {
        f.words(r) = values;
        return true;
    }
    const std::string& v = values.front();
    try {
        size_t used = 0;
        const int x = std::stoi(v, &used);
        if (used != v.size() || x < 1) throw std::invalid_argument("");
        f.count(r) = x;
        canonical = std::to_string(x);
    } catch (const std::exception&) {
        error = name + " must be a positive integer (got \"" + v + "\")";
        return false;
    }
    return true;
}

/// The checkpointing mode of --recompute-granularity and --recompute-modules.
Checkpointing recomputation(const std::string& granularity,
                            const std::vector<std::string>& modules) {
    if (granularity.empty()) return Checkpointing::None;
    if (granularity == "full") return Checkpointing::Full;
    // Megatron's default module list is core_attn alone; mlp / moe recompute the whole MLP,
    // layernorm / moe_act the norms and the activation function.
    auto has = [&](const char* m) {
        return std::find(modules.begin(), modules.end(), m) != modules.end();
    };
    return has("mlp") || has("moe")                               ? Checkpointing::SuperSelective
           : has("layernorm") || has("moe_act") || has("mlp_act") ? Checkpointing::Selective
                                                                  : Checkpointing::CoreAttention;
}

/// Which blocks are MoE (true) in --moe-layer-freq: an integer N (every N-th block, from the
/// first) or a Python list expression of 0/1 terms, "[1,0,1]" or "([0]*3+[1]*58)". False when
/// the text is neither.
bool moeLayerPattern(std::string text, int layers, std::vector<bool>& moe) {
    text.erase(std::remove_if(text.begin(), text.end(),
                              [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
               text.end());
    moe.clear();
    auto integer = [](const std::string& s, int& out) {
        if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c));
            }))
            return false;
        out = std::stoi(s);
        return true;
    };
    int every = 0;
    if (integer(text, every)) {
        if (every < 1) return false;
        for (int l = 0; l < layers; ++l) moe.push_back(l % every == 0);
        return true;
    }
    if (text.size() >= 2 && text.front() == '(' && text.back() == ')')
        text = text.substr(1, text.size() - 2);
    size_t i = 0;
    while (i < text.size()) {
        if (text[i] != '[') return false;
        const size_t close = text.find(']', i);
        if (close == std::string::npos) return false;
        std::vector<bool> items;
        size_t a = i + 1;
        while (a < close) {
            size_t b = text.find(',', a);
            if (b == std::string::npos || b > close) b = close;
            int v = 0;
            if (!integer(text.substr(a, b - a), v) || v > 1) return false;
            items.push_back(v == 1);
            a = b + 1;
        }
        i = close + 1;
        int times = 1;
        if (i < text.size() && text[i] == '*') {
            size_t e = i + 1;
            while (e < text.size() && std::isdigit(static_cast<unsigned char>(text[e]))) ++e;
            if (!integer(text.substr(i + 1, e - i - 1), times)) return false;
            i = e;
        }
        if (moe.size() + items.size() * size_t(times) > 1000000) return false;
        for (int t = 0; t < times; ++t) moe.insert(moe.end(), items.begin(), items.end());
        if (i < text.size() && text[i] != '+') return false;
        if (i < text.size()) ++i;
    }
    return !moe.empty();
}

/// Head width of `g` as --kv-channels states it.
int headWidth(const Geometry& g) { return g.headDim > 0 ? g.headDim : g.dModel / g.nHead; }

/// False + `error` when a model flag given in `r` contradicts `g`.
bool checkModel(const R& r, const Geometry& g, std::string& error) {
    auto same = [&](const char* flag, int given, int model, const std::string& what) {
        if (given == 0 || given == model) return true;
        error = std::string(flag) + " " + std::to_string(given) + " contradicts the model file (" +
                what + ")";
        return false;
    };
    const bool moe = g.experts > 0;
    const std::string dense = "a dense model, no experts";
    if (!same("--num-layers", r.layers, g.layers, std::to_string(g.layers) + " layers") ||
        !same("--hidden-size", r.hidden, g.dModel, "hidden size " + std::to_string(g.dModel)) ||
        !same("--num-attention-heads", r.heads, g.nHead,
              std::to_string(g.nHead) + " attention heads") ||
        !same("--num-query-groups", r.queryGroups, g.nKvHead,
              std::to_string(g.nKvHead) + " key/value heads") ||
        !same("--kv-channels", r.kvChannels, headWidth(g),
              "head width " + std::to_string(headWidth(g))) ||
        !same("--ffn-hidden-size", r.ffn, g.dFf, "FFN width " + std::to_string(g.dFf)) ||
        !same("--vocab-size", r.vocab, g.vocab, "vocabulary " + std::to_string(g.vocab)) ||
        !same("--num-experts", r.experts, g.experts,
              moe ? std::to_string(g.experts) + " experts" : dense) ||
        !same("--moe-router-topk", r.topK, g.topK,
              moe ? "top-" + std::to_string(g.topK) + " routing" : dense) ||
        !same("--moe-ffn-hidden-size", r.expertFfn, g.dExpert,
              moe ? "expert width " + std::to_string(g.dExpert) : dense) ||
        !same("--moe-shared-expert-intermediate-size", r.sharedFfn, g.sharedExperts * g.dExpert,
              moe ? std::to_string(g.sharedExperts) + " shared experts of width " +
                        std::to_string(g.dExpert)
                  : dense))
        return false;
    if (r.swiglu && g.denseFfnMatrices != 3) {
        error = "--swiglu contradicts the model file (a GeLU MLP, 2 matrices)";
        return false;
    }
    if (!r.moeLayerFreq.empty()) {
        std::vector<bool> pattern;
        if (!moeLayerPattern(r.moeLayerFreq, g.layers, pattern)) {
            error = "--moe-layer-freq must be an integer or a list such as ([0]*3+[1]*58) (got \"" +
                    r.moeLayerFreq + "\")";
            return false;
        }
        std::vector<bool> model(size_t(std::max(0, g.layers)), moe);
        for (int l = 0; l < g.denseLayers && l < g.layers; ++l) model[size_t(l)] = false;
        if (pattern != model) {
            error = "--moe-layer-freq " + r.moeLayerFreq + " contradicts the model file (" +
                    (moe ? std::to_string(g.denseLayers) + " dense blocks, then " +
                               std::to_string(g.layers - g.denseLayers) + " MoE blocks"
                         : dense) +
                    ")";
            return false;
        }
    }
    return true;
}

}  // namespace

std::string megatronArguments(const Geometry& g, const Cluster& c, const Plan& p) {
    auto n = [](int v) { return std::to_string(v); };
    // The model.
    std::string a = "--num-layers " + n(g.layers) + " --hidden-size " + n(g.dModel) +
                    " --num-attention-heads " + n(g.nHead);
    if (g.nKvHead != g.nHead) a += " --group-query-attention --num-query-groups " + n(g.nKvHead);
    if (g.headDim > 0 && g.headDim * g.nHead != g.dModel) a += " --kv-channels " + n(g.headDim);
    if (g.dFf > 0) a += " --ffn-hidden-size " + n(g.dFf);
    if (g.denseFfnMatrices == 3) a += " --swiglu";
    a += " --vocab-size " + n(g.vocab);
    if (g.experts > 0) {
        a += " --num-experts " + n(g.experts) + " --moe-router-topk " + n(g.topK) +
             " --moe-ffn-hidden-size " + n(g.dExpert);
        if (g.sharedExperts > 0)
            a += " --moe-shared-expert-intermediate-size " + n(g.sharedExperts * g.dExpert);
        a += g.denseLayers > 0 ? " --moe-layer-freq '([0]*" + n(g.denseLayers) + "+[1]*" +
                                     n(g.layers - g.denseLayers) + ")'"
                               : std::string(" --moe-layer-freq 1");
    }
    a += " --seq-length " + n(c.seqLen) + " --max-position-embeddings " + n(c.seqLen);
    // The parallel layout.
    a += " --tensor-model-parallel-size " + n(p.tp) + " --pipeline-model-parallel-size " + n(p.pp);
    // VP stated directly: --num-layers-per-virtual-pipeline-stage cannot say VP 2 over 61 layers.
    if (p.vp > 1) a += " --num-virtual-stages-per-pipeline-rank " + n(p.vp);
    if (p.firstStageLayers > 0)
        a += " --decoder-first-pipeline-num-layers " + n(p.firstStageLayers);
    if (p.lastStageLayers > 0) a += " --decoder-last-pipeline-num-layers " + n(p.lastStageLayers);
    a += " --context-parallel-size " + n(p.cp);
    if (g.experts > 0)
        a += " --expert-model-parallel-size " + n(p.ep) + " --expert-tensor-parallel-size " +
             n(p.etp);
    // The batch the layout runs (evaluateLayout's rounding when DP x B_micro does not divide).
    const bool round = p.dp > 0 && p.mbs > 0 && c.globalBatch % (p.dp * p.mbs) != 0;
    a += " --micro-batch-size " + n(p.mbs) + " --global-batch-size " +
         n(clusterForPlan(c, p, round).globalBatch);
    if (p.sequenceParallel) a += " --sequence-parallel";
    if (p.fsdp)
        a += " --use-megatron-fsdp --data-parallel-sharding-strategy optim_grads_params";
    else if (p.distributedOptimizer)
        a += " --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather";
    switch (p.ckpt) {
        case Checkpointing::None:
            break;
        case Checkpointing::CoreAttention:
            a += " --recompute-granularity selective --recompute-modules core_attn";
            break;
        case Checkpointing::Selective:
            // The norms and the MLP / expert activation function recomputed with the core.
            a += " --recompute-granularity selective --recompute-modules core_attn layernorm";
            if (g.experts > 0) a += " moe_act";
            break;
        case Checkpointing::SuperSelective:
            a += " --recompute-granularity selective --recompute-modules core_attn mlp";
            break;
        case Checkpointing::Full:
            a +=
                " --recompute-granularity full --recompute-method uniform --recompute-num-layers 1";
            break;
    }
    a += " --bf16";
    switch (c.precision) {
        case Precision::Bf16:
            break;
        case Precision::Fp8:
            a += " --fp8-format hybrid --fp8-recipe tensorwise";
            break;
        case Precision::Mxfp8:
            a += " --fp8-format e4m3 --fp8-recipe mxfp8";
            break;
        case Precision::Nvfp4:
            a += " --fp4-format e2m1 --fp4-recipe nvfp4";
            break;
    }
    return a;
}

namespace {

/// The name of a Megatron-LM flag parseMegatronArguments reads (--flag or --flag=value), or "".
std::string megatronFlagName(const std::string& w) {
    if (!isFlag(w)) return {};
    const std::string name = w.substr(0, w.find('='));
    const auto& flags = megatronFlags();
    return std::any_of(flags.begin(), flags.end(),
                       [&](const MegatronFlag& m) { return name == m.flag; })
               ? name
               : std::string();
}

/// The words bash passes to the launch command of `commands`: the one command that carries
/// Megatron-LM flags and is started by a program (a word that is no --flag), with the arrays
/// the script assigns but never expands. A file with no such command is a list of arguments:
/// all its words. False + `error` (with the lines) when two commands carry Megatron-LM flags
/// or, beside a launch command, a --flag starts a command of its own (bash would run it as a
/// program: the line before does not continue).
bool launchWords(const std::vector<ScriptCommand>& commands, std::vector<std::string>& words,
                 std::string& error) {
    words.clear();
    auto line = [](int l) { return "line " + std::to_string(l); };
    // The commands started by a program that carry Megatron-LM flags, or else any --flag.
    size_t launch = commands.size();
    bool launchKnown = false;
    for (size_t k = 0; k < commands.size(); ++k) {
        const ScriptCommand& cmd = commands[k];
        if (cmd.array || isFlag(cmd.words.front())) continue;
        std::string first;
        bool anyFlag = false;
        for (size_t i = 0; i < cmd.words.size() && first.empty(); ++i) {
            first = megatronFlagName(cmd.words[i]);
            if (!first.empty() && launch < commands.size() && launchKnown) {
                const ScriptCommand& a = commands[launch];
                std::string before;
                int beforeLine = a.lines.front();
                for (size_t j = 0; j < a.words.size() && before.empty(); ++j) {
                    before = megatronFlagName(a.words[j]);
                    beforeLine = a.lines[j];
                }
                error = line(beforeLine) + " and " + line(cmd.lines[i]) +
                        " are two separate commands that both carry Megatron-LM flags (" + before +
                        ", " + first + "): bash passes each command only its own words";
                return false;
            }
            anyFlag = anyFlag || isFlag(cmd.words[i]);
        }
        if (!first.empty()) {
            launch = k;
            launchKnown = true;
        } else if (anyFlag && launch == commands.size()) {
            launch = k;
        }
    }
    if (launch == commands.size()) {  // a list of arguments
        for (const auto& c : commands) words.insert(words.end(), c.words.begin(), c.words.end());
        return true;
    }
    for (size_t k = 0; k < commands.size(); ++k) {
        const ScriptCommand& cmd = commands[k];
        if (!cmd.array && isFlag(cmd.words.front())) {
            error = line(cmd.lines.front()) + ": " + cmd.words.front() +
                    " starts a command of its own: the line before does not continue (a comment "
                    "or a space after the backslash ends the command), so bash would not pass it "
                    "to the launch command on " +
                    line(commands[launch].lines.front());
            return false;
        }
        if (k == launch || cmd.array) words.insert(words.end(), cmd.words.begin(), cmd.words.end());
    }
    return true;
}

}  // namespace

bool parseMegatronArguments(const std::string& text, const Geometry& g, Cluster& c, Plan& p,
                            std::string& error, std::vector<std::string>* notes) {
    std::vector<ScriptCommand> commands;
    if (!scriptCommands(text, commands, error)) return false;
    std::vector<std::string> words;
    if (!launchWords(commands, words, error)) return false;
    if (words.empty()) {
        error = "the file has no arguments (it is empty or only comments)";
        return false;
    }
    ReadFlags r;
    // Megatron's defaults: replicated optimizer state, no sequence parallelism.
    r.plan.distributedOptimizer = false;
    r.plan.sequenceParallel = false;
    r.globalBatch = c.globalBatch;
    r.seqLen = c.seqLen;
    std::map<std::string, std::string> given;  // flag -> its value as first given
    std::vector<std::string> unknown;
    bool anyFlag = false;
    const auto& flags = megatronFlags();
    for (size_t i = 0; i < words.size(); ++i) {
        if (!isFlag(words[i])) continue;  // the launcher, the script, a value of a skipped flag
        anyFlag = true;
        const auto eq = words[i].find('=');
        const std::string name = words[i].substr(0, eq);
        const std::string attachedValue =
            eq == std::string::npos ? std::string() : words[i].substr(eq + 1);
        const auto f = std::find_if(flags.begin(), flags.end(),
                                    [&](const MegatronFlag& m) { return name == m.flag; });
        if (f == flags.end()) {
            if (std::find(unknown.begin(), unknown.end(), name) == unknown.end())
                unknown.push_back(name);
            continue;
        }
        std::string canonical;
        if (!readFlag(*f, eq == std::string::npos ? nullptr : &attachedValue, words, i, r,
                      canonical, error))
            return false;
        const auto [it, first] = given.emplace(name, canonical);
        if (!first && it->second != canonical) {
            error = name + " is given twice with different values (\"" + it->second + "\" and \"" +
                    canonical + "\")";
            return false;
        }
    }
    if (!anyFlag) {
        error = "the file has no --flags (Megatron-LM arguments)";
        return false;
    }
    if (!checkModel(r, g, error)) return false;
    if (r.globalBatch > kMaxGlobalBatch || r.seqLen > kMaxSeqLen) {
        const bool batch = r.globalBatch > kMaxGlobalBatch;
        error = std::string(batch ? "--global-batch-size" : "--seq-length") + " must be at most " +
                std::to_string(batch ? kMaxGlobalBatch : kMaxSeqLen) + " (got " +
                std::to_string(batch ? r.globalBatch : r.seqLen) + ")";
        return false;
    }
    p = r.plan;
    // Megatron FSDP shards what --data-parallel-sharding-strategy says: optim_grads_params (or
    // not given) all three, the plan's FSDP; optim the optimizer state alone, the distributed
    // optimizer (ZeRO-1); no_shard nothing beyond --use-distributed-optimizer; optim_grads is
    // costed as optim, with a note. PyTorch FSDP2 shards all three.
    std::vector<std::string> costedAs;
    if (p.fsdp && !r.shardingStrategy.empty() && r.shardingStrategy != "optim_grads_params") {
        p.fsdp = false;
        if (r.shardingStrategy != "no_shard") p.distributedOptimizer = true;
        if (r.shardingStrategy == "optim_grads")
            costedAs.push_back(
                "--data-parallel-sharding-strategy optim_grads is costed as optim "
                "(optimizer state sharded, gradients not)");
    }
    p.fsdp = p.fsdp || r.torchFsdp;
    if (p.fsdp) p.distributedOptimizer = true;
    p.ckpt = recomputation(r.granularity, r.modules);
    // VP: stated (--num-virtual-stages-per-pipeline-rank, or the config name), or from the
    // layers per chunk, which Megatron accepts only where the layers split evenly.
    if (r.vpPerRank > 0 && r.vpConfig > 0 && r.vpPerRank != r.vpConfig) {
        error = "--num-virtual-stages-per-pipeline-rank " + std::to_string(r.vpPerRank) +
                " and --virtual-pipeline-model-parallel-size " + std::to_string(r.vpConfig) +
                " disagree";
        return false;
    }
    const int vp = std::max(r.vpPerRank, r.vpConfig);
    if (r.layersPerChunk > 0) {
        const std::string flag =
            "--num-layers-per-virtual-pipeline-stage " + std::to_string(r.layersPerChunk);
        if (vp > 0) {
            error = flag + " and --num-virtual-stages-per-pipeline-rank cannot both be given";
            return false;
        }
        if (p.firstStageLayers > 0 || p.lastStageLayers > 0) {
            error = flag +
                    " cannot be used with an uneven pipeline split (Megatron-LM: state VP "
                    "with --num-virtual-stages-per-pipeline-rank)";
            return false;
        }
        if (g.layers % p.pp != 0 || (g.layers / p.pp) % r.layersPerChunk != 0) {
            error = flag + ": the " + std::to_string(g.layers) + " layers do not split into " +
                    std::to_string(p.pp) + " pipeline stages of whole chunks of " +
                    std::to_string(r.layersPerChunk) +
                    " (Megatron-LM refuses it; state VP with "
                    "--num-virtual-stages-per-pipeline-rank)";
            return false;
        }
        p.vp = g.layers / p.pp / r.layersPerChunk;
    } else if (vp > 0) {
        p.vp = vp;
    }
    c.globalBatch = r.globalBatch;
    c.seqLen = r.seqLen;
    c.precision = !r.fp4Format.empty() ? Precision::Nvfp4
                  : !r.fp8Format.empty()
                      ? (r.fp8Recipe == "mxfp8" ? Precision::Mxfp8 : Precision::Fp8)
                      : Precision::Bf16;
    const long long inner = 1LL * p.tp * p.cp * p.pp;
    if (c.devices % inner != 0) {
        error = "TP x CP x PP = " + std::to_string(inner) + " does not divide the device count " +
                std::to_string(c.devices);
        return false;
    }
    p.dp = int(c.devices / inner);
    if (notes && !unknown.empty()) {
        std::string s = "not modelled, not costed:";
        for (const auto& u : unknown) s += " " + u;
        notes->push_back(s);
    }
    if (notes) notes->insert(notes->end(), costedAs.begin(), costedAs.end());
    return true;
}

}  // namespace tandem::mosaic
