#pragma once
// The frame both workspaces share: a fixed-width control column on the left, chart pages and a
// status line on the right, and splitters that share space by weight.
#include <QList>
#include <Qt>

class QLabel;
class QSplitter;
class QTabWidget;
class QWidget;

namespace tandem::ui {

/// A splitter (child of `parent`) holding `widgets` in order; widget i gets stretch factor and
/// initial share `weights[i]` (weights.size() <= widgets.size()); children cannot collapse.
QSplitter* weightedSplitter(Qt::Orientation orientation, QWidget* parent,
                            const QList<QWidget*>& widgets, const QList<int>& weights);

/// Lays out `workspace` (which must have no layout yet): `panel` in a scroll area 290 px wide
/// (vertical scrolling only) on the left; on the right `pages` (document mode) above `status`
/// (word-wrapped), the pages taking all the height the status line leaves; where the window
/// leaves them less than their least size, the pages scroll (scroll area "pagesScroll")
/// instead of widening the window, and the status line (object name "workspaceStatus" unless
/// it has one) stays whole under them. The panel's value
/// controls take the wheel only with keyboard focus (guardWheelInPanel).
void layOutWorkspace(QWidget* workspace, QWidget* panel, QTabWidget* pages, QLabel* status);

/// In a scrolling side panel the mouse wheel scrolls the panel: every slider, spin box and
/// combo box inside `panel` (now or added later) changes its value by the wheel only while it
/// has keyboard focus (a click or Tab gives it; the wheel never does, Qt::StrongFocus); without
/// focus the wheel event goes on to the scroll area.
void guardWheelInPanel(QWidget* panel);

}  // namespace tandem::ui
