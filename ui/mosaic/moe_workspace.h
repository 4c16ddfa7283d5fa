#pragma once
// Workspace 2, "MoE sparsity frontier" [2608.10605]: controls, charts and the live workers.
#include <QWidget>
#include <optional>
#include <string>

#include "io/nccl_tests.h"
#include "mosaic/calibrate.h"
#include "mosaic/envelope.h"
#include "mosaic/search.h"
#include "ui/mosaic/background_levels.h"
#include "ui/mosaic/imported_model.h"
#include "ui/mosaic/layout_cells.h"
#include "ui/shell/deferred_compute.h"
#include "ui/shell/job_runner.h"
#include "ui/shell/recent_results.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QTabWidget;

namespace tandem::ui {

class CandidateTable;
class ChartView;
class ScenarioDocument;
class FrontierLevelsView;
class FrontierView;
class ImportedModelCard;
class NcclView;
class LayoutHeatmapView;
class MemoryBarView;
class MfuView;
class MoeControls;
class OptimumCard;
class OptimumVsJobsView;
class PlanPanel;
class RealityView;
class StepBreakdownView;

/// What the search worker hands back: the search, the envelope it ran on, and the PP x EP
/// layout cells of the optimum's geometry (so one slider move costs one round trip).
struct MoeOutput {
    mosaic::SearchResult result;
    mosaic::Envelope envelope;
    LayoutCells optimumCells;
    std::vector<ImportedModelPoint> imported;  ///< imported models costed on the same envelope
    mosaic::EnvelopeKey inputs;  ///< mosaic::searchKey(envelope): the recent-results cache's key
};

/// What a search depends on, as one string: the envelope as the scenario writes it and the
/// identity of its measured collective curves (the same file names may hold other curves after
/// an import). Two envelopes with equal keys give identical searches.

/// Assembles the MOSAIC side panel (controls, the selected candidate's card) and the chart
/// pages: (1) frontier, MFU vs S, MFU vs G; (2) ranked candidate table, PP x EP heatmap,
/// step-time breakdown and memory bar; (3) an imported nccl-tests log (hidden until one is
/// imported); (4) "Reality check", predicted against measured runs (RealityView); (5) "Co-running
/// jobs", the frontier per background level and the cluster optimum against co-running jobs;
/// (6) "Plan", the full plan of one model (PlanPanel).
/// One selection (a candidate, optionally with a layout picked on the heatmap) drives the card and
/// every view. Engine inputs go to a JobRunner running mosaic::search (coalesced, cancellable); a
/// second runner computes the heatmap of a newly selected geometry; a third runs one search per
/// background level (mosaic::searchPerBackgroundLevel), only while the "Co-running jobs" page is
/// shown (a change made elsewhere marks it stale).
class MoeWorkspace : public QWidget {
    Q_OBJECT
public:
    explicit MoeWorkspace(QWidget* parent = nullptr);
    /// With `on`, an input change made while the window is shown but this workspace is not (a
    /// linked slider of the other workspace) is computed when the workspace is next shown; the
    /// main window turns it on. Off (the default): every change is computed at once.
    void setComputeWhenShown(bool on) { m_deferral.setEnabled(on); }
    /// Makes `doc`'s scenario the one owner of the envelope: from now on envelope() is
    /// `doc->scenario().mosaic` itself (the workspace keeps no copy). The workspace's own edits
    /// are announced by envelopeEdited / envelopeCalibrated with the new envelope, and the
    /// receiver stores it in the document (ScenarioDocument::setMosaic) before the signal returns
    /// (MainWindow, which also puts the edit on the undo stack). showEnvelope() shows it.
    void setDocument(ScenarioDocument* doc);
    /// Re-reads the envelope from its owner and shows it (controls, charts, a new search): after
    /// the document's envelope was replaced (open, preset, undo/redo, an import).
    void showEnvelope();
    /// Replaces the envelope at its owner and shows it: the document's mosaic section
    /// (ScenarioDocument::setMosaic: marked modified, no undo step; `e` must hold a value) when a
    /// document is set, else the workspace's own (nullopt: no MoE scenario).
    void setEnvelope(const std::optional<mosaic::Envelope>& e);
    /// The envelope shown: the document's mosaic section (setDocument), else the workspace's own.
    const std::optional<mosaic::Envelope>& envelope() const;
    QList<ChartView*> charts() const;
    MoeControls* controls() const { return m_controls; }
    FrontierView* frontierView() const { return m_frontier; }
    MfuView* mfuSparsityView() const { return m_mfuS; }
    MfuView* mfuSplitView() const { return m_mfuG; }
    StepBreakdownView* breakdownView() const { return m_breakdown; }
    MemoryBarView* memoryView() const { return m_memory; }
    LayoutHeatmapView* heatmapView() const { return m_heatmap; }
    CandidateTable* candidateTable() const { return m_table; }
    OptimumCard* card() const { return m_card; }
    RealityView* realityView() const { return m_reality; }
    /// Index of the "Measured collectives" page in pages() (hidden until a log is imported).
    static constexpr int kNcclPage = 2;
    /// Index of the "Reality check" page in pages().
    static constexpr int kRealityPage = 3;
    /// Index of the "Co-running jobs" page in pages().
    static constexpr int kCoRunningPage = 4;
    /// Index of the "Plan" page in pages() (PlanPanel).
    static constexpr int kPlanPage = 5;
    /// The "Plan" page: the full plan of the cluster optimum, the shown candidate or an imported
    /// model, and its Megatron-LM launch line.
    PlanPanel* planPanel() const { return m_plan; }
    QTabWidget* pages() const { return m_pages; }
    JobRunner* runner() const { return m_runner.runner(); }
    JobRunner* layoutRunner() const { return m_layoutRunner.runner(); }
    JobRunner* levelsRunner() const { return m_levelsRunner.runner(); }
    /// True while any of the workspace's runners has work (not the preparation of neighbouring
    /// cluster sizes, which runs in the background: prepareRunner()).
    bool isBusy() const;
    JobRunner* prepareRunner() const { return m_prepareRunner.runner(); }
    /// Runs the calibration of "Calibrate to these runs" (calibrateToUserRuns).
    JobRunner* calibrationRunner() const { return m_calibrationRunner.runner(); }
    /// Calibrates megatron-core to the scenario's imported runs (mosaic.measured_runs, on one
    /// hardware) off the GUI thread (mosaic::calibrateToRuns, the same calibration and check as
    /// `tandem-cli calibrate`); the result becomes the scenario's stack, "my-HARDWARE" (kept at
    /// megatron-core's constants when the refit was declined, which the sentence says)
    /// (envelopeCalibrated: one undo step of its own), and the frontier and plan are costed under
    /// it. False with `why` when there is nothing to calibrate to or one runs already.
    bool calibrateToUserRuns(QString* why = nullptr);
    /// The stack the reality check costs the imported runs under: the scenario's when it is a
    /// calibrated stack, else megatron-core (the stack the shipped runs are costed under).
    static mosaic::Stack userRunsStack(const mosaic::Envelope& e);
    /// mosaic::searchKey of the envelopes of the latest preparation (prepareNeighbours), running
    /// or done; empty once one was stopped.
    const std::vector<mosaic::EnvelopeKey>& preparingInputs() const { return m_preparing; }
    FrontierLevelsView* frontierLevelsView() const { return m_frontierLevels; }
    OptimumVsJobsView* optimumVsJobsView() const { return m_optimumVsJobs; }
    const std::optional<mosaic::SearchResult>& result() const { return m_result; }
    /// Selected candidate (index into result()->candidates), -1 none.
    int selectedCandidate() const { return m_selected; }
    /// Selects a candidate everywhere (table, card, charts) and computes its heatmap.
    void selectCandidate(int index);
    /// Selects heatmap cell `index` of the selected geometry (updates card, breakdown, memory).
    void selectLayoutCell(int index);
    /// The candidate as currently shown (with a layout chosen on the heatmap, D and loss
    /// re-derived from that layout's MFU); nullopt when nothing is selected.
    std::optional<mosaic::Candidate> shownCandidate() const;
    void applyTheme();

