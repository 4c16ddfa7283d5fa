#include "ui/mosaic/mfu_view.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>

#include "ui/widgets/bounds.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

MfuView::MfuView(Axis axis, QWidget* parent)
    : ChartView(axis == Axis::Sparsity ? QStringLiteral("mosaic-mfu-sparsity")
                                       : QStringLiteral("mosaic-mfu-split"),
                axis == Axis::Sparsity ? tr("MFU against sparsity")
                                       : tr("MFU against expert split factor G"),
                parent),
      m_axis(axis) {
    if (axis == Axis::Sparsity) {
        auto* x = new QValueAxis(this);
        x->setTitleText(tr("Sparsity S = 1 - N_act / N_tot"));
        m_x = x;
    } else {
        auto* x = new QLogValueAxis(this);
        x->setBase(2);
        x->setLabelFormat(QStringLiteral("%g"));
        x->setMinorTickCount(0);
        x->setTitleText(tr("Expert split factor G = d_ff / d_expert"));
        m_x = x;
    }
    m_y = new QValueAxis(this);
    m_y->setTitleText(tr("MFU (%)"));
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    m_all = new QScatterSeries(this);
    m_all->setName(tr("feasible candidates"));
    m_all->setMarkerSize(5);
    m_best = new QLineSeries(this);
    m_best->setName(axis == Axis::Sparsity ? tr("best per S bin") : tr("best per G"));
    m_best->setPointsVisible(axis != Axis::Sparsity);  // a step line on the S axis
    m_sel = new QScatterSeries(this);
    m_sel->setName(tr("selected"));
    m_sel->setMarkerSize(13);
    for (QXYSeries* s : {static_cast<QXYSeries*>(m_all), static_cast<QXYSeries*>(m_best),
                         static_cast<QXYSeries*>(m_sel)})
        addSeriesOnAxes(chart(), s, m_x, m_y);
    setToolTip(axis == Axis::Sparsity ? tr("Model FLOPs utilization (Eq. 1) of each feasible "
                                           "geometry's best layout against its sparsity "
                                           "[2608.10605 Sec. 5, Fig. 10]: sparser models move more "
                                           "all-to-all per FLOP and run smaller "
                                           "GEMMs, so MFU falls. Right-click to export.")
                                      : tr("MFU against G [2608.10605 Sec. 3.4]: finer experts "
                                           "(larger G) make smaller grouped GEMMs with "
                                           "lower tile efficiency. Right-click to export."));
    applyTheme();
}

double MfuView::xOf(const mosaic::Candidate& c) const {
    return m_axis == Axis::Sparsity ? c.geometry.sparsity : static_cast<double>(c.geometry.splitG);
}

void MfuView::setData(const mosaic::SearchResult& r, const std::vector<double>& binCentres,
                      int selected) {
    m_result = r;
    m_bins = binCentres;
    m_selected = selected;
    requestRebuild();
}

void MfuView::setSelected(int selected) {
    m_selected = selected;
    requestRebuild();
}

void MfuView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

QList<QPointF> MfuView::bestLine() const { return m_best->points(); }
QList<QPointF> MfuView::selectedPoint() const { return m_sel->points(); }

