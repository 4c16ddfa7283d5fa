#include "ui/widgets/number_spin_box.h"

#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QRegularExpression>
#include <QStatusBar>
#include <QToolTip>
#include <cmath>

namespace tandem::ui {
namespace {

/// How a box reads its bare text (prefix, suffix and group separators removed).
struct Reading {
    QValidator::State state = QValidator::Invalid;
    bool complete = false;  ///< a whole number was typed (it may still be outside the range)
    double value = NAN;     ///< the number; NaN when complete but too large for a double
    bool negative = false;
};

/// Reads `text` as a box with range [lo, hi] does. `decimals`: the decimals the box keeps, -1
/// for a whole-number box. A prefix of a number ("", "-", "1.", "1e-") is Intermediate, so
/// every keystroke of a number is kept; a complete number outside the range, or a fraction in a
/// whole-number box, is Intermediate too (refused when typing ends, with a message).
Reading readNumber(const QLocale& locale, QString text, int decimals, double lo, double hi) {
    Reading r;
    const QString group = locale.groupSeparator();
    if (!group.isEmpty() && !group.at(0).isSpace()) text.remove(group);
    const QString point = QRegularExpression::escape(locale.decimalPoint());
    static const QString kSign = QStringLiteral("[+-]?");
    const QRegularExpression complete(
        QStringLiteral("^%1(\\d+(%2\\d*)?|%2\\d+)([eE]%1\\d+)?$").arg(kSign, point));
    const QRegularExpression partial(
        QStringLiteral("^%1(\\d*(%2\\d*)?|(\\d+(%2\\d*)?|%2\\d+)[eE]%1)$").arg(kSign, point));
    r.negative = text.startsWith(QLatin1Char('-')) || text.startsWith(locale.negativeSign());
    if (text.startsWith(locale.negativeSign()) && locale.negativeSign() != QLatin1String("-"))
        text.replace(0, locale.negativeSign().size(), QStringLiteral("-"));
    if (!complete.match(text).hasMatch()) {
        r.state = partial.match(text).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
        return r;
    }
    const bool exponent = text.contains(QLatin1Char('e'), Qt::CaseInsensitive);
    const int at = text.indexOf(locale.decimalPoint());
    if (!exponent && at >= 0 && decimals >= 0) {
        // More decimals than the box keeps are not typed, as in Qt's own boxes (in a
        // whole-number box a fraction is typed, and refused with a message when typing ends).
        const qsizetype typedDecimals = text.size() - at - locale.decimalPoint().size();
        if (typedDecimals > decimals) return r;  // Invalid
    }
    r.complete = true;
    bool ok = false;
    const double v = locale.toDouble(text, &ok);
    r.value = ok && std::isfinite(v) ? v : NAN;
    const bool inRange = !std::isnan(r.value) && r.value >= lo && r.value <= hi;
    const bool whole = decimals >= 0 || std::floor(r.value) == r.value;
    r.state = inRange && whole ? QValidator::Acceptable : QValidator::Intermediate;
    return r;
}

/// The range end as messages show it: a whole number below 1e15 in full, with the locale's digit
/// groups from five digits on ("130", "4000", "16,384", "1,000,000,000"), any other with at most
/// six significant digits and a bare exponent ("0.01", "2.5e-7", "1e20"; not Qt's "1e+09").
QString endText(const QLocale& locale, double v, const QString& suffix) {
    if (std::isfinite(v) && std::abs(v) < 1e15 && std::floor(v) == v) {
        QLocale digits = locale;
        digits.setNumberOptions(std::abs(v) < 1e4
                                    ? locale.numberOptions() | QLocale::OmitGroupSeparator
                                    : locale.numberOptions() & ~QLocale::OmitGroupSeparator);
        return digits.toString(static_cast<qlonglong>(v)) + suffix;
    }
    QString text = locale.toString(v, 'g', 6);
    const QString e = locale.exponential();
    const qsizetype at = text.indexOf(e, 0, Qt::CaseInsensitive);
    if (at >= 0) {
        QString exponent = text.mid(at + e.size());
        QString sign;
        if (exponent.startsWith(locale.negativeSign())) sign = locale.negativeSign();
        if (exponent.startsWith(locale.negativeSign()) ||
            exponent.startsWith(locale.positiveSign()))
            exponent.remove(0, 1);
        while (exponent.size() > 1 && exponent.startsWith(locale.zeroDigit()))
            exponent.remove(0, 1);
        text = text.left(at) + QStringLiteral("e") + sign + exponent;
    }
    return text + suffix;
}

/// Whether `event` is Return or Enter.
bool isEnter(const QKeyEvent* event) {
    return event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
}

/// Whether `event` is Enter on the number `bare` that a box with `decimals` ([lo, hi]) refuses.
bool enterOnRefused(const QKeyEvent* event, const QLocale& locale, const QString& bare,
                    int decimals, double lo, double hi) {
    if (!isEnter(event)) return false;
    const Reading r = readNumber(locale, bare, decimals, lo, hi);
    return r.complete && r.state != QValidator::Acceptable;
}

/// The row label of `box` in a form of its parent, without '&' and a trailing ':'.
QString formLabel(const QWidget* box) {
    const QWidget* parent = box->parentWidget();
    if (!parent) return {};
    QList<QFormLayout*> forms = parent->findChildren<QFormLayout*>();
    if (auto* own = qobject_cast<QFormLayout*>(parent->layout())) forms.prepend(own);
    for (QFormLayout* form : forms) {
        if (auto* label = qobject_cast<QLabel*>(form->labelForField(const_cast<QWidget*>(box)))) {
            QString t = label->text();
            t.remove(QLatin1Char('&'));
            if (t.endsWith(QLatin1Char(':'))) t.chop(1);
            return t.trimmed();
        }
    }
    return {};
}

/// Shows `message` beside `box` (a tooltip under it) and in its window's status bar.
void showRefusal(QAbstractSpinBox* box, const QString& message) {
    if (box->isVisible())
        QToolTip::showText(box->mapToGlobal(QPoint(0, box->height())), message, box, QRect(),
                           10000);
    if (auto* window = qobject_cast<QMainWindow*>(box->window()))
        window->statusBar()->showMessage(message, 15000);
}

}  // namespace

QString numberRefusal(const QString& field, const QString& typed, double value, bool negative,
                      double lo, double hi, const QString& suffix, const QString& kept,
                      bool wholeOnly) {
    const QLocale locale;
    const QString unit = suffix.trimmed().isEmpty() ? QString() : suffix;
    QString why;
    if (std::isnan(value) ? !negative : value > hi)
        why = QDoubleSpinBox::tr("is above the maximum %1").arg(endText(locale, hi, {}));
    else if (std::isnan(value) || value < lo)
        why = QDoubleSpinBox::tr("is below the minimum %1").arg(endText(locale, lo, {}));
    else if (wholeOnly)
        why = QDoubleSpinBox::tr("is not a whole number");
    else
        why = QDoubleSpinBox::tr("is not accepted");
    return QDoubleSpinBox::tr("%1: %2 %3 (accepted: %4 to %5); the value stays %6")
        .arg(field, typed, why, endText(locale, lo, {}), endText(locale, hi, unit), kept);
}

// ---- SpinBoxRefusal ----

void SpinBoxRefusal::watchEditing(QAbstractSpinBox* box, std::function<double()> current) {
    // The line edit reports a keystroke before the box takes its text as the value (keyboard
    // tracking), so the first one of an edit sees the value from before the typing.
    QObject::connect(box->findChild<QLineEdit*>(), &QLineEdit::textEdited, box, [this, current]() {
        if (!m_typing) m_beforeTyping = current();
        m_typing = true;
    });
    QObject::connect(box, &QAbstractSpinBox::editingFinished, box, [this]() {
        if (!m_refusedNow) m_refusal.clear();  // a number was taken (or nothing typed)
        m_refusedNow = false;
        m_typing = false;
    });
}

bool SpinBoxRefusal::leavesUndoToWindow(const QAbstractSpinBox* box, const QEvent* event) {
    if (event->type() != QEvent::ShortcutOverride) return false;
    const auto* key = static_cast<const QKeyEvent*>(event);
    const QLineEdit* edit = box->findChild<const QLineEdit*>();
    if (!edit) return false;
    return (key->matches(QKeySequence::Undo) && !edit->isUndoAvailable()) ||
           (key->matches(QKeySequence::Redo) && !edit->isRedoAvailable());
}

bool SpinBoxRefusal::refusesEnter(const QAbstractSpinBox* box, const QKeyEvent* event,
                                  const QString& typed, int decimals, double lo, double hi) const {
    // m_refusedNow: the line edit's own Return handling (a key sent to it) refused it already.
    return (m_refusedNow && isEnter(event)) ||
           enterOnRefused(event, box->locale(), typed, decimals, lo, hi);
}

QString SpinBoxRefusal::fieldNameOf(const QAbstractSpinBox* box) const {
    if (!m_field.isEmpty()) return m_field;
    const QString label = formLabel(box);
    if (!label.isEmpty()) return label;
    return box->accessibleName().isEmpty() ? QAbstractSpinBox::tr("Value") : box->accessibleName();
}

QString SpinBoxRefusal::bare(const QString& text, const QString& prefix, const QString& suffix) {
    QString t = text;
    if (!prefix.isEmpty() && t.startsWith(prefix)) t.remove(0, prefix.size());
    if (!suffix.isEmpty() && t.endsWith(suffix)) t.chop(suffix.size());
    return t.trimmed();
}

QString SpinBoxRefusal::refuseTyped(QAbstractSpinBox* box, const QString& typed, int decimals,
                                    double lo, double hi, const QString& suffix,
                                    const QString& kept) const {
    const Reading r = readNumber(box->locale(), typed, decimals, lo, hi);
    if (!r.complete || r.state == QValidator::Acceptable) return {};
    const QString message = numberRefusal(fieldNameOf(box), typed, r.value, r.negative, lo, hi,
                                          suffix, kept, decimals < 0);
    showRefusal(box, message);
    m_refusal = message;
    m_refusedNow = true;
    return message;
}

// ---- NumberSpinBox ----

NumberSpinBox::NumberSpinBox(QWidget* parent) : QDoubleSpinBox(parent) {
    watchEditing(this, [this]() { return value(); });
}

void NumberSpinBox::keyPressEvent(QKeyEvent* event) {
    const bool refused =
        refusesEnter(this, event, bare(lineEdit()->displayText(), prefix(), suffix()), decimals(),
                     minimum(), maximum());
    QDoubleSpinBox::keyPressEvent(event);
    if (refused) event->accept();  // not on to the dialog's default button
}

bool NumberSpinBox::event(QEvent* event) {
    return leavesUndoToWindow(this, event) ? false : QDoubleSpinBox::event(event);
}

QValidator::State NumberSpinBox::validate(QString& input, int& pos) const {
    const QString special = specialValueText();
    if (!special.isEmpty() && special.startsWith(input))
        return input == special ? QValidator::Acceptable : QValidator::Intermediate;
    Q_UNUSED(pos);
    return readNumber(locale(), bare(input, prefix(), suffix()), decimals(), minimum(), maximum())
        .state;
}

double NumberSpinBox::valueFromText(const QString& text) const {
    const QString special = specialValueText();
    if (!special.isEmpty() && text == special) return minimum();
    const Reading r =
        readNumber(locale(), bare(text, prefix(), suffix()), decimals(), minimum(), maximum());
    return r.state == QValidator::Acceptable ? r.value : value();
}

void NumberSpinBox::fixup(QString& input) const {
    auto* self = const_cast<NumberSpinBox*>(this);
    const double kept = keptValue(value());
    const QString message =
        refuseTyped(self, bare(input, prefix(), suffix()), decimals(), minimum(), maximum(),
                    suffix(), textFromValue(kept) + suffix());
    if (message.isEmpty()) return;
    // The text becomes the value kept, which the box then takes (its value while typing may be
    // a prefix of the refused number).
    input = prefix() + textFromValue(kept) + suffix();
    emit self->inputRefused(message);
}

// ---- IntSpinBox ----

IntSpinBox::IntSpinBox(QWidget* parent) : QSpinBox(parent) {
    watchEditing(this, [this]() { return double(value()); });
}

void IntSpinBox::keyPressEvent(QKeyEvent* event) {
    const bool refused = refusesEnter(
        this, event, bare(lineEdit()->displayText(), prefix(), suffix()), -1, minimum(), maximum());
    QSpinBox::keyPressEvent(event);
    if (refused) event->accept();
}

bool IntSpinBox::event(QEvent* event) {
    return leavesUndoToWindow(this, event) ? false : QSpinBox::event(event);
}

QValidator::State IntSpinBox::validate(QString& input, int& pos) const {
    const QString special = specialValueText();
    if (!special.isEmpty() && special.startsWith(input))
        return input == special ? QValidator::Acceptable : QValidator::Intermediate;
    Q_UNUSED(pos);
    return readNumber(locale(), bare(input, prefix(), suffix()), -1, minimum(), maximum()).state;
}

int IntSpinBox::valueFromText(const QString& text) const {
    const QString special = specialValueText();
    if (!special.isEmpty() && text == special) return minimum();
    const Reading r =
        readNumber(locale(), bare(text, prefix(), suffix()), -1, minimum(), maximum());
    return r.state == QValidator::Acceptable ? static_cast<int>(r.value) : value();
}

void IntSpinBox::fixup(QString& input) const {
    auto* self = const_cast<IntSpinBox*>(this);
    const int kept = static_cast<int>(keptValue(value()));
    const QString message = refuseTyped(self, bare(input, prefix(), suffix()), -1, minimum(),
                                        maximum(), suffix(), textFromValue(kept) + suffix());
    if (message.isEmpty()) return;
    input = prefix() + textFromValue(kept) + suffix();  // as NumberSpinBox::fixup
    emit self->inputRefused(message);
}

}  // namespace tandem::ui
