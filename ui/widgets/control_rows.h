#pragma once
// Rows shared by the side panels of both workspaces: a counted slider and the pin button.
#include <QString>

class QBoxLayout;
class QPushButton;
class QWidget;

namespace tandem::ui {

class LabeledSlider;

/// One integer slider of a side panel whose value is a count of something ("8 nodes").
struct CountSliderRow {
    QString objectName;  ///< object name (tests and style sheets find the slider by it)
    QString caption;     ///< text above the slider ("Cluster size")
    QString singular;    ///< noun after a count of 1 ("node")
    QString plural;      ///< noun after any other count ("nodes")
    int min = 0;         ///< slider range, inclusive
    int max = 1;
    QString tooltip;     ///< unit and paper reference of the input
};

/// Creates the slider of `row` as a child of `parent`, value label "N noun" in the right number
/// (countLabel), step 1, and appends it to `layout`. The caller connects valueChanged.
LabeledSlider* addCountSlider(QBoxLayout* layout, const CountSliderRow& row, QWidget* parent);

/// The checkable "Pin result to compare" button of a side panel (child of `parent`), with
/// `tooltip` saying what is kept as an overlay; the caller adds it to a layout and connects
/// toggled.
QPushButton* makePinButton(const QString& tooltip, QWidget* parent);

}  // namespace tandem::ui
