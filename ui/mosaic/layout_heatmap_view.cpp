#include "ui/mosaic/layout_heatmap_view.h"

#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QHelpEvent>
#include <QLegend>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

QColor viridis(double t) {
    static const QColor stops[] = {
        QColor(0x44, 0x01, 0x54), QColor(0x47, 0x2c, 0x7a), QColor(0x3b, 0x51, 0x8b),
        QColor(0x2c, 0x71, 0x8e), QColor(0x21, 0x90, 0x8d), QColor(0x27, 0xad, 0x81),
        QColor(0x5c, 0xc8, 0x63), QColor(0xaa, 0xdc, 0x32), QColor(0xfd, 0xe7, 0x25)};
    if (!std::isfinite(t)) t = 0;
    t = std::clamp(t, 0.0, 1.0) * 8;
    const int i = std::min(7, static_cast<int>(t));
    const double f = t - i;
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor::fromRgbF(static_cast<float>(a.redF() + f * (b.redF() - a.redF())),
                            static_cast<float>(a.greenF() + f * (b.greenF() - a.greenF())),
                            static_cast<float>(a.blueF() + f * (b.blueF() - a.blueF())));
}

/// Paints the cells inside the chart's plot area.
class HeatmapItem : public QGraphicsItem {
public:
    explicit HeatmapItem(LayoutHeatmapView* view) : QGraphicsItem(view->chart()), m_view(view) {
        setZValue(5);
    }
    QRectF boundingRect() const override { return m_view->chart()->plotArea(); }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override {
        const LayoutCells& lc = m_view->m_cells;
        const bool dark = currentTheme() == Theme::Dark;
        QFont f = painter->font();
        f.setPointSizeF(8.5);
        painter->setFont(f);
        const double maxMfu = lc.maxMfu > 0 ? lc.maxMfu : 1;
        for (size_t i = 0; i < lc.pp.size(); ++i)
            for (size_t j = 0; j < lc.ep.size(); ++j) {
                const LayoutCell& c = lc.cells[i * lc.ep.size() + j];
                const QRectF r = m_view->cellRect(static_cast<int>(i), static_cast<int>(j))
                                     .adjusted(1, 1, -1, -1);
                QString text;
                QColor textColor = dark ? QColor(0xE8, 0xE8, 0xE8) : QColor(0x20, 0x20, 0x20);
                if (c.feasible) {
                    const QColor fill = viridis(c.eval.mfu / maxMfu);
                    painter->fillRect(r, fill);
                    text = QString::number(100 * c.eval.mfu, 'f', 1);
                    if (fill.lightnessF() < 0.5)
                        textColor = Qt::white;
                    else
                        textColor = Qt::black;
                } else if (c.anyValid) {
                    painter->fillRect(r,
                                      dark ? QColor(0x3a, 0x3c, 0x40) : QColor(0xEE, 0xEE, 0xEE));
                    painter->fillRect(
                        r, QBrush(dark ? QColor(0x90, 0x90, 0x90) : QColor(0x88, 0x88, 0x88),
                                  Qt::BDiagPattern));
                    text = QStringLiteral("OOM");
                } else {
                    painter->fillRect(r,
                                      dark ? QColor(0x30, 0x32, 0x35) : QColor(0xF7, 0xF7, 0xF7));
                    painter->setPen(
                        QPen(dark ? QColor(0x80, 0x80, 0x80) : QColor(0xAA, 0xAA, 0xAA), 1.2));
                    const QRectF x = r.adjusted(r.width() * 0.3, r.height() * 0.25,
                                                -r.width() * 0.3, -r.height() * 0.25);
                    painter->drawLine(x.topLeft(), x.bottomRight());
                    painter->drawLine(x.topRight(), x.bottomLeft());
                }
                // A value that does not fit its cell is left out, not cut: the colour and the
                // colour bar carry it, hovering the cell names it, and the hatching marks OOM.
                const QFontMetricsF fm(f);
                if (!text.isEmpty() && fm.horizontalAdvance(text) <= r.width() - 2 &&
                    fm.height() <= r.height()) {
                    painter->setPen(textColor);
                    painter->drawText(r, Qt::AlignCenter, text);
                }
                if (static_cast<int>(i * lc.ep.size() + j) == m_view->m_selected) {
                    painter->setPen(QPen(dark ? Qt::white : Qt::black, 3));
                    painter->setBrush(Qt::NoBrush);
                    painter->drawRect(r.adjusted(1, 1, -1, -1));
                }
            }
    }
    void refresh() {
        prepareGeometryChange();
        update();
    }

private:
    LayoutHeatmapView* m_view;
};

