#pragma once
// Shows every problem of a file the user tried to open: JSON path and reason, one row each.
#include <QDialog>

#include "common/diagnostics.h"

class QTableWidget;

namespace tandem::ui {

/// Non-blocking dialog listing a Diagnostics (columns "JSON path" and "Problem"); the text can
/// be copied. The caller keeps its current scenario; this dialog only informs.
class DiagnosticsDialog : public QDialog {
    Q_OBJECT
public:
    DiagnosticsDialog(const QString& file, const Diagnostics& diag, QWidget* parent = nullptr);
    /// Number of problems listed (tests).
    int rowCount() const;
    /// "path: reason" of row `i` (tests).
    QString rowText(int i) const;

private:
    QTableWidget* m_table;
};

}  // namespace tandem::ui
