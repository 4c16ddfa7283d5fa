#pragma once
// Display units chosen once per chart so axis labels stay short and readable.
#include <QString>

namespace tandem::ui {

/// A wall-clock display unit: value_in_unit = seconds / divisor.
struct TimeUnit {
    double divisor;     ///< seconds per unit (60 or 3600 or 1)
    QString name;       ///< "s", "minutes", "hours"
    QString shortName;  ///< "s", "min", "h"
};

/// `text` with its spaces and hyphens made non-breaking (U+00A0, U+2011): a label that wraps
/// keeps it on one line, so a number never ends a line with its unit on the next ("17.6 B",
/// "mb 4", "50 ms") and a name is never cut at its hyphen ("p6-b200").
QString unbroken(const QString& text);

/// `text` with its last space made non-breaking, so a wrapped label never ends with one word
/// alone on its last line ("... BF16" / "peak)" becomes "... dense" / "BF16 peak)").
QString noWidow(const QString& text);

/// `text` with the non-breaking spaces and hyphens of unbroken() and noWidow() made plain
/// again (for reading a label's text back).
QString plainSpaces(const QString& text);

/// Picks seconds below 2 minutes, minutes below 2 hours, hours otherwise (`maxSeconds` >= 0).
TimeUnit chooseTimeUnit(double maxSeconds);

/// Formats a duration in seconds with the unit that keeps 2-3 significant digits ("4.2 h").
/// NaN (not reached) -> "not reached".
QString formatDuration(double seconds);

/// "x1.42" for a ratio; NaN -> "n/a".
QString formatRatio(double ratio);

}  // namespace tandem::ui

class QValueAxis;

namespace tandem::ui {

/// A "nice" tick step (1, 2, 2.5 or 5 x 10^k) so that `span` holds about `ticks` intervals.
double niceStep(double span, int ticks);

/// The decimals a label of a multiple of `step` (a niceStep) needs: 0 for 1, 2, 5, 10, ...; 1 for
/// 0.5 and 2.5; 2 for 0.25 and 0.05.
int niceDecimals(double step);

/// The axis property in which ChartView::fitAxis keeps the tick count it thinned (an int), to
/// restore it when the labels fit again; setNiceRange clears it, its ticks being the view's own.
inline constexpr char kThinnedTicksProperty[] = "tandemTicks";

/// Sets `axis` to [lo, hi] widened outward to multiples of a nice step, with ticks on those
/// multiples (so labels read 0, 20, 40 rather than 0, 17.3, 34.6). `margin` (a fraction of the
/// span, >= 0) widens the range beyond the end ticks, for point markers drawn on them, which
/// the plot area would otherwise cut in half; the ticks stay on the nice multiples.
void setNiceRange(QValueAxis* axis, double lo, double hi, int ticks = 5, double margin = 0);

}  // namespace tandem::ui
