#pragma once
// "Reality check": the performance model's tokens/s per GPU under the megatron-core stack
// against the shipped measured Megatron-Core runs (mosaic/reality.h, `tandem-cli reproduce
// reality`), log-log, one marker series per system, the y = x line and the +-25 % band.
#include <QMap>
#include <QStringList>
#include <optional>

#include "mosaic/reality.h"
#include "widgets/chart_view.h"

class QAreaSeries;
class QGraphicsTextItem;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;

namespace tandem::ui {

/// One plotted run: a costed, feasible, expressible measured run.
struct RealityPoint {
    QString system, model, container, precision;
    QString layout;  ///< mosaic::layoutString of its plan (what `plan --layout` reads back)
    int gpus = 0;
    double measured = 0;   ///< tokens/s per GPU, measured
    double predicted = 0;  ///< tokens/s per GPU, Tandem under megatron-core
    double error = 0;      ///< predicted / measured - 1
};

/// Scatter of predicted (y) against measured (x) tokens/s per GPU, both log axes. The report
/// (mosaic::reproduceReality(), ~90 plan evaluations) is computed on the first show or the
/// first call of load(); it does not depend on the scenario. The title carries the summary
/// (median |error|, share within +-25 %), a caption under the plot says how many runs are not
/// expressible and why. Hovering a marker names the run.
class RealityView : public ChartView {
    Q_OBJECT
public:
    explicit RealityView(QWidget* parent = nullptr);
    /// Computes and shows the report if it is not shown yet.
    void load();
    /// Shows `r` (tests may pass their own report).
    void setReport(const mosaic::RealityReport& r);
    const std::optional<mosaic::RealityReport>& report() const { return m_report; }
    /// The plotted runs in series order (system by system), the order of csv().
    const QList<RealityPoint>& points() const { return m_points; }
    /// The marker series of `system`, nullptr when no run of it is plotted.
    QScatterSeries* systemSeries(const QString& system) const { return m_series.value(system); }
    QStringList systems() const { return m_series.keys(); }
    QAreaSeries* bandSeries() const { return m_band; }
    QLineSeries* identitySeries() const { return m_identity; }
    /// The caption under the plot (runs not plotted and why).
    QString caption() const;
    /// One row per plotted run: system, model, container, gpus, precision, layout,
    /// measured_tokens_per_s_per_gpu, predicted_tokens_per_s_per_gpu, error.
    QString csv() const override;
    void applyTheme() override;

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild() override;
    void placeCaption();
    std::optional<mosaic::RealityReport> m_report;
    QList<RealityPoint> m_points;
    QMap<QString, QScatterSeries*> m_series;
    QMap<QString, QList<int>> m_seriesPoints;  ///< system -> indices into m_points
    QAreaSeries* m_band = nullptr;
    QLineSeries* m_identity = nullptr;
    QLogValueAxis* m_x = nullptr;
    QLogValueAxis* m_y = nullptr;
    QGraphicsTextItem* m_caption = nullptr;
};

}  // namespace tandem::ui
