// Every page of every preset and of every example scenario, rendered offscreen at the window sizes
// a teacher or an engineer uses (1024x768, 1280x800, 1920x1080; run with QT_SCALE_FACTOR=2:
// 2560x1440 device pixels), shows all its text: no elided or clipped title, legend entry, axis
// title or tick, bar label, table cell or control text, no overlapping chart texts, no chart that
// runs off its window. Checked on what --screenshot saves (the window painted as soon as the
// results are in), both after switching to a page and with the page chosen before the window
// first shows.
#include <QAbstractAxis>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabBar>
#include <QTabWidget>
#include <QtTest>

#include "common/diagnostics.h"
#include "mosaic/hardware.h"
#include "scenario/scenario.h"
#include "test_main.h"
#include "ui/mlforml/fabric_controls.h"
#include "ui/mlforml/loss_curve_view.h"
#include "ui/mlforml/network_controls.h"
#include "ui/mlforml/network_map_view.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mosaic/candidate_table.h"
#include "ui/mosaic/moe_advanced.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/mosaic/optimum_card.h"
#include "ui/mosaic/plan_panel.h"
#include "ui/mosaic/reality_view.h"
#include "ui/mosaic/stage_memory_table.h"
#include "ui/shell/main_window.h"
#include "ui/shell/offscreen.h"
#include "ui/shell/presets.h"
#include "ui/shell/scenario_document.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/collapsible_section.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/text_fit.h"
#include "ui/widgets/workspace_layout.h"

using namespace tandem::ui;

class TextFitTest : public QObject {
    Q_OBJECT
private slots:
    void everyPage_data();
    void everyPage();
    void firstFrame_data();
    void firstFrame();
    void networkPage_data();
    void networkPage();
    void planPage_data();
    void planPage();
    void realityPage_data();
    void realityPage();
    void presentationMode_data();
    void presentationMode();
    void statusLineWhole_data();
    void statusLineWhole();
    void narrowWindowScrollsOnlyDown_data();
    void narrowWindowScrollsOnlyDown();
    void presentationTargetLabelsApart_data();
    void presentationTargetLabelsApart();
    void presentationGrowsTheNetworkDrawing();
    void candidateLayoutShownWhole_data();
    void candidateLayoutShownWhole();
};

