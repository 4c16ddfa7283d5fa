#pragma once
// What a scenario reader accepts for one key, as a spin box shows it: the accepted interval,
// the box range rounded to the box's resolution, and the tooltip line naming the key. Shared by
// the side panels' rows built from the core field tables (mlforml::paramFields(),
// mosaic::envelopeFields(), fabric::backgroundJobFields()).
#include <QString>
#include <string>
#include <utility>
#include <vector>

#include "common/json_reader.h"

class QDoubleSpinBox;
class QFormLayout;

namespace tandem::ui {

/// The values a reader accepts for a numeric key, in its JSON unit.
struct AcceptedRange {
    double lo = 0, hi = 0;
    bool loOpen = false, hiOpen = false;  ///< the end itself is not accepted
};

/// `range` narrowed by the `atLeast` / `atMost` bounds (tandem::checkField checks).
/// An atLeast bound that allows 0 (unlessZero) leaves the Range's low end (0 stays accepted).
AcceptedRange acceptedRange(const Range& range, const FieldBound& atLeast = {},
                            const FieldBound& atMost = {});

/// The range of a box that shows `r` with `decimals` decimals in units of `jsonPerBox` JSON units
/// (box value = JSON value / jsonPerBox): each end converted and rounded inward to the box's
/// resolution 10^-decimals, an open end one resolution step further in. E.g. (0, 1] with 2
/// decimals -> [0.01, 1]; [1, 1e13] values in millions with 0 decimals -> [1, 1e7]. Throws
/// std::invalid_argument for an infinite end.
std::pair<double, double> boxRange(const AcceptedRange& r, double jsonPerBox, int decimals);

/// "`tooltip`\nPATH in RANGE UNIT; default: SOURCE." with RANGE in interval notation ("(0, 1]",
/// "[0, inf)"), JSON units; `unit` "" leaves the unit out.
QString keyTooltip(const QString& tooltip, const QString& path, const AcceptedRange& r,
                   const char* unit, const char* source);

/// "`tooltip`\nPATH: one of WORD1, WORD2 or WORD3; default: SOURCE." for a key whose value is
/// one word of `words` (a preset or an enum's names), in the reader's order.
QString wordTooltip(const QString& tooltip, const QString& path,
                    const std::vector<std::string>& words, const char* source);

/// One spin box of a side panel that edits a scenario key.
struct KeyRowSpec {
    QString key;            ///< key path inside its section (see the panel's field lookup)
    QString label;          ///< row label
    QString suffix;         ///< unit shown after the value (" GB", " ms"); empty for a count
    QString tooltip;        ///< what the input does, with its paper reference
    int decimals = 0;       ///< decimals shown (QDoubleSpinBox rows)
    double step = 1;        ///< arrow-key step, box units
    double jsonPerBox = 1;  ///< JSON units per box unit (1e6: the box shows millions)
};

/// A QDoubleSpinBox row for `spec` added to `form`: `range` (box units), decimals, step and
/// suffix of `spec`, keyboard tracking off, tooltip `tip` (also stored as the box's
/// "baseToolTip" property for setDisabledReason). The box carries spec.key as the property
/// `keyProperty` (QString) and its scale as "jsonPerBox" (double). Its minimum width is at most
/// that of six integer digits, so a long range does not widen the side panel.
QDoubleSpinBox* addKeyRow(QFormLayout* form, const KeyRowSpec& spec,
                          std::pair<double, double> range, const QString& tip,
                          const char* keyProperty);

}  // namespace tandem::ui
