#include "ui/widgets/count_label.h"

namespace tandem::ui {

QString countLabel(qint64 count, const QString& singular, const QString& plural) {
    return QString::number(count) + QLatin1Char(' ') +
           (count == 1 || count == -1 ? singular : plural);
}

}  // namespace tandem::ui
