#pragma once
// File > Import of a training log: the dialog that asks for what the log does not state (the
// hardware it ran on, the model, the layout, the batch, the precision), prefilled from the
// current scenario, and gives a mosaic::UserRun (the words of `tandem-cli calibrate`'s flags).
#include <QDialog>
#include <functional>

#include "io/train_log.h"
#include "mosaic/envelope.h"
#include "mosaic/user_run.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace tandem::ui {

/// The run the dialog starts with for the log `log` read from `path`: what the log states is
/// left to it (empty / 0); the rest comes from the scenario `e` (its hardware, GPUs, global batch,
/// sequence length, precision and first imported model file) and `layout`, the current plan's
/// layout (mosaic::layoutString; "" = none). The hardware is always the scenario's.
mosaic::UserRun prefillUserRun(const io::TrainLog& log, const QString& path,
                               const mosaic::Envelope& e, const QString& layout);

class LogRunDialog : public QDialog {
    Q_OBJECT
public:
    /// `run`: the prefilled run (prefillUserRun); `log`: what the log states (placeholders).
    LogRunDialog(const mosaic::UserRun& run, const io::TrainLog& log, QWidget* parent = nullptr);
    /// The run as the fields give it now.
    mosaic::UserRun run() const;
    QComboBox* hardwareBox() const { return m_hardware; }
    QLineEdit* modelEdit() const { return m_model; }
    QLineEdit* layoutEdit() const { return m_layout; }
    QSpinBox* devicesBox() const { return m_devices; }
    QSpinBox* gbsBox() const { return m_gbs; }
    QSpinBox* seqLenBox() const { return m_seqLen; }
    QComboBox* precisionBox() const { return m_precision; }
    /// The Import button: enabled only while every field the log does not state is filled.
    QPushButton* importButton() const { return m_import; }
    /// The fields the log does not state and that are empty now (their row labels, in form
    /// order); empty when the run can be imported.
    QStringList missingFields() const;
    /// What Import does: `import` takes the run and returns true when it was imported, else
    /// false with the problems (one per line) in its second argument. The dialog closes only on
    /// success; otherwise it stays open, everything typed kept, the problems shown in it.
    /// Without an importer, Import just accepts.
    using Importer = std::function<bool(const mosaic::UserRun&, QString*)>;
    void setImporter(Importer import) { m_importer = std::move(import); }
    /// The text of the dialog's message line (missing fields or import problems; tests).
    QString message() const;

private:
    /// Enables Import and shows which fields are still missing (called on every edit).
    void updateImport();

    /// Import pressed: imports (setImporter) and closes, or shows why not.
    void tryImport();

    std::string m_logFile;
    Importer m_importer;
    bool m_needModel = false;
    bool m_needLayout = false;
    QPushButton* m_import = nullptr;
    QLabel* m_missing = nullptr;
    QComboBox* m_hardware;
    QLineEdit* m_model;
    QLineEdit* m_layout;
    QSpinBox* m_devices;
    QSpinBox* m_gbs;
    QSpinBox* m_seqLen;
    QComboBox* m_precision;
};

}  // namespace tandem::ui
