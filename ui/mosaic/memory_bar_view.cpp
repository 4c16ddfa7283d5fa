#include "ui/mosaic/memory_bar_view.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QValueAxis>

#include "ui/widgets/palette.h"
#include "ui/widgets/units.h"

namespace tandem::ui {

MemoryBarView::MemoryBarView(QWidget* parent)
    : ChartView(QStringLiteral("mosaic-memory"), tr("Memory per GPU"), parent) {
    const HorizontalBars bars = addHorizontalBars(0.55);
    m_series = bars.series;
    m_categories = bars.categories;
    m_value = bars.value;
    m_value->setTitleText(tr("Memory per GPU (GB)"));
    // The title names both parts ("used of capacity") and the bars are blue / grey: no legend, so
    // that the value axis keeps its room in the short chart under the step-time chart.
    chart()->legend()->hide();
    setLeastHeight(140);
    setToolTip(
        tr("Peak memory per GPU in GB (1e9 bytes): weights, gradients, AdamW states sharded over "
           "DP/EDP, activations per "
           "checkpointing mode, logits, against usable device memory [2608.10605 Sec. 5.2]. "
           "Right-click to "
           "export."));
    applyTheme();
}

void MemoryBarView::setData(double usedGB, double capacityGB, const QString& label) {
    m_used = usedGB;
    m_capacity = capacityGB;
    m_label = label;
    requestRebuild();
}

void MemoryBarView::applyTheme() {
    ChartView::applyTheme();
    requestRebuild();
}

void MemoryBarView::rebuild() {
    const bool over = m_used > m_capacity;
    auto* used = new QBarSet(over ? tr("used (over capacity)") : tr("used"));
    const QColor uc = over ? QColor(0xD5, 0x5E, 0x00) : QColor(0x00, 0x72, 0xB2);
    used->setColor(uc);
    used->setBorderColor(uc);
    used->append(m_used);
    auto* free = new QBarSet(tr("headroom"));
    const QColor fc =
        currentTheme() == Theme::Dark ? QColor(0x55, 0x58, 0x5c) : QColor(0xDD, 0xDD, 0xDD);
    free->setColor(fc);
    free->setBorderColor(fc);
    free->append(std::max(0.0, m_capacity - m_used));
    m_series->clear();
    m_series->append({used, free});
    m_categories->setCategories({m_label.isEmpty() ? tr("selected") : m_label});
    setNiceRange(m_value, 0, std::max({m_used, m_capacity, 1.0}) * 1.02, 6);
    if (m_capacity > 0) {
        // No-break spaces keep each number with its unit when the title wraps.
        const QString amounts = tr("%1\u00A0GB used of %2\u00A0GB (%3\u00A0%)")
                                    .arg(m_used, 0, 'f', 0)
                                    .arg(m_capacity, 0, 'f', 0)
                                    .arg(100 * m_used / m_capacity, 0, 'f', 0);
        setFittingTitle({tr("Memory per GPU: %1").arg(amounts), tr("Memory: %1").arg(amounts)});
    } else {
        setFittingTitle({tr("Memory per GPU")});
    }
    ChartView::applyTheme();
}

QString MemoryBarView::csv() const {
    return QStringLiteral("layout,memory_GB,capacity_GB\n\"%1\",%2,%3\n")
        .arg(m_label, QString::number(m_used, 'g', 8), QString::number(m_capacity, 'g', 8));
}

}  // namespace tandem::ui
