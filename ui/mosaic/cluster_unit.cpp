#include "ui/mosaic/cluster_unit.h"

#include <QCoreApplication>
#include <algorithm>

#include "ui/widgets/count_label.h"

namespace tandem::ui {

namespace {
QString tr(const char* s) { return QCoreApplication::translate("tandem::ui::ClusterUnit", s); }
}  // namespace

ClusterUnit clusterUnitOf(int gpusPerUnit) {
    ClusterUnit u;
    u.gpus = gpusPerUnit;
    u.rack = gpusPerUnit >= kRackGpus;
    u.singular = u.rack ? tr("rack") : tr("node");
    u.plural = u.rack ? tr("racks") : tr("nodes");
    return u;
}

ClusterUnit clusterUnit(const mosaic::Hardware& h) { return clusterUnitOf(h.gpusPerNode); }

QString clusterSizeText(int units, const ClusterUnit& u) {
    const QString count = countLabel(units, u.singular, u.plural);
    if (!u.rack) return count;
    return tr("%1 (%2)").arg(count, countLabel(qint64(units) * u.gpus, tr("GPU"), tr("GPUs")));
}

int unitsNearestGpus(int gpus, int gpusPerUnit, int maxUnits) {
    const int below = gpus / gpusPerUnit;
    const int above = below + 1;
    const int best = gpus - below * gpusPerUnit <= above * gpusPerUnit - gpus ? below : above;
    return std::clamp(best, 1, std::max(1, maxUnits));
}

QString unitChangeNote(const mosaic::Hardware& h, int before, int units) {
    const ClusterUnit u = clusterUnit(h);
    const qint64 after = qint64(units) * u.gpus;
    const QString now = tr("%1 (%2)").arg(countLabel(units, u.singular, u.plural),
                                          countLabel(after, tr("GPU"), tr("GPUs")));
    const QString head =
        tr("%1 counts %2 of %3 GPUs:").arg(QString::fromStdString(h.name), u.plural).arg(u.gpus);
    if (after == before)
        return tr("%1 %2 kept as %3.").arg(head, countLabel(before, tr("GPU"), tr("GPUs")), now);
    return tr("%1 %2 became %3, the nearest whole number of %4.")
        .arg(head, countLabel(before, tr("GPU"), tr("GPUs")), now, u.plural);
}

}  // namespace tandem::ui
