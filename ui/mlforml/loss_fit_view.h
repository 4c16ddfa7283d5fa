#pragma once
// An imported training loss log and the progress curve fitted to it,
// L(S) = L_inf + A (S + S0)^(-alpha) [MODEL.md A4; 2608.06046 Sec. 2.3; io::fitLossCurve].
#include <QWidget>
#include <optional>

#include "io/loss_fit.h"
#include "io/loss_log.h"
#include "ui/widgets/chart_view.h"

class QLabel;
class QLineSeries;
class QPushButton;
class QScatterSeries;
class QValueAxis;

namespace tandem::ui {

/// Chart of the logged series (optimizer step, loss) and the fitted curve over the logged steps.
/// The fitted series is drawn as points (decimated to the plot width), other series as thin
/// lines, the fit as a solid line.
class LossFitView : public ChartView {
    Q_OBJECT
public:
    explicit LossFitView(QWidget* parent = nullptr);
    void setData(const io::LossLog& log, const io::LossFit& fit, const QString& label);
    bool hasData() const { return m_log.has_value(); }
    /// Forgets the log (the page is hidden; exports skip the chart).
    void clearData() { m_log.reset(); }
    /// The fitted curve's series (tests).
    QLineSeries* fitSeries() const { return m_fit; }
    /// The logged (fitted) series' points (tests: legend name).
    QScatterSeries* pointSeries() const { return m_points; }
    /// Empty when the fit is drawn; else why it cannot be (shown under the title instead of a
    /// legend entry, e.g. non-finite parameters or logged steps without a range).
    QString fitNote() const { return m_note; }
    QString csv() const override;
    void applyTheme() override;

private:
    void rebuild() override;
    std::optional<io::LossLog> m_log;
    io::LossFit m_fitParams;
    QString m_label;
    QString m_note;
    QList<QLineSeries*> m_others;
    QScatterSeries* m_points = nullptr;
    QLineSeries* m_fit = nullptr;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};

/// The loss-log page: the chart, the fitted parameters with standard errors and the RMSE, and a
/// "Use fit as progress curve" button.
class LossFitPanel : public QWidget {
    Q_OBJECT
public:
    explicit LossFitPanel(QWidget* parent = nullptr);
    void setData(const io::LossLog& log, const io::LossFit& fit, const QString& label);
    LossFitView* view() const { return m_view; }
    QLabel* summary() const { return m_summary; }
    QPushButton* useButton() const { return m_use; }
    const io::LossFit& fit() const { return m_fit; }
    /// Enables the button only while the scenario has an ml_for_ml part (`usable`) and the fit
    /// is usable (fitUsable(); else the reasons are the button's tooltip and under the summary).
    void setUsable(bool usable, const QString& why = {});
    /// io::LossFit::usable (converged, no warnings) and the fit can be drawn
    /// (LossFitView::fitNote() empty).
    bool fitUsable() const { return m_fitProblem.isEmpty(); }
    /// Why the fit is not usable (the drawing note and io::LossFit::warnings); empty if usable.
    QString fitProblem() const { return m_fitProblem; }

signals:
    /// The user asked to replace the scenario's progress curve by this fit.
    void useFitRequested(const tandem::io::LossFit& fit);

private:
    LossFitView* m_view;
    QLabel* m_summary;
    QPushButton* m_use;
    io::LossFit m_fit;
    bool m_scenarioUsable = true;
    QString m_fitProblem;
};

/// Legend name of a logged loss column: "logged loss" for `loss`, "logged val_loss" for a name
/// that says loss already, "logged <name> loss" otherwise (never "loss loss").
QString loggedSeriesName(const std::string& column);

/// "3.28 +- 0.01" with both numbers at the precision the error supports (NaN error: value only).
QString formatWithError(double value, double error);

}  // namespace tandem::ui
