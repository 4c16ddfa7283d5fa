#pragma once
// An integer slider with a caption and a live value label ("Co-running jobs: 8").
#include <QWidget>

#include <functional>

class QLabel;
class QSlider;

namespace tandem::ui {

/// Caption + value label above a horizontal QSlider. The value label text is
/// `valueText(value)` (or `format.arg(value)`); the tooltip (with the paper reference) covers the
/// whole widget.
class LabeledSlider : public QWidget {
    Q_OBJECT
public:
    /// Turns the slider's value into the text of the value label ("1 node", "8 nodes").
    using ValueText = std::function<QString(int)>;
    LabeledSlider(const QString& caption, const ValueText& valueText, int min, int max, int step,
                  const QString& tooltip, QWidget* parent = nullptr);
    /// The value label reads `format.arg(value)` ("%1 %").
    LabeledSlider(const QString& caption, const QString& format, int min, int max, int step,
                  const QString& tooltip, QWidget* parent = nullptr);
    int value() const;
    /// The value label's current text (tests).
    QString valueText() const;
    /// Sets the value without emitting valueChanged (used when a scenario is loaded). A value
    /// outside the slider's range widens the range to include it, so the label and value() show
    /// the true value (never a clamped one).
    void setValueSilently(int v);
    /// The slider's own range; widened while the current value lies outside it.
    void setRange(int min, int max);
    QSlider* slider() const { return m_slider; }
    /// Disables the slider and shows `reason` in the tooltip; an empty reason re-enables it.
    void setDisabledReason(const QString& reason);

signals:
    void valueChanged(int value);

private:
    void updateLabel();
    QLabel* m_value;
    QSlider* m_slider;
    ValueText m_valueText;
    QString m_tooltip;
    int m_min = 0, m_max = 0;  ///< the range given (the slider's may be wider, see setValueSilently)
};

}  // namespace tandem::ui
