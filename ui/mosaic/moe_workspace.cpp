#include "ui/mosaic/moe_workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "mosaic/layout_grid.h"
#include "ui/mosaic/background_levels.h"
#include "ui/mosaic/candidate_table.h"
#include "ui/mosaic/cluster_unit.h"
#include "ui/mosaic/frontier_levels_view.h"
#include "ui/mosaic/frontier_view.h"
#include "ui/mosaic/imported_model_card.h"
#include "ui/mosaic/layout_heatmap_view.h"
#include "ui/mosaic/memory_bar_view.h"
#include "ui/mosaic/mfu_view.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/mosaic/nccl_view.h"
#include "ui/mosaic/optimum_card.h"
#include "ui/mosaic/optimum_vs_jobs_view.h"
#include "ui/mosaic/plan_panel.h"
#include "ui/mosaic/reality_view.h"
#include "ui/mosaic/step_breakdown_view.h"
#include "ui/shell/job_runner.h"
#include "ui/shell/scenario_document.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/count_label.h"
#include "ui/widgets/labeled_slider.h"
#include "ui/widgets/workspace_layout.h"

namespace tandem::ui {

MoeWorkspace::MoeWorkspace(QWidget* parent)
    : QWidget(parent),
      m_controls(new MoeControls(this)),
      m_pages(new QTabWidget(this)),
      m_frontier(new FrontierView(this)),
      m_mfuS(new MfuView(MfuView::Axis::Sparsity, this)),
      m_mfuG(new MfuView(MfuView::Axis::Split, this)),
      m_table(new CandidateTable(this)),
      m_heatmap(new LayoutHeatmapView(this)),
      m_breakdown(new StepBreakdownView(this)),
      m_memory(new MemoryBarView(this)),
      m_card(new OptimumCard(this)),
      m_reality(new RealityView(this)),
      m_status(new QLabel(this)),
      m_importedCard(new ImportedModelCard(this)),
      m_nccl(new NcclView(this)),
      m_ncclHardware(new QComboBox(this)),
      m_ncclUse(new QCheckBox(tr("Use in MoE model"), this)),
      m_ncclPage(new QWidget(this)),
      m_runner(this),
      m_layoutRunner(this),
      m_frontierLevels(new FrontierLevelsView(this)),
      m_optimumVsJobs(new OptimumVsJobsView(this)),
      m_plan(new PlanPanel(this)),
      m_levelsStatus(new QLabel(this)),
      m_levelsRunner(this),
      m_prepareRunner(this) {
    auto* panel = new QWidget(this);
    auto* pl = new QVBoxLayout(panel);
    pl->setContentsMargins(0, 0, 0, 0);
    pl->addWidget(m_controls);
    pl->addWidget(m_card);
    pl->addWidget(m_importedCard);
    pl->addStretch();
    layOutWorkspace(this, panel, m_pages, m_status);

    m_pages->setObjectName(QStringLiteral("moePages"));
    QWidget* mfus = weightedSplitter(Qt::Vertical, m_pages, {m_mfuS, m_mfuG}, {1, 1});
    m_pages->addTab(weightedSplitter(Qt::Horizontal, m_pages, {m_frontier, mfus}, {3, 2}),
                    tr("Frontier and MFU"));
    QWidget* details = weightedSplitter(Qt::Vertical, m_pages, {m_breakdown, m_memory}, {1, 1});
    QWidget* layouts = weightedSplitter(Qt::Horizontal, m_pages, {m_heatmap, details}, {1, 1});
    m_pages->addTab(weightedSplitter(Qt::Vertical, m_pages, {m_table, layouts}, {1, 2}),
                    tr("Candidates and layouts"));
    {
        auto* nl = new QVBoxLayout(m_ncclPage);
        nl->setContentsMargins(0, 0, 0, 0);
        auto* row = new QHBoxLayout;
        auto* caption = new QLabel(tr("Analytical model of:"), m_ncclPage);
        row->addWidget(caption);
        m_ncclHardware->setObjectName(QStringLiteral("ncclHardware"));
        for (const std::string& name : mosaic::hardwareNames())
            m_ncclHardware->addItem(QString::fromStdString(name));
        m_ncclHardware->setToolTip(
            tr("Compiled-in hardware whose collective model (NVLink inside a node, the "
               "NIC across nodes) is drawn against the measurement [MODEL.md B4]"));
        row->addWidget(m_ncclHardware);
        row->addSpacing(16);
        m_ncclUse->setObjectName(QStringLiteral("ncclUse"));
        m_ncclUse->setToolTip(
            tr("Cost the collectives of the search with this measured curve instead of the "
               "analytical model (scenario key mosaic.nccl_tests_files) [2608.10605 Sec. 5.3]"));
        row->addWidget(m_ncclUse);
        row->addStretch();
        connect(m_ncclUse, &QCheckBox::toggled, this, [this](bool on) {
            if (!m_ncclFile.isEmpty()) emit ncclUseToggled(on, m_ncclFile);
        });
        nl->addLayout(row);
        nl->addWidget(m_nccl, 1);
        m_pages->addTab(m_ncclPage, tr("Measured collectives"));
        m_pages->setTabToolTip(
            kNcclPage, tr("An imported nccl-tests log against the analytical collective model"));
        m_pages->setTabVisible(kNcclPage, false);
        connect(m_ncclHardware, &QComboBox::currentTextChanged, this, [this](const QString& name) {
            if (m_nccl->hasData() && !name.isEmpty())
                m_nccl->setHardware(mosaic::builtinHardware(name.toStdString()));
        });
    }
    m_pages->addTab(m_reality, tr("Reality check"));
    m_pages->setTabToolTip(
        kRealityPage,
        tr("Tandem's tokens/s per GPU under the megatron-core stack against every shipped measured "
           "Megatron-Core run (DGX-H100, DGX-GB200), with the \u00b125 % band "
           "(tandem-cli reproduce reality)"));
    {
        auto* page = new QWidget(m_pages);
        auto* pl2 = new QVBoxLayout(page);
        pl2->setContentsMargins(0, 0, 0, 0);
        pl2->addWidget(
            weightedSplitter(Qt::Horizontal, page, {m_frontierLevels, m_optimumVsJobs}, {1, 1}), 1);
        m_levelsStatus->setObjectName(QStringLiteral("moeLevelsStatus"));
        m_levelsStatus->setWordWrap(true);
        pl2->addWidget(m_levelsStatus);
        m_pages->addTab(page, tr("Co-running jobs"));
        m_pages->setTabToolTip(
            kCoRunningPage,
            tr("The frontier and the cluster optimum with 0, 1, 2, 4, ... data-parallel jobs "
               "sharing the fabric (mosaic.background; one search per level, computed while "
               "this page is shown) [docs/MODEL-NETWORK.md section 7]"));
    }
    m_pages->addTab(m_plan, tr("Plan"));
    m_pages->setTabToolTip(
        kPlanPage, tr("The full plan of the cluster-optimal model, the selected candidate or an "
                      "imported model: tokens/s per GPU, iteration time, MFU, days to the token "
                      "target, step time and memory per pipeline stage, and its Megatron-LM "
                      "launch line (tandem-cli plan)"));
    // Short titles for a tab bar too narrow for the full ones (an 800 px window).
    const QStringList brief = {tr("Frontier"), tr("Layouts"),    tr("Collectives"),
                               tr("Reality"),  tr("Co-running"), tr("Plan")};
    for (int i = 0; i < brief.size() && i < m_pages->count(); ++i)
        setShortTabText(m_pages, i, brief[i]);
    connect(m_pages, &QTabWidget::currentChanged, this, [this](int) { recomputeLevels(); });
    connectCalibration();
    m_levelsRunner.onResult(this, [this](const BackgroundLevels& r, quint64) {
        if (!envelope()) return;
        m_frontierLevels->setEmptyReason(QString());
        m_optimumVsJobs->setEmptyReason(QString());
        m_frontierLevels->setData(r);
        m_optimumVsJobs->setData(r);
        m_levelsStatus->setText(backgroundLevelsNote(r));
    });
    connect(m_levelsRunner.runner(), &JobRunner::failed, this,
            [this](const QString& message, quint64) {
                const QString why =
                    tr("The co-running-job levels could not be computed: %1").arg(message);
                m_frontierLevels->setEmptyReason(why);
                m_optimumVsJobs->setEmptyReason(why);
                m_levelsStatus->clear();
            });
    m_pages->setTabToolTip(0,
                           tr("Loss against sparsity under both assumptions, MFU against S and G "
                              "[2608.10605 Fig. 1, Sec. 5, 7]"));
    m_pages->setTabToolTip(
        1, tr("Ranked candidates; PP x EP layouts of the selected geometry (click one), its "
              "step-time breakdown and memory per GPU [2608.10605 Sec. 5, Table 4]"));

    connect(m_controls, &MoeControls::engineInputsChanged, this, [this]() {
        if (!envelope()) return;
        mosaic::Envelope e = *envelope();
        const int gpusBefore = e.nodes * e.hardware.gpusPerNode;
        const int unitBefore = e.hardware.gpusPerNode;
        m_controls->applyTo(e);
        m_unitNote.clear();
        // A switch to hardware of another unit (nodes of 8, racks of 72) keeps the GPU count as
        // close as the new unit allows, and says so.
        if (e.hardware.gpusPerNode != unitBefore) {
            // At most as many units as the envelope reader accepts for `nodes`.
            const int most = int(mosaic::envelopeField("nodes").range.max);
            const int units = unitsNearestGpus(gpusBefore, e.hardware.gpusPerNode, most);
            e.nodes = units;
            m_controls->nodesSlider()->setValueSilently(units);
            m_unitNote = unitChangeNote(e.hardware, gpusBefore, units);
        }
        m_controls->showClusterUnit(e.hardware);
        m_controls->showFabricCapacity(e);
        commitEdit(e, false);
        recompute();
    });
    connect(m_table, &CandidateTable::candidateSelected, this, &MoeWorkspace::selectCandidate);
    connect(m_heatmap, &LayoutHeatmapView::cellClicked, this, &MoeWorkspace::selectLayoutCell);
    m_runner.onResult(this, [this](const MoeOutput& r, quint64) {
        if (!envelope()) return;
        m_recent.insert(r.inputs, r);
        showResult(r);
        prepareNeighbours();
    });
    connect(m_runner.runner(), &JobRunner::failed, this, [this](const QString& message, quint64) {
        m_status->setText(tr("<b>Computation failed:</b> %1").arg(message.toHtmlEscaped()));
    });
    m_layoutRunner.onResult(this, [this](const std::pair<int, LayoutCells>& r, quint64) {
        if (r.first != m_selected) return;
        m_cells = r.second;
        m_cellsFor = r.first;
        refreshSelection();
    });
    auto busy = [this](bool) { emit busyChanged(isBusy()); };
    for (const JobRunner* r : {m_runner.runner(), m_layoutRunner.runner(), m_levelsRunner.runner()})
        connect(r, &JobRunner::busyChanged, this, busy);
}

bool MoeWorkspace::isBusy() const {
    return m_runner.runner()->isBusy() || m_layoutRunner.runner()->isBusy() ||
           m_levelsRunner.runner()->isBusy();
}

void MoeWorkspace::recomputeLevels() {
    if (!envelope() || !m_levelsStale || m_pages->currentIndex() != kCoRunningPage) return;
    m_levelsStale = false;
    const mosaic::Envelope e = *envelope();  // the worker owns its copy
    const mosaic::BackgroundLoad& bg = mosaic::backgroundOrIdle(e);
    // The charts keep the last levels until the new ones arrive (a hidden chart would lose its
    // layout); the status line says what is being computed.
    m_levelsStatus->setText(tr("Computing one search per level of co-running jobs..."));
    m_levelsRunner.submit([e, bg](const tandem::CancelFlag* cancel) {
        BackgroundLevels out;
        out.jobs = backgroundChartLevels(e);
        out.results =
            mosaic::searchPerBackgroundLevel(e, out.jobs, cancel, QThread::idealThreadCount());
        out.currentJobs = e.background ? e.background->jobs : 0;
        out.nodes = e.nodes;
        out.background = bg;
        return out;
    });
}

QList<ChartView*> MoeWorkspace::charts() const {
    QList<ChartView*> out{m_frontier, m_mfuS, m_mfuG, m_heatmap, m_breakdown, m_memory};
    if (m_nccl->hasData()) out.append(m_nccl);
    out.append(m_reality);
    out.append(m_frontierLevels);
    out.append(m_optimumVsJobs);
    return out;
}

void MoeWorkspace::addImportedModel(const ImportedModel& m) {
    auto same = std::find_if(m_importedModels.begin(), m_importedModels.end(),
                             [&](const ImportedModel& x) { return x.label == m.label; });
    if (same != m_importedModels.end())
        *same = m;
    else
        m_importedModels.push_back(m);
    m_recent.clear();  // the cached outputs cost the previous list of models
    recompute();
}

void MoeWorkspace::setNcclImport(const io::NcclImport& imp, const QString& label,
                                 const QString& path) {
    m_ncclFile = path;
    {
        const QSignalBlocker block(m_ncclUse);
        const std::string p = path.toStdString();
        m_ncclUse->setChecked(envelope() && !path.isEmpty() &&
                              std::find(envelope()->ncclTestsFiles.begin(),
                                        envelope()->ncclTestsFiles.end(),
                                        p) != envelope()->ncclTestsFiles.end());
        m_ncclUse->setEnabled(envelope().has_value() && !path.isEmpty());
    }
    // The hardware the file name names, else the scenario's.
    const QString lower = label.toLower();
    QString hw;
    const std::pair<const char*, const char*> guesses[] = {{"gb200", "gb200-nvl72"},
                                                           {"h100", "h100"},
                                                           {"h200", "h200"},
                                                           {"a100", "a100"},
                                                           {"b200", "p6-b200"}};
    for (const auto& [token, name] : guesses)
        if (lower.contains(QLatin1String(token)) &&
            m_ncclHardware->findText(QLatin1String(name)) >= 0) {
            hw = QLatin1String(name);
            break;
        }
    if (hw.isEmpty() && envelope() &&
        m_ncclHardware->findText(QString::fromStdString(envelope()->hardware.name)) >= 0)
        hw = QString::fromStdString(envelope()->hardware.name);
    if (hw.isEmpty()) hw = m_ncclHardware->itemText(0);
    const mosaic::Hardware hardware = mosaic::builtinHardware(hw.toStdString());
    m_nccl->setData(imp, label, hardware);
    {
        const QSignalBlocker block(m_ncclHardware);
        m_ncclHardware->setCurrentText(hw);
    }
    m_pages->setTabVisible(kNcclPage, true);
    m_pages->setCurrentIndex(kNcclPage);
}

void MoeWorkspace::clearImports() {
    const bool hadModels = !m_importedModels.empty();
    m_importedModels.clear();
    m_importedPoints.clear();
    m_frontier->setImported({});
    m_importedCard->setModels({}, std::nullopt, 0);
    if (m_nccl->hasData())
        m_nccl->setData({}, QString(),
                        mosaic::builtinHardware(m_ncclHardware->itemText(0).toStdString()));
    m_pages->setTabVisible(kNcclPage, false);
    m_ncclFile.clear();
    m_recent.clear();
    if (hadModels) recompute();
}

void MoeWorkspace::applyTheme() {
    for (ChartView* c : charts()) c->applyTheme();
}

const std::optional<mosaic::Envelope>& MoeWorkspace::envelope() const {
    return m_doc ? m_doc->scenario().mosaic : m_ownEnvelope;
}

void MoeWorkspace::setDocument(ScenarioDocument* doc) {
    m_doc = doc;
    m_ownEnvelope.reset();
}

void MoeWorkspace::setEnvelope(const std::optional<mosaic::Envelope>& e) {
    if (!m_doc)
        m_ownEnvelope = e;
    else if (e)
        m_doc->setMosaic(*e);
    showEnvelope();
}

void MoeWorkspace::commitEdit(const mosaic::Envelope& e, bool calibrated) {
    if (!m_doc) m_ownEnvelope = e;
    if (calibrated)
        emit envelopeCalibrated(e);
    else
        emit envelopeEdited(e);
}

void MoeWorkspace::showEnvelope() {
    const std::optional<mosaic::Envelope>& e = envelope();
    setEnabled(e.has_value());
    // Without a mosaic section there are no values to show: the controls are hidden, not left
    // at the previous scenario's values, and results still on their way are dropped.
    m_controls->setVisible(e.has_value());
    m_card->setVisible(e.has_value());
    const QString none =
        tr("This scenario has no \"mosaic\" section; open or choose a preset that has one.");
    for (ChartView* v : charts()) v->setEmptyReason(e ? QString() : none);
    // The reality check's runs need no scenario, but its plan does: say what the page is for.
    m_reality->setEmptyReason(
        e ? QString()
          : tr("This scenario has no \"mosaic\" section, so there is no MoE plan to check "
               "against the measured Megatron-Core runs. Open a scenario that has one, or choose "
               "a MoE preset (Presets menu), to see the plan beside the runs."));
    if (!e) {
        m_status->setText(none);
        return;
    }
    m_controls->setEnvelope(*e);
    showUserRuns();
    recompute();
}

void MoeWorkspace::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_deferral.takePending()) recompute();
}

