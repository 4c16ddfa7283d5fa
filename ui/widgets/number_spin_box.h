#pragma once
// The number boxes of the application: a QDoubleSpinBox (NumberSpinBox) and a QSpinBox
// (IntSpinBox) that read numbers typed in exponent notation ("1e22", "2.5E-3") and say why they
// refuse one. Qt's boxes drop keystrokes that would leave the range or form an exponent, so
// "-5" in a box whose minimum is 5 became 5 and "1e308" became 130 (the maximum) without a word.
// Here every keystroke of a number is kept; a finished number outside the range (or a fraction
// in a whole-number box) is refused when typing ends (Enter, focus out): the box keeps its
// previous value and says so next to the box (a tooltip) and in the window's status bar, e.g.
// "Nodes: 1e308 is above the maximum 130 (accepted: 1 to 130 nodes); the value stays 64 nodes".
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <functional>

class QKeyEvent;

namespace tandem::ui {

/// The message of a box named `field` (range [lo, hi], `suffix` the unit shown after the value)
/// that refuses the typed number `typed` (read as `value`; NaN when too large for a double, then
/// `negative` tells the side), with `kept` the value it keeps as the box shows it. `wholeOnly`:
/// a whole-number box, for which an in-range fraction is "not a whole number". Example:
/// ("Nodes", "1e308", 1e308, false, 1, 130, " nodes", "64 nodes", false) -> "Nodes: 1e308 is
/// above the maximum 130 (accepted: 1 to 130 nodes); the value stays 64 nodes".
QString numberRefusal(const QString& field, const QString& typed, double value, bool negative,
                      double lo, double hi, const QString& suffix, const QString& kept,
                      bool wholeOnly);

/// What NumberSpinBox and IntSpinBox share: the name their messages give the box and the last
/// refused input. Not a QObject: each box derives from its Qt box first and from this.
class SpinBoxRefusal {
public:
    /// The name messages give the box (the row's label); empty: the label of its form row.
    void setFieldName(const QString& name) { m_field = name; }
    /// The message of the last refused input, until an input is taken; empty when none.
    QString refusal() const { return m_refusal; }

protected:
    SpinBoxRefusal() = default;
    ~SpinBoxRefusal() = default;
    /// Clears the refusal when `box` finishes an edit whose input was taken (or nothing was
    /// typed) and notes `current()`, the box's value, when typing begins, the value a refusal
    /// keeps; the box's constructor calls this once.
    void watchEditing(QAbstractSpinBox* box, std::function<double()> current);
    /// The value a refusal keeps: the one before the typing began, else `current`.
    double keptValue(double current) const { return m_typing ? m_beforeTyping : current; }
    /// Whether `event` is Enter on the number `typed` (bare) that `box` (`decimals`, -1: whole
    /// numbers; range [lo, hi]) refuses: the box then refuses it and stops there, so a dialog's
    /// default button is not pressed.
    bool refusesEnter(const QAbstractSpinBox* box, const QKeyEvent* event, const QString& typed,
                      int decimals, double lo, double hi) const;
    /// Whether `event` is the shortcut override of Undo or Redo while `box`'s line edit has
    /// none of its own (its text is the committed value: setText clears the line edit's
    /// history). The box then leaves the key to the window, whose Edit > Undo / Redo undoes the
    /// committed edit, instead of its line edit taking the key and doing nothing.
    static bool leavesUndoToWindow(const QAbstractSpinBox* box, const QEvent* event);
    /// The name used in `box`'s messages: the one set, else its form label, else its
    /// accessible name, else "Value".
    QString fieldNameOf(const QAbstractSpinBox* box) const;
    /// `text` without `prefix` and `suffix`, trimmed.
    static QString bare(const QString& text, const QString& prefix, const QString& suffix);
    /// The shared fixup: reads `typed` (bare) as a box of range [lo, hi] keeping `decimals`
    /// (-1: whole numbers) does; a complete number that is not taken is refused: the message
    /// (numberRefusal, `kept` the value kept as shown) is shown beside `box` and in its window's
    /// status bar, becomes refusal() and is returned. Empty when nothing was refused.
    QString refuseTyped(QAbstractSpinBox* box, const QString& typed, int decimals, double lo,
                        double hi, const QString& suffix, const QString& kept) const;

private:
    QString m_field;
    mutable QString m_refusal;
    mutable bool m_refusedNow = false;  ///< set by refuseTyped (fixup), read when editing finishes
    bool m_typing = false;              ///< text typed since editing last finished
    double m_beforeTyping = 0;          ///< the value when that typing began
};

/// A QDoubleSpinBox that reads exponents and refuses out-of-range input with a message.
class NumberSpinBox : public QDoubleSpinBox, public SpinBoxRefusal {
    Q_OBJECT
public:
    explicit NumberSpinBox(QWidget* parent = nullptr);
    QValidator::State validate(QString& input, int& pos) const override;
    double valueFromText(const QString& text) const override;
    void fixup(QString& input) const override;
    /// The name used in messages: the one set, else the box's form label, else "Value".
    QString fieldName() const { return fieldNameOf(this); }

signals:
    /// A typed number was refused; `message` names the field, the number and the range.
    void inputRefused(const QString& message);

protected:
    /// Enter on a refused number refuses it and stops there (the dialog's default button is not
    /// pressed); any other key as QDoubleSpinBox.
    void keyPressEvent(QKeyEvent* event) override;
    /// Undo / Redo with nothing typed to undo go to the window (leavesUndoToWindow).
    bool event(QEvent* event) override;
};

/// A QSpinBox that reads exponents ("1e3") and refuses out-of-range or fractional input with a
/// message, as NumberSpinBox does.
class IntSpinBox : public QSpinBox, public SpinBoxRefusal {
    Q_OBJECT
public:
    explicit IntSpinBox(QWidget* parent = nullptr);
    QValidator::State validate(QString& input, int& pos) const override;
    int valueFromText(const QString& text) const override;
    void fixup(QString& input) const override;
    /// As NumberSpinBox::fieldName.
    QString fieldName() const { return fieldNameOf(this); }

signals:
    /// As NumberSpinBox::inputRefused.
    void inputRefused(const QString& message);

protected:
    /// As NumberSpinBox::keyPressEvent.
    void keyPressEvent(QKeyEvent* event) override;
    /// As NumberSpinBox::event.
    bool event(QEvent* event) override;
};

}  // namespace tandem::ui
