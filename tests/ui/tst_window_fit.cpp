// The main window against the screen: its first frame (at most 90 % of the available area,
// centred), a saved frame brought back onto the screen, every text shown whole on 800x600,
// 1024x768 and 1920x1080 screens, and no chart text elided at the default 1280x800 window.
#include <QApplication>
#include <QProcess>
#include <QScreen>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/shell/main_window.h"
#include "ui/shell/offscreen.h"
#include "ui/shell/presets.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/text_fit.h"

using namespace tandem::ui;

namespace {
QString rectText(const QRect& r) {
    return QStringLiteral("%1x%2+%3+%4").arg(r.width()).arg(r.height()).arg(r.x()).arg(r.y());
}
}  // namespace

class TstWindowFit : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// The first window fits the screen's available area: 1280 x 800 where there is room, else
    /// 90 % of the available width and height (a 1024x768 laptop, an 800x600 projector), never
    /// below the window's minimum size nor beyond the screen, centred.
    void firstWindowFrame_data() {
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QSize>("minimum");
        QTest::addColumn<QSize>("size");
        QTest::newRow("1920x1080")
            << QRect(0, 0, 1920, 1080) << QSize(600, 400) << QSize(1280, 800);
        QTest::newRow("1024x768") << QRect(0, 0, 1024, 768) << QSize(600, 400) << QSize(921, 691);
        QTest::newRow("1024x768, panel at the top")
            << QRect(0, 32, 1024, 736) << QSize(600, 400) << QSize(921, 662);
        QTest::newRow("800x600") << QRect(0, 0, 800, 600) << QSize(600, 400) << QSize(720, 540);
        QTest::newRow("800x600 right of a 1920x1080 screen")
            << QRect(1920, 0, 800, 600) << QSize(600, 400) << QSize(720, 540);
        QTest::newRow("minimum above 90 %")
            << QRect(0, 0, 800, 600) << QSize(780, 560) << QSize(780, 560);
        QTest::newRow("minimum above the screen")
            << QRect(0, 0, 800, 600) << QSize(900, 700) << QSize(800, 600);
    }
    void firstWindowFrame() {
        QFETCH(QRect, available);
        QFETCH(QSize, minimum);
        QFETCH(QSize, size);
        const QRect frame = MainWindow::firstWindowFrame(available, minimum);
        QCOMPARE(frame.size(), size);
        QVERIFY2(available.contains(frame), qPrintable(rectText(frame)));
        // Centred: the gaps left and right (above and below) differ by at most a pixel.
        QVERIFY(std::abs((frame.left() - available.left()) - (available.right() - frame.right())) <=
                1);
        QVERIFY(std::abs((frame.top() - available.top()) - (available.bottom() - frame.bottom())) <=
                1);
    }

    /// A saved frame that does not lie on the screen any more (saved on a larger monitor, or on
    /// one no longer connected) is shrunk to the screen and moved the least distance onto it; a
    /// frame that lies on the screen stays where it is.
    void frameOnScreen_data() {
        QTest::addColumn<QRect>("frame");
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QRect>("placed");
        const QRect screen(0, 0, 1024, 768);
        QTest::newRow("inside") << QRect(100, 50, 700, 500) << screen << QRect(100, 50, 700, 500);
        QTest::newRow("monitor to the right unplugged")
            << QRect(2100, 200, 1200, 700) << screen << QRect(0, 68, 1024, 700);
        QTest::newRow("monitor above-left unplugged")
            << QRect(-1500, -900, 700, 500) << screen << QRect(0, 0, 700, 500);
        QTest::newRow("partly below the screen")
            << QRect(200, 600, 700, 500) << screen << QRect(200, 268, 700, 500);
        QTest::newRow("larger than the screen")
            << QRect(0, 0, 1280, 800) << screen << QRect(0, 0, 1024, 768);
        QTest::newRow("onto a screen that does not start at 0")
            << QRect(0, 0, 1280, 800) << QRect(1920, 24, 800, 576) << QRect(1920, 24, 800, 576);
    }
    void frameOnScreen() {
        QFETCH(QRect, frame);
        QFETCH(QRect, available);
        QFETCH(QRect, placed);
        QCOMPARE(MainWindow::frameOnScreen(frame, available), placed);
    }

    /// The first window (no saved geometry) on this test's screen: its frame lies inside the
    /// screen's available area, it has the size firstWindowFrame gives, its minimum size fits the
    /// screen, and every text of both workspaces' first pages is shown whole (windowTextProblems).
    /// firstWindowOnEachScreen runs it on 800x600, 1024x768 and 1920x1080 screens.
    void firstWindowFitsTheScreen() {
        QSettings().remove(QStringLiteral("window/geometry"));
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QRect available = w.screen()->availableGeometry();
        qInfo("screen %dx%d, window %dx%d", available.width(), available.height(), w.width(),
              w.height());
        QVERIFY2(
            available.contains(w.frameGeometry()),
            qPrintable(rectText(w.frameGeometry()) + QStringLiteral(" on ") + rectText(available)));
        const QSize frame = w.frameGeometry().size() - w.size();
        QVERIFY(w.minimumSizeHint().width() + frame.width() <= available.width());
        QVERIFY(w.minimumSizeHint().height() + frame.height() <= available.height());
        const QSize preferred = MainWindow::preferredWindowSize();
        QCOMPARE(w.width() <= preferred.width(), true);
        QCOMPARE(w.height() <= preferred.height(), true);
        QVERIFY(w.frameGeometry().width() <=
                std::max(available.width() * 9 / 10, w.minimumSizeHint().width() + frame.width()));
        QVERIFY(
            w.frameGeometry().height() <=
            std::max(available.height() * 9 / 10, w.minimumSizeHint().height() + frame.height()));
        QStringList problems;
        for (int workspace : {0, 1}) {
            w.setCurrentWorkspace(workspace);
            QVERIFY(w.waitForResults(60000));
            grabSettled(&w);
            problems << windowTextProblems(&w);
        }
        problems.removeDuplicates();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    /// firstWindowFitsTheScreen in a tandem_tests_gui of its own on an offscreen screen of each
    /// size (the offscreen platform's configfile).
    void firstWindowOnEachScreen_data() {
        QTest::addColumn<QSize>("screen");
        QTest::newRow("800x600") << QSize(800, 600);
        QTest::newRow("1024x768") << QSize(1024, 768);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void firstWindowOnEachScreen() {
        QFETCH(QSize, screen);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString config = dir.filePath(QStringLiteral("screen.json"));
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral(R"({"screens": [{"name": "test", "x": 0, "y": 0, "width": %1,)"
                               R"( "height": %2, "logicalDpi": 96, "logicalBaseDpi": 96,)"
                               R"( "dpr": 1}]})")
                    .arg(screen.width())
                    .arg(screen.height())
                    .toUtf8());
        f.close();
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"),
                   QStringLiteral("offscreen:configfile=") + config);
        env.remove(QStringLiteral("QT_SCALE_FACTOR"));
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QCoreApplication::applicationFilePath(),
                {QStringLiteral("tst_window_fit"), QStringLiteral("firstWindowFitsTheScreen")});
        QVERIFY(p.waitForFinished(120000));
        const QString out = QString::fromUtf8(p.readAll());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(out));
        const QString seen =
            QStringLiteral("screen %1x%2,").arg(screen.width()).arg(screen.height());
        QVERIFY2(out.contains(seen), qPrintable(out));  // the child saw the screen asked for
    }

    /// A geometry saved on another monitor is brought back onto this one when the window opens
    /// again: its frame lies inside the available area; one that fits keeps its size.
    void savedGeometryOffScreenIsMovedBack_data() {
        QTest::addColumn<QPoint>("offset");  // from the available area's top left
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("keepsSize");
        QTest::newRow("monitor to the right") << QPoint(2500, 100) << QSize(700, 500) << true;
        QTest::newRow("monitor above-left") << QPoint(-1800, -1200) << QSize(700, 500) << true;
        QTest::newRow("half below the screen") << QPoint(60, 400) << QSize(700, 500) << true;
        QTest::newRow("larger monitor") << QPoint(0, 0) << QSize(1280, 800) << false;
    }
    void savedGeometryOffScreenIsMovedBack() {
        QFETCH(QPoint, offset);
        QFETCH(QSize, size);
        QFETCH(bool, keepsSize);
        QByteArray saved;
        QRect available;
        {
            MainWindow before;
            before.show();
            QVERIFY(QTest::qWaitForWindowExposed(&before));
            available = before.screen()->availableGeometry();
            before.setGeometry(QRect(available.topLeft() + offset, size));
            QApplication::processEvents();
            QCOMPARE(before.size(), size);
            saved = before.saveGeometry();
        }
        QSettings().setValue(QStringLiteral("window/geometry"), saved);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSettings().remove(QStringLiteral("window/geometry"));
        QVERIFY2(
            available.contains(w.frameGeometry()),
            qPrintable(rectText(w.frameGeometry()) + QStringLiteral(" on ") + rectText(available)));
        QCOMPARE(w.size() == size, keepsSize);
    }

    /// At a 1280x800 window (the first window on a large screen) no chart text on the pages
    /// users open first is elided
    /// (default scenario: both workspaces' first two pages and the reality check; Fig. 3's loss
    /// page).
    void defaultWindowElidesNoChartText_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("tab");
        QTest::addColumn<int>("page");
        QTest::addColumn<int>("minCharts");
        QTest::newRow("network loss") << QString() << 0 << 0 << 2;
        QTest::newRow("network knobs and load") << QString() << 0 << 1 << 2;
        QTest::newRow("network sweep") << QString() << 0 << 2 << 2;
        QTest::newRow("moe frontier") << QString() << 1 << 0 << 2;
        QTest::newRow("moe candidates and layouts") << QString() << 1 << 1 << 2;
        QTest::newRow("moe reality check") << QString() << 1 << 3 << 1;
        QTest::newRow("fig3 loss") << QStringLiteral("mlforml-fig3") << 0 << 0 << 2;
    }
    void defaultWindowElidesNoChartText() {
        QFETCH(QString, preset);
        QFETCH(int, tab);
        QFETCH(int, page);
        QFETCH(int, minCharts);
        MainWindow w;
        if (!preset.isEmpty()) {
            const QList<Preset> presets = allPresets();
            for (int i = 0; i < presets.size(); ++i)
                if (presets[i].id == preset) w.applyPreset(i, false);
        }
        w.setCurrentWorkspace(tab);
        QTabWidget* pages = tab == 1 ? w.moeWorkspace()->pages() : w.networkWorkspace()->pages();
        pages->setCurrentIndex(page);
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.waitForResults(60000));
        QTest::qWait(30);  // texts are fitted after the charts repaint
        int charts = 0;
        QList<ChartView*> views = pages->currentWidget()->findChildren<ChartView*>();
        if (auto* page = qobject_cast<ChartView*>(pages->currentWidget()))
            views.prepend(page);  // a one-chart page
        for (ChartView* v : views) {
            if (!v->isVisible()) continue;
            ++charts;
            const QStringList elided = chartTextProblems(v);
            QVERIFY2(elided.isEmpty(), qPrintable(v->chart()->title() + QStringLiteral(": ") +
                                                  elided.join(QStringLiteral(" | "))));
        }
        QVERIFY(charts >= minCharts);
    }
};

TANDEM_TEST_MAIN(TstWindowFit)
#include "tst_window_fit.moc"
