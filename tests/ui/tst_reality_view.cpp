// The "Reality check" chart of the MoE workspace (offscreen): predicted against measured
// tokens/s per GPU of the shipped Megatron-Core runs under the megatron-core stack.
#include <QAreaSeries>
#include <QDir>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <map>
#include <nlohmann/json.hpp>

#include "mosaic/moe_workspace.h"
#include "mosaic/reality.h"
#include "mosaic/reality_view.h"
#include "shell/main_window.h"
#include "shell/offscreen.h"
#include "test_main.h"
#include "widgets/chart_export.h"

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
        QVERIFY2(
            view.caption().contains(QStringLiteral("%1 runs not expressible").arg(notExpressible)),
            qPrintable(view.caption()));
        QVERIFY(view.caption().contains(QStringLiteral("Mamba")));
        // The title carries the summary.
        const QString title = view.chart()->title();
        QVERIFY2(title.contains(QString::number(100 * report.summary.medianAbsError, 'f', 1) +
                                QStringLiteral(" %")),
                 qPrintable(title));
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

    void reachableAsAPageOfTheMoeWorkspace() {
        MainWindow w;
        w.setCurrentWorkspace(1);
        w.show();
        QVERIFY(w.waitForResults(60000));
        MoeWorkspace* ws = w.moeWorkspace();
        QCOMPARE(ws->pages()->tabText(MoeWorkspace::kRealityPage), QStringLiteral("Reality check"));
        QVERIFY(ws->pages()->isTabVisible(MoeWorkspace::kRealityPage));
        QVERIFY(!ws->realityView()->report().has_value());  // computed on demand
        ws->pages()->setCurrentIndex(MoeWorkspace::kRealityPage);
        QApplication::processEvents();
        QVERIFY(ws->realityView()->report().has_value());
        QVERIFY(ws->charts().contains(ws->realityView()));
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