namespace {
/// Window sizes in device pixels; with a device pixel ratio of 2 the 2560x1440 screen.
QList<QSize> deviceSizes() {
    if (qGuiApp->devicePixelRatio() >= 2) return {QSize(2560, 1440)};
    return {QSize(1024, 768), QSize(1280, 800), QSize(1920, 1080)};
}

/// What a row opens: a preset id, or the file name of an example scenario in examples/, and the
/// workspace it is shown in.
struct Source {
    QString name;
    int workspace;
};

/// Every preset in its own workspace, and every example scenario in each workspace it has a
/// section for.
QList<Source> sources() {
    QList<Source> out;
    for (const Preset& p : allPresets()) out.append({p.id, p.workspace});
    const QStringList files =
        QDir(QStringLiteral(TANDEM_EXAMPLES)).entryList({QStringLiteral("*.json")}, QDir::Files);
    for (const QString& f : files) {
        tandem::Diagnostics d;
        const auto sc = tandem::loadScenarioFile(
            QDir(QStringLiteral(TANDEM_EXAMPLES)).filePath(f).toStdString(), d);
        if (!sc) qFatal("examples/%s did not load", qPrintable(f));
        if (sc->mlForMl) out.append({f, 0});
        if (sc->mosaic) out.append({f, 1});
    }
    return out;
}

/// Opens `source` in `w` (a preset id or an example file name); false when it does not load.
bool open(MainWindow& w, const QString& source) {
    const QList<Preset> presets = allPresets();
    for (int i = 0; i < presets.size(); ++i)
        if (presets[i].id == source) {
            w.applyPreset(i, false);
            return true;
        }
    tandem::Diagnostics d;
    return w.document()->load(QDir(QStringLiteral(TANDEM_EXAMPLES)).filePath(source), d);
}

QTabWidget* pagesOf(MainWindow& w, int workspace) {
    return workspace == 1 ? w.moeWorkspace()->pages() : w.networkWorkspace()->pages();
}

QWidget* workspaceOf(MainWindow& w, int workspace) {
    return workspace == 1 ? static_cast<QWidget*>(w.moeWorkspace())
                          : static_cast<QWidget*>(w.networkWorkspace());
}

/// The problems of page `page` as --screenshot shows it once the results arrived (grabSettled).
QStringList shownProblems(MainWindow& w, QTabWidget* pages, int page) {
    if (!w.waitForResults(60000)) return {QStringLiteral("timed out waiting for results")};
    grabSettled(&w);
    QStringList out;
    for (const QString& why : windowTextProblems(&w))
        out << QStringLiteral("page %1 \"%2\": %3").arg(page).arg(pages->tabText(page), why);
    return out;
}

/// "page P: W px wide in a view of V px (scrolls sideways)" when page `page` of `pages` is wider
/// than the viewport of `ws`'s pages scroll area, and "page P: NAME scrolls sideways by N" for
/// each visible scroll area on the page (a table, the figures) that does; empty when all fits.
QStringList sidewaysProblems(QWidget* ws, QTabWidget* pages, int page) {
    QStringList out;
    auto* scroll = ws->findChild<QScrollArea*>(QStringLiteral("pagesScroll"));
    if (!scroll) return {QStringLiteral("no pages scroll area")};
    if (pages->width() > scroll->viewport()->width())
        out << QStringLiteral("page %1: %2 px wide in a view of %3 px (scrolls sideways)")
                   .arg(page)
                   .arg(pages->width())
                   .arg(scroll->viewport()->width());
    const auto areas = pages->widget(page)->findChildren<QAbstractScrollArea*>();
    for (const QAbstractScrollArea* a : areas)
        if (a->isVisible() && a->horizontalScrollBar()->maximum() > 0)
            out << QStringLiteral("page %1: %2 \"%3\" scrolls sideways by %4")
                       .arg(page)
                       .arg(QString::fromUtf8(a->metaObject()->className()), a->objectName())
                       .arg(a->horizontalScrollBar()->maximum());
    return out;
}

/// Every problem of `problems` once, one a line.
QString report(QStringList problems) {
    problems.removeDuplicates();
    return problems.join(QLatin1Char('\n'));
}

/// The problems of every visible, enabled page of `pages`, each brought to the front in turn
/// (shownProblems), reported once each, one a line; empty when every page fits.
QString everyPageProblems(MainWindow& w, QTabWidget* pages) {
    QStringList problems;
    for (int p = 0; p < pages->count(); ++p) {
        if (!pages->isTabVisible(p) || !pages->isTabEnabled(p)) continue;
        pages->setCurrentIndex(p);
        problems << shownProblems(w, pages, p);
    }
    return report(problems);
}

/// The small window sizes of the single-page checks (device pixels): 800x600, 1024x768 and
/// 1280x720; with a device pixel ratio of 2 the 2560x1440 screen.
QList<QSize> smallDeviceSizes() {
    if (qGuiApp->devicePixelRatio() >= 2) return {QSize(2560, 1440)};
    return {QSize(800, 600), QSize(1024, 768), QSize(1280, 720)};
}

/// One row per source at `size` (device pixels).
void addRows(const QSize& size) {
    for (const Source& s : sources())
        QTest::addRow("%s@%dx%d@%d", qPrintable(s.name), size.width(), size.height(), s.workspace)
            << s.name << s.workspace << size;
}

QSize logicalSize(const QSize& device) {
    const qreal dpr = qGuiApp->devicePixelRatio();
    return {qRound(device.width() / dpr), qRound(device.height() / dpr)};
}
}  // namespace

void TextFitTest::everyPage_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<int>("workspace");
    QTest::addColumn<QSize>("size");
    for (const QSize& s : deviceSizes()) addRows(s);
}

void TextFitTest::everyPage() {
    QFETCH(QString, source);
    QFETCH(int, workspace);
    QFETCH(QSize, size);
    const QSize logical = logicalSize(size);
    MainWindow w;
    QVERIFY(open(w, source));
    w.setCurrentWorkspace(workspace);
    w.resize(logical);
    w.show();
    QVERIFY(w.waitForResults(60000));
    QCOMPARE(w.size(), logical);  // no minimum size forces a larger window than the screen
    QTabWidget* pages = pagesOf(w, workspace);
    // The side panel's collapsed sections are opened: their controls must fit the panel too.
    for (CollapsibleSection* section : w.findChildren<CollapsibleSection*>())
        section->setExpanded(true);
    const QString problems = everyPageProblems(w, pages);
    if (!problems.isEmpty()) QFAIL(qPrintable(problems));
}

