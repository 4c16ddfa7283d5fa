#include "ui/mosaic/background_levels.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>
#include <limits>

#include "mosaic/background.h"
#include "mosaic/geometry.h"
#include "mosaic/layout_form.h"

namespace tandem::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("BackgroundLevels", text); }

}  // namespace

std::vector<int> backgroundChartLevels(const mosaic::Envelope& e) {
    const mosaic::BackgroundLoad& bg = mosaic::backgroundOrIdle(e);
    const int most = mosaic::maxBackgroundJobs(bg, e.nodes);
    std::vector<int> ladder{0};
    for (int j = 1; j < most; j *= 2) ladder.push_back(j);
    if (most > 0) ladder.push_back(most);
    // Thin the doubling ladder from its small end, keeping 0 and the largest level.
    while (static_cast<int>(ladder.size()) > kMaxBackgroundLevels) ladder.erase(ladder.begin() + 1);
    const int own = e.background ? e.background->jobs : 0;
    if (own <= most && std::find(ladder.begin(), ladder.end(), own) == ladder.end()) {
        ladder.push_back(own);
        std::sort(ladder.begin(), ladder.end());
        if (static_cast<int>(ladder.size()) > kMaxBackgroundLevels) {
            // Drop the smallest non-zero level that is not the envelope's own.
            for (auto it = ladder.begin() + 1; it != ladder.end(); ++it)
                if (*it != own) {
                    ladder.erase(it);
                    break;
                }
        }
    }
    return ladder;
}

std::vector<BackgroundLevelRow> backgroundLevelRows(const BackgroundLevels& levels) {
    std::vector<BackgroundLevelRow> rows;
    const size_t n = std::min(levels.jobs.size(), levels.results.size());
    rows.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        BackgroundLevelRow row;
        row.jobs = levels.jobs[i];
        const mosaic::SearchResult& r = levels.results[i];
        row.feasible = r.optimum >= 0 && static_cast<size_t>(r.optimum) < r.candidates.size();
        if (row.feasible) {
            const mosaic::Candidate& c = r.candidates[static_cast<size_t>(r.optimum)];
            row.sparsity = c.geometry.sparsity;
            row.loss = c.loss;
            row.mfu = c.eval.mfu;
            row.geometry = QString::fromStdString(mosaic::geometryLabel(c.geometry));
            row.layout = QString::fromStdString(mosaic::layoutString(c.plan));
        } else {
            row.sparsity = row.loss = row.mfu = std::numeric_limits<double>::quiet_NaN();
        }
        rows.push_back(row);
    }
    return rows;
}

QString backgroundLevelsNote(const BackgroundLevels& levels) {
    const mosaic::BackgroundLoad& bg = levels.background;
    return tr("%1 on %2 (%3 nodes, %4:1 oversubscribed), placement: MoE job %5, co-running jobs "
              "%6; each "
              "co-running job %7 nodes, %8 GB gradient, %9 ms compute between syncs.")
        .arg(levels.jobs.size() == 1 ? tr("1 level") : tr("%1 levels").arg(levels.jobs.size()))
        .arg(QString::fromStdString(bg.topology.preset))
        .arg(bg.topology.nodes)
        .arg(bg.topology.oversubscription, 0, 'g', 3)
        .arg(QString::fromUtf8(fabric::name(bg.placement.foreground)),
             QString::fromUtf8(fabric::name(bg.placement.background)))
        .arg(bg.job.nodes)
        .arg(bg.job.gradientBytes / 1e9, 0, 'g', 3)
        .arg(bg.job.compute_s * 1e3, 0, 'g', 3);
}

QString backgroundLevelsCaption(const std::vector<BackgroundLevelRow>& rows) {
    const BackgroundLevelRow* first = nullptr;
    const BackgroundLevelRow* last = nullptr;
    for (const BackgroundLevelRow& r : rows)
        if (r.feasible) {
            if (!first) first = &r;
            last = &r;
        }
    if (!first) return tr("No geometry has a feasible layout at any level of co-running jobs.");
    const auto jobs = [](int n) {
        return n == 1 ? tr("1 co-running job") : tr("%1 co-running jobs").arg(n);
    };
    if (first == last)
        return tr("Only %1 leaves a feasible geometry: S = %2 at %3 nats.")
            .arg(jobs(first->jobs))
            .arg(first->sparsity, 0, 'f', 3)
            .arg(first->loss, 0, 'f', 4);
    const double cost = last->loss - first->loss;
    const bool moved =
        std::abs(last->sparsity - first->sparsity) > 1e-9 || last->layout != first->layout;
    QString lesson;
    if (!moved && std::abs(cost) < 5e-5)
        return tr("With %1 or %2 the cluster optimum is S = %3 at %4 nats: with this placement and "
                  "fabric the co-running jobs share none of the links the MoE job's collectives "
                  "use.")
            .arg(jobs(first->jobs), jobs(last->jobs))
            .arg(first->sparsity, 0, 'f', 3)
            .arg(first->loss, 0, 'f', 4);
    if (!moved)
        lesson =
            tr("The optimum keeps its geometry and layout; the slower collectives only cost "
               "tokens in the window.");
    else if (last->sparsity < first->sparsity - 1e-9)
        lesson =
            tr("The busier fabric prices the expert all-to-all and DP traffic that cross "
               "leaves higher, so the cluster optimum moves to a denser model.");
    else if (last->sparsity > first->sparsity + 1e-9)
        lesson = tr("The busier fabric moves the cluster optimum to a sparser model.");
    else
        lesson =
            tr("The optimum keeps its sparsity but changes its layout to keep traffic "
               "off the shared uplinks.");
    return tr("With %1 the cluster optimum is S = %2 at %3 nats; with %4, S = %5 at %6 nats "
              "(%7 nats given up). %8")
        .arg(jobs(first->jobs))
        .arg(first->sparsity, 0, 'f', 3)
        .arg(first->loss, 0, 'f', 4)
        .arg(jobs(last->jobs))
        .arg(last->sparsity, 0, 'f', 3)
        .arg(last->loss, 0, 'f', 4)
        .arg(cost, 0, 'f', 4)
        .arg(lesson);
}

}  // namespace tandem::ui
