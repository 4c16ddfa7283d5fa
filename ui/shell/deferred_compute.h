#pragma once
// A workspace's rule for computing while it is not on screen (the other workspace's tab).
#include <QWidget>

namespace tandem::ui {

/// Puts a workspace's recomputation off while its window is shown but the workspace is not
/// (e.g. a linked slider of the other workspace moved), and says when to catch up. Off by
/// default: then nothing is put off. Tests and exports run with the window hidden, where
/// everything is computed at once.
class DeferredCompute {
public:
    explicit DeferredCompute(const QWidget* owner) : m_owner(owner) {}
    /// Turns the rule on or off (the main window turns it on).
    void setEnabled(bool on) { m_enabled = on; }
    /// True when the owner should not compute now; the compute is then remembered as pending.
    bool postpone() {
        const bool later = m_enabled && m_owner->window()->isVisible() && !m_owner->isVisible();
        m_pending = m_pending || later;
        return later;
    }
    /// For the owner's showEvent: true once when a compute was put off (and clears it).
    bool takePending() {
        const bool was = m_pending;
        m_pending = false;
        return was;
    }

private:
    const QWidget* m_owner;
    bool m_enabled = false;
    bool m_pending = false;
};

}  // namespace tandem::ui
