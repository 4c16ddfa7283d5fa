#include "ui/shell/gui_bench.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSlider>
#include <QTabWidget>
#include <QTextStream>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "common/number_format.h"
#include "ui/mlforml/network_controls.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/shell/cluster_link.h"
#include "ui/shell/job_runner.h"
#include "ui/shell/main_window.h"
#include "ui/shell/scenario_document.h"
#include "ui/widgets/labeled_slider.h"

namespace tandem::ui {

namespace {
/// Records the time of the first paint event a widget receives.
class FirstPaint : public QObject {
public:
    FirstPaint(const QElapsedTimer& clock) : m_clock(clock) {}
    double seconds = -1;

protected:
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::Paint && seconds < 0) seconds = m_clock.nsecsElapsed() / 1e9;
        return QObject::eventFilter(o, e);
    }

private:
    const QElapsedTimer& m_clock;
};

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
    return v[std::min(v.size() - 1, rank > 0 ? rank - 1 : 0)];
}
}  // namespace

double residentMegabytes() {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return 0;
    QTextStream in(&f);
    for (QString line = in.readLine(); !line.isNull(); line = in.readLine())
        if (line.startsWith(QLatin1String("VmRSS:")))
            return line.section(QLatin1Char(':'), 1)
                       .trimmed()
                       .section(QLatin1Char(' '), 0, 0)
                       .toDouble() *
                   1024 / 1e6;
    return 0;
}

