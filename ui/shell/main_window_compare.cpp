// MainWindow's comparison: one pin held by every chart and by the MoE workspace's Plan page.
#include <QAction>
#include <QStatusBar>

#include "mosaic/moe_workspace.h"
#include "mosaic/plan_panel.h"
#include "shell/main_window.h"
#include "widgets/chart_view.h"

namespace tandem::ui {

void MainWindow::pinForComparison() {
    const auto views = findChildren<ChartView*>();
    for (ChartView* v : views) v->pinCurves();
    PlanPanel* plan = m_moe->planPanel();
    plan->setPinned(plan->report());
    m_clearPinAction->setEnabled(true);
    statusBar()->showMessage(
        tr("Pinned: every chart keeps this state as dashed grey curves and the Plan page shows "
           "changes against it (View > Clear pinned ends it)"),
        8000);
}

void MainWindow::clearComparison() {
    const auto views = findChildren<ChartView*>();
    for (ChartView* v : views) v->clearPinnedCurves();
    m_moe->planPanel()->setPinned(std::nullopt);
    m_clearPinAction->setEnabled(false);
}

bool MainWindow::comparisonPinned() const { return m_clearPinAction->isEnabled(); }

}  // namespace tandem::ui