void TextFitTest::firstFrame_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<int>("workspace");
    QTest::addColumn<QSize>("size");
    addRows(deviceSizes().front());
}

void TextFitTest::firstFrame() {
    QFETCH(QString, source);
    QFETCH(int, workspace);
    QFETCH(QSize, size);
    QStringList problems;
    for (int p = 0;; ++p) {
        MainWindow w;
        QVERIFY(open(w, source));
        w.setCurrentWorkspace(workspace);
        QTabWidget* pages = pagesOf(w, workspace);
        if (p >= pages->count()) break;
        if (!pages->isTabVisible(p) || !pages->isTabEnabled(p)) continue;
        pages->setCurrentIndex(p);
        w.resize(logicalSize(size));
        w.show();
        problems << shownProblems(w, pages, p);
    }
    if (!problems.isEmpty()) QFAIL(qPrintable(report(problems)));
}

void TextFitTest::networkPage_data() {
    QTest::addColumn<QString>("topology");
    QTest::addColumn<QSize>("size");
    const QList<QSize> sizes = smallDeviceSizes();
    for (const QSize& size : sizes)
        for (const char* t : {"leaf-spine-4to1", "rail-optimised", "nvl72"})
            QTest::addRow("%s@%dx%d", t, size.width(), size.height())
                << QString::fromLatin1(t) << size;
}

/// The "Network" page of the network workspace on a leaf/spine, a rail-optimised and an NVL72
/// fabric (the leaf/spine example with its topology preset chosen in the panel) at 800x600,
/// 1024x768 and 1280x720, and 2560x1440 at scale factor 2: its drawn texts (leaf names, link
/// figures, "+N more", legend) and its caption fit.
void TextFitTest::networkPage() {
    QFETCH(QString, topology);
    QFETCH(QSize, size);
    MainWindow w;
    QVERIFY(open(w, QStringLiteral("mlforml-fabric-scaling.json")));
    w.setCurrentWorkspace(0);
    QTabWidget* pages = pagesOf(w, 0);
    pages->setCurrentIndex(NetworkWorkspace::kNetworkPage);
    w.resize(logicalSize(size));
    w.show();
    QVERIFY(w.waitForResults(60000));
    FabricControls* f = w.networkWorkspace()->controls()->fabricControls();
    f->topologyBox()->setCurrentIndex(f->topologyBox()->findData(topology));
    QStringList problems = shownProblems(w, pages, NetworkWorkspace::kNetworkPage);
    const NetworkMapView* view = w.networkWorkspace()->networkMapView();
    QVERIFY2(view->map(), qPrintable(view->captionText()));
    QVERIFY(view->isVisible());
    QVERIFY(!view->drawnTexts().isEmpty());
    // The drawing uses the page: its lowest shape or text (the legend) within 10 % of the map
    // area's bottom, not a band at the top with the rest of the page empty.
    const NetworkPicture pic = view->picture();
    qreal lowest = 0;
    for (const auto& b : pic.boxes) lowest = std::max(lowest, b.rect.bottom());
    for (const auto& t : pic.texts) lowest = std::max(lowest, t.needs.bottom());
    const int areaH = view->mapArea().height();
    QVERIFY2(
        lowest >= 0.9 * areaH && lowest <= areaH,
        qPrintable(
            QStringLiteral("drawing ends at %1 px of a %2 px map area").arg(lowest).arg(areaH)));
    if (!problems.isEmpty()) QFAIL(qPrintable(report(problems)));
}

void TextFitTest::realityPage_data() {
    QTest::addColumn<QString>("state");
    QTest::addColumn<QSize>("size");
    const QList<QSize> sizes = smallDeviceSizes();
    for (const QSize& size : sizes)
        for (const char* state : {"plan", "filtered", "error"})
            QTest::addRow("%s@%dx%d", state, size.width(), size.height())
                << QString::fromLatin1(state) << size;
}

