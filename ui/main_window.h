#pragma once
// The Tandem main window: two workspaces, menus, file handling. Kept small: it assembles one
// widget per view and routes the scenario between the document and the workspaces.
#include <QMainWindow>

class QAction;
class QLabel;
class QMenu;
class QTabWidget;

namespace tandem::ui {

class ChartView;
class DiagnosticsDialog;
class MoeWorkspace;
class NetworkWorkspace;
class ScenarioDocument;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    /// Opens a scenario file. A bad file shows its problems (JSON path + reason) in a
    /// non-blocking DiagnosticsDialog and keeps the current scenario; returns false then.
    bool openFile(const QString& path);
    /// Saves atomically to `path` (canonical JSON); returns false and shows why on failure.
    bool saveFile(const QString& path);

    ScenarioDocument* document() const { return m_doc; }
    NetworkWorkspace* networkWorkspace() const { return m_network; }
    MoeWorkspace* moeWorkspace() const { return m_moe; }
    /// Every chart of both workspaces.
    QList<ChartView*> allCharts() const;
    /// The chart the user last clicked in the visible workspace (else that workspace's first).
    ChartView* currentChart() const;
    /// Shows workspace `index` (0 network, 1 MoE).
    void setCurrentWorkspace(int index);
    /// The last diagnostics dialog shown (tests), or nullptr.
    DiagnosticsDialog* lastDiagnosticsDialog() const { return m_lastDialog; }
    /// Waits (spinning the event loop) until both workspaces are idle; for exports and tests.
    bool waitForResults(int timeoutMs);

    /// Loads preset `index` of allPresets() (asks about unsaved changes first when `ask`).
    void applyPreset(int index, bool ask = true);
    /// Switches light/dark and restyles every chart (remembered in QSettings).
    void setDarkTheme(bool dark);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildMenus();
    void syncFromDocument();
    void updateTitle();
    bool maybeSave();
    void exportCurrentChart();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();

    ScenarioDocument* m_doc;
    NetworkWorkspace* m_network;
    MoeWorkspace* m_moe;
    QTabWidget* m_tabs;
    ChartView* m_currentChart = nullptr;
    DiagnosticsDialog* m_lastDialog = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_note = nullptr;
    QAction* m_darkAction = nullptr;
};

}  // namespace tandem::ui
