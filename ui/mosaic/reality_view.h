#pragma once
// "Reality check": the performance model's tokens/s per GPU under the megatron-core stack
// against the shipped measured Megatron-Core runs (mosaic/reality.h, `tandem-cli reproduce
// reality`), log-log, one marker series per system, the y = x line and the +-25 % band; or the
// error (predicted / measured - 1, %) against measured tokens/s per GPU. Filters by system,
// model, precision and software release; the current plan beside its nearest measured runs.
#include <QMap>
#include <QStringList>
#include <optional>

#include "mosaic/reality.h"
#include "ui/widgets/chart_view.h"

class QAbstractAxis;
class QAreaSeries;
class QComboBox;
class QGridLayout;
class QGraphicsTextItem;
class QLineSeries;
class QLogValueAxis;
class QPushButton;
class QScatterSeries;
class QValueAxis;

namespace tandem::ui {

/// One plotted run: a costed, feasible, expressible measured run.
struct RealityPoint {
    QString system, model, container, precision;
    QString layout;  ///< mosaic::layoutString of its plan (what `plan --layout` reads back)
    int gpus = 0;
    double measured = 0;   ///< tokens/s per GPU, measured
    double predicted = 0;  ///< tokens/s per GPU, Tandem under megatron-core
    double error = 0;      ///< predicted / measured - 1
    QString stack;         ///< software release measured with (the run's container)
    size_t row = 0;        ///< into RealityReport::rows (yours: into the user's runs)
    bool yours = false;    ///< a run the user imported from a training log
};

/// Scatter of predicted (y) against measured (x) tokens/s per GPU, both log axes. The report
/// (mosaic::reproduceReality(), ~90 plan evaluations) is computed on the first show or the
/// first call of load(); it does not depend on the scenario. The title carries the summary
/// (median |error|, share within +-25 %), a caption under the plot says how many runs are not
/// expressible and why. The filter boxes above the plot (system, model, precision, release;
/// values from the report's runs) narrow the plotted runs and the title's summary
/// (mosaic::summarizeRealityFilter). The current plan (setPlan) is drawn at its predicted
/// throughput under the runs' stack (mosaic::realityPlan: megatron-core, whatever the
/// scenario's stack; the caption names both) where a correct prediction would lie (on y = x; at
/// 0 % in the error view) and its nearest measured runs among those the filter shows
/// (mosaic::nearestRealityRuns) are ringed; the caption says how well they were predicted. Hovering
/// within kHoverPixels of a marker names the run. The header's boxes are widgets over the chart's
/// top margin, not part of exports.
class RealityView : public ChartView {
    Q_OBJECT
public:
    /// How near (logical pixels) the cursor must be to a marker for the hover to name it.
    static constexpr double kHoverPixels = 14;
    /// Runs ringed as nearest to the plan (mosaic::nearestRealityRuns).
    static constexpr int kNearestRuns = 3;
    enum class Mode { LogLog, Error };

