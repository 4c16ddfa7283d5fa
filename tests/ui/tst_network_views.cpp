// The network workspace's detail views (offscreen): knob timeline, exposed DP share and
// background load over time, first crossing against N; each changes when its input changes;
// the Advanced controls reach the engine or say why they are disabled.
#include <QBarCategoryAxis>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLineSeries>
#include <QProcess>
#include <QScatterSeries>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include "common/diagnostics.h"
#include "common/number_format.h"
#include "mlforml/network_map.h"
#include "test_main.h"
#include "ui/mlforml/background_load_view.h"
#include "ui/mlforml/combo_timeline_view.h"
#include "ui/mlforml/dp_share_time_view.h"
#include "ui/mlforml/fabric_controls.h"
#include "ui/mlforml/first_crossing_view.h"
#include "ui/mlforml/loss_curve_view.h"
#include "ui/mlforml/network_advanced.h"
#include "ui/mlforml/network_controls.h"
#include "ui/mlforml/network_map_view.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mlforml/sweep_crossing_view.h"
#include "ui/mlforml/sweep_view.h"
#include "ui/shell/main_window.h"
#include "ui/shell/offscreen.h"
#include "ui/shell/presets.h"
#include "ui/shell/scenario_document.h"
#include "ui/shell/scenario_undo.h"
#include "ui/widgets/collapsible_section.h"
#include "ui/widgets/labeled_slider.h"
#include "ui/widgets/palette.h"

using namespace tandem::ui;

namespace {
/// The rows of condition `n` of links.csv that `tandem-cli run --out` writes for the scenario
/// `w` holds now, by link name (each row's cells); empty with a failure message in `why`.
QMap<QString, QStringList> cliLinkRows(MainWindow& w, int n, QString& why) {
    QTemporaryDir dir;
    const QString scenario = dir.filePath(QStringLiteral("s.json"));
    if (!w.saveFile(scenario))
        return why = QStringLiteral("save failed"), QMap<QString, QStringList>{};
    QProcess cli;
    cli.start(QStringLiteral(TANDEM_CLI), {QStringLiteral("run"), scenario, QStringLiteral("--out"),
                                           dir.filePath(QStringLiteral("out"))});
    if (!cli.waitForFinished(120000) || cli.exitCode() != 0)
        return why = QString::fromUtf8(cli.readAllStandardError()), QMap<QString, QStringList>{};
    QFile f(dir.filePath(QStringLiteral("out/links.csv")));
    if (!f.open(QIODevice::ReadOnly))
        return why = QStringLiteral("no links.csv"), QMap<QString, QStringList>{};
    QMap<QString, QStringList> rows;
    for (const QString& line :
         QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts).mid(1)) {
        const QStringList cells = line.split(QLatin1Char(','));
        if (cells.value(0) == QString::number(n)) rows.insert(cells.value(1), cells);
    }
    if (rows.isEmpty()) why = QStringLiteral("links.csv has no row of N = %1").arg(n);
    return rows;
}

/// Every link figure the network page holds (the busiest, every leaf's, the NICs) against the
/// same link's row of links.csv, cell for cell as that file writes it, and the bottleneck as
/// the busiest link of the file, named with its figures in the caption. Empty when all agree.
QString compareWithLinksCsv(MainWindow& w) {
    const NetworkMapView* view = w.networkWorkspace()->networkMapView();
    if (!view->map()) return QStringLiteral("no map shown: ") + view->captionText();
    const tandem::mlforml::NetworkMap& map = *view->map();
    QString why;
    const QMap<QString, QStringList> rows = cliLinkRows(w, map.backgroundJobs, why);
    if (rows.isEmpty()) return why;
    std::vector<tandem::fabric::LinkUsage> shown = map.busiest;
    shown.insert(shown.end(), map.otherLinks.begin(), map.otherLinks.end());
    for (const auto& g : map.groups)
        for (const auto& l : g.leaves) {
            shown.insert(shown.end(), l.up.begin(), l.up.end());
            shown.insert(shown.end(), l.down.begin(), l.down.end());
        }
    auto cell = [](double v) { return QString::fromStdString(tandem::csvNumber(v)); };
    for (const auto& u : shown) {
        const QStringList row = rows.value(QString::fromStdString(u.link));
        const QStringList mine{cell(u.capacityBytesPerS / 1e9), cell(u.observed_s),
                               cell(u.meanUtilisation()), cell(u.peakUtilisation),
                               cell(u.saturated_s)};
        if (row.mid(2, 5) != mine)
            return QStringLiteral("%1: view %2, links.csv %3")
                .arg(QString::fromStdString(u.link), mine.join(QLatin1Char(',')),
                     row.join(QLatin1Char(',')));
    }
    double most = -1;
    for (const QStringList& row : rows) most = std::max(most, row.value(4).toDouble());
    const tandem::fabric::LinkUsage& b = map.busiest.front();
    if (cell(b.meanUtilisation()) != cell(most))
        return QStringLiteral("bottleneck %1 at %2, links.csv's busiest at %3")
            .arg(QString::fromStdString(b.link))
            .arg(b.meanUtilisation())
            .arg(most);
    const QString caption = view->captionText();
    for (const QString& part : {QStringLiteral("Bottleneck: ") + QString::fromStdString(b.link),
                                QStringLiteral("mean ") + percentText(b.meanUtilisation()),
                                QStringLiteral(" s at 100 %")})
        if (!caption.contains(part))
            return QStringLiteral("caption lacks \"%1\": %2").arg(part, caption);
    return QString();
}

