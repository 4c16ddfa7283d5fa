#include "ui/mlforml/network_workspace.h"

#include <QLabel>
#include <QSplitter>
#include <QTabWidget>

#include "ui/mlforml/background_load_view.h"
#include "ui/mlforml/combo_timeline_view.h"
#include "ui/mlforml/dp_share_time_view.h"
#include "ui/mlforml/first_crossing_view.h"
#include "ui/mlforml/loss_curve_view.h"
#include "ui/mlforml/loss_fit_view.h"
#include "ui/mlforml/network_controls.h"
#include "ui/mlforml/network_map_view.h"
#include "ui/mlforml/sweep_crossing_view.h"
#include "ui/mlforml/sweep_view.h"
#include "ui/shell/job_runner.h"
#include "ui/widgets/chart_view.h"
#include "ui/widgets/labeled_slider.h"
#include "ui/widgets/units.h"
#include "ui/widgets/workspace_layout.h"

namespace tandem::ui {

NetworkWorkspace::NetworkWorkspace(QWidget* parent)
    : QWidget(parent),
      m_controls(new NetworkControls(this)),
      m_pages(new QTabWidget(this)),
      m_sweep(new SweepView(this)),
      m_sweepCrossing(new SweepCrossingView(this)),
      m_timeline(new ComboTimelineView(this)),
      m_dpShareTime(new DpShareTimeView(this)),
      m_load(new BackgroundLoadView(this)),
      m_sweepRunner(this),
      m_loss(new LossCurveView(this)),
      m_firstCrossing(new FirstCrossingView(this)),
      m_status(new QLabel(this)),
      m_lossFit(new LossFitPanel(this)),
      m_runner(this),
      m_networkMap(new NetworkMapView(this)),
      m_mapRunner(this) {
    layOutWorkspace(this, m_controls, m_pages, m_status);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Chart pages: each page holds two or three charts so that every chart keeps >= ~450 px of
    // width at 1280x800.
    auto pair = [this](QWidget* a, QWidget* b, int sa, int sb) {
        return weightedSplitter(Qt::Horizontal, m_pages, {a, b}, {sa, sb});
    };
    m_pages->setObjectName(QStringLiteral("networkPages"));
    m_pages->addTab(pair(m_loss, m_firstCrossing, 3, 2), tr("Loss and first crossing"));
    QWidget* shareAndLoad = pair(m_dpShareTime, m_load, 1, 1);
    m_pages->addTab(weightedSplitter(Qt::Vertical, m_pages, {m_timeline, shareAndLoad}, {2, 3}),
                    tr("Knobs and load over time"));
    m_pages->addTab(pair(m_sweepCrossing, m_sweep, 1, 1), tr("Sweep over N"));
    m_pages->setTabToolTip(
        0, tr("Evaluation loss per policy and time to the target [2608.06046 Fig. 2b-2d]"));
    m_pages->setTabToolTip(
        1, tr("Knob combination per adaptive policy, exposed DP share and background load "
              "over time [2608.06046 Sec. 2.4, 3.2]"));
    m_pages->setTabToolTip(
        2, tr("Scenario 1 over every N of the sweep [2608.06046 Fig. 2a, Table 3]"));
    m_pages->addTab(m_lossFit, tr("Loss log fit"));
    m_pages->setTabToolTip(
        3, tr("An imported training loss log and the progress curve fitted to it [MODEL.md A4]"));
    m_pages->setTabVisible(3, false);
    m_pages->addTab(m_networkMap, tr("Network"));
    m_pages->setTabToolTip(
        kNetworkPage,
        tr("The fabric the jobs share: leaves, spines and nodes by job, links shaded by mean "
           "utilisation and the bottleneck named (links.csv of tandem-cli run) "
           "[docs/MODEL-NETWORK.md]"));
    // Short titles for a tab bar too narrow for the full ones (an 800 px window).
    const QStringList brief = {tr("Loss"), tr("Knobs and load"), tr("Sweep"), tr("Loss fit"),
                               tr("Network")};
    for (int i = 0; i < brief.size(); ++i) setShortTabText(m_pages, i, brief[i]);

    connect(m_controls, &NetworkControls::engineInputsChanged, this, [this]() {
        if (!m_params) return;
        m_controls->applyTo(*m_params);
        emit paramsEdited(*m_params);
        // The N slider picks the detail point only; every other input changes the sweep too.
        const bool sweepCurrent = m_sweepInputs.has_value() && *m_sweepInputs == *m_params;
        if (!sweepCurrent)
            recomputeSweep();
        else
            showSweep();
        recompute();
    });
    m_sweepRunner.onResult(this, [this](const PointOutput& r, quint64) {
        if (!m_params) return;
        m_recentSweeps.insert(r.first, r.second);
        m_sweepResult = r.second;
        m_sweepResultInputs = r.first;
        showSweep();
        updateNetworkMap();
    });
    connect(m_controls, &NetworkControls::viewOptionsChanged, this,
            &NetworkWorkspace::refreshViews);
    m_runner.onResult(this, [this](const PointOutput& r, quint64) {
        if (!m_params) return;  // the scenario changed to one without ml_for_ml meanwhile
        m_recentPoints.insert(r.first, r.second);
        m_resultInputs = r.first;
        showResult(r.second);
        updateNetworkMap();
    });
    connect(m_runner.runner(), &JobRunner::failed, this, [this](const QString& message, quint64) {
        m_status->setText(tr("<b>Computation failed:</b> %1").arg(message.toHtmlEscaped()));
        m_networkMap->setEmptyReason(message);
    });
    connect(m_runner.runner(), &JobRunner::busyChanged, this, &NetworkWorkspace::busyChanged);
    m_mapRunner.onResult(this, [this](const mlforml::NetworkMap& map, quint64) {
        if (!m_params) return;
        m_networkMap->setMap(map, m_params->topology.preset == fabric::kNvl72Preset);
    });
    connect(m_mapRunner.runner(), &JobRunner::failed, this,
            [this](const QString& message, quint64) { m_networkMap->setEmptyReason(message); });
}

void NetworkWorkspace::updateNetworkMap() {
    if (!m_params) return;
    const int shown = m_controls->shownBackgroundJobs();
    const mlforml::LinkTable* table = nullptr;
    mlforml::Params inputs;
    if (m_sweepResult && m_sweepResultInputs == m_params)
        for (const mlforml::LinkTable& t : m_sweepResult->links)
            if (t.backgroundJobs == shown) {
                table = &t;
                inputs = *m_sweepResultInputs;
            }
    if (!table && m_result && m_resultInputs) {
        table = mlforml::linkTableFor(*m_result, shown);
        inputs = *m_resultInputs;
    }
    if (!table) {
        m_networkMap->setEmptyReason(QString());
        return;
    }
    m_mapRunner.submit([inputs, t = *table](const tandem::CancelFlag*) {
        return mlforml::networkMap(inputs, t, kMapGroups);
    });
}

QList<ChartView*> NetworkWorkspace::charts() const {
    QList<ChartView*> out{m_loss, m_firstCrossing, m_timeline, m_dpShareTime,
                          m_load, m_sweepCrossing, m_sweep};
    if (m_lossFit->view()->hasData()) out.append(m_lossFit->view());
    return out;
}

void NetworkWorkspace::setLossImport(const io::LossLog& log, const io::LossFit& fit,
                                     const QString& label) {
    m_lossFit->setData(log, fit, label);
    m_pages->setTabVisible(3, true);
    m_pages->setCurrentIndex(3);
}

void NetworkWorkspace::clearImports() {
    m_lossFit->view()->clearData();
    m_pages->setTabVisible(3, false);
}

void NetworkWorkspace::showSweep() {
    if (!m_sweepResult) return;
    m_sweep->setData(*m_sweepResult, m_controls->shownBackgroundJobs());
    m_sweepCrossing->setData(*m_sweepResult, m_controls->shownBackgroundJobs(),
                             m_controls->targetIndex());
}

void NetworkWorkspace::applyTheme() {
    for (ChartView* c : charts()) c->applyTheme();
    networkMapView()->applyFontScale();  // the drawing's texts follow presentation mode
}

void NetworkWorkspace::setParams(const std::optional<mlforml::Params>& p) {
    m_params = p;
    setEnabled(p.has_value());
    // Without an ml_for_ml section there are no values to show: the controls are hidden (not
    // left at the previous scenario's values) and a result still on its way is dropped.
    m_controls->setVisible(p.has_value());
    const QString none =
        tr("This scenario has no \"ml_for_ml\" section; open or choose a preset that has one.");
    for (ChartView* v : charts()) v->setEmptyReason(p ? QString() : none);
    if (!p) {
        m_result.reset();
        m_sweepResult.reset();
        m_status->setText(none);
        m_networkMap->setEmptyReason(none);
        return;
    }
    const int shownN = p->backgroundJobs.empty() ? 0 : p->backgroundJobs.front();
    // A scenario opened (or an undo): files it names may have changed since they were read.
    m_recentPoints.clear();
    m_recentSweeps.clear();
    m_controls->setParams(*p, shownN);
    recomputeSweep();
    recompute();
}

void NetworkWorkspace::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (!m_deferral.takePending()) return;
    recomputeSweep();
    recompute();
}

