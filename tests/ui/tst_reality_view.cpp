// The "Reality check" chart of the MoE workspace (offscreen): predicted against measured
// tokens/s per GPU of the shipped Megatron-Core runs under the megatron-core stack.
#include <QAreaSeries>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolTip>
#include <QValueAxis>
#include <QtTest>
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "mosaic/plan.h"
#include "mosaic/reality.h"
#include "test_main.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/mosaic/reality_view.h"
#include "ui/shell/main_window.h"
#include "ui/shell/offscreen.h"
#include "ui/widgets/chart_export.h"
#include "ui/widgets/workspace_layout.h"

using namespace tandem::ui;

namespace {
/// Splits one CSV line of RealityView::csv() (fields with commas are quoted).
QStringList csvFields(const QString& line) {
    QStringList out;
    QString cur;
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar ch = line[i];
        if (quoted) {
            if (ch == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"'))
                cur += ch, ++i;
            else if (ch == QLatin1Char('"'))
                quoted = false;
            else
                cur += ch;
        } else if (ch == QLatin1Char('"')) {
            quoted = true;
        } else if (ch == QLatin1Char(',')) {
            out << cur;
            cur.clear();
        } else {
            cur += ch;
        }
    }
    out << cur;
    return out;
}
}  // namespace

class TstRealityView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void oneSeriesPerSystemWithEveryExpressibleRun() {
        RealityView view;
        view.resize(900, 560);
        view.show();  // computes the report on the first show
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.report().has_value());
        const auto& report = *view.report();
        std::map<std::string, int> perSystem;  // feasible expressible rows per system
        int notExpressible = 0;
        for (const auto& row : report.rows)
            if (row.eval.feasible) ++perSystem[report.cases[row.caseIndex].run.system];
        for (const auto& c : report.cases) notExpressible += c.expressible ? 0 : 1;
        QVERIFY(notExpressible > 0);  // Nemotron 3 and DeepSeek-V4 rows are in the shipped set
        QCOMPARE(perSystem.size(), size_t(2));
        QCOMPARE(view.systems(),
                 QStringList({QStringLiteral("DGX-GB200"), QStringLiteral("DGX-H100")}));
        int plotted = 0;
        for (const auto& [system, n] : perSystem) {
            QScatterSeries* s = view.systemSeries(QString::fromStdString(system));
            QVERIFY(s);
            QCOMPARE(int(s->count()), n);
            plotted += n;
        }
        QCOMPARE(int(view.points().size()), plotted);
        QCOMPARE(plotted + notExpressible, int(report.cases.size()));
        // Distinct shapes per system.
        QVERIFY(view.systemSeries(QStringLiteral("DGX-H100"))->markerShape() !=
                view.systemSeries(QStringLiteral("DGX-GB200"))->markerShape());
        // The +-25 % band and y = x over the whole axis range.
        QAreaSeries* band = view.bandSeries();
        QVERIFY(band);
        QCOMPARE(int(band->upperSeries()->count()), 2);
        for (int i = 0; i < 2; ++i) {
            const QPointF up = band->upperSeries()->at(i), lo = band->lowerSeries()->at(i);
            QCOMPARE(up.y(), 1.25 * up.x());
            QCOMPARE(lo.y(), 0.75 * lo.x());
        }
        const QList<QPointF> id = view.identitySeries()->points();
        QCOMPARE(id.size(), 2);
        QCOMPARE(id[0].x(), id[0].y());
        for (const RealityPoint& p : view.points()) {
            QVERIFY(p.measured >= id[0].x() && p.measured <= id[1].x());
            QVERIFY(p.predicted >= id[0].x() && p.predicted <= id[1].x());
        }
        const QStringList legend = view.legendEntries();
        for (const QString& name :
             {QStringLiteral("DGX-H100"), QStringLiteral("DGX-GB200"),
              QStringLiteral("within \u00b125 %"), QStringLiteral("predicted = measured")})
            QVERIFY2(legend.contains(name), qPrintable(legend.join(QStringLiteral(" | "))));
        // The caption counts the runs not plotted and names why.
        QVERIFY2(view.caption().contains(QStringLiteral("%1 runs not costed").arg(notExpressible)),
                 qPrintable(view.caption()));
        QVERIFY(view.caption().contains(QStringLiteral("Mamba")));
        // The title carries the summary.
        const QString title = view.chart()->title();
        QVERIFY2(title.contains(QString::number(100 * report.summary.medianAbsError, 'f', 1) +
                                QStringLiteral(" %")),
                 qPrintable(title));
    }

    /// Choosing DGX-H100 and Qwen3_30B_a3B in the boxes plots the six runs of that model on
    /// H100 (tst_mosaic_reality: measured 8826, 8960, 8901, 9058, 5113, 5275) and the title
    /// carries their summary (mosaic::summarizeRealityFilter).
    void filterBoxesNarrowThePointsAndTheTitle() {
        RealityView view;
        view.resize(1500, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto& report = *view.report();
        QVERIFY(view.systemBox()->findData(QStringLiteral("DGX-H100")) > 0);
        QCOMPARE(view.precisionBox()->count(), 5);  // all, bf16, fp8, mxfp8, nvfp4
        const auto h100Shape = view.systemSeries(QStringLiteral("DGX-H100"))->markerShape();
        view.systemBox()->setCurrentIndex(view.systemBox()->findData(QStringLiteral("DGX-H100")));
        view.modelBox()->setCurrentIndex(
            view.modelBox()->findData(QStringLiteral("Qwen3_30B_a3B")));
        view.ensureBuilt();
        QCOMPARE(view.filter().system, std::string("DGX-H100"));
        QCOMPARE(view.filter().model, std::string("Qwen3_30B_a3B"));
        QCOMPARE(int(view.points().size()), 6);
        // The runs the filter hides are not "out of memory": every shown run fits.
        QVERIFY2(!view.caption().contains(QStringLiteral("out of memory")),
                 qPrintable(view.caption()));
        QList<double> measured;
        for (const RealityPoint& p : view.points()) {
            QCOMPARE(p.system, QStringLiteral("DGX-H100"));
            QCOMPARE(p.model, QStringLiteral("Qwen3_30B_a3B"));
            measured << p.measured;
        }
        std::sort(measured.begin(), measured.end());
        QCOMPARE(measured, (QList<double>{5113, 5275, 8826, 8901, 8960, 9058}));
        QVERIFY(!view.systemSeries(QStringLiteral("DGX-GB200")));
        QCOMPARE(int(view.systemSeries(QStringLiteral("DGX-H100"))->count()), 6);
        // A system keeps its marker shape under a filter.
        QCOMPARE(view.systemSeries(QStringLiteral("DGX-H100"))->markerShape(), h100Shape);
        const tandem::mosaic::RealitySummary s =
            tandem::mosaic::summarizeRealityFilter(report, view.filter());
        QCOMPARE(s.rows, 6);
        QCOMPARE(view.shownSummary().medianAbsError, s.medianAbsError);
        const QString title = view.chart()->title();
        QVERIFY2(title.contains(
                     QStringLiteral("median |error| %1 %").arg(100 * s.medianAbsError, 0, 'f', 1)),
                 qPrintable(title));
        QVERIFY2(
            title.contains(QStringLiteral("%1 % of 6 runs").arg(100 * s.shareWithin25, 0, 'f', 0)),
            qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("DGX-H100")), qPrintable(title));
        // The CSV is the plotted runs.
        QCOMPARE(view.csv().count(QLatin1Char('\n')), 7);
        // "all" again: every run.
        view.systemBox()->setCurrentIndex(0);
        view.modelBox()->setCurrentIndex(0);
        QCOMPARE(int(view.points().size()), report.summary.feasible);
        QCOMPARE(view.shownSummary().medianAbsError, report.summary.medianAbsError);
    }

    /// The filter boxes narrow the user's runs ("yours") as they narrow the measured ones: a
    /// filter no run matches plots none of them, and the caption's count of measured runs leaves
    /// the user's out. Three fp8 DGX-H100 runs of the report stand for the user's.
    void filterAppliesToYourRuns() {
        RealityView view;
        view.resize(1500, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.report().has_value());
        const auto& report = *view.report();
        std::vector<tandem::mosaic::RealityCase> mine;
        for (const auto& row : report.rows) {
            const auto& c = report.cases[row.caseIndex];
            if (row.eval.feasible && c.run.system == "DGX-H100" &&
                tandem::mosaic::precisionName(c.cluster.precision) == std::string("fp8") &&
                mine.size() < 3) {
                mine.push_back(c);
                mine.back().run.container = "yours";
            }
        }
        QCOMPARE(int(mine.size()), 3);
        view.setUserRuns(mine, QStringLiteral("megatron-core"));
        const auto yoursShown = [&]() {
            return int(std::count_if(view.points().begin(), view.points().end(),
                                     [](const RealityPoint& p) { return p.yours; }));
        };
        const auto measuredShown = [&]() { return int(view.points().size()) - yoursShown(); };
        const QString of = QStringLiteral(" of %1 measured runs plotted").arg(report.cases.size());
        view.ensureBuilt();
        QCOMPARE(yoursShown(), 3);
        QVERIFY2(view.caption().startsWith(QString::number(report.summary.feasible) + of),
                 qPrintable(view.caption()));
        view.systemBox()->setCurrentIndex(view.systemBox()->findData(QStringLiteral("DGX-H100")));
        view.precisionBox()->setCurrentIndex(
            view.precisionBox()->findData(QStringLiteral("mxfp8")));
        view.ensureBuilt();
        const tandem::mosaic::RealitySummary mx =
            tandem::mosaic::summarizeRealityFilter(report, view.filter());
        QCOMPARE(mx.rows, 0);
        QCOMPARE(int(view.points().size()), 0);
        QVERIFY(!view.systemSeries(RealityView::yoursKey()));
        QVERIFY2(view.chart()->title().contains(QStringLiteral("no run matches the filter")),
                 qPrintable(view.chart()->title()));
        QVERIFY2(view.caption().startsWith(QStringLiteral("0") + of), qPrintable(view.caption()));
        QVERIFY2(view.caption().contains(QStringLiteral("Yours (triangles): 0 of 3 runs")),
                 qPrintable(view.caption()));
        // fp8 on DGX-H100: the user's three and the measured ones the filter shows.
        view.precisionBox()->setCurrentIndex(view.precisionBox()->findData(QStringLiteral("fp8")));
        view.ensureBuilt();
        QCOMPARE(yoursShown(), 3);
        QCOMPARE(view.systemSeries(RealityView::yoursKey())->count(), 3);
        const tandem::mosaic::RealitySummary fp8 =
            tandem::mosaic::summarizeRealityFilter(report, view.filter());
        QVERIFY(fp8.rows >= 3);
        QVERIFY2(view.caption().startsWith(QString::number(measuredShown()) + of),
                 qPrintable(view.caption()));
        QCOMPARE(measuredShown(), fp8.rows);
    }

    /// The current plan: a star where a correct prediction would lie, its three nearest runs
    /// ringed, and the sentence with the largest |error| of the three.
    void planMarkerAndNearestRuns() {
        RealityView view;
        view.resize(1200, 760);
        view.load();
        tandem::mosaic::Geometry g;
        std::string why;
        QVERIFY(tandem::mosaic::measuredModelGeometry("LLAMA3_70B", g, why));
        tandem::mosaic::RealityPlan plan;
        plan.hardware = "h100";
        plan.system = "DGX-H100";
        plan.gpus = 64;
        plan.totalParams = g.nTot;
        plan.precision = "fp8";
        plan.predicted = 1700;
        plan.stack = "megatron-core";
        view.setPlan(plan);
        view.ensureBuilt();
        QVERIFY(view.planSeries()->isVisible());
        QCOMPARE(view.planSeries()->points(), (QList<QPointF>{QPointF(1700, 1700)}));
        const auto& report = *view.report();
        QCOMPARE(int(view.nearest().size()), 3);
        QList<QPointF> ringed = view.nearestSeries()->points();
        QCOMPARE(ringed.size(), 3);
        double maxErr = 0;
        for (const auto& n : view.nearest()) {
            const auto& row = report.rows[n.row];
            const auto& run = report.cases[row.caseIndex].run;
            QCOMPARE(run.model, std::string("LLAMA3_70B"));
            QCOMPARE(run.system, std::string("DGX-H100"));
            QVERIFY(ringed.contains(QPointF(run.tokensPerSPerGpu, row.eval.tokensPerSPerGpu)));
            maxErr = std::max(maxErr, std::abs(row.error));
        }
        const QString sentence = view.planSentence();
        QVERIFY2(sentence.contains(
                     QStringLiteral("Measured runs like this plan were predicted within %1 % "
                                    "(the largest |error| of the 3 measured runs")
                         .arg(100 * maxErr, 0, 'f', 1)),
                 qPrintable(sentence));
        QVERIFY2(sentence.contains(QStringLiteral("predicted 1700 tokens/s per GPU (the star) "
                                                  "under megatron-core, the stack the runs are "
                                                  "costed with.")),
                 qPrintable(sentence));
        QVERIFY(sentence.contains(QStringLiteral("LLAMA3_70B (64 GPUs DGX-H100, 26.04.01) ")));
        // The nearest runs are those the filter shows: with the Qwen3 30B-A3B runs alone, the
        // three nearest of them (the Llama runs are hidden), named so in the sentence.
        view.setFilter({"", "Qwen3_30B_a3B", "", ""});
        view.ensureBuilt();
        QCOMPARE(int(view.nearest().size()), 3);
        ringed = view.nearestSeries()->points();
        QCOMPARE(ringed.size(), 3);
        for (const auto& n : view.nearest()) {
            const auto& row = report.rows[n.row];
            QCOMPARE(report.cases[row.caseIndex].run.model, std::string("Qwen3_30B_a3B"));
            QVERIFY(ringed.contains(QPointF(report.cases[row.caseIndex].run.tokensPerSPerGpu,
                                            row.eval.tokensPerSPerGpu)));
        }
        QVERIFY2(view.planSentence().contains(QStringLiteral("measured runs on DGX-H100 nearest "
                                                             "in GPU count, model size and "
                                                             "precision, among the runs the "
                                                             "filter shows; median")),
                 qPrintable(view.planSentence()));
        view.setFilter({"", "no such model", "", ""});
        view.ensureBuilt();
        QVERIFY(view.nearest().empty());
        QVERIFY(!view.nearestSeries()->isVisible());
        view.setFilter({});
        // The error view puts the plan at 0 %.
        view.setMode(RealityView::Mode::Error);
        view.ensureBuilt();
        QCOMPARE(view.planSeries()->points(), (QList<QPointF>{QPointF(1700, 0)}));
        view.setPlan(std::nullopt);
        view.ensureBuilt();
        QVERIFY(!view.planSeries()->isVisible());
        QVERIFY(view.planSentence().isEmpty());
    }

    /// The linear error view: each marker at (measured, 100 (predicted / measured - 1)), the
    /// band at +-25 %, y = x as the 0 % line, a linear y axis.
    void errorViewIsPredictedOverMeasuredMinusOne() {
        RealityView view;
        view.resize(1000, 640);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.modeBox()->setCurrentIndex(1);
        view.ensureBuilt();
        QCOMPARE(view.mode(), RealityView::Mode::Error);
        // One visible vertical axis, the linear one.
        QList<QAbstractAxis*> vertical;
        for (QAbstractAxis* a : view.chart()->axes(Qt::Vertical))
            if (a->isVisible()) vertical << a;
        QCOMPARE(vertical.size(), 1);
        auto* y = qobject_cast<QValueAxis*>(vertical.front());
        QVERIFY(y);
        int checked = 0;
        for (const QString& system : view.systems()) {
            QScatterSeries* s = view.systemSeries(system);
            QCOMPARE(s->attachedAxes().size(), 2);
            QVERIFY(s->attachedAxes().contains(y));
            for (const QPointF& pt : s->points()) {
                bool found = false;
                for (const RealityPoint& p : view.points())
                    if (p.system == system && p.measured == pt.x() &&
                        std::abs(pt.y() - 100 * (p.predicted / p.measured - 1)) < 1e-9) {
                        found = true;
                        break;
                    }
                QVERIFY2(
                    found,
                    qPrintable(QStringLiteral("%1: %2, %3").arg(system).arg(pt.x()).arg(pt.y())));
                QVERIFY(pt.y() >= y->min() && pt.y() <= y->max());
                ++checked;
            }
        }
        QCOMPARE(checked, int(view.points().size()));
        QCOMPARE(view.bandSeries()->upperSeries()->at(0).y(), 25.0);
        QCOMPARE(view.bandSeries()->lowerSeries()->at(1).y(), -25.0);
        QCOMPARE(view.identitySeries()->at(0).y(), 0.0);
        QVERIFY2(view.chart()->title().startsWith(QStringLiteral("Error of the predicted")),
                 qPrintable(view.chart()->title()));
        // Back to log-log: the log axes again.
        view.setMode(RealityView::Mode::LogLog);
        view.ensureBuilt();
        for (QAbstractAxis* a : view.chart()->axes(Qt::Vertical))
            QCOMPARE(a->isVisible(), qobject_cast<QLogValueAxis*>(a) != nullptr);
        const RealityPoint& p0 = view.points().front();
        QVERIFY(
            view.systemSeries(p0.system)->points().contains(QPointF(p0.measured, p0.predicted)));
    }

    /// Hovering a few pixels off a marker names its run (nearest marker within
    /// RealityView::kHoverPixels); far from every marker nothing.
    void hoverNearAMarkerNamesTheRun() {
        RealityView view;
        view.resize(1000, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.ensureBuilt();
        view.fitTexts();
        // A run whose marker has no other marker within 20 px.
        int lone = -1;
        for (int i = 0; i < view.points().size() && lone < 0; ++i) {
            const QPoint a = view.markerPosition(i);
            bool alone = view.viewport()->rect().contains(a);
            for (int j = 0; j < view.points().size() && alone; ++j)
                if (j != i && QLineF(a, view.markerPosition(j)).length() < 20) alone = false;
            if (alone) lone = i;
        }
        QVERIFY(lone >= 0);
        const RealityPoint& p = view.points()[lone];
        const QPoint at = view.markerPosition(lone) + QPoint(5, -4);
        QCOMPARE(view.markerAt(at), lone);
        const HoverTable t = view.hoverAt(at);
        QVERIFY2(t.heading.contains(p.model) && t.heading.contains(p.system),
                 qPrintable(t.heading));
        QVERIFY2(
            t.text().contains(QStringLiteral("%1 tokens/s per GPU").arg(p.measured, 0, 'f', 0)),
            qPrintable(t.text()));
        // Far from every marker: nothing.
        QPoint far(-1, -1);
        const QRect r = view.viewport()->rect();
        for (int y = r.top() + 200; y < r.bottom() - 100 && far.x() < 0; y += 10)
            for (int x = r.left() + 100; x < r.right() - 50 && far.x() < 0; x += 10) {
                bool clear = true;
                for (int j = 0; j < view.points().size() && clear; ++j)
                    if (QLineF(QPoint(x, y), view.markerPosition(j)).length() < 40) clear = false;
                if (clear) far = QPoint(x, y);
            }
        QVERIFY(far.x() >= 0);
        QCOMPARE(view.markerAt(far), -1);
        QVERIFY(view.hoverAt(far).isEmpty());
    }

    /// The view's general tooltip never covers the run read-out: with the cursor on a marker
    /// (the read-out drawn right of and below it, where a tooltip opens too) the tooltip is
    /// moved clear of the read-out's box.
    void tooltipClearOfTheReadOut() {
        RealityView view;
        view.resize(760, 540);
        view.move(0, 0);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.ensureBuilt();
        view.fitTexts();
        // The highest marker in the left half, the read-out right of and below it.
        const QRect inner = view.viewport()->rect().adjusted(40, 40, -view.width() / 2, -40);
        int pick = -1;
        for (int i = 0; i < view.points().size(); ++i)
            if (inner.contains(view.markerPosition(i)) &&
                (pick < 0 || view.markerPosition(i).y() < view.markerPosition(pick).y()))
                pick = i;
        QVERIFY(pick >= 0);
        const QPoint at = view.markerPosition(pick) + QPoint(2, -1);
        QMouseEvent move(QEvent::MouseMove, at, view.viewport()->mapToGlobal(at), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(view.viewport(), &move);
        const QList<QRect> boxes = view.readoutRects();
        QCOMPARE(boxes.size(), 1);
        QVERIFY(boxes[0].contains(at + QPoint(14, 14)));  // beside the cursor
        QHelpEvent help(QEvent::ToolTip, at, view.viewport()->mapToGlobal(at));
        QApplication::sendEvent(view.viewport(), &help);
        QLabel* tip = nullptr;
        for (QWidget* w : QApplication::topLevelWidgets())
            if (w->inherits("QTipLabel") && w->isVisible()) tip = qobject_cast<QLabel*>(w);
        QVERIFY(tip);
        QCOMPARE(tip->text(), view.toolTip());
        const QRect box(view.viewport()->mapToGlobal(boxes[0].topLeft()), boxes[0].size());
        QVERIFY2(!tip->geometry().intersects(box),
                 qPrintable(QStringLiteral("tip %1,%2 %3x%4 over read-out %5,%6 %7x%8")
                                .arg(tip->x())
                                .arg(tip->y())
                                .arg(tip->width())
                                .arg(tip->height())
                                .arg(box.x())
                                .arg(box.y())
                                .arg(box.width())
                                .arg(box.height())));
        QToolTip::hideText();
    }

    void csvRowsEqualTheReproduceRealityJson() {
        RealityView view;
        view.load();
        const nlohmann::ordered_json j =
            tandem::mosaic::realityToJson(tandem::mosaic::reproduceReality());
        // JSON predicted per (container, system, model, gpus, precision).
        std::multimap<std::string, double> predicted;
        for (const auto& row : j.at("rows")) {
            if (row.at("error").is_null()) continue;
            const std::string key = row.at("container").get<std::string>() + "|" +
                                    row.at("system").get<std::string>() + "|" +
                                    row.at("model").get<std::string>() + "|" +
                                    std::to_string(row.at("gpus").get<int>()) + "|" +
                                    row.at("precision").get<std::string>();
            predicted.emplace(key, row.at("eval").at("tokens_per_s_per_gpu").get<double>());
        }
        const QStringList lines = view.csv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(
            lines.front(),
            QStringLiteral("system,model,container,gpus,precision,layout,"
                           "measured_tokens_per_s_per_gpu,predicted_tokens_per_s_per_gpu,error"));
        QCOMPARE(size_t(lines.size() - 1), predicted.size());
        for (int i = 1; i < lines.size(); ++i) {
            const QStringList f = csvFields(lines[i]);
            QCOMPARE(f.size(), 9);
            const std::string key = (f[2] + QLatin1Char('|') + f[0] + QLatin1Char('|') + f[1] +
                                     QLatin1Char('|') + f[3] + QLatin1Char('|') + f[4])
                                        .toStdString();
            auto range = predicted.equal_range(key);
            QVERIFY2(range.first != range.second, key.c_str());
            const double csvPred = f[7].toDouble(), measured = f[6].toDouble();
            bool found = false;
            for (auto it = range.first; it != range.second; ++it)
                if (std::abs(it->second - csvPred) <= 1e-9 * it->second) {
                    found = true;
                    predicted.erase(it);
                    break;
                }
            QVERIFY2(found, qPrintable(lines[i]));
            QVERIFY(std::abs(f[8].toDouble() - (csvPred / measured - 1)) < 1e-5);
            QVERIFY(f[5].startsWith(QStringLiteral("tp=")));
        }
        QVERIFY(predicted.empty());
    }

    /// The y-axis title "predicted tokens/s per GPU" stays on one line at the window sizes a
    /// user has (it wrapped to three short lines at 800x600): the chart keeps a plot as tall as
    /// the title is long, and a page too short for that scrolls.
    void yAxisTitleOnOneLine_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("800x600") << QSize(800, 600);
        QTest::newRow("1024x768") << QSize(1024, 768);
        QTest::newRow("1280x800") << QSize(1280, 800);
    }
    void yAxisTitleOnOneLine() {
        QFETCH(QSize, size);
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        ws->pages()->setCurrentIndex(MoeWorkspace::kRealityPage);
        RealityView* v = ws->realityView();
        v->ensureBuilt();
        for (int round = 0; round < 5; ++round) {  // the texts fit, the layouts settle
            QCoreApplication::processEvents();
            QTest::qWait(20);
        }
        v->fitTexts();
        QAbstractAxis* y = nullptr;
        for (QAbstractAxis* a : v->chart()->axes(Qt::Vertical))
            if (a->isVisible()) y = a;
        QVERIFY(y);
        const QString title = y->titleText();
        QVERIFY2(!title.contains(QStringLiteral("<br>")), qPrintable(title));
        QCOMPARE(title, QStringLiteral("predicted tokens/s per GPU"));
        const int wide = QFontMetrics(y->titleFont()).horizontalAdvance(title);
        QVERIFY2(wide <= v->chart()->plotArea().height(),
                 qPrintable(QStringLiteral("a %1 px title beside a %2 px plot")
                                .arg(wide)
                                .arg(v->chart()->plotArea().height())));
    }

    void reachableAsAPageOfTheMoeWorkspace() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        QCOMPARE(fullTabText(ws->pages(), MoeWorkspace::kRealityPage),
                 QStringLiteral("Reality check"));
        QVERIFY(ws->pages()->isTabVisible(MoeWorkspace::kRealityPage));
        QVERIFY(!ws->realityView()->report().has_value());  // computed on demand
        ws->pages()->setCurrentIndex(MoeWorkspace::kRealityPage);
        QApplication::processEvents();
        QVERIFY(ws->realityView()->report().has_value());
        QVERIFY(ws->charts().contains(ws->realityView()));
        // The workspace passes its selected candidate as the current plan, costed under the
        // stack of the measured runs (megatron-core), not the scenario's (mosaic-paper): the
        // star stands beside runs costed the same way; the sentence names both.
        const auto shown = ws->shownCandidate();
        QVERIFY(shown && shown->eval.feasible);
        const auto& plan = ws->realityView()->plan();
        QVERIFY(plan.has_value());
        const tandem::mosaic::Envelope& e = *ws->envelope();
        QCOMPARE(e.stack.name, std::string("mosaic-paper"));
        QCOMPARE(plan->stack, std::string("megatron-core"));
        QCOMPARE(plan->scenarioStack, std::string("mosaic-paper"));
        QCOMPARE(plan->scenarioPredicted, shown->eval.tokensPerSPerGpu);
        tandem::mosaic::Cluster runs = tandem::mosaic::clusterOf(e);
        runs.stack = tandem::mosaic::megatronCoreStack();
        const auto ev = tandem::mosaic::evaluateLayout(shown->geometry, runs, shown->plan);
        QVERIFY(ev.feasible);
        QCOMPARE(plan->predicted, ev.tokensPerSPerGpu);
        QVERIFY(plan->predicted != shown->eval.tokensPerSPerGpu);
        ws->realityView()->ensureBuilt();
        QCOMPARE(ws->realityView()->planSeries()->points(),
                 (QList<QPointF>{QPointF(ev.tokensPerSPerGpu, ev.tokensPerSPerGpu)}));
        QVERIFY2(ws->realityView()->planSentence().contains(
                     QStringLiteral("under megatron-core, the stack the runs are costed with. The "
                                    "scenario's mosaic-paper stack predicts %1 tokens/s per GPU.")
                         .arg(shown->eval.tokensPerSPerGpu, 0, 'f', 0)),
                 qPrintable(ws->realityView()->planSentence()));
        QCOMPARE(plan->totalParams, shown->geometry.nTot);
        QCOMPARE(int(ws->realityView()->nearest().size()), RealityView::kNearestRuns);
        QVERIFY(ws->realityView()->planSentence().contains(
            QStringLiteral("Measured runs like this plan")));
    }

    /// A scenario without a "mosaic" section: the page says that there is no plan to check and
    /// how to get one, without the filter boxes, in the enabled text colour (the disabled
    /// workspace's grey would fade it into the page).
    /// The Reality page shows its chart, legend and the text under the plot without scrolling
    /// where the window leaves the chart room for them: the whole text (plan sentence and
    /// caption, 14 lines at 800 px wide) made the view need 485 px at 800x600 and the legend
    /// had to be scrolled to; a window of 800x650 had the same. Where the whole text does not fit,
    /// its first sentences are drawn, or the count of runs plotted alone (whole sentences, no
    /// "..."), and the whole is the caption's tooltip; a tall window draws it whole. At 800x600 the
    /// one-line form is drawn (the filter rows, the two-row legend and the one-line y title still
    /// need more than that window's page gives).
    void captionLeavesTheChartInView_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("inView");  // the whole view inside the page, no scrolling
        // 0: the whole text; 1: both first sentences; 2: the caption's first; 3: the count
        QTest::addColumn<int>("form");
        QTest::newRow("800x600") << QSize(800, 600) << false << 3;
        QTest::newRow("800x650") << QSize(800, 650) << true << 2;
        QTest::newRow("800x720") << QSize(800, 720) << true << 1;
        QTest::newRow("1024x768") << QSize(1024, 768) << true << 0;
        QTest::newRow("1280x1400") << QSize(1280, 1400) << true << 0;
    }
    void captionLeavesTheChartInView() {
        QFETCH(QSize, size);
        QFETCH(bool, inView);
        QFETCH(int, form);
        MainWindow w;
        w.setCurrentWorkspace(1);
        MoeWorkspace* ws = w.moeWorkspace();
        ws->pages()->setCurrentIndex(MoeWorkspace::kRealityPage);
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.waitForResults(60000));
        grabSettled(&w);
        RealityView* view = ws->realityView();
        QScrollArea* area = nullptr;
        for (QWidget* p = view->parentWidget(); p && !area; p = p->parentWidget())
            area = qobject_cast<QScrollArea*>(p);
        QVERIFY(area);
        const QRect shown(view->mapTo(area->viewport(), QPoint(0, 0)), view->size());
        const QString where = QStringLiteral("view %1x%2 at %3,%4 in a %5x%6 viewport")
                                  .arg(shown.width())
                                  .arg(shown.height())
                                  .arg(shown.x())
                                  .arg(shown.y())
                                  .arg(area->viewport()->width())
                                  .arg(area->viewport()->height());
        if (inView) {
            QVERIFY2(area->viewport()->rect().contains(shown), qPrintable(where));
            QCOMPARE(area->verticalScrollBar()->maximum(), 0);
        }
        const QString sentence = view->planSentence(), caption = view->caption();
        QVERIFY(!sentence.isEmpty());
        const QString full = sentence + QLatin1Char('\n') + caption;
        const QString count = caption.left(caption.indexOf(QLatin1Char(','))) + QLatin1Char('.');
        QVERIFY2(count.contains(QStringLiteral(" measured runs plotted")), qPrintable(count));
        if (form == 0) {
            QCOMPARE(view->shownCaption(), full);
            QCOMPARE(view->captionToolTip(), QString());
            return;
        }
        QCOMPARE(view->captionToolTip(), full);
        if (form == 3) {
            QCOMPARE(view->shownCaption(), count);
        } else if (form == 2) {
            const QString first = view->shownCaption();
            QVERIFY2(first.endsWith(QStringLiteral("under the megatron-core stack.")),
                     qPrintable(first));
            QVERIFY(caption.startsWith(first));
        } else {
            const QStringList lines = view->shownCaption().split(QLatin1Char('\n'));
            QCOMPARE(lines.size(), 2);
            QVERIFY2(lines[0].endsWith(QStringLiteral("the stack the runs are costed with.")),
                     qPrintable(lines[0]));
            QVERIFY(sentence.startsWith(lines[0]));
            QVERIFY2(lines[1].endsWith(QStringLiteral("under the megatron-core stack.")),
                     qPrintable(lines[1]));
            QVERIFY(caption.startsWith(lines[1]));
        }
    }

    void noMosaicSectionSaysSo() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(QStringLiteral(TANDEM_EXAMPLES "/mlforml-scenario1.json")));
        w.setCurrentWorkspace(1);
        MoeWorkspace* ws = w.moeWorkspace();
        QVERIFY(!ws->envelope().has_value());
        ws->pages()->setCurrentIndex(MoeWorkspace::kRealityPage);
        QApplication::processEvents();
        RealityView* view = ws->realityView();
        QVERIFY(view->isVisible());
        QVERIFY2(view->emptyReason().startsWith(QStringLiteral(
                     "This scenario has no \"mosaic\" section, so there is no MoE plan to check "
                     "against the measured Megatron-Core runs.")),
                 qPrintable(view->emptyReason()));
        QVERIFY(!view->chart()->isVisible());
        auto* header = view->findChild<QWidget*>(QStringLiteral("realityHeader"));
        QVERIFY(header && header->isHidden());
        // The message's darkest pixels are the enabled text colour.
        const QImage image = view->grab().toImage();
        const QColor ink = view->palette().color(QPalette::Active, QPalette::WindowText);
        int nearest = 3 * 255;
        for (int y = image.height() / 4; y < 3 * image.height() / 4; ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                nearest = std::min(nearest, std::abs(c.red() - ink.red()) +
                                                std::abs(c.green() - ink.green()) +
                                                std::abs(c.blue() - ink.blue()));
            }
        QVERIFY2(nearest < 60, qPrintable(QString::number(nearest)));
        // A scenario with the section brings the chart and the boxes back.
        QVERIFY(w.openFile(QStringLiteral(TANDEM_EXAMPLES "/mosaic-table3.json")));
        QVERIFY(view->emptyReason().isEmpty());
        QVERIFY(!header->isHidden());
    }

    void exportWritesEveryFormatAndExportChartsIncludesIt() {
        QTemporaryDir dir;
        RealityView view;
        view.resize(900, 560);
        view.load();
        for (const char* suffix : {".png", ".svg", ".pdf", ".csv"}) {
            const QString path = dir.filePath(QStringLiteral("reality") + QLatin1String(suffix));
            QString error;
            QVERIFY2(exportChart(&view, path, &error), qPrintable(error));
            QVERIFY(QFileInfo(path).size() > 200);
        }
        const QString out = dir.filePath(QStringLiteral("charts"));
        QCOMPARE(exportAllCharts(out, {}), 0);
        for (const char* suffix : {".png", ".csv"}) {
            const QString path = QDir(out).filePath(
                QStringLiteral("reality-predicted-vs-measured") + QLatin1String(suffix));
            QVERIFY2(QFileInfo(path).size() > 200, qPrintable(path));
        }
        QFile csv(QDir(out).filePath(QStringLiteral("reality-predicted-vs-measured.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(csv.readAll()), view.csv());
    }
};

TANDEM_TEST_MAIN(TstRealityView)
#include "tst_reality_view.moc"
