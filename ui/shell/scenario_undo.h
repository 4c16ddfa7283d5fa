#pragma once
// Undo/redo of scenario edits: each control change is one QUndoCommand holding the edited part
// of the scenario before and after; quick successive changes of the same workspace (a slider drag)
// merge, and so does the edit a linked slider makes in the other workspace (shell/cluster_link.h).
#include <QElapsedTimer>
#include <QFlags>
#include <QUndoCommand>
#include <functional>

#include "scenario/scenario.h"

namespace tandem::ui {

/// The parts of a scenario that one workspace edits.
enum class ScenarioPart : unsigned {
    MlForMl = 1u << 0,  ///< `ml_for_ml`: the network workspace
    Mosaic = 1u << 1,   ///< `mosaic`: the MoE workspace
};
Q_DECLARE_FLAGS(ScenarioParts, ScenarioPart)
Q_DECLARE_OPERATORS_FOR_FLAGS(ScenarioParts)

/// How an edit's undo step joins the step before it on the stack (ScenarioEditCommand).
enum class MergeRule {
    /// A control change: merges into the step before when that one edited the same part less
    /// than ScenarioEditCommand::kMergeMs before (a slider drag is one undo step).
    QuickEdits,
    /// The edit a linked control made following the user's edit of the other part
    /// (shell/cluster_link.h): merges into the step before however long ago it was, so that both
    /// workspaces' edits are one undo step (which then re-applies both parts).
    FollowUp,
    /// A discrete action (a calibration): one undo step of its own however soon it follows or
    /// is followed by another edit.
    Never,
};

/// One edit of one workspace's part of the scenario. The command keeps the values of the parts
/// it edits only, as they were before and after the edit (the document owns the scenario; the
/// other parts are empty here). `apply` puts the given parts of such a stored scenario back into
/// the document and has their workspace show them (without pushing a new command), leaving the
/// other parts and their workspaces (and caches) alone. The first redo() (on push) does nothing:
/// the edit has already happened.
class ScenarioEditCommand : public QUndoCommand {
public:
    using Apply = std::function<void(const Scenario&, ScenarioParts)>;
    /// `part`: the part the edit changed (commands merge per part); only that part of `before`
    /// and `after` is kept. `rule`: how this step merges with the one before it (and a later
    /// one with this one: never when either is MergeRule::Never).
    ScenarioEditCommand(ScenarioPart part, const Scenario& before, const Scenario& after,
                        Apply apply, const QString& text, MergeRule rule = MergeRule::QuickEdits);
    void undo() override;
    void redo() override;
    int id() const override { return 1000; }
    /// Merges a later edit by the rules of MergeRule: a follow-up, or an edit of the same part
    /// made within kMergeMs of this one's last edit; never when either command's rule is Never.
    bool mergeWith(const QUndoCommand* other) override;

    static constexpr int kMergeMs = 800;

    /// The parts undo() and redo() re-apply: the edit's own part and those of merged edits.
    ScenarioParts parts() const { return m_parts; }
    /// The kept values before the first edit and after the last merged one: the parts() of the
    /// scenario only, every other section empty.
    const Scenario& before() const { return m_before; }
    const Scenario& after() const { return m_after; }

private:
    ScenarioPart m_part;
    ScenarioParts m_parts;
    Scenario m_before, m_after;
    Apply m_apply;
    QElapsedTimer m_lastEdit;
    bool m_pushed = false;
    MergeRule m_rule;
};

}  // namespace tandem::ui
