#pragma once
// Undo/redo of scenario edits: each control change is one QUndoCommand holding the scenario
// before and after; quick successive changes of the same workspace (a slider drag) merge, and so
// does the edit a linked slider makes in the other workspace (shell/cluster_link.h).
#include <QElapsedTimer>
#include <QUndoCommand>
#include <functional>

#include "scenario/scenario.h"

namespace tandem::ui {

/// One edit of one workspace's part of the scenario. `apply` puts a whole scenario back into the
/// document and the controls (without pushing a new command). The first redo() (on push) does
/// nothing: the edit has already happened.
class ScenarioEditCommand : public QUndoCommand {
public:
    /// `part`: 0 the ml_for_ml part, 1 the mosaic part (commands merge per part). `followUp`:
    /// the edit was made by a linked control following the user's edit of the other part, and
    /// merges into the command before it (one undo step for both workspaces).
    ScenarioEditCommand(int part, Scenario before, Scenario after,
                        std::function<void(const Scenario&)> apply, const QString& text,
                        bool followUp = false);
    void undo() override;
    void redo() override;
    int id() const override { return 1000; }
    /// Merges a follow-up edit, or a later edit of the same part made within kMergeMs of this
    /// one's last edit.
    bool mergeWith(const QUndoCommand* other) override;

    static constexpr int kMergeMs = 800;

private:
    int m_part;
    Scenario m_before, m_after;
    std::function<void(const Scenario&)> m_apply;
    QElapsedTimer m_lastEdit;
    bool m_pushed = false;
    bool m_followUp = false;
};

}  // namespace tandem::ui
