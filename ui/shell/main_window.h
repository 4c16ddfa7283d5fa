#pragma once
// The Tandem main window: two workspaces, menus, file handling. Kept small: it assembles one
// widget per view and routes the scenario between the document and the workspaces.
#include <QMainWindow>
#include <optional>

#include "common/diagnostics.h"
#include "mosaic/user_run.h"
#include "ui/shell/presets.h"

class QAction;
class QLabel;
class QMenu;
class QTabWidget;
class QUndoStack;

namespace tandem::io {
struct LossFit;
}

namespace tandem::ui {

class ChartView;
class ClusterLink;
class DiagnosticsDialog;
class LogRunDialog;
class MoeWorkspace;
class NetworkWorkspace;
class RecoveryAutosaver;
class ScenarioDocument;
struct ImportedFile;
struct RecoveryEntry;

/// Where an imported dense model config goes (MoE configs always go to the frontier).
enum class DenseModelTarget {
    Ask,         ///< a small dialog asks (interactive use)
    Foreground,  ///< ML-for-ML foreground job: foreground_parameters = n_total
    Background,  ///< ML-for-ML background job model: gradient_GB = 2 bytes (BF16) x n_total
    Frontier,    ///< a labelled point on the MoE loss-vs-sparsity chart
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    /// Opens a scenario file. A bad file shows its problems (JSON path + reason) in a
    /// non-blocking DiagnosticsDialog and keeps the current scenario; returns false then.
    bool openFile(const QString& path);
    /// Saves atomically to `path` (canonical JSON); returns false and shows why on failure.
    bool saveFile(const QString& path);
    /// File > Import (and drag-and-drop of a non-scenario file) [issue 8]. Detects the kind and
    /// routes it: a model config -> a labelled point on the MoE frontier with its best layout,
    /// MFU and memory in the side panel (a dense config may instead become the ML-for-ML
    /// foreground job, per `dense`); an nccl-tests log -> the "Measured collectives" page; a
    /// loss log -> the "Loss log fit" page (its button sets the progress curve); a load trace
    /// -> ml_for_ml.trace_file and scenario "trace". A change to the scenario marks the document
    /// modified (reopen the file to undo); chart overlays (model points, logs) are cleared when
    /// another scenario is opened. A bad file shows its problems (file, line or JSON path) in
    /// the DiagnosticsDialog and changes nothing; returns false then (also when cancelled).
    bool importFile(const QString& path, DenseModelTarget dense = DenseModelTarget::Ask);
    /// A run of the user's from a training log (File > Import of a log, after its dialog): read
    /// as `tandem-cli calibrate` reads it (mosaic::userRunCase), kept in the scenario
    /// (mosaic.measured_runs; a run of the same log replaced) and shown on the reality check
    /// as "yours". False with the problems in `diag` (the field named), nothing changed.
    bool importUserRun(const mosaic::UserRun& run, Diagnostics& diag);
    /// The dialog of the last training log imported (tests), or nullptr.
    LogRunDialog* lastLogRunDialog() const { return m_lastLogRunDialog; }
    /// Starts crash recovery: the document is autosaved `debounceMs` after each change while it
    /// is modified, into `dir` (empty: AppLocalDataLocation/recovery) [issue 7].
    void enableRecovery(const QString& dir = {}, int debounceMs = 2000);
    RecoveryAutosaver* recovery() const { return m_recovery; }
    /// Asks "Recover unsaved changes from <time>?" (Recover / Discard) for each recovery file of
    /// a session that did not exit cleanly, newest first, until one is recovered. Returns true
    /// when a scenario was recovered. Needs enableRecovery().
    bool offerRecovery();
    /// Loads a recovery file as a modified document that keeps its original file path, then
    /// deletes that file (this session's autosave takes over). False + `diag` if unreadable.
    /// When the original file no longer exists, the status bar says so and Save asks for a
    /// new name (saveAsksForName()).
    bool recoverFrom(const RecoveryEntry& entry, Diagnostics& diag);
    /// Moves every entry with a `problem` into the recovery folder's `rejected/` (logged in
    /// rejected.log and by qWarning) and says so in the status bar; returns how many.
    int rejectUnreadableRecovery(const QList<RecoveryEntry>& entries);
    /// True when File > Save asks for a file name (Save As): untitled, or the file it was
    /// opened from (or recovered for) no longer exists.
    bool saveAsksForName() const;