void MoeWorkspace::recompute() {
    if (!envelope()) return;
    if (m_deferral.postpone()) return;
    m_levelsStale = true;
    recomputeLevels();
    const mosaic::Envelope e = *envelope();  // the worker owns its copy
    const mosaic::EnvelopeKey inputs = mosaic::searchKey(e);
    if (e.nodes != m_resultEnvelope.nodes) m_nodesStep = e.nodes > m_resultEnvelope.nodes ? 1 : -1;
    // A costing being prepared for anything else only competes for the cores: stop it.
    if (m_prepareRunner.runner()->isBusy() &&
        std::find(m_preparing.begin(), m_preparing.end(), inputs) == m_preparing.end()) {
        m_prepareRunner.submit([](const tandem::CancelFlag*) { return 0; });
        m_preparing.clear();
    }
    // A search shown a moment ago (a slider dragged back) comes back through the runner, so
    // that it still replaces whatever was requested before it.
    if (std::optional<MoeOutput> seen = m_recent.find(inputs)) {
        m_runner.submit([out = std::move(*seen)](const tandem::CancelFlag*) { return out; });
        return;
    }
    const std::vector<ImportedModel> imported = m_importedModels;
    const int threads = QThread::idealThreadCount();
    m_runner.submit([e, imported, inputs, threads](const tandem::CancelFlag* cancel) {
        MoeOutput out;
        out.result = mosaic::search(e, cancel, threads);
        out.envelope = e;
        out.inputs = inputs;
        for (const ImportedModel& m : imported) out.imported.push_back(evaluateImportedModel(m, e));
        if (out.result.optimum >= 0)
            out.optimumCells = layoutCells(
                out.result.candidates[static_cast<size_t>(out.result.optimum)].geometry, e);
        return out;
    });
}

