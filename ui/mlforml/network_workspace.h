#pragma once
// Workspace 1, "Network x ML knobs" [2608.06046]: controls, charts and the live worker.
#include <QWidget>
#include <optional>
#include <utility>

#include "io/loss_fit.h"
#include "io/loss_log.h"
#include "mlforml/network_map.h"
#include "mlforml/params.h"
#include "mlforml/simulate.h"
#include "ui/shell/deferred_compute.h"
#include "ui/shell/job_runner.h"
#include "ui/shell/recent_results.h"

class QLabel;
class QTabWidget;

namespace tandem::ui {

class BackgroundLoadView;
class ChartView;
class ComboTimelineView;
class DpShareTimeView;
class FirstCrossingView;
class LossCurveView;
class LossFitPanel;
class NetworkControls;
class NetworkMapView;
class SweepCrossingView;
class SweepView;

/// A simulate() result with the inputs it ran on (the key of the recent results).
using PointOutput = std::pair<mlforml::Params, mlforml::Result>;

/// Assembles the side panel and one widget per chart, on three chart pages (loss and first
/// crossing; knobs, exposed DP share and background load over time; the sweep over N), and the
/// "Network" page (NetworkMapView: the fabric and its link use, mlforml::networkMap of the link
/// record every run keeps, the one `tandem-cli run --out` writes as links.csv). Engine
/// inputs changed in the panel are copied into a Params value and handed to a JobRunner (worker
/// thread, coalesced, cancellable); results update every chart with one replace() per series. The
/// background-job slider picks the N the detail charts show (the scenario's sweep list is kept for
/// the sweep chart).
class NetworkWorkspace : public QWidget {
    Q_OBJECT
public:
    explicit NetworkWorkspace(QWidget* parent = nullptr);
    /// With `on`, an input change made while the window is shown but this workspace is not (a
    /// linked slider of the other workspace) is computed when the workspace is next shown; the
    /// main window turns it on. Off (the default): every change is computed at once.
    void setComputeWhenShown(bool on) { m_deferral.setEnabled(on); }

    /// Loads a scenario part (or disables the workspace with a reason when absent).
    void setParams(const std::optional<mlforml::Params>& p);
    /// Current inputs (scenario part as edited by the controls).
    const std::optional<mlforml::Params>& params() const { return m_params; }
    /// Every chart of the workspace (export, theme).
    QList<ChartView*> charts() const;
    NetworkControls* controls() const { return m_controls; }
    LossCurveView* lossView() const { return m_loss; }
    /// Results kept for values shown a moment ago (points and sweeps); setParams clears them.
    std::size_t cachedResultCount() const { return m_recentPoints.size() + m_recentSweeps.size(); }
    FirstCrossingView* firstCrossingView() const { return m_firstCrossing; }
    /// Part of View > Pin for comparison (MainWindow::pinForComparison): keeps the result shown
    /// now for the first-crossing bars, whose labels then carry the pinned times (its category
    /// axis has no place for ChartView::pinCurves' curves); false ends it.
    void setComparisonPinned(bool on);
    ComboTimelineView* timelineView() const { return m_timeline; }
    DpShareTimeView* dpShareTimeView() const { return m_dpShareTime; }
    BackgroundLoadView* loadView() const { return m_load; }
    SweepCrossingView* sweepCrossingView() const { return m_sweepCrossing; }
    SweepView* sweepView() const { return m_sweep; }
    /// The chart pages (tab widget on the right).
    QTabWidget* pages() const { return m_pages; }
    JobRunner* runner() const { return m_runner.runner(); }
    JobRunner* sweepRunner() const { return m_sweepRunner.runner(); }
    /// The worker that turns a link record into the network page's map.
    JobRunner* mapRunner() const { return m_mapRunner.runner(); }
    NetworkMapView* networkMapView() const { return m_networkMap; }
    /// Index of the "Network" page in pages().
    static constexpr int kNetworkPage = 4;
    /// Leaves (or units) the network page's map keeps, most worth showing first.
    static constexpr int kMapGroups = 16;
    /// The last result shown (empty before the first).
    const std::optional<mlforml::Result>& result() const { return m_result; }
    /// A preset's view: background jobs shown (-1 keeps the scenario's first), target, x-axis.
    void applyPresetView(int shownN, int targetIndex, bool updatesAxis);
    /// Re-applies the theme to every chart.
    void applyTheme();
    /// Shows an imported loss log and its fit on the "Loss log fit" page (made visible).
    void setLossImport(const io::LossLog& log, const io::LossFit& fit, const QString& label);
    /// Hides the loss-log page (a new scenario was opened).
    void clearImports();
    LossFitPanel* lossFitPanel() const { return m_lossFit; }

signals:
    /// The user changed an engine input; the scenario document should take `p`.
    void paramsEdited(const tandem::mlforml::Params& p);
    /// New results are on screen (after every chart was updated).
    void resultsShown();
    void busyChanged(bool busy);

private:
    void recompute();
    void showResult(const mlforml::Result& r);
    void refreshViews();

    std::optional<mlforml::Params> m_params;
    std::optional<mlforml::Result> m_result;
    std::optional<mlforml::PointResult> m_pinned;
    void showEvent(QShowEvent* event) override;
    void recomputeSweep();
    /// Runs `p` on `runner` (mlforml::simulate), or hands back the result `recent` holds for it.
    void submit(TypedJobRunner<PointOutput>& runner,
                RecentResults<mlforml::Params, mlforml::Result>& recent, const mlforml::Params& p);
    void showSweep();
    /// Submits the map of the link record of the background jobs shown: the sweep's (placed
    /// as `tandem-cli run` places them) when it holds that N for the current inputs, else the
    /// detail point's.
    void updateNetworkMap();
    NetworkControls* m_controls;
    QTabWidget* m_pages;
    SweepView* m_sweep;
    SweepCrossingView* m_sweepCrossing;
    ComboTimelineView* m_timeline;
    DpShareTimeView* m_dpShareTime;
    BackgroundLoadView* m_load;
    TypedJobRunner<PointOutput> m_sweepRunner;
    std::optional<mlforml::Result> m_sweepResult;
    std::optional<mlforml::Params> m_sweepInputs;  ///< inputs of the last sweep request
    LossCurveView* m_loss;
    FirstCrossingView* m_firstCrossing;
    QLabel* m_status;
    LossFitPanel* m_lossFit;
    TypedJobRunner<PointOutput> m_runner;
    NetworkMapView* m_networkMap;
    TypedJobRunner<mlforml::NetworkMap> m_mapRunner;
    std::optional<mlforml::Params> m_resultInputs;       ///< inputs of m_result
    std::optional<mlforml::Params> m_sweepResultInputs;  ///< inputs of m_sweepResult
    DeferredCompute m_deferral{this};
    /// The last detail points and sweeps shown, by their inputs (a scenario opened: cleared).
    RecentResults<mlforml::Params, mlforml::Result> m_recentPoints{16};
    RecentResults<mlforml::Params, mlforml::Result> m_recentSweeps{4};
};

}  // namespace tandem::ui