/// The "Reality check" page of the MoE workspace (default scenario: its cluster-optimal
/// candidate is the current plan) as shown, with a filter chosen (DGX-H100, fp8) and in the
/// error view, at 800x600, 1024x768 and 1280x720, and 2560x1440 at scale factor 2: the filter
/// boxes, the title, the legend and the caption with the plan's sentence fit.
void TextFitTest::realityPage() {
    QFETCH(QString, state);
    QFETCH(QSize, size);
    MainWindow w;
    w.setCurrentWorkspace(1);
    QTabWidget* pages = pagesOf(w, 1);
    pages->setCurrentIndex(MoeWorkspace::kRealityPage);
    w.resize(logicalSize(size));
    w.show();
    QVERIFY(w.waitForResults(60000));
    RealityView* view = w.moeWorkspace()->realityView();
    QVERIFY(view->report().has_value());
    QVERIFY(view->plan().has_value());
    if (state == QLatin1String("filtered")) {
        view->systemBox()->setCurrentIndex(view->systemBox()->findData(QStringLiteral("DGX-H100")));
        view->precisionBox()->setCurrentIndex(
            view->precisionBox()->findData(QStringLiteral("fp8")));
        QVERIFY(!view->points().isEmpty());
    } else if (state == QLatin1String("error")) {
        view->modeBox()->setCurrentIndex(1);
        QCOMPARE(view->mode(), RealityView::Mode::Error);
    }
    QStringList problems = shownProblems(w, pages, MoeWorkspace::kRealityPage);
    QVERIFY(view->isVisible());
    if (!problems.isEmpty()) QFAIL(qPrintable(report(problems)));
}

void TextFitTest::presentationMode_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<int>("workspace");
    QTest::addColumn<QSize>("size");
    addRows(qGuiApp->devicePixelRatio() >= 2 ? QSize(2560, 1440) : QSize(1280, 720));
}

/// Presentation mode (View > Presentation mode, F5): every chart's title, axis and legend fonts
/// are kPresentationFontScale times their desk size, and every page of every preset and example
/// still shows all its text at 1280x720 (a projector; 2560x1440 at scale factor 2) in a window
/// of that size. Leaving the mode gives the desk fonts back.
void TextFitTest::presentationMode() {
    QFETCH(QString, source);
    QFETCH(int, workspace);
    QFETCH(QSize, size);
    const QSize logical = logicalSize(size);
    MainWindow w;
    struct Off {  // the mode is remembered in QSettings: the next window starts without it
        MainWindow& w;
        ~Off() { w.setPresentationMode(false); }
    } off{w};
    w.setPresentationMode(true);
    QVERIFY(w.presentationMode());
    QVERIFY(open(w, source));
    w.setCurrentWorkspace(workspace);
    w.resize(logical);
    w.show();
    QVERIFY(w.waitForResults(60000));
    QCOMPARE(w.size(), logical);
    for (ChartView* c : w.allCharts()) {
        c->ensureBuilt();
        QCOMPARE(c->chart()->titleFont().pointSizeF(), 11 * kPresentationFontScale);
        QCOMPARE(c->chart()->legend()->font().pointSizeF(), 9 * kPresentationFontScale);
        for (const QAbstractAxis* a : c->chart()->axes())
            QVERIFY2(a->labelsFont().pointSizeF() == 9 * chartAxisFontScale() &&
                         chartAxisFontScale() >= 1.25,
                     qPrintable(QStringLiteral("%1, axis \"%2\": %3 pt")
                                    .arg(c->exportName(), a->titleText())
                                    .arg(a->labelsFont().pointSizeF())));
    }
    QTabWidget* pages = pagesOf(w, workspace);
    const QString problems = everyPageProblems(w, pages);
    if (!problems.isEmpty()) QFAIL(qPrintable(problems));
    w.setPresentationMode(false);
    for (ChartView* c : w.allCharts()) {
        c->ensureBuilt();  // a chart on a page not in front restyles when it is drawn
        QVERIFY2(c->chart()->titleFont().pointSizeF() == 11.0, qPrintable(c->exportName()));
    }
}

void TextFitTest::planPage_data() {
    QTest::addColumn<QString>("hardware");
    for (const std::string& h : tandem::mosaic::hardwareNames())
        QTest::addRow("%s", h.c_str()) << QString::fromStdString(h);
}