void NetworkWorkspace::recomputeSweep() {
    if (!m_params) return;
    if (m_deferral.postpone()) return;
    m_sweepInputs = *m_params;
    mlforml::Params p = *m_params;  // the worker owns its copy
    const bool sweep = p.scenario == mlforml::ScenarioKind::Sweep;
    m_pages->setTabEnabled(2, sweep);
    m_pages->setTabToolTip(
        2, sweep ? tr("Scenario 1 over every N of the sweep [2608.06046 Fig. 2a, Table 3]")
                 : tr("Disabled: the sweep over N needs a scenario of kind \"sweep\" (scenario 1); "
                      "this one is \"%1\".")
                       .arg(QString::fromUtf8(mlforml::name(p.scenario))));
    if (!sweep) {
        m_sweepResult.reset();
        if (m_pages->currentIndex() == 2) m_pages->setCurrentIndex(0);
        return;
    }
    submit(m_sweepRunner, m_recentSweeps, p);
}

void NetworkWorkspace::submit(TypedJobRunner<PointOutput>& runner,
                              RecentResults<mlforml::Params, mlforml::Result>& recent,
                              const mlforml::Params& p) {
    // A result shown a moment ago (a slider dragged back) comes back through the runner, so
    // that it still replaces whatever was requested before it.
    if (std::optional<mlforml::Result> seen = recent.find(p)) {
        runner.submit(
            [out = PointOutput(p, std::move(*seen))](const tandem::CancelFlag*) { return out; });
        return;
    }
    runner.submit([p](const tandem::CancelFlag* cancel) {
        // The link record too: the network page draws it (a little work per flow event).
        return PointOutput(p, mlforml::simulate(p, cancel, true));
    });
}

