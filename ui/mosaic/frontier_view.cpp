#include "ui/mosaic/frontier_view.h"

#include <QAreaSeries>
#include <QChart>
#include <QGraphicsItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QScatterSeries>
#include <QValueAxis>
#include <QtMath>
#include <cmath>

#include "mosaic/report.h"
#include "ui/mosaic/cluster_unit.h"
#include "ui/mosaic/layout_cells.h"
#include "ui/widgets/count_label.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

/// The annotated arrow from the triangle (compute-optimal choice trained on this cluster) to the
/// circle (cluster optimum) with the nats gained, drawn over the plot in chart coordinates.
class GainArrowItem : public QGraphicsItem {
public:
    GainArrowItem(QChart* chart, QAbstractSeries* series)
        : QGraphicsItem(chart), m_chart(chart), m_series(series) {
        setZValue(6);
    }
    void set(const QList<QPointF>& arrow, const QString& label) {
        m_arrow = arrow;
        m_label = label;
        update();
    }
    QRectF boundingRect() const override { return QRectF(QPointF(0, 0), m_chart->size()); }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override {
        if (m_arrow.size() != 2) return;
        const QPointF a = m_chart->mapToPosition(m_arrow[0], m_series);
        const QPointF b = m_chart->mapToPosition(m_arrow[1], m_series);
        const QLineF full(a, b);
        const QPointF u = full.length() > 1e-6 ? (b - a) / full.length() : QPointF(1, 0);
        const bool dark = currentTheme() == Theme::Dark;
        const QColor ink = dark ? QColor(0xF0, 0xF0, 0xF0) : QColor(0x10, 0x10, 0x10);
        painter->setRenderHint(QPainter::Antialiasing);
        // From the triangle's edge to the circle's edge (markers are about 12 px); when the
        // markers nearly touch (a small chart, a small gain) there is no room for an arrow, and
        // the label alone names the gain.
        if (full.length() >= 24) {
            const QPointF from = a + 9 * u, to = b - 11 * u;
            painter->setPen(QPen(ink, 1.8));
            painter->drawLine(from, to);
            const QPointF n(-u.y(), u.x());
            QPolygonF head;
            head << to << to - 9 * u + 4.5 * n << to - 9 * u - 4.5 * n;
            painter->setBrush(ink);
            painter->drawPolygon(head);
        }
        QFont f = painter->font();
        f.setPointSizeF(9.5 * chartFontScale());
        f.setBold(true);
        painter->setFont(f);
        const QFontMetricsF fm(f);
        QRectF box(QPointF(0, 0), QSizeF(fm.horizontalAdvance(m_label) + 8, fm.height() + 2));
        // Below the circle, on the side away from the triangle (the cluster optimum is the
        // cluster frontier's minimum: nothing is drawn under it); kept inside the plot.
        box.moveTop(b.y() + 12);
        if (u.x() < 0)
            box.moveRight(b.x() + 6);
        else
            box.moveLeft(b.x() - 6);
        const QRectF plot = m_chart->plotArea();
        box.moveLeft(std::clamp(box.left(), plot.left() + 2, plot.right() - box.width() - 2));
        box.moveTop(std::clamp(box.top(), plot.top() + 2, plot.bottom() - box.height() - 2));
        QColor bg = m_chart->backgroundBrush().color();
        bg.setAlpha(220);
        painter->setPen(Qt::NoPen);
        painter->setBrush(bg);
        painter->drawRoundedRect(box, 3, 3);
        painter->setPen(ink);
        painter->drawText(box, Qt::AlignCenter, m_label);
    }

private:
    QChart* m_chart;
    QAbstractSeries* m_series;
    QList<QPointF> m_arrow;
    QString m_label;
};

void FrontierView::fillBands(QList<QAreaSeries*>& pool, const QList<QPair<double, double>>& bands,
                             const QBrush& brush, const QString& name, const QColor& swatch,
                             double yLo, double yHi) {
    while (pool.size() < bands.size()) {
        pool.append(addAreaSeries(m_x, m_y));
    }
    for (qsizetype i = 0; i < pool.size(); ++i) {
        QAreaSeries* a = pool[i];
        a->setName(name);
        a->setBrush(brush);
        a->setPen(QPen(Qt::NoPen));
        const bool on = i < bands.size();
        a->setVisible(on);
        if (on) {
            a->upperSeries()->replace(
                {QPointF(bands[i].first, yHi), QPointF(bands[i].second, yHi)});
            a->lowerSeries()->replace(
                {QPointF(bands[i].first, yLo), QPointF(bands[i].second, yLo)});
        }
        for (QLegendMarker* m : chart()->legend()->markers(a)) {
            m->setVisible(on && i == 0);
            m->setBrush(swatch);
        }
    }
}

