#pragma once
// The cluster optimum against co-running jobs: its loss and its sparsity per level
// [docs/MODEL-NETWORK.md section 7; `tandem-cli sweep --vary mosaic.background.jobs=...`].
#include <QList>
#include <vector>

#include "ui/mosaic/background_levels.h"
#include "ui/widgets/chart_view.h"

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace tandem::ui {

/// Two curves over the number of co-running jobs: the loss the cluster optimum reaches in the
/// window (nats, left axis) and its sparsity S (right axis), one point per level; a level
/// with no feasible geometry leaves a gap. The envelope's own level is ringed. The CSV has
/// one row per level (jobs, feasible, S, loss, MFU, geometry, layout).
class OptimumVsJobsView : public ChartView {
    Q_OBJECT
public:
    explicit OptimumVsJobsView(QWidget* parent = nullptr);
    void setData(const BackgroundLevels& levels);
    void applyTheme() override;
    const std::vector<BackgroundLevelRow>& rows() const { return m_rows; }
    /// (jobs, loss) and (jobs, S) as drawn (tests).
    QList<QPointF> lossPoints() const;
    QList<QPointF> sparsityPoints() const;
    QString csv() const override;

private:
    void rebuild() override;
    std::vector<BackgroundLevelRow> m_rows;
    int m_current = 0;
    QLineSeries* m_loss = nullptr;
    QLineSeries* m_sparsity = nullptr;
    QScatterSeries* m_ring = nullptr;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_yLoss = nullptr;
    QValueAxis* m_yS = nullptr;
};

}  // namespace tandem::ui
