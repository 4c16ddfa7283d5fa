// MoeWorkspace: the user's runs imported from training logs (mosaic.measured_runs) on the
// reality check, and "Calibrate to these runs".
#include <QLabel>

#include "mosaic/calibrate.h"
#include "mosaic/stack_file.h"
#include "mosaic/user_runs.h"
#include "ui/mosaic/moe_controls.h"
#include "ui/mosaic/moe_workspace.h"
#include "ui/mosaic/reality_view.h"

namespace tandem::ui {

mosaic::Stack MoeWorkspace::userRunsStack(const mosaic::Envelope& e) {
    return e.stack.calibration.runs > 0 ? e.stack : mosaic::builtinStack("megatron-core");
}

void MoeWorkspace::showUserRuns() {
    if (!envelope()) return;
    const mosaic::Stack stack = userRunsStack(*envelope());
    const std::string key = mosaic::stackToJson(stack).dump();
    if (envelope()->userRuns == m_userRunsShown && key == m_userRunsStack) return;
    m_userRunsShown = envelope()->userRuns;
    m_userRunsStack = key;
    Diagnostics diag;
    const std::vector<mosaic::RealityCase> cases =
        mosaic::userRunCases(envelope()->userRuns, stack, diag);
    QStringList problems;
    for (const Issue& i : diag.items())
        problems << QStringLiteral("measured_runs%1: %2")
                        .arg(QString::fromStdString(i.path), QString::fromStdString(i.message));
    m_reality->setUserRuns(cases, QString::fromStdString(stack.name), problems);
}

bool MoeWorkspace::calibrateToUserRuns(QString* why) {
    const auto fail = [why](const QString& text) {
        if (why) *why = text;
        return false;
    };
    if (!envelope() || envelope()->userRuns.empty())
        return fail(tr("No runs of yours to calibrate to: import a training log first."));
    if (m_calibrationRunner.runner()->isBusy()) return fail(tr("A calibration is running."));
    const mosaic::Stack base = mosaic::builtinStack("megatron-core");
    Diagnostics diag;
    const std::vector<mosaic::RealityCase> cases =
        mosaic::userRunCases(envelope()->userRuns, base, diag);
    if (cases.empty())
        return fail(
            tr("None of your runs can be read: %1").arg(QString::fromStdString(diag.str())));
    const std::string hw = cases.front().cluster.hardware.name;
    for (const mosaic::RealityCase& c : cases)
        if (c.cluster.hardware.name != hw)
            return fail(tr("Your runs are on %1 and %2: calibrate to one cluster's runs at a time.")
                            .arg(QString::fromStdString(hw),
                                 QString::fromStdString(c.cluster.hardware.name)));
    m_reality->setCalibrating(true);
    const std::string name = "my-" + hw;
    m_calibrationRunner.submit([base, cases, name](const tandem::CancelFlag*) {
        return mosaic::calibrateToRuns(base, cases, name);
    });
    return true;
}

void MoeWorkspace::connectCalibration() {
    connect(m_reality, &RealityView::calibrateRequested, this, [this] {
        QString why;
        if (!calibrateToUserRuns(&why)) m_status->setText(why);
    });
    m_calibrationRunner.onResult(this, [this](const mosaic::CalibrationResult& r, quint64) {
        m_reality->setCalibrating(false);
        QStringList unused;
        for (const mosaic::UnusedRun& u : r.unused)
            unused << tr("%1: %2").arg(QString::fromStdString(u.source),
                                       QString::fromStdString(u.reason));
        if (r.summary.runs == 0) {
            m_reality->setCalibrationNote(tr("None of your runs can be calibrated to: %1.")
                                              .arg(unused.join(QStringLiteral("; "))));
            return;
        }
        if (!envelope()) return;
        // Calibrating again to the same runs gives the same stack: nothing to commit or undo.
        if (mosaic::stackToJson(r.stack) == mosaic::stackToJson(envelope()->stack)) {
            m_reality->setCalibrationNote(
                tr("The stack is already %1 to these runs: nothing changed.")
                    .arg(r.summary.adopted ? tr("calibrated") : tr("checked against")));
            return;
        }
        mosaic::Envelope e = *envelope();
        e.stack = r.stack;
        m_controls->setEnvelope(e);
        commitEdit(e, true);
        showUserRuns();
        QStringList note;
        if (!r.summary.adopted)
            note << tr("Refit declined: %1.")
                        .arg(QString::fromStdString(mosaic::calibrationSentence(r.summary)));
        if (!unused.isEmpty())
            note << tr("Calibrated without %1.").arg(unused.join(QStringLiteral("; ")));
        if (!note.isEmpty()) m_reality->setCalibrationNote(note.join(QLatin1Char(' ')));
        recompute();
    });
    connect(m_calibrationRunner.runner(), &JobRunner::failed, this,
            [this](const QString& message, quint64) {
                m_reality->setCalibrating(false);
                m_status->setText(tr("The calibration failed: %1").arg(message));
            });
}

}  // namespace tandem::ui