QList<QPair<double, double>> FrontierView::shadedBands(bool undeliverable) const {
    QList<QPair<double, double>> out;
    for (const QAreaSeries* a : undeliverable ? m_redBands : m_bands)
        if (a->isVisible() && a->upperSeries()->count() == 2)
            out.append({a->upperSeries()->at(0).x(), a->upperSeries()->at(1).x()});
    return out;
}

FrontierView::FrontierView(QWidget* parent)
    : ChartView(QStringLiteral("mosaic-frontier"),
                tr("Loss against sparsity: compute-optimal vs cluster-optimal"), parent) {
    setHoverSnapsToPoints(true);  // a sweep: read at its computed points
    m_x = new QValueAxis(this);
    m_x->setTitleText(tr("Sparsity S = 1 - N_act / N_tot"));
    m_x->setLabelFormat(QStringLiteral("%.2f"));
    m_y = new QValueAxis(this);
    m_y->setTitleText(tr("Predicted loss, Eq. 10 (nats)"));
    m_y->setLabelFormat(QStringLiteral("%.3f"));
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    chart()->legend()->setAlignment(Qt::AlignRight);  // six entries: a bottom row would elide them
    // The frontier lines first so that they lead the legend, then the points on them.
    for (auto* pool : {&m_compute, &m_computeExtra, &m_cluster, &m_clusterExtra}) {
        pool->append(addSeriesOnAxes(chart(), new QLineSeries(this), m_x, m_y));
        pool->back()->setVisible(false);
    }
    auto mkScatter = [this](QScatterSeries::MarkerShape shape, double size) {
        auto* s = new QScatterSeries(this);
        s->setMarkerShape(shape);
        s->setMarkerSize(size);
        return addSeriesOnAxes(chart(), s, m_x, m_y);
    };
    m_computeOpt = mkScatter(QScatterSeries::MarkerShapeRectangle, 12);
    m_clusterOpt = mkScatter(QScatterSeries::MarkerShapeCircle, 13);
    m_naive = mkScatter(QScatterSeries::MarkerShapeTriangle, 12);
    m_selected = mkScatter(QScatterSeries::MarkerShapeCircle, 20);
    m_selected->setName(tr("Selected candidate"));
    m_arrowItem = new GainArrowItem(chart(), m_clusterOpt);
    connect(chart(), &QChart::plotAreaChanged, this,
            [this](const QRectF&) { m_arrowItem->update(); });
    applyTheme();
}

void FrontierView::setCluster(int nodes, int gpus, double days) {
    m_nodes = nodes;
    m_gpus = gpus;
    m_days = days;
    requestRebuild();
}

QColor FrontierView::selectedRingColor() const { return m_selected->pen().color(); }

void FrontierView::setData(const mosaic::SearchResult& result) {
    m_result = result;
    requestRebuild();
}

void FrontierView::setImported(const QList<FrontierMarker>& markers) {
    m_markers = markers;
    requestRebuild();
}

QList<QScatterSeries*> FrontierView::importedSeries() const {
    QList<QScatterSeries*> out;
    for (QScatterSeries* s : m_imported)
        if (s->isVisible()) out.append(s);
    return out;
}

void FrontierView::setSelected(const std::optional<QPointF>& point) {
    m_selectedPoint = point;
    const QColor ring = currentTheme() == Theme::Dark ? Qt::white : Qt::black;
    setScatterColors(m_selected, Qt::transparent, ring);
    m_selected->setPen(QPen(ring, 2));
    m_selected->replace(point ? QList<QPointF>{*point} : QList<QPointF>{});
    for (QLegendMarker* m : chart()->legend()->markers(m_selected))
        m->setVisible(point.has_value());
}

QList<QPointF> FrontierView::selectedPoint() const { return m_selected->points(); }

void FrontierView::resizeEvent(QResizeEvent* event) {
    ChartView::resizeEvent(event);
    const bool compact = width() < kCompactLegendWidth;
    const bool narrow = width() < kFewTicksWidth;
    if (compact == m_compactLegend && narrow == m_fewTicks) return;
    m_compactLegend = compact;
    m_fewTicks = narrow;
    requestRebuild();
}

