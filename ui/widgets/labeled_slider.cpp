#include "ui/widgets/labeled_slider.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "ui/widgets/number_spin_box.h"

namespace tandem::ui {

LabeledSlider::LabeledSlider(const QString& caption, const QString& format, int min, int max,
                             int step, const QString& tooltip, QWidget* parent)
    : LabeledSlider(
          caption, [format](int v) { return format.arg(v); }, min, max, step, tooltip, parent) {}

LabeledSlider::LabeledSlider(const QString& caption, const ValueText& valueText, int min, int max,
                             int step, const QString& tooltip, QWidget* parent)
    : QWidget(parent),
      m_value(new QLabel(this)),
      m_slider(new QSlider(Qt::Horizontal, this)),
      m_valueText(valueText),
      m_tooltip(tooltip),
      m_caption(caption) {
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
    m_row = new QHBoxLayout;
    m_row->setSpacing(4);
    m_row->addWidget(m_slider, 1);
    layout->addLayout(m_row);
    setToolTip(tooltip);
    connect(m_slider, &QSlider::valueChanged, this, [this]() {
        updateLabel();
        emit valueChanged(value());  // the value, not the position, on a ladder
    });
    updateLabel();
}

int LabeledSlider::value() const {
    return m_stops.empty() ? m_slider->value() : static_cast<int>(std::lround(number()));
}

double LabeledSlider::number() const {
    if (m_stops.empty()) return m_slider->value();
    const int i = std::clamp(m_slider->value(), 0, static_cast<int>(m_stops.size()) - 1);
    return m_stops[static_cast<size_t>(i)];
}

void LabeledSlider::setStops(std::vector<double> stops, const NumberText& text) {
    const double current = number();
    std::sort(stops.begin(), stops.end());
    stops.erase(std::unique(stops.begin(), stops.end()), stops.end());
    m_stops = std::move(stops);
    m_numberText = text;
    const QSignalBlocker block(m_slider);
    const int at = positionOf(current);
    m_slider->setSingleStep(1);
    m_slider->setPageStep(std::max(1, static_cast<int>(m_stops.size()) / 4));
    m_slider->setValue(at);
    updateLabel();
}

int LabeledSlider::positionOf(double v) {
    auto it = std::lower_bound(m_stops.begin(), m_stops.end(), v);
    if (it == m_stops.end() || *it != v) it = m_stops.insert(it, v);
    const int at = static_cast<int>(it - m_stops.begin());
    m_slider->setRange(0, static_cast<int>(m_stops.size()) - 1);
    return at;
}

void LabeledSlider::setNumber(double v) {
    if (m_stops.empty()) {
        const int i = static_cast<int>(std::lround(v));
        if (i < m_min || i > m_max) setValueSilently(i);  // widen first, then move and emit
        m_slider->setValue(i);
        return;
    }
    if (v == number()) return;
    int at = 0;
    {
        const QSignalBlocker block(m_slider);
        at = positionOf(v);
        // An insertion below the current position shifts it; keep the old value's position so
        // the move below is a real change and emits.
        m_slider->setValue(at == 0 ? 1 : 0);
    }
    m_slider->setValue(at);
}

void LabeledSlider::setNumberSilently(double v) {
    if (m_stops.empty()) {
        setValueSilently(static_cast<int>(std::lround(v)));
        return;
    }
    const QSignalBlocker block(m_slider);
    m_slider->setValue(positionOf(v));
    updateLabel();
}

void LabeledSlider::setValueNote(const QString& note) {
    m_note = note;
    updateLabel();
}

void LabeledSlider::setValueSilently(int v) {
    if (!m_stops.empty()) {
        setNumberSilently(v);
        return;
    }
    const QSignalBlocker block(m_slider);
    // A value from a file outside the range widens the range to it (shown, never clamped).
    m_slider->setRange(std::min(m_min, v), std::max(m_max, v));
    m_slider->setValue(v);
    updateLabel();
}

void LabeledSlider::setRange(int min, int max) {
    if (!m_stops.empty()) return;  // a ladder has no integer range
    const QSignalBlocker block(m_slider);
    m_min = min;
    m_max = max;
    const int v = m_slider->value();
    m_slider->setRange(std::min(min, v), std::max(max, v));
    updateLabel();
}

void LabeledSlider::setDisabledReason(const QString& reason) {
    m_slider->setEnabled(reason.isEmpty());
    if (m_box) m_box->setEnabled(reason.isEmpty());
    setToolTip(reason.isEmpty() ? m_tooltip
                                : m_tooltip + QStringLiteral("\n\nDisabled: ") + reason);
}

QString LabeledSlider::valueText() const { return m_value->text(); }

void LabeledSlider::setValueText(const ValueText& text) {
    m_valueText = text;
    updateLabel();
}

void LabeledSlider::updateLabel() {
    const QString text =
        !m_stops.empty() && m_numberText ? m_numberText(number()) : m_valueText(value());
    m_value->setText(m_note.isEmpty() ? text : text + QStringLiteral(": ") + m_note);
    if (m_box) {
        updateBoxRange();
        const QSignalBlocker block(m_box);
        m_box->setValue(value());
    }
}

void LabeledSlider::updateBoxRange() {
    if (!m_box) return;
    const QSignalBlocker block(m_box);
    const int v = value();
    if (m_stops.empty()) {
        m_box->setRange(std::min(m_min, v), std::max(m_max, v));
    } else {
        const int lo = static_cast<int>(std::ceil(std::min(m_stops.front(), double(m_min))));
        const int hi = static_cast<int>(std::floor(std::max(m_stops.back(), double(m_max))));
        m_box->setRange(std::min(lo, v), std::max(hi, v));
    }
}

QSpinBox* LabeledSlider::addNumberBox(const QString& suffix) {
    if (m_box) return m_box;
    auto* box = new IntSpinBox(this);
    box->setFieldName(m_caption);
    m_box = box;
    m_box->setObjectName(objectName().isEmpty() ? QStringLiteral("sliderNumberBox")
                                                : objectName() + QStringLiteral("Box"));
    m_box->setSuffix(suffix);
    m_box->setKeyboardTracking(false);  // "512" is one value, not 5, 51 and 512
    m_box->setAccelerated(true);
    m_box->setToolTip(m_tooltip);
    m_row->addWidget(m_box);
    updateLabel();
    connect(m_box, &QSpinBox::valueChanged, this, [this](int v) {
        if (v != value()) setNumber(v);
    });
    return m_box;
}

}  // namespace tandem::ui