    /// Adds an imported model (a model with the same label is replaced); it is costed on the
    /// envelope with every search and drawn on the frontier with its label.
    void addImportedModel(const ImportedModel& m);
    /// Shows an nccl-tests log on the "Measured collectives" page (made visible), against the
    /// compiled-in hardware its file name names (H100, A100, GB200, ...) or the envelope's.
    /// `path` is the log's file: the "Use in MoE model" box is checked when the envelope's
    /// nccl_tests_files already lists it.
    void setNcclImport(const io::NcclImport& imp, const QString& label, const QString& path = {});
    /// Removes every imported model and log (a new scenario was opened).
    void clearImports();
    const std::vector<ImportedModel>& importedModels() const { return m_importedModels; }
    /// The imported models as costed by the last search shown.
    const std::vector<ImportedModelPoint>& importedPoints() const { return m_importedPoints; }
    ImportedModelCard* importedCard() const { return m_importedCard; }
    NcclView* ncclView() const { return m_nccl; }
    QComboBox* ncclHardwareBox() const { return m_ncclHardware; }
    /// "Use in MoE model": attach the shown log to the envelope (mosaic.nccl_tests_files).
    QCheckBox* ncclUseBox() const { return m_ncclUse; }
    QString ncclFile() const { return m_ncclFile; }

signals:
    void envelopeEdited(const tandem::mosaic::Envelope& e);
    /// The envelope's stack became the one calibrated to the imported runs.
    void envelopeCalibrated(const tandem::mosaic::Envelope& e);
    void resultsShown();
    void busyChanged(bool busy);
    /// The user toggled "Use in MoE model" for the shown log `path`.
    void ncclUseToggled(bool on, const QString& path);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void recompute();
    /// True when computing is put off (see setComputeWhenShown).
    void showResult(const MoeOutput& out);
    void refreshSelection();
    /// Submits the per-level searches when the "Co-running jobs" page is shown and stale.
    void recomputeLevels();
    /// While nothing else is computed, costs the cluster sizes at the nodes slider's
    /// neighbouring stops (the direction of the last move first) with mosaic::prepareSearch, so
    /// that a step of the slider re-scores kept costings instead of costing the cluster (and
    /// a step taken while one is costed waits for it instead of starting again). Not part of
    /// isBusy(); stopped when the next search is for anything else.
    void prepareNeighbours();
    /// Shows the scenario's imported runs on the reality check (re-read when they or the stack
    /// change; moe_workspace_runs.cpp).
    void showUserRuns();
    /// Connects the reality check's Calibrate button and the calibration's result.
    void connectCalibration();

