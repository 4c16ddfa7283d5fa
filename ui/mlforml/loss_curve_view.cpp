#include "ui/mlforml/loss_curve_view.h"

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

#include "ui/widgets/coincident_curves.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/units.h"

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

QLineSeries* LossCurveView::lineFor(const QString& policy) {
    auto it = m_lines.find(policy);
    if (it != m_lines.end()) return *it;
    auto* s = new QLineSeries(this);
    s->setName(policy);
    addSeriesOnAxes(chart(), s, m_options.logX ? static_cast<QAbstractAxis*>(m_xLog) : m_xLinear,
                    m_y);
    m_lines.insert(policy, s);
    return s;
}

void LossCurveView::rebuild() {
    if (!m_point) return;
    const Theme theme = currentTheme();
    // One min/max pair per two pixels: the curves are smooth at that scale, and QtCharts strokes
    // every drawn point of a line on each redraw.
    // The wall-clock unit holds while a comparison is pinned, the axes are locked or a slider is
    // dragged (the pinned curves keep their x in it).
    const TimeUnit unit = stableTimeUnit(lossPlotUnitSeconds(*m_point, m_options));
    const LossPlot plot = lossPlot(*m_point, m_targetLosses, m_options, unit, plotWidth() / 2);
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
                                              : tr("Wall-clock time (%1)").arg(plot.xUnitName));

    m_sameAs = plot.sameAs;
    QSet<QString> used;
    for (const LossPlotCurve& c : plot.curves) {
        QLineSeries* s = lineFor(c.policy);
        QPen pen(policyColor(c.policy, theme), 2.2);
        dashCoincidentPen(pen, c.memberIndex, c.groupSize);
        s->setPen(pen);
        s->replace(c.points);
        s->setVisible(!c.hidden);
        used.insert(c.policy);
        // First-crossing marker of the selected target.
        QScatterSeries* m = m_markers.value(c.policy);
        if (!m) {
            m = new QScatterSeries(this);
            m->setName(tr("%1 first crossing").arg(c.policy));
            m->setMarkerSize(9);
            addSeriesOnAxes(chart(), m, xAxis, m_y);
            m_markers.insert(c.policy, m);
        }
        // A coincident curve's dot sits inside the earlier one's, bordered in its colour, so the
        // earlier dot shows as a ring around it.
        m->setMarkerSize(c.memberIndex > 0 ? std::max(3.0, 9.0 - 3.0 * c.memberIndex) : 9.0);
        m->setColor(policyColor(c.policy, theme));
        m->setBorderColor(
            c.memberIndex > 0
                ? policyColor(plot.curves[static_cast<size_t>(c.leader)].policy, theme)
                : (theme == Theme::Dark ? QColor(Qt::black) : QColor(Qt::white)));
        m->replace(c.firstCrossing ? QList<QPointF>{*c.firstCrossing} : QList<QPointF>{});
        m->setVisible(!c.hidden);
    }
    for (auto it = m_lines.begin(); it != m_lines.end(); ++it)
        if (!used.contains(it.key())) it.value()->setVisible(false);

    // Axis ranges.
    const double xLo = plot.xLo;
    double xHi = plot.xHi;
    if (m_options.logX) {
        m_xLog->setRange(xLo, xHi);
    } else {
        setNiceRange(m_xLinear, xLo, xHi, 6);
        xHi = m_xLinear->max();
    }
    setNiceRange(m_y, plot.yLo, plot.yHi, 6);

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
        bool policyLine = !key.isEmpty();
        if (policyLine) {
            const QString label = coincidentLegendLabel(m_sameAs, names, names.indexOf(key));
            policyLine = !label.isEmpty();
            if (policyLine) mk->setLabel(label);
        }
        const bool target = selectedTarget && s == selectedTarget;
        mk->setVisible((policyLine || target) && s->isVisible());
        if (target) mk->setLabel(tr("Target"));  // its value is on the y axis and in the side panel
    }
}

}  // namespace tandem::ui
