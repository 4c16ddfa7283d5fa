#include "ui/mlforml/network_map_view.h"

#include <QLabel>
#include <QPainter>
#include <QTextDocumentFragment>
#include <QVBoxLayout>
#include <QtMath>

#include "ui/widgets/palette.h"

namespace tandem::ui {

namespace {
// What a link of the record is, from its name (fabric::FabricPlan::linkNames).
QString linkRole(const std::string& name) {
    const QString n = QString::fromStdString(name);
    if (n == QLatin1String("fabric")) return QObject::tr("the shared fabric capacity");
    if (n.endsWith(QLatin1String("-nic"))) return QObject::tr("one node's NIC of that job");
    if (n.contains(QLatin1String("-up"))) return QObject::tr("leaf uplink to the spines");
    if (n.contains(QLatin1String("-down"))) return QObject::tr("spine downlink into the leaf");
    return QString();
}

QString seconds(double s) { return QObject::tr("%1 s").arg(s, 0, 'f', s < 10 ? 2 : 1); }

/// `html` kept on one line where the caption wraps (a link name with its figure, a number with
/// its unit); the plain text (captionText) is unchanged.
QString keep(const QString& html) {
    return QStringLiteral("<span style=\"white-space:nowrap\">%1</span>").arg(html);
}

QString jobsText(const std::vector<int>& jobs) {
    QStringList names;
    for (int j : jobs) {
        if (names.size() == 4) {
            names << QObject::tr("%1 more").arg(static_cast<int>(jobs.size()) - 4);
            break;
        }
        names << QString::fromStdString(fabric::jobName(j));
    }
    return names.isEmpty() ? QObject::tr("no job") : names.join(QStringLiteral(", "));
}
}  // namespace

QString networkCaption(const mlforml::NetworkMap& map) {
    if (map.busiest.empty()) return QObject::tr("No link was used in this condition.");
    const fabric::LinkUsage& b = map.busiest.front();
    QString out =
        QObject::tr(
            "<b>Bottleneck: %1</b> (%2): mean %3 (peak %4), %5 at %6 of %7 "
            "observed; capacity %8 each way; crossed by %9.")
            .arg(QString::fromStdString(b.link).toHtmlEscaped(), linkRole(b.link),
                 keep(percentText(b.meanUtilisation())), keep(percentText(b.peakUtilisation)),
                 keep(seconds(b.saturated_s)), keep(percentText(1)), keep(seconds(b.observed_s)))
            .arg(keep(QObject::tr("%1 GB/s").arg(b.capacityBytesPerS / 1e9, 0, 'f', 1)),
                 jobsText(b.jobs));
    QStringList next;
    for (size_t i = 1; i < map.busiest.size(); ++i)
        next << keep(
            QObject::tr("%1 %2").arg(QString::fromStdString(map.busiest[i].link).toHtmlEscaped(),
                                     percentText(map.busiest[i].meanUtilisation())));
    if (!next.isEmpty()) out += QObject::tr(" Next: %1.").arg(next.join(QStringLiteral(", ")));
    out += QObject::tr(" With %1 background jobs; the link record of links.csv.")
               .arg(map.backgroundJobs);
    return out;
}

NetworkMapView::NetworkMapView(QWidget* parent) : QWidget(parent), m_caption(new QLabel(this)) {
    setObjectName(QStringLiteral("networkMapView"));
    auto* layout = new QVBoxLayout(this);
    m_caption->setObjectName(QStringLiteral("networkMapCaption"));
    m_caption->setWordWrap(true);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_caption);
    layout->addStretch(1);
    setEmptyReason(QString());
}

void NetworkMapView::setMap(const mlforml::NetworkMap& map, bool racks) {
    m_map = map;
    m_racks = racks;
    m_caption->setText(networkCaption(map));
    update();
}

void NetworkMapView::setEmptyReason(const QString& reason) {
    m_map.reset();
    m_caption->setText(reason.isEmpty() ? tr("Computing the link use of the fabric...")
                                        : reason.toHtmlEscaped());
    update();
}

QString NetworkMapView::captionText() const {
    return QTextDocumentFragment::fromHtml(m_caption->text()).toPlainText();
}

QRect NetworkMapView::mapArea() const {
    const int top = m_caption->geometry().bottom() + 1;
    return QRect(0, top, width(), std::max(0, height() - top));
}

NetworkPicture NetworkMapView::picture() const {
    if (!m_map) return {};
    return layOutNetworkMap(*m_map, mapArea().size(), drawingFont(), m_racks);
}

QList<DrawnText> NetworkMapView::drawnTexts() const {
    QList<DrawnText> out = picture().texts;
    const QPointF shift = mapArea().topLeft();
    for (DrawnText& t : out) {
        t.box.translate(shift);
        t.needs.translate(shift);
    }
    return out;
}

QFont NetworkMapView::drawingFont() const {
    QFont f = font();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * chartFontScale());
    else
        f.setPixelSize(qRound(f.pixelSize() * chartFontScale()));
    return f;
}

void NetworkMapView::applyFontScale() {
    updateGeometry();
    update();
}

QSize NetworkMapView::minimumSizeHint() const {
    const int lh = qCeil(QFontMetricsF(drawingFont()).height());
    return {lh * 24, m_caption->heightForWidth(lh * 24) + lh * 13};
}

void NetworkMapView::paintEvent(QPaintEvent*) {
    if (!m_map) return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.translate(mapArea().topLeft());
    const NetworkPicture pic = picture();
    const QColor ink = palette().color(QPalette::WindowText);
    for (const auto& b : pic.boxes) {
        p.setPen(b.outline ? QPen(ink, 1) : Qt::NoPen);
        p.setBrush(b.fill.isValid() ? QBrush(b.fill) : Qt::NoBrush);
        p.drawRect(b.rect);
    }
    for (const auto& l : pic.lines) {
        p.setPen(QPen(l.colour, l.width, Qt::SolidLine, Qt::FlatCap));
        p.drawLine(l.line);
    }
    p.setPen(ink);
    p.setFont(drawingFont());
    const QFontMetricsF fm(drawingFont());
    for (const auto& t : pic.texts)
        p.drawText(QPointF(t.needs.left(), t.needs.top() + fm.ascent()), t.text);
}

}  // namespace tandem::ui
