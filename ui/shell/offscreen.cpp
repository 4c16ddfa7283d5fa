#include "ui/shell/offscreen.h"

#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSize>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTextStream>
#include <cstdio>

#include "output_folder.h"
#include "save_file.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/shell/main_window.h"
#include "ui/shell/presets.h"
#include "ui/shell/scenario_document.h"
#include "ui/widgets/chart_export.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/diagnostics_dialog.h"

namespace tandem::ui {

namespace {
/// Makes `w` visible inside every tab widget / stacked widget that holds it (through the tab
/// widget when there is one, so that its currentChanged runs pages computed on demand).
void reveal(QWidget* w) {
    for (QWidget* child = w; child && child->parentWidget(); child = child->parentWidget())
        if (auto* stack = qobject_cast<QStackedWidget*>(child->parentWidget())) {
            if (auto* tabs = qobject_cast<QTabWidget*>(stack->parentWidget()))
                tabs->setCurrentWidget(child);
            else
                stack->setCurrentWidget(child);
        }
    QApplication::processEvents();
}

/// Applies `imports` in order; prints the problems of the first bad one and returns false.
bool applyImports(MainWindow& w, const QStringList& imports) {
    for (const QString& path : imports) {
        if (w.importFile(path, DenseModelTarget::Foreground)) continue;
        if (DiagnosticsDialog* d = w.lastDiagnosticsDialog())
            for (int i = 0; i < d->rowCount(); ++i)
                std::fprintf(stderr, "%s: %s\n", qPrintable(path), qPrintable(d->rowText(i)));
        else
            std::fprintf(stderr, "%s: not imported\n", qPrintable(path));
        return false;
    }
    return true;
}

/// True (and says why on stderr) when `dir` cannot take exported charts.
bool folderRefused(const QString& dir) {
    const QString why = fileio::outputFolderProblem(dir);
    if (why.isEmpty()) return false;
    std::fprintf(stderr, "%s: %s; charts are exported into a folder, nothing was written\n",
                 qPrintable(dir), qPrintable(why));
    return true;
}

bool loadInto(MainWindow& w, const QString& scenarioPath) {
    if (scenarioPath.isEmpty()) return true;
    Diagnostics diag(QDir::toNativeSeparators(scenarioPath).toStdString());  // the path as given
    if (w.document()->load(scenarioPath, diag)) return true;
    std::fprintf(stderr, "%s", diag.str().c_str());
    if (!diag.str().empty() && diag.str().back() != '\n') std::fprintf(stderr, "\n");
    return false;
}
}  // namespace

QImage grabSettled(QWidget* window) {
    window->grab();
    QApplication::processEvents();
    return window->grab().toImage();
}

int presetIndex(const QString& id) {
    const QList<Preset> list = allPresets();
    for (int i = 0; i < list.size(); ++i)
        if (list[i].id == id) return i;
    return -1;
}

int renderScreenshot(const QString& outPng, const QString& scenarioPath, int tab, const QSize& size,
                     int preset, int page, const QStringList& imports) {
    MainWindow w;
    if (preset >= 0) {
        w.applyPreset(preset, false);
        if (tab < 0) tab = allPresets()[preset].workspace;
    } else if (!loadInto(w, scenarioPath)) {
        return 2;
    }
    if (!applyImports(w, imports)) return 2;
    w.setCurrentWorkspace(std::max(0, tab));
    QTabWidget* pages = tab == 1 ? w.moeWorkspace()->pages() : w.networkWorkspace()->pages();
    if (page < 0 || page >= pages->count()) {
        std::fprintf(stderr, "--page must be 0..%d for workspace %d (got %d)\n",
                     int(pages->count()) - 1, std::max(0, tab), page);
        return 2;
    }
    if (!pages->isTabVisible(page)) {  // an import page not shown yet would render empty
        const char* what = tab == 1 ? "an nccl-tests log" : "a training loss log";
        std::fprintf(stderr,
                     "--page %d is hidden: page %d appears after importing %s (--import FILE)\n",
                     page, page, what);
        return 2;
    }
    if (!pages->isTabEnabled(page)) {
        std::fprintf(stderr, "--page %d is disabled: %s\n", page,
                     qPrintable(pages->tabToolTip(page)));
        return 2;
    }
    pages->setCurrentIndex(page);
    w.resize(size.isValid() ? size : QSize(1280, 800));
    w.show();
    if (!w.waitForResults(60000)) {
        std::fprintf(stderr, "timed out waiting for results\n");
        return 1;
    }
    QApplication::processEvents();
    const QImage image = grabSettled(&w);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    QString error;
    if (!image.save(&buffer, "PNG")) {
        std::fprintf(stderr, "%s: cannot encode PNG; nothing was written\n", qPrintable(outPng));
        return 1;
    }
    if (!fileio::writeFileAtomic(outPng, png, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return fileio::outputTargetProblem(outPng).isEmpty() ? 1 : 2;
    }
    return 0;
}

int exportAllCharts(const QString& dir, const QString& scenarioPath, const QString& prefix,
                    int preset, const QStringList& imports) {
    if (preset == -2) {
        if (folderRefused(dir)) return 2;  // said once, not once per preset
        int rc = 0;
        const QList<Preset> list = allPresets();
        for (int i = 0; i < list.size(); ++i)
            rc = std::max(rc, exportAllCharts(dir, {}, list[i].id + QLatin1Char('-'), i, imports));
        return rc;
    }
    // The folder is checked before anything is computed and made only once the charts are
    // ready; a folder made here that receives no chart is removed again.
    if (folderRefused(dir)) return 2;
    MainWindow w;
    if (preset >= 0)
        w.applyPreset(preset, false);
    else if (!loadInto(w, scenarioPath))
        return 2;
    if (!applyImports(w, imports)) return 2;
    w.resize(1280, 800);
    w.show();
    if (!w.waitForResults(120000)) {
        std::fprintf(stderr, "timed out waiting for results\n");
        return 1;
    }
    fileio::NewOutputFolder folder(dir);
    if (QString why; !folder.create(&why)) {
        std::fprintf(stderr, "%s: cannot create the folder: %s; nothing was written\n",
                     qPrintable(dir), qPrintable(why));
        return 1;
    }
    int failures = 0;
    QStringList files;   // every file this export wrote
    QStringList charts;  // the charts whose PNG and CSV were both written (stems)
    // A preset exports the charts of its own workspace; a scenario file exports both.
    const QList<ChartView*> views = preset < 0 ? w.allCharts()
                                    : allPresets()[preset].workspace == 0
                                        ? w.networkWorkspace()->charts()
                                        : w.moeWorkspace()->charts();
    for (ChartView* view : views) {
        reveal(view);  // charts on other workspaces or chart pages are brought to the front
        // A page computed on demand (the co-running-job levels) starts when it is shown.
        if (!w.waitForResults(120000)) {
            std::fprintf(stderr, "%s: timed out waiting for results\n",
                         qPrintable(view->exportName()));
            ++failures;
            continue;
        }
        if (!view->isVisible() || !view->isEnabled()) continue;
        QString error;
        const QString stem = QDir(dir).filePath(prefix + view->exportName());
        bool wrote = true;
        for (const char* suffix : {".png", ".csv"}) {
            if (exportChart(view, stem + QLatin1String(suffix), &error, QSize(900, 560))) {
                files << stem + QLatin1String(suffix);
            } else {
                std::fprintf(stderr, "%s\n", qPrintable(error));
                ++failures;
                wrote = false;
            }
        }
        if (wrote) charts << stem;
    }
    // A failed export into a folder it made leaves nothing behind: the files it wrote and the
    // folder go again, and none is reported. Into a folder that was there, the charts written
    // stay (each file complete, written atomically) and are reported.
    if (failures > 0 && folder.createdAny()) {
        for (const QString& f : files) QFile::remove(f);
        folder.removeCreated();
        std::fprintf(stderr, "%s: the export failed; the folder it made was removed again\n",
                     qPrintable(dir));
        return 1;
    }
    for (const QString& stem : charts) std::printf("%s.png\n", qPrintable(stem));
    if (failures > 0)
        std::fprintf(stderr, "%s: %lld charts written; %d files could not be written\n",
                     qPrintable(dir), static_cast<long long>(charts.size()), failures);
    if (!files.isEmpty()) folder.keep();  // the files written were reported
    return failures ? 1 : 0;
}

}  // namespace tandem::ui
