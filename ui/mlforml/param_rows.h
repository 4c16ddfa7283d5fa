#pragma once
// Spin-box rows of the network workspace's side panel built from the ml_for_ml field table
// (mlforml::paramFields()): a row's range is what the scenario reader accepts for its key, and
// its tooltip names the key, that range and where the key's default comes from.
#include <QList>
#include <QString>
#include <utility>
#include <vector>

#include "mlforml/params.h"
#include "ui/widgets/field_range.h"

class QDoubleSpinBox;
class QFormLayout;
class QWidget;

namespace tandem::ui {

/// The table row of ml_for_ml key `path`: a top-level key ("foreground_nodes") or section and key
/// joined by a dot ("background_job.nodes", "progress.kappa_mxfp4"). Throws std::invalid_argument
/// naming `path` when the table has no such key (a wrong key in the GUI's code).
const mlforml::ParamField& mlForMlField(const QString& path);

/// The values the scenario reader accepts for numeric field `f`, in its JSON unit: its Range
/// narrowed by its atLeast / atMost bounds (see widgets/field_range.h).
AcceptedRange acceptedRange(const mlforml::ParamField& f);

/// One spin box of the side panel that edits an ml_for_ml key (KeyRowSpec: `key` is the
/// ml_for_ml key path, see mlForMlField).
using ParamRowSpec = KeyRowSpec;

/// The tooltip of `spec`'s row: spec.tooltip, then a line "ml_for_ml.KEY in RANGE UNIT; default:
/// SOURCE." from the table (RANGE in interval notation, JSON units).
QString paramRowTooltip(const ParamRowSpec& spec);

/// A QDoubleSpinBox row for `spec` added to `form`: range boxRange(acceptedRange(field)),
/// decimals, step and suffix of `spec`, keyboard tracking off, tooltip paramRowTooltip (also
/// stored as the box's "baseToolTip" property for setDisabledReason). The box carries its key and
/// scale as the properties "mlForMlKey" (QString) and "jsonPerBox" (double). Its minimum width is
/// at most that of six integer digits, so a long range does not widen the side panel. Throws
/// std::invalid_argument for an integer key with decimals.
QDoubleSpinBox* addParamRow(QFormLayout* form, const ParamRowSpec& spec);

/// The rows of one side panel (addParamRow), shown from and written to Params through the field
/// table's get/set and scale, so each key has one conversion between Params (SI) and its box.
class ParamRows {
public:
    /// Adds the row of `spec` to `form` and to this set; the caller connects valueChanged.
    QDoubleSpinBox* add(QFormLayout* form, const ParamRowSpec& spec);
    /// Shows `p` in every row (no signals) and remembers what each box shows.
    void show(const mlforml::Params& p);
    /// Writes every row whose box was changed since show() into `p`; a row left alone keeps p's
    /// value, so a value with more digits than its box shows (or beyond its range) survives.
    void applyTo(mlforml::Params& p) const;
    /// The boxes in the order they were added.
    QList<QDoubleSpinBox*> boxes() const;

private:
    struct Row {
        QDoubleSpinBox* box;
        const mlforml::ParamField* field;
        double jsonPerBox;
        double shown;  ///< the box's value after the last show()
    };
    std::vector<Row> m_rows;
};

/// Enables `w` when `reason` is empty, else disables it; its tooltip is then "Disabled:
/// REASON.\nBASE", BASE being its "baseToolTip" property (its tooltip when the property is unset,
/// which then becomes the property).
void setDisabledReason(QWidget* w, const QString& reason);

}  // namespace tandem::ui
