#pragma once
// The frame both workspaces share: a fixed-width control column on the left, chart pages and a
// status line on the right, and splitters that share space by weight.
#include <QList>
#include <QString>
#include <Qt>

class QLabel;
class QSplitter;
class QTabWidget;
class QWidget;

namespace tandem::ui {

/// A splitter (child of `parent`) holding `widgets` in order; widget i gets stretch factor and
/// initial share `weights[i]` (weights.size() <= widgets.size()); children cannot collapse. A
/// Qt::Horizontal one stacks its widgets (turns vertical) while it is narrower than their least
/// widths side by side, and its least width is the widest widget's, so a page never needs a
/// horizontal scroll bar. Stacked, each widget is at least 400 px high, except that the first is
/// at most as high as the scroll area around it shows under its top (where that leaves it its
/// own least height): at the start of a scrolling page the first chart shows whole, legend
/// included.
QSplitter* weightedSplitter(Qt::Orientation orientation, QWidget* parent,
                            const QList<QWidget*>& widgets, const QList<int>& weights);

/// Lays out `workspace` (which must have no layout yet): `panel` in a scroll area 290 px wide
/// (vertical scrolling only) on the left; on the right `pages` (document mode) above `status`
/// (word-wrapped), the pages taking all the height the status line leaves; where the window
/// leaves them less than their least height, the pages scroll vertically (scroll area
/// "pagesScroll"; never horizontally, see weightedSplitter)
/// instead of widening the window, and the status line (object name "workspaceStatus" unless
/// it has one) stays whole under them. The panel's value
/// controls take the wheel only with keyboard focus (guardWheelInPanel).
void layOutWorkspace(QWidget* workspace, QWidget* panel, QTabWidget* pages, QLabel* status);

/// Gives tab `index` of `pages` (laid out by layOutWorkspace) a short title, shown instead of
/// its full one while the full titles of the visible tabs do not fit the tab bar (an 800 px
/// window), so no title is cut behind the bar's scroll buttons. Call after addTab.
void setShortTabText(QTabWidget* pages, int index, const QString& brief);
/// The full title of tab `index` (tabText may show the short one).
QString fullTabText(const QTabWidget* pages, int index);

/// In a scrolling side panel the mouse wheel scrolls the panel: every slider, spin box and
/// combo box inside `panel` (now or added later) changes its value by the wheel only while it
/// has keyboard focus (a click or Tab gives it; the wheel never does, Qt::StrongFocus); without
/// focus the wheel event goes on to the scroll area.
void guardWheelInPanel(QWidget* panel);

}  // namespace tandem::ui
