#include "mosaic/reality_view.h"

#include <QAreaSeries>
#include <QChart>
#include <QFont>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <map>

#include "mosaic/layout_form.h"
#include "widgets/bounds.h"
#include "widgets/chart_export.h"
#include "widgets/count_label.h"
#include "widgets/palette.h"
#include "widgets/series_pool.h"

namespace tandem::ui {

namespace {
/// Marker shapes by system order: distinct shapes as well as colours (print, colour blindness).
QScatterSeries::MarkerShape markerShape(int i) {
    const QScatterSeries::MarkerShape shapes[] = {QScatterSeries::MarkerShapeCircle,
                                                  QScatterSeries::MarkerShapeRectangle};
    return shapes[i % 2];
}

/// Lower and upper axis end for `lo`..`hi` on a log-10 axis: whole powers of ten around the data.
std::pair<double, double> decadeRange(double lo, double hi) {
    return {std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi)))};
}
}  // namespace

RealityView::RealityView(QWidget* parent)
    : ChartView(QStringLiteral("reality-predicted-vs-measured"),
                tr("Predicted against measured tokens/s per GPU"), parent) {
    m_x = new QLogValueAxis(this);
    m_x->setBase(10);
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_x->setMinorTickCount(8);
    m_x->setTitleText(tr("measured tokens/s per GPU"));
    m_y = new QLogValueAxis(this);
    m_y->setBase(10);
    m_y->setLabelFormat(QStringLiteral("%g"));
    m_y->setMinorTickCount(8);
    m_y->setTitleText(tr("predicted tokens/s per GPU"));
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    m_band = addAreaSeries(m_x, m_y);
    m_band->setName(tr("within \u00b125 %"));
    m_identity = new QLineSeries(this);
    m_identity->setName(tr("predicted = measured"));
    addSeriesOnAxes(chart(), m_identity, m_x, m_y);
    m_caption = new QGraphicsTextItem(chart());
    m_caption->setZValue(10);
    chart()->legend()->setAlignment(Qt::AlignTop);
    setToolTip(
        tr("Every shipped measured Megatron-Core run (Megatron-Bridge performance summary) costed "
           "with its "
           "published layout under the megatron-core stack, against its measured throughput "
           "(tandem-cli reproduce reality). Hover a marker for the run. Right-click to export."));
    applyTheme();
}

void RealityView::load() {
    if (!m_report) setReport(mosaic::reproduceReality());
}

void RealityView::showEvent(QShowEvent* event) {
    ChartView::showEvent(event);
    load();
}

void RealityView::resizeEvent(QResizeEvent* event) {
    ChartView::resizeEvent(event);
    placeCaption();
}

void RealityView::setReport(const mosaic::RealityReport& r) {
    m_report = r;
    m_points.clear();
    for (const mosaic::RealityRow& row : r.rows) {
        if (!row.eval.feasible) continue;
        const mosaic::RealityCase& c = r.cases[row.caseIndex];
        RealityPoint p;
        p.system = QString::fromStdString(c.run.system);
        p.model = QString::fromStdString(c.run.model);
        p.container = QString::fromStdString(c.run.container);
        p.precision = QString::fromLatin1(mosaic::precisionName(c.cluster.precision));
        p.layout = QString::fromStdString(mosaic::layoutString(c.plan));
        p.gpus = c.run.gpus;
        p.measured = c.run.tokensPerSPerGpu;
        p.predicted = row.eval.tokensPerSPerGpu;
        p.error = row.error;
        m_points.append(p);
    }
    std::stable_sort(
        m_points.begin(), m_points.end(),
        [](const RealityPoint& a, const RealityPoint& b) { return a.system < b.system; });
    for (QScatterSeries* s : std::as_const(m_series)) {
        chart()->removeSeries(s);
        delete s;
    }
    m_series.clear();
    m_seriesPoints.clear();
    for (int i = 0; i < m_points.size(); ++i) m_seriesPoints[m_points[i].system].append(i);
    int k = 0;
    for (auto it = m_seriesPoints.cbegin(); it != m_seriesPoints.cend(); ++it, ++k) {
        const QString system = it.key();
        auto* s = new QScatterSeries(this);
        s->setName(system);
        s->setMarkerShape(markerShape(k));
        s->setMarkerSize(k % 2 ? 9 : 10);
        QList<QPointF> pts;
        for (int i : it.value()) pts.append(QPointF(m_points[i].measured, m_points[i].predicted));
        s->replace(pts);
        addSeriesOnAxes(chart(), s, m_x, m_y);
        connect(s, &QScatterSeries::hovered, this, [this, system](const QPointF& at, bool state) {
            if (!state) {
                QToolTip::hideText();
                return;
            }
            int best = -1;
            double bestD = 1e300;
            for (int i : m_seriesPoints.value(system)) {
                const double d = std::hypot(std::log(m_points[i].measured / at.x()),
                                            std::log(m_points[i].predicted / at.y()));
                if (d < bestD) bestD = d, best = i;
            }
            if (best < 0) return;
            const RealityPoint& p = m_points[best];
            QToolTip::showText(
                QCursor::pos(),
                tr("<b>%1</b> on %2, %3, %4<br>%5<br>measured %6, predicted %7 tokens/s per GPU "
                   "(%8%9 %)<br>%10")
                    .arg(p.model.toHtmlEscaped(), p.system.toHtmlEscaped(),
                         countLabel(p.gpus, tr("GPU"), tr("GPUs")), p.precision.toUpper(),
                         p.layout.toHtmlEscaped())
                    .arg(p.measured, 0, 'f', 0)
                    .arg(p.predicted, 0, 'f', 0)
                    .arg(p.error >= 0 ? QStringLiteral("+") : QString())
                    .arg(100 * p.error, 0, 'f', 1)
                    .arg(p.container.toHtmlEscaped()),
                this);
        });
        m_series.insert(system, s);
    }
    const mosaic::RealitySummary& sum = r.summary;
    const QString median = QString::number(100 * sum.medianAbsError, 'f', 1);
    const QString within = QString::number(100 * sum.shareWithin25, 'f', 0);
    setFittingTitle(
        {tr("Predicted against measured tokens/s per GPU: median |error| %1 %, %2 % of %3 within "
            "\u00b125 %")
             .arg(median, within, countLabel(sum.rows, tr("run"), tr("runs"))),
         tr("Predicted vs measured: median |error| %1 %, %2 % within \u00b125 %")
             .arg(median, within),
         tr("Median |error| %1 %, %2 % within \u00b125 %").arg(median, within)});
    requestRebuild();
}

