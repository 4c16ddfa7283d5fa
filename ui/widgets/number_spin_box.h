#pragma once
// The number boxes of the application: a QDoubleSpinBox (NumberSpinBox) and a QSpinBox
// (IntSpinBox) that read numbers typed in exponent notation ("1e22", "2.5E-3") and say why they
// refuse one. Qt's boxes drop keystrokes that would leave the range or form an exponent, so
// "-5" in a box whose minimum is 5 became 5 and "1e308" became 130 (the maximum) without a word.
// Here every keystroke of a number is kept; a finished number outside the range (or a fraction
// in a whole-number box) is refused when typing ends (Enter, focus out): the box goes back to the
// value it held before the typing began (a box with keyboard tracking took the prefixes "5",
// "50", "500" of a refused "5000" on the way; none of them stays) and says so next to the box
// (a tooltip) and in the window's status bar, e.g. "Nodes: 1e308 is above the maximum 130
// (accepted: 1 to 130 nodes); the value stays 64 nodes". Enter on a refused number only refuses
// it: the key does not reach the dialog (its default button is not pressed).
#include <QDoubleSpinBox>
#include <QSpinBox>

namespace tandem::ui {

/// The message of a box named `field` (range [lo, hi], `suffix` the unit shown after the value)
/// that refuses the typed number `typed` (read as `value`; NaN when too large for a double, then
/// `negative` tells the side), with `kept` the value it keeps as the box shows it. `wholeOnly`:
/// a whole-number box, for which an in-range fraction is "not a whole number". Example:
/// ("Nodes", "1e308", 1e308, false, 1, 130, " nodes", "64 nodes", false) -> "Nodes: 1e308 is
/// above the maximum 130 (accepted: 1 to 130 nodes); the value stays 64 nodes". The range ends
/// are written readably: a whole number below 1e15 in full, with digit groups from five digits
/// on ("4000", "1,000,000,000"), any other with six significant digits and a bare exponent
/// ("0.001", "2.5e-7", "1e20"; not "1e+09").
QString numberRefusal(const QString& field, const QString& typed, double value, bool negative,
                      double lo, double hi, const QString& suffix, const QString& kept,
                      bool wholeOnly);

/// A QDoubleSpinBox that reads exponents and refuses out-of-range input with a message.
class NumberSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit NumberSpinBox(QWidget* parent = nullptr);
    QValidator::State validate(QString& input, int& pos) const override;
    double valueFromText(const QString& text) const override;
    void fixup(QString& input) const override;

    /// The name messages give the box (the row's label); empty: the label of its form row.
    void setFieldName(const QString& name) { m_field = name; }
    /// The name used in messages: the one set, else the box's form label, else "Value".
    QString fieldName() const;
    /// The message of the last refused input, until an input is taken; empty when none.
    QString refusal() const { return m_refusal; }

signals:
    /// A typed number was refused; `message` names the field, the number and the range.
    void inputRefused(const QString& message);

protected:
    /// Enter on a refused number refuses it and stops there (the dialog's default button is not
    /// pressed); any other key as QDoubleSpinBox.
    void keyPressEvent(QKeyEvent* event) override;

private:
    /// `text` without the prefix and suffix, trimmed.
    QString bare(const QString& text) const;
    /// The value a refusal keeps: the one before the typing began, else the current one.
    double kept() const { return m_typing ? m_beforeTyping : value(); }
    QString m_field;
    mutable QString m_refusal;
    mutable bool m_refusedNow = false;  ///< set by fixup, read when editing finishes
    bool m_typing = false;              ///< text typed since editing last finished
    double m_beforeTyping = 0;          ///< the value when that typing began
};

/// A QSpinBox that reads exponents ("1e3") and refuses out-of-range or fractional input with a
/// message, as NumberSpinBox does.
class IntSpinBox : public QSpinBox {
    Q_OBJECT
public:
    explicit IntSpinBox(QWidget* parent = nullptr);
    QValidator::State validate(QString& input, int& pos) const override;
    int valueFromText(const QString& text) const override;
    void fixup(QString& input) const override;

    /// As NumberSpinBox::setFieldName.
    void setFieldName(const QString& name) { m_field = name; }
    /// As NumberSpinBox::fieldName.
    QString fieldName() const;
    /// As NumberSpinBox::refusal.
    QString refusal() const { return m_refusal; }

signals:
    /// As NumberSpinBox::inputRefused.
    void inputRefused(const QString& message);

protected:
    /// As NumberSpinBox::keyPressEvent.
    void keyPressEvent(QKeyEvent* event) override;

private:
    QString bare(const QString& text) const;
    int kept() const { return m_typing ? m_beforeTyping : value(); }
    QString m_field;
    mutable QString m_refusal;
    mutable bool m_refusedNow = false;
    bool m_typing = false;
    int m_beforeTyping = 0;
};

}  // namespace tandem::ui
