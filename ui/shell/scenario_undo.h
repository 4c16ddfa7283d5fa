#pragma once
// Undo/redo of scenario edits: each control change is one QUndoCommand holding the scenario
// before and after; quick successive changes of the same workspace (a slider drag) merge, and so
// does the edit a linked slider makes in the other workspace (shell/cluster_link.h).
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

/// One edit of one workspace's part of the scenario. `apply` puts the given parts of a stored
/// scenario back into the document and their workspace's controls (without pushing a new
/// command), leaving the other parts and their workspaces (and caches) alone. The first redo()
/// (on push) does nothing: the edit has already happened.
class ScenarioEditCommand : public QUndoCommand {
public:
    using Apply = std::function<void(const Scenario&, ScenarioParts)>;
    /// `part`: the part the edit changed (commands merge per part). `followUp`: the edit was made
    /// by a linked control following the user's edit of the other part, and merges into the
    /// command before it (one undo step for both workspaces, which then re-applies both parts).
    /// `alone`: a discrete action (a calibration) that is one undo step of its own however soon
    /// it follows or is followed by another edit.
    ScenarioEditCommand(ScenarioPart part, Scenario before, Scenario after, Apply apply,
                        const QString& text, bool followUp = false, bool alone = false);
    void undo() override;
    void redo() override;
    int id() const override { return 1000; }
    /// Merges a follow-up edit, or a later edit of the same part made within kMergeMs of this
    /// one's last edit; never when either command stands alone.
    bool mergeWith(const QUndoCommand* other) override;

    static constexpr int kMergeMs = 800;

    /// The parts undo() and redo() re-apply: the edit's own part and those of merged edits.
    ScenarioParts parts() const { return m_parts; }

private:
    ScenarioPart m_part;
    ScenarioParts m_parts;
    Scenario m_before, m_after;
    Apply m_apply;
    QElapsedTimer m_lastEdit;
    bool m_pushed = false;
    bool m_followUp = false;
    bool m_alone = false;
};

}  // namespace tandem::ui