    explicit RealityView(QWidget* parent = nullptr);
    /// Computes and shows the report if it is not shown yet.
    void load();
    /// Shows `r` (tests may pass their own report).
    void setReport(const mosaic::RealityReport& r);
    const std::optional<mosaic::RealityReport>& report() const { return m_report; }
    /// Shows only the runs matching `f` (the boxes follow; a value not in the report's runs
    /// matches nothing).
    void setFilter(const mosaic::RealityFilter& f);
    const mosaic::RealityFilter& filter() const { return m_filter; }
    /// The summary of the plotted runs (the title's figures).
    const mosaic::RealitySummary& shownSummary() const { return m_summary; }
    /// The current plan (the MoE workspace's selected candidate); nullopt removes it.
    void setPlan(const std::optional<mosaic::RealityPlan>& plan);
    const std::optional<mosaic::RealityPlan>& plan() const { return m_plan; }
    /// setPlan(mosaic::realityPlan(e, *c)) for a feasible candidate, else no plan.
    void setPlanCandidate(const mosaic::Envelope& e, const std::optional<mosaic::Candidate>& c);
    /// The runs nearest to the plan among those the filter shows, nearest first.
    const std::vector<mosaic::RealityNeighbour>& nearest() const { return m_nearest; }
    /// The sentence on the plan and its nearest runs ("" without a plan).
    QString planSentence() const;
    QScatterSeries* planSeries() const { return m_planSeries; }
    QScatterSeries* nearestSeries() const { return m_nearestSeries; }
    /// The user's runs imported from training logs (mosaic/user_runs.h), costed here under
    /// their cases' stack (`stackName` names it): drawn as "yours" (their own marker and legend
    /// entry, system "yours" in points() and csv()) where the filter shows them, and the Calibrate
    /// button shows while there is one. `problems`: why runs of the scenario could not be read
    /// (named in the caption).
    void setUserRuns(const std::vector<mosaic::RealityCase>& cases, const QString& stackName,
                     const QStringList& problems = {});
    /// A sentence about the last calibration the caption adds until the runs change
    /// (setUserRuns): the runs it left out and why.
    void setCalibrationNote(const QString& note);
    /// Number of the user's runs shown.
    int userRunCount() const { return int(m_userRows.size()); }
    /// The summary of the user's runs under their stack (median |error| ...).
    const mosaic::RealitySummary& userSummary() const { return m_userSummary; }
    /// "Calibrate to these runs" (calibrateRequested); disabled while one runs.
    QPushButton* calibrateButton() const { return m_calibrate; }
    void setCalibrating(bool on);
    /// The series key and legend of the user's runs.
    static QString yoursKey() { return QStringLiteral("yours"); }
    /// Log-log predicted against measured, or error (%) against measured.
    void setMode(Mode m);
    Mode mode() const { return m_mode; }
    QComboBox* systemBox() const { return m_systemBox; }
    QComboBox* modelBox() const { return m_modelBox; }
    QComboBox* precisionBox() const { return m_precisionBox; }
    QComboBox* stackBox() const { return m_stackBox; }
    QComboBox* modeBox() const { return m_modeBox; }
    /// The marker within kHoverPixels of `viewportPos` nearest to it, as an index into points()
    /// (-1 none; -2 the plan's marker).
    int markerAt(const QPoint& viewportPos) const;
    /// Viewport position of plotted run `i` (points()) as drawn now.
    QPoint markerPosition(int i) const;
    /// Names the run (or the plan) whose marker is near the cursor; empty elsewhere.
    HoverTable hoverAt(const QPoint& viewportPos) const override;
    /// The plotted runs in series order (system by system), the order of csv().
    const QList<RealityPoint>& points() const { return m_points; }
    /// The marker series of `system`, nullptr when no run of it is plotted.
    QScatterSeries* systemSeries(const QString& system) const { return m_series.value(system); }
    QStringList systems() const { return m_series.keys(); }
    QAreaSeries* bandSeries() const { return m_band; }
    QLineSeries* identitySeries() const { return m_identity; }
    /// The caption under the plot (runs not plotted and why).
    QString caption() const;
    /// The text under the plot as drawn now: planSentence() and caption() where they fit the
    /// room the chart's other texts and least plot leave in the view's height, else their first
    /// sentences, then the caption's first sentence alone, then its count of runs plotted ("90
    /// of 112 measured runs plotted."), with the whole text in the caption's tooltip
    /// (captionToolTip()).
    /// At 800x600 the whole text made the page taller than the window, and its legend had to be
    /// scrolled to.
    QString shownCaption() const;
    /// The whole text when shownCaption() is shortened, else empty.
    QString captionToolTip() const;
    /// One row per plotted run: system, model, container, gpus, precision, layout,
    /// measured_tokens_per_s_per_gpu, predicted_tokens_per_s_per_gpu, error.
    QString csv() const override;
    void applyTheme() override;

signals:
    /// The user asked to calibrate the stack to their runs.
    void calibrateRequested();

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    /// The filter boxes go with the chart while an empty reason is shown.
    void emptyReasonChanged() override;

private:
    void rebuild() override;
    void placeCaption();
    void placeHeader();
    void fillBoxes();
    void readBoxes();
    void refilter();
    void updateTitle();
    /// m_nearest: the runs of the filter nearest to the plan.
    void findNearest();
    /// Puts the mode's y axis on the chart (the other one off) and returns it.
    QAbstractAxis* shownY();
    std::vector<mosaic::RealityNeighbour> m_nearest;
    mosaic::RealityFilter m_filter;
    mosaic::RealitySummary m_summary;
    std::optional<mosaic::RealityPlan> m_plan;
    Mode m_mode = Mode::LogLog;
    QWidget* m_header = nullptr;
    QGridLayout* m_headerGrid = nullptr;
    QList<QWidget*> m_headerCells;
    int m_headerColumns = 0;
    QComboBox* m_systemBox = nullptr;
    QComboBox* m_modelBox = nullptr;
    QComboBox* m_precisionBox = nullptr;
    QComboBox* m_stackBox = nullptr;
    QComboBox* m_modeBox = nullptr;
    bool m_settingBoxes = false;
    QScatterSeries* m_planSeries = nullptr;
    QScatterSeries* m_nearestSeries = nullptr;
    QValueAxis* m_yError = nullptr;
    std::optional<mosaic::RealityReport> m_report;
    QList<RealityPoint> m_points;
    QMap<QString, QScatterSeries*> m_series;
    QMap<QString, QList<int>> m_seriesPoints;  ///< system -> indices into m_points
    QAreaSeries* m_band = nullptr;
    QLineSeries* m_identity = nullptr;
    QLogValueAxis* m_x = nullptr;
    QLogValueAxis* m_y = nullptr;
    QGraphicsTextItem* m_caption = nullptr;
    QStringList m_captionForms;  ///< the whole text under the plot, then shorter forms
    std::vector<mosaic::RealityCase> m_userCases;
    std::vector<mosaic::RealityRow> m_userRows;
    mosaic::RealitySummary m_userSummary;
    QString m_userStack;
    QStringList m_userProblems;
    QString m_calibrationNote;
    QPushButton* m_calibrate = nullptr;
};

}  // namespace tandem::ui
