#pragma once
// `tandem --bench-gui [--json]`: launch and slider-to-chart latency of the GUI (offscreen).
#include <QElapsedTimer>
#include <QJsonObject>

namespace tandem::ui {

/// Measures, on the default scenario:
///  - gui_launch_s: from `sinceMain` (started at the top of main()) until the main window
///    received its first paint event;
///  - gui_slider_median_ms / gui_slider_p95_ms: for `moves` programmatic moves of each slider of
///    both workspaces (network: co-running jobs N, foreground nodes; MoE: cluster nodes,
///    training days), the time from the value change to every worker idle, every result applied
///    and the workspace repainted (nearest-rank p95 over all moves); per workspace too;
///  - gui_rss_MB: resident set at the end (VmRSS of /proc/self/status), MB (1e6 bytes);
///  - load_average_1min: /proc/loadavg at the end (the timings are wall-clock).
/// Prints one JSON object (`json`) or aligned text lines to stdout. Returns 0, or 1 if a result
/// did not arrive within 60 s.
int runGuiBench(const QElapsedTimer& sinceMain, bool json, int moves = 10);

/// The measurement behind runGuiBench as a JSON object (keys above); `ok` false (and an empty
/// object) when a result did not arrive within 60 s.
QJsonObject benchGui(const QElapsedTimer& sinceMain, int moves, bool* ok);

/// Resident set size of this process in MB (1e6 bytes), from /proc/self/status; 0 if unknown.
double residentMegabytes();

}  // namespace tandem::ui
