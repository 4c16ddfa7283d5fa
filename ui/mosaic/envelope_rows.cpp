#include "ui/mosaic/envelope_rows.h"

#include <QSpinBox>
#include <QVariant>
#include <cmath>

#include "fabric/background_job.h"
#include "mosaic/background.h"

namespace tandem::ui {

QString envelopeTooltip(const QString& path, const QString& tooltip) {
    const mosaic::EnvelopeField& f = mosaic::envelopeField(path.toStdString());
    return keyTooltip(tooltip, QStringLiteral("mosaic.") + path, acceptedRange(f.range), f.unit,
                      f.source);
}

std::pair<double, double> envelopeBoxRange(const KeyRowSpec& spec, double unboundedMax) {
    AcceptedRange r = acceptedRange(mosaic::envelopeField(spec.key.toStdString()).range);
    if (std::isinf(r.hi)) {
        r.hi = unboundedMax * spec.jsonPerBox;
        r.hiOpen = false;
    }
    return boxRange(r, spec.jsonPerBox, spec.decimals);
}

QDoubleSpinBox* addEnvelopeRow(QFormLayout* form, const KeyRowSpec& spec, double unboundedMax) {
    return addKeyRow(form, spec, envelopeBoxRange(spec, unboundedMax),
                     envelopeTooltip(spec.key, spec.tooltip), "mosaicKey");
}

QString backgroundTooltip(const char* key, const QString& tooltip) {
    const mosaic::BackgroundField& f = field(mosaic::backgroundFields(), key, "mosaic.background");
    return keyTooltip(tooltip, QStringLiteral("mosaic.background.") + QLatin1String(key),
                      acceptedRange(f.range), f.unit, f.source);
}

void setBackgroundJobBox(QSpinBox* box, const char* key, const QString& tooltip) {
    const fabric::BackgroundJobField& f =
        field(fabric::backgroundJobFields(), key, "mosaic.background.job");
    const AcceptedRange r = acceptedRange(f.range, f.atLeast, f.atMost);
    const auto [lo, hi] = boxRange(r, 1, 0);
    box->setRange(int(lo), int(hi));
    box->setToolTip(keyTooltip(tooltip,
                               QStringLiteral("mosaic.background.job.") + QLatin1String(key), r,
                               f.unit, f.source));
    box->setProperty("backgroundJobKey", QLatin1String(key));
}

}  // namespace tandem::ui
