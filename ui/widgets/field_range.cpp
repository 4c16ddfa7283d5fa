#include "ui/widgets/field_range.h"

#include <QDoubleSpinBox>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/number_format.h"
#include "ui/widgets/collapsible_section.h"

namespace tandem::ui {

AcceptedRange acceptedRange(const Range& range, const FieldBound& atLeast,
                            const FieldBound& atMost) {
    AcceptedRange r{range.min, range.max, range.minExclusive, range.maxExclusive};
    if (atLeast.why && !atLeast.unlessZero && atLeast.limit >= r.lo) {
        // requireAtLeast accepts the limit itself.
        r.loOpen = atLeast.limit == r.lo && r.loOpen;
        r.lo = atLeast.limit;
    }
    if (atMost.why && atMost.limit <= r.hi) {
        r.hiOpen = atMost.limit == r.hi && r.hiOpen;
        r.hi = atMost.limit;
    }
    return r;
}

std::pair<double, double> boxRange(const AcceptedRange& r, double jsonPerBox, int decimals) {
    const double scale = std::pow(10.0, decimals);  // box units -> steps of the box's resolution
    const double lo = r.lo / jsonPerBox * scale, hi = r.hi / jsonPerBox * scale;
    if (!std::isfinite(lo) || !std::isfinite(hi))
        throw std::invalid_argument("a spin box needs a finite range; got " + formatNumber(r.lo) +
                                    " .. " + formatNumber(r.hi));
    // An end within rounding noise of a step (1e-3 / 1e-3 = 1.0000000000000002) is that step.
    const auto near = [](double v, double step) {
        return std::abs(v - step) <= 1e-12 * std::max(1.0, std::abs(v));
    };
    double a = near(lo, std::round(lo)) ? std::round(lo) : std::ceil(lo);
    double b = near(hi, std::round(hi)) ? std::round(hi) : std::floor(hi);
    if (r.loOpen && near(lo, a)) a += 1;
    if (r.hiOpen && near(hi, b)) b -= 1;
    return {a / scale, b / scale};
}

QString keyTooltip(const QString& tooltip, const QString& path, const AcceptedRange& r,
                   const char* unit, const char* source) {
    const auto number = [](double v) { return QString::fromStdString(formatNumber(v)); };
    const QString range = QStringLiteral("%1%2, %3%4")
                              .arg(r.loOpen ? QLatin1Char('(') : QLatin1Char('['))
                              .arg(number(r.lo), number(r.hi))
                              .arg(r.hiOpen ? QLatin1Char(')') : QLatin1Char(']'));
    const QString u = *unit ? QStringLiteral(" ") + QString::fromUtf8(unit) : QString();
    return QObject::tr("%1\n%2 in %3%4; default: %5.")
        .arg(tooltip, path, range, u, QString::fromUtf8(source));
}

QString wordTooltip(const QString& tooltip, const QString& path,
                    const std::vector<std::string>& words, const char* source) {
    QString list;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i > 0) list += i + 1 == words.size() ? QObject::tr(" or ") : QStringLiteral(", ");
        list += QString::fromStdString(words[i]);
    }
    return QObject::tr("%1\n%2: one of %3; default: %4.")
        .arg(tooltip, path, list, QString::fromUtf8(source));
}

namespace {
/// Ranges up to 1e9 or 2^53 would widen a box to their digits and the side panel past its
/// column: the box asks for the room of six integer digits (its decimals and suffix included) at
/// most; a longer value scrolls inside it.
void capMinimumWidth(QDoubleSpinBox* box, int decimals, const QString& suffix) {
    QDoubleSpinBox probe;
    probe.setFont(box->font());
    probe.setDecimals(decimals);
    probe.setRange(0, 999999);
    probe.setSuffix(suffix);
    box->setMinimumWidth(std::min(box->minimumSizeHint().width(), probe.minimumSizeHint().width()));
}
}  // namespace

QDoubleSpinBox* addKeyRow(QFormLayout* form, const KeyRowSpec& spec,
                          std::pair<double, double> range, const QString& tip,
                          const char* keyProperty) {
    QDoubleSpinBox* box = addDoubleRow(form, spec.label, range.first, range.second, spec.decimals,
                                       spec.step, spec.suffix, tip);
    box->setProperty("baseToolTip", tip);
    box->setProperty(keyProperty, spec.key);
    box->setProperty("jsonPerBox", spec.jsonPerBox);
    capMinimumWidth(box, spec.decimals, spec.suffix);
    return box;
}

}  // namespace tandem::ui
