#include "widgets/control_rows.h"

#include <QBoxLayout>
#include <QCoreApplication>
#include <QPushButton>

#include "widgets/count_label.h"
#include "widgets/labeled_slider.h"

namespace tandem::ui {

LabeledSlider* addCountSlider(QBoxLayout* layout, const CountSliderRow& row, QWidget* parent) {
    const QString singular = row.singular, plural = row.plural;
    auto* slider = new LabeledSlider(
        row.caption, [singular, plural](int v) { return countLabel(v, singular, plural); }, row.min, row.max, 1,
        row.tooltip, parent);
    slider->setObjectName(row.objectName);
    layout->addWidget(slider);
    return slider;
}

QPushButton* makePinButton(const QString& tooltip, QWidget* parent) {
    auto* pin = new QPushButton(QCoreApplication::translate("tandem::ui::ControlRows", "Pin result to compare"), parent);
    pin->setCheckable(true);
    pin->setToolTip(tooltip);
    return pin;
}

}  // namespace tandem::ui
