#pragma once
// Cooperative cancellation for long engine calls (the GUI worker drops stale requests).
#include <atomic>
#include <exception>

namespace tandem {

/// Shared flag polled by engine loops; a cancelled call throws Cancelled.
/// Lifetime: owned by the caller; the engine only reads it. nullptr means "never cancelled".
using CancelFlag = std::atomic<bool>;

struct Cancelled : std::exception {
    const char* what() const noexcept override { return "computation cancelled"; }
};

/// Throws Cancelled when `flag` is set; a nullptr flag never cancels.
inline void throwIfCancelled(const CancelFlag* flag) {
    if (flag && flag->load(std::memory_order_relaxed)) throw Cancelled();
}

}  // namespace tandem