/// The colour bar (MFU %, right of the plot area) and the X / OOM key line (bottom of the chart).
class HeatmapKeyItem : public QGraphicsItem {
public:
    explicit HeatmapKeyItem(LayoutHeatmapView* view) : QGraphicsItem(view->chart()), m_view(view) {
        setZValue(5);
    }
    QRectF boundingRect() const override { return QRectF(QPointF(0, 0), m_view->chart()->size()); }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override {
        const QRectF plot = m_view->chart()->plotArea();
        const QSizeF size = m_view->chart()->size();
        const bool dark = currentTheme() == Theme::Dark;
        const QColor text = dark ? QColor(0xE8, 0xE8, 0xE8) : QColor(0x20, 0x20, 0x20);
        QFont f = painter->font();
        f.setPointSizeF(8);
        painter->setFont(f);
        const QFontMetricsF fm(f);
        // Colour bar: bottom = 0 %, top = the best cell's MFU (the cells' normalisation).
        const double maxPct = m_view->colourScaleMaxPercent();
        if (plot.height() > 40 && maxPct > 0) {
            const QRectF bar(plot.right() + 14, plot.top() + fm.height() + 4, 12,
                             plot.height() - fm.height() - 4);
            const int steps = 64;
            for (int k = 0; k < steps; ++k) {
                const double y0 = bar.bottom() - bar.height() * (k + 1) / steps;
                painter->fillRect(QRectF(bar.left(), y0, bar.width(), bar.height() / steps + 0.5),
                                  viridis((k + 0.5) / steps));
            }
            painter->setPen(text);
            painter->drawRect(bar);
            painter->drawText(QPointF(bar.left() - 4, plot.top() + fm.ascent()),
                              QObject::tr("MFU %"));
            // Ticks on round values (0, 5, 10, ...), and the top (the best cell's MFU) when
            // it is not next to the last of them.
            const double step = niceStep(maxPct, 4);
            const int decimals = step < 1 ? 1 : 0;
            auto tick = [&](double pct, int places) {
                const double y = bar.bottom() - bar.height() * pct / maxPct;
                painter->drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 3, y));
                painter->drawText(QPointF(bar.right() + 5, y + fm.ascent() / 2 - 1),
                                  QString::number(pct, 'f', places));
            };
            double last = 0;
            for (int k = 0; k * step <= maxPct * (1 + 1e-9); ++k) tick(last = k * step, decimals);
            if ((maxPct - last) / maxPct * bar.height() > fm.height()) tick(maxPct, 1);
        }
        painter->setPen(text);
        const QRectF line(8, size.height() - fm.height() - 4, size.width() - 16, fm.height() + 2);
        painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                          LayoutHeatmapView::caption(fm, line.width()));
    }
    void refresh() {
        prepareGeometryChange();
        update();
    }

private:
    LayoutHeatmapView* m_view;
};

QString LayoutHeatmapView::caption() {
    return tr("X: layout infeasible (mesh rules); hatched OOM: out of memory");
}

QString LayoutHeatmapView::caption(const QFontMetricsF& fm, qreal width) {
    // A cell's tooltip names the exact rule; the shortest form fits the narrowest chart.
    const QStringList forms = {caption(), tr("X: infeasible (mesh rules); hatched: out of memory"),
                               tr("X: infeasible; hatched: OOM")};
    for (const QString& f : forms)
        if (fm.horizontalAdvance(f) <= width) return f;
    return forms.back();
}

LayoutHeatmapView::LayoutHeatmapView(QWidget* parent)
    : ChartView(QStringLiteral("mosaic-layout-heatmap"), tr("MFU per layout"), parent) {
    m_x = new QCategoryAxis(this);
    m_y = new QCategoryAxis(this);
    for (QCategoryAxis* a : {m_x, m_y}) {
        a->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        a->setGridLineVisible(false);
    }
    m_x->setTitleText(tr("Expert parallelism EP"));
    m_y->setTitleText(tr("Pipeline parallelism PP"));
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    addSeriesOnAxes(chart(), new QLineSeries(this), m_x,
                    m_y);  // keeps the axes laid out; never drawn
    chart()->legend()->hide();
    auto* item = new HeatmapItem(this);
    m_item = item;
    auto* key = new HeatmapKeyItem(this);
    m_key = key;
    connect(chart(), &QChart::plotAreaChanged, this, [this, item, key](const QRectF&) {
        item->refresh();
        key->refresh();
        // Labels thinned for another plot size: thin them for this one.
        if (labelStride(true) != m_xStride || labelStride(false) != m_yStride) requestRebuild();
    });
    setMouseTracking(true);
    applyTheme();
}

