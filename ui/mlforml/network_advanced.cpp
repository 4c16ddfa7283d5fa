#include "mlforml/network_advanced.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <memory>
#include <type_traits>
#include <vector>

#include "widgets/collapsible_section.h"

namespace tandem::ui {

namespace {
QLabel* heading(const QString& text, QWidget* parent) {
    auto* l = new QLabel(QStringLiteral("<i>%1</i>").arg(text.toHtmlEscaped()), parent);
    l->setContentsMargins(0, 4, 0, 0);
    return l;
}
void setReason(QWidget* w, const QString& tooltip, const QString& reason) {
    w->setEnabled(reason.isEmpty());
    w->setToolTip(reason.isEmpty() ? tooltip : QObject::tr("Disabled: %1.\n%2").arg(reason, tooltip));
}
}  // namespace

NetworkAdvanced::NetworkAdvanced(QWidget* parent)
    : QWidget(parent), m_section(new CollapsibleSection(tr("Advanced"), false, this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_section);
    QFormLayout* f = m_section->form();
    QWidget* body = f->parentWidget();

    f->addRow(heading(tr("Background job [Sec. 3.2]"), body));
    m_bgNodes = addIntRow(f, tr("Nodes per job"), 1, 512, tr(" nodes"),
                          tr("Nodes of each co-running data-parallel job; its ring all-reduce sends 2(n-1)/n of the "
                             "gradient per node [2608.06046 Sec. 3.2; MODEL.md A3]. GPT-1B default: 8."));
    m_bgGradient = addDoubleRow(f, tr("Gradient per sync"), 0.01, 1000, 2, 0.1, tr(" GB"),
                                tr("Bytes each background job all-reduces per step, GB (1e9 bytes). GPT-1B calibrated to "
                                   "the p95 volumes of [2608.06046 Sec. 3.2]: 2.81 GB."));
    m_bgCompute = addDoubleRow(f, tr("Compute phase"), 1, 100000, 1, 5, tr(" ms"),
                               tr("Mean compute time between two syncs of a background job, ms (uniform jitter +-27 %) "
                                  "[2608.06046 Sec. 3.2; MODEL.md A3]."));

    f->addRow(heading(tr("Poisson arrivals [Sec. 3.3]"), body));
    m_arrival = addDoubleRow(f, tr("Arrival rate"), 0, 1, 4, 0.0005, tr(" /s"),
                             tr("Background jobs arriving per second in scenario 2 [2608.06046 Sec. 3.3]."));
    m_maxJobs = addIntRow(f, tr("Max concurrent"), 0, 64, tr(" jobs"),
                          tr("At most this many background jobs at once; later arrivals wait [Sec. 3.3]."));
    m_duration = addDoubleRow(f, tr("Job duration"), 1, 1e6, 0, 100, tr(" s"),
                              tr("Run length of each arriving background job, s [Sec. 3.3]."));

    f->addRow(heading(tr("Foreground job [Sec. 3.1]"), body));
    m_tc = addDoubleRow(f, tr("Microbatch compute T_c"), 1, 100000, 1, 1, tr(" ms"),
                        tr("Forward+backward time of one microbatch, ms; T_iter = g T_c + T_dp(p, z) "
                           "[2608.06046 Sec. 3.1: 59.3 ms for GPT-2 Large on A100]."));
    m_fgParams = addDoubleRow(f, tr("Parameters"), 1, 1e6, 0, 10, tr(" M"),
                              tr("Gradient values per sync, millions (GPT-2 Large: 774 M); bytes = values x bytes per "
                                 "element of the precision p [2608.06046 Sec. 3.1]."));

    f->addRow(heading(tr("Network [MODEL.md A3]"), body));
    m_cc = addDoubleRow(f, tr("CC efficiency"), 0.05, 1, 2, 0.05, QString(),
                        tr("Achieved / max-min fair rate of every flow, (0, 1]: congestion control losses "
                           "[MODEL.md A3]. 1 = ideal max-min sharing."));
    m_overlap = addDoubleRow(f, tr("Overlap window"), 0, 100000, 1, 5, tr(" ms"),
                             tr("Part of the DP transfer hidden behind the last backward pass, ms; only the rest is "
                                "exposed [2608.06046 Sec. 3.2; MODEL.md A3]."));

    f->addRow(heading(tr("Controller [Sec. 2.3-2.4]"), body));
    m_decision = addDoubleRow(f, tr("Decision interval"), 1, 100000, 0, 10, tr(" s"),
                              tr("The greedy rule re-chooses (g, p) every interval, s [2608.06046 Sec. 2.4: 60 s]."));
    m_history = addDoubleRow(f, tr("History window"), 1, 100000, 0, 10, tr(" s"),
                             tr("Observations of T_dp averaged by the estimator, s [Sec. 2.3]."));
    m_telemetry = addDoubleRow(f, tr("Telemetry delay"), 0, 10000, 1, 1, tr(" s"),
                               tr("An observation becomes visible to the controller this late, s [Sec. 2.3]."));

    f->addRow(heading(tr("Progress model [MODEL.md A4]"), body));
    m_kappa = addDoubleRow(f, tr("MXFP4 cost kappa"), 1, 5, 3, 0.05, QString(),
                           tr("Progress per MXFP4 update is divided by kappa (fitted to Fig. 2c/2d of 2608.06046: 1.3) "
                              "[MODEL.md A4]."));
    m_critical = addDoubleRow(f, tr("Critical batch"), 1, 1e7, 0, 100, tr(" seq"),
                              tr("Gradient noise scale B_noise in sequences: progress per update = 1/(1 + B_noise/B) "
                                 "[McCandlish et al. 2018; MODEL.md A4]."));
    f->addRow(heading(tr("Run"), body));
    m_seed = addIntRow(f, tr("Seed"), 0, 1000000, QString(),
                       tr("Random seed of the background jitter and the Poisson schedule; same seed, same result."));

    for (QDoubleSpinBox* b : {m_bgGradient, m_bgCompute, m_arrival, m_duration, m_tc, m_fgParams, m_cc, m_overlap,
                              m_decision, m_history, m_telemetry, m_kappa, m_critical})
        connect(b, &QDoubleSpinBox::valueChanged, this, &NetworkAdvanced::engineInputsChanged);
    for (QSpinBox* b : {m_bgNodes, m_maxJobs, m_seed})
        connect(b, &QSpinBox::valueChanged, this, &NetworkAdvanced::engineInputsChanged);
}

void NetworkAdvanced::setParams(const mlforml::Params& p) {
    const QList<QWidget*> all = {m_bgNodes, m_bgGradient, m_bgCompute, m_arrival, m_maxJobs, m_duration,
                                 m_tc, m_fgParams, m_cc, m_overlap, m_decision, m_history,
                                 m_telemetry, m_kappa, m_critical, m_seed};
    std::vector<std::unique_ptr<QSignalBlocker>> blockers;
    for (QWidget* w : all) blockers.push_back(std::make_unique<QSignalBlocker>(w));
    m_bgNodes->setValue(p.backgroundJob.nodes);
    m_bgGradient->setValue(p.backgroundJob.gradientBytes / 1e9);
    m_bgCompute->setValue(p.backgroundJob.computeS * 1e3);
    m_arrival->setValue(p.arrivalRatePerS);
    m_maxJobs->setValue(p.maxBackgroundJobs);
    m_duration->setValue(p.backgroundJobDurationS);
    m_tc->setValue(p.microbatchComputeS * 1e3);
    m_fgParams->setValue(p.foregroundParameters / 1e6);
    m_cc->setValue(p.ccEfficiency);
    m_overlap->setValue(p.overlapWindowS * 1e3);
    m_decision->setValue(p.decisionIntervalS);
    m_history->setValue(p.historyWindowS);
    m_telemetry->setValue(p.telemetryDelayS);
    m_kappa->setValue(p.progress.kappaMxfp4);
    m_critical->setValue(p.progress.criticalBatchSequences);
    m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(p.seed, 1000000)));
    for (QDoubleSpinBox* b : findChildren<QDoubleSpinBox*>()) b->setProperty("loaded", b->value());
    for (QSpinBox* b : findChildren<QSpinBox*>()) b->setProperty("loaded", static_cast<double>(b->value()));

    const QString poisson =
        p.scenario == mlforml::ScenarioKind::Poisson
            ? QString()
            : tr("Poisson arrivals apply to scenario \"poisson\" only; this one is \"%1\"")
                  .arg(QString::fromUtf8(mlforml::name(p.scenario)));
    setReason(m_arrival, tr("Background jobs arriving per second in scenario 2 [2608.06046 Sec. 3.3]."), poisson);
    setReason(m_maxJobs, tr("At most this many background jobs at once; later arrivals wait [Sec. 3.3]."), poisson);
    setReason(m_duration, tr("Run length of each arriving background job, s [Sec. 3.3]."), poisson);
    const QString trace = p.scenario == mlforml::ScenarioKind::Trace
                              ? tr("the background comes from a measured trace file")
                              : QString();
    for (QWidget* w : {static_cast<QWidget*>(m_bgNodes), static_cast<QWidget*>(m_bgGradient),
                       static_cast<QWidget*>(m_bgCompute)})
        setReason(w, w->toolTip().section(QStringLiteral("\n"), -1), trace);
    bool mx = false;
    for (const auto& prec : p.precisions) mx = mx || prec == "MXFP4";
    const QString kappaReason =
        p.progress.precisionModel != mlforml::PrecisionModel::Kappa
            ? tr("the progress model is \"%1\", not \"kappa\"")
                  .arg(QString::fromUtf8(mlforml::name(p.progress.precisionModel)))
            : (!mx ? tr("MXFP4 is not among the scenario's precisions") : QString());
    setReason(m_kappa,
              tr("Progress per MXFP4 update is divided by kappa (fitted to Fig. 2c/2d of 2608.06046: 1.3) "
                 "[MODEL.md A4]."),
              kappaReason);
}

