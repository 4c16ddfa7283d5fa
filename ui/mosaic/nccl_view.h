#pragma once
// Measured vs analytical bus bandwidth: an imported nccl-tests log against Tandem's collective
// model of a chosen hardware [nccl-tests doc/PERFORMANCE.md; MODEL.md B4].
#include <QString>
#include <vector>

#include "io/nccl_tests.h"
#include "mosaic/hardware.h"
#include "ui/widgets/chart_view.h"

class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

namespace tandem::ui {

/// Log-x chart of message size (bytes, the nccl-tests `size` column) against bus bandwidth
/// (GB/s = 1e9 B/s). Per curve of the log: the measured busbw (line + points, the better of
/// out-of-place and in-place per row) and the analytical busbw of mosaic::collectiveTime on the
/// same rank count (ranks spread over nodes of the hardware's GPUs per node, stride 1):
/// busbw = size * busFactor / time. Collectives the model lacks (broadcast, reduce) show the
/// measurement only.
class NcclView : public ChartView {
    Q_OBJECT
public:
    explicit NcclView(QWidget* parent = nullptr);
    /// Shows `imp` (from file `label`) against `hw`. Replaces any previous log.
    void setData(const io::NcclImport& imp, const QString& label, const mosaic::Hardware& hw);
    /// Re-draws the analytical curves for another hardware.
    void setHardware(const mosaic::Hardware& hw);
    bool hasData() const { return !m_imp.curves.empty(); }
    const io::NcclImport& data() const { return m_imp; }
    /// Analytical busbw (B/s) of `curve`'s collective at `bytes` on `hw`; 0 when the model has
    /// no such collective or ranks <= 1.
    static double analyticalBusbw(const io::NcclCurve& curve, double bytes,
                                  const mosaic::Hardware& hw);
    /// Measured and analytical series (tests): index 2i = measured line of curve i, 2i+1 = model.
    QList<QLineSeries*> lineSeries() const { return m_lines; }
    QString csv() const override;
    void applyTheme() override;

private:
    void rebuild() override;
    io::NcclImport m_imp;
    QString m_label;
    mosaic::Hardware m_hw;
    QList<QLineSeries*> m_lines;
    QList<QScatterSeries*> m_points;
    QLogValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QLogValueAxis* m_yLog = nullptr;  ///< the y axis while logY() (bandwidth spans decades)
    /// The y axis on the chart now.
    QAbstractAxis* yAxis() const;
};

}  // namespace tandem::ui
