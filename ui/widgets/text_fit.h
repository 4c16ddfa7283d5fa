#pragma once
// Finds text that does not fit on screen: elided or clipped chart text (titles, legends, axis
// ticks, bar labels, annotations), overlapping chart text, charts that run off their window and
// clipped control texts (labels, buttons, combo boxes, table columns). Used by the layout tests of
// every preset and example page at every supported window size.
#include <QList>
#include <QRectF>
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

/// One text a widget paints itself: where it is drawn and the room it needs there (both in the
/// widget's coordinates, logical pixels).
struct DrawnText {
    QString text;
    QRectF box;    ///< the rectangle the text is drawn in
    QRectF needs;  ///< the text's own extent (font metrics) placed as drawn
};

/// A widget that paints its own texts (not through QLabel or a chart) reports them, so that
/// windowTextProblems checks them like any other text.
class DrawnTextSource {
public:
    virtual ~DrawnTextSource() = default;
    /// Every text as painted at the widget's current size.
    virtual QList<DrawnText> drawnTexts() const = 0;
};

/// Problems of `texts` painted inside a `size` widget named `who`: a text wider or taller than
/// its box (cut), a box outside the widget, two boxes that overlap by more than 1 px each way.
QStringList drawnTextProblems(const QString& who, const QSizeF& size,
                              const QList<DrawnText>& texts);

/// Problems of every visible widget inside `window`: chartTextProblems() of each visible chart,
/// a chart whose rectangle reaches outside `window` or outside a parent that clips it, a
/// DrawnTextSource widget's drawnTextProblems(), a one-line QLabel, button or check box narrower
/// than its text, a table column narrower than its header or its widest shown cell, and a combo box
/// whose current text is wider than its edit field. Empty when everything fits.
QStringList windowTextProblems(const QWidget* window);

}  // namespace tandem::ui
