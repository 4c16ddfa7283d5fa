#include "ui/mlforml/network_advanced.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>

#include "ui/mlforml/param_rows.h"
#include "ui/widgets/collapsible_section.h"

namespace tandem::ui {

namespace {
QLabel* heading(const QString& text, QWidget* parent) {
    auto* l = new QLabel(QStringLiteral("<i>%1</i>").arg(text.toHtmlEscaped()), parent);
    l->setContentsMargins(0, 4, 0, 0);
    return l;
}
}  // namespace

NetworkAdvanced::NetworkAdvanced(QWidget* parent)
    : QWidget(parent), m_section(fillWithSection(this, tr("Advanced"))) {
    QFormLayout* f = m_section->form();
    QWidget* body = f->parentWidget();

    f->addRow(heading(tr("Background job [Sec. 3.2]"), body));
    m_bgNodes = m_rows.add(
        f, {QStringLiteral("background_job.nodes"), tr("Nodes per job"), tr(" nodes"),
            tr("Nodes of each co-running data-parallel job; its ring all-reduce sends 2(n-1)/n "
               "of the gradient per node [2608.06046 Sec. 3.2; MODEL.md A3]. GPT-1B default: 8.")});
    m_bgGradient = m_rows.add(
        f, {QStringLiteral("background_job.gradient_GB"), tr("Gradient per sync"), tr(" GB"),
            tr("Bytes each background job all-reduces per step, GB (1e9 bytes). GPT-1B "
               "calibrated to the p95 volumes of [2608.06046 Sec. 3.2]: 2.81 GB."),
            2, 0.1});
    m_bgCompute = m_rows.add(
        f, {QStringLiteral("background_job.compute_ms"), tr("Compute phase"), tr(" ms"),
            tr("Mean compute time between two syncs of a background job, ms (uniform jitter "
               "+-27 %) [2608.06046 Sec. 3.2; MODEL.md A3]."),
            1, 5});

    f->addRow(heading(tr("Poisson arrivals [Sec. 3.3]"), body));
    m_arrival = m_rows.add(
        f, {QStringLiteral("arrival_rate_per_s"), tr("Arrival rate"), tr(" /s"),
            tr("Background jobs arriving per second in scenario 2 [2608.06046 Sec. 3.3]."), 4,
            0.0005});
    m_maxJobs = m_rows.add(
        f, {QStringLiteral("max_background_jobs"), tr("Max concurrent"), tr(" jobs"),
            tr("At most this many background jobs at once; later arrivals wait [Sec. 3.3].")});
    m_duration =
        m_rows.add(f, {QStringLiteral("background_job_duration_s"), tr("Job duration"), tr(" s"),
                       tr("Run length of each arriving background job, s [Sec. 3.3]."), 0, 100});

    f->addRow(heading(tr("Foreground job [Sec. 3.1]"), body));
    m_rows.add(f, {QStringLiteral("microbatch_compute_ms"), tr("Microbatch compute T_c"), tr(" ms"),
                   tr("Forward+backward time of one microbatch, ms; T_iter = g T_c + T_dp(p, z) "
                      "[2608.06046 Sec. 3.1: 59.3 ms for GPT-2 Large on A100]."),
                   1, 1});
    m_rows.add(
        f, {QStringLiteral("foreground_parameters"), tr("Parameters"), tr(" M"),
            tr("Gradient values per sync, millions (GPT-2 Large: 774 M); bytes = values x bytes "
               "per element of the precision p [2608.06046 Sec. 3.1]."),
            0, 10, 1e6});

    f->addRow(heading(tr("Network [MODEL.md A3]"), body));
    m_rows.add(f,
               {QStringLiteral("cc_efficiency"), tr("CC efficiency"), QString(),
                tr("Achieved / max-min fair rate of every flow, (0, 1]: congestion control losses "
                   "[MODEL.md A3]. 1 = ideal max-min sharing."),
                2, 0.05});
    m_rows.add(
        f, {QStringLiteral("overlap_window_ms"), tr("Overlap window"), tr(" ms"),
            tr("Part of the DP transfer hidden behind the last backward pass, ms; only the rest "
               "is exposed [2608.06046 Sec. 3.2; MODEL.md A3]."),
            1, 5});

    f->addRow(heading(tr("Controller [Sec. 2.3-2.4]"), body));
    m_decision = m_rows.add(
        f, {QStringLiteral("decision_interval_s"), tr("Decision interval"), tr(" s"),
            tr("The greedy rule re-chooses (g, p) every interval, s [2608.06046 Sec. 2.4: 60 s]."),
            0, 10});
    m_rows.add(f, {QStringLiteral("history_window_s"), tr("History window"), tr(" s"),
                   tr("Observations of T_dp averaged by the estimator, s [Sec. 2.3]."), 0, 10});
    m_rows.add(
        f, {QStringLiteral("telemetry_delay_s"), tr("Telemetry delay"), tr(" s"),
            tr("An observation becomes visible to the controller this late, s [Sec. 2.3]."), 1, 1});

    f->addRow(heading(tr("Progress model [MODEL.md A4]"), body));
    m_kappa =
        m_rows.add(f, {QStringLiteral("progress.kappa_mxfp4"), tr("MXFP4 cost kappa"), QString(),
                       tr("Progress per MXFP4 update is divided by kappa (fitted to Fig. 2c/2d of "
                          "2608.06046: 1.3) [MODEL.md A4]."),
                       3, 0.05});
    m_rows.add(
        f, {QStringLiteral("progress.critical_batch_sequences"), tr("Critical batch"), tr(" seq"),
            tr("Gradient noise scale B_noise in sequences: progress per update = 1/(1 + "
               "B_noise/B) [McCandlish et al. 2018; MODEL.md A4]."),
            0, 100});
    f->addRow(heading(tr("Run"), body));
    m_rows.add(f,
               {QStringLiteral("seed"), tr("Seed"), QString(),
                tr("Random seed of the background jitter and the Poisson schedule; same seed, same "
                   "result.")});

    for (QDoubleSpinBox* b : m_rows.boxes())
        connect(b, &QDoubleSpinBox::valueChanged, this, &NetworkAdvanced::engineInputsChanged);
}

void NetworkAdvanced::setParams(const mlforml::Params& p) {
    m_rows.show(p);

    const QString poisson =
        p.scenario == mlforml::ScenarioKind::Poisson
            ? QString()
            : tr("Poisson arrivals apply to scenario \"poisson\" only; this one is \"%1\"")
                  .arg(QString::fromUtf8(mlforml::name(p.scenario)));
    for (QWidget* w : {static_cast<QWidget*>(m_arrival), static_cast<QWidget*>(m_maxJobs),
                       static_cast<QWidget*>(m_duration)})
        setDisabledReason(w, poisson);
    const QString trace = p.scenario == mlforml::ScenarioKind::Trace
                              ? tr("the background comes from a measured trace file")
                              : QString();
    for (QWidget* w : {static_cast<QWidget*>(m_bgNodes), static_cast<QWidget*>(m_bgGradient),
                       static_cast<QWidget*>(m_bgCompute)})
        setDisabledReason(w, trace);
    bool mx = false;
    for (const auto prec : p.precisions) mx = mx || prec == mlforml::Precision::Mxfp4;
    const QString kappaReason =
        p.progress.precisionModel != mlforml::PrecisionModel::Kappa
            ? tr("the progress model is \"%1\", not \"kappa\"")
                  .arg(QString::fromUtf8(mlforml::name(p.progress.precisionModel)))
            : (!mx ? tr("MXFP4 is not among the scenario's precisions") : QString());
    setDisabledReason(m_kappa, kappaReason);
}

void NetworkAdvanced::applyTo(mlforml::Params& p) const { m_rows.applyTo(p); }

}  // namespace tandem::ui