QList<QPointF> MfuView::bestLineOf(const std::vector<mosaic::Candidate>& cands, QList<QPointF>* all,
                                   Bounds& extent) const {
    std::map<double, double> best;                      // x (bin centre or G) -> best MFU %
    std::map<double, std::pair<double, double>> spans;  // bin centre -> its candidates' x range
    for (const auto& c : cands) {
        const double y = 100 * c.eval.mfu;
        const double x = xOf(c);
        if (all) all->append(QPointF(x, y));
        extent.add(x, y);
        double key = x;
        if (m_axis == Axis::Sparsity &&
            !m_bins.empty()) {  // nearest bin centre = bin with midpoint edges
            key = m_bins.front();
            for (double b : m_bins)
                if (std::abs(b - x) < std::abs(key - x)) key = b;
        }
        auto it = best.find(key);
        if (it == best.end() || y > it->second) best[key] = y;
        auto [span, added] = spans.try_emplace(key, x, x);
        if (!added)
            span->second = {std::min(span->second.first, x), std::max(span->second.second, x)};
    }
    QList<QPointF> line;
    if (m_axis == Axis::Sparsity && !m_bins.empty()) {
        // A step across each bin (edges midway between centres) at the bin's best MFU: every
        // candidate lies in its bin's span, so the line is never below a plotted candidate.
        std::vector<double> centres(m_bins.begin(), m_bins.end());
        std::sort(centres.begin(), centres.end());
        const auto edge = [&centres](size_t i, bool upper) {
            if (centres.size() == 1) return centres[0] + (upper ? 0.005 : -0.005);
            if (upper)
                return i + 1 < centres.size() ? 0.5 * (centres[i] + centres[i + 1])
                                              : centres[i] + 0.5 * (centres[i] - centres[i - 1]);
            return i > 0 ? 0.5 * (centres[i - 1] + centres[i])
                         : centres[i] - 0.5 * (centres[i + 1] - centres[i]);
        };
        for (size_t i = 0; i < centres.size(); ++i) {
            const auto it = best.find(centres[i]);
            if (it == best.end()) continue;
            // The outer bins reach as far as their candidates (nearest centre beyond the grid).
            const auto [lo, hi] = spans.at(centres[i]);
            line.append(QPointF(std::max(0.0, std::min(edge(i, false), lo)), it->second));
            line.append(QPointF(std::min(1.0, std::max(edge(i, true), hi)), it->second));
        }
    } else {
        for (const auto& [x, y] : best) line.append(QPointF(x, y));
    }
    return line;
}

void MfuView::rebuild() {
    if (!m_result) return;
    const bool dark = currentTheme() == Theme::Dark;
    const auto& cands = m_result->candidates;
    QList<QPointF> all;
    all.reserve(static_cast<qsizetype>(cands.size()));
    Bounds extent;
    const QList<QPointF> line = bestLineOf(cands, &all, extent);
    double xLo = extent.xLo, xHi = extent.xHi;
    const double yHi = std::max(1.0, extent.yHi);  // at least 1 % MFU
    QColor dot = dark ? QColor(0xAA, 0xAA, 0xAA) : QColor(0x99, 0x99, 0x99);
    dot.setAlphaF(0.45);
    setScatterColors(m_all, dot, Qt::transparent);
    const QColor lc = frontierColor(true);
    m_best->setPen(QPen(lc, 2.2));
    m_best->setColor(lc);
    setScatterColors(m_sel, Qt::transparent, dark ? Qt::white : Qt::black);
    m_sel->setPen(QPen(dark ? Qt::white : Qt::black, 2));
    m_all->replace(all);
    m_best->replace(line);
    QList<QPointF> sel;
    if (m_selected >= 0 && static_cast<size_t>(m_selected) < cands.size()) {
        const auto& c = cands[static_cast<size_t>(m_selected)];
        sel.append(QPointF(xOf(c), 100 * c.eval.mfu));
    }
    m_sel->replace(sel);
    if (cands.empty()) {
        xLo = m_axis == Axis::Sparsity ? 0.7 : 1;
        xHi = m_axis == Axis::Sparsity ? 1.0 : 8;
    }
    if (m_axis == Axis::Sparsity) {
        setNiceRange(static_cast<QValueAxis*>(m_x), xLo - 0.01, std::min(1.0, xHi + 0.01),
                     6);  // S < 1
    } else {
        static_cast<QLogValueAxis*>(m_x)->setRange(std::max(0.5, xLo / 1.5), xHi * 1.5);
    }
    setNiceRange(m_y, 0, yHi * 1.1, 5);
    ChartView::applyTheme();
}

}  // namespace tandem::ui
