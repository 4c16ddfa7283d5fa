#include "mlforml/loss_curve_view.h"

#include <QChart>
#include <QFontMetrics>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "widgets/bounds.h"
#include "widgets/coincident_curves.h"
#include "widgets/decimate.h"
#include "widgets/palette.h"
#include "widgets/series_pool.h"
#include "widgets/smoothing.h"
#include "widgets/units.h"

namespace tandem::ui {

LossCurveView::LossCurveView(QWidget* parent)
    : ChartView(QStringLiteral("mlforml-loss"), tr("Evaluation loss per policy"), parent) {
    m_xLinear = new QValueAxis(this);
    m_xLog = new QLogValueAxis(this);
    m_xLog->setBase(10);
    m_xLog->setLabelFormat(QStringLiteral("%g"));
    m_xLog->setMinorTickCount(-1);
    m_y = new QValueAxis(this);
    m_y->setTitleText(tr("Evaluation loss (nats)"));
    m_y->setLabelFormat(QStringLiteral("%.3f"));
    m_xLinear->setLabelFormat(QStringLiteral("%.3g"));
    chart()->addAxis(m_xLinear, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    applyTheme();
}

QStringList LossCurveView::policies() const {
    QStringList out;
    if (m_point)
        for (const auto& run : m_point->policies) out << QString::fromStdString(run.policy);
    return out;
}

void LossCurveView::setData(const mlforml::PointResult& point,
                            const std::vector<double>& targetFactors,
                            const std::vector<double>& targetLosses) {
    m_point = point;
    m_targetFactors = targetFactors;
    m_targetLosses = targetLosses;
    requestRebuild();
}

void LossCurveView::setPinned(const std::optional<mlforml::PointResult>& pinned) {
    m_pinned = pinned;
    requestRebuild();
}

void LossCurveView::setOptions(const LossViewOptions& options) {
    m_options = options;
    requestRebuild();
}

QFont LossCurveView::targetLabelFont() const {
    QFont f = font();
    f.setPointSizeF(8 * chartFontScale());  // the labels' font (rebuild)
    return f;
}

double LossCurveView::widestTargetLabel() const {
    const QFontMetricsF fm(targetLabelFont());
    double widest = 0;
    for (double factor : m_targetFactors)
        widest =
            std::max(widest, fm.horizontalAdvance(tr("%1 x L_min").arg(QString::number(factor))));
    return widest;
}

double LossCurveView::targetLabelShare() const {
    const double plotWidth = chart()->plotArea().width();
    if (plotWidth <= 0) return 0.13;
    return std::clamp((std::ceil(widestTargetLabel()) / 2.0 + 4.0) / plotWidth, 0.13, 0.5);
}

std::vector<double> LossCurveView::targetLabelShares(double first) const {
    const size_t n = m_targetLosses.size();
    std::vector<double> out(n, first);
    const QRectF plot = chart()->plotArea();
    const double span = m_y->max() - m_y->min();
    if (n < 2 || plot.width() <= 0 || plot.height() <= 0 || !(span > 0)) return out;
    const QFontMetricsF fm(targetLabelFont());
    const double widest = widestTargetLabel();
    const double lineHeight = fm.height() + 1;
    const double columnStep = (widest + 12) / plot.width();
    // Greedy columns: a label goes to the first column whose last label is a line away.
    std::vector<double> columnLastY;
    for (size_t i = 0; i < n; ++i) {
        const double py = plot.height() * (m_y->max() - m_targetLosses[i]) / span;
        size_t c = 0;
        while (c < columnLastY.size() && std::abs(py - columnLastY[c]) < lineHeight) ++c;
        if (c == columnLastY.size()) columnLastY.push_back(py);
        columnLastY[c] = py;
        out[i] = std::min(first + static_cast<double>(c) * columnStep, 0.95);
    }
    return out;
}

void LossCurveView::resizeEvent(QResizeEvent* event) {
    ChartView::resizeEvent(event);
    const double share = targetLabelShare();
    if (std::abs(share - m_labelShare) > 0.005 || targetLabelShares(share) != m_labelShares)
        requestRebuild();
}

QStringList LossCurveView::targetLabels() const {
    QStringList out;
    for (const QLineSeries* s : m_targetLines)
        if (s->isVisible() && s->pointLabelsVisible()) out << s->pointLabelsFormat();
    return out;
}

void LossCurveView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

QLineSeries* LossCurveView::lineFor(const QString& key, const QString& policy, bool pinned) {
    auto it = m_lines.find(key);
    if (it != m_lines.end()) return *it;
    auto* s = new QLineSeries(this);
    s->setName(pinned ? tr("%1 (pinned)").arg(policy) : policy);
    addSeriesOnAxes(chart(), s, m_options.logX ? static_cast<QAbstractAxis*>(m_xLog) : m_xLinear,
                    m_y);
    m_lines.insert(key, s);
    return s;
}

QList<QPointF> LossCurveView::curve(const mlforml::PolicyRun& run, double xDiv) const {
    const std::vector<double>& xs = m_options.updatesAxis ? run.updates : run.time_s;
    const size_t n = std::min(xs.size(), run.loss.size());
    QList<QPointF> pts;
    pts.reserve(static_cast<qsizetype>(n));
    for (size_t i = 0; i < n; ++i) {
        const double x = xs[i] / xDiv;
        if (m_options.logX && !(x > 0)) continue;
        if (std::isfinite(x) && std::isfinite(run.loss[i])) pts.append(QPointF(x, run.loss[i]));
    }
    if (m_options.smoothing > 0 && pts.size() > 2)
        pts = smoothTimeWeighted(pts,
                                 m_options.smoothing * (pts.back().x() - pts.front().x()) / 10.0);
    return pts;
}

void LossCurveView::rebuild() {
    if (!m_point) return;
    const Theme theme = currentTheme();
    // Wall-clock unit from the longest visible run; the first crossing of the hardest target
    // bounds the x range so the policies' differences stay visible.
    double tMax = 0, fcMax = 0, uMax = 0;
    for (const auto* src : {&m_point, &m_pinned}) {
        if (!*src) continue;
        for (const auto& run : (*src)->policies) {
            if (m_options.hiddenPolicies.contains(QString::fromStdString(run.policy))) continue;
            if (!run.time_s.empty()) tMax = std::max(tMax, run.time_s.back());
            if (!run.updates.empty()) uMax = std::max(uMax, run.updates.back());
            for (double fc : run.firstCrossing_s)
                if (std::isfinite(fc)) fcMax = std::max(fcMax, fc);
        }
    }
    const TimeUnit unit = chooseTimeUnit(fcMax > 0 ? fcMax : tMax);
    const double xDiv = m_options.updatesAxis ? 1.0 : unit.divisor;
    QAbstractAxis* xAxis = m_options.logX ? static_cast<QAbstractAxis*>(m_xLog) : m_xLinear;
    QAbstractAxis* other = m_options.logX ? static_cast<QAbstractAxis*>(m_xLinear) : m_xLog;
    if (chart()->axes(Qt::Horizontal).contains(other)) {
        const auto all = chart()->series();
        for (QAbstractSeries* s : all) s->detachAxis(other);
        chart()->removeAxis(other);
    }
    if (!chart()->axes(Qt::Horizontal).contains(xAxis)) {
        chart()->addAxis(xAxis, Qt::AlignBottom);
        const auto all = chart()->series();
        for (QAbstractSeries* s : all) s->attachAxis(xAxis);
    }
    xAxis->setTitleText(m_options.updatesAxis ? tr("Optimizer updates")
                                              : tr("Wall-clock time (%1)").arg(unit.name));

    // Collect new point lists first, then one replace() per series.
    QSet<QString> used;
    // The y axis reaches down to the lowest target and the lowest point drawn.
    Bounds yRange;
    if (!m_targetLosses.empty()) yRange.addY(m_targetLosses.front());
    // One min/max pair per two pixels: the curves are smooth at that scale, and QtCharts strokes
    // every drawn point of a line on each redraw.
    const int buckets = plotWidth() / 2;
    // The current runs' curves, and which of them lie on an earlier one (drawn dashed on top).
    QList<QList<QPointF>> current;
    QList<bool> hidden;
    double xSpan = 0;
    for (const auto& run : m_point->policies) {
        current.append(curve(run, xDiv));
        hidden.append(m_options.hiddenPolicies.contains(QString::fromStdString(run.policy)));
        if (!hidden.back() && !current.back().isEmpty()) {
            xSpan = std::max(xSpan, current.back().back().x());
            for (const QPointF& p : current.back()) yRange.addY(p.y());
        }
    }
    const double yMin = yRange.validY() ? yRange.yLo : 0.0;
    // Tolerance: 0.2 % of the axis spans (about a pixel of a 500-pixel plot).
    const double ySpan =
        (m_targetLosses.empty() ? yMin * 1.1 : m_targetLosses.back() * 1.04) - yMin;
    m_sameAs = coincidentWith(current, 2e-3 * xSpan, 2e-3 * std::max(ySpan, 1e-9), hidden);
    for (int pass = 0; pass < 2; ++pass) {
        const auto& src = pass == 0 ? m_point : m_pinned;
        if (!src) continue;
        for (size_t idx = 0; idx < src->policies.size(); ++idx) {
            const auto& run = src->policies[idx];
            const QString policy = QString::fromStdString(run.policy);
            const QString key = (pass ? QStringLiteral("pin:") : QStringLiteral("cur:")) + policy;
            QLineSeries* s = lineFor(key, policy, pass == 1);
            QList<QPointF> pts = decimateMinMax(
                pass ? curve(run, xDiv) : current[static_cast<qsizetype>(idx)], buckets);
            for (const QPointF& p : pts) yRange.addY(p.y());
            QColor c = policyColor(policy, theme);
            QPen pen(c, pass ? 1.5 : 2.2);
            const CoincidentMember member =
                pass ? CoincidentMember{} : coincidentMember(m_sameAs, static_cast<qsizetype>(idx));
            if (pass) {
                pen.setStyle(Qt::DashLine);
                c.setAlphaF(0.6);
                pen.setColor(c);
            } else {
                dashCoincidentPen(pen, member.index, member.groupSize);
            }
            s->setPen(pen);
            s->replace(pts);
            s->setVisible(!m_options.hiddenPolicies.contains(policy));
            used.insert(key);
            if (pass == 0) {
                // First-crossing marker of the selected target.
                QScatterSeries* m = m_markers.value(policy);
                if (!m) {
                    m = new QScatterSeries(this);
                    m->setName(tr("%1 first crossing").arg(policy));
                    m->setMarkerSize(9);
                    addSeriesOnAxes(chart(), m, xAxis, m_y);
                    m_markers.insert(policy, m);
                }
                // A coincident curve's dot sits inside the earlier one's, bordered in its colour,
                // so the earlier dot shows as a ring around it.
                m->setMarkerSize(member.index > 0 ? std::max(3.0, 9.0 - 3.0 * member.index) : 9.0);
                m->setColor(policyColor(policy, theme));
                m->setBorderColor(
                    member.index > 0
                        ? policyColor(QString::fromStdString(
                                          src->policies[static_cast<size_t>(member.leader)].policy),
                                      theme)
                        : (theme == Theme::Dark ? QColor(Qt::black) : QColor(Qt::white)));
                QList<QPointF> mk;
                const int ti = m_options.targetIndex;
                if (ti >= 0 && static_cast<size_t>(ti) < run.firstCrossing_s.size() &&
                    static_cast<size_t>(ti) < m_targetLosses.size() &&
                    std::isfinite(run.firstCrossing_s[ti])) {
                    double x = m_options.updatesAxis ? NAN : run.firstCrossing_s[ti] / xDiv;
                    if (m_options.updatesAxis) {  // updates at the crossing time
                        for (size_t i = 0; i < run.time_s.size() && i < run.updates.size(); ++i)
                            if (run.time_s[i] >= run.firstCrossing_s[ti]) {
                                x = run.updates[i];
                                break;
                            }
                    }
                    if (std::isfinite(x) && (!m_options.logX || x > 0))
                        mk.append(QPointF(x, m_targetLosses[ti]));
                }
                m->replace(mk);
                m->setVisible(!m_options.hiddenPolicies.contains(policy));
            }
        }
    }
    for (auto it = m_lines.begin(); it != m_lines.end(); ++it)
        if (!used.contains(it.key())) it.value()->setVisible(false);

    // Axis ranges.
    // The visible curves' x extent (each curve's x rises, so its ends bound it).
    double xLo = 0, xHi = 1;
    Bounds drawn;
    for (auto it = m_lines.begin(); it != m_lines.end(); ++it) {
        if (!it.value()->isVisible() || it.value()->count() == 0) continue;
        drawn.addX(it.value()->at(0).x());
        drawn.addX(it.value()->at(it.value()->count() - 1).x());
    }
    if (drawn.xHi > 0) {
        xHi = drawn.xHi;
        if (!m_options.updatesAxis && fcMax > 0) xHi = std::min(drawn.xHi, 1.15 * fcMax / xDiv);
        xLo = m_options.logX ? std::max(drawn.xLo, xHi * 1e-3) : 0.0;
    }
    if (m_options.logX) {
        m_xLog->setRange(xLo, xHi);
    } else {
        setNiceRange(m_xLinear, xLo, xHi, 6);
        xHi = m_xLinear->max();
    }
    const double yLo = yRange.validY() ? yRange.yLo : 0.0;
    const double yHi = m_targetLosses.empty() ? yLo * 1.1 : m_targetLosses.back() * 1.04;
    setNiceRange(m_y, yLo - 0.002, yHi, 6);

    // Target lines (dashed grey, one per factor).
    m_labelShare = targetLabelShare();
    const qsizetype nTargets = static_cast<qsizetype>(m_targetLosses.size());
    m_labelShares = targetLabelShares(m_labelShare);
    const std::vector<double>& labelShares = m_labelShares;
    growSeriesPool(m_targetLines, nTargets, chart(), xAxis, m_y);
    for (qsizetype i = 0; i < nTargets; ++i) {
        QLineSeries* s = m_targetLines[i];
        s->setVisible(true);
        s->setName(tr("Target %1 x L_min")
                       .arg(m_targetFactors.size() > static_cast<size_t>(i)
                                ? QString::number(m_targetFactors[i])
                                : QString()));
        QPen pen(theme == Theme::Dark ? QColor(0xAA, 0xAA, 0xAA) : QColor(0x77, 0x77, 0x77), 1,
                 Qt::DotLine);
        if (i == m_options.targetIndex) pen.setStyle(Qt::DashLine);
        s->setPen(pen);
        // Labelled near the left end, where the curves are still far above the targets: a middle
        // point carries the label ("1.02 x L_min"), the ends none.
        const double y = m_targetLosses[i];
        const double share = labelShares[static_cast<size_t>(i)];
        const double xLabel = m_options.logX && xLo > 0 ? xLo * std::pow(xHi / xLo, share)
                                                        : xLo + share * (xHi - xLo);
        s->replace({QPointF(xLo, y), QPointF(xLabel, y), QPointF(xHi, y)});
        const QString factor = m_targetFactors.size() > static_cast<size_t>(i)
                                   ? QString::number(m_targetFactors[i])
                                   : QString();
        s->setPointLabelsFormat(tr("%1 x L_min").arg(factor));
        s->setPointLabelsVisible(true);
        s->setPointLabelsClipping(true);
        s->setPointLabelsColor(pen.color().darker(theme == Theme::Dark ? 70 : 130));
        QFont lf = s->pointLabelsFont();
        lf.setPointSizeF(8 * chartFontScale());
        s->setPointLabelsFont(lf);
        for (int k : {0, 2})
            s->setPointConfiguration(k, QXYSeries::PointConfiguration::LabelVisibility, false);
    }
    // Legend: one line per policy, then the selected target (the dots on it are the first
    // crossings).
    const QLineSeries* selectedTarget =
        m_options.targetIndex >= 0 && m_options.targetIndex < m_targetLines.size()
            ? m_targetLines[m_options.targetIndex]
            : nullptr;
    // Coincident policies share one entry, "Knob-Precision = Joint" (series names stay the
    // policies').
    const QStringList names = policies();
    const auto markers = chart()->legend()->markers();
    for (QLegendMarker* mk : markers) {
        QAbstractSeries* s = mk->series();
        const QString key = m_lines.key(qobject_cast<QLineSeries*>(s));
        bool policyLine = key.startsWith(QLatin1String("cur:"));
        if (policyLine) {
            const QString label = coincidentLegendLabel(m_sameAs, names, names.indexOf(key.mid(4)));
            policyLine = !label.isEmpty();
            if (policyLine) mk->setLabel(label);
        }
        const bool pinnedLine = key.startsWith(QLatin1String("pin:"));
        const bool target = selectedTarget && s == selectedTarget;
        mk->setVisible((policyLine || (pinnedLine && m_pinned) || target) && s->isVisible());
        if (target) mk->setLabel(tr("Target"));  // its value is on the y axis and in the side panel
    }
}

}  // namespace tandem::ui
