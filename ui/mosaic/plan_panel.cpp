#include "ui/mosaic/plan_panel.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>
#include <cmath>

#include "mosaic/plan.h"
#include "mosaic/report.h"
#include "save_file.h"
#include "ui/mosaic/layout_cells.h"
#include "ui/mosaic/optimum_card.h"
#include "ui/mosaic/stage_memory_table.h"
#include "ui/mosaic/step_breakdown_view.h"
#include "ui/widgets/field_row.h"
#include "ui/widgets/file_dialog.h"
#include "ui/widgets/units.h"
#include "ui/widgets/workspace_layout.h"

namespace tandem::ui {

namespace {

/// A convention of conventionsJson() (the words `tandem-cli plan --json` names it with).
QString convention(const char* key) {
    return QString::fromStdString(mosaic::conventionsJson().at(key).get<std::string>());
}

}  // namespace

PlanPanel::PlanPanel(QWidget* parent)
    : QWidget(parent),
      m_subjectBox(new QComboBox(this)),
      m_copy(new QPushButton(tr("Copy launch script"), this)),
      m_save(new QPushButton(tr("Save as .sh\u2026"), this)),
      m_note(new QLabel(this)),
      m_coRun(new QLabel(this)),
      m_memoryCaption(new QLabel(this)),
      m_breakdown(new StepBreakdownView(this, QStringLiteral("mosaic-plan-step-breakdown"))),
      m_stages(new StageMemoryTable(this)) {
    setObjectName(QStringLiteral("planPanel"));
    auto* top = new QHBoxLayout;
    auto* of = new QLabel(tr("Plan of:"), this);
    top->addWidget(of);
    m_subjectBox->setObjectName(QStringLiteral("planSubject"));
    m_subjectBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_subjectBox->setToolTip(
        tr("The model whose plan is shown: the cluster-optimal model, the "
           "candidate selected in the table or an imported model"));
    top->addWidget(m_subjectBox);
    top->addStretch();
    m_copy->setObjectName(QStringLiteral("planCopyMegatron"));
    m_copy->setToolTip(
        tr("Copy the Megatron-LM launch script of this plan (a bash script: a header naming the "
           "model, hardware, stack and predictions, then torchrun pretrain_gpt.py with the model, "
           "layout, batch, recompute and precision flags): the text of `tandem-cli plan --emit "
           "megatron`"));
    m_save->setObjectName(QStringLiteral("planSaveMegatron"));
    m_save->setToolTip(tr("Save the same launch script as an executable .sh file"));
    top->addWidget(m_copy);
    top->addWidget(m_save);

    auto* figures = new QWidget(this);
    auto* grid = new QGridLayout(figures);
    grid->setContentsMargins(0, 0, 0, 0);
    const QString names[int(Figure::Count)] = {
        tr("Model and cluster"),
        tr("Layout"),
        tr("Tokens/s per GPU"),
        tr("Iteration time"),
        tr("MFU (6 N_act per token over the dense BF16 peak)"),
        tr("Model TFLOP/s per GPU (Megatron's model-FLOPs count)"),
        tr("Days to the token target")};
    const QString tips[int(Figure::Count)] = {
        tr("The model (layers L, width d, experts E, top-k K, expert split G; active and total "
           "parameters, sparsity S), then GPUs, hardware, training stack and GEMM precision"),
        tr("Tensor, expert, pipeline, context and data parallel degrees, micro-batch, "
           "checkpointing, and the global batch (sequences x tokens) this layout runs"),
        convention("tokens_per_s_per_gpu"),
        tr("t_iter after chi_sys [2608.10605 Eq. 15]"),
        convention("mfu"),
        convention("model_tflops_per_s_per_gpu"),
        tr("Wall-clock days to train the model's tokens D (Eq. 25, capped at TPP_max N_act) at "
           "this plan's tokens/s and the envelope's goodput")};
    QList<FieldRow> rows;
    for (int i = 0; i < int(Figure::Count); ++i) rows.append({noWidow(names[i]), {}, tips[i]});
    const QList<QLabel*> values = addFieldRows(grid, rows, 0, QStringLiteral("planFigure"));
    for (int i = 0; i < int(Figure::Count); ++i) m_figures[i] = values[i];
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    m_note->setObjectName(QStringLiteral("planNote"));
    m_note->setWordWrap(true);
    grid->addWidget(m_note, int(Figure::Count), 0, 1, 2);
    m_coRun->setObjectName(QStringLiteral("planCoRunNote"));
    m_coRun->setWordWrap(true);
    m_coRun->setToolTip(
        tr("What the co-running jobs (mosaic.background) do to this job on the shared fabric: "
           "the links their routes share with its collectives under the placement, and the "
           "largest slowdown of its collectives [MODEL.md A7]"));
    m_coRun->hide();
    grid->addWidget(m_coRun, int(Figure::Count) + 1, 0, 1, 2);
    grid->setRowStretch(int(Figure::Count) + 2, 1);

    // One line (no height-for-width): the page's height never depends on its width.
    m_memoryCaption->setObjectName(QStringLiteral("planMemoryCaption"));
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addLayout(top);
    // The figures scroll inside their column when the page is short (an 800x600 window), so
    // that their wrapped labels never raise the height the workspace's pages need.
    auto* figuresScroll = new QScrollArea(this);
    figuresScroll->setObjectName(QStringLiteral("planFiguresScroll"));
    figuresScroll->setFrameShape(QFrame::NoFrame);
    figuresScroll->setWidgetResizable(true);
    figuresScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    figuresScroll->setWidget(figures);
    figuresScroll->viewport()->setAutoFillBackground(false);
    figures->setAutoFillBackground(false);
    l->addWidget(weightedSplitter(Qt::Horizontal, this, {figuresScroll, m_breakdown}, {3, 2}), 1);
    l->addWidget(m_memoryCaption);
    l->addWidget(m_stages);  // as tall as its rows

    connect(m_subjectBox, qOverload<int>(&QComboBox::activated), this, &PlanPanel::showSubject);
    connect(m_copy, &QPushButton::clicked, this, &PlanPanel::copyMegatronArguments);
    connect(m_save, &QPushButton::clicked, this, &PlanPanel::saveAs);
    clearSubjects(tr("No plan yet."));
}

void PlanPanel::setSubjects(const std::vector<PlanSubject>& subjects) {
    const QString current = m_subjectBox->currentText();
    m_subjects = subjects;
    m_subjectBox->clear();
    int keep = 0;
    for (int i = 0; i < int(subjects.size()); ++i) {
        m_subjectBox->addItem(subjects[size_t(i)].name);
        if (subjects[size_t(i)].name == current) keep = i;
    }
    if (subjects.empty()) {
        clearSubjects(tr("No model to plan on this cluster."));
        return;
    }
    showSubject(keep);
}

void PlanPanel::clearSubjects(const QString& why) {
    m_subjects.clear();
    m_subjectBox->clear();
    m_report.reset();
    m_note->setText(why);
    showReport();
}

void PlanPanel::showSubject(int index) {
    if (index < 0 || index >= int(m_subjects.size())) return;
    m_subjectBox->setCurrentIndex(index);
    const PlanSubject& s = m_subjects[size_t(index)];
    m_report.reset();
    if (s.request) m_report = mosaic::runPlan(*s.request);
    m_note->setText(
        s.request ? QString()
                  : QString::fromStdString(mosaic::noFeasibleLayoutText(s.why.toStdString())));
    showReport();
}

int PlanPanel::currentSubject() const { return m_subjectBox->currentIndex(); }

QString PlanPanel::figureText(Figure f) const { return plainSpaces(m_figures[int(f)]->text()); }

QString PlanPanel::megatronText() const {
    return m_report ? QString::fromStdString(mosaic::planReportMegatron(*m_report)) : QString();
}

void PlanPanel::copyMegatronArguments() {
    const QString text = megatronText();
    if (!text.isEmpty()) QApplication::clipboard()->setText(text);
}

bool PlanPanel::saveMegatronScript(const QString& path, QString* error) const {
    const QString text = megatronText();
    if (text.isEmpty()) {
        if (error) *error = tr("%1: no feasible plan to save; nothing was written").arg(path);
        return false;
    }
    return fileio::writeFileAtomic(path, text.toUtf8(), error, /*executable=*/true);
}

void PlanPanel::saveAs() {
    const QString path =
        saveFileName(this, tr("Save Megatron-LM launch script"), QStringLiteral("megatron-plan.sh"),
                     tr("Shell script (*.sh)"));
    if (path.isEmpty()) return;
    QString error;
    if (!saveMegatronScript(path, &error)) QMessageBox::warning(this, tr("Save failed"), error);
}

void PlanPanel::setPinned(std::optional<mosaic::PlanReport> pinned) {
    m_pinned = std::move(pinned);
    showReport();
}

namespace {
/// The first layout of `r` when it is feasible, else nullptr.
const mosaic::PlanLayout* feasibleFirst(const std::optional<mosaic::PlanReport>& r) {
    if (!r || r->layouts.empty() || !r->layouts.front().eval.feasible) return nullptr;
    return &r->layouts.front();
}

/// " (+4.1 % vs pinned)" for `now` against `then`; " (same as pinned)" within 0.05 %; empty
/// when either is not a positive finite number.
QString versusPinned(double now, double then) {
    if (!(now > 0) || !(then > 0) || !std::isfinite(now) || !std::isfinite(then)) return {};
    const double change = 100.0 * (now / then - 1.0);
    if (std::abs(change) < 0.05) return PlanPanel::tr(" (same as pinned)");
    return PlanPanel::tr(" (%1%2 % vs pinned)")
        .arg(change > 0 ? QStringLiteral("+") : QString())
        .arg(change, 0, 'f', 1);
}
}  // namespace

void PlanPanel::showReport() {
    const bool shown = m_report && !m_report->layouts.empty();
    const mosaic::PlanLayout* l = shown ? &m_report->layouts.front() : nullptr;
    const bool feasible = l && l->eval.feasible;
    m_copy->setEnabled(feasible);
    m_save->setEnabled(feasible);
    const QString coRun =
        m_report ? QString::fromStdString(m_report->request.coRunNote) : QString();
    m_coRun->setText(coRun);
    m_coRun->setVisible(!coRun.isEmpty());
    if (!l) {
        for (QLabel* f : m_figures) f->clear();
        m_breakdown->setData({});
        m_stages->setStages({}, 1);
        m_memoryCaption->setText(tr("Memory per GPU by pipeline stage, GB"));
        return;
    }
    const mosaic::Cluster& c = m_report->request.cluster;
    const mosaic::PlanEval& e = l->eval;
    const auto set = [&](Figure f, const QString& text) { m_figures[int(f)]->setText(text); };
    const mosaic::Geometry& g = m_report->request.geometry;
    set(Figure::Cluster, tr("%1 (%2, %3, %4) on %5 GPUs (%6), %7, %8")
                             .arg(QString::fromStdString(mosaic::geometryLabel(g)))
                             .arg(unbroken(tr("N_act %1 B").arg(g.nAct / 1e9, 0, 'f', 1)),
                                  unbroken(tr("N_tot %1 B").arg(g.nTot / 1e9, 0, 'f', 1)),
                                  unbroken(tr("S %1").arg(g.sparsity, 0, 'f', 3)))
                             .arg(c.devices)
                             .arg(unbroken(QString::fromStdString(c.hardware.name)),
                                  unbroken(QString::fromStdString(c.stack.name)),
                                  QString::fromLatin1(mosaic::precisionName(c.precision))));
    // Each degree with its figure on one line ("mb 4", never "mb" and "4" apart).
    QStringList degrees = QString::fromStdString(planLabel(l->plan)).split(QStringLiteral(", "));
    for (QString& d : degrees) d = unbroken(d);
    set(Figure::Layout, noWidow(tr("%1; batch %2 x %3 tokens")
                                    .arg(degrees.join(QStringLiteral(", ")))
                                    .arg(l->globalBatch)
                                    .arg(c.seqLen)));
    if (!feasible) {
        for (Figure f : {Figure::TokensPerGpu, Figure::Iteration, Figure::Mfu, Figure::ModelTflops,
                         Figure::DaysToTarget})
            set(f, tr("-"));
        m_note->setText(tr("Infeasible: %1").arg(QString::fromStdString(e.reason)));
    } else {
        const mosaic::PlanLayout* pin = feasibleFirst(m_pinned);
        const auto vs = [&](double now, double (*of)(const mosaic::PlanLayout&)) {
            return pin ? versusPinned(now, of(*pin)) : QString();
        };
        set(Figure::TokensPerGpu, QString::number(e.tokensPerSPerGpu, 'f', 0) +
                                      vs(e.tokensPerSPerGpu, [](const mosaic::PlanLayout& p) {
                                          return p.eval.tokensPerSPerGpu;
                                      }));
        set(Figure::Iteration,
            tr("%1 s").arg(e.iteration_s, 0, 'f', 3) +
                vs(e.iteration_s, [](const mosaic::PlanLayout& p) { return p.eval.iteration_s; }));
        set(Figure::Mfu, tr("%1 %").arg(100 * e.mfu, 0, 'f', 1) +
                             vs(e.mfu, [](const mosaic::PlanLayout& p) { return p.eval.mfu; }));
        set(Figure::ModelTflops, QString::number(e.modelTflopsPerSPerGpu, 'f', 1) +
                                     vs(e.modelTflopsPerSPerGpu, [](const mosaic::PlanLayout& p) {
                                         return p.eval.modelTflopsPerSPerGpu;
                                     }));
        set(Figure::DaysToTarget,
            std::isfinite(l->daysToTarget)
                ? tr("%1 days for %2 tokens at goodput %3")
                          .arg(l->daysToTarget, 0, 'f', 1)
                          .arg(formatCount(m_report->request.tokenTarget))
                          .arg(m_report->request.goodput, 0, 'g', 3) +
                      vs(l->daysToTarget,
                         [](const mosaic::PlanLayout& p) { return p.daysToTarget; })
                : tr("no token target"));
        // What the costing assumes hidden, how the first layout's layers are split where PP
        // does not divide them, and whose runs a calibrated stack's constants come from. Where
        // the network is extrapolated the workspace's status line under every page says
        // (networkExtrapolation of the same cluster), so it is not repeated here.
        QStringList notes{QString::fromStdString(m_report->overlapNote)};
        if (!m_report->pipelineNote.empty())
            notes << QString::fromStdString(m_report->pipelineNote);
        if (!m_report->stackNote.empty()) notes << QString::fromStdString(m_report->stackNote);
        m_note->setText(notes.join(QLatin1Char('\n')));
    }
    QList<QPair<QString, mosaic::Breakdown>> bars;
    if (feasible) bars.append({tr("this plan"), e.breakdown});
    if (feasible && feasibleFirst(m_pinned))
        bars.append({tr("pinned"), feasibleFirst(m_pinned)->eval.breakdown});
    m_breakdown->setData(bars);
    m_breakdown->setFittingTitle(
        {tr("Step time, %1").arg(QString::fromStdString(planLabel(l->plan))),
         tr("Step time per iteration")});
    const double usable = c.hardware.memoryBytes / 1e9;
    m_stages->setStages(l->stages, usable);
    const mosaic::PlanLayout* pinnedLayout = feasibleFirst(m_pinned);
    m_memoryCaption->setText(
        tr("Memory per GPU by pipeline stage, GB (%1 usable)").arg(usable, 0, 'f', 0) +
        (pinnedLayout && feasible ? tr("; peak %1 GB, pinned plan %2 GB")
                                        .arg(e.memoryGB, 0, 'f', 1)
                                        .arg(pinnedLayout->eval.memoryGB, 0, 'f', 1)
                                  : QString()));
    m_memoryCaption->setToolTip(tr("Peak memory per GPU %1 GB of %2 GB usable: the fullest stage")
                                    .arg(e.memoryGB, 0, 'f', 1)
                                    .arg(usable, 0, 'f', 0));
}

}  // namespace tandem::ui
