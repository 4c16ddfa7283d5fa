#pragma once
// Finds text that does not fit on screen: elided or clipped chart text (titles, legends, axis
// ticks, bar labels, annotations), overlapping chart text, charts that run off their window and
// clipped control texts (labels, buttons, combo boxes, table columns). Used by the layout tests of
// every preset and example page at every supported window size.
#include <QString>
#include <QStringList>

class QWidget;

namespace tandem::ui {

class ChartView;

/// Problems of `view`'s chart as shown now, one sentence each naming the chart and the text:
/// a text item whose text was elided ("..." inserted by Qt Charts), a text item that reaches
/// outside the view or outside a clipping parent (a scrolled-away legend entry), two visible
/// text items whose boxes overlap by more than 2 px across and half a line up and down, a visible
/// axis whose title or (bar category axis) label is not drawn whole as one shown text item (cut
/// or hidden by Qt Charts), and a plot area of less than 60 x 40 px. Empty when everything fits.
QStringList chartTextProblems(const ChartView* view);

/// Problems of every visible widget inside `window`: chartTextProblems() of each visible chart,
/// a chart whose rectangle reaches outside `window` or outside a parent that clips it, a
/// one-line QLabel, button or check box narrower than its text, a table column narrower than its
/// header or its widest shown cell, and a combo box whose current text is wider than its edit
/// field. Empty when everything fits.
QStringList windowTextProblems(const QWidget* window);

}  // namespace tandem::ui
