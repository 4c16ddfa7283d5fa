#pragma once
// File > Import of a training log: the dialog that asks for what the log does not state (the
// hardware it ran on, the model, the layout, the batch, the precision), prefilled from the
// current scenario, and gives a mosaic::UserRun (the words of `tandem-cli calibrate`'s flags).
#include <QDialog>

#include "io/train_log.h"
#include "mosaic/envelope.h"
#include "mosaic/user_run.h"

class QComboBox;
class QLineEdit;
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

private:
    std::string m_logFile;
    QComboBox* m_hardware;
    QLineEdit* m_model;
    QLineEdit* m_layout;
    QSpinBox* m_devices;
    QSpinBox* m_gbs;
    QSpinBox* m_seqLen;
    QComboBox* m_precision;
};

}  // namespace tandem::ui
