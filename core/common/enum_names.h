#pragma once
// The one string table of a closed set: each value of an enum with the word a file, a CSV cell
// or a message writes for it. Reading maps the word back; anything else is an input error
// (JsonReader::choice names the allowed words).
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tandem {

/// One value of enum `E` and its word.
template <class E>
struct EnumName {
    E value;
    const char* name;
};

/// Every value of `E` once, in the order messages list them.
template <class E>
using EnumTable = std::vector<EnumName<E>>;

/// The word of `v` in `table` ("" when `v` is not in it, which a complete table rules out).
template <class E>
const char* enumName(const EnumTable<E>& table, E v) {
    for (const auto& e : table)
        if (e.value == v) return e.name;
    return "";
}

/// The value whose word is `s`, or nullopt.
template <class E>
std::optional<E> enumFromName(const EnumTable<E>& table, const std::string& s) {
    for (const auto& e : table)
        if (s == e.name) return e.value;
    return std::nullopt;
}

/// Every word of `table`, in its order.
template <class E>
std::vector<std::string> enumNames(const EnumTable<E>& table) {
    std::vector<std::string> out;
    out.reserve(table.size());
    for (const auto& e : table) out.emplace_back(e.name);
    return out;
}

/// A smaller closed set `S` inside a wider one `W`: each value of `S` once, in the order its
/// messages list them, with the value of `W` it is (e.g. the collectives a model costs, each one
/// of the nccl-tests collectives). `S` takes its words from `W`'s table (subsetNames), so a word
/// is written in one table only.
template <class S, class W>
using EnumSubset = std::vector<std::pair<S, W>>;

/// The value of `W` that `s` is (`W{}` when `s` is not in `subset`, which a complete subset
/// rules out).
template <class S, class W>
W widen(const EnumSubset<S, W>& subset, S s) {
    for (const auto& [small, wide] : subset)
        if (small == s) return wide;
    return W{};
}

/// The value of `S` that `w` is, or nullopt when `w` is outside the subset.
template <class S, class W>
std::optional<S> narrow(const EnumSubset<S, W>& subset, W w) {
    for (const auto& [small, wide] : subset)
        if (wide == w) return small;
    return std::nullopt;
}

/// The table of `S`: each value of `subset` with the word `wideTable` gives its value of `W`.
template <class S, class W>
EnumTable<S> subsetNames(const EnumSubset<S, W>& subset, const EnumTable<W>& wideTable) {
    EnumTable<S> out;
    out.reserve(subset.size());
    for (const auto& [small, wide] : subset) out.push_back({small, enumName(wideTable, wide)});
    return out;
}

/// The word of each of `values`, in their order (a list of a closed set as a file writes it).
template <class E>
std::vector<std::string> enumNames(const EnumTable<E>& table, const std::vector<E>& values) {
    std::vector<std::string> out;
    out.reserve(values.size());
    for (E v : values) out.emplace_back(enumName(table, v));
    return out;
}

}  // namespace tandem