void LayoutHeatmapView::setData(const LayoutCells& cells, int selected, const QString& title) {
    m_cells = cells;
    m_selected = selected;
    chart()->setTitle(title);
    requestRebuild();
}

void LayoutHeatmapView::setSelected(int index) {
    m_selected = index;
    static_cast<HeatmapItem*>(m_item)->refresh();
}

void LayoutHeatmapView::applyTheme() {
    ChartView::applyTheme();
    // Room for the colour bar on the right and the key line at the bottom (after the theme,
    // which sets the common margins).
    chart()->setMargins(QMargins(6, 6, 64, 22));
    requestRebuild();
}

namespace {
/// Every `stride`-th of `values` (the first always) as a label of `axis`, at the centre of its
/// cell (label positions on value: a category ends at each labelled cell's centre, so a label
/// has `stride` cells of room; Qt Charts elides a label wider than its category to "...").
void setCategoryLabels(QCategoryAxis* axis, const std::vector<int>& values, int stride) {
    for (const QString& l : axis->categoriesLabels()) axis->remove(l);
    for (size_t k = 0; k < values.size(); k += static_cast<size_t>(stride))
        axis->append(QString::number(values[k]), static_cast<double>(k) + 0.5);
}
}  // namespace

int LayoutHeatmapView::labelStride(bool horizontal) const {
    const std::vector<int>& values = horizontal ? m_cells.ep : m_cells.pp;
    const QRectF a = chart()->plotArea();
    const double room = horizontal ? a.width() : a.height();
    if (values.empty() || room <= 0) return 1;
    const double cell = room / static_cast<double>(values.size());
    const QFontMetricsF fm((horizontal ? m_x : m_y)->labelsFont());
    double need = horizontal ? fm.height() + 2 : 2 * (fm.height() + 2);
    if (horizontal)
        for (int v : values) need = std::max(need, fm.horizontalAdvance(QString::number(v)) + 14);
    return std::max(1, static_cast<int>(std::ceil(need / cell)));
}

void LayoutHeatmapView::rebuild() {
    m_xStride = labelStride(true);
    m_yStride = labelStride(false);
    setCategoryLabels(m_x, m_cells.ep, m_xStride);
    setCategoryLabels(m_y, m_cells.pp, m_yStride);
    m_x->setStartValue(0);
    m_y->setStartValue(0);
    m_x->setRange(0, std::max<double>(1, static_cast<double>(m_cells.ep.size())));
    m_y->setRange(0, std::max<double>(1, static_cast<double>(m_cells.pp.size())));
    static_cast<HeatmapItem*>(m_item)->refresh();
    if (m_key) static_cast<HeatmapKeyItem*>(m_key)->refresh();
}

QRectF LayoutHeatmapView::cellRect(int ppIndex, int epIndex) const {
    const QRectF a = chart()->plotArea();
    const double nx = std::max<double>(1, static_cast<double>(m_cells.ep.size()));
    const double ny = std::max<double>(1, static_cast<double>(m_cells.pp.size()));
    const double w = a.width() / nx, h = a.height() / ny;
    return QRectF(a.left() + epIndex * w, a.bottom() - (ppIndex + 1) * h, w, h);  // PP grows upward
}

QPoint LayoutHeatmapView::cellCenter(int ppIndex, int epIndex) const {
    return mapFromScene(chart()->mapToScene(cellRect(ppIndex, epIndex).center()));
}

int LayoutHeatmapView::cellAt(const QPoint& viewportPos) const {
    const QPointF p = chart()->mapFromScene(mapToScene(viewportPos));
    for (size_t i = 0; i < m_cells.pp.size(); ++i)
        for (size_t j = 0; j < m_cells.ep.size(); ++j)
            if (cellRect(static_cast<int>(i), static_cast<int>(j)).contains(p))
                return static_cast<int>(i * m_cells.ep.size() + j);
    return -1;
}

