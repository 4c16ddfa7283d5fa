#pragma once
// The model step of the MoE workspace's "Co-running jobs" page: which background levels are
// charted and what each level's search says about the cluster optimum (no widget involved).
// The searches are mosaic::searchPerBackgroundLevel [docs/MODEL-NETWORK.md section 7].
#include <QString>
#include <vector>

#include "mosaic/background.h"
#include "mosaic/envelope.h"
#include "mosaic/search.h"

namespace tandem::ui {

/// At most this many levels are charted (each one search, ~50-100 ms on the Table 3 envelope).
constexpr int kMaxBackgroundLevels = 8;

/// The co-running-job levels charted for `e`, ascending, distinct: 0, then 1, 2, 4, 8, ... up
/// to the most the fabric holds beside the MoE job (mosaic::maxBackgroundJobs) and that most
/// itself, thinned to kMaxBackgroundLevels, always with the envelope's own level
/// (background.jobs, 0 without a background section) when it fits. {0} when no job fits.
std::vector<int> backgroundChartLevels(const mosaic::Envelope& e);

/// One search per level, in the order of `jobs` (what the page's worker hands back).
struct BackgroundLevels {
    std::vector<int> jobs;                      ///< co-running jobs per level, ascending
    std::vector<mosaic::SearchResult> results;  ///< searchPerBackgroundLevel, same order
    int currentJobs = 0;                        ///< the envelope's own level
    int nodes = 0;                              ///< MoE job, nodes
    mosaic::BackgroundLoad background;          ///< the job, fabric and placement of every level
};

/// The page's status line: levels, fabric, placement and the co-running job's size.
QString backgroundLevelsNote(const BackgroundLevels& levels);

/// The cluster optimum of one level; NaN S and loss when no geometry fits (feasible false).
struct BackgroundLevelRow {
    int jobs = 0;
    bool feasible = false;
    double sparsity = 0;  ///< S = 1 - N_act / N_tot of the optimum
    double loss = 0;      ///< Eq. 10 at the optimum's D, nats [2608.10605]
    double mfu = 0;       ///< MFU of its best layout, fraction
    QString geometry;     ///< geometryLabel of the optimum
    QString layout;       ///< layoutString of its plan ("TP1 PP2 EP8 ...")
};

/// One row per level of `levels`, same order.
std::vector<BackgroundLevelRow> backgroundLevelRows(const BackgroundLevels& levels);

/// The page's one-line lesson with the live numbers: the optimum at the first and the last
/// feasible level (S, loss) and the nats the co-running jobs cost; says when the optimum does not
/// move or when no level has a feasible geometry.
QString backgroundLevelsCaption(const std::vector<BackgroundLevelRow>& rows);

}  // namespace tandem::ui
