// MainWindow's comparison: one pin (View > Pin for comparison and the side panels' buttons) held
// by every chart, the first-crossing bars and the MoE workspace's Plan page.
#include <QAction>
#include <QPushButton>
#include <QStatusBar>

#include "ui/mlforml/network_controls.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/mosaic/plan_panel.h"
#include "ui/shell/main_window.h"
#include "ui/widgets/chart_view.h"

namespace tandem::ui {

void MainWindow::pinForComparison() {
    const auto views = findChildren<ChartView*>();
    for (ChartView* v : views) v->pinCurves();
    PlanPanel* plan = m_moe->planPanel();
    plan->setPinned(plan->report());
    m_network->setComparisonPinned(true);
    showPinned(true);
    statusBar()->showMessage(
        tr("Pinned: every chart keeps this state as dashed grey curves and the Plan page shows "
           "changes against it (View > Clear pinned ends it)"),
        8000);
}

void MainWindow::clearComparison() {
    const auto views = findChildren<ChartView*>();
    for (ChartView* v : views) v->clearPinnedCurves();
    m_moe->planPanel()->setPinned(std::nullopt);
    m_network->setComparisonPinned(false);
    showPinned(false);
}

void MainWindow::showPinned(bool on) {
    m_clearPinAction->setEnabled(on);
    m_pinAction->setChecked(on);
    for (QPushButton* button : {m_network->controls()->pinButton(), m_moe->controls()->pinButton()})
        button->setChecked(on);
}

bool MainWindow::comparisonPinned() const { return m_clearPinAction->isEnabled(); }

}  // namespace tandem::ui
