#pragma once
// Rows shared by the side panels of both workspaces: a counted slider and the pin button.
#include <QString>
#include <vector>

class QBoxLayout;
class QCheckBox;
class QGroupBox;
class QPushButton;
class QVBoxLayout;
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
    QString tooltip;        ///< unit and paper reference of the input
    bool logStops = false;  ///< stops on logCountLadder(max) (counts that span decades)
};

/// Creates the slider of `row` as a child of `parent`, value label "N noun" in the right number
/// (countLabel), step 1 (or the log ladder's stops with row.logStops), and appends it to
/// `layout`. The caller connects valueChanged.
LabeledSlider* addCountSlider(QBoxLayout* layout, const CountSliderRow& row, QWidget* parent);

/// A log-scale ladder of counts from 1 to `max` (inclusive, `max` >= 1): 1, 2, 3, then three
/// stops per doubling (2^k, 1.25 2^k, 1.5 2^k: 4, 5, 6, 8, 10, 12, 16, 20, 24, ...), and `max`
/// itself. For sliders over quantities that span decades (nodes), so each doubling gets the same
/// slider length.
std::vector<double> logCountLadder(int max);

/// `days` as the value label of a day slider: "1 day", "2.5 days", "20 days" (up to 4
/// significant digits, never rounded to whole days).
QString dayLabel(double days);

/// The checkable "Pin for comparison" button of a side panel (child of `parent`): the main
/// window connects it to its View > Pin for comparison action (one pin for the whole window,
/// the button checked while a comparison is pinned); the caller adds it to a layout.
QPushButton* makePinButton(QWidget* parent);

/// The "Same cluster in both workspaces" box of a side panel (child of `parent`, named
/// `objectName`), added to `layout`; the main window's ClusterLink connects it.
QCheckBox* addClusterLinkBox(QBoxLayout* layout, const QString& objectName, QWidget* parent);

/// The cluster box a side panel starts with.
struct ClusterBox {
    QVBoxLayout* panel = nullptr;  ///< the side panel's column (the caller adds more boxes)
    QGroupBox* box = nullptr;      ///< the group box, first in `panel`
    QVBoxLayout* rows = nullptr;   ///< the box's column, for the panel's cluster rows
    QCheckBox* link = nullptr;     ///< its "Same cluster in both workspaces" box, first row
};

/// Lays out `panel` as a side panel (a column with margins of 6 px) and adds its first box,
/// titled `title`, holding the cluster-link box (addClusterLinkBox, named `linkName`); the
/// caller adds the cluster rows (addCountSlider) to `rows`. Widgets are children of `panel`.
ClusterBox addClusterBox(QWidget* panel, const QString& title, const QString& linkName);

}  // namespace tandem::ui