void MoeWorkspace::prepareNeighbours() {
    if (!envelope() || m_runner.runner()->isBusy()) return;
    const std::vector<double>& stops = m_controls->nodesSlider()->stops();
    const auto at = std::find(stops.begin(), stops.end(), double(envelope()->nodes));
    if (at == stops.end()) return;
    std::vector<mosaic::Envelope> next;
    m_preparing.clear();
    for (int step : {m_nodesStep, -m_nodesStep}) {
        const std::ptrdiff_t i = (at - stops.begin()) + step;
        if (i < 0 || i >= static_cast<std::ptrdiff_t>(stops.size())) continue;
        mosaic::Envelope n = *envelope();
        n.nodes = static_cast<int>(stops[static_cast<size_t>(i)]);
        mosaic::EnvelopeKey key = mosaic::searchKey(n);
        if (m_recent.find(key)) continue;  // shown before: no costing needed
        m_preparing.push_back(std::move(key));
        next.push_back(std::move(n));
    }
    if (next.empty()) return;
    const int threads = QThread::idealThreadCount();
    m_prepareRunner.submit([next, threads](const tandem::CancelFlag* cancel) {
        int costed = 0;
        for (const mosaic::Envelope& n : next) {
            try {
                mosaic::prepareSearch(n, cancel, threads);
                ++costed;
            } catch (const tandem::Cancelled&) {
                throw;
            } catch (const std::exception&) {
                // A size the search refuses (e.g. the background's fabric cannot hold it) is
                // reported when the user picks it; nothing to prepare.
            }
        }
        return costed;
    });
}