/// The texts drawn on the network page.
QStringList drawnWords(const NetworkMapView* view) {
    QStringList out;
    for (const DrawnText& t : view->drawnTexts()) out << t.text;
    return out;
}

/// Opens examples/mlforml-fabric-scaling.json (8 leaves of 16 nodes, 4:1, every job spread)
/// on the network page.
void openFabricExample(MainWindow& w) {
    tandem::Diagnostics d;
    QVERIFY(w.document()->load(QDir(QStringLiteral(TANDEM_EXAMPLES))
                                   .filePath(QStringLiteral("mlforml-fabric-scaling.json")),
                               d));
    w.networkWorkspace()->pages()->setCurrentIndex(NetworkWorkspace::kNetworkPage);
    w.resize(1280, 800);
    w.show();
    QVERIFY(w.waitForResults(60000));
}
}  // namespace

class TstNetworkViews : public QObject {
    Q_OBJECT
private slots:
    /// The first-crossing chart's CSV is one row per policy and target (header with the unit of
    /// each quantity) and equals the rows of `tandem-cli run`'s mlforml_first_crossing.csv for
    /// the shown N; its bar labels use the value axis' unit only.
    void firstCrossingCsvEqualsTheCli() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow w;
        w.applyPreset(presetIndex(QStringLiteral("mlforml-fig2c")), false);
        w.show();
        QVERIFY(w.waitForResults(60000));
        const QString scenario = dir.filePath(QStringLiteral("s.json"));
        QVERIFY(w.saveFile(scenario));
        QProcess cli;
        cli.start(QStringLiteral(TANDEM_CLI),
                  {QStringLiteral("run"), scenario, QStringLiteral("--out"),
                   dir.filePath(QStringLiteral("out"))});
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        QFile f(dir.filePath(QStringLiteral("out/mlforml_first_crossing.csv")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList cliLines =
            QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        FirstCrossingView* v = w.networkWorkspace()->firstCrossingView();
        const QStringList lines = v->csv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.front(), cliLines.front());
        QCOMPARE(lines.front(),
                 QStringLiteral("background_jobs,policy,target_factor_x_Lmin,target_loss_nats,"
                                "first_crossing_s,ratio_to_joint"));  // units in the header
        const int n =
            w.networkWorkspace()->findChild<NetworkControls*>()->backgroundSlider()->value();
        QStringList expected;
        for (const QString& l : cliLines.mid(1))
            if (l.startsWith(QString::number(n) + QLatin1Char(','))) expected << l;
        QCOMPARE(lines.size() - 1, 5 * 4);  // five policies x four targets
        QCOMPARE(lines.mid(1), expected);
        // Bar labels: every time in the axis' unit.
        QBarCategoryAxis* cats = nullptr;
        for (QAbstractAxis* a : v->chart()->axes())
            if (auto* c = qobject_cast<QBarCategoryAxis*>(a)) cats = c;
        QVERIFY(cats);
        const QString axisTitle = v->chart()->axes(Qt::Horizontal).front()->titleText();
        const QString unit = axisTitle.startsWith(QLatin1String("hours")) ? QStringLiteral(" h")
                             : axisTitle.startsWith(QLatin1String("minutes"))
                                 ? QStringLiteral(" min")
                                 : QStringLiteral(" s");
        // Every target line carries its factor.
        QStringList targets;
        for (const QString& l : expected)
            if (l.section(QLatin1Char(','), 1, 1) == QLatin1String("Joint"))
                targets << QStringLiteral("%1 x L_min").arg(l.section(QLatin1Char(','), 2, 2));
        QCOMPARE(w.networkWorkspace()->lossView()->targetLabels(), targets);
        for (const QString& c : cats->categories())
            if (!c.contains(QLatin1String("not reached")))
                QVERIFY2(c.contains(unit + QLatin1Char(' ')),
                         qPrintable(c + QStringLiteral(" vs ") + axisTitle));
    }

    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void detailViewsFollowTheBackgroundSlider() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        const QStringList rows = ws->timelineView()->rows();
        QVERIFY(rows.contains(QStringLiteral("Joint")));
        QVERIFY(rows.contains(QStringLiteral("Decoupled")));
        QVERIFY(!rows.contains(QStringLiteral("Static")));  // Static never switches
        const QString timelineBefore = ws->timelineView()->csv();
        const double loadBefore = ws->loadView()->meanGBps();
        const double staticShareBefore = ws->dpShareTimeView()->meanShare(QStringLiteral("Static"));
        QVERIFY(loadBefore > 0);
        QVERIFY(staticShareBefore > 0 && staticShareBefore <= 100);
        // Static stays in GA4-BF16, which exposes more DP time than Joint's choices.
        QVERIFY(ws->dpShareTimeView()->meanShare(QStringLiteral("Joint")) < staticShareBefore);