QString RealityView::caption() const {
    if (!m_report) return {};
    struct Group {
        QStringList models;
        int runs = 0;
    };
    std::map<std::string, Group> reasons;  // reason -> models and runs
    int notExpressible = 0;
    for (const mosaic::RealityCase& c : m_report->cases) {
        if (c.expressible) continue;
        ++notExpressible;
        Group& g = reasons[c.reason];
        ++g.runs;
        const QString model = QString::fromStdString(c.run.model);
        if (!g.models.contains(model)) g.models << model;
    }
    const int infeasible =
        static_cast<int>(m_report->rows.size()) - static_cast<int>(m_points.size());
    QString text =
        tr("%1 of %2 plotted, costed with their published layouts under the megatron-core stack.")
            .arg(m_points.size())
            .arg(countLabel(static_cast<qint64>(m_report->cases.size()), tr("measured run"),
                            tr("measured runs")));
    if (infeasible > 0)
        text += QLatin1Char(' ') + tr("%1 out of memory under the model, not plotted.")
                                       .arg(countLabel(infeasible, tr("run"), tr("runs")));
    if (notExpressible > 0) {
        QStringList parts;
        for (const auto& [reason, g] : reasons)
            parts << tr("%1 (%2): %3")
                         .arg(g.models.join(QStringLiteral(", ")),
                              countLabel(g.runs, tr("run"), tr("runs")),
                              QString::fromStdString(reason));
        text += QLatin1Char(' ') +
                tr("%1 not expressible by a transformer cost model, not plotted: %2.")
                    .arg(countLabel(notExpressible, tr("run"), tr("runs")),
                         parts.join(QStringLiteral("; ")));
    }
    return text;
}

QString RealityView::csv() const {
    QString out = QStringLiteral(
        "system,model,container,gpus,precision,layout,measured_tokens_per_s_per_gpu,"
        "predicted_tokens_per_s_per_gpu,error\n");
    for (const RealityPoint& p : m_points)
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9\n")
                   .arg(csvField(p.system), csvField(p.model), csvField(p.container))
                   .arg(p.gpus)
                   .arg(csvField(p.precision), csvField(p.layout),
                        QString::number(p.measured, 'g', 10), QString::number(p.predicted, 'g', 10),
                        QString::number(p.error, 'g', 6));
    return out;
}

void RealityView::applyTheme() { requestRebuild(); }

void RealityView::rebuild() {
    ChartView::applyTheme();  // also styles the legend markers of series added since
    const bool dark = currentTheme() == Theme::Dark;
    // One range for both axes: every measured (x) and predicted (y) throughput.
    Bounds extent;
    for (const RealityPoint& p : m_points) extent.add(p.measured, p.predicted);
    const double lo = m_points.isEmpty() ? 100 : std::min(extent.xLo, extent.yLo);
    const double hi = m_points.isEmpty() ? 100000 : std::max(extent.xHi, extent.yHi);
    const auto [a, b] = decadeRange(lo / 1.3, hi * 1.3);
    m_x->setRange(a, b);
    m_y->setRange(a, b);
    m_identity->replace({QPointF(a, a), QPointF(b, b)});
    m_band->lowerSeries()->replace({QPointF(a, 0.75 * a), QPointF(b, 0.75 * b)});
    m_band->upperSeries()->replace({QPointF(a, 1.25 * a), QPointF(b, 1.25 * b)});
    QColor fill = dark ? QColor(0x80, 0x80, 0x80) : QColor(0x99, 0x99, 0x99);
    fill.setAlphaF(dark ? 0.35 : 0.30);
    m_band->setBrush(fill);
    m_band->setPen(QPen(fill.darker(130), 1, Qt::DashLine));
    const QColor ink = dark ? QColor(0xE8, 0xE8, 0xE8) : QColor(0x20, 0x20, 0x20);
    m_identity->setPen(QPen(ink, 1.4));
    for (auto it = m_series.cbegin(); it != m_series.cend(); ++it) {
        const QColor c = systemColor(it.key());
        it.value()->setColor(c);
        it.value()->setBorderColor(dark ? QColor(0x26, 0x28, 0x2b) : QColor(Qt::white));
    }
    QFont f = font();
    f.setPointSizeF(9);
    m_caption->setFont(f);
    m_caption->setDefaultTextColor(ink);
    m_caption->setPlainText(caption());
    placeCaption();
}

void RealityView::placeCaption() {
    if (!m_caption) return;
    const qreal width = std::max(200, this->width() - 24);
    m_caption->setTextWidth(width);
    const qreal h = m_caption->boundingRect().height();
    QMargins m = chart()->margins();
    m.setBottom(static_cast<int>(h) + 6);
    chart()->setMargins(m);
    m_caption->setPos(12, chart()->size().height() - h - 2);
}

}  // namespace tandem::ui