/// The MoE workspace's "Plan" page with every shipped hardware (NVL72 racks included) at
/// 800x600, 1024x768 and 1280x720 (with QT_SCALE_FACTOR=2: 2560x1440), for the cluster optimum
/// and an imported model: all its text shown, and nothing on it scrolls sideways (at 800x600 the
/// stage memory table used to, by a column or two; it shortens its long headers there instead).
void TextFitTest::planPage() {
    QFETCH(QString, hardware);
    const QList<QSize> sizes = smallDeviceSizes();
    MainWindow w;
    w.setCurrentWorkspace(1);
    w.resize(logicalSize(sizes.front()));
    w.show();
    QVERIFY(w.waitForResults(60000));
    MoeWorkspace* moe = w.moeWorkspace();
    QComboBox* box = moe->controls()->advanced()->hardware();
    box->setCurrentIndex(box->findData(hardware));
    QCOMPARE(box->currentData().toString(), hardware);
    QVERIFY(w.waitForResults(60000));
    // An imported model adds its subject (the longest name in the list).
    QVERIFY(w.importFile(QStringLiteral(TANDEM_TEST_DATA "/models/Mixtral-8x7B-v0.1.config.json")));
    QVERIFY(w.waitForResults(60000));
    QTabWidget* pages = moe->pages();
    pages->setCurrentIndex(MoeWorkspace::kPlanPage);
    PlanPanel* panel = moe->planPanel();
    QVERIFY(panel->report().has_value());
    QStringList problems;
    for (int subject = 0; subject < panel->subjectBox()->count(); ++subject) {
        panel->showSubject(subject);
        for (const QSize& size : sizes) {
            w.resize(logicalSize(size));
            QCOMPARE(w.size(), logicalSize(size));
            const QStringList found = shownProblems(w, pages, MoeWorkspace::kPlanPage) +
                                      sidewaysProblems(moe, pages, MoeWorkspace::kPlanPage);
            for (const QString& p : found)
                problems << QStringLiteral("%1, %2x%3: %4")
                                .arg(panel->subjectBox()->currentText())
                                .arg(size.width())
                                .arg(size.height())
                                .arg(p);
            // The stage table's short headers are for a narrow page only; where its columns fit
            // it shows its rows and no empty band under them (the room of a scroll bar).
            StageMemoryTable* stages = panel->stageTable();
            int rowsHeight = 0;
            for (int r = 0; r < stages->rowCount(); ++r) rowsHeight += stages->rowHeight(r);
            if (size.width() >= 1024 && stages->shortHeaders())
                problems << QStringLiteral("%1x%2: short stage table headers")
                                .arg(size.width())
                                .arg(size.height());
            if (stages->horizontalHeader()->length() <= stages->viewport()->width() &&
                stages->viewport()->height() != rowsHeight)
                problems << QStringLiteral(
                                "%1x%2: stage table viewport %3 px tall for %4 px of rows")
                                .arg(size.width())
                                .arg(size.height())
                                .arg(stages->viewport()->height())
                                .arg(rowsHeight);
        }
    }
    if (!problems.isEmpty()) QFAIL(qPrintable(problems.join(QLatin1Char('\n'))));
}

void TextFitTest::statusLineWhole_data() {
    QTest::addColumn<int>("workspace");
    QTest::addColumn<QSize>("size");
    // Device pixels; with a device pixel ratio of 2 the 2560x1440 screen.
    const QList<QSize> sizes = qGuiApp->devicePixelRatio() >= 2
                                   ? QList<QSize>{QSize(2560, 1440)}
                                   : QList<QSize>{QSize(800, 600), QSize(1024, 768)};
    for (const QSize& size : sizes)
        for (int workspace : {0, 1})
            QTest::addRow("%d@%dx%d", workspace, size.width(), size.height()) << workspace << size;
}

/// The status line under a workspace's pages is shown whole on every page, also where the pages
/// scroll (it used to scroll with them and was cut at 1024x768 on the MoE frontier page); at
/// 800x600 and 1024x768 (with QT_SCALE_FACTOR=2: 2560x1440).
void TextFitTest::statusLineWhole() {
    QFETCH(int, workspace);
    QFETCH(QSize, size);
    MainWindow w;
    w.setCurrentWorkspace(workspace);
    w.resize(logicalSize(size));
    w.show();
    QVERIFY(w.waitForResults(60000));
    QTabWidget* pages = pagesOf(w, workspace);
    QWidget* ws = workspaceOf(w, workspace);
    auto* status = ws->findChild<QLabel*>(QStringLiteral("workspaceStatus"));
    QVERIFY(status);
    for (int p = 0; p < pages->count(); ++p) {
        if (!pages->isTabVisible(p) || !pages->isTabEnabled(p)) continue;
        pages->setCurrentIndex(p);
        QVERIFY(w.waitForResults(60000));
        grabSettled(&w);
        QVERIFY(!status->text().isEmpty());
        QVERIFY2(status->visibleRegion().boundingRect() == status->rect(),
                 qPrintable(QStringLiteral("page %1: %2 of %3 px of the status line shown")
                                .arg(p)
                                .arg(status->visibleRegion().boundingRect().height())
                                .arg(status->height())));
        QVERIFY(status->height() >= status->heightForWidth(status->width()));
    }
}

