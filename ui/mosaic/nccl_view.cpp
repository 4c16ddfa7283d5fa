#include "ui/mosaic/nccl_view.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "mosaic/collectives.h"
#include "ui/widgets/bounds.h"
#include "ui/widgets/count_label.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/series_pool.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

namespace {
QString pretty(io::Collective collective) {
    QString s = QString::fromUtf8(io::name(collective));
    s.replace(QLatin1Char('_'), QLatin1Char('-'));
    return s;
}
const QColor kCurveColors[] = {okabeIto(OkabeIto::Blue), okabeIto(OkabeIto::Vermillion),
                               okabeIto(OkabeIto::Green), okabeIto(OkabeIto::Purple)};
}  // namespace

NcclView::NcclView(QWidget* parent)
    : ChartView(QStringLiteral("nccl-measured-vs-analytical"),
                tr("Measured vs analytical bus bandwidth"), parent) {
    m_x = new QLogValueAxis(this);
    m_x->setBase(10);
    m_x->setTitleText(
        tr("Message size (bytes, %1 size, log scale)").arg(unbroken(QStringLiteral("nccl-tests"))));
    m_x->setLabelFormat(QStringLiteral("%.0e"));
    m_x->setMinorTickCount(0);
    m_y = new QValueAxis(this);
    m_y->setTitleText(tr("Bus bandwidth (GB/s)"));
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    m_yLog = new QLogValueAxis(this);
    m_yLog->setBase(10);
    m_yLog->setTitleText(tr("Bus bandwidth (GB/s, log scale)"));
    m_yLog->setLabelFormat(QStringLiteral("%g"));
    m_yLog->setMinorTickCount(-1);
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    // Small messages reach a few MB/s and large ones hundreds of GB/s: a log y shows both.
    setLogYAvailable(true);
    applyTheme();
}

QAbstractAxis* NcclView::yAxis() const {
    return logY() ? static_cast<QAbstractAxis*>(m_yLog) : m_y;
}

double NcclView::analyticalBusbw(const io::NcclCurve& curve, double bytes,
                                 const mosaic::Hardware& hw) {
    const std::optional<mosaic::Collective> c = narrow(mosaic::ncclCollectives(), curve.collective);
    if (!c || curve.ranks <= 1 || !(bytes > 0)) return 0;
    const double t = mosaic::collectiveTime(hw, *c, bytes, curve.ranks, 1);
    return t > 0 ? bytes * mosaic::busFactor(*c, curve.ranks) / t : 0;
}

void NcclView::setData(const io::NcclImport& imp, const QString& label,
                       const mosaic::Hardware& hw) {
    m_imp = imp;
    m_label = label;
    m_hw = hw;
    requestRebuild();
}

void NcclView::setHardware(const mosaic::Hardware& hw) {
    m_hw = hw;
    requestRebuild();
}

void NcclView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

