#pragma once
// MFU of every PP x EP layout of the selected geometry; a click selects that layout
// in the style of ScalePlan's layout heatmap [2608.10605 Sec. 5, App. D.1].
#include "ui/mosaic/layout_cells.h"
#include "ui/widgets/chart_view.h"

class QCategoryAxis;
class QGraphicsItem;

class QFontMetricsF;

namespace tandem::ui {

/// Heatmap of LayoutCells: x = expert parallelism EP, y = pipeline parallelism PP, colour = MFU
/// (colour-blind-safe sequential map), the MFU written in each cell. Out-of-memory cells are
/// hatched ("OOM"), cells without any structurally valid plan (mesh rules: divisibility of the
/// GPUs, experts and layers) carry an X; the tooltip of every cell gives its best plan or the
/// reason. A colour bar (MFU %) sits right of the grid and a key line for X / OOM under it. A left
/// click on a cell emits cellClicked; the selected cell is outlined.
class LayoutHeatmapView : public ChartView {
    Q_OBJECT
public:
    explicit LayoutHeatmapView(QWidget* parent = nullptr);
    /// `title` names the geometry; `selected` is the cell index to outline (-1 none).
    void setData(const LayoutCells& cells, int selected, const QString& title);
    void setSelected(int index);
    const LayoutCells& cells() const { return m_cells; }
    int selected() const { return m_selected; }
    /// Viewport position of the centre of cell (ppIndex, epIndex) (tests, clicks).
    QPoint cellCenter(int ppIndex, int epIndex) const;
    /// Cell index under a viewport position, -1 outside the grid.
    int cellAt(const QPoint& viewportPos) const;
    /// Tooltip text of a cell.
    QString cellToolTip(int index) const;
    /// The crosshair's table over a cell: heading "PP p x EP e", rows MFU (%), memory per GPU
    /// (GB), iteration time (s) and the plan, or why the cell does not fit; empty off the grid.
    HoverTable hoverAt(const QPoint& viewportPos) const override;
    /// The table of cell `index` (hoverAt's model step; empty for an index out of range).
    HoverTable cellHover(int index) const;
    /// The colour scale drawn right of the grid: MFU in % from 0 (darkest) to the best cell's
    /// MFU (brightest), as the cells are coloured (viridis(mfu / maxMfu)); 0 when no cell fits.
    double colourScaleMaxPercent() const { return 100 * m_cells.maxMfu; }
    /// The key line under the grid: what X and the hatched OOM cells mean.
    static QString caption();
    /// The longest form of caption() (full, shorter, shortest) that fits `width` px in `fm`.
    static QString caption(const QFontMetricsF& fm, qreal width);
    /// One row per cell: pp,ep,feasible,mfu,tp,cp,dp,micro_batch,checkpointing,memory_GB,reason.
    QString csv() const override;
    void applyTheme() override;

signals:
    void cellClicked(int index);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    friend class HeatmapItem;
    friend class HeatmapKeyItem;
    /// Scene rectangle of a cell.
    QRectF cellRect(int ppIndex, int epIndex) const;
    void rebuild() override;
    /// Every how many-th PP (vertical) or EP (horizontal) value is labelled so that the labels
    /// fit their cells at the current plot size (1 = all).
    int labelStride(bool horizontal) const;
    LayoutCells m_cells;
    int m_selected = -1;
    int m_xStride = 1, m_yStride = 1;  ///< labelStride of the last rebuild
    QCategoryAxis* m_x = nullptr;
    QCategoryAxis* m_y = nullptr;
    QGraphicsItem* m_item = nullptr;
    QGraphicsItem* m_key = nullptr;
};

/// Sequential colour map (viridis, 9 stops, linear interpolation) for t in [0, 1].
QColor viridis(double t);

}  // namespace tandem::ui
