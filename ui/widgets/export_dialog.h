#pragma once
// The chart export dialog: picture size and resolution, with presets for a 16:9 slide and a
// paper column.
#include <QDialog>
#include <QSize>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace tandem::ui {

/// Size presets of the export dialog.
enum class ExportPreset {
    Current,      ///< the chart's size on screen, 192 DPI (2 pixels per screen pixel)
    Slide,        ///< 16:9 slide: 1280 x 720 layout px at 144 DPI -> 1920 x 1080 px
    PaperColumn,  ///< one paper column: 3.5 x 2.5 in at 300 DPI -> 1050 x 750 px
    PaperWidth,   ///< full paper width: 7 x 3.5 in at 300 DPI -> 2100 x 1050 px
    Custom,       ///< width, height (layout px at 96 per inch) and DPI as entered
};

/// Asks for the layout size (pixels at 96 per inch, what the chart is laid out in: fonts keep
/// their point size) and the resolution (DPI) of an exported chart. The written PNG has
/// layoutSize() x pixelRatio() pixels; SVG and PDF are vectors of layoutSize().
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    /// `current`: the chart's size on screen (layout px). Starts with the preset, size, DPI and
    /// theme choice of the last accepted export (QSettings "export/preset", "export/width",
    /// "export/height", "export/dpi", "export/currentTheme").
    explicit ExportDialog(QSize current, QWidget* parent = nullptr);
    /// Remembers the choices (see the constructor) and closes the dialog.
    void accept() override;
    void setPreset(ExportPreset preset);
    ExportPreset preset() const;
    /// Layout size in pixels at 96 per inch.
    QSize layoutSize() const;
    /// Dots per inch of the PNG (>= 72).
    int dpi() const;
    /// Output pixels per layout pixel: dpi() / 96.
    double pixelRatio() const { return dpi() / 96.0; }
    /// The PNG's size in pixels: layoutSize() x pixelRatio(), rounded.
    QSize pngSize() const;
    /// Whether the picture keeps the window's theme (a dark chart); unchecked (the default), it is
    /// drawn in the light theme, as slides and papers want it.
    bool keepCurrentTheme() const;
    void setKeepCurrentTheme(bool keep);
    /// The folder of the last exported file (QSettings "export/folder"; empty when none) and
    /// remembering it from `filePath`.
    static QString lastFolder();
    static void rememberFolder(const QString& filePath);

private:
    void updateSummary();
    QSize m_current;
    QComboBox* m_preset;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QSpinBox* m_dpi;
    QLabel* m_summary;
    QCheckBox* m_keepTheme;
};

}  // namespace tandem::ui