void MoeWorkspace::showResult(const MoeOutput& out) {
    const RebuildBatch batch;  // each chart draws once, with all of this result
    const mosaic::SearchResult& r = out.result;
    m_result = r;
    m_resultEnvelope = out.envelope;
    m_selected = r.optimum;
    m_cells = out.optimumCells;
    m_cellsFor = r.optimum;
    m_layoutCell = -1;
    m_importedPoints = out.imported;
    QList<FrontierMarker> markers;
    for (const ImportedModelPoint& p : m_importedPoints)
        markers.append({p.label, p.geometry.sparsity, p.loss, p.extrapolated});
    m_frontier->setImported(markers);
    m_frontier->setCluster(out.envelope.nodes, out.envelope.devices(), out.envelope.days);
    m_frontier->setData(r);
    m_importedCard->setModels(m_importedPoints,
                              r.optimum >= 0 ? std::optional<mosaic::Candidate>(
                                                   r.candidates[static_cast<size_t>(r.optimum)])
                                             : std::nullopt,
                              r.deviceMemoryGB);
    m_mfuS->setData(r, out.envelope.frontierSparsity, m_selected);
    m_mfuG->setData(r, out.envelope.frontierSparsity, m_selected);
    // Without a candidate the MFU charts have nothing to plot: they say why instead of showing
    // empty axes (the first rule that cut the most geometries, and the nearest size that works).
    QString noCandidates;
    if (r.candidates.empty()) {
        const ClusterUnit unit = clusterUnit(out.envelope.hardware);
        noCandidates = QString::fromStdString(mosaic::noFeasibleGeometryText(
                           clusterSizeText(out.envelope.nodes, unit).toStdString())) +
                       QLatin1Char('.');
        if (!r.rejections.empty())
            noCandidates +=
                QLatin1Char(' ') +
                tr("Most were cut by: %1.").arg(QString::fromStdString(r.rejections.front().first));
        if (r.nearestWorkingNodes > 0)
            noCandidates +=
                QLatin1Char(' ') + tr("The nearest size that works: %1.")
                                       .arg(clusterSizeText(r.nearestWorkingNodes, unit));
    }
    m_mfuS->setEmptyReason(noCandidates);
    m_mfuG->setEmptyReason(noCandidates);
    m_table->setCandidates(r.candidates, m_selected);
    // The cluster-size label marks a node count without candidates and names the nearest that
    // works.
    m_controls->nodesSlider()->setValueNote(
        !r.candidates.empty() || out.envelope.nodes != m_controls->nodesSlider()->value()
            ? QString()
        : r.nearestWorkingNodes > 0 ? tr("none fits, try %1").arg(r.nearestWorkingNodes)
                                    : tr("none fits"));
    refreshSelection();
    const QString gain =
        std::isfinite(r.naiveOnClusterLoss) && r.optimum >= 0
            ? tr("the compute-optimal choice loses %1 nats on this cluster")
                  .arg(r.naiveOnClusterLoss - r.candidates[static_cast<size_t>(r.optimum)].loss, 0,
                       'f', 3)
            : tr("the compute-optimal choice does not fit this cluster");
    // The compute-optimal argmin is called a boundary only when it is the grid's last point.
    const auto& grid = out.envelope.frontierSparsity;
    const bool atBoundary =
        !grid.empty() && std::abs(r.computeOptimalSparsity - grid.back()) < 1e-9;
    const QString clusterS = std::isfinite(r.clusterOptimalSparsity)
                                 ? QString::number(r.clusterOptimalSparsity, 'f', 3)
                                 : tr("none (no geometry is feasible on this cluster)");
    // Collectives across more nodes than the scale-out constants were fitted on (or on a node
    // no log measured) are an extrapolation: the status line says so, as plan does.
    const std::string beyond =
        mosaic::networkExtrapolation(out.envelope.hardware, out.envelope.nodes);
    m_status->setText(
        tr("Compute-optimal S = %1%2; cluster-optimal S = %3; %4. "
           "%5 of %6 [2608.10605 Sec. 7, Fig. 1].%7")
            .arg(r.computeOptimalSparsity, 0, 'f', 3)
            .arg(atBoundary ? tr(" (the upper boundary of the sparsity range)") : QString())
            .arg(clusterS)
            .arg(gain)
            .arg(countLabel(static_cast<qint64>(r.candidates.size()), tr("feasible candidate"),
                            tr("feasible candidates")))
            .arg(countLabel(static_cast<qint64>(r.geometriesSearched), tr("geometry"),
                            tr("geometries")))
            .arg(beyond.empty()
                     ? QString()
                     : QLatin1Char(' ') + tr("Note: %1.").arg(QString::fromStdString(beyond))));
    if (!m_unitNote.isEmpty()) m_status->setText(m_status->text() + QLatin1Char(' ') + m_unitNote);
    emit resultsShown();
}

