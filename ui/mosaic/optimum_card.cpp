#include "ui/mosaic/optimum_card.h"

#include <cmath>

#include "ui/mosaic/layout_cells.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

QString formatCount(double n) {
    if (!std::isfinite(n)) return QStringLiteral("n/a");
    if (n >= 1e12) return QStringLiteral("%1 T").arg(n / 1e12, 0, 'f', 2);
    if (n >= 1e9) return QStringLiteral("%1 B").arg(n / 1e9, 0, 'f', 1);
    if (n >= 1e6) return QStringLiteral("%1 M").arg(n / 1e6, 0, 'f', 1);
    return QString::number(n, 'g', 3);
}

void styleCardLabel(QLabel* label, const QString& objectName) {
    label->setObjectName(objectName);
    label->setTextFormat(Qt::RichText);
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    label->setFrameShape(QFrame::StyledPanel);
    label->setMargin(6);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

OptimumCard::OptimumCard(QWidget* parent) : QLabel(parent) {
    styleCardLabel(this, QStringLiteral("optimumCard"));
    setToolTip(
        tr("Geometry from the ladder (L = 4q layers, d = 512q) with E experts, top-K and split "
           "factor G "
           "[2608.10605 Sec. 3, App. A.1]; D* from Eq. 25; loss from Eq. 10; MFU from Eq. 1."));
}

void OptimumCard::setCandidate(const mosaic::Candidate& c, const QString& title,
                               double computeOptimalSparsity, double naiveLoss) {
    const auto& g = c.geometry;
    const auto& p = c.plan;
    const QString naive =
        std::isfinite(naiveLoss)
            ? tr("The compute-optimal choice (S = %1) trained on this cluster reaches %2 nats (%3 "
                 "nats worse).")
                  .arg(computeOptimalSparsity, 0, 'f', 3)
                  .arg(naiveLoss, 0, 'f', 4)
                  .arg(naiveLoss - c.loss, 0, 'f', 4)
            : tr("The compute-optimal choice (S = %1) does not fit this cluster at all.")
                  .arg(computeOptimalSparsity, 0, 'f', 3);
    setText(
        tr("<b>%1</b>: loss <b>%2 nats</b>%3<br>"
           "L&nbsp;=&nbsp;%4&nbsp;layers, d&nbsp;=&nbsp;%5, E&nbsp;=&nbsp;%6, K&nbsp;=&nbsp;%7, "
           "G&nbsp;=&nbsp;%8<br>"
           "N_act&nbsp;=&nbsp;%9, N_tot&nbsp;=&nbsp;%10, S&nbsp;=&nbsp;%11, "
           "D&nbsp;=&nbsp;%12&nbsp;tokens<br>"
           "MFU&nbsp;%13&nbsp;%, iteration&nbsp;%14&nbsp;s, %15&nbsp;GB per&nbsp;GPU<br>"
           "Layout %16, %17, %18 sequences<br><i>%19</i>")
            .arg(title.toHtmlEscaped())
            .arg(c.loss, 0, 'f', 4)
            .arg(c.extrapolated ? tr(" (extrapolated beyond Eq. 10's fitted range)") : QString())
            .arg(g.layers)
            .arg(g.dModel)
            .arg(g.experts)
            .arg(g.topK)
            .arg(g.splitG)
            .arg(unbroken(formatCount(g.nAct)), unbroken(formatCount(g.nTot)))
            .arg(g.sparsity, 0, 'f', 3)
            .arg(unbroken(formatCount(c.tokens)))
            .arg(100 * c.eval.mfu, 0, 'f', 1)
            .arg(c.eval.iteration_s, 0, 'f', 2)
            .arg(c.eval.memoryGB, 0, 'f', 0)
            .arg(QString::fromStdString(planAxesLabel(p)))
            .arg(unbroken(tr("micro-batch %1").arg(p.mbs)))
            .arg(c.globalBatch)
            .arg(naive.toHtmlEscaped()));
}

void OptimumCard::clearCandidate(const QString& why) {
    setText(QStringLiteral("<i>%1</i>").arg(why.toHtmlEscaped()));
}

}  // namespace tandem::ui
