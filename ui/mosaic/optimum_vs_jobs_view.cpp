#include "ui/mosaic/optimum_vs_jobs_view.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "ui/mosaic/frontier_levels_view.h"
#include "ui/widgets/bounds.h"
#include "ui/widgets/chart_export.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

OptimumVsJobsView::OptimumVsJobsView(QWidget* parent)
    : ChartView(QStringLiteral("mosaic-optimum-vs-jobs"),
                tr("Cluster optimum against co-running jobs"), parent) {
    setHoverSnapsToPoints(true);  // a sweep: read at its computed points
    m_x = new QValueAxis(this);
    m_x->setTitleText(tr("Co-running jobs"));
    m_x->setLabelFormat(QStringLiteral("%d"));
    m_yLoss = new QValueAxis(this);
    m_yLoss->setTitleText(tr("Loss of the cluster optimum (nats)"));
    m_yLoss->setLabelFormat(QStringLiteral("%.3f"));
    m_yS = new QValueAxis(this);
    m_yS->setTitleText(tr("Cluster-optimal sparsity S"));
    m_yS->setLabelFormat(QStringLiteral("%.3f"));
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_yLoss, Qt::AlignLeft);
    chart()->addAxis(m_yS, Qt::AlignRight);
    m_loss = new QLineSeries(this);
    m_loss->setName(tr("loss of the cluster optimum (left axis)"));
    m_loss->setPointsVisible(true);
    m_sparsity = new QLineSeries(this);
    m_sparsity->setName(tr("its sparsity S (right axis)"));
    m_sparsity->setPointsVisible(true);
    m_ring = new QScatterSeries(this);
    m_ring->setName(tr("this scenario's level"));
    m_ring->setMarkerSize(15);
    chart()->addSeries(m_loss);
    chart()->addSeries(m_sparsity);
    chart()->addSeries(m_ring);
    for (QXYSeries* s : {static_cast<QXYSeries*>(m_loss), static_cast<QXYSeries*>(m_ring)}) {
        s->attachAxis(m_x);
        s->attachAxis(m_yLoss);
    }
    m_sparsity->attachAxis(m_x);
    m_sparsity->attachAxis(m_yS);
    setToolTip(
        tr("One search per level of co-running jobs (tandem-cli sweep --vary "
           "mosaic.background.jobs=...): "
           "the loss the cluster optimum reaches in the window never improves as jobs are added, "
           "and its "
           "sparsity and layout move when the shared uplinks make cross-leaf traffic dearer "
           "[docs/MODEL-NETWORK.md section 7]. Right-click to export."));
    applyTheme();
}

void OptimumVsJobsView::setData(const BackgroundLevels& levels) {
    m_rows = backgroundLevelRows(levels);
    m_current = levels.currentJobs;
    requestRebuild();
}

void OptimumVsJobsView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

QList<QPointF> OptimumVsJobsView::lossPoints() const { return m_loss->points(); }
QList<QPointF> OptimumVsJobsView::sparsityPoints() const { return m_sparsity->points(); }

QString OptimumVsJobsView::csv() const {
    QString out = QStringLiteral(
        "co_running_jobs,feasible,cluster_optimal_sparsity,cluster_optimal_loss_nats,mfu_percent,"
        "geometry,layout\n");
    for (const BackgroundLevelRow& r : m_rows) {
        const auto num = [&r](double v, int digits) {
            return r.feasible ? QString::number(v, 'f', digits) : QString();
        };
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7\n")
                   .arg(r.jobs)
                   .arg(r.feasible ? 1 : 0)
                   .arg(num(r.sparsity, 4), num(r.loss, 5), num(100 * r.mfu, 2),
                        csvField(r.geometry), csvField(r.layout));
    }
    return out;
}

void OptimumVsJobsView::rebuild() {
    const int count = static_cast<int>(m_rows.size());
    QList<QPointF> loss, sparsity, ring;
    Bounds lossBounds, sBounds;  // y extents of the loss and of S
    int jobsHi = 1;
    for (const BackgroundLevelRow& r : m_rows) {
        jobsHi = std::max(jobsHi, r.jobs);
        if (!r.feasible) continue;
        loss.append(QPointF(r.jobs, r.loss));
        sparsity.append(QPointF(r.jobs, r.sparsity));
        if (r.jobs == m_current) ring.append(QPointF(r.jobs, r.loss));
        lossBounds.addY(r.loss);
        sBounds.addY(r.sparsity);
    }
    double lossLo = lossBounds.yLo, lossHi = lossBounds.yHi, sLo = sBounds.yLo, sHi = sBounds.yHi;
    const bool dark = currentTheme() == Theme::Dark;
    const QColor lossColor = backgroundLevelStyle(count - 1, count, currentTheme()).colour;
    const QColor sColor = backgroundLevelStyle(0, count, currentTheme()).colour;
    m_loss->setPen(QPen(lossColor, 2.4));
    m_loss->setColor(lossColor);
    m_sparsity->setPen(QPen(sColor, 2.0, Qt::DashLine));
    m_sparsity->setColor(sColor);
    const QColor ink = dark ? Qt::white : Qt::black;
    m_ring->setColor(Qt::transparent);
    m_ring->setBorderColor(ink);
    m_ring->setPen(QPen(ink, 2));
    m_loss->replace(loss);
    m_sparsity->replace(sparsity);
    m_ring->replace(ring);
    // A margin of 4 % so the markers (and the ring) at 0 and at the last level are whole.
    setNiceRange(m_x, 0, jobsHi, std::min(jobsHi, 4), 0.04);
    if (!lossBounds.validY() || !sBounds.validY()) {
        lossLo = 0;
        lossHi = 1;
        sLo = 0.7;
        sHi = 1;
    }
    // At least 0.004 nats and 0.02 of S on the axes, so that ticks are round at 3 decimals.
    const double lossPad = std::max(0.002, 0.08 * (lossHi - lossLo));
    setNiceRange(m_yLoss, lossLo - lossPad, lossHi + lossPad, 4);
    const double sPad = std::max(0.01, 0.08 * (sHi - sLo));
    setNiceRange(m_yS, std::max(0.0, sLo - sPad), std::min(1.0, sHi + sPad), 4);
    setFittingTitle(
        {tr("Cluster optimum against co-running jobs"), tr("Optimum vs co-running jobs")});
    setCaption(count > 0 ? backgroundLevelsCaption(m_rows) : QString());
    ChartView::applyTheme();
}

}  // namespace tandem::ui