void TextFitTest::narrowWindowScrollsOnlyDown_data() { statusLineWhole_data(); }

/// At 800x600 and 1024x768 (with QT_SCALE_FACTOR=2: 2560x1440) every page fits the width the window
/// leaves it: side-by-side charts stack instead of needing a horizontal scroll bar, and every
/// visible tab's title is shown whole in the tab bar (the network workspace's "Network" tab read
/// "Net" behind the bar's scroll buttons); a short title stands for a long one where the full
/// titles do not fit.
void TextFitTest::narrowWindowScrollsOnlyDown() {
    QFETCH(int, workspace);
    QFETCH(QSize, size);
    MainWindow w;
    if (workspace == 0) QVERIFY(open(w, QStringLiteral("mlforml-fabric-scaling.json")));
    w.setCurrentWorkspace(workspace);
    w.resize(logicalSize(size));
    w.show();
    QVERIFY(w.waitForResults(60000));
    QTabWidget* pages = pagesOf(w, workspace);
    QWidget* ws = workspaceOf(w, workspace);
    auto* scroll = ws->findChild<QScrollArea*>(QStringLiteral("pagesScroll"));
    QVERIFY(scroll);
    QStringList problems;
    for (int p = 0; p < pages->count(); ++p) {
        if (!pages->isTabVisible(p) || !pages->isTabEnabled(p)) continue;
        pages->setCurrentIndex(p);
        problems << shownProblems(w, pages, p);
        if (pages->width() > scroll->viewport()->width())
            problems << sidewaysProblems(ws, pages, p).value(0);
        QTabBar* bar = pages->tabBar();
        const QRect shown = bar->visibleRegion().boundingRect();
        for (int t = 0; t < bar->count(); ++t) {
            if (!bar->isTabVisible(t)) continue;
            const QRect r = bar->tabRect(t);
            const QFontMetrics fm(bar->font());
            if (!shown.contains(r) || r.width() < fm.horizontalAdvance(bar->tabText(t)))
                problems << QStringLiteral("page %1: tab \"%2\" not shown whole (%3 of %4 px)")
                                .arg(p)
                                .arg(bar->tabText(t))
                                .arg(shown.intersected(r).width())
                                .arg(r.width());
        }
    }
    QCOMPARE(fullTabText(pages, 0), workspace == 0 ? QStringLiteral("Loss and first crossing")
                                                   : QStringLiteral("Frontier and MFU"));
    problems.removeDuplicates();
    if (!problems.isEmpty()) QFAIL(qPrintable(problems.join(QLatin1Char('\n'))));
}

void TextFitTest::presentationTargetLabelsApart_data() {
    QTest::addColumn<QSize>("size");
    const QList<QSize> sizes = smallDeviceSizes();
    for (const QSize& size : sizes) QTest::addRow("%dx%d", size.width(), size.height()) << size;
}

/// Presentation mode: the loss chart's four target labels ("1.1 x L_min", ...) are each drawn
/// clear of the others (they piled up on close targets at the larger font). chartTextProblems
/// counts the point labels Qt Charts paints.
void TextFitTest::presentationTargetLabelsApart() {
    QFETCH(QSize, size);
    MainWindow w;
    struct Off {
        MainWindow& w;
        ~Off() { w.setPresentationMode(false); }
    } off{w};
    w.setPresentationMode(true);
    w.setCurrentWorkspace(0);
    w.resize(logicalSize(size));
    w.show();
    QVERIFY(w.waitForResults(60000));
    grabSettled(&w);
    LossCurveView* loss = w.networkWorkspace()->lossView();
    QVERIFY(loss->isVisible());
    QCOMPARE(loss->targetLabels().size(), 4);
    const QStringList problems = chartTextProblems(loss);
    if (!problems.isEmpty()) QFAIL(qPrintable(problems.join(QLatin1Char('\n'))));
}

