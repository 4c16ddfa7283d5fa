#pragma once
// An integer slider with a caption and a live value label ("Co-running jobs: 8").
#include <QWidget>

class QLabel;
class QSlider;

namespace tandem::ui {

/// Caption + value label above a horizontal QSlider. The value label text is
/// `format.arg(value)`; the tooltip (with the paper reference) covers the whole widget.
class LabeledSlider : public QWidget {
    Q_OBJECT
public:
    LabeledSlider(const QString& caption, const QString& format, int min, int max, int step,
                  const QString& tooltip, QWidget* parent = nullptr);
    int value() const;
    /// Sets the value without emitting valueChanged (used when a scenario is loaded).
    void setValueSilently(int v);
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
    QString m_format;
    QString m_tooltip;
};

}  // namespace tandem::ui