void NcclView::rebuild() {
    if (logY() && !chart()->axes().contains(m_yLog)) {
        // The linear axis' points may hold a 0, which a log axis cannot place: cleared first.
        for (QLineSeries* s : m_lines) s->clear();
        for (QScatterSeries* s : m_points) s->clear();
        swapAxis(chart(), m_y, m_yLog, Qt::AlignLeft);
    } else if (!logY()) {
        swapAxis(chart(), m_yLog, m_y, Qt::AlignLeft);
    }
    const size_t n = m_imp.curves.size();
    // Per curve, in this order: the measured line, the analytical line, the measured dots.
    while (static_cast<size_t>(m_points.size()) < n) {
        for (int k = 0; k < 2; ++k)
            m_lines.append(addSeriesOnAxes(chart(), new QLineSeries(this), m_x, yAxis()));
        auto* s = new QScatterSeries(this);
        s->setMarkerSize(7);
        m_points.append(addSeriesOnAxes(chart(), s, m_x, yAxis()));
    }
    Bounds extent;      // the measured sizes (x) and every bandwidth drawn (y)
    double yLeast = 0;  // the smallest positive bandwidth drawn (the log axis' floor)
    auto addY = [&](double y) {
        extent.addY(y);
        if (y > 0) yLeast = yLeast > 0 ? std::min(yLeast, y) : y;
    };
    const bool dark = currentTheme() == Theme::Dark;
    for (qsizetype i = 0; i < m_points.size(); ++i) {
        QLineSeries* measured = m_lines[2 * i];
        QLineSeries* model = m_lines[2 * i + 1];
        QScatterSeries* dots = m_points[i];
        const bool on = static_cast<size_t>(i) < n;
        for (QAbstractSeries* s :
             {static_cast<QAbstractSeries*>(measured), static_cast<QAbstractSeries*>(model),
              static_cast<QAbstractSeries*>(dots)})
            s->setVisible(on);
        if (!on) continue;
        const io::NcclCurve& c = m_imp.curves[static_cast<size_t>(i)];
        QList<QPointF> pts;
        for (const io::NcclPoint& p : c.points)
            if (p.bytes > 0 && (!logY() || p.busbw_Bps > 0)) {  // a log axis has no 0
                pts.append(QPointF(p.bytes, p.busbw_Bps / 1e9));
                extent.addX(pts.back().x());
                addY(pts.back().y());
            }
        const QColor col = kCurveColors[i % 4];
        const QString name =
            tr("%1, %2").arg(pretty(c.collective), countLabel(c.ranks, tr("rank"), tr("ranks")));
        measured->setName(tr("Measured (%1) %2").arg(unbroken(QStringLiteral("nccl-tests")), name));
        measured->setPen(QPen(col, 2.2));
        measured->replace(pts);
        dots->setColor(col);
        dots->setBorderColor(dark ? Qt::white : Qt::black);
        dots->replace(pts);
        for (QLegendMarker* lm : chart()->legend()->markers(dots)) lm->setVisible(false);
        // The analytical curve on a log grid over the measured sizes (64 points).
        QList<QPointF> modelPts;
        if (!pts.isEmpty() && analyticalBusbw(c, pts.back().x(), m_hw) > 0) {
            const double a = std::log(pts.front().x()), b = std::log(pts.back().x());
            for (int k = 0; k <= 64; ++k) {
                const double bytes = std::exp(a + (b - a) * k / 64.0);
                const double bw = analyticalBusbw(c, bytes, m_hw) / 1e9;
                if (logY() && !(bw > 0)) continue;
                modelPts.append(QPointF(bytes, bw));
                addY(bw);
            }
        }
        model->setName(tr("Analytical model %1 (%2)").arg(name, QString::fromStdString(m_hw.name)));
        // A contrasting colour as well as the dash pattern.
        model->setPen(QPen(n == 1 ? kCurveColors[1] : col.darker(150), 2.2, Qt::DashLine));
        model->replace(modelPts);
        model->setVisible(!modelPts.isEmpty());
        for (QLegendMarker* lm : chart()->legend()->markers(model))
            lm->setVisible(!modelPts.isEmpty());
    }
    if (extent.xHi > 0) {
        m_x->setRange(std::pow(10.0, std::floor(std::log10(extent.xLo))),
                      std::pow(10.0, std::ceil(std::log10(extent.xHi))));
        if (logY() && yLeast > 0)
            m_yLog->setRange(std::pow(10.0, std::floor(std::log10(yLeast))),
                             std::pow(10.0, std::ceil(std::log10(extent.yHi))));
        else
            setNiceRange(m_y, 0, std::max(1.0, extent.yHi * 1.05), 6);
    }
    chart()->setTitle(m_label.isEmpty()
                          ? tr("Measured vs analytical bus bandwidth")
                          : tr("Measured vs analytical bus bandwidth: %1").arg(m_label));
}

QString NcclView::csv() const {
    QString out =
        QStringLiteral("collective,ranks,bytes,measured_busbw_GBps,analytical_busbw_GBps\n");
    for (const io::NcclCurve& c : m_imp.curves)
        for (const io::NcclPoint& p : c.points) {
            const double model = analyticalBusbw(c, p.bytes, m_hw);
            out += QStringLiteral("%1,%2,%3,%4,%5\n")
                       .arg(QString::fromUtf8(io::name(c.collective)))
                       .arg(c.ranks)
                       .arg(QString::number(p.bytes, 'g', 15),
                            QString::number(p.busbw_Bps / 1e9, 'g', 10),
                            model > 0 ? QString::number(model / 1e9, 'g', 10) : QString());
        }
    return out;
}

}  // namespace tandem::ui