void FrontierView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

int FrontierView::frontierPointCount() const {
    int n = 0;
    for (const auto* pool : {&m_compute, &m_computeExtra, &m_cluster, &m_clusterExtra})
        for (QLineSeries* s : *pool)
            if (s->isVisible()) n += s->count();
    return n;
}

void FrontierView::fillPool(QList<QLineSeries*>& pool, const QList<QList<QPointF>>& segments,
                            const QPen& pen, const QString& name) {
    growSeriesPool(pool, segments.size(), chart(), m_x, m_y);
    for (qsizetype i = 0; i < pool.size(); ++i) {
        QLineSeries* s = pool[i];
        s->setName(name);
        s->setPen(pen);
        if (i < segments.size()) {
            s->replace(segments[i]);
            s->setVisible(true);
        }
        const auto markers = chart()->legend()->markers(s);
        for (QLegendMarker* m : markers)
            m->setVisible(i == 0 && !segments.isEmpty() && !name.isEmpty());
    }
}

void FrontierView::rebuild() {
    if (!m_result) return;
    const Theme theme = currentTheme();
    const FrontierPlot plot = frontierPlot(*m_result, m_markers, m_compactLegend);
    m_dashes = plot.dashes;

    const QColor cc = frontierColor(false), kc = frontierColor(true);
    // One legend entry per frontier: the solid part's, else the dashed part's.
    fillPool(m_compute, plot.computeFitted, QPen(cc, 2.4), plot.computeName);
    fillPool(m_computeExtra, plot.computeExtrapolated, QPen(cc, 2.0, Qt::DashLine),
             plot.computeFitted.isEmpty() ? plot.computeName : QString());
    fillPool(m_cluster, plot.clusterFitted, QPen(kc, 2.4), plot.clusterName);
    fillPool(m_clusterExtra, plot.clusterExtrapolated, QPen(kc, 2.0, Qt::DashLine),
             plot.clusterFitted.isEmpty() ? plot.clusterName : QString());

    // Optima.
    const QColor edge = theme == Theme::Dark ? Qt::white : Qt::black;
    setScatterColors(m_computeOpt, cc, edge);
    setScatterColors(m_clusterOpt, kc, edge);
    setScatterColors(m_naive, cc.lighter(130), edge);
    const std::pair<QScatterSeries*, const std::optional<QPointF>*> optima[] = {
        {m_computeOpt, &plot.computeOptimum},
        {m_clusterOpt, &plot.clusterOptimum},
        {m_naive, &plot.naiveOnCluster}};
    m_computeOpt->setName(plot.computeOptimumName);
    m_clusterOpt->setName(plot.clusterOptimumName);
    m_naive->setName(plot.naiveName);
    for (const auto& [series, point] : optima) {
        series->replace(*point ? QList<QPointF>{**point} : QList<QPointF>{});
        for (QLegendMarker* m : chart()->legend()->markers(series))
            m->setVisible(point->has_value());
    }

    // Imported models: one labelled marker each (diamond-like rotated square, black edge).
    growSeriesPool(m_imported, plot.markers.size(), chart(), m_x, m_y, [](QScatterSeries* s) {
        s->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
        s->setMarkerSize(15);
        s->setPointLabelsVisible(true);
        s->setPointLabelsClipping(false);
    });
    static const QColor markerColors[] = {okabeIto(OkabeIto::Green), okabeIto(OkabeIto::Purple),
                                          okabeIto(OkabeIto::Yellow), okabeIto(OkabeIto::SkyBlue)};
    for (qsizetype i = 0; i < m_imported.size(); ++i) {
        QScatterSeries* s = m_imported[i];
        const bool on = i < plot.markers.size() && plot.markers[i].shown;
        s->setVisible(on);
        for (QLegendMarker* lm : chart()->legend()->markers(s)) lm->setVisible(on);
        if (!on) {
            s->clear();
            continue;
        }
        const FrontierPlot::Marker& m = plot.markers[i];
        const QColor c = markerColors[i % 4];
        s->setName(m.name);
        s->setColor(c);
        s->setBorderColor(edge);
        s->setPen(QPen(edge, 1.4));
        s->setPointLabelsFormat(QStringLiteral("  ") + m.pointLabel);
        s->setPointLabelsColor(edge);
        QFont f = s->pointLabelsFont();
        f.setBold(true);
        f.setPointSizeF(9.0 * chartFontScale());
        s->setPointLabelsFont(f);
        s->replace(QList<QPointF>{m.point});
    }

    setNiceRange(m_x, plot.xLo, plot.xHi, m_fewTicks ? 3 : 6);
    // The cluster in the unit its size control counts: nodes, or racks on NVL72 hardware.
    const ClusterUnit unit = clusterUnitOf(m_nodes > 0 ? m_gpus / m_nodes : 0);
    const QString where = m_nodes > 0 ? tr(" on %1 (%2), %3 days")
                                            .arg(countLabel(m_nodes, unit.singular, unit.plural),
                                                 countLabel(m_gpus, tr("GPU"), tr("GPUs")),
                                                 QString::number(m_days, 'g', 4))
                                      : QString();
    setFittingTitle({tr("Loss against sparsity%1%2").arg(where, plot.titleNote)});
    setNiceRange(m_y, plot.yLo, plot.yHi, 5);
    // Shaded bands over the final y range. Solid enough to read on a projector; a bright red on
    // the dark theme (a faint red on a dark background reads as maroon).
    QColor redShade =
        theme == Theme::Dark ? QColor(0xFF, 0x5A, 0x5A, 190) : QColor(0xE0, 0x30, 0x30, 110);
    QColor greyShade =
        theme == Theme::Dark ? QColor(0x80, 0x80, 0x80, 70) : QColor(0x99, 0x99, 0x99, 60);
    fillBands(m_redBands, plot.redBands, QBrush(redShade), plot.redBandName,
              QColor(redShade.red(), redShade.green(), redShade.blue(), 120), m_y->min(),
              m_y->max());
    QColor greySwatch = greyShade;  // the hatch is invisible in a legend square: a solid swatch
    greySwatch.setAlpha(140);
    fillBands(m_bands, plot.greyBands, QBrush(greyShade, Qt::BDiagPattern), plot.greyBandName,
              greySwatch, m_y->min(), m_y->max());

    // The lesson of Fig. 1: the arrow from the triangle to the circle, with the nats gained.
    m_arrow = plot.arrow;
    m_arrowItem->set(plot.arrow, plot.gainLabel);
    setCaption(plot.caption);
    // The selected candidate's ring follows the theme.
    m_selected->setBorderColor(edge);
    m_selected->setPen(QPen(edge, 2));

    ChartView::applyTheme();
}

