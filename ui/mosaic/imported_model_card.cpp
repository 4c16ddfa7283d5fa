#include "ui/mosaic/imported_model_card.h"

#include <cmath>

#include "mosaic/plan.h"
#include "ui/mosaic/layout_cells.h"
#include "ui/mosaic/optimum_card.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

ImportedModelCard::ImportedModelCard(QWidget* parent) : QLabel(parent) {
    styleCardLabel(this, QStringLiteral("importedModelCard"));
    setToolTip(tr(
        "Imported model configs costed on this cluster: best layout by MFU (Eq. 1), D from Eq. 25 "
        "capped at TPP_max N_act, loss from Eq. 10 [2608.10605]."));
    hide();
}

void ImportedModelCard::setModels(const std::vector<ImportedModelPoint>& models,
                                  const std::optional<mosaic::Candidate>& optimum,
                                  double deviceMemoryGB) {
    setVisible(!models.empty());
    if (models.empty()) {
        clear();
        return;
    }
    QString html;
    for (const ImportedModelPoint& m : models) {
        const auto& g = m.geometry;
        html += tr("<b>Imported: %1</b><br>N_tot = %2, N_act = %3, S = %4<br>")
                    .arg(m.label.toHtmlEscaped(), formatCount(g.nTot), formatCount(g.nAct))
                    .arg(g.sparsity, 0, 'f', 3);
        if (!m.eval.feasible) {
            html += QStringLiteral("<i>%1</i><br>")
                        .arg(QString::fromStdString(mosaic::noFeasibleLayoutText(m.eval.reason))
                                 .toHtmlEscaped());
        } else {
            const auto& p = m.plan;
            html += tr("Best layout %1, %2, %3 checkpointing<br>"
                       "MFU <b>%4 %</b>, iteration %5 s, <b>%6 GB</b> of %7 GB per GPU<br>"
                       "D = %8 tokens, loss <b>%9 nats</b>%10<br>")
                        .arg(QString::fromStdString(planAxesLabel(p)))
                        .arg(unbroken(tr("micro-batch %1").arg(p.mbs)))
                        .arg(QString::fromLatin1(mosaic::checkpointingName(p.ckpt)))
                        .arg(100 * m.eval.mfu, 0, 'f', 1)
                        .arg(m.eval.iteration_s, 0, 'f', 2)
                        .arg(m.eval.memoryGB, 0, 'f', 0)
                        .arg(deviceMemoryGB, 0, 'f', 0)
                        .arg(formatCount(m.tokens))
                        .arg(m.loss, 0, 'f', 4)
                        .arg(m.extrapolated ? tr(" (extrapolated beyond Eq. 10's fitted range)")
                                            : QString());
        }
        for (const std::string& n : m.notes)
            html += QStringLiteral("<i>%1</i><br>").arg(QString::fromStdString(n).toHtmlEscaped());
    }
    if (optimum) {
        html += tr("<b>Cluster-optimal</b>: S = %1, MFU %2 %, %3 GB per GPU, loss %4 nats")
                    .arg(optimum->geometry.sparsity, 0, 'f', 3)
                    .arg(100 * optimum->eval.mfu, 0, 'f', 1)
                    .arg(optimum->eval.memoryGB, 0, 'f', 0)
                    .arg(optimum->loss, 0, 'f', 4);
        if (!models.empty() && models.front().eval.feasible && std::isfinite(models.front().loss)) {
            const double diff = models.front().loss - optimum->loss;
            html += (diff >= 0 ? tr(" (%1 nats lower than %2)") : tr(" (%1 nats above %2)"))
                        .arg(std::abs(diff), 0, 'f', 4)
                        .arg(models.front().label.toHtmlEscaped());
        }
    } else {
        html += tr("<i>No cluster-optimal configuration is feasible.</i>");
    }
    setText(html);
}

}  // namespace tandem::ui
