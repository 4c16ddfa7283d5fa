#pragma once
// A count with its noun in the right number: "1 node", "0 nodes", "8 nodes".
#include <QString>

namespace tandem::ui {

/// `count` followed by `singular` when count is 1 or -1, by `plural` otherwise (English rule:
/// "1 day", "0 days", "2 days"). The nouns come translated from the caller (tr("node"),
/// tr("nodes")), so no %n plural translation files are needed. No errors.
QString countLabel(qint64 count, const QString& singular, const QString& plural);

}  // namespace tandem::ui