void MoeWorkspace::selectCandidate(int index) {
    if (!m_result || index < 0 || static_cast<size_t>(index) >= m_result->candidates.size()) return;
    m_selected = index;
    m_layoutCell = -1;
    m_table->selectCandidate(index);
    m_mfuS->setSelected(index);
    m_mfuG->setSelected(index);
    if (m_cellsFor != index) {
        const mosaic::Geometry g = m_result->candidates[static_cast<size_t>(index)].geometry;
        const mosaic::Envelope e = m_resultEnvelope;
        m_layoutRunner.submit([g, e, index](const tandem::CancelFlag*) {
            return std::pair<int, LayoutCells>(index, layoutCells(g, e));
        });
    }
    refreshSelection();
}

void MoeWorkspace::selectLayoutCell(int index) {
    if (m_cellsFor != m_selected || index < 0 || static_cast<size_t>(index) >= m_cells.cells.size())
        return;
    const LayoutCell& c = m_cells.cells[static_cast<size_t>(index)];
    if (!c.anyValid) {
        m_status->setText(tr("PP %1 x EP %2 has no valid layout: %3")
                              .arg(c.pp)
                              .arg(c.ep)
                              .arg(QString::fromStdString(c.reason)));
        return;
    }
    m_layoutCell = index;
    refreshSelection();
}

