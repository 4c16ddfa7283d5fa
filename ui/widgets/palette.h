#pragma once
// Colour-blind-safe palette (Okabe & Ito, "Color Universal Design", 2008) with one fixed colour
// per policy and per knob combination, used by every chart; light and dark chart themes.
#include <QColor>
#include <QString>
#include <optional>

#include "mlforml/knobs.h"

class QChart;

namespace tandem::ui {

enum class Theme { Light, Dark };

/// The eight colours of Okabe & Ito's colour-blind-safe set, plus a neutral grey.
enum class OkabeIto { Black, Orange, SkyBlue, Green, Yellow, Blue, Vermillion, Purple, Grey };
/// The colour itself (the one place the RGB values are written).
QColor okabeIto(OkabeIto c);

/// Fixed colour of a policy name ("Static", "Knob-Precision", "Knob-GA", "Decoupled", "Joint",
/// "Oracle"); other names (fixed combinations) hash to one of the remaining Okabe-Ito colours.
QColor policyColor(const QString& policy, Theme theme = Theme::Light);
/// The policy a legend or result label names (mlforml::parsePolicy: "Joint", "GA16-MXFP4" ->
/// Fixed, ...); nullopt for any other text.
std::optional<mlforml::Policy> policyOf(const QString& label);

/// Colour of a knob combination label such as "GA16-MXFP4" (same colour in every chart).
QColor comboColor(const QString& combo);

/// Colour of a measured system ("DGX-H100" blue, "DGX-GB200" vermillion; others hash to the
/// remaining Okabe-Ito colours), the same in every chart.
QColor systemColor(const QString& system);

/// Colour for the two MOSAIC frontiers: compute-optimal (`cluster` false) and cluster-optimal.
QColor frontierColor(bool cluster);

/// Colour of a job on the network view: the foreground (fabric::kForegroundJob, -1) blue,
/// background job j one of five other Okabe-Ito colours (j mod 5; vermillion is left to the
/// link shading), any other value (an idle node) light grey.
QColor jobColor(int job);
/// Background jobs that share one colour of jobColor: j and j + 5, j + 10, ...
constexpr int kJobColours = 5;

/// Shade of a link at mean utilisation `u` (0..1, clamped): from a light grey at 0 (still visible
/// on a light window) to vermillion at 1, a single-hue ramp that reads in grey print and for
/// colour-blind readers.
QColor utilisationColor(double u);

/// Applies the theme to a chart: background, text, grid and legend colours and fonts sized for
/// a 1280x800 window.
void styleChart(QChart* chart, Theme theme);

/// The factor on the chart fonts styleChart() sets (title, legend and caption) and on the
/// annotations views draw: 1 on a desk, kPresentationFontScale in presentation mode (View menu,
/// remembered in QSettings).
double chartFontScale();
void setChartFontScale(double scale);
/// The factor on axis tick labels and titles: half chartFontScale()'s growth (1.25 in
/// presentation mode).
double chartAxisFontScale();
/// The chart font factor of presentation mode (a projector read from the back of a room).
constexpr double kPresentationFontScale = 1.5;

/// The application-wide theme (set from the View menu, remembered in QSettings).
Theme currentTheme();
void setCurrentTheme(Theme theme);

}  // namespace tandem::ui
