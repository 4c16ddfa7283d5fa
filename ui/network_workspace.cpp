#include "network_workspace.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

#include "first_crossing_view.h"
#include "job_runner.h"
#include "labeled_slider.h"
#include "loss_curve_view.h"
#include "network_controls.h"
#include "sweep_view.h"
#include "units.h"

namespace tandem::ui {

NetworkWorkspace::NetworkWorkspace(QWidget* parent)
    : QWidget(parent), m_controls(new NetworkControls(this)), m_loss(new LossCurveView(this)),
      m_firstCrossing(new FirstCrossingView(this)), m_status(new QLabel(this)), m_runner(new JobRunner(this)) {
    m_sweep = new SweepView(this);
    m_sweepRunner = new JobRunner(this);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setFixedWidth(270);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll);

    auto* right = new QWidget(this);
    auto* grid = new QGridLayout(right);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    grid->addWidget(m_loss, 0, 0, 2, 1);
    grid->addWidget(m_firstCrossing, 0, 1);
    grid->addWidget(m_sweep, 1, 1);
    grid->setRowStretch(0, 3);
    grid->setRowStretch(1, 2);
    grid->setColumnStretch(0, 3);
    grid->setColumnStretch(1, 2);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    grid->addWidget(m_status, 2, 0, 1, 2);
    layout->addWidget(right, 1);

    connect(m_controls, &NetworkControls::engineInputsChanged, this, [this]() {
        if (!m_params) return;
        m_controls->applyTo(*m_params);
        emit paramsEdited(*m_params);
        const bool onlyN = m_sweepInputs.has_value() && m_sweepInputs->foregroundNodes == m_params->foregroundNodes &&
                           m_sweepInputs->fabricBytesPerS == m_params->fabricBytesPerS &&
                           m_sweepInputs->nicBytesPerS == m_params->nicBytesPerS;
        if (!onlyN) recomputeSweep();
        else if (m_sweepResult) m_sweep->setData(*m_sweepResult, m_controls->shownBackgroundJobs());
        recompute();
    });
    connect(m_sweepRunner, &JobRunner::resultReady, this, [this](const std::any& value, quint64) {
        if (const auto* r = std::any_cast<mlforml::Result>(&value)) {
            m_sweepResult = *r;
            m_sweep->setData(*r, m_controls->shownBackgroundJobs());
        }
    });
    connect(m_controls, &NetworkControls::viewOptionsChanged, this, &NetworkWorkspace::refreshViews);
    connect(m_controls, &NetworkControls::pinToggled, this, [this](bool on) {
        m_pinned.reset();
        if (on && m_result && !m_result->points.empty()) m_pinned = m_result->points.front();
        m_loss->setPinned(m_pinned);
    });
    connect(m_runner, &JobRunner::resultReady, this, [this](const std::any& value, quint64) {
        if (const auto* r = std::any_cast<mlforml::Result>(&value)) showResult(*r);
    });
    connect(m_runner, &JobRunner::failed, this, [this](const QString& message, quint64) {
        m_status->setText(tr("<b>Computation failed:</b> %1").arg(message.toHtmlEscaped()));
    });
    connect(m_runner, &JobRunner::busyChanged, this, &NetworkWorkspace::busyChanged);
}

QList<ChartView*> NetworkWorkspace::charts() const { return {m_loss, m_firstCrossing, m_sweep}; }

void NetworkWorkspace::applyTheme() {
    for (ChartView* c : charts()) c->applyTheme();
}

void NetworkWorkspace::setParams(const std::optional<mlforml::Params>& p) {
    m_params = p;
    setEnabled(p.has_value());
    if (!p) {
        m_status->setText(tr("This scenario has no \"ml_for_ml\" section; open or choose a preset that has one."));
        return;
    }
    const int shownN = p->backgroundJobs.empty() ? 0 : p->backgroundJobs.front();
    m_controls->setParams(*p, shownN);
    recomputeSweep();
    recompute();
}

void NetworkWorkspace::recomputeSweep() {
    if (!m_params) return;
    m_sweepInputs = *m_params;
    mlforml::Params p = *m_params;  // the worker owns its copy
    if (p.scenario != "sweep") {
        m_sweep->setEnabled(false);
        m_sweep->setToolTip(tr("Disabled: the sweep over N needs a scenario of kind \"sweep\" (scenario 1)."));
        return;
    }
    m_sweep->setEnabled(true);
    p.policies = {"Joint"};  // the shares come from the exposure measurement, not the policies
    m_sweepRunner->submit([p](const tandem::CancelFlag* cancel) -> std::any { return mlforml::simulate(p, cancel); });
}

void NetworkWorkspace::applyPresetView(int shownN, int targetIndex, bool updatesAxis) {
    if (!m_params) return;
    m_controls->setViewHints(targetIndex, updatesAxis);
    if (shownN >= 0 && shownN != m_controls->shownBackgroundJobs() && m_params->scenario == "sweep") {
        m_controls->backgroundSlider()->setValueSilently(shownN);
        recompute();
    }
}

void NetworkWorkspace::recompute() {
    if (!m_params) return;
    mlforml::Params p = *m_params;  // the worker owns its copy
    if (p.scenario == "sweep") p.backgroundJobs = {m_controls->shownBackgroundJobs()};
    m_runner->submit([p](const tandem::CancelFlag* cancel) -> std::any { return mlforml::simulate(p, cancel); });
}

void NetworkWorkspace::showResult(const mlforml::Result& r) {
    m_result = r;
    refreshViews();
    emit resultsShown();
}

void NetworkWorkspace::refreshViews() {
    if (!m_result || m_result->points.empty()) return;
    const mlforml::PointResult& point = m_result->points.front();
    const LossViewOptions options = m_controls->viewOptions();
    m_loss->setData(point, m_result->targetFactors, m_result->targetLosses);
    m_loss->setOptions(options);
    m_firstCrossing->setData(point, m_result->targetFactors, options.targetIndex);
    m_status->setText(tr("%1: exposed DP share of an iteration at GA4 is %2 % in BF16 and %3 % in MXFP4; "
                         "background p95 volume %4 GB per 50 ms. Loss curves, targets and policies follow "
                         "[2608.06046 Sec. 3].")
                          .arg(QString::fromStdString(point.label))
                          .arg(100 * point.dpShareBf16, 0, 'f', 0)
                          .arg(100 * point.dpShareMxfp4, 0, 'f', 0)
                          .arg(point.bgP95GBPer50ms, 0, 'f', 1));
}

}  // namespace tandem::ui