std::optional<mosaic::Candidate> MoeWorkspace::shownCandidate() const {
    if (!m_result || m_selected < 0 ||
        static_cast<size_t>(m_selected) >= m_result->candidates.size())
        return std::nullopt;
    mosaic::Candidate c = m_result->candidates[static_cast<size_t>(m_selected)];
    if (m_layoutCell < 0 || m_cellsFor != m_selected ||
        static_cast<size_t>(m_layoutCell) >= m_cells.cells.size())
        return c;
    const LayoutCell& cell = m_cells.cells[static_cast<size_t>(m_layoutCell)];
    c.plan = cell.plan;
    c.eval = cell.eval;
    c.globalBatch = mosaic::planGlobalBatch(c.plan, c.eval);
    if (cell.feasible) {  // D follows the layout's MFU (Eq. 25), the loss follows D (Eq. 10)
        const mosaic::CandidateScore score =
            mosaic::scoreCandidate(m_resultEnvelope, c.geometry, cell.eval.mfu);
        c.tokens = score.tokens;
        c.loss = score.loss;
        c.extrapolated = score.extrapolated;
    }
    return c;
}

void MoeWorkspace::refreshSelection() {
    if (!m_result) return;
    const auto& r = *m_result;
    const std::optional<mosaic::Candidate> shown = shownCandidate();
    m_reality->setPlanCandidate(m_resultEnvelope, shown);  // the plan on the reality check
    if (!shown) {
        // Which rule cut the geometries, and the nearest node count that works [search.h].
        QString why = QString::fromStdString(mosaic::noFeasibleGeometryText()) + QLatin1Char('.');
        for (const auto& [reason, n] : r.rejections)
            why += QStringLiteral(" ") + tr("%1 cut by: %2.")
                                             .arg(countLabel(n, tr("geometry"), tr("geometries")),
                                                  QString::fromStdString(reason));
        why += QStringLiteral(" ") +
               (r.nearestWorkingNodes > 0
                    ? tr("Nearest cluster that works: %1.")
                          .arg(clusterSizeText(r.nearestWorkingNodes,
                                               clusterUnit(m_resultEnvelope.hardware)))
                    : tr("No cluster within %1 of this one works.")
                          .arg(clusterSizeText(mosaic::kNearestNodesSpan,
                                               clusterUnit(m_resultEnvelope.hardware))));
        m_card->clearCandidate(why);
        m_breakdown->setData({});
        m_memory->setData(0, r.deviceMemoryGB, QString());
        m_heatmap->setData({}, -1, tr("MFU per layout (no feasible geometry)"));
        m_frontier->setSelected(std::nullopt);
        m_plan->setSubjects(
            planSubjects(r, m_resultEnvelope, m_selected, std::nullopt, true, m_importedPoints));
        return;
    }
    const bool own = m_layoutCell < 0 || m_cellsFor != m_selected;
    const QString plan = QString::fromStdString(planLabel(shown->plan));
    QString title = m_selected == r.optimum ? tr("Cluster-optimal model")
                                            : tr("Candidate #%1").arg(m_selected + 1);
    if (!own)
        title += shown->eval.feasible ? tr(", layout chosen on the heatmap")
                                      : tr(", PP %1 x EP %2 does not fit: %3")
                                            .arg(shown->plan.pp)
                                            .arg(shown->plan.ep)
                                            .arg(QString::fromStdString(shown->eval.reason));
    m_card->setCandidate(*shown, title, r.computeOptimalSparsity, r.naiveOnClusterLoss);
    QList<QPair<QString, mosaic::Breakdown>> bars;
    if (shown->eval.feasible)
        bars.append({own ? tr("selected") : tr("chosen layout"), shown->eval.breakdown});
    if (!own || m_selected != r.optimum) {
        if (!own)
            bars.append(
                {tr("best layout"), r.candidates[static_cast<size_t>(m_selected)].eval.breakdown});
        if (m_selected != r.optimum && r.optimum >= 0)
            bars.append({tr("cluster optimum"),
                         r.candidates[static_cast<size_t>(r.optimum)].eval.breakdown});
    }
    m_breakdown->setData(bars);
    m_breakdown->setFittingTitle({tr("Step time, %1").arg(plan), tr("Step time per iteration")});
    m_memory->setData(shown->eval.memoryGB, r.deviceMemoryGB,
                      tr("PP %1 x EP %2").arg(shown->plan.pp).arg(shown->plan.ep));
    const QString geometry = QString::fromStdString(mosaic::geometryLabel(shown->geometry));
    if (m_cellsFor == m_selected) {
        const int sel = own ? m_cells.indexOf(shown->plan) : m_layoutCell;
        m_heatmap->setData(m_cells, sel, tr("MFU (%) per layout, %1").arg(geometry));
    } else {
        m_heatmap->setData({}, -1, tr("MFU (%) per layout, %1 (computing)").arg(geometry));
    }
    m_plan->setSubjects(
        planSubjects(r, m_resultEnvelope, m_selected, shown, own, m_importedPoints));
    m_frontier->setSelected(std::isfinite(shown->loss) ? std::optional<QPointF>(QPointF(
                                                             shown->geometry.sparsity, shown->loss))
                                                       : std::nullopt);
}

}  // namespace tandem::ui