    ScenarioDocument* document() const { return m_doc; }
    NetworkWorkspace* networkWorkspace() const { return m_network; }
    MoeWorkspace* moeWorkspace() const { return m_moe; }
    /// Every chart of both workspaces.
    QList<ChartView*> allCharts() const;
    /// The chart the user last clicked in the visible workspace (else that workspace's first).
    ChartView* currentChart() const;
    /// Shows workspace `index` (0 network, 1 MoE).
    void setCurrentWorkspace(int index);
    /// Help > About: the version (QApplication::applicationVersion) and the two papers cited
    /// (ML-for-ML arXiv:2608.06046, MOSAIC arXiv:2608.10605), rich text.
    static QString aboutText();
    /// Help > Keyboard shortcuts as plain text, one "keys: what they do" line each: every menu
    /// action that has a shortcut (in menu order, in this platform's key names), then the keys
    /// of sliders and charts.
    QString shortcutsText() const;
    /// Edit > Undo / Redo of control changes (a slider drag is one step); cleared when another
    /// scenario is opened, a preset applied or a new scenario made.
    QUndoStack* undoStack() const { return m_undo; }
    /// View > Same cluster in both workspaces: co-running jobs and nodes linked (tests).
    ClusterLink* clusterLink() const { return m_link; }
    QAction* clusterLinkAction() const { return m_linkAction; }
    /// The scenario note above the workspaces (tests).
    QLabel* scenarioNote() const { return m_note; }
    /// The last diagnostics dialog shown (tests), or nullptr.
    DiagnosticsDialog* lastDiagnosticsDialog() const { return m_lastDialog; }
    /// Waits (spinning the event loop) until both workspaces are idle; for exports and tests.
    /// With `drawHidden`, the charts of pages not in front are drawn too (ChartView::ensureBuilt),
    /// so that every chart holds the latest result; without it (the GUI bench), they stay put
    /// off as they are for the user until shown.
    bool waitForResults(int timeoutMs, bool drawHidden = true);

    /// The window's size on a screen large enough for it: 1280 x 800 logical pixels.
    static QSize preferredWindowSize() { return {1280, 800}; }
    /// Where the first window goes (no saved geometry) on a screen whose available area
    /// (QScreen::availableGeometry, logical pixels) is `available`: preferredWindowSize(), or 90 %
    /// of the available width and height where that is smaller, but not below `minimum` nor
    /// beyond `available`; centred in `available`. Both rectangles include the window frame.
    static QRect firstWindowFrame(const QRect& available, const QSize& minimum);
    /// `frame` (window frame included) brought onto `available`: unchanged when it lies inside;
    /// else shrunk to at most the available size and moved the least distance that puts it
    /// inside (a geometry saved on a larger monitor, or on one no longer connected).
    static QRect frameOnScreen(const QRect& frame, const QRect& available);

