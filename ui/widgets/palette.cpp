#include "ui/widgets/palette.h"

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QXYSeries>
#include <algorithm>
#include <functional>

#include "mosaic/reality.h"

namespace tandem::ui {

QColor okabeIto(OkabeIto c) {
    switch (c) {
        case OkabeIto::Black:
            return {0x00, 0x00, 0x00};
        case OkabeIto::Orange:
            return {0xE6, 0x9F, 0x00};
        case OkabeIto::SkyBlue:
            return {0x56, 0xB4, 0xE9};
        case OkabeIto::Green:
            return {0x00, 0x9E, 0x73};
        case OkabeIto::Yellow:
            return {0xF0, 0xE4, 0x42};
        case OkabeIto::Blue:
            return {0x00, 0x72, 0xB2};
        case OkabeIto::Vermillion:
            return {0xD5, 0x5E, 0x00};
        case OkabeIto::Purple:
            return {0xCC, 0x79, 0xA7};
        case OkabeIto::Grey:
            break;
    }
    return {0x99, 0x99, 0x99};
}

namespace {
const QColor kBlack = okabeIto(OkabeIto::Black);
const QColor kOrange = okabeIto(OkabeIto::Orange);
const QColor kSkyBlue = okabeIto(OkabeIto::SkyBlue);
const QColor kGreen = okabeIto(OkabeIto::Green);
const QColor kYellow = okabeIto(OkabeIto::Yellow);
const QColor kBlue = okabeIto(OkabeIto::Blue);
const QColor kVermillion = okabeIto(OkabeIto::Vermillion);
const QColor kPurple = okabeIto(OkabeIto::Purple);
const QColor kGrey = okabeIto(OkabeIto::Grey);

Theme g_theme = Theme::Light;
}  // namespace

std::optional<mlforml::Policy> policyOf(const QString& label) {
    mlforml::PolicySpec spec;
    if (!mlforml::parsePolicy(label.toStdString(), spec)) return std::nullopt;
    return spec.policy;
}

QColor policyColor(const QString& policy, Theme theme) {
    switch (policyOf(policy).value_or(mlforml::Policy::Fixed)) {
        case mlforml::Policy::Static:
            return theme == Theme::Dark ? QColor(0xDD, 0xDD, 0xDD) : kBlack;
        case mlforml::Policy::KnobPrecision:
            return kOrange;
        case mlforml::Policy::KnobGa:
            return kSkyBlue;
        case mlforml::Policy::Decoupled:
            return kVermillion;
        case mlforml::Policy::Joint:
            return kBlue;
        case mlforml::Policy::Oracle:
            return kGreen;
        case mlforml::Policy::Fixed:
            break;
    }
    const QColor others[] = {kPurple, kYellow, kGrey};
    return others[std::hash<std::string>()(policy.toStdString()) % 3];
}

QColor comboColor(const QString& combo) {
    // The paper's four combinations [2608.06046 Sec. 2.4]: GA4/GA16 x BF16/MXFP4.
    mlforml::Combo c;
    if (mlforml::parseComboLabel(combo.toStdString(), c) && (c.g == 4 || c.g == 16)) {
        if (c.p == mlforml::Precision::Bf16) return c.g == 4 ? kSkyBlue : kOrange;
        if (c.p == mlforml::Precision::Mxfp4) return c.g == 4 ? kBlue : kVermillion;
    }
    const QColor others[] = {kGreen, kPurple, kYellow, kGrey};
    return others[std::hash<std::string>()(combo.toStdString()) % 4];
}

QColor systemColor(const QString& system) {
    // The measured systems in the core's table order, then a colour picked by name.
    const QColor measured[] = {kBlue, kVermillion};
    const int i = mosaic::measuredSystemIndex(system.toStdString());
    if (i >= 0 && i < 2) return measured[i];
    const QColor others[] = {kGreen, kOrange, kPurple, kSkyBlue};
    return others[std::hash<std::string>()(system.toStdString()) % 4];
}

QColor frontierColor(bool cluster) { return cluster ? kBlue : kVermillion; }

QColor jobColor(int job) {
    if (job == -1) return kBlue;
    const QColor background[kJobColours] = {kOrange, kGreen, kPurple, kSkyBlue, kYellow};
    if (job >= 0) return background[job % kJobColours];
    return kGrey.lighter(140);
}

QColor utilisationColor(double u) {
    const double t = std::clamp(u, 0.0, 1.0);
    const QColor low = kGrey.lighter(125);  // an idle link still shows
    auto mix = [t](int a, int b) { return static_cast<int>(a + (b - a) * t + 0.5); };
    return QColor(mix(low.red(), kVermillion.red()), mix(low.green(), kVermillion.green()),
                  mix(low.blue(), kVermillion.blue()));
}

void styleChart(QChart* chart, Theme theme) {
    // Views restyle after every rebuild: each setter runs only when its value changes, since
    // most of them re-lay out the chart and QtCharts measures every label again.
    const bool dark = theme == Theme::Dark;
    const QColor bg = dark ? QColor(0x26, 0x28, 0x2b) : QColor(Qt::white);
    const QColor fg = dark ? QColor(0xE8, 0xE8, 0xE8) : QColor(0x20, 0x20, 0x20);
    const QColor grid = dark ? QColor(0x48, 0x4b, 0x50) : QColor(0xDD, 0xDD, 0xDD);
    if (chart->backgroundBrush() != QBrush(bg)) chart->setBackgroundBrush(bg);
    if (chart->backgroundRoundness() != 0) chart->setBackgroundRoundness(0);
    if (chart->titleBrush() != QBrush(fg)) chart->setTitleBrush(fg);
    QFont title = chart->titleFont();
    const double scale = chartFontScale();
    // Axes grow less: a chart with axes left and right has no room for wider tick labels (Qt
    // Charts elides them once the vertical axes take 40 % of its width).
    const double axisScale = chartAxisFontScale();
    title.setPointSizeF(11 * scale);
    title.setBold(true);
    if (chart->titleFont() != title) chart->setTitleFont(title);
    // The margins are set once: ChartView adds the legend's room under the plot to them.
    if (!chart->property("tandemStyled").toBool()) {
        chart->setMargins(QMargins(4, 4, 4, 4));
        chart->setProperty("tandemStyled", true);
    }
    if (chart->legend()->labelColor() != fg) chart->legend()->setLabelColor(fg);
    // Lines show as a line segment and scatter series as their dot; bars and areas keep a filled
    // square (Qt 6.4 draws their series-shaped markers empty). Views call this after adding series.
    if (chart->legend()->markerShape() != QLegend::MarkerShapeFromSeries)
        chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    const auto markers = chart->legend()->markers();
    for (QLegendMarker* m : markers)
        if (!qobject_cast<QXYSeries*>(m->series()) && m->shape() != QLegend::MarkerShapeRectangle)
            m->setShape(QLegend::MarkerShapeRectangle);
    QFont lf = chart->legend()->font();
    lf.setPointSizeF(9 * scale);
    if (chart->legend()->font() != lf) chart->legend()->setFont(lf);
    const auto axes = chart->axes();
    for (QAbstractAxis* axis : axes) {
        if (axis->labelsColor() != fg) axis->setLabelsColor(fg);
        if (axis->titleBrush() != QBrush(fg)) axis->setTitleBrush(fg);
        if (axis->gridLineColor() != grid) axis->setGridLineColor(grid);
        const QColor minor = grid.lighter(dark ? 80 : 110);
        if (axis->minorGridLineColor() != minor) axis->setMinorGridLineColor(minor);
        if (axis->linePenColor() != fg) axis->setLinePenColor(fg);
        QFont af = axis->labelsFont();
        af.setPointSizeF(9 * axisScale);
        if (axis->labelsFont() != af) axis->setLabelsFont(af);
        QFont tf = axis->titleFont();
        tf.setPointSizeF(9.5 * axisScale);
        tf.setBold(false);
        if (axis->titleFont() != tf) axis->setTitleFont(tf);
    }
}

Theme currentTheme() { return g_theme; }

namespace {
double g_fontScale = 1.0;
}  // namespace

double chartFontScale() { return g_fontScale; }
double chartAxisFontScale() { return 1 + 0.5 * (g_fontScale - 1); }
void setChartFontScale(double scale) { g_fontScale = scale; }
void setCurrentTheme(Theme theme) { g_theme = theme; }

}  // namespace tandem::ui
