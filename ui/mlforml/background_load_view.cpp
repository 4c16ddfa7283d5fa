#include "ui/mlforml/background_load_view.h"

#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>
#include <cmath>

#include "ui/widgets/decimate.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

BackgroundLoadView::BackgroundLoadView(QWidget* parent)
    : ChartView(QStringLiteral("mlforml-background-load"), tr("Background load"), parent) {
    m_x = new QValueAxis(this);
    m_y = new QValueAxis(this);
    m_y->setTitleText(tr("Background load (GB/s)"));
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    auto* upper = new QLineSeries(this);
    auto* lower = new QLineSeries(this);
    m_area = new QAreaSeries(upper, lower);
    m_area->setParent(this);
    m_area->setName(tr("co-running jobs' traffic"));
    addSeriesOnAxes(chart(), m_area, m_x, m_y);
    chart()->legend()->hide();
    setToolTip(
        tr("Aggregate rate of the background jobs' all-reduce flows on the shared fabric, GB/s "
           "(1e9 bytes/s) [2608.06046 Sec. 3.2: p95 volume per 50 ms]. Right-click to export."));
    applyTheme();
}

void BackgroundLoadView::setData(const mlforml::PointResult& point) {
    m_point = point;
    requestRebuild();
}

void BackgroundLoadView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

double BackgroundLoadView::meanGBps() const {
    if (!m_point || m_point->loadTime_s.size() < 2) return 0;
    const auto& t = m_point->loadTime_s;
    const auto& v = m_point->loadBytesPerS;
    double area = 0;
    for (size_t i = 0; i + 1 < t.size() && i < v.size(); ++i) area += v[i] * (t[i + 1] - t[i]);
    return area / (t.back() - t.front()) / 1e9;
}

void BackgroundLoadView::rebuild() {
    if (!m_point) return;
    const auto& t = m_point->loadTime_s;
    const auto& v = m_point->loadBytesPerS;
    const size_t n = std::min(t.size(), v.size());
    const double t0 = n > 0 ? t.front() : 0;
    const double span = n > 1 ? t[n - 1] - t0 : 1;
    const TimeUnit unit = stableTimeUnit(span);
    QList<QPointF> pts;
    pts.reserve(static_cast<qsizetype>(2 * n));
    double yMax = 1;
    for (size_t i = 0; i < n; ++i) {  // step curve: the rate holds until the next sample
        const double x = (t[i] - t0) / unit.divisor;
        const double y = v[i] / 1e9;
        if (i > 0) pts.append(QPointF(x, pts.back().y()));
        if (i + 1 == n && n > 1) break;  // the last sample has no duration: end the step there
        pts.append(QPointF(x, y));
        yMax = std::max(yMax, y);
    }
    // A load that stays at its peak (time-mean within 1 % of it) is the network held full by
    // the co-running jobs, which the caption says (the chart alone shows a block).
    const bool flat = n > 2 && meanGBps() >= 0.99 * yMax;
    const QString spanText =
        QStringLiteral("%1 %2").arg(span / unit.divisor, 0, 'g', 3).arg(unit.name);
    setCaption(flat ? tr("The co-running jobs move a constant %1 GB/s, the most the network "
                         "carries for them, over the %2 recorded.")
                          .arg(yMax, 0, 'g', 4)
                          .arg(spanText)
                    : QString());
    pts = decimateMinMax(pts, plotWidth());
    const QColor col =
        currentTheme() == Theme::Dark ? QColor(0xBB, 0xBB, 0xBB) : QColor(0x55, 0x55, 0x55);
    QColor fill = col;
    fill.setAlphaF(0.35);
    m_area->setBrush(fill);
    m_area->setPen(QPen(col, 1.0));
    m_area->upperSeries()->replace(pts);
    QList<QPointF> base;
    if (!pts.isEmpty()) base = {QPointF(pts.front().x(), 0), QPointF(pts.back().x(), 0)};
    m_area->lowerSeries()->replace(base);
    m_x->setTitleText(n > 0 ? tr("Time since the background started (%1)").arg(unit.name)
                            : tr("Time"));
    setNiceRange(m_x, 0, span / unit.divisor, 6);
    setNiceRange(m_y, 0, yMax * 1.05, 5);
    if (n > 0) {
        const QString label = QString::fromStdString(m_point->label);
        const QString p95 = QString::number(m_point->bgP95GBPer50ms, 'f', 1);
        setFittingTitle({tr("Background load, %1 (p95 %2 GB per 50 ms)").arg(label, p95),
                         tr("Background load, %1, p95 %2 GB/50 ms").arg(label, p95),
                         tr("Background, p95 %1 GB/50 ms").arg(p95)});
    } else {
        setFittingTitle({tr("Background load: none in this scenario"), tr("No background load")});
    }
    ChartView::applyTheme();
}

}  // namespace tandem::ui
