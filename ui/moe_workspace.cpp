#include "moe_workspace.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>

#include "frontier_view.h"
#include "job_runner.h"
#include "moe_controls.h"
#include "optimum_card.h"

namespace tandem::ui {

MoeWorkspace::MoeWorkspace(QWidget* parent)
    : QWidget(parent), m_controls(new MoeControls(this)), m_frontier(new FrontierView(this)),
      m_card(new OptimumCard(this)), m_status(new QLabel(this)), m_runner(new JobRunner(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    auto* panel = new QWidget(scroll);
    auto* pl = new QVBoxLayout(panel);
    pl->setContentsMargins(0, 0, 0, 0);
    pl->addWidget(m_controls);
    pl->addWidget(m_card);
    pl->addStretch();
    scroll->setWidget(panel);
    scroll->setWidgetResizable(true);
    scroll->setFixedWidth(270);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll);

    auto* right = new QWidget(this);
    auto* grid = new QGridLayout(right);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    grid->addWidget(m_frontier, 0, 0);
    m_status->setWordWrap(true);
    grid->addWidget(m_status, 1, 0);
    layout->addWidget(right, 1);

    connect(m_controls, &MoeControls::engineInputsChanged, this, [this]() {
        if (!m_envelope) return;
        m_controls->applyTo(*m_envelope);
        emit envelopeEdited(*m_envelope);
        recompute();
    });
    connect(m_controls, &MoeControls::pinToggled, this, [this](bool on) {
        m_frontier->setPinned(on ? m_result : std::nullopt);
    });
    connect(m_runner, &JobRunner::resultReady, this, [this](const std::any& value, quint64) {
        if (const auto* r = std::any_cast<mosaic::SearchResult>(&value)) showResult(*r);
    });
    connect(m_runner, &JobRunner::failed, this, [this](const QString& message, quint64) {
        m_status->setText(tr("<b>Computation failed:</b> %1").arg(message.toHtmlEscaped()));
    });
    connect(m_runner, &JobRunner::busyChanged, this, &MoeWorkspace::busyChanged);
}

QList<ChartView*> MoeWorkspace::charts() const { return {m_frontier}; }

void MoeWorkspace::applyTheme() {
    for (ChartView* c : charts()) c->applyTheme();
}

void MoeWorkspace::setEnvelope(const std::optional<mosaic::Envelope>& e) {
    m_envelope = e;
    setEnabled(e.has_value());
    if (!e) {
        m_status->setText(tr("This scenario has no \"mosaic\" section; open or choose a preset that has one."));
        return;
    }
    m_controls->setEnvelope(*e);
    recompute();
}

void MoeWorkspace::recompute() {
    if (!m_envelope) return;
    const mosaic::Envelope e = *m_envelope;  // the worker owns its copy
    m_runner->submit([e](const tandem::CancelFlag* cancel) -> std::any { return mosaic::search(e, cancel); });
}

void MoeWorkspace::showResult(const mosaic::SearchResult& r) {
    m_result = r;
    m_frontier->setData(r);
    if (r.optimum >= 0 && static_cast<size_t>(r.optimum) < r.candidates.size())
        m_card->setCandidate(r.candidates[static_cast<size_t>(r.optimum)], tr("Cluster-optimal model"),
                             r.computeOptimalS, r.naiveOnClusterLoss);
    else
        m_card->clearCandidate(tr("No geometry has a feasible layout on this cluster."));
    const QString gain = std::isfinite(r.naiveOnClusterLoss) && r.optimum >= 0
                             ? tr("the compute-optimal choice loses %1 nats on this cluster")
                                   .arg(r.naiveOnClusterLoss - r.candidates[static_cast<size_t>(r.optimum)].loss, 0, 'f', 3)
                             : tr("the compute-optimal choice does not fit this cluster");
    m_status->setText(tr("Compute-optimal S = %1 (a boundary of the sparsity range); cluster-optimal S = %2; %3. "
                         "%4 feasible candidates [2608.10605 Sec. 7, Fig. 1].")
                          .arg(r.computeOptimalS, 0, 'f', 3)
                          .arg(r.clusterOptimalS, 0, 'f', 3)
                          .arg(gain)
                          .arg(r.candidates.size()));
    emit resultsShown();
}

}  // namespace tandem::ui
