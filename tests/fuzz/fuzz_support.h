#pragma once
// Shared helpers of the libFuzzer targets: turn the raw input into text and stop the run on a
// broken invariant (libFuzzer then saves the input as a crash reproducer).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "common/diagnostics.h"

namespace tandem::fuzz {

/// The fuzzer's bytes as a std::string (may hold NUL and invalid UTF-8 on purpose).
inline std::string text(const uint8_t* data, size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

/// Aborts with `what` when `ok` is false; libFuzzer records the input.
inline void require(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "invariant violated: %s\n", what);
    std::abort();
}

/// Every rejected input must say where and why: a non-empty path and message per issue.
inline void requireExplained(const Diagnostics& d) {
    require(!d.ok(), "rejected input without any diagnostic");
    for (const auto& i : d.items()) {
        require(!i.path.empty(), "diagnostic without a path");
        require(!i.message.empty(), "diagnostic without a reason");
    }
}

/// Serialises like `tandem-cli inspect --json` does: bytes that are not UTF-8 (imported text
/// may hold any) become U+FFFD instead of throwing nlohmann's type_error 316.
template <class Json>
std::string dumpLikeCli(const Json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tandem::fuzz
