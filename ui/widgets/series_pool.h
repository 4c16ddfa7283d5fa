#pragma once
// Pools of chart series that grow on demand: a view keeps its series between rebuilds, adds the
// ones it lacks and hides the ones it does not need, so the legend keeps its order and no series
// is removed and re-added.
#include <QAbstractAxis>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QList>
#include <QScatterSeries>

namespace tandem::ui {

/// Puts `to` on `chart` at `alignment` in place of `from` (e.g. a logarithmic y axis in place of
/// a linear one): every series of the chart is detached from `from` and attached to `to`, and
/// `from` leaves the chart (kept by its owner, hidden), `to` is shown. No-op when `to` is on the
/// chart already.
inline void swapAxis(QChart* chart, QAbstractAxis* from, QAbstractAxis* to,
                     Qt::Alignment alignment) {
    if (chart->axes().contains(to)) return;
    const auto all = chart->series();
    if (chart->axes().contains(from)) {
        for (QAbstractSeries* s : all) s->detachAxis(from);
        from->setVisible(false);  // Qt Charts deletes the removed axis' items later
        chart->removeAxis(from);
    }
    to->setVisible(true);
    chart->addAxis(to, alignment);
    for (QAbstractSeries* s : all) s->attachAxis(to);
}

/// Adds `series` to `chart` (which takes ownership of it) and attaches it to `x` and `y` (axes
/// already on `chart`); returns `series`.
template <class S>
S* addSeriesOnAxes(QChart* chart, S* series, QAbstractAxis* x, QAbstractAxis* y) {
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    return series;
}

/// Sets a scatter series' fill and border colour, each only when it differs: QtCharts restyles
/// every marker of the series on each call (hundreds for the candidate clouds).
inline void setScatterColors(QScatterSeries* s, const QColor& fill, const QColor& border) {
    if (s->color() != fill) s->setColor(fill);
    if (s->borderColor() != border) s->setBorderColor(border);
}

/// Grows `pool` to at least `n` series, appending `make()` (a new series already on `chart`) until
/// it has them, and hides the series at index `n` and above together with their legend markers
/// (showing a series again shows its markers). Series below `n` are left as they are: the caller
/// fills, names and shows them.
template <class S, class Make>
void growSeriesPoolWith(QList<S*>& pool, qsizetype n, QChart* chart, Make make) {
    while (pool.size() < n) pool.append(make());
    for (qsizetype i = n; i < pool.size(); ++i) {
        pool[i]->setVisible(false);
        const QList<QLegendMarker*> markers = chart->legend()->markers(pool[i]);
        for (QLegendMarker* m : markers) m->setVisible(false);
    }
}

/// growSeriesPoolWith for XY series (QLineSeries, QScatterSeries): each new series is a new S,
/// passed to `init` (styling set once, e.g. a marker shape) before addSeriesOnAxes(`chart`, it,
/// `x`, `y`).
template <class S, class Init>
void growSeriesPool(QList<S*>& pool, qsizetype n, QChart* chart, QAbstractAxis* x, QAbstractAxis* y,
                    Init init) {
    growSeriesPoolWith(pool, n, chart, [&]() {
        auto* s = new S(chart);
        init(s);
        return addSeriesOnAxes(chart, s, x, y);
    });
}

/// growSeriesPool with new series left as constructed.
template <class S>
void growSeriesPool(QList<S*>& pool, qsizetype n, QChart* chart, QAbstractAxis* x,
                    QAbstractAxis* y) {
    growSeriesPool(pool, n, chart, x, y, [](S*) {});
}

}  // namespace tandem::ui
