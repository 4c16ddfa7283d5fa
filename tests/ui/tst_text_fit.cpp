// Every page of every preset, rendered offscreen at the window sizes a teacher or an engineer
// uses (1024x768, 1280x800, 1920x1080; run with QT_SCALE_FACTOR=2: 2560x1440 device pixels),
// shows all its text: no elided or clipped title, legend entry, axis tick, bar label or control
// text, no overlapping chart texts, no chart that runs off its window.
#include <QScreen>
#include <QTabWidget>
#include <QtTest>

#include "mlforml/network_workspace.h"
#include "mosaic/moe_workspace.h"
#include "shell/main_window.h"
#include "shell/presets.h"
#include "widgets/collapsible_section.h"
#include "widgets/text_fit.h"

using namespace tandem::ui;

class TextFitTest : public QObject {
    Q_OBJECT
private slots:
    void everyPresetPage_data();
    void everyPresetPage();
};

namespace {
/// Window sizes in device pixels; with a device pixel ratio of 2 the 2560x1440 screen.
QList<QSize> deviceSizes() {
    if (qGuiApp->devicePixelRatio() >= 2) return {QSize(2560, 1440)};
    return {QSize(1024, 768), QSize(1280, 800), QSize(1920, 1080)};
}
}  // namespace

void TextFitTest::everyPresetPage_data() {
    QTest::addColumn<int>("preset");
    QTest::addColumn<QSize>("size");
    const QList<Preset> presets = allPresets();
    for (const QSize& s : deviceSizes())
        for (int i = 0; i < presets.size(); ++i)
            QTest::addRow("%s@%dx%d", qPrintable(presets[i].id), s.width(), s.height()) << i << s;
}

void TextFitTest::everyPresetPage() {
    QFETCH(int, preset);
    QFETCH(QSize, size);
    const qreal dpr = qGuiApp->devicePixelRatio();
    const QSize logical(qRound(size.width() / dpr), qRound(size.height() / dpr));
    MainWindow w;
    w.applyPreset(preset, false);
    const int workspace = allPresets()[preset].workspace;
    w.setCurrentWorkspace(workspace);
    w.resize(logical);
    w.show();
    QVERIFY(w.waitForResults(60000));
    QCOMPARE(w.size(), logical);  // no minimum size forces a larger window than the screen
    QTabWidget* pages = workspace == 1 ? w.moeWorkspace()->pages() : w.networkWorkspace()->pages();
    // The side panel's collapsed sections are opened: their controls must fit the panel too.
    for (CollapsibleSection* section : w.findChildren<CollapsibleSection*>())
        section->setExpanded(true);
    QStringList problems;
    for (int p = 0; p < pages->count(); ++p) {
        if (!pages->isTabVisible(p) || !pages->isTabEnabled(p)) continue;
        pages->setCurrentIndex(p);
        QApplication::processEvents();
        QVERIFY(w.waitForResults(60000));
        QTest::qWait(30);  // texts are fitted after the charts repaint
        for (const QString& why : windowTextProblems(&w))
            problems << QStringLiteral("page %1 \"%2\": %3").arg(p).arg(pages->tabText(p), why);
    }
    problems.removeDuplicates();
    if (!problems.isEmpty()) QFAIL(qPrintable(problems.join(QLatin1Char('\n'))));
}

QTEST_MAIN(TextFitTest)
#include "tst_text_fit.moc"
