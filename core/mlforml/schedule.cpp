#include "mlforml/schedule.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tandem::mlforml {

NetworkSchedule::NetworkSchedule(std::vector<ExposureTable> levels, std::vector<double> segStart,
                                 std::vector<int> segLevel, double samplePeriod_s,
                                 std::uint64_t seed, bool randomPhase)
    : m_levels(std::move(levels)),
      m_segStart(std::move(segStart)),
      m_segLevel(std::move(segLevel)),
      m_period(samplePeriod_s),
      m_seed(seed) {
    if (randomPhase) {
        fabric::SplitMix64 g(seed ^ 0x5DEECE66Dull);
        for (size_t l = 0; l < m_levels.size(); ++l) m_phase.push_back(g.uniform());
    }
    if (m_segStart.empty()) {
        m_segStart.push_back(0.0);
        m_segLevel.push_back(0);
    }
}

int NetworkSchedule::levelAt(double t) const {
    const auto it = std::upper_bound(m_segStart.begin(), m_segStart.end(), t);
    const size_t i =
        it == m_segStart.begin() ? 0 : static_cast<size_t>(it - m_segStart.begin()) - 1;
    return m_segLevel[i];
}

double NetworkSchedule::exposed(int combo, double t) const {
    const int level = levelAt(t);
    const auto& tab = m_levels[level];
    const auto& s = tab.samples[combo];
    if (s.empty()) return 0.0;
    if (!tab.sampleTimes.empty() && tab.seriesDuration[combo] > 0 &&
        std::isfinite(tab.seriesDuration[combo])) {
        // Series: the replayed iteration in force at this wall-clock time (repeating).
        // Series: the replayed iteration in force at this wall-clock time (repeating), read from
        // a seeded phase per level so that schedules start at different points of long series.
        const auto& st = tab.sampleTimes[combo];
        const double phase = m_phase.empty() ? 0.0 : m_phase[static_cast<size_t>(level)];
        const double tau =
            std::fmod(t + phase * tab.seriesDuration[combo], tab.seriesDuration[combo]);
        const auto it = std::upper_bound(st.begin(), st.end(), tau);
        const size_t i = it == st.begin() ? 0 : static_cast<size_t>(it - st.begin()) - 1;
        return s[std::min(i, s.size() - 1)];
    }
    const auto bin = static_cast<std::uint64_t>(std::max(0.0, std::floor(t / m_period)));
    fabric::SplitMix64 h(m_seed ^ (bin * 0x9E3779B97F4A7C15ull) ^
                         (static_cast<std::uint64_t>(level) << 48));
    return s[h.next() % s.size()];
}

double NetworkSchedule::nextLevelChange(double t) const {
    const int now = levelAt(t);
    auto it = std::upper_bound(m_segStart.begin(), m_segStart.end(), t);
    for (; it != m_segStart.end(); ++it)
        if (m_segLevel[static_cast<size_t>(it - m_segStart.begin())] != now) return *it;
    return std::numeric_limits<double>::infinity();
}

double NetworkSchedule::meanExposed(int combo, double t0, double t1) const {
    if (!(t1 > t0)) return exposed(combo, t0);
    double sum = 0, w = 0;
    double t = t0;
    int guard = 0;
    while (t < t1 && guard++ < 100000) {
        const double next = std::min(t1, (std::floor(t / m_period) + 1) * m_period);
        const double dt = next - t;
        sum += exposed(combo, t) * dt;
        w += dt;
        t = next;
    }
    return w > 0 ? sum / w : exposed(combo, t0);
}

}  // namespace tandem::mlforml