HoverTable FrontierView::hoverAtX(double x) const {
    HoverTable t = ChartView::hoverAtX(x);
    if (!m_result || m_result->candidates.empty()) return t;
    const mosaic::Candidate* nearest = nullptr;
    for (const mosaic::Candidate& c : m_result->candidates)
        if (!nearest ||
            std::abs(c.geometry.sparsity - x) < std::abs(nearest->geometry.sparsity - x))
            nearest = &c;
    t.rows.append({tr("Nearest candidate"), tr("S %1, %2 nats")
                                                .arg(nearest->geometry.sparsity, 0, 'f', 3)
                                                .arg(nearest->loss, 0, 'f', 3)});
    t.rows.append(
        {tr("Geometry"), QString::fromStdString(mosaic::geometryLabel(nearest->geometry))});
    t.rows.append({tr("Layout"), QString::fromStdString(planLabel(nearest->plan))});
    return t;
}

QString FrontierView::csv() const {
    // The CLI's mosaic_frontier.csv columns and values (mosaic::frontierCsv), then
    // compute_optimal_deliverable, then the imported models drawn on the chart.
    if (!m_result)
        return QString::fromStdString(
            mosaic::frontierCsv({}, mosaic::FrontierCsvColumns::WithDeliverable));
    QString out = QString::fromStdString(
        mosaic::frontierCsv(*m_result, mosaic::FrontierCsvColumns::WithDeliverable));
    if (!m_markers.isEmpty()) {
        std::vector<mosaic::FrontierModelPoint> points;
        for (const FrontierMarker& m : m_markers)
            points.push_back({m.label.toStdString(), m.sparsity, m.loss, m.extrapolated});
        out += QLatin1Char('\n') + QString::fromStdString(mosaic::frontierModelsCsv(points));
    }
    return out;
}

}  // namespace tandem::ui
