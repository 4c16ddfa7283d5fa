#include "ui/mosaic/log_run_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "mosaic/hardware.h"
#include "mosaic/log_run.h"
#include "ui/widgets/file_dialog.h"
#include "ui/widgets/number_spin_box.h"

namespace tandem::ui {

mosaic::UserRun prefillUserRun(const io::TrainLog& log, const QString& path,
                               const mosaic::Envelope& e, const QString& layout) {
    const io::TrainLogLayout& L = log.layout;
    mosaic::UserRun r;
    r.logFile = path.toStdString();
    r.hardware = e.hardware.name;
    if (!mosaic::trainLogGeometry(L) && !e.importedModelFiles.empty())
        r.modelFile = e.importedModelFiles.front();
    if (!(L.tp > 0 && L.pp > 0 && L.microBatch > 0)) r.layout = layout.toStdString();
    if (L.worldSize <= 0) r.devices = e.devices();
    if (L.globalBatch <= 0) r.globalBatch = e.globalBatch;
    if (L.seqLength <= 0) r.seqLen = e.seqLen;
    if (L.precision != "bf16" && L.precision.rfind("fp8", 0) != 0)
        r.precision = mosaic::precisionName(e.precision);
    return r;
}

namespace {
/// A count box whose 0 reads "stated in the log" (or "required" when the log does not state it).
QSpinBox* countBox(int value, int max, bool stated, QWidget* parent) {
    auto* b = new IntSpinBox(parent);
    b->setRange(0, max);
    b->setSpecialValueText(stated ? LogRunDialog::tr("stated in the log")
                                  : LogRunDialog::tr("required"));
    b->setValue(value);
    return b;
}
}  // namespace

LogRunDialog::LogRunDialog(const mosaic::UserRun& run, const io::TrainLog& log, QWidget* parent)
    : QDialog(parent), m_logFile(run.logFile) {
    setWindowTitle(tr("Import training log"));
    setObjectName(QStringLiteral("logRunDialog"));
    const io::TrainLogLayout& L = log.layout;
    auto* form = new QFormLayout(this);
    auto* intro = new QLabel(
        tr("%1: %2 steady iterations, median %3 s. Give what the log does not state; the run "
           "then shows on the Reality check page as yours.")
            .arg(QFileInfo(QString::fromStdString(run.logFile)).fileName())
            .arg(log.steady.records)
            .arg(log.steady.median_s, 0, 'g', 4),
        this);
    intro->setWordWrap(true);
    form->addRow(intro);
    m_hardware = new QComboBox(this);
    for (const std::string& h : mosaic::hardwareNames())
        m_hardware->addItem(QString::fromStdString(h), QString::fromStdString(h));
    const int hw = m_hardware->findData(QString::fromStdString(run.hardware));
    m_hardware->setCurrentIndex(std::max(0, hw));
    form->addRow(tr("Hardware"), m_hardware);
    const QString stated = tr("stated in the log");
    m_needModel = !mosaic::trainLogGeometry(L);
    m_needLayout = !(L.tp > 0 && L.pp > 0 && L.microBatch > 0);
    m_model = new QLineEdit(QString::fromStdString(run.modelFile), this);
    m_model->setPlaceholderText(
        mosaic::trainLogGeometry(L) ? stated : tr("required: MODEL.json or config.json"));
    auto* browse = new QPushButton(tr("Browse\u2026"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = openFileName(this, tr("Model"), QFileInfo(m_model->text()).path(),
                                       tr("Model files (*.json);;All files (*)"));
        if (!f.isEmpty()) m_model->setText(f);
    });
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(m_model, 1);
    modelRow->addWidget(browse);
    form->addRow(tr("Model"), modelRow);
    m_layout = new QLineEdit(QString::fromStdString(run.layout), this);
    m_layout->setPlaceholderText(L.tp > 0 && L.pp > 0 && L.microBatch > 0
                                     ? stated
                                     : tr("required, e.g. tp=4,pp=8,vp=5,ep=1,mbs=1"));
    m_layout->setToolTip(tr("The named form of tandem-cli plan --layout"));
    form->addRow(tr("Layout"), m_layout);
    m_devices = countBox(run.devices, mosaic::kMaxDevices, L.worldSize > 0, this);
    form->addRow(tr("GPUs"), m_devices);
    m_gbs = countBox(run.globalBatch, mosaic::kMaxGlobalBatch, L.globalBatch > 0, this);
    form->addRow(tr("Global batch (sequences)"), m_gbs);
    m_seqLen = countBox(run.seqLen, mosaic::kMaxSeqLen, L.seqLength > 0, this);
    form->addRow(tr("Sequence length (tokens)"), m_seqLen);
    m_precision = new QComboBox(this);
    m_precision->addItem(L.precision.empty() ? tr("required") : stated, QString());
    for (const std::string& p : enumNames(mosaic::precisionNames()))
        m_precision->addItem(QString::fromStdString(p), QString::fromStdString(p));
    m_precision->setCurrentIndex(
        std::max(0, m_precision->findData(QString::fromStdString(run.precision))));
    form->addRow(tr("Precision"), m_precision);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_import = buttons->button(QDialogButtonBox::Ok);
    m_import->setText(tr("Import"));
    connect(buttons, &QDialogButtonBox::accepted, this, &LogRunDialog::tryImport);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_missing = new QLabel(this);
    m_missing->setObjectName(QStringLiteral("missingFields"));
    m_missing->setWordWrap(true);
    m_missing->setTextFormat(Qt::PlainText);
    form->addRow(m_missing);
    form->addRow(buttons);
    connect(m_model, &QLineEdit::textChanged, this, &LogRunDialog::updateImport);
    connect(m_layout, &QLineEdit::textChanged, this, &LogRunDialog::updateImport);
    for (QSpinBox* b : {m_devices, m_gbs, m_seqLen})
        connect(b, &QSpinBox::valueChanged, this, &LogRunDialog::updateImport);
    connect(m_precision, &QComboBox::currentIndexChanged, this, &LogRunDialog::updateImport);
    updateImport();
}

QStringList LogRunDialog::missingFields() const {
    // A count box or the precision box left at "required" (0 / no data) is missing; one reading
    // "stated in the log" is not.
    const auto countMissing = [](const QSpinBox* b) {
        return b->value() == 0 && b->specialValueText() != tr("stated in the log");
    };
    QStringList out;
    if (m_needModel && m_model->text().trimmed().isEmpty()) out << tr("Model");
    if (m_needLayout && m_layout->text().trimmed().isEmpty()) out << tr("Layout");
    if (countMissing(m_devices)) out << tr("GPUs");
    if (countMissing(m_gbs)) out << tr("Global batch");
    if (countMissing(m_seqLen)) out << tr("Sequence length");
    if (m_precision->currentData().toString().isEmpty() &&
        m_precision->itemText(0) == tr("required"))
        out << tr("Precision");
    return out;
}

void LogRunDialog::tryImport() {
    if (!missingFields().isEmpty()) return;  // never closes with a required field empty
    QString problems;
    if (m_importer && !m_importer(run(), &problems)) {
        m_missing->setText(tr("Not imported: %1").arg(problems));
        m_missing->setVisible(true);
        return;
    }
    accept();
}

QString LogRunDialog::message() const {
    return m_missing->isHidden() ? QString() : m_missing->text();
}

void LogRunDialog::updateImport() {
    const QStringList missing = missingFields();
    m_import->setEnabled(missing.isEmpty());
    m_missing->setText(
        missing.isEmpty()
            ? QString()
            : tr("Required before import: %1").arg(missing.join(QStringLiteral(", "))));
    m_missing->setVisible(!missing.isEmpty());
}

mosaic::UserRun LogRunDialog::run() const {
    mosaic::UserRun r;
    r.logFile = m_logFile;
    r.hardware = m_hardware->currentData().toString().toStdString();
    r.modelFile = m_model->text().trimmed().toStdString();
    r.layout = m_layout->text().trimmed().toStdString();
    r.devices = m_devices->value();
    r.globalBatch = m_gbs->value();
    r.seqLen = m_seqLen->value();
    r.precision = m_precision->currentData().toString().toStdString();
    return r;
}

}  // namespace tandem::ui
