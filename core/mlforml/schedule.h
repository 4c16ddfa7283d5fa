#pragma once
// The network condition the training loop sees over wall-clock time: a piecewise-constant
// sequence of background levels (scenario 1: one level; scenario 2: the number of active
// GPT-13B jobs), each with its measured exposed-DP samples. The sample in force changes every
// samplePeriod_s seconds (phase alignment), chosen by a seeded hash so that every policy sees
// the same network at the same wall-clock time [2608.06046 Sec. 3.3: same schedule].
#include <cstdint>
#include <vector>

#include "mlforml/exposure.h"

namespace tandem::mlforml {

class NetworkSchedule {
public:
    /// `levels` with their exposure tables; the level in force is segLevel[i] from segStart[i]
    /// (s, ascending) on. Offsets-mode tables are sampled every samplePeriod_s from a hash of
    /// `seed`; series-mode tables are read in wall-clock order, and with `randomPhase` each
    /// level's series starts at a seeded random point (schedules averaged in "poisson" then see
    /// different parts of a long series; without it every reader starts at the series' start).
    NetworkSchedule(std::vector<ExposureTable> levels, std::vector<double> segStart,
                    std::vector<int> segLevel, double samplePeriod_s, std::uint64_t seed,
                    bool randomPhase = false);
    /// Index into levels() in force at time t (s >= 0).
    int levelAt(double t) const;
    /// Exposed DP time (s) of combination `combo` for a sync at time t.
    double exposed(int combo, double t) const;
    /// Start (s) of the first segment after time t whose level differs from the level at t;
    /// +inf when the level never changes again.
    double nextLevelChange(double t) const;
    /// Time average of exposed(combo, .) over [t0, t1) (the true future, for Oracle).
    double meanExposed(int combo, double t0, double t1) const;
    const std::vector<ExposureTable>& levels() const { return m_levels; }
    const std::vector<double>& segmentStarts() const { return m_segStart; }
    const std::vector<int>& segmentLevels() const { return m_segLevel; }

private:
    std::vector<ExposureTable> m_levels;
    std::vector<double> m_segStart;
    std::vector<int> m_segLevel;
    std::vector<double> m_phase;  ///< per level, fraction of the series skipped (randomPhase)
    double m_period;
    std::uint64_t m_seed;
};

}  // namespace tandem::mlforml
