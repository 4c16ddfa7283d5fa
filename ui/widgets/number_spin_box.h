#pragma once
// A QDoubleSpinBox that also reads numbers typed in exponent notation ("1e22", "2.5E-3").
// QDoubleSpinBox's validator drops the 'e' keystroke and keeps the digits, so "1e22" became 122
// without a word; here an exponent is read in full, and a value outside the range is not taken
// (the box keeps its value, as for any other number it refuses).
#include <QDoubleSpinBox>

namespace tandem::ui {

class NumberSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit NumberSpinBox(QWidget* parent = nullptr);
    QValidator::State validate(QString& input, int& pos) const override;
    double valueFromText(const QString& text) const override;

private:
    /// `text` without the prefix and suffix, trimmed.
    QString bare(const QString& text) const;
};

}  // namespace tandem::ui
