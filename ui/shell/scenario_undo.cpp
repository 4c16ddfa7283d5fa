#include "ui/shell/scenario_undo.h"

#include <utility>

namespace tandem::ui {

namespace {

/// Copies the sections of `from` named by `parts` into `to`.
void copyParts(const Scenario& from, ScenarioParts parts, Scenario& to) {
    if (parts & ScenarioPart::MlForMl) to.mlForMl = from.mlForMl;
    if (parts & ScenarioPart::Mosaic) to.mosaic = from.mosaic;
}

}  // namespace

ScenarioEditCommand::ScenarioEditCommand(ScenarioPart part, const Scenario& before,
                                         const Scenario& after, Apply apply, const QString& text,
                                         MergeRule rule)
    : QUndoCommand(text), m_part(part), m_parts(part), m_apply(std::move(apply)), m_rule(rule) {
    copyParts(before, m_parts, m_before);
    copyParts(after, m_parts, m_after);
    m_lastEdit.start();
}

void ScenarioEditCommand::undo() { m_apply(m_before, m_parts); }

void ScenarioEditCommand::redo() {
    if (!m_pushed) {  // QUndoStack::push calls redo(): the edit is already in the document
        m_pushed = true;
        return;
    }
    m_apply(m_after, m_parts);
}

bool ScenarioEditCommand::mergeWith(const QUndoCommand* other) {
    const auto* o = dynamic_cast<const ScenarioEditCommand*>(other);
    if (!o || m_rule == MergeRule::Never || o->m_rule == MergeRule::Never) return false;
    if (o->m_rule != MergeRule::FollowUp &&
        (o->m_part != m_part || m_lastEdit.elapsed() > kMergeMs))
        return false;
    // A part this step did not edit yet is undone to its value before the merged edit.
    copyParts(o->m_before, o->m_parts & ~m_parts, m_before);
    copyParts(o->m_after, o->m_parts, m_after);
    m_parts |= o->m_parts;
    m_lastEdit.restart();
    return true;
}

}  // namespace tandem::ui