void NetworkWorkspace::applyPresetView(int shownN, int targetIndex, bool updatesAxis) {
    if (!m_params) return;
    m_controls->setViewHints(targetIndex, updatesAxis);
    if (shownN >= 0 && shownN != m_controls->shownBackgroundJobs() &&
        m_params->scenario == mlforml::ScenarioKind::Sweep) {
        m_controls->backgroundSlider()->setValueSilently(shownN);
        recompute();
    }
}

void NetworkWorkspace::recompute() {
    if (!m_params) return;
    if (m_deferral.postpone()) return;
    mlforml::Params p = *m_params;  // the worker owns its copy
    if (p.scenario == mlforml::ScenarioKind::Sweep)
        p.backgroundJobs = {m_controls->shownBackgroundJobs()};
    submit(m_runner, m_recentPoints, p);
}

void NetworkWorkspace::showResult(const mlforml::Result& r) {
    m_result = r;
    refreshViews();
    emit resultsShown();
}

void NetworkWorkspace::setComparisonPinned(bool on) {
    m_pinned.reset();
    if (on && m_result && !m_result->points.empty()) m_pinned = m_result->points.front();
    m_firstCrossing->setPinned(m_pinned);
}

void NetworkWorkspace::refreshViews() {
    if (!m_params || !m_result || m_result->points.empty()) return;
    const RebuildBatch batch;  // each chart draws once, with all of this result
    const mlforml::PointResult& point = m_result->points.front();
    const LossViewOptions options = m_controls->viewOptions();
    m_loss->setData(point, m_result->targetFactors, m_result->targetLosses);
    m_loss->setOptions(options);
    m_firstCrossing->setCoincident(m_loss->coincidences());  // bars named as the loss legend
    m_firstCrossing->setData(point, m_result->targetFactors, m_result->targetLosses,
                             options.targetIndex);
    m_timeline->setData(point, m_result->comboLabels);
    m_dpShareTime->setData(point);
    m_load->setData(point);
    showSweep();
    m_status->setText(
        tr("%1: exposed DP share of an iteration at GA4 is %2 % in BF16 and %3 % in MXFP4; "
           "background p95 volume %4 per %5. Loss curves, targets and policies follow "
           "[2608.06046 Sec. 3].")
            .arg(QString::fromStdString(point.label))
            .arg(100 * point.dpShareBf16, 0, 'f', 0)
            .arg(100 * point.dpShareMxfp4, 0, 'f', 0)
            .arg(unbroken(tr("%1 GB").arg(point.bgP95GBPer50ms, 0, 'f', 1)),
                 unbroken(tr("50 ms"))));
}

}  // namespace tandem::ui
