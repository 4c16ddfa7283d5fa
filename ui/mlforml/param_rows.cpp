#include "mlforml/param_rows.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSignalBlocker>
#include <QVariant>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/number_format.h"
#include "widgets/collapsible_section.h"

namespace tandem::ui {

namespace {
QString keyPath(const mlforml::ParamField& f) {
    return *f.section ? QStringLiteral("%1.%2").arg(QLatin1String(f.section), QLatin1String(f.key))
                      : QString::fromLatin1(f.key);
}
QString number(double v) { return QString::fromStdString(formatNumber(v)); }

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

const mlforml::ParamField& mlForMlField(const QString& path) {
    for (const mlforml::ParamField& f : mlforml::paramFields())
        if (keyPath(f) == path) return f;
    throw std::invalid_argument("no ml_for_ml key \"" + path.toStdString() +
                                "\" in the field table");
}

AcceptedRange acceptedRange(const mlforml::ParamField& f) {
    AcceptedRange r{f.range.min, f.range.max, f.range.minExclusive, f.range.maxExclusive};
    if (f.atLeast.why && !f.atLeast.unlessZero && f.atLeast.limit >= r.lo) {
        // requireAtLeast accepts the limit itself.
        r.loOpen = f.atLeast.limit == r.lo && r.loOpen;
        r.lo = f.atLeast.limit;
    }
    if (f.atMost.why && f.atMost.limit <= r.hi) {
        r.hiOpen = f.atMost.limit == r.hi && r.hiOpen;
        r.hi = f.atMost.limit;
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

QString paramRowTooltip(const ParamRowSpec& spec) {
    const mlforml::ParamField& f = mlForMlField(spec.key);
    const AcceptedRange r = acceptedRange(f);
    const QString range = QStringLiteral("%1%2, %3%4")
                              .arg(r.loOpen ? QLatin1Char('(') : QLatin1Char('['))
                              .arg(number(r.lo), number(r.hi))
                              .arg(r.hiOpen ? QLatin1Char(')') : QLatin1Char(']'));
    const QString unit = *f.unit ? QStringLiteral(" ") + QString::fromUtf8(f.unit) : QString();
    return QObject::tr("%1\nml_for_ml.%2 in %3%4; default: %5.")
        .arg(spec.tooltip, keyPath(f), range, unit, QString::fromUtf8(f.source));
}

QDoubleSpinBox* addParamRow(QFormLayout* form, const ParamRowSpec& spec) {
    const auto [lo, hi] =
        boxRange(acceptedRange(mlForMlField(spec.key)), spec.jsonPerBox, spec.decimals);
    const QString tip = paramRowTooltip(spec);
    QDoubleSpinBox* box =
        addDoubleRow(form, spec.label, lo, hi, spec.decimals, spec.step, spec.suffix, tip);
    box->setProperty("baseToolTip", tip);
    box->setProperty("mlForMlKey", spec.key);
    box->setProperty("jsonPerBox", spec.jsonPerBox);
    capMinimumWidth(box, spec.decimals, spec.suffix);
    return box;
}

QDoubleSpinBox* ParamRows::add(QFormLayout* form, const ParamRowSpec& spec) {
    QDoubleSpinBox* box = addParamRow(form, spec);
    m_rows.push_back({box, &mlForMlField(spec.key), spec.jsonPerBox, box->value()});
    return box;
}

void ParamRows::show(const mlforml::Params& p) {
    for (Row& r : m_rows) {
        const QSignalBlocker block(r.box);
        r.box->setValue(r.field->get(p) / r.field->scale / r.jsonPerBox);
        r.shown = r.box->value();
    }
}

void ParamRows::applyTo(mlforml::Params& p) const {
    for (const Row& r : m_rows)
        if (r.box->value() != r.shown)
            r.field->set(p, r.box->value() * r.jsonPerBox * r.field->scale);
}

QList<QDoubleSpinBox*> ParamRows::boxes() const {
    QList<QDoubleSpinBox*> out;
    for (const Row& r : m_rows) out.append(r.box);
    return out;
}

void setDisabledReason(QWidget* w, const QString& reason) {
    if (!w->property("baseToolTip").isValid()) w->setProperty("baseToolTip", w->toolTip());
    const QString base = w->property("baseToolTip").toString();
    w->setEnabled(reason.isEmpty());
    w->setToolTip(reason.isEmpty() ? base : QObject::tr("Disabled: %1.\n%2").arg(reason, base));
}

}  // namespace tandem::ui