    /// File > New: the default scenario, untitled (asks about unsaved changes first when `ask`).
    void newScenario(bool ask = true);
    /// File > Reset to defaults: every part the scenario has (both when it has none) gets the
    /// default scenario's values; name, description and file path stay, the document is marked
    /// modified.
    void resetToDefaults();
    /// Loads preset `index` of allPresets() (asks about unsaved changes first when `ask`).
    void applyPreset(int index, bool ask = true);
    /// Switches light/dark and restyles every chart (remembered in QSettings).
    void setDarkTheme(bool dark);
    /// Presentation mode (View menu, F5): every chart's fonts kPresentationFontScale times larger
    /// for a projector (remembered in QSettings "view/presentation").
    void setPresentationMode(bool on);
    bool presentationMode() const;
    /// View > Pin for comparison (Ctrl+Shift+P, checked while pinned; the side panels' "Pin for
    /// comparison" buttons trigger the same action and show its checked state): every chart keeps
    /// what it draws now as dashed grey curves under later states (ChartView::pinCurves), the
    /// first-crossing bars the times shown now (NetworkWorkspace::setComparisonPinned) and the
    /// Plan page each figure's change against the plan shown now (PlanPanel::setPinned); calling
    /// it again replaces the pin.
    void pinForComparison();
    /// View > Clear pinned: ends the comparison everywhere.
    void clearComparison();
    /// Whether a comparison is pinned.
    bool comparisonPinned() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildMenus();
    /// Restores `savedGeometry` (QWidget::saveGeometry) and brings it onto the screen it opens
    /// on (frameOnScreen); without one (or one Qt refuses) the first window's geometry
    /// (firstWindowFrame with the window's minimum size).
    void placeOnScreen(const QByteArray& savedGeometry);
    void syncFromDocument();
    void updateTitle();
    /// Shows the scenario's note only on the workspace it is about (m_noteWorkspace).
    void updateNote();
    /// The note's text for the scenario as it is now (scenarioNoteHtml with m_preset's
    /// preset): after any edit of a preset it says "Modified from preset".
    void updateNoteText();
    bool maybeSave();
    void exportCurrentChart();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void showDiagnostics(const QString& path, const Diagnostics& diag);
    bool applyImport(const ImportedFile& f, DenseModelTarget dense, Diagnostics& diag);
    /// Shows the imports the scenario keeps (`ml_for_ml.loss_log_file`,
    /// `mosaic.imported_model_files`, `mosaic.shown_nccl_tests_file`) in the workspaces, read
    /// again by readImport; the document is not changed, the pages in front stay in front. A
    /// file that no longer imports is named in the status bar.
    void showScenarioImports();
    void importDialog();
    void applyLossFit(const io::LossFit& fit);
    /// Adds (`on`) or removes the nccl-tests log `path` in mosaic.nccl_tests_files, validated.
    void useMeasuredCollectives(bool on, const QString& path);

    ScenarioDocument* m_doc;
    NetworkWorkspace* m_network;
    MoeWorkspace* m_moe;
    QTabWidget* m_tabs;
    ChartView* m_currentChart = nullptr;
    DiagnosticsDialog* m_lastDialog = nullptr;
    LogRunDialog* m_lastLogRunDialog = nullptr;
    QMenu* m_recentMenu = nullptr;
    QUndoStack* m_undo;
    bool m_applyingUndo = false;   ///< an undo/redo is writing the controls: push nothing
    bool m_recordingEdit = false;  ///< an edit that is pushed as an undo step is being applied
    QLabel* m_note = nullptr;
    int m_noteWorkspace = -1;        ///< workspace the note is about (-1: both)
    std::optional<Preset> m_preset;  ///< the preset the scenario came from (none: a file, new)
    /// The scenario as it was opened or recovered (its description is about these values); the
    /// note says "Modified from" once the scenario differs from it.
    std::optional<Scenario> m_origin;
    bool m_keepOrigin = false;  ///< resetToDefaults: the reset keeps m_origin
    QAction* m_darkAction = nullptr;
    QAction* m_presentationAction = nullptr;
    QAction* m_pinAction = nullptr;
    QAction* m_clearPinAction = nullptr;
    /// Shows whether a comparison is pinned on the pin action and the side panels' buttons.
    void showPinned(bool on);
    ClusterLink* m_link = nullptr;
    QAction* m_linkAction = nullptr;
    RecoveryAutosaver* m_recovery = nullptr;
};

}  // namespace tandem::ui
