// Helper of tst_recovery: a GUI session (offscreen) that edits its scenario and is then killed or
// exits cleanly, so the test can check what the next start finds.
//   recovery_child DIR SCENARIO kill   -> edit, print "autosaved" after the first recovery write,
//                                         then wait (at most 60 s) to be killed
//   recovery_child DIR SCENARIO clean  -> edit, wait for the autosave, save the scenario, close
//                                         the window (clean exit), print "closed"
// The edit sets mosaic.days to 7. Recovery files go to DIR (never the user's data folder).
#include <QApplication>
#include <QStandardPaths>
#include <QTimer>
#include <cstdio>

#include "ui/shell/main_window.h"
#include "ui/shell/recovery.h"
#include "ui/shell/scenario_document.h"

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const QStringList args = app.arguments();
    if (args.size() != 4) {
        std::fprintf(stderr, "usage: recovery_child DIR SCENARIO kill|clean\n");
        return 2;
    }
    const QString dir = args[1], scenario = args[2], mode = args[3];
    auto* w = new tandem::ui::MainWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->enableRecovery(dir, 200);
    if (!w->openFile(scenario)) return 2;
    w->show();
    QObject::connect(w->recovery(), &tandem::ui::RecoveryAutosaver::written, w,
                     [w, mode, scenario](const QString& file) {
                         std::printf("autosaved %s\n", qPrintable(file));
                         std::fflush(stdout);
                         if (mode == QLatin1String("clean")) {
                             QString error;
                             if (!w->document()->save(scenario, &error))
                                 std::fprintf(stderr, "%s\n", qPrintable(error));
                             w->close();
                         }
                     });
    QObject::connect(&app, &QApplication::lastWindowClosed, [&app]() {
        std::printf("closed\n");
        std::fflush(stdout);
        app.quit();
    });
    tandem::mosaic::Envelope e = *w->document()->scenario().mosaic;
    e.days = 7;
    w->document()->setMosaic(e);
    QTimer::singleShot(60000, &app, [&app]() { app.exit(3); });  // never hang a test run
    return app.exec();
}