QJsonObject benchGui(const QElapsedTimer& sinceMain, int moves, bool* ok) {
    if (ok) *ok = false;
    MainWindow w;
    FirstPaint paint(sinceMain);
    w.installEventFilter(&paint);
    w.resize(1280, 800);
    w.show();
    for (int i = 0; i < 500 && paint.seconds < 0; ++i)
        QApplication::processEvents(QEventLoop::AllEvents, 10);
    const double launch = paint.seconds >= 0 ? paint.seconds : sinceMain.nsecsElapsed() / 1e9;
    if (!w.waitForResults(60000)) return {};
    // The joined model: both workspaces on one cluster, so the co-running-jobs and node sliders
    // drive both and the MoE frontier is costed beside the co-running jobs (mosaic.background).
    w.setCurrentWorkspace(0);
    w.clusterLinkAction()->setChecked(true);
    if (!w.waitForResults(60000)) return {};

    struct Probe {
        int workspace;
        LabeledSlider* slider;
    };
    const std::vector<Probe> probes = {{0, w.networkWorkspace()->controls()->backgroundSlider()},
                                       {0, w.networkWorkspace()->controls()->nodesSlider()},
                                       {1, w.moeWorkspace()->controls()->nodesSlider()},
                                       {1, w.moeWorkspace()->controls()->coRunningSlider()},
                                       {1, w.moeWorkspace()->controls()->daysSlider()}};
    std::vector<double> all, perWorkspace[2], newPages;
    QJsonObject perSlider;      // p95 of each slider, by object name
    QJsonObject movesBySlider;  // each move's time and the slider value it moved to
    // Each slider walks twice: with each workspace's first page in front, then with the pages
    // that show a plan whole (the network workspace's Network page, the MoE workspace's Plan).
    for (const bool planPages : {false, true}) {
        w.networkWorkspace()->pages()->setCurrentIndex(planPages ? NetworkWorkspace::kNetworkPage
                                                                 : 0);
        w.moeWorkspace()->pages()->setCurrentIndex(planPages ? MoeWorkspace::kPlanPage : 0);
        for (const Probe& probe : probes) {
            std::vector<double> mine;
            QJsonArray moveTimes;
            w.setCurrentWorkspace(probe.workspace);
            QWidget* ws = probe.workspace == 0 ? static_cast<QWidget*>(w.networkWorkspace())
                                               : static_cast<QWidget*>(w.moeWorkspace());
            QApplication::processEvents();
            // Slider positions (a ladder slider's positions are its stops): walk away from the
            // start for the first half of the moves and back, as a drag would, upwards when there
            // is room.
            QSlider* s = probe.slider->slider();
            const int v0 = s->value();
            const int dir = v0 + (moves + 1) / 2 <= s->maximum() ? 1 : -1;
            for (int i = 0; i < moves; ++i) {
                const int v = v0 + dir * (i < (moves + 1) / 2 ? i + 1 : moves - i - 1);
                QElapsedTimer t;
                t.start();
                s->setValue(v);
                // As the user sees it: charts of the pages not in front are drawn when shown.
                if (!w.waitForResults(60000, false)) return {};
                ws->repaint();
                const double ms = t.nsecsElapsed() / 1e6;
                if (planPages) {
                    newPages.push_back(ms);
                    continue;
                }
                all.push_back(ms);
                perWorkspace[probe.workspace].push_back(ms);
                mine.push_back(ms);
                moveTimes.append(QJsonArray{probe.slider->value(), ms});
            }
            if (planPages) continue;
            perSlider[probe.slider->objectName()] = percentile(mine, 0.95);
            movesBySlider[probe.slider->objectName()] = moveTimes;
        }
    }
    QJsonObject o;
    o[QStringLiteral("gui_launch_s")] = launch;
    o[QStringLiteral("gui_slider_median_ms")] = percentile(all, 0.5);
    o[QStringLiteral("gui_slider_p95_ms")] = percentile(all, 0.95);
    o[QStringLiteral("gui_slider_moves")] = static_cast<int>(all.size());
    o[QStringLiteral("gui_network_slider_median_ms")] = percentile(perWorkspace[0], 0.5);
    o[QStringLiteral("gui_network_slider_p95_ms")] = percentile(perWorkspace[0], 0.95);
    o[QStringLiteral("gui_moe_slider_median_ms")] = percentile(perWorkspace[1], 0.5);
    o[QStringLiteral("gui_moe_slider_p95_ms")] = percentile(perWorkspace[1], 0.95);
    o[QStringLiteral("gui_plan_pages_slider_median_ms")] = percentile(newPages, 0.5);
    o[QStringLiteral("gui_plan_pages_slider_p95_ms")] = percentile(newPages, 0.95);
    o[QStringLiteral("gui_rss_MB")] = residentMegabytes();
    o[QStringLiteral("gui_slider_p95_ms_by_slider")] = perSlider;
    o[QStringLiteral("gui_slider_moves_by_slider")] = movesBySlider;
    o[QStringLiteral("gui_joined_cluster")] = w.clusterLink()->isLinked();
    o[QStringLiteral("gui_moe_background_jobs")] =
        w.document()->scenario().mosaic && w.document()->scenario().mosaic->background
            ? w.document()->scenario().mosaic->background->jobs
            : 0;
    {  // context for the wall-clock numbers: other processes share the cores
        QFile f(QStringLiteral("/proc/loadavg"));
        if (f.open(QIODevice::ReadOnly))
            o[QStringLiteral("load_average_1min")] =
                QString::fromLatin1(f.readAll()).section(QLatin1Char(' '), 0, 0).toDouble();
    }
    if (ok) *ok = true;
    return o;
}

int runGuiBench(const QElapsedTimer& sinceMain, bool json, int moves) {
    bool ok = false;
    const QJsonObject o = benchGui(sinceMain, moves, &ok);
    if (!ok) {
        std::fprintf(stderr, "a result did not arrive within 60 s\n");
        return 1;
    }
    if (json) {
        std::printf("%s", QJsonDocument(o).toJson(QJsonDocument::Indented).constData());
    } else {
        for (auto it = o.begin(); it != o.end(); ++it)
            if (it.value().isDouble() || it.value().isBool())
                std::printf("%-30s %10s\n", qPrintable(it.key()),
                            tandem::formatFixed(it.value().toDouble(), 3).c_str());
    }
    std::fflush(stdout);
    return 0;
}

}  // namespace tandem::ui
