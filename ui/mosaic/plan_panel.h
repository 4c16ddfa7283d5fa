#pragma once
// The MoE workspace's "Plan" page: the full plan of the cluster-optimal model, the selected
// candidate or an imported model on the cluster, as `tandem-cli plan` reports it (one
// mosaic::PlanReport, mosaic/plan_report.h): tokens/s per GPU, iteration time, MFU and model
// TFLOP/s per GPU, days to the token target, the step-time breakdown and the memory of each
// pipeline stage against usable memory, and its Megatron-LM launch script.
#include <QWidget>
#include <optional>
#include <vector>

#include "mosaic/plan_report.h"
#include "ui/mosaic/plan_subject.h"

class QComboBox;
class QGridLayout;
class QLabel;
class QPushButton;

namespace tandem::ui {

class StageMemoryTable;
class StepBreakdownView;

/// Shows one PlanSubject at a time (a combo box lists them); every figure is read from the
/// subject's PlanReport (mosaic::runPlan), none is computed here.
class PlanPanel : public QWidget {
    Q_OBJECT
public:
    /// The figures of the panel, in display order (figureText).
    enum class Figure {
        Cluster,
        Layout,
        TokensPerGpu,
        Iteration,
        Mfu,
        ModelTflops,
        DaysToTarget,
        Count
    };

    explicit PlanPanel(QWidget* parent = nullptr);
    /// Replaces the list; keeps the subject of the same name when there is one, else the first.
    void setSubjects(const std::vector<PlanSubject>& subjects);
    /// Clears the list and shows `why` instead of figures.
    void clearSubjects(const QString& why);
    /// Shows subject `index` of the list (runs its plan).
    void showSubject(int index);
    int currentSubject() const;
    /// The report shown; nullopt when the current subject has no plan.
    const std::optional<mosaic::PlanReport>& report() const { return m_report; }
    /// The text of `f` as shown ("" when no plan is shown).
    QString figureText(Figure f) const;
    /// planReportMegatron of the report shown: the launch script, `tandem-cli plan --emit
    /// megatron`'s bytes.
    QString megatronText() const;
    /// Compares what is shown with `pinned` (a report kept by View > Pin for comparison;
    /// nullopt ends the comparison): each figure gets its change against the pinned plan's
    /// ("+4.1 % vs pinned"), the step breakdown a "pinned" bar under this plan's, the memory
    /// caption the change of peak memory per GPU.
    void setPinned(std::optional<mosaic::PlanReport> pinned);
    const std::optional<mosaic::PlanReport>& pinned() const { return m_pinned; }
    /// Puts megatronText() on the clipboard (the "Copy launch script" button).
    void copyMegatronArguments();
    /// Writes megatronText() to `path` through fileio::writeFileAtomic, executable; false with the
    /// user-facing message in `error` on failure (nothing shown; "Save as .sh..." shows it).
    bool saveMegatronScript(const QString& path, QString* error) const;

    /// The least size: the workspace's pages take the height of their tallest size hint, and
    /// this page fills whatever room they get (its figures scroll in their column).
    QSize sizeHint() const override { return minimumSizeHint(); }

    QComboBox* subjectBox() const { return m_subjectBox; }
    QPushButton* copyButton() const { return m_copy; }
    QPushButton* saveButton() const { return m_save; }
    StepBreakdownView* breakdownView() const { return m_breakdown; }
    StageMemoryTable* stageTable() const { return m_stages; }
    /// The line on the co-running jobs (PlanRequest::coRunNote), hidden without them.
    QLabel* coRunLabel() const { return m_coRun; }

private:
    void showReport();
    void saveAs();

    std::vector<PlanSubject> m_subjects;
    std::optional<mosaic::PlanReport> m_report;
    std::optional<mosaic::PlanReport> m_pinned;
    QComboBox* m_subjectBox;
    QPushButton* m_copy;
    QPushButton* m_save;
    QLabel* m_figures[int(Figure::Count)];
    QLabel* m_note;
    QLabel* m_coRun;  ///< the request's coRunNote (hidden when empty)
    QLabel* m_memoryCaption;
    StepBreakdownView* m_breakdown;
    StageMemoryTable* m_stages;
};

}  // namespace tandem::ui
