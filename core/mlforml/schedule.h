#pragma once
// The network condition the training loop sees over wall-clock time: a piecewise-constant
// sequence of background levels (scenario 1: one level; scenario 2: the number of active
// GPT-13B jobs), each with its measured exposed-DP samples. The sample in force changes every
// samplePeriodS seconds (phase alignment), chosen by a seeded hash so that every policy sees
// the same network at the same wall-clock time [2608.06046 Sec. 3.3: same schedule].
#include <cstdint>
#include <vector>

#include "mlforml/exposure.h"

namespace tandem::mlforml {

class NetworkSchedule {
public:
    NetworkSchedule(std::vector<ExposureTable> levels, std::vector<double> segStart,
                    std::vector<int> segLevel, double samplePeriodS, std::uint64_t seed);
    /// Index into levels() in force at time t (s >= 0).
    int levelAt(double t) const;
    /// Exposed DP time (s) of combination `combo` for a sync at time t.
    double exposed(int combo, double t) const;
    /// Time average of exposed(combo, .) over [t0, t1) (the true future, for Oracle).
    double meanExposed(int combo, double t0, double t1) const;
    const std::vector<ExposureTable>& levels() const { return m_levels; }
    const std::vector<double>& segmentStarts() const { return m_segStart; }
    const std::vector<int>& segmentLevels() const { return m_segLevel; }

private:
    std::vector<ExposureTable> m_levels;
    std::vector<double> m_segStart;
    std::vector<int> m_segLevel;
    double m_period;
    std::uint64_t m_seed;
};

}  // namespace tandem::mlforml