void NetworkAdvanced::applyTo(mlforml::Params& p) const {
    // Only edited fields are written back, so values with more digits than a box shows survive.
    auto put = [](const QAbstractSpinBox* box, double value, double scale, auto& field) {
        if (box->property("loaded").toDouble() != value)
            field = static_cast<std::remove_reference_t<decltype(field)>>(value * scale);
    };
    put(m_bgNodes, m_bgNodes->value(), 1, p.backgroundJob.nodes);
    put(m_bgGradient, m_bgGradient->value(), 1e9, p.backgroundJob.gradientBytes);
    put(m_bgCompute, m_bgCompute->value(), 1e-3, p.backgroundJob.computeS);
    put(m_arrival, m_arrival->value(), 1, p.arrivalRatePerS);
    put(m_maxJobs, m_maxJobs->value(), 1, p.maxBackgroundJobs);
    put(m_duration, m_duration->value(), 1, p.backgroundJobDurationS);
    put(m_tc, m_tc->value(), 1e-3, p.microbatchComputeS);
    put(m_fgParams, m_fgParams->value(), 1e6, p.foregroundParameters);
    put(m_cc, m_cc->value(), 1, p.ccEfficiency);
    put(m_overlap, m_overlap->value(), 1e-3, p.overlapWindowS);
    put(m_decision, m_decision->value(), 1, p.decisionIntervalS);
    put(m_history, m_history->value(), 1, p.historyWindowS);
    put(m_telemetry, m_telemetry->value(), 1, p.telemetryDelayS);
    put(m_kappa, m_kappa->value(), 1, p.progress.kappaMxfp4);
    put(m_critical, m_critical->value(), 1, p.progress.criticalBatchSequences);
    put(m_seed, m_seed->value(), 1, p.seed);
}

}  // namespace tandem::ui
