// Resources shipped with the GUI and the --bench-gui measurement (offscreen).
#include <QJsonObject>
#include <QSvgRenderer>
#include <QtTest>

#include "scenario/scenario.h"
#include "test_main.h"
#include "ui/shell/gui_bench.h"

class TstGuiResources : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void defaultScenarioFileIsTheBuiltInDefault() {
        QFile f(QStringLiteral(TANDEM_RESOURCES "/scenarios/default.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray expected =
            QByteArray::fromStdString(tandem::scenarioToJson(tandem::defaultScenario()));
        QVERIFY2(f.readAll() == expected,
                 "resources/scenarios/default.json is stale; regenerate it with "
                 "`tandem --write-default-scenario resources/scenarios/default.json`");
        // And it parses back to the same canonical text.
        tandem::Diagnostics diag("default.json");
        const auto parsed = tandem::parseScenario(expected.toStdString(), diag);
        QVERIFY2(parsed.has_value(), diag.str().c_str());
        QCOMPARE(QByteArray::fromStdString(tandem::scenarioToJson(*parsed)), expected);
    }

    void iconAndDesktopEntry() {
        QSvgRenderer svg(QStringLiteral(TANDEM_RESOURCES "/icons/tandem.svg"));
        QVERIFY(svg.isValid());
        QCOMPARE(svg.defaultSize(), QSize(256, 256));
        QFile desktop(QStringLiteral(TANDEM_RESOURCES "/tandem.desktop"));
        QVERIFY(desktop.open(QIODevice::ReadOnly | QIODevice::Text));
        const QString text = QString::fromUtf8(desktop.readAll());
        QVERIFY(text.startsWith(QLatin1String("[Desktop Entry]")));
        QVERIFY(text.contains(
            QLatin1String("\nIcon=tandem\n")));  // resources/icons/tandem.svg, installed by app/gui
        QVERIFY(text.contains(QLatin1String("\nExec=tandem")));
        QFile qrc(QStringLiteral(TANDEM_RESOURCES "/tandem.qrc"));
        QVERIFY(qrc.open(QIODevice::ReadOnly));
        const QByteArray q = qrc.readAll();
        QVERIFY(q.contains("icons/tandem.svg"));
        QVERIFY(q.contains("scenarios/default.json"));
    }

    void benchGuiReportsEveryKey() {
        QElapsedTimer clock;
        clock.start();
        bool ok = false;
        const QJsonObject o = tandem::ui::benchGui(clock, 1, &ok);
        QVERIFY(ok);
        for (const char* key :
             {"gui_launch_s", "gui_slider_median_ms", "gui_slider_p95_ms", "gui_rss_MB",
              "gui_network_slider_median_ms", "gui_moe_slider_median_ms"}) {
            QVERIFY2(o.contains(QLatin1String(key)), key);
            QVERIFY2(o.value(QLatin1String(key)).toDouble() > 0, key);
        }
        // 2 ML-for-ML sliders and 3 MoE ones (nodes, days, co-running jobs), 1 move each.
        QCOMPARE(o.value(QLatin1String("gui_slider_moves")).toInt(), 5);
        // The joined model: the cluster link on, the MoE job beside co-running jobs.
        QVERIFY(o.value(QLatin1String("gui_joined_cluster")).toBool());
        QVERIFY(o.value(QLatin1String("gui_moe_background_jobs")).toInt() > 0);
        const QJsonObject bySlider =
            o.value(QLatin1String("gui_slider_p95_ms_by_slider")).toObject();
        QCOMPARE(bySlider.size(), 5);
        for (const char* name : {"backgroundSlider", "nodesSlider", "moeNodesSlider",
                                 "moeDaysSlider", "moeCoRunningSlider"})
            QVERIFY2(bySlider.value(QLatin1String(name)).toDouble() > 0, name);
        QVERIFY(o.value(QLatin1String("gui_slider_p95_ms")).toDouble() >=
                o.value(QLatin1String("gui_slider_median_ms")).toDouble());
    }
};

TANDEM_TEST_MAIN(TstGuiResources)
#include "tst_gui_resources.moc"
