#include "ui/mlforml/sweep_view.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <cmath>

#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

SweepView::SweepView(QWidget* parent)
    : ChartView(QStringLiteral("mlforml-sweep"), tr("Exposed DP share at GA4 (Fig. 2a)"), parent),
      m_bf16(new QLineSeries(this)),
      m_mxfp4(new QLineSeries(this)),
      m_shown(new QScatterSeries(this)),
      m_x(new QValueAxis(this)),
      m_y(new QValueAxis(this)) {
    setHoverSnapsToPoints(true);  // a sweep: read at its computed points
    m_bf16->setName(tr("BF16 gradients"));
    m_mxfp4->setName(tr("MXFP4 gradients"));
    m_bf16->setPointsVisible(true);
    m_mxfp4->setPointsVisible(true);
    m_shown->setName(tr("shown N"));
    m_shown->setMarkerSize(12);
    m_x->setTitleText(tr("Co-running jobs N (ringed: shown)"));
    m_y->setTitleText(tr("Exposed share (%)"));
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    for (QXYSeries* s : {static_cast<QXYSeries*>(m_bf16), static_cast<QXYSeries*>(m_mxfp4),
                         static_cast<QXYSeries*>(m_shown)})
        addSeriesOnAxes(chart(), s, m_x, m_y);
    setToolTip(tr(
        "Fig. 2a of [2608.06046]: at GA4 compression cuts the exposed share from 73-91 % (BF16) to "
        "40-58 % (MXFP4) as N grows from 4 to 16. Right-click to export."));
    applyTheme();
}

void SweepView::setData(const mlforml::Result& sweep, int shownN) {
    m_points = sweep.points;
    m_shownN = shownN;
    requestRebuild();
}

void SweepView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

void SweepView::rebuild() {
    m_bf16->setPen(QPen(comboColor(QStringLiteral("GA4-BF16")), 2.2));
    m_mxfp4->setPen(QPen(comboColor(QStringLiteral("GA4-MXFP4")), 2.2));
    m_bf16->setColor(comboColor(QStringLiteral("GA4-BF16")));
    m_mxfp4->setColor(comboColor(QStringLiteral("GA4-MXFP4")));
    m_shown->setColor(Qt::transparent);
    m_shown->setBorderColor(currentTheme() == Theme::Dark ? Qt::white : Qt::black);
    QList<QPointF> a, b, shown;
    double nMax = 1;
    for (const auto& p : m_points) {
        nMax = std::max(nMax, static_cast<double>(p.backgroundJobs));
        if (std::isfinite(p.dpShareBf16)) a.append(QPointF(p.backgroundJobs, 100 * p.dpShareBf16));
        if (std::isfinite(p.dpShareMxfp4))
            b.append(QPointF(p.backgroundJobs, 100 * p.dpShareMxfp4));
        if (p.backgroundJobs == m_shownN) {
            if (std::isfinite(p.dpShareBf16))
                shown.append(QPointF(p.backgroundJobs, 100 * p.dpShareBf16));
            if (std::isfinite(p.dpShareMxfp4))
                shown.append(QPointF(p.backgroundJobs, 100 * p.dpShareMxfp4));
        }
    }
    m_bf16->replace(a);
    m_mxfp4->replace(b);
    m_shown->replace(shown);
    for (QLegendMarker* m : chart()->legend()->markers(m_shown))
        m->setVisible(false);  // ringed = slider's N
    setNiceRange(m_x, 0, nMax + 1, 5);
    setNiceRange(m_y, 0, 100, 5);
}

}  // namespace tandem::ui
