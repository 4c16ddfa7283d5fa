#include "widgets/labeled_slider.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>

namespace tandem::ui {

LabeledSlider::LabeledSlider(const QString& caption, const QString& format, int min, int max, int step,
                             const QString& tooltip, QWidget* parent)
    : LabeledSlider(caption, [format](int v) { return format.arg(v); }, min, max, step, tooltip, parent) {}

LabeledSlider::LabeledSlider(const QString& caption, const ValueText& valueText, int min, int max, int step,
                             const QString& tooltip, QWidget* parent)
    : QWidget(parent), m_value(new QLabel(this)), m_slider(new QSlider(Qt::Horizontal, this)),
      m_valueText(valueText), m_tooltip(tooltip) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    layout->setSpacing(1);
    auto* top = new QHBoxLayout;
    auto* cap = new QLabel(caption, this);
    top->addWidget(cap);
    top->addStretch();
    m_value->setTextFormat(Qt::PlainText);
    QFont bold = m_value->font();
    bold.setBold(true);
    m_value->setFont(bold);
    top->addWidget(m_value);
    layout->addLayout(top);
    m_min = min;
    m_max = max;
    m_slider->setRange(min, max);
    m_slider->setSingleStep(step);
    m_slider->setPageStep(step);
    m_slider->setTracking(true);
    cap->setBuddy(m_slider);
    layout->addWidget(m_slider);
    setToolTip(tooltip);
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        updateLabel();
        emit valueChanged(v);
    });
    updateLabel();
}

int LabeledSlider::value() const { return m_slider->value(); }

void LabeledSlider::setValueSilently(int v) {
    const QSignalBlocker block(m_slider);
    // A value from a file outside the range widens the range to it (shown, never clamped).
    m_slider->setRange(std::min(m_min, v), std::max(m_max, v));
    m_slider->setValue(v);
    updateLabel();
}

void LabeledSlider::setRange(int min, int max) {
    const QSignalBlocker block(m_slider);
    m_min = min;
    m_max = max;
    const int v = m_slider->value();
    m_slider->setRange(std::min(min, v), std::max(max, v));
    updateLabel();
}

void LabeledSlider::setDisabledReason(const QString& reason) {
    m_slider->setEnabled(reason.isEmpty());
    setToolTip(reason.isEmpty() ? m_tooltip : m_tooltip + QStringLiteral("\n\nDisabled: ") + reason);
}

QString LabeledSlider::valueText() const { return m_value->text(); }

void LabeledSlider::updateLabel() { m_value->setText(m_valueText(m_slider->value())); }

}  // namespace tandem::ui
