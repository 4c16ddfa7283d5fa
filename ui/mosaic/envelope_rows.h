#pragma once
// Controls of the MoE workspace's side panel that edit a `mosaic` key, built from the envelope
// field table (mosaic::envelopeFields()): a box's range is what the scenario reader accepts for
// its key, and a control's tooltip names the key, that range and where its default comes from.
#include <QString>
#include <utility>

#include "mosaic/envelope.h"
#include "ui/widgets/field_range.h"

class QSpinBox;

namespace tandem::ui {

/// `tooltip`, then "mosaic.PATH in RANGE UNIT; default: SOURCE." from the row of mosaic key
/// `path` (mosaic::envelopeField: "days", "scaling_law.eta"). Throws std::invalid_argument for a
/// key the table does not have.
QString envelopeTooltip(const QString& path, const QString& tooltip);

/// The range of the box of `spec` (spec.key: a mosaic key path, see mosaic::envelopeField):
/// boxRange of the key's accepted range, an infinite upper end replaced by `unboundedMax` (box
/// units; for a key the reader accepts without an upper bound, such as compute_budget_flops).
std::pair<double, double> envelopeBoxRange(const KeyRowSpec& spec, double unboundedMax = 0);

/// A QDoubleSpinBox row for `spec` added to `form` (addKeyRow): range
/// envelopeBoxRange(spec, unboundedMax), tooltip envelopeTooltip; the box carries its key as the
/// property "mosaicKey".
QDoubleSpinBox* addEnvelopeRow(QFormLayout* form, const KeyRowSpec& spec, double unboundedMax = 0);

/// `tooltip`, then "mosaic.background.KEY in RANGE UNIT; default: SOURCE." from the row of
/// `key` in mosaic::backgroundFields() (an Integer or Number key: "jobs"). Throws
/// std::invalid_argument for a key the table does not have.
QString backgroundTooltip(const char* key, const QString& tooltip);

/// Sets `box`'s range and tooltip from background-job key `key`
/// (fabric::backgroundJobFields(), read at mosaic.background.job.KEY): an integer key in the
/// box's unit; the box carries the key as the property "backgroundJobKey". Throws
/// std::invalid_argument for a key the table does not have.
void setBackgroundJobBox(QSpinBox* box, const char* key, const QString& tooltip);

}  // namespace tandem::ui