QString LayoutHeatmapView::cellToolTip(int index) const {
    if (index < 0 || static_cast<size_t>(index) >= m_cells.cells.size()) return {};
    const LayoutCell& c = m_cells.cells[static_cast<size_t>(index)];
    const QString head = tr("PP %1 x EP %2").arg(c.pp).arg(c.ep);
    if (c.feasible)
        return tr("%1: MFU %2 %, iteration %3 s, %4 GB per GPU\nbest plan: %5\nClick to select "
                  "this layout.")
            .arg(head)
            .arg(100 * c.eval.mfu, 0, 'f', 1)
            .arg(c.eval.iteration_s, 0, 'f', 2)
            .arg(c.eval.memoryGB, 0, 'f', 0)
            .arg(QString::fromStdString(planLabel(c.plan)));
    if (c.anyValid)
        return tr("%1: out of memory in every plan of the grid; the leanest (%2) %3")
            .arg(head, QString::fromStdString(planLabel(c.plan)), QString::fromStdString(c.reason));
    return tr("%1: no valid layout: %2").arg(head, QString::fromStdString(c.reason));
}

HoverTable LayoutHeatmapView::hoverAt(const QPoint& viewportPos) const {
    return cellHover(cellAt(viewportPos));
}

HoverTable LayoutHeatmapView::cellHover(int index) const {
    if (index < 0 || static_cast<size_t>(index) >= m_cells.cells.size()) return {};
    const LayoutCell& c = m_cells.cells[static_cast<size_t>(index)];
    HoverTable t;
    t.heading = tr("PP %1 x EP %2").arg(c.pp).arg(c.ep);
    if (c.feasible) {
        t.rows.append({tr("MFU"), tr("%1 %").arg(100 * c.eval.mfu, 0, 'f', 1)});
        t.rows.append({tr("Memory per GPU"), tr("%1 GB").arg(c.eval.memoryGB, 0, 'f', 1)});
        t.rows.append({tr("Iteration"), tr("%1 s").arg(c.eval.iteration_s, 0, 'f', 2)});
        t.rows.append({tr("Plan"), QString::fromStdString(planLabel(c.plan))});
    } else if (c.anyValid) {
        t.rows.append({tr("MFU"), tr("out of memory")});
        t.rows.append(
            {tr("Memory per GPU"), tr("%1 GB (leanest plan)").arg(c.eval.memoryGB, 0, 'f', 1)});
        t.rows.append({tr("Plan"), QString::fromStdString(planLabel(c.plan))});
    } else {
        t.rows.append({tr("No valid layout"), QString::fromStdString(c.reason)});
    }
    return t;
}

void LayoutHeatmapView::mousePressEvent(QMouseEvent* event) {
    ChartView::mousePressEvent(event);
    if (event->button() != Qt::LeftButton) return;
    const int idx = cellAt(event->position().toPoint());
    if (idx >= 0) emit cellClicked(idx);
}

bool LayoutHeatmapView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int idx = cellAt(help->pos());
        if (idx >= 0) {
            QToolTip::showText(help->globalPos(), cellToolTip(idx), viewport());
            return true;
        }
    }
    return ChartView::viewportEvent(event);
}

QString LayoutHeatmapView::csv() const {
    QString out =
        QStringLiteral("pp,ep,feasible,mfu,tp,cp,dp,micro_batch,checkpointing,memory_GB,reason\n");
    for (const LayoutCell& c : m_cells.cells) {
        const bool plan = c.anyValid;
        QString reason = QString::fromStdString(c.reason);
        if (reason.contains(QLatin1Char(',')))
            reason = QLatin1Char('"') + reason.replace(QLatin1String("\""), QLatin1String("\"\"")) +
                     QLatin1Char('"');
        out +=
            QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11\n")
                .arg(c.pp)
                .arg(c.ep)
                .arg(c.feasible ? 1 : 0)
                .arg(c.feasible ? QString::number(c.eval.mfu, 'g', 10) : QString())
                .arg(plan ? QString::number(c.plan.tp) : QString(),
                     plan ? QString::number(c.plan.cp) : QString(),
                     plan ? QString::number(c.plan.dp) : QString(),
                     plan ? QString::number(c.plan.mbs) : QString(),
                     plan ? QString::fromLatin1(mosaic::checkpointingName(c.plan.ckpt)) : QString(),
                     plan && c.eval.memoryGB > 0 ? QString::number(c.eval.memoryGB, 'g', 6)
                                                 : QString(),
                     reason);
    }
    return out;
}

}  // namespace tandem::ui
