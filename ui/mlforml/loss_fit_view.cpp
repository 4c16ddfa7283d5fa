#include "ui/mlforml/loss_fit_view.h"

#include <QChart>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "ui/widgets/bounds.h"
#include "ui/widgets/count_label.h"
#include "ui/widgets/decimate.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

QString formatWithError(double value, double error) {
    if (!std::isfinite(error) || error <= 0) return QString::number(value, 'g', 4);
    // Two significant digits of the error decide the decimals.
    const int decimals = std::clamp(1 - int(std::floor(std::log10(error))), 0, 8);
    if (std::abs(value) >= 1e5 || std::abs(error) >= 1e5)
        return QStringLiteral("%1 \u00b1 %2").arg(value, 0, 'g', 4).arg(error, 0, 'g', 2);
    return QStringLiteral("%1 \u00b1 %2").arg(value, 0, 'f', decimals).arg(error, 0, 'f', decimals);
}

LossFitView::LossFitView(QWidget* parent)
    : ChartView(QStringLiteral("loss-log-fit"), tr("Logged loss and fitted progress curve"),
                parent) {
    m_x = new QValueAxis(this);
    m_x->setTitleText(tr("Optimizer step"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    m_y = new QValueAxis(this);
    m_y->setTitleText(tr("Loss (as logged, nats)"));
    m_y->setLabelFormat(QStringLiteral("%.2f"));
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    m_points = new QScatterSeries(this);
    m_points->setMarkerSize(6);
    addSeriesOnAxes(chart(), m_points, m_x, m_y);
    m_fit = addSeriesOnAxes(chart(), new QLineSeries(this), m_x, m_y);
    applyTheme();
}

void LossFitView::setData(const io::LossLog& log, const io::LossFit& fit, const QString& label) {
    m_log = log;
    m_fitParams = fit;
    m_label = label;
    requestRebuild();
}

void LossFitView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

void LossFitView::rebuild() {
    if (!m_log) return;
    const io::LossSeries* fitted = m_log->preferred();
    if (!fitted) return;
    const bool dark = currentTheme() == Theme::Dark;
    // The fit's own series as points; the plot shows the fitted range in y (other series that
    // start far above, like a train loss from step 0, are cut at the top) and every series' steps.
    Bounds fittedBounds;
    QList<QPointF> pts;
    for (size_t i = 0; i < fitted->step.size(); ++i) {
        pts.append(QPointF(fitted->step[i], fitted->loss[i]));
        fittedBounds.add(pts.back());
    }
    Bounds allSteps = fittedBounds;
    const QColor pointColor = okabeIto(OkabeIto::Blue), fitColor = okabeIto(OkabeIto::Vermillion);
    m_points->setName(loggedSeriesName(fitted->name));
    m_points->setColor(pointColor);
    m_points->setBorderColor(pointColor.darker(130));
    m_points->replace(decimateMinMax(pts, std::max(100, plotWidth() / 2)));

    growSeriesPool(m_others, static_cast<qsizetype>(m_log->series.size()) - 1, chart(), m_x, m_y);
    qsizetype other = 0;
    for (const io::LossSeries& s : m_log->series) {
        if (&s == fitted) continue;
        QLineSeries* l = m_others[other++];
        QList<QPointF> o;
        for (size_t i = 0; i < s.step.size(); ++i) {
            o.append(QPointF(s.step[i], s.loss[i]));
            allSteps.addX(s.step[i]);
        }
        QColor c = dark ? QColor(0xB0, 0xB0, 0xB0) : QColor(0x80, 0x80, 0x80);
        c.setAlphaF(0.6);
        l->setName(loggedSeriesName(s.name));
        l->setPen(QPen(c, 1.0));
        l->replace(decimateMinMax(o, std::max(100, plotWidth())));
        l->setVisible(true);
    }
    const double xHi = std::max(0.0, allSteps.xHi);
    double yLo = fittedBounds.yLo, yHi = fittedBounds.yHi;

    // Over the smallest to the largest logged step: a log whose steps decrease (or restart)
    // has its first step at the right end, which drew a curve of zero width before.
    QList<QPointF> curve;
    const double x0 = fittedBounds.validX() ? fittedBounds.xLo : 0;
    for (int k = 0; k <= 200 && xHi > x0; ++k) {
        const double s = x0 + (xHi - x0) * k / 200.0;
        const double l = io::predictLoss(m_fitParams, s);
        if (std::isfinite(l)) curve.append(QPointF(s, l));
    }
    m_fit->setName(tr("fit: L(s) = L_inf + A (s + S0)^-alpha"));
    m_fit->setPen(QPen(fitColor, 2.4));
    m_fit->replace(curve);
    // A fit that cannot be drawn gets a note instead of a legend entry.
    const bool drawable = curve.size() >= 2;
    m_note = drawable ? QString()
                      : tr("The fit cannot be drawn (%1); see the parameters below.")
                            .arg(xHi > x0 ? tr("its loss is not finite over the logged steps")
                                          : tr("the logged steps span no range"));
    m_fit->setVisible(drawable);
    const QList<QLegendMarker*> markers = chart()->legend()->markers(m_fit);
    for (QLegendMarker* m : markers) m->setVisible(drawable);
    // y: the fitted series' range plus a margin; the fit's start may sit above it.
    if (!curve.isEmpty()) yHi = std::max(yHi, std::min(curve.front().y(), yHi + 0.5 * (yHi - yLo)));
    const double pad = 0.05 * std::max(1e-6, yHi - yLo);
    setNiceRange(m_x, 0, std::max(1.0, xHi), 6);
    setNiceRange(m_y, yLo - pad, yHi + pad, 6);
    QString title =
        m_label.isEmpty()
            ? tr("Logged loss and fitted progress curve")
            : tr("Logged loss and fitted progress curve: %1").arg(m_label.toHtmlEscaped());
    // Chart titles are rich text (the file name is escaped); exports convert it to plain text.
    if (!m_note.isEmpty())
        title += QStringLiteral("<br><small>%1</small>").arg(m_note.toHtmlEscaped());
    chart()->setTitle(title);
}

QString loggedSeriesName(const std::string& column) {
    const QString name = QString::fromStdString(column);
    if (name.isEmpty()) return QCoreApplication::translate("LossFitView", "logged loss");
    // "loss", "train_loss", "val loss": the column already says loss.
    if (name.contains(QLatin1String("loss"), Qt::CaseInsensitive))
        return QCoreApplication::translate("LossFitView", "logged %1").arg(name);
    return QCoreApplication::translate("LossFitView", "logged %1 loss").arg(name);
}

QString LossFitView::csv() const {
    QString out = QStringLiteral("series,step,loss,fitted_loss\n");
    if (!m_log) return out;
    for (const io::LossSeries& s : m_log->series)
        for (size_t i = 0; i < s.step.size(); ++i)
            out += QStringLiteral("%1,%2,%3,%4\n")
                       .arg(QString::fromStdString(s.name), QString::number(s.step[i], 'g', 12),
                            QString::number(s.loss[i], 'g', 10),
                            QString::number(io::predictLoss(m_fitParams, s.step[i]), 'g', 10));
    return out;
}

LossFitPanel::LossFitPanel(QWidget* parent)
    : QWidget(parent),
      m_view(new LossFitView(this)),
      m_summary(new QLabel(this)),
      m_use(new QPushButton(tr("Use fit as progress curve"), this)) {
    setObjectName(QStringLiteral("lossFitPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    auto* row = new QHBoxLayout;
    m_summary->setObjectName(QStringLiteral("lossFitSummary"));
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(m_summary, 1);
    m_use->setObjectName(QStringLiteral("useLossFit"));
    m_use->setToolTip(
        tr("Replace the scenario's loss curve (progress.loss_floor, loss_exponent, loss_offset, "
           "l_min) "
           "by this fit, in optimizer steps of the baseline combination [MODEL.md A4]."));
    row->addWidget(m_use, 0, Qt::AlignTop);
    layout->addLayout(row);
    connect(m_use, &QPushButton::clicked, this, [this]() { emit useFitRequested(m_fit); });
}

void LossFitPanel::setData(const io::LossLog& log, const io::LossFit& fit, const QString& label) {
    m_fit = fit;
    m_view->setData(log, fit, label);
    // Only a sound fit (io::LossFit::usable: converged, no warnings) that can be drawn may
    // become the progress curve; otherwise the button says why.
    QStringList why;
    if (!m_view->fitNote().isEmpty()) why << m_view->fitNote();
    for (const std::string& w : fit.warnings) why << QString::fromStdString(w);
    if (!fit.usable && fit.warnings.empty() && m_view->fitNote().isEmpty())
        why << tr("The fit did not converge.");
    m_fitProblem = why.join(QLatin1Char(' '));
    m_use->setEnabled(m_scenarioUsable && fitUsable());
    if (!fitUsable()) m_use->setToolTip(m_fitProblem);
    const io::LossSeries* s = log.preferred();
    m_summary->setText(
        tr("<b>%1</b> (%2 log, %3 series, %4 of \"%5\" fitted%6)<br>"
           "L(S) = L_inf + A (S + S0)<sup>-alpha</sup>: L_inf = %7, A = %8, alpha = %9, S0 = %10 "
           "steps; "
           "RMSE %11")
            .arg(label.toHtmlEscaped(), QString::fromUtf8(io::name(log.format)))
            .arg(log.series.size())
            .arg(countLabel(static_cast<qint64>(fit.points), tr("point"), tr("points")))
            .arg(s ? QString::fromStdString(s->name).toHtmlEscaped() : QString())
            .arg(fit.converged ? QString() : tr("; the optimizer stopped at its evaluation cap"))
            .arg(formatWithError(fit.lInf, fit.seLInf), formatWithError(fit.a, fit.seA),
                 formatWithError(fit.alpha, fit.seAlpha), formatWithError(fit.s0, fit.seS0))
            .arg(fit.rmse, 0, 'g', 3) +
        (fitUsable()
             ? QString()
             : QStringLiteral("<br><b>%1</b> %2")
                   .arg(tr("Not usable as a progress curve:"), m_fitProblem.toHtmlEscaped())));
}

void LossFitPanel::setUsable(bool usable, const QString& why) {
    m_scenarioUsable = usable;
    m_use->setEnabled(usable && fitUsable());
    if (!fitUsable())
        m_use->setToolTip(m_fitProblem);
    else if (!usable && !why.isEmpty())
        m_use->setToolTip(why);
}

}  // namespace tandem::ui