/// Presentation mode enlarges the network drawing's texts by the charts' font factor (they kept
/// the desk size), and the enlarged drawing still fits its page.
void TextFitTest::presentationGrowsTheNetworkDrawing() {
    MainWindow w;
    struct Off {
        MainWindow& w;
        ~Off() { w.setPresentationMode(false); }
    } off{w};
    QVERIFY(open(w, QStringLiteral("mlforml-fabric-scaling.json")));
    w.setCurrentWorkspace(0);
    QTabWidget* pages = pagesOf(w, 0);
    pages->setCurrentIndex(NetworkWorkspace::kNetworkPage);
    w.resize(logicalSize(qGuiApp->devicePixelRatio() >= 2 ? QSize(2560, 1440) : QSize(1280, 720)));
    w.show();
    QVERIFY(w.waitForResults(60000));
    grabSettled(&w);
    const NetworkMapView* view = w.networkWorkspace()->networkMapView();
    QVERIFY(!view->drawnTexts().isEmpty());
    const qreal desk = view->drawnTexts().front().needs.height();
    w.setPresentationMode(true);
    QStringList problems = shownProblems(w, pages, NetworkWorkspace::kNetworkPage);
    QVERIFY(!view->drawnTexts().isEmpty());
    const qreal presenting = view->drawnTexts().front().needs.height();
    QVERIFY2(presenting >= desk * 1.3,
             qPrintable(QStringLiteral("text height %1 px at the desk, %2 px presenting")
                            .arg(desk)
                            .arg(presenting)));
    QCOMPARE(view->drawingFont().pointSizeF(), view->font().pointSizeF() * kPresentationFontScale);
    problems.removeDuplicates();
    if (!problems.isEmpty()) QFAIL(qPrintable(problems.join(QLatin1Char('\n'))));
}

void TextFitTest::candidateLayoutShownWhole_data() {
    QTest::addColumn<QSize>("size");
    for (const QSize& size : smallDeviceSizes())
        if (logicalSize(size).width() >= 1024)
            QTest::addRow("%dx%d", size.width(), size.height()) << size;
}

/// The candidate table of the MoE workspace (default scenario) at 1024x768 and 1280x720, and
/// 2560x1440 at scale factor 2: the Layout column is shown whole without scrolling sideways
/// (the table scrolls for the geometry columns after it).
void TextFitTest::candidateLayoutShownWhole() {
    QFETCH(QSize, size);
    MainWindow w;
    w.setCurrentWorkspace(1);
    QTabWidget* pages = pagesOf(w, 1);
    CandidateTable* table = w.moeWorkspace()->candidateTable();
    int page = -1;
    for (int i = 0; i < pages->count(); ++i)
        if (pages->widget(i)->isAncestorOf(table)) page = i;
    QVERIFY(page >= 0);
    pages->setCurrentIndex(page);
    w.resize(logicalSize(size));
    w.show();
    QStringList problems = shownProblems(w, pages, page);
    QVERIFY(table->isVisible());
    QVERIFY(table->model()->rowCount() > 0);
    int layout = -1;
    for (int c = 0; c < table->model()->columnCount(); ++c)
        if (table->model()->headerData(c, Qt::Horizontal).toString() == QLatin1String("Layout"))
            layout = c;
    QVERIFY(layout >= 0);
    QCOMPARE(table->horizontalScrollBar()->value(), 0);
    const int left = table->columnViewportPosition(layout);
    const int right = left + table->columnWidth(layout);
    QVERIFY2(left >= 0 && right <= table->viewport()->width(),
             qPrintable(QStringLiteral("Layout column at %1..%2 px of a %3 px wide view")
                            .arg(left)
                            .arg(right)
                            .arg(table->viewport()->width())));
    // Its cells are as wide as their text (nothing elided).
    const QFontMetrics fm(table->font());
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        const QString text = table->model()->index(r, layout).data().toString();
        QVERIFY2(fm.horizontalAdvance(text) <= table->columnWidth(layout), qPrintable(text));
    }
    if (!problems.isEmpty()) QFAIL(qPrintable(report(problems)));
}

TANDEM_TEST_MAIN(TextFitTest)
#include "tst_text_fit.moc"
