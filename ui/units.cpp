#include "units.h"

#include <QObject>

#include <cmath>

namespace tandem::ui {

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
