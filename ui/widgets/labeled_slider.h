#pragma once
// A slider with a caption and a live value label ("Co-running jobs: 8"); linear over an integer
// range, or over a ladder of values (a log scale: 1, 2, 3, 4, 6, 8, ... nodes).
#include <QWidget>
#include <functional>
#include <vector>

class QHBoxLayout;
class QLabel;
class QSlider;
class QSpinBox;

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

    /// Turns a value of the ladder into the value label's text ("2.5 days").
    using NumberText = std::function<QString(double)>;
    /// Makes the slider step over `stops` (ascending, at least two, duplicates dropped) instead of
    /// an integer range: position i is stops[i], the arrow keys move one stop, PageUp/PageDown a
    /// quarter of the ladder (at least one stop). The current value stays, inserted into the
    /// ladder when it is not one of the stops. `text` formats the label (empty: the ValueText of
    /// the rounded value).
    void setStops(std::vector<double> stops, const NumberText& text = {});
    /// The ladder of setStops (with any value inserted by setNumber), empty in range mode.
    const std::vector<double>& stops() const { return m_stops; }
    /// The slider's value: the current stop in ladder mode, the integer position otherwise.
    /// value() is this rounded to the nearest integer.
    double number() const;
    /// Moves the slider to `v` and emits valueChanged when it changed. In ladder mode a `v`
    /// that is not a stop is inserted into the ladder (shown as given, never snapped); in range
    /// mode `v` is rounded and widens the range like setValueSilently.
    void setNumber(double v);
    /// setNumber without emitting valueChanged (used when a scenario is loaded).
    void setNumberSilently(double v);
    /// Formats the value label with `text` from now on (a change of unit: "4 racks (288 GPUs)").
    void setValueText(const ValueText& text);
    /// A note after the value in the label ("24 nodes: no layout fits"); empty removes it.
    void setValueNote(const QString& note);
    /// Adds a number box beside the slider (once; later calls return the same box) so a value
    /// can be typed whole ("64" nodes, "8" jobs) instead of stepped to: it shows the slider's
    /// value, spans the range (the ladder's ends in ladder mode) and, when a typed number is
    /// committed (Enter, focus out, the box's arrows), moves the slider there with setNumber (a
    /// number between two stops is inserted into the ladder, never snapped). `suffix` follows
    /// the number (" nodes"). Returns the box.
    QSpinBox* addNumberBox(const QString& suffix);
    /// The box of addNumberBox, nullptr without one.
    QSpinBox* numberBox() const { return m_box; }

signals:
    void valueChanged(int value);

private:
    void updateLabel();
    void updateBoxRange();     ///< the box spans the slider's range (or ladder) and the value
    int positionOf(double v);  ///< ladder position of v, inserting it when it is not a stop
    QLabel* m_value;
    QSlider* m_slider;
    ValueText m_valueText;
    QString m_tooltip;
    int m_min = 0,
        m_max = 0;  ///< the range given (the slider's may be wider, see setValueSilently)
    std::vector<double> m_stops;  ///< ladder mode: the value of each position; empty: range mode
    NumberText m_numberText;
    QString m_note;
    QHBoxLayout* m_row;  ///< the slider and, after addNumberBox, its number box
    QSpinBox* m_box = nullptr;
    QString m_caption;  ///< the caption; the number box's name in its messages
};

}  // namespace tandem::ui