        LabeledSlider* n = ws->controls()->backgroundSlider();
        n->slider()->setValue(n->value() + 8);  // 4 -> 12 co-running jobs
        QVERIFY(w.waitForResults(60000));
        QVERIFY(ws->loadView()->meanGBps() > loadBefore);
        QVERIFY(ws->dpShareTimeView()->meanShare(QStringLiteral("Static")) > staticShareBefore);
        QVERIFY(ws->timelineView()->csv() != timelineBefore);
    }

    /// The crosshair on the loss chart: the value of each visible policy at the cursor's time is
    /// its curve interpolated between the two neighbouring points; a click pins the table.
    void lossHoverReadsEveryPolicyAtTheCursor() {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.waitForResults(60000));
        LossCurveView* view = w.networkWorkspace()->lossView();
        int checked = 0;
        const auto all = view->chart()->series();
        for (QAbstractSeries* s : all) {
            auto* line = qobject_cast<QLineSeries*>(s);
            if (!line || !line->isVisible() || line->name().isEmpty() || line->count() < 3)
                continue;
            const QPointF a = line->at(1), b = line->at(2);
            const double x = a.x() + 0.25 * (b.x() - a.x());
            const double expected = a.y() + 0.25 * (b.y() - a.y());
            const HoverTable t = view->hoverAtX(x);
            bool found = false;
            for (const HoverRow& r : t.rows)
                if (r.name == line->name()) {
                    QCOMPARE(r.value, QString::number(expected, 'g', 4));
                    found = true;
                }
            QVERIFY2(found, qPrintable(line->name()));
            QVERIFY(t.heading.endsWith(QString::number(x, 'g', 4)));
            ++checked;
        }
        QVERIFY(checked >= 2);
        // A click inside the plot pins what the crosshair shows there; a second click unpins.
        const QRectF plot = view->chart()->plotArea();
        const QPoint at = view->mapFromScene(view->chart()->mapToScene(plot.center()));
        const HoverTable there = view->hoverAt(at);
        QVERIFY(!there.rows.isEmpty());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(view->pinnedHover().text(), there.text());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        QVERIFY(view->pinnedHover().isEmpty());
    }

    /// The first-crossing bars: coincident policies share one bar named as the loss legend names
    /// them; a pinned result's times stay on the labels after a change.
    void firstCrossingBarsFollowTheLegendAndThePin() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        const QList<int> sameAs = ws->lossView()->coincidences();
        const QStringList policies = ws->lossView()->policies();
        int merged = 0;
        for (int k : sameAs) merged += k >= 0 ? 1 : 0;
        QVERIFY(merged >= 1);  // Joint = Knob-Precision in scenario 1
        const QStringList labels = ws->firstCrossingView()->barLabels();
        QCOMPARE(labels.size(), policies.size() - merged);
        for (int i = 0; i < sameAs.size(); ++i) {
            if (sameAs[i] < 0) continue;
            const QString group = policies[sameAs[i]] + QStringLiteral(" = ") + policies[i];
            bool named = false;
            for (const QString& l : labels) named = named || l.startsWith(group);
            QVERIFY2(named, qPrintable(group + QStringLiteral(" in ") +
                                       labels.join(QStringLiteral(" | "))));
            for (const QString& l : labels) QVERIFY(!l.startsWith(policies[i] + QLatin1Char(' ')));
        }
        w.pinForComparison();
        const QStringList pinnedSame = ws->firstCrossingView()->barLabels();
        // The pinned marks show on every bar, the black Static bar included: an opaque fill that
        // stands apart from each bar's colour (or an outline that does).
        const QScatterSeries* marks = ws->firstCrossingView()->pinMarks();
        QVERIFY(marks->count() >= 1);
        QCOMPARE(marks->color().alpha(), 255);
        QVERIFY(policies.contains(QStringLiteral("Static")));
        for (const QString& policy : policies) {
            const QColor bar = policyColor(policy, currentTheme());
            QVERIFY2(marks->color() != bar, qPrintable(policy));
            const int contrast =
                std::max(std::abs(marks->color().lightness() - bar.lightness()),
                         std::abs(marks->borderColor().lightness() - bar.lightness()));
            QVERIFY2(contrast >= 100, qPrintable(policy + QStringLiteral(" %1").arg(contrast)));
        }
        for (const QString& l : pinnedSame)
            QVERIFY2(l.contains(QStringLiteral(" pinned ")), qPrintable(l));
        LabeledSlider* n = ws->controls()->backgroundSlider();
        n->slider()->setValue(n->value() + 8);
        QVERIFY(w.waitForResults(60000));
        const QStringList after = ws->firstCrossingView()->barLabels();
        QCOMPARE(after.size(), pinnedSame.size());
        // The pinned part of each label is the time before the change (in the axis' unit, which
        // may change with the new times: compare seconds, to the labels' 2 decimals).
        const auto seconds = [](const QString& label) {
            const QString t = label.section(QStringLiteral(" pinned "), 1);
            const double v = t.section(QLatin1Char(' '), 0, 0).toDouble();
            const QString u = t.section(QLatin1Char(' '), 1, 1);
            return v * (u == QLatin1String("h")     ? 3600
                        : u == QLatin1String("min") ? 60
                        : u == QLatin1String("d")   ? 86400
                                                    : 1);
        };
        for (int i = 0; i < after.size(); ++i) {
            QVERIFY(seconds(pinnedSame[i]) > 0);
            QVERIFY2(std::abs(seconds(after[i]) / seconds(pinnedSame[i]) - 1) < 1e-2,
                     qPrintable(after[i] + QStringLiteral(" vs ") + pinnedSame[i]));
        }
        QVERIFY(after != pinnedSame);
        w.clearComparison();
        for (const QString& l : ws->firstCrossingView()->barLabels())
            QVERIFY(!l.contains(QStringLiteral("pinned")));
    }

    /// The fabric rows: a topology preset replaces the scenario's topology, oversubscription and
    /// placement apply on a leaf/spine fabric only (disabled, with the reason, on the shared one),
    /// and the engine runs on the chosen fabric.
    void fabricRowsWriteTopologyAndPlacement() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkControls* c = w.networkWorkspace()->controls();
        FabricControls* f = c->fabricControls();
        QCOMPARE(f->topologyBox()->currentData().toString(), QStringLiteral("paper-fabric"));
        QVERIFY(!f->oversubscriptionBox()->isEnabled());
        QVERIFY(f->oversubscriptionBox()->toolTip().startsWith(QStringLiteral("Disabled: ")));
        QVERIFY(!f->foregroundPlacementBox()->isEnabled());
        QVERIFY(c->fabricCapacityBox()->isEnabled());
        f->topologyBox()->setCurrentIndex(
            f->topologyBox()->findData(QStringLiteral("leaf-spine-2to1")));
        QVERIFY(f->oversubscriptionBox()->isEnabled());
        QCOMPARE(f->oversubscriptionBox()->value(), 2.0);
        QVERIFY(w.waitForResults(60000));
        const tandem::mlforml::Params& p = *w.document()->scenario().mlForMl;
        QCOMPARE(p.topology.preset, std::string("leaf-spine-2to1"));
        QVERIFY(p.topology.kind == tandem::fabric::FabricKind::LeafSpine);
        QCOMPARE(p.topology.oversubscription, 2.0);
        QVERIFY(!c->fabricCapacityBox()->isEnabled());  // the shared capacity is paper-fabric's
        QVERIFY(c->fabricCapacityBox()->toolTip().startsWith(QStringLiteral("Disabled: ")));
        f->oversubscriptionBox()->setValue(4);
        f->foregroundPlacementBox()->setCurrentIndex(
            f->foregroundPlacementBox()->findData(QStringLiteral("spread")));
        QVERIFY(w.waitForResults(60000));
        const tandem::mlforml::Params& q = *w.document()->scenario().mlForMl;
        QCOMPARE(q.topology.oversubscription, 4.0);
        QCOMPARE(std::string(tandem::fabric::name(q.placement.foreground)), std::string("spread"));
        QCOMPARE(std::string(tandem::fabric::name(q.placement.background)), std::string("packed"));
        QVERIFY(!w.networkWorkspace()->lossView()->policies().isEmpty());
    }

    /// The bottleneck is a link that carried bytes: an idle link (no job crossed it, nothing
    /// carried) that counts as "full" for its whole record, as a zero-capacity link does, used to
    /// head the ranking through its seconds at 100 % and was named the bottleneck.
    void bottleneckIsNeverAnIdleLink() {
        tandem::mlforml::Params p;  // paper-fabric: no leaf links to place
        tandem::mlforml::LinkTable table;
        table.backgroundJobs = 4;
        tandem::fabric::LinkUsage idle;
        idle.link = "fabric";
        idle.capacityBytesPerS = 0;
        idle.observed_s = 100;
        idle.saturated_s = 100;  // zero load within tolerance of zero capacity
        tandem::fabric::LinkUsage nic;
        nic.link = "foreground-nic";
        nic.capacityBytesPerS = 12.5e9;
        nic.observed_s = 100;
        nic.utilisationSeconds = 30;
        nic.peakUtilisation = 0.9;
        nic.jobs = {tandem::fabric::kForegroundJob};
        tandem::fabric::LinkUsage bg = nic;
        bg.link = "bg0-nic";
        bg.utilisationSeconds = 10;
        bg.jobs = {0};
        table.links = {idle, nic, bg};
        const tandem::mlforml::NetworkMap map = tandem::mlforml::networkMap(p, table, 4);
        QCOMPARE(int(map.busiest.size()), 2);
        QCOMPARE(map.busiest[0].link, std::string("foreground-nic"));
        QCOMPARE(map.busiest[1].link, std::string("bg0-nic"));
        QVERIFY2(
            networkCaption(map).startsWith(QStringLiteral("<b>Bottleneck: foreground-nic</b>")),
            qPrintable(networkCaption(map)));
        // Nothing carried at all: no bottleneck is named.
        table.links = {idle};
        const tandem::mlforml::NetworkMap none = tandem::mlforml::networkMap(p, table, 4);
        QVERIFY(none.busiest.empty());
        QCOMPARE(networkCaption(none), QStringLiteral("No link was used in this condition."));
    }

    /// The side panel's Fabric and NIC boxes refuse 0 as the reader does (their least value is
    /// the 1 MB/s bound in the box's resolution); they started at 0.
    void bandwidthBoxesRefuseZero() {
        MainWindow w;
        for (const char* key : {"fabric_GBps", "nic_GBps"}) {
            QDoubleSpinBox* box = nullptr;
            for (QDoubleSpinBox* b : w.networkWorkspace()->findChildren<QDoubleSpinBox*>())
                if (b->toolTip().contains(QStringLiteral("ml_for_ml.%1 in ").arg(key))) box = b;
            QVERIFY2(box, key);
            QVERIFY2(box->minimum() > 0,
                     qPrintable(QStringLiteral("%1 minimum %2").arg(key).arg(box->minimum())));
            box->setValue(0);
            QVERIFY2(box->value() > 0, key);
        }
    }

    /// The network page on a leaf/spine fabric: the foreground's leaves drawn with their up
    /// and down utilisation, the rest counted, the bottleneck named; every figure equal to
    /// links.csv of `tandem-cli run --out` on the same scenario.
    void networkPageMatchesLinksCsvOnALeafSpineFabric() {
        MainWindow w;
        openFabricExample(w);
        if (QTest::currentTestFailed()) return;
        const NetworkMapView* view = w.networkWorkspace()->networkMapView();
        QVERIFY2(view->map(), qPrintable(view->captionText()));
        const tandem::mlforml::NetworkMap& map = *view->map();
        QVERIFY(!map.shared && !map.railOptimised);
        QCOMPARE(map.groupsTotal, 8);  // 128 nodes, 16 per leaf
        QCOMPARE(map.groups.front().nodeJobs.size(), size_t(16));
        QCOMPARE(int(map.activeJobs.size()), 8);  // N = 8 background jobs
        // Spread: every leaf holds foreground nodes and one node of each background job.
        int fg = 0;
        for (int job : map.groups.front().nodeJobs) fg += job == tandem::fabric::kForegroundJob;
        QCOMPARE(fg, 4);  // 32 foreground nodes over 8 leaves
        const QStringList words = drawnWords(view);
        QVERIFY(words.contains(QStringLiteral("leaf0")));
        QVERIFY(words.contains(QStringLiteral("up ") +
                               percentText(map.groups.front().leaves.front().upMean)));
        const NetworkPicture pic = view->picture();
        QCOMPARE(pic.groupsShown + pic.groupsHidden, 8);
        if (pic.groupsHidden > 0)
            QVERIFY(words.contains(QStringLiteral("+%1 more leaves").arg(pic.groupsHidden)));
        const QString diff = compareWithLinksCsv(w);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QVERIFY(
            drawnTextProblems(QStringLiteral("map"), view->size(), view->drawnTexts()).isEmpty());
    }

    /// Rail-optimised: choosing the preset in the panel draws scalable units with one cell per
    /// rail leaf; the figures again equal links.csv.
    void networkPageDrawsRailOptimisedUnits() {
        MainWindow w;
        openFabricExample(w);
        if (QTest::currentTestFailed()) return;
        FabricControls* f = w.networkWorkspace()->controls()->fabricControls();
        f->topologyBox()->setCurrentIndex(
            f->topologyBox()->findData(QStringLiteral("rail-optimised")));
        QVERIFY(w.waitForResults(60000));
        const NetworkMapView* view = w.networkWorkspace()->networkMapView();
        QVERIFY2(view->map(), qPrintable(view->captionText()));
        const tandem::mlforml::NetworkMap& map = *view->map();
        QVERIFY(!map.shared && map.railOptimised);
        QCOMPARE(map.groupsTotal, 4);  // 128 nodes, 32 per scalable unit
        for (const auto& g : map.groups) {
            QCOMPARE(int(g.leaves.size()), 8);  // one rail leaf per GPU of a node
            QCOMPARE(g.leaves[3].name, "su" + std::to_string(g.index) + "-rail3");
            QVERIFY(!g.leaves[3].up.empty());
        }
        QVERIFY(drawnWords(view).contains(QStringLiteral("su0")));
        // Each unit's strip names its busiest rail leaf.
        const auto& su = map.groups.front();
        double rail = 0;
        for (const auto& l : su.leaves) rail = std::max({rail, l.upMean, l.downMean});
        QVERIFY(drawnWords(view).contains(QStringLiteral("max ") + percentText(rail)));
        const QString diff = compareWithLinksCsv(w);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    /// The co-running-jobs slider has a typable box beside it, as the MoE workspace's sliders do:
    /// a number typed there moves the slider and the computed point (the first-crossing rows are
    /// for that N), the slider moves the box, each edit is one undo step as a slider move is, and
    /// after Edit > Undo box and slider show one value.
    void coRunningJobsBoxFollowsTheSlider() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        FirstCrossingView* crossings = w.networkWorkspace()->firstCrossingView();
        LabeledSlider* n = w.networkWorkspace()->controls()->backgroundSlider();
        QSpinBox* box = n->numberBox();
        QVERIFY(box && box->isVisible() && box->isEnabled());
        QCOMPARE(box->suffix(), QStringLiteral(" jobs"));
        QCOMPARE(box->value(), n->value());
        QCOMPARE(box->maximum(), 32);
        const auto shownN = [crossings]() {
            return crossings->csv()
                .split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                .value(1)
                .section(QLatin1Char(','), 0, 0);
        };
        QVERIFY(shownN() != QStringLiteral("13"));
        const int steps = w.undoStack()->count();
        box->setFocus();
        box->selectAll();
        QTest::keyClicks(box, QStringLiteral("13"));  // not a stop of the slider's ladder
        QTest::keyClick(box, Qt::Key_Return);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(n->value(), 13);
        QCOMPARE(shownN(), QStringLiteral("13"));
        QCOMPARE(w.undoStack()->count(), steps + 1);
        QTest::qWait(ScenarioEditCommand::kMergeMs + 100);  // the next edit is a step of its own
        n->slider()->setValue(n->slider()->value() + 1);
        QVERIFY(w.waitForResults(60000));
        QVERIFY(n->value() != 13);
        QCOMPARE(box->value(), n->value());
        QCOMPARE(shownN(), QString::number(n->value()));
        QCOMPARE(w.undoStack()->count(), steps + 2);
        w.undoStack()->undo();
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(box->value(), n->value());
        QCOMPARE(shownN(), QString::number(n->value()));
    }

    /// Leaf size and spines: rows with the topology table's range and key, written into the
    /// scenario, undone by Edit > Undo; a value the fabric cannot hold is refused with the
    /// message `tandem-cli validate` prints for it, naming the key.
    void leafAndSpineRowsEditTheTopologyWithUndo() {
        MainWindow w;
        openFabricExample(w);
        if (QTest::currentTestFailed()) return;
        FabricControls* f = w.networkWorkspace()->controls()->fabricControls();
        QVERIFY(f->nodesPerLeafBox()->isEnabled() && f->spinesBox()->isEnabled());
        QCOMPARE(f->nodesPerLeafBox()->value(), 16.0);
        QCOMPARE(f->spinesBox()->value(), 16.0);
        QCOMPARE(f->spinesBox()->maximum(), 4096.0);
        QVERIFY(f->nodesPerLeafBox()->toolTip().contains(
            QStringLiteral("ml_for_ml.topology.nodes_per_leaf in [1, 4096]")));
        const int steps = w.undoStack()->count();
        f->nodesPerLeafBox()->setValue(32);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(w.document()->scenario().mlForMl->topology.nodesPerLeaf, 32);
        QCOMPARE(w.networkWorkspace()->networkMapView()->map()->groupsTotal, 4);
        QTest::qWait(ScenarioEditCommand::kMergeMs + 100);  // the next edit is a step of its own
        f->spinesBox()->setValue(4);
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(w.document()->scenario().mlForMl->topology.spines, 4);
        QCOMPARE(w.document()->scenario().mlForMl->topology.nodesPerLeaf, 32);
        QCOMPARE(w.undoStack()->count(), steps + 2);
        w.undoStack()->undo();
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(w.document()->scenario().mlForMl->topology.spines, 16);
        QCOMPARE(f->spinesBox()->value(), 16.0);
        w.undoStack()->undo();
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(w.document()->scenario().mlForMl->topology.nodesPerLeaf, 16);
        QCOMPARE(w.networkWorkspace()->networkMapView()->map()->groupsTotal, 8);
        // Under hashed ECMP a leaf holds one link per spine: 1024 one-node leaves under 4096
        // spines are more links than a simulation holds. The page and the status line say so
        // as `tandem-cli validate` does.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hash.json"));
        {
            tandem::mlforml::Params p = *w.document()->scenario().mlForMl;
            p.topology.ecmp = tandem::fabric::Ecmp::Hash;
            p.topology.nodes = 1024;
            w.networkWorkspace()->setParams(p);  // as an edit: the document takes it
            emit w.networkWorkspace()->paramsEdited(p);
        }
        QVERIFY(w.waitForResults(60000));
        f->nodesPerLeafBox()->setValue(1);
        f->spinesBox()->setValue(4096);
        QVERIFY(w.waitForResults(60000));
        QVERIFY(w.saveFile(path));
        QProcess cli;
        cli.start(QStringLiteral(TANDEM_CLI), {QStringLiteral("validate"), path});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 2);
        const QString said =
            QString::fromUtf8(cli.readAllStandardOutput() + cli.readAllStandardError());
        const QString shown = w.networkWorkspace()->networkMapView()->captionText();
        QVERIFY2(shown.startsWith(QStringLiteral("ml_for_ml.topology.spines: ")),
                 qPrintable(shown));
        QVERIFY2(said.contains(shown.section(QLatin1Char(':'), 1).trimmed()),
                 qPrintable(said + QStringLiteral("\nvs\n") + shown));
    }

    /// Loss chart legend: each policy once, drawn as a line, and the selected target once.
    void lossLegendNamesPoliciesAndTheTargetOnce() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        const QStringList legend = ws->lossView()->legendEntries();
        QCOMPARE(QSet<QString>(legend.begin(), legend.end()).size(), legend.size());
        for (const char* policy : {"Static", "Decoupled"})
            QVERIFY(legend.contains(QLatin1String(policy)));
        // Joint's line lies on Knob-Precision's in scenario 1: one entry for both (tst_chart_keys).
        const bool shared = legend.contains(QStringLiteral("Knob-Precision = Joint"));
        QVERIFY(legend.contains(QStringLiteral("Joint")) || shared);
        QCOMPARE(legend.count(QStringLiteral("Target")), 1);
        QCOMPARE(legend.size(), shared ? 5 : 6);  // five policies of Table 2 and the target
        const QStringList sweep = ws->sweepView()->legendEntries();
        QVERIFY(sweep.contains(QStringLiteral("BF16 gradients")));
        QVERIFY(sweep.contains(QStringLiteral("MXFP4 gradients")));
    }

    void timelineCoversEachAdaptiveRun() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        const auto& point = ws->result()->points.front();
        for (const auto& run : point.policies) {
            const QString name = QString::fromStdString(run.policy);
            if (!ws->timelineView()->rows().contains(name)) continue;
            double total = 0;
            for (const auto& label : ws->result()->comboLabels)
                total += ws->timelineView()->secondsIn(name, QString::fromStdString(label));
            QVERIFY2(std::abs(total - run.timeline.back().t1_s + run.timeline.front().t0_s) <
                         1e-6 * total + 1e-9,
                     qPrintable(name));
        }
    }

    void sweepChartFollowsTargetAndShownN() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        SweepCrossingView* sweep = ws->sweepCrossingView();
        const auto& jobs = ws->params()->backgroundJobs;
        QCOMPARE(static_cast<int>(jobs.size()), 4);
        for (int n : jobs) {
            const double joint = sweep->crossingAt(QStringLiteral("Joint"), n);
            const double decoupled = sweep->crossingAt(QStringLiteral("Decoupled"), n);
            QVERIFY2(std::isfinite(joint) && joint > 0, qPrintable(QString::number(n)));
            // Joint is never slower than Decoupled [2608.06046 Fig. 2].
            QVERIFY(decoupled >= joint);
        }
        const double at101 = sweep->crossingAt(QStringLiteral("Joint"), jobs.back());
        ws->applyPresetView(-1, 0, false);  // target 1.005 x L_min: later than 1.01
        QVERIFY(sweep->crossingAt(QStringLiteral("Joint"), jobs.back()) > at101);
    }

    void advancedInputsReachTheEngine() {
        MainWindow w;
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        NetworkAdvanced* adv = ws->controls()->advanced();
        adv->section()->setExpanded(true);
        const double load = ws->loadView()->meanGBps();
        const double crossing = ws->sweepCrossingView()->crossingAt(QStringLiteral("Static"), 16);
        adv->backgroundGradient()->setValue(2 * adv->backgroundGradient()->value());
        QVERIFY(w.waitForResults(60000));
        QCOMPARE(ws->params()->backgroundJob.gradientBytes, 5.62e9);
        QVERIFY(w.document()->isModified());
        QVERIFY(ws->loadView()->meanGBps() != load);
        const double after = ws->sweepCrossingView()->crossingAt(QStringLiteral("Static"), 16);
        QVERIFY2(after != crossing,
                 qPrintable(QStringLiteral("%1 -> %2").arg(crossing).arg(after)));
        // Poisson inputs do not apply to scenario 1: disabled, and the tooltip says why.
        QVERIFY(!adv->arrivalRate()->isEnabled());
        QVERIFY(adv->arrivalRate()->toolTip().contains(QLatin1String("Disabled")));
        const auto& before = tandem::mlforml::writeParams(*ws->params());
        adv->decisionInterval()->setValue(adv->decisionInterval()->value() * 2);
        QVERIFY(tandem::mlforml::writeParams(*ws->params()) != before);
    }

    void chartPagesKeepChartsReadable() {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.waitForResults(60000));
        NetworkWorkspace* ws = w.networkWorkspace();
        // Three chart pages; the fourth (an imported loss log) stays hidden until an import; the
        // fifth is the network page.
        QCOMPARE(ws->pages()->count(), 5);
        QVERIFY(!ws->pages()->isTabVisible(3));
        QCOMPARE(ws->pages()->widget(NetworkWorkspace::kNetworkPage),
                 static_cast<QWidget*>(ws->networkMapView()));
        for (int i = 0; i < 3; ++i) {
            ws->pages()->setCurrentIndex(i);
            QApplication::processEvents();
            for (ChartView* c : ws->charts())
                if (c->isVisible())
                    QVERIFY2(c->width() >= 350 && c->height() >= 200, qPrintable(c->exportName()));
        }
    }
};

TANDEM_TEST_MAIN(TstNetworkViews)
#include "tst_network_views.moc"
