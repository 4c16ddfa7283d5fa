#include "widgets/number_spin_box.h"

#include <QRegularExpression>

namespace tandem::ui {

NumberSpinBox::NumberSpinBox(QWidget* parent) : QDoubleSpinBox(parent) {}

QString NumberSpinBox::bare(const QString& text) const {
    QString t = text;
    if (!prefix().isEmpty() && t.startsWith(prefix())) t.remove(0, prefix().size());
    if (!suffix().isEmpty() && t.endsWith(suffix())) t.chop(suffix().size());
    return t.trimmed();
}

QValidator::State NumberSpinBox::validate(QString& input, int& pos) const {
    const QString t = bare(input);
    if (!t.contains(QLatin1Char('e'), Qt::CaseInsensitive))
        return QDoubleSpinBox::validate(input, pos);
    // Mantissa in the locale's digits and decimal point, then e, an optional sign and digits.
    const QString point = QRegularExpression::escape(locale().decimalPoint());
    static const QString kSign = QStringLiteral("[+-]?");
    const QRegularExpression whole(
        QStringLiteral("^%1(\\d+(%2\\d*)?|%2\\d+)[eE]%1\\d+$").arg(kSign, point));
    const QRegularExpression partial(
        QStringLiteral("^%1(\\d+(%2\\d*)?|%2\\d+)[eE]%1$").arg(kSign, point));
    if (partial.match(t).hasMatch()) return QValidator::Intermediate;
    if (!whole.match(t).hasMatch()) return QValidator::Invalid;
    bool ok = false;
    const double v = locale().toDouble(t, &ok);
    if (!ok) return QValidator::Intermediate;  // too large for a double: not taken
    return v >= minimum() && v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
}

double NumberSpinBox::valueFromText(const QString& text) const {
    const QString t = bare(text);
    if (!t.contains(QLatin1Char('e'), Qt::CaseInsensitive))
        return QDoubleSpinBox::valueFromText(text);
    bool ok = false;
    const double v = locale().toDouble(t, &ok);
    return ok ? v : value();
}

}  // namespace tandem::ui
