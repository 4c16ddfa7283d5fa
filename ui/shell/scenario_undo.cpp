#include "ui/shell/scenario_undo.h"

#include <utility>

namespace tandem::ui {

ScenarioEditCommand::ScenarioEditCommand(ScenarioPart part, Scenario before, Scenario after,
                                         Apply apply, const QString& text, bool followUp,
                                         bool alone)
    : QUndoCommand(text),
      m_part(part),
      m_parts(part),
      m_before(std::move(before)),
      m_after(std::move(after)),
      m_apply(std::move(apply)),
      m_followUp(followUp),
      m_alone(alone) {
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
    if (!o || m_alone || o->m_alone) return false;
    if (!o->m_followUp && (o->m_part != m_part || m_lastEdit.elapsed() > kMergeMs)) return false;
    m_after = o->m_after;
    m_parts |= o->m_parts;
    m_lastEdit.restart();
    return true;
}

}  // namespace tandem::ui
