#pragma once
// The one string table of a closed set: each value of an enum with the word a file, a CSV cell
// or a message writes for it. Reading maps the word back; anything else is an input error
// (JsonReader::choice names the allowed words).
#include <cstddef>
#include <optional>
#include <string>
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

/// The word of each of `values`, in their order (a list of a closed set as a file writes it).
template <class E>
std::vector<std::string> enumNames(const EnumTable<E>& table, const std::vector<E>& values) {
    std::vector<std::string> out;
    out.reserve(values.size());
    for (E v : values) out.emplace_back(enumName(table, v));
    return out;
}

}  // namespace tandem
