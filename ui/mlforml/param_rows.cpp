#include "ui/mlforml/param_rows.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSignalBlocker>
#include <QVariant>

#include "ui/widgets/collapsible_section.h"

namespace tandem::ui {

const mlforml::ParamField& mlForMlField(const QString& path) {
    return field(mlforml::paramFields(), path.toStdString(), "ml_for_ml");
}

AcceptedRange acceptedRange(const mlforml::ParamField& f) {
    return acceptedRange(f.range, f.atLeast, f.atMost);
}

QString paramRowTooltip(const ParamRowSpec& spec) {
    const mlforml::ParamField& f = mlForMlField(spec.key);
    return keyTooltip(spec.tooltip,
                      QStringLiteral("ml_for_ml.") + QString::fromStdString(fieldPath(f)),
                      acceptedRange(f), f.unit, f.source);
}

QDoubleSpinBox* addParamRow(QFormLayout* form, const ParamRowSpec& spec) {
    return addKeyRow(
        form, spec, boxRange(acceptedRange(mlForMlField(spec.key)), spec.jsonPerBox, spec.decimals),
        paramRowTooltip(spec), "mlForMlKey");
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
