#pragma once
// Shows every problem of a file the user tried to open: where (JSON path or line) and reason,
// one row each.
#include <QDialog>

#include "common/diagnostics.h"

class QTableWidget;

namespace tandem::ui {

/// Non-blocking dialog listing a Diagnostics (columns "where" and "Problem"); the text can
/// be copied. The caller keeps its current scenario; this dialog only informs.
class DiagnosticsDialog : public QDialog {
    Q_OBJECT
public:
    DiagnosticsDialog(const QString& file, const Diagnostics& diag, QWidget* parent = nullptr);
    /// The first column's heading for `diag`: "JSON path" when every problem has one (a JSON
    /// file), "Line" when every problem names a line (a log, a trace), else "Where".
    static QString locationHeader(const Diagnostics& diag);
    /// The heading of column `column` ("" when there is none; tests).
    QString columnHeader(int column) const;
    /// Number of problems listed (tests).
    int rowCount() const;
    /// "path: reason" of row `i` (tests).
    QString rowText(int i) const;

private:
    QTableWidget* m_table;
};

}  // namespace tandem::ui
