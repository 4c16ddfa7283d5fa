#include "ui/widgets/collapsible_section.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/widgets/number_spin_box.h"

namespace tandem::ui {

CollapsibleSection::CollapsibleSection(const QString& title, bool expanded, QWidget* parent)
    : QWidget(parent),
      m_header(new QToolButton(this)),
      m_body(new QWidget(this)),
      m_form(new QFormLayout(m_body)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_header->setText(title);
    m_header->setCheckable(true);
    m_header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_header->setAutoRaise(true);
    m_header->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    QFont f = m_header->font();
    f.setBold(true);
    m_header->setFont(f);
    m_form->setContentsMargins(8, 0, 0, 4);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // A field that does not fit beside its label goes under it, so a section never needs more
    // than the side panel's width (the panel scrolls only down: a wider one was cut).
    m_form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    layout->addWidget(m_header);
    layout->addWidget(m_body);
    connect(m_header, &QToolButton::toggled, this, &CollapsibleSection::setExpanded);
    setExpanded(expanded);
}

bool CollapsibleSection::isExpanded() const { return m_header->isChecked(); }

void CollapsibleSection::setExpanded(bool expanded) {
    if (m_header->isChecked() != expanded) {
        m_header->setChecked(expanded);  // re-enters through toggled()
        return;
    }
    m_header->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_body->setVisible(expanded);
}

CollapsibleSection* fillWithSection(QWidget* owner, const QString& title) {
    auto* section = new CollapsibleSection(title, false, owner);
    auto* layout = new QVBoxLayout(owner);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(section);
    return section;
}

QDoubleSpinBox* addDoubleRow(QFormLayout* form, const QString& label, double min, double max,
                             int decimals, double step, const QString& suffix,
                             const QString& tooltip) {
    auto* box = new NumberSpinBox(form->parentWidget());
    box->setFieldName(label);
    box->setRange(min, max);
    box->setDecimals(decimals);
    box->setSingleStep(step);
    box->setSuffix(suffix);
    box->setKeyboardTracking(false);  // recompute when typing ends, not per keystroke
    box->setToolTip(tooltip);
    form->addRow(label, box);
    if (auto* l = qobject_cast<QLabel*>(form->labelForField(box))) l->setToolTip(tooltip);
    return box;
}

QSpinBox* addIntRow(QFormLayout* form, const QString& label, int min, int max,
                    const QString& suffix, const QString& tooltip) {
    auto* box = new IntSpinBox(form->parentWidget());
    box->setFieldName(label);
    box->setRange(min, max);
    box->setSuffix(suffix);
    box->setKeyboardTracking(false);
    box->setToolTip(tooltip);
    form->addRow(label, box);
    if (auto* l = qobject_cast<QLabel*>(form->labelForField(box))) l->setToolTip(tooltip);
    return box;
}

}  // namespace tandem::ui
