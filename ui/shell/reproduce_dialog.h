#pragma once
// Help > Reproduce a figure: the presets listed per paper figure, one opens on a double click or
// Open.
#include <QDialog>

class QLabel;
class QListWidget;

namespace tandem::ui {

/// A list of allPresets() under one heading per paper (ML-for-ML [2608.06046], MOSAIC
/// [2608.10605]), each entry the preset's title, the selected one's note under the list. Open
/// (or a double click) emits presetChosen with the preset's index into allPresets() and closes.
class ReproduceFigureDialog : public QDialog {
    Q_OBJECT
public:
    explicit ReproduceFigureDialog(QWidget* parent = nullptr);
    /// The list (tests): heading rows are not selectable, every other row's Qt::UserRole holds
    /// its preset index.
    QListWidget* list() const { return m_list; }
    /// The note shown for the selected preset (tests).
    QString noteText() const;

signals:
    void presetChosen(int index);

private:
    void openSelected();
    QListWidget* m_list;
    QLabel* m_note;
};

}  // namespace tandem::ui