    /// The owner of the envelope (setDocument); null: m_ownEnvelope (a workspace on its own).
    ScenarioDocument* m_doc = nullptr;
    /// The envelope of a workspace without a document; unused once one is set.
    std::optional<mosaic::Envelope> m_ownEnvelope;
    /// Stores an edit made here at the owner (without a document; with one, the receiver of
    /// the signal does) and emits envelopeEdited, or envelopeCalibrated when `calibrated`.
    void commitEdit(const mosaic::Envelope& e, bool calibrated);
    std::optional<mosaic::SearchResult> m_result;
    mosaic::Envelope m_resultEnvelope;
    int m_selected = -1;
    LayoutCells m_cells;
    int m_cellsFor = -1;    ///< candidate whose geometry m_cells holds
    int m_layoutCell = -1;  ///< heatmap cell chosen by the user, -1 = the candidate's own plan
    MoeControls* m_controls;
    QTabWidget* m_pages;
    FrontierView* m_frontier;
    MfuView* m_mfuS;
    MfuView* m_mfuG;
    CandidateTable* m_table;
    LayoutHeatmapView* m_heatmap;
    StepBreakdownView* m_breakdown;
    MemoryBarView* m_memory;
    OptimumCard* m_card;
    RealityView* m_reality;
    QLabel* m_status;
    ImportedModelCard* m_importedCard;
    NcclView* m_nccl;
    QComboBox* m_ncclHardware;
    QCheckBox* m_ncclUse;
    QString m_ncclFile;
    QWidget* m_ncclPage;
    std::vector<ImportedModel> m_importedModels;
    std::vector<ImportedModelPoint> m_importedPoints;
    TypedJobRunner<MoeOutput> m_runner;
    TypedJobRunner<std::pair<int, LayoutCells>> m_layoutRunner;  ///< (candidate, its cells)
    FrontierLevelsView* m_frontierLevels;
    OptimumVsJobsView* m_optimumVsJobs;
    PlanPanel* m_plan;
    QLabel* m_levelsStatus;
    TypedJobRunner<BackgroundLevels> m_levelsRunner;
    TypedJobRunner<int> m_prepareRunner;  ///< prepareNeighbours (returns how many it costed)
    std::vector<mosaic::EnvelopeKey> m_preparing;  ///< preparingInputs()
    int m_nodesStep = 1;  ///< +1 / -1: the direction of the last change of the node count
    bool m_levelsStale = true;
    /// unitChangeNote of the last hardware switch, shown in the status line with the next
    /// result; cleared by the next other edit.
    QString m_unitNote;
    DeferredCompute m_deferral{this};
    /// The last searches shown, by mosaic::searchKey (imported models change: cleared).
    RecentResults<mosaic::EnvelopeKey, MoeOutput> m_recent{16};
    TypedJobRunner<mosaic::CalibrationResult> m_calibrationRunner{this};
    /// What the reality check shows of the imported runs: the runs and the stack's JSON.
    std::vector<mosaic::UserRun> m_userRunsShown;
    std::string m_userRunsStack;
};

}  // namespace tandem::ui
