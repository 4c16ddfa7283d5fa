// MainWindow: File > Import and drag-and-drop of user files (model configs, nccl-tests logs,
// loss logs, load traces). Detection and validation
// live in file_import.cpp; this file routes a validated import to the document and workspaces.
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStatusBar>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "mlforml/background_trace.h"
#include "mlforml/progress.h"
#include "mosaic/layout_form.h"
#include "mosaic/stack_file.h"
#include "mosaic/user_runs.h"
#include "scenario/scenario_files.h"
#include "ui/mlforml/loss_fit_view.h"
#include "ui/mlforml/network_workspace.h"
#include "ui/mosaic/imported_model.h"
#include "ui/mosaic/log_run_dialog.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/mosaic/optimum_card.h"
#include "ui/shell/file_import.h"
#include "ui/shell/main_window.h"
#include "ui/shell/scenario_document.h"
#include "ui/widgets/count_label.h"
#include "ui/widgets/diagnostics_dialog.h"
#include "ui/widgets/file_dialog.h"

namespace tandem::ui {

namespace {
/// `s` through the validation layer, as `doc` would read it back (what a save -> open would
/// report): its file references resolved against the document's folder by the core's one
/// resolver, nccl-tests logs imported. Problems in `diag`; nullopt when any.
std::optional<Scenario> revalidated(const Scenario& s, const ScenarioDocument& doc,
                                    Diagnostics& diag) {
    const std::string folder = scenarioFolder(QFile::encodeName(doc.filePath()).toStdString());
    return parseScenario(scenarioToJson(s), diag, folder);
}

/// The same, keeping only the verdict; problems are added to `diag`.
bool validScenario(const Scenario& s, const ScenarioDocument& doc, Diagnostics& diag) {
    Diagnostics check(diag.file());
    revalidated(s, doc, check);
    for (const Issue& i : check.items()) diag.error(i.path, i.message);
    return check.ok();
}
}  // namespace

void MainWindow::showDiagnostics(const QString& path, const Diagnostics& diag) {
    auto* dialog = new DiagnosticsDialog(path, diag, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QObject::destroyed, this, [this, dialog]() {
        if (m_lastDialog == dialog) m_lastDialog = nullptr;
    });
    m_lastDialog = dialog;
    dialog->open();  // window-modal, non-blocking
}

void MainWindow::importDialog() {
    const QString path =
        openFileName(this, tr("Import"), QFileInfo(m_doc->filePath()).path(),
                     tr("Model configs, nccl-tests logs, loss logs, training logs, "
                        "load traces (*.json *.txt *.log *.csv *.tsv);;All files "
                        "(*)"));
    if (!path.isEmpty()) importFile(path);
}

bool MainWindow::importFile(const QString& path, DenseModelTarget dense) {
    Diagnostics diag(QDir::toNativeSeparators(path).toStdString());
    const std::optional<ImportedFile> f = readImport(path, diag);
    if (!f || !applyImport(*f, dense, diag)) {
        if (!diag.ok()) showDiagnostics(path, diag);
        return false;
    }
    return true;
}

bool MainWindow::applyImport(const ImportedFile& f, DenseModelTarget dense, Diagnostics& diag) {
    switch (f.kind) {
        case ImportKind::ModelConfig: {
            const io::ModelImport& m = *f.model;
            const bool isDense = m.geometry.experts == 0 || m.geometry.moeLayers == 0;
            DenseModelTarget target = isDense ? dense : DenseModelTarget::Frontier;
            if (target == DenseModelTarget::Ask) {
                QMessageBox box(
                    QMessageBox::Question, tr("Import dense model"),
                    tr("%1 is a dense model (%2 parameters). Use it as the ML-for-ML foreground "
                       "job "
                       "(its gradient is %2 values per sync), as the model of each background job "
                       "(a BF16 gradient of %2 values), or show it on the MoE loss-vs-sparsity "
                       "chart "
                       "(S = 0)?")
                        .arg(f.label, formatCount(double(m.counts.total))),
                    QMessageBox::Cancel, this);
                QPushButton* fg = box.addButton(tr("Foreground job"), QMessageBox::AcceptRole);
                QPushButton* bg = box.addButton(tr("Background jobs"), QMessageBox::AcceptRole);
                QPushButton* fr = box.addButton(tr("MoE chart"), QMessageBox::AcceptRole);
                box.setDefaultButton(fg);
                box.exec();
                if (box.clickedButton() == fg)
                    target = DenseModelTarget::Foreground;
                else if (box.clickedButton() == bg)
                    target = DenseModelTarget::Background;
                else if (box.clickedButton() == fr)
                    target = DenseModelTarget::Frontier;
                else
                    return false;  // cancelled: nothing changes, no diagnostics
            }
            if (target == DenseModelTarget::Foreground || target == DenseModelTarget::Background) {
                const bool fgJob = target == DenseModelTarget::Foreground;
                if (!m_doc->scenario().mlForMl) {
                    diag.error(
                        "$.ml_for_ml",
                        fgJob ? "the scenario has no ml_for_ml section to take a foreground job"
                              : "the scenario has no ml_for_ml section to take a background job");
                    return false;
                }
                Scenario s = m_doc->scenario();
                if (fgJob) {
                    s.mlForMl->foregroundModel = f.label.toStdString();
                    s.mlForMl->foregroundParameters = double(m.counts.total);
                } else {
                    // A data-parallel job all-reduces its BF16 gradient: 2 bytes per parameter.
                    s.mlForMl->backgroundJob.model = f.label.toStdString();
                    s.mlForMl->backgroundJob.gradientBytes = 2.0 * double(m.counts.total);
                }
                if (!validScenario(s, *m_doc, diag)) return false;
                m_doc->setMlForMl(*s.mlForMl);
                m_network->setParams(s.mlForMl);
                setCurrentWorkspace(0);
                statusBar()->showMessage(
                    (fgJob ? tr("%1 is the foreground job: %2 gradient values per sync")
                           : tr("Each background job is %1: %2 gradient values (BF16) per sync"))
                        .arg(f.label, formatCount(double(m.counts.total))),
                    6000);
                return true;
            }
            if (!m_doc->scenario().mosaic) {
                diag.error("$.mosaic",
                           "the scenario has no mosaic section (no cluster to cost the model on)");
                return false;
            }
            const ImportedModel im = mosaicGeometry(m, f.label);
            if (im.geometry.layers < 1 || im.geometry.dModel < 1 || im.geometry.nHead < 1 ||
                !(im.geometry.nTot > 0)) {
                diag.error("$", "the config has no usable geometry (layers, hidden size, heads)");
                return false;
            }
            // The scenario keeps the model by its file (mosaic.imported_model_files); a file
            // of the same label replaces the one shown before, as the chart does.
            Scenario s = m_doc->scenario();
            auto& files = s.mosaic->importedModelFiles;
            files.erase(std::remove_if(files.begin(), files.end(),
                                       [&](const std::string& x) {
                                           return x == f.path.toStdString() ||
                                                  importLabel(QString::fromStdString(x)) == f.label;
                                       }),
                        files.end());
            files.push_back(f.path.toStdString());
            if (!validScenario(s, *m_doc, diag)) return false;
            m_doc->setMosaic(*s.mosaic);
            m_moe->showEnvelope();
            m_moe->addImportedModel(im);
            m_moe->pages()->setCurrentIndex(0);
            setCurrentWorkspace(1);
            statusBar()->showMessage(tr("Imported %1: S = %2, costed on the scenario's cluster")
                                         .arg(f.label)
                                         .arg(m.counts.sparsity, 0, 'f', 3),
                                     6000);
            return true;
        }
        case ImportKind::NcclTests:
            // The scenario keeps the log shown (mosaic.shown_nccl_tests_file) when it has a
            // mosaic section; the costing still uses only mosaic.nccl_tests_files.
            if (m_doc->scenario().mosaic) {
                Scenario s = m_doc->scenario();
                s.mosaic->shownNcclTestsFile = f.path.toStdString();
                if (!validScenario(s, *m_doc, diag)) return false;
                m_doc->setMosaic(*s.mosaic);
                m_moe->showEnvelope();
            }
            m_moe->setNcclImport(*f.nccl, f.label, f.path);
            setCurrentWorkspace(1);
            statusBar()->showMessage(
                tr("Imported %1: %2")
                    .arg(f.label,
                         countLabel(static_cast<qint64>(f.nccl->curves.size()),
                                    tr("bus-bandwidth curve"), tr("bus-bandwidth curves"))),
                6000);
            return true;
        case ImportKind::LossLog:
            // The scenario keeps the log (ml_for_ml.loss_log_file) when it has an ml_for_ml
            // section; the fit replaces the progress curve only through "Use fit".
            if (m_doc->scenario().mlForMl) {
                Scenario s = m_doc->scenario();
                s.mlForMl->lossLogFile = f.path.toStdString();
                if (!validScenario(s, *m_doc, diag)) return false;
                m_doc->setMlForMl(*s.mlForMl);
                m_network->setParams(s.mlForMl);
            }
            m_network->setLossImport(*f.lossLog, *f.lossFit, f.label);
            m_network->lossFitPanel()->setUsable(m_doc->scenario().mlForMl.has_value(),
                                                 tr("The scenario has no ml_for_ml section."));
            setCurrentWorkspace(0);
            statusBar()->showMessage(
                tr("Imported %1: fitted, RMSE %2").arg(f.label).arg(f.lossFit->rmse, 0, 'g', 3),
                6000);
            return true;
        case ImportKind::LoadTrace: {
            if (!m_doc->scenario().mlForMl) {
                diag.error("$.ml_for_ml",
                           "the scenario has no ml_for_ml section to take a background trace");
                return false;
            }
            Scenario s = m_doc->scenario();
            s.mlForMl->traceFile = f.path.toStdString();
            s.mlForMl->scenario = mlforml::ScenarioKind::Trace;
            if (!validScenario(s, *m_doc, diag)) return false;
            // The engine's limits under this scenario's network (length, mean load).
            if (!mlforml::checkTraceReplay(*s.mlForMl, *f.trace, f.path.toStdString(),
                                           "$.ml_for_ml.trace_file", diag))
                return false;
            m_doc->setMlForMl(*s.mlForMl);
            m_network->setParams(s.mlForMl);
            setCurrentWorkspace(0);
            statusBar()->showMessage(tr("Background load from %1 (scenario \"trace\")").arg(f.path),
                                     6000);
            return true;
        }
        case ImportKind::TrainLog: {
            // A log rarely states everything a prediction needs: the dialog asks for the rest,
            // prefilled from the scenario and the current plan, and imports on Import.
            if (!m_doc->scenario().mosaic) {
                diag.error("$.mosaic", "the scenario has no mosaic section to take your run");
                return false;
            }
            const std::optional<mosaic::Candidate> shown = m_moe->shownCandidate();
            const QString layout =
                shown ? QString::fromStdString(mosaic::layoutString(shown->plan)) : QString();
            auto* dialog = new LogRunDialog(
                prefillUserRun(*f.trainLog, f.path, *m_doc->scenario().mosaic, layout), *f.trainLog,
                this);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            m_lastLogRunDialog = dialog;
            connect(dialog, &QObject::destroyed, this, [this, dialog]() {
                if (m_lastLogRunDialog == dialog) m_lastLogRunDialog = nullptr;
            });
            // Import imports and closes; a refused run keeps the dialog open, with everything
            // typed and the problems shown in it.
            dialog->setImporter([this](const mosaic::UserRun& run, QString* problems) {
                Diagnostics d;
                if (importUserRun(run, d)) return true;
                *problems = QString::fromStdString(d.str());
                return false;
            });
            dialog->open();  // window-modal, non-blocking
            return true;
        }
        case ImportKind::StackFile: {
            // The stack is kept whole in the scenario (mosaic.stack as an object), so saving
            // keeps it and reopening shows it, whether or not the file stays.
            if (!m_doc->scenario().mosaic) {
                diag.error("$.mosaic", "the scenario has no mosaic section to take a stack");
                return false;
            }
            Scenario s = m_doc->scenario();
            s.mosaic->stack = *f.stack;
            if (!validScenario(s, *m_doc, diag)) return false;
            m_doc->setMosaic(*s.mosaic);
            m_moe->showEnvelope();
            setCurrentWorkspace(1);
            QString message = tr("Training stack %1: %2")
                                  .arg(QString::fromStdString(f.stack->name),
                                       f.stack->calibration.runs > 0
                                           ? QString::fromStdString(
                                                 mosaic::calibrationSentence(f.stack->calibration))
                                           : QString::fromStdString(f.stack->description));
            // A file of an earlier Tandem (a retired constant): read, and said what was done.
            for (const std::string& n : f.notes)
                message += tr(". Warning: %1").arg(QString::fromStdString(n));
            statusBar()->showMessage(message, f.notes.empty() ? 8000 : 30000);
            return true;
        }
    }
    return false;
}

bool MainWindow::importUserRun(const mosaic::UserRun& run, Diagnostics& diag) {
    if (!m_doc->scenario().mosaic) {
        diag.error("$.mosaic", "the scenario has no mosaic section to take your run");
        return false;
    }
    const std::optional<mosaic::RealityCase> c =
        mosaic::userRunCase(run, mosaic::builtinStack("megatron-core"), diag);
    if (!c) return false;
    Scenario s = m_doc->scenario();
    auto& runs = s.mosaic->userRuns;
    const auto same = std::find_if(runs.begin(), runs.end(), [&](const mosaic::UserRun& u) {
        return u.logFile == run.logFile;
    });
    if (same != runs.end())
        *same = run;
    else
        runs.push_back(run);
    if (!validScenario(s, *m_doc, diag)) return false;
    m_doc->setMosaic(*s.mosaic);
    m_moe->showEnvelope();
    m_moe->pages()->setCurrentIndex(MoeWorkspace::kRealityPage);
    setCurrentWorkspace(1);
    statusBar()->showMessage(
        tr("Imported %1: measured %2 tokens/s per GPU on %3 (yours, on the Reality check page)")
            .arg(QString::fromStdString(c->run.note))
            .arg(c->run.tokensPerSPerGpu, 0, 'f', 0)
            .arg(QString::fromStdString(run.hardware)),
        8000);
    return true;
}

void MainWindow::showScenarioImports() {
    const Scenario& sc = m_doc->scenario();
    std::vector<std::string> files;
    if (sc.mlForMl && !sc.mlForMl->lossLogFile.empty()) files.push_back(sc.mlForMl->lossLogFile);
    if (sc.mosaic) {
        files.insert(files.end(), sc.mosaic->importedModelFiles.begin(),
                     sc.mosaic->importedModelFiles.end());
        if (!sc.mosaic->shownNcclTestsFile.empty()) files.push_back(sc.mosaic->shownNcclTestsFile);
    }
    if (files.empty()) return;
    const int networkPage = m_network->pages()->currentIndex();
    const int moePage = m_moe->pages()->currentIndex();
    QStringList failed;
    for (const std::string& file : files) {
        const QString path = QString::fromStdString(file);
        Diagnostics diag(file);
        const std::optional<ImportedFile> f = readImport(path, diag);
        if (!f) {
            failed << QFileInfo(path).fileName();
            continue;
        }
        switch (f->kind) {
            case ImportKind::ModelConfig:
                m_moe->addImportedModel(mosaicGeometry(*f->model, f->label));
                break;
            case ImportKind::NcclTests:
                m_moe->setNcclImport(*f->nccl, f->label, f->path);
                break;
            case ImportKind::LossLog:
                m_network->setLossImport(*f->lossLog, *f->lossFit, f->label);
                m_network->lossFitPanel()->setUsable(true, QString());
                break;
            case ImportKind::LoadTrace:
                break;  // a trace is the scenario's ml_for_ml.trace_file, shown by its workspace
            case ImportKind::StackFile:
                break;  // a stack is kept whole in the scenario (mosaic.stack)
            case ImportKind::TrainLog:
                break;  // a run is kept in the scenario (mosaic.measured_runs)
        }
    }
    m_network->pages()->setCurrentIndex(networkPage);
    m_moe->pages()->setCurrentIndex(moePage);
    if (!failed.isEmpty())
        statusBar()->showMessage(
            tr("Imported files that no longer import: %1").arg(failed.join(QStringLiteral(", "))),
            8000);
}

void MainWindow::useMeasuredCollectives(bool on, const QString& path) {
    if (!m_doc->scenario().mosaic) return;
    Scenario s = m_doc->scenario();
    auto& files = s.mosaic->ncclTestsFiles;
    const std::string p = path.toStdString();
    files.erase(std::remove(files.begin(), files.end(), p), files.end());
    if (on) files.push_back(p);
    // Through the validation layer, which also imports the curves (hardware.measured).
    Diagnostics check(QFileInfo(path).fileName().toStdString());
    std::optional<Scenario> parsed = revalidated(s, *m_doc, check);
    if (!parsed || !parsed->mosaic) {
        showDiagnostics(path, check);
        const QSignalBlocker block(m_moe->ncclUseBox());
        m_moe->ncclUseBox()->setChecked(!on);
        return;
    }
    m_doc->setMosaic(*parsed->mosaic);
    m_moe->showEnvelope();
    statusBar()->showMessage(
        on ? tr("The MoE search now costs collectives with %1").arg(QFileInfo(path).fileName())
           : tr("The MoE search costs collectives analytically again"),
        6000);
}

void MainWindow::applyLossFit(const io::LossFit& fit) {
    if (!m_doc->scenario().mlForMl) return;
    Scenario s = m_doc->scenario();
    mlforml::applyFittedLossCurve(*s.mlForMl, fit.lInf, fit.a, fit.alpha, fit.s0);
    Diagnostics diag("loss fit");
    if (!validScenario(s, *m_doc, diag)) {
        showDiagnostics(tr("loss fit"), diag);
        return;
    }
    m_doc->setMlForMl(*s.mlForMl);
    m_network->setParams(s.mlForMl);
    statusBar()->showMessage(tr("Progress curve replaced by the fit (L_inf %1, alpha %2)")
                                 .arg(fit.lInf, 0, 'f', 3)
                                 .arg(fit.alpha, 0, 'f', 3),
                             6000);
}

}  // namespace tandem::ui
