#include "ui/widgets/units.h"

#include <QObject>
#include <cmath>

namespace tandem::ui {

QString unbroken(const QString& text) {
    QString out = text;
    out.replace(QLatin1Char(' '), QChar::Nbsp);
    out.replace(QLatin1Char('-'), QChar(0x2011));
    return out;
}

QString noWidow(const QString& text) {
    QString out = text;
    const int last = out.lastIndexOf(QLatin1Char(' '));
    if (last > 0) out[last] = QChar::Nbsp;
    return out;
}

QString plainSpaces(const QString& text) {
    QString out = text;
    out.replace(QChar::Nbsp, QLatin1Char(' '));
    out.replace(QChar(0x2011), QLatin1Char('-'));
    return out;
}

TimeUnit chooseTimeUnit(double maxSeconds) {
    if (!(maxSeconds >= 120)) return {1.0, QObject::tr("s"), QObject::tr("s")};
    if (maxSeconds < 7200) return {60.0, QObject::tr("minutes"), QObject::tr("min")};
    return {3600.0, QObject::tr("hours"), QObject::tr("h")};
}

QString formatDuration(double seconds) {
    if (!std::isfinite(seconds)) return QObject::tr("not reached");
    const TimeUnit u = chooseTimeUnit(seconds);
    const double v = seconds / u.divisor;
    return QStringLiteral("%1 %2").arg(QString::number(v, 'f', v < 10 ? 2 : 1), u.shortName);
}

QString formatRatio(double ratio) {
    if (!std::isfinite(ratio)) return QObject::tr("n/a");
    return QStringLiteral("x%1").arg(QString::number(ratio, 'f', 2));
}

}  // namespace tandem::ui

#include <QValueAxis>

namespace tandem::ui {

double niceStep(double span, int ticks) {
    if (!(span > 0) || ticks < 1) return 1.0;
    const double raw = span / ticks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (raw <= m * mag * 1.0000001) return m * mag;
    return 10 * mag;
}

int niceDecimals(double step) {
    const double exponent = std::floor(std::log10(step) + 1e-9);
    const double mantissa = step / std::pow(10.0, exponent);
    return std::max(0, static_cast<int>(-exponent) + (std::abs(mantissa - 2.5) < 1e-6 ? 1 : 0));
}

void setNiceRange(QValueAxis* axis, double lo, double hi, int ticks, double margin) {
    if (!(hi > lo)) hi = lo + 1;
    const double step = niceStep(hi - lo, ticks);
    const double a = std::floor(lo / step + 1e-9) * step;
    const double b = std::ceil(hi / step - 1e-9) * step;
    const int decimals = niceDecimals(step);
    const QString format = QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f");
    // These ticks are the view's own: ChartView::fitAxis, which may have thinned an earlier
    // tick count of this axis, must not later restore that count over them.
    if (axis->property(kThinnedTicksProperty).isValid())
        axis->setProperty(kThinnedTicksProperty, QVariant());
    // Each change makes QtCharts lay the axis labels out again (a text document per label):
    // set only what differs from what the axis has.
    if (axis->tickType() != QValueAxis::TicksDynamic) axis->setTickType(QValueAxis::TicksDynamic);
    if (axis->tickAnchor() != 0.0) axis->setTickAnchor(0.0);
    if (axis->tickInterval() != step) axis->setTickInterval(step);
    // Both end labels despite rounding, and the margin outside them.
    const double pad = step * 1e-6 + std::max(0.0, margin) * (b - a);
    // An axis from 0 starts at 0 exactly: below it, QtCharts' first tick can come out as a tiny
    // negative value, labelled "-0".
    const double min = a == 0 ? 0.0 : a - pad, max = b + pad;
    if (axis->min() != min || axis->max() != max) axis->setRange(min, max);
    if (axis->labelFormat() != format) axis->setLabelFormat(format);
}

}  // namespace tandem::ui
