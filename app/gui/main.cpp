// `tandem`: the what-if GUI. Without options it opens the main window on the default scenario
// (or on SCENARIO.json). Display-less modes for scripts and documentation:
//   tandem --screenshot FILE.png [--tab 0|1] [--page N] [--size WxH] [SCENARIO.json]
//   tandem --export-charts DIR [SCENARIO.json | --preset ID|all]
//   tandem --bench-gui [--json] [--moves N]
//   tandem --write-default-scenario FILE
// --import FILE (repeatable) imports a model config, nccl-tests log, loss log or load trace
// after the scenario is loaded, in the window and before --screenshot / --export-charts.
// An interactive start autosaves unsaved changes and offers to recover them after a crash.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QLocale>
#include <cstdio>
#include <cstdlib>

#include "save_file.h"
#include "scenario/scenario.h"
#include "standard_output.h"
#include "ui/shell/gui_bench.h"
#include "ui/shell/main_window.h"
#include "ui/shell/offscreen.h"
#include "ui/shell/presets.h"

int main(int argc, char** argv) {
    QElapsedTimer sinceMain;  // gui_launch_s of --bench-gui counts from here
    sinceMain.start();
    // Display-less modes need no window system: pick the offscreen platform before QApplication.
    // --help / --version print text only; without a display they must not abort in the
    // platform plugin (exit 134), so they take the offscreen platform as well.
    const bool noDisplay =
        qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        const bool textOnly = a == "--help" || a == "-h" || a == "-?" || a == "--help-all" ||
                              a == "--version" || a == "-v";
        if (a == "--screenshot" || a == "--export-charts" || a == "--bench-gui" ||
            a == "--write-default-scenario" || (textOnly && noDisplay)) {
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            break;
        }
    }
    QApplication app(argc, argv);
    // Numbers in the C convention whatever the locale (LANG=de_DE.UTF-8 would make spin boxes
    // show and accept "0,5" while captions, charts and files say "0.5"): one convention for what
    // the window shows, what it reads and what it writes.
    QLocale::setDefault(QLocale::c());
    QApplication::setApplicationName(QStringLiteral("Tandem"));
    QApplication::setOrganizationName(QStringLiteral("Tandem"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/tandem.svg")));
    QApplication::setDesktopFileName(QStringLiteral("tandem"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Tandem: what-if tool for distributed LLM training (ML-for-ML "
                       "arXiv:2608.06046, MOSAIC arXiv:2608.10605)."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("scenario"),
                                 QStringLiteral("Scenario JSON to open (optional)."),
                                 QStringLiteral("[SCENARIO.json]"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Render the main window offscreen to FILE.png and exit."),
        QStringLiteral("FILE.png"));
    const QCommandLineOption tab(QStringLiteral("tab"),
                                 QStringLiteral("Workspace for --screenshot: 0 or 1."),
                                 QStringLiteral("N"), QStringLiteral("-1"));
    const QCommandLineOption page(QStringLiteral("page"),
                                  QStringLiteral("Chart page of the workspace for --screenshot."),
                                  QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("Window size for --screenshot."),
                                  QStringLiteral("WxH"), QStringLiteral("1280x800"));
    const QCommandLineOption exportCharts(
        QStringLiteral("export-charts"),
        QStringLiteral("Render every chart (PNG + CSV) into DIR and exit."), QStringLiteral("DIR"));
    const QCommandLineOption preset(
        QStringLiteral("preset"),
        QStringLiteral("Use preset ID (see the Presets menu) instead of a scenario file; "
                       "with --export-charts, 'all' exports every preset."),
        QStringLiteral("ID"));
    const QCommandLineOption benchGui(
        QStringLiteral("bench-gui"),
        QStringLiteral("Time launch and slider-to-chart updates offscreen and exit."));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("With --bench-gui: print JSON."));
    const QCommandLineOption moves(QStringLiteral("moves"),
                                   QStringLiteral("With --bench-gui: moves per slider."),
                                   QStringLiteral("N"), QStringLiteral("10"));
    const QCommandLineOption writeDefault(
        QStringLiteral("write-default-scenario"),
        QStringLiteral("Write the built-in default scenario (canonical JSON) to FILE "
                       "and exit (regenerates resources/scenarios/default.json)."),
        QStringLiteral("FILE"));
    const QCommandLineOption importOpt(
        QStringLiteral("import"),
        QStringLiteral(
            "Import FILE after loading the scenario (repeatable): a Hugging Face config.json, "
            "nccl-tests "
            "output, a loss log or a load trace; applied before --screenshot / --export-charts "
            "(a dense model config becomes the ML-for-ML foreground job)."),
        QStringLiteral("FILE"));
    parser.addOption(importOpt);
    parser.addOption(writeDefault);
    parser.addOption(benchGui);
    parser.addOption(json);
    parser.addOption(moves);
    parser.addOption(preset);
    parser.addOption(screenshot);
    parser.addOption(tab);
    parser.addOption(size);
    parser.addOption(page);
    parser.addOption(exportCharts);
    // QCommandLineParser::process would print --help / --version and exit itself, whatever the
    // write did: print them here and check the write (a full disk exits 1 with the reason).
    // --help-all (which adds Qt's own options) is left to process, with the check at exit.
    if (parser.parse(app.arguments())) {
        if (parser.isSet(version) || parser.isSet(help)) {
            const QByteArray text =
                (parser.isSet(version) ? QApplication::applicationName() + QLatin1Char(' ') +
                                             QApplication::applicationVersion() + QLatin1Char('\n')
                                       : parser.helpText())
                    .toLocal8Bit();
            return tandem::fileio::writeStandardOutput("tandem", text.constData(),
                                                       static_cast<unsigned long>(text.size()), 0);
        }
        if (parser.isSet(QStringLiteral("help-all")))
            std::atexit([] {
                const int code = tandem::fileio::finishStandardOutput("tandem", 0);
                if (code != 0) std::_Exit(code);
            });
    }
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    const QString scenario = args.isEmpty() ? QString() : args.front();
    const QStringList imports = parser.values(importOpt);

    int presetIndex = -1;
    if (parser.isSet(preset)) {
        const QString id = parser.value(preset);
        presetIndex = id == QLatin1String("all") ? -2 : tandem::ui::presetIndex(id);
        if (presetIndex == -1 || (presetIndex == -2 && !parser.isSet(exportCharts))) {
            QStringList ids;
            for (const tandem::ui::Preset& p : tandem::ui::allPresets()) ids << p.id;
            if (parser.isSet(exportCharts)) ids << QStringLiteral("all");
            std::fprintf(stderr, "unknown preset '%s'; valid ids: %s\n", qPrintable(id),
                         qPrintable(ids.join(QStringLiteral(", "))));
            return 2;
        }
    }
    if (parser.isSet(screenshot)) {
        // A screenshot is a PNG: another suffix would name a file whose content it is not.
        if (QFileInfo(parser.value(screenshot)).suffix().toLower() != QLatin1String("png")) {
            std::fprintf(stderr, "--screenshot %s: the file name must end in .png\n",
                         qPrintable(parser.value(screenshot)));
            return 2;
        }
        QSize sz(1280, 800);
        if (parser.isSet(size)) {
            const QStringList wh = parser.value(size).split(QLatin1Char('x'));
            bool okW = false, okH = false;
            const int w = wh.size() == 2 ? wh[0].toInt(&okW) : 0;
            const int h = wh.size() == 2 ? wh[1].toInt(&okH) : 0;
            // A window larger than a few screens is refused rather than allocated.
            if (!okW || !okH || w < 640 || h < 400 || w > 7680 || h > 4320) {
                std::fprintf(stderr,
                             "--size must be WxH with 640 <= W <= 7680 and 400 <= H <= 4320 "
                             "(got '%s')\n",
                             qPrintable(parser.value(size)));
                return 2;
            }
            sz = QSize(w, h);
        }
        bool okTab = false;
        const int tabIndex = parser.value(tab).toInt(&okTab);
        if (!okTab || tabIndex < -1 || tabIndex > 1) {  // -1: the preset's own workspace
            std::fprintf(stderr,
                         "--tab must be 0 (network x ML knobs) or 1 (MoE sparsity frontier)\n");
            return 2;
        }
        bool okPage = false;
        const int pageIndex = parser.value(page).toInt(&okPage);
        if (!okPage ||
            pageIndex < 0) {  // the upper end depends on the workspace (renderScreenshot)
            std::fprintf(stderr, "--page must be a chart page number >= 0 (got '%s')\n",
                         qPrintable(parser.value(page)));
            return 2;
        }
        return tandem::ui::renderScreenshot(parser.value(screenshot), scenario, tabIndex, sz,
                                            presetIndex, pageIndex, imports);
    }
    if (parser.isSet(writeDefault)) {
        const std::string text = tandem::scenarioToJson(tandem::defaultScenario());
        QString error;
        if (!tandem::fileio::writeFileAtomic(parser.value(writeDefault), text, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return tandem::fileio::outputTargetProblem(parser.value(writeDefault)).isEmpty() ? 1
                                                                                             : 2;
        }
        return 0;
    }
    if (parser.isSet(benchGui))
        return tandem::ui::runGuiBench(sinceMain, parser.isSet(json),
                                       std::max(1, parser.value(moves).toInt()));
    if (parser.isSet(exportCharts))
        return tandem::ui::exportAllCharts(parser.value(exportCharts), scenario, {}, presetIndex,
                                           imports);

    tandem::ui::MainWindow window;
    window.enableRecovery();
    if (presetIndex >= 0)
        window.applyPreset(presetIndex, false);
    else if (!scenario.isEmpty())
        window.openFile(scenario);
    window.show();
    window.offerRecovery();
    for (const QString& path : imports) window.importFile(path);
    return app.exec();
}
