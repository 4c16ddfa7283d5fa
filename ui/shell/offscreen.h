#pragma once
// Display-less renders used by `tandem --screenshot` and `tandem --export-charts`.
#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

class QWidget;

namespace tandem::ui {

/// Loads `scenarioPath` (empty = default scenario), shows the main window at `size`
/// (default 1280x800) on workspace `tab`, waits for results and writes a PNG of the window.
/// Returns 0 on success; prints the reason to stderr and returns 2 (bad scenario) or 1.
/// `preset` >= 0 applies that entry of allPresets() instead of a scenario file; `page` selects
/// the workspace's chart page (0 = first; out of range: the allowed range on stderr, returns 2).
/// `imports` are applied in order after the scenario (MainWindow::importFile; a dense model
/// config becomes the foreground job); a bad import prints its problems and returns 2.
int renderScreenshot(const QString& outPng, const QString& scenarioPath, int tab, const QSize& size,
                     int preset = -1, int page = 0, const QStringList& imports = {});

/// Renders every chart of both workspaces for `scenarioPath` into `dir` as PNG (plus CSV),
/// named `<prefix><chart>.png`. Returns 0 on success, 2 for a bad scenario, 1 otherwise.
/// `preset` >= 0 applies that preset instead and exports its workspace's charts only; -2 exports
/// every preset, each with prefix "<id>-".
/// `imports` as for renderScreenshot (charts of imported logs are exported too).
int exportAllCharts(const QString& dir, const QString& scenarioPath, const QString& prefix = {},
                    int preset = -1, const QStringList& imports = {});

/// `window` as it is on screen once its charts have fitted their texts: painted once (each chart
/// fits its texts before it draws them, which may raise its minimum height), its layouts given
/// the posted events to settle, then painted again into the returned image.
QImage grabSettled(QWidget* window);

/// Index of the preset with `id` in allPresets(), or -1.
int presetIndex(const QString& id);

}  // namespace tandem::ui
