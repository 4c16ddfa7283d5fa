#include "ui/widgets/control_rows.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QCoreApplication>
#include <QGroupBox>
#include <QPushButton>

#include "ui/widgets/count_label.h"
#include "ui/widgets/labeled_slider.h"

namespace tandem::ui {

LabeledSlider* addCountSlider(QBoxLayout* layout, const CountSliderRow& row, QWidget* parent) {
    const QString singular = row.singular, plural = row.plural;
    auto* slider = new LabeledSlider(
        row.caption, [singular, plural](int v) { return countLabel(v, singular, plural); }, row.min,
        row.max, 1, row.tooltip, parent);
    slider->setObjectName(row.objectName);
    if (row.logStops) slider->setStops(logCountLadder(row.max));
    layout->addWidget(slider);
    return slider;
}

std::vector<double> logCountLadder(int max) {
    std::vector<double> out;
    for (int v : {1, 2, 3})
        if (v <= max) out.push_back(v);
    for (int p = 4; p <= max; p *= 2)
        for (int v : {p, p + p / 4, p + p / 2})
            if (v <= max) out.push_back(v);
    if (out.empty() || out.back() != max) out.push_back(max);
    return out;
}

QString dayLabel(double days) {
    const QString n = QString::number(days, 'g', 4);
    return days == 1 ? QCoreApplication::translate("tandem::ui::ControlRows", "%1 day").arg(n)
                     : QCoreApplication::translate("tandem::ui::ControlRows", "%1 days").arg(n);
}

QPushButton* makePinButton(QWidget* parent) {
    const auto tr = [](const char* text) {
        return QCoreApplication::translate("tandem::ui::ControlRows", text);
    };
    auto* pin = new QPushButton(tr("Pin for comparison"), parent);
    pin->setObjectName(QStringLiteral("pinButton"));
    pin->setCheckable(true);
    pin->setToolTip(
        tr("View > Pin for comparison (Ctrl+Shift+P): every chart keeps this state as dashed "
           "grey curves and the Plan page shows changes against it; click again to clear"));
    return pin;
}

QCheckBox* addClusterLinkBox(QBoxLayout* layout, const QString& objectName, QWidget* parent) {
    const auto tr = [](const char* text) {
        return QCoreApplication::translate("tandem::ui::ControlRows", text);
    };
    auto* box = new QCheckBox(tr("Same cluster in both workspaces"), parent);
    box->setObjectName(objectName);
    box->setToolTip(tr(
        "Co-running jobs and nodes move together in both workspaces (View > Same cluster in both "
        "workspaces, Ctrl+L): the ML-for-ML foreground job and the MoE job share one cluster."));
    layout->addWidget(box);
    return box;
}

ClusterBox addClusterBox(QWidget* panel, const QString& title, const QString& linkName) {
    ClusterBox c;
    c.panel = new QVBoxLayout(panel);
    c.panel->setContentsMargins(6, 6, 6, 6);
    c.box = new QGroupBox(title, panel);
    c.panel->addWidget(c.box);
    c.rows = new QVBoxLayout(c.box);
    c.link = addClusterLinkBox(c.rows, linkName, c.box);
    return c;
}

}  // namespace tandem::ui
