#include "ui/widgets/export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "ui/widgets/number_spin_box.h"

namespace tandem::ui {

namespace {
struct PresetSize {
    QSize layout;  ///< px at 96 per inch
    int dpi;
};
PresetSize presetSize(ExportPreset p, QSize current) {
    switch (p) {
        case ExportPreset::Slide:
            return {QSize(1280, 720), 144};
        case ExportPreset::PaperColumn:
            return {QSize(336, 240), 300};  // 3.5 x 2.5 in
        case ExportPreset::PaperWidth:
            return {QSize(672, 336), 300};  // 7 x 3.5 in
        case ExportPreset::Current:
        case ExportPreset::Custom:
            break;
    }
    return {current, 192};
}
}  // namespace

ExportDialog::ExportDialog(QSize current, QWidget* parent)
    : QDialog(parent),
      m_current(current),
      m_preset(new QComboBox(this)),
      m_width(new IntSpinBox(this)),
      m_height(new IntSpinBox(this)),
      m_dpi(new IntSpinBox(this)),
      m_summary(new QLabel(this)),
      m_keepTheme(new QCheckBox(tr("Keep the window's theme (otherwise light)"), this)) {
    setWindowTitle(tr("Export chart"));
    m_preset->addItem(tr("This chart's size (%1 x %2)").arg(current.width()).arg(current.height()),
                      int(ExportPreset::Current));
    m_preset->addItem(tr("Slide 16:9 (1920 x 1080 px)"), int(ExportPreset::Slide));
    m_preset->addItem(tr("Paper column (3.5 x 2.5 in, 300 DPI)"), int(ExportPreset::PaperColumn));
    m_preset->addItem(tr("Paper full width (7 x 3.5 in, 300 DPI)"), int(ExportPreset::PaperWidth));
    m_preset->addItem(tr("Custom"), int(ExportPreset::Custom));
    for (QSpinBox* s : {m_width, m_height}) {
        s->setRange(280, 4000);  // the chart's minimum width; larger is a poster
        s->setSuffix(tr(" px"));
    }
    m_height->setMinimum(200);
    m_width->setToolTip(
        tr("Width the chart is laid out in, pixels at 96 per inch (fonts keep their point size)."));
    m_height->setToolTip(tr("Height the chart is laid out in, pixels at 96 per inch."));
    m_dpi->setRange(72, 1200);
    m_dpi->setSuffix(tr(" DPI"));
    m_dpi->setToolTip(tr(
        "Resolution of the PNG: dots per inch (96 = one pixel per layout pixel). SVG and PDF are "
        "vectors."));
    m_summary->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("Size"), m_preset);
    form->addRow(tr("Width"), m_width);
    form->addRow(tr("Height"), m_height);
    form->addRow(tr("Resolution"), m_dpi);
    m_keepTheme->setToolTip(
        tr("Unchecked, the chart is exported in the light theme whatever the window shows."));
    form->addRow(QString(), m_keepTheme);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);
    connect(m_preset, &QComboBox::currentIndexChanged, this, [this]() { setPreset(preset()); });
    for (QSpinBox* s : {m_width, m_height, m_dpi})
        connect(s, &QSpinBox::valueChanged, this, [this]() {
            const PresetSize p = presetSize(preset(), m_current);
            if (preset() != ExportPreset::Custom && (layoutSize() != p.layout || dpi() != p.dpi)) {
                const QSignalBlocker block(m_preset);
                m_preset->setCurrentIndex(m_preset->findData(int(ExportPreset::Custom)));
            }
            updateSummary();
        });
    const QSettings settings;
    const int saved =
        settings.value(QStringLiteral("export/preset"), int(ExportPreset::Current)).toInt();
    const ExportPreset start =
        m_preset->findData(saved) >= 0 ? ExportPreset(saved) : ExportPreset::Current;
    setPreset(start);
    if (start == ExportPreset::Custom) {
        const QSignalBlocker b1(m_width), b2(m_height), b3(m_dpi);
        m_width->setValue(settings.value(QStringLiteral("export/width"), current.width()).toInt());
        m_height->setValue(
            settings.value(QStringLiteral("export/height"), current.height()).toInt());
        m_dpi->setValue(settings.value(QStringLiteral("export/dpi"), 192).toInt());
        updateSummary();
    }
    m_keepTheme->setChecked(settings.value(QStringLiteral("export/currentTheme"), false).toBool());
}

void ExportDialog::accept() {
    QSettings settings;
    settings.setValue(QStringLiteral("export/preset"), int(preset()));
    settings.setValue(QStringLiteral("export/width"), layoutSize().width());
    settings.setValue(QStringLiteral("export/height"), layoutSize().height());
    settings.setValue(QStringLiteral("export/dpi"), dpi());
    settings.setValue(QStringLiteral("export/currentTheme"), keepCurrentTheme());
    QDialog::accept();
}

bool ExportDialog::keepCurrentTheme() const { return m_keepTheme->isChecked(); }

void ExportDialog::setKeepCurrentTheme(bool keep) { m_keepTheme->setChecked(keep); }

QString ExportDialog::lastFolder() {
    return QSettings().value(QStringLiteral("export/folder")).toString();
}

void ExportDialog::rememberFolder(const QString& filePath) {
    QSettings().setValue(QStringLiteral("export/folder"), QFileInfo(filePath).absolutePath());
}

void ExportDialog::setPreset(ExportPreset preset) {
    {
        const QSignalBlocker b0(m_preset), b1(m_width), b2(m_height), b3(m_dpi);
        m_preset->setCurrentIndex(m_preset->findData(int(preset)));
        if (preset != ExportPreset::Custom) {
            const PresetSize p = presetSize(preset, m_current);
            m_width->setValue(p.layout.width());
            m_height->setValue(p.layout.height());
            m_dpi->setValue(p.dpi);
        }
    }
    updateSummary();
}

ExportPreset ExportDialog::preset() const { return ExportPreset(m_preset->currentData().toInt()); }

QSize ExportDialog::layoutSize() const { return QSize(m_width->value(), m_height->value()); }

int ExportDialog::dpi() const { return m_dpi->value(); }

QSize ExportDialog::pngSize() const {
    return QSize(int(std::lround(layoutSize().width() * pixelRatio())),
                 int(std::lround(layoutSize().height() * pixelRatio())));
}

void ExportDialog::updateSummary() {
    const QSize png = pngSize();
    m_summary->setText(
        tr("PNG: %1 x %2 pixels (%3 x %4 in at %5 DPI). SVG and PDF: vectors of the same layout.")
            .arg(png.width())
            .arg(png.height())
            .arg(layoutSize().width() / 96.0, 0, 'f', 2)
            .arg(layoutSize().height() / 96.0, 0, 'f', 2)
            .arg(dpi()));
}

}  // namespace tandem::ui
