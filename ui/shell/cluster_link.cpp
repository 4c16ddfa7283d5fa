#include "ui/shell/cluster_link.h"

#include <QSlider>

#include "ui/widgets/labeled_slider.h"

namespace tandem::ui {

ClusterLink::ClusterLink(LabeledSlider* networkJobs, LabeledSlider* networkNodes,
                         LabeledSlider* moeJobs, LabeledSlider* moeNodes, QObject* parent)
    : QObject(parent),
      m_networkJobs(networkJobs),
      m_networkNodes(networkNodes),
      m_moeJobs(moeJobs),
      m_moeNodes(moeNodes) {
    const auto pair = [this](LabeledSlider* a, LabeledSlider* b) {
        connect(a, &LabeledSlider::valueChanged, this, [this, a, b](int) { follow(a, b, true); });
        connect(b, &LabeledSlider::valueChanged, this, [this, a, b](int) { follow(b, a, true); });
    };
    pair(m_networkJobs, m_moeJobs);
    pair(m_networkNodes, m_moeNodes);
}

void ClusterLink::follow(LabeledSlider* from, LabeledSlider* to, bool followUp) {
    if (!m_linked || m_following || !from->slider()->isEnabled() || !to->slider()->isEnabled())
        return;
    if (to->number() == from->number()) return;
    m_following = true;
    m_propagating = followUp;
    to->setNumber(from->number());
    m_propagating = false;
    m_following = false;
}

void ClusterLink::setLinked(bool on, int from) {
    if (on == m_linked) return;
    m_linked = on;
    if (on) {
        // Linking is an edit of its own (its own undo step), not a follow-up of the last one.
        if (from == 0) {
            follow(m_networkJobs, m_moeJobs, false);
            follow(m_networkNodes, m_moeNodes, false);
        } else {
            follow(m_moeJobs, m_networkJobs, false);
            follow(m_moeNodes, m_networkNodes, false);
        }
    }
    emit linkedChanged(on);
}

bool ClusterLink::inStep() const {
    const auto same = [](const LabeledSlider* a, const LabeledSlider* b) {
        return !a->slider()->isEnabled() || !b->slider()->isEnabled() || a->number() == b->number();
    };
    return same(m_networkJobs, m_moeJobs) && same(m_networkNodes, m_moeNodes);
}

}  // namespace tandem::ui
