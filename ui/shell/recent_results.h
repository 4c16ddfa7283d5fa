#pragma once
// The last few engine results of a workspace, keyed by their inputs, so that a slider dragged
// back over values it has just passed shows them again without recomputing.
#include <QtGlobal>
#include <algorithm>
#include <deque>
#include <optional>
#include <utility>

namespace tandem::ui {

/// Most-recently-used list of (inputs, result) pairs, at most `capacity` long. `Key` needs
/// operator==; lookups compare linearly (capacities are small, tens of entries). Values are
/// copied out. GUI-thread only (no locking).
template <class Key, class Value>
class RecentResults {
public:
    explicit RecentResults(std::size_t capacity) : m_capacity(std::max<std::size_t>(1, capacity)) {}

    /// The result stored for `key` (and marks it most recent), or nullopt.
    std::optional<Value> find(const Key& key) {
        const auto it = std::find_if(m_entries.begin(), m_entries.end(),
                                     [&](const auto& e) { return e.first == key; });
        if (it == m_entries.end()) return std::nullopt;
        std::rotate(it, it + 1, m_entries.end());
        return m_entries.back().second;
    }
    /// Stores `value` for `key` as the most recent, replacing an entry of the same key and
    /// dropping the least recent one beyond the capacity.
    void insert(const Key& key, Value value) {
        const auto it = std::find_if(m_entries.begin(), m_entries.end(),
                                     [&](const auto& e) { return e.first == key; });
        if (it != m_entries.end()) m_entries.erase(it);
        m_entries.emplace_back(key, std::move(value));
        while (m_entries.size() > m_capacity) m_entries.pop_front();
    }
    void clear() { m_entries.clear(); }
    std::size_t size() const { return m_entries.size(); }

private:
    std::size_t m_capacity;
    std::deque<std::pair<Key, Value>> m_entries;  ///< least recent first
};

}  // namespace tandem::ui
