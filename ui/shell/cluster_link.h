#pragma once
// The shared cluster of the two workspaces [PRODUCT.md "Joined"]: while on, the co-running-jobs
// slider and the node-count slider of either workspace drive the other's.
#include <QObject>

namespace tandem::ui {

class LabeledSlider;

/// Links two pairs of sliders: co-running jobs (ML-for-ML's shown N, ml_for_ml.background_jobs,
/// and mosaic.background.jobs) and nodes (ml_for_ml.foreground_nodes and mosaic.nodes). While
/// linked, a move of one slider of a pair moves the other to the same value (through
/// LabeledSlider::setNumber, so the other workspace recomputes and records the edit); a value
/// outside the other slider's range is shown unclamped there. A disabled slider (ML-for-ML's N
/// under Poisson arrivals or a trace) neither drives nor follows. propagating() is true while
/// a linked move is being passed on, so the edit it makes can be recorded as part of the
/// user's move (one undo step).
class ClusterLink : public QObject {
    Q_OBJECT
public:
    /// `networkJobs`/`networkNodes`: the ML-for-ML sliders; `moeJobs`/`moeNodes`: the MoE ones.
    ClusterLink(LabeledSlider* networkJobs, LabeledSlider* networkNodes, LabeledSlider* moeJobs,
                LabeledSlider* moeNodes, QObject* parent = nullptr);
    bool isLinked() const { return m_linked; }
    /// Turns the link on or off. Turning it on copies the values of the workspace `from` (0:
    /// ML-for-ML, 1: MoE) into the other one's sliders (each copy emits, like a user's move).
    void setLinked(bool on, int from);
    /// True when both pairs show the same value (a pair with a disabled slider counts as equal).
    bool inStep() const;
    /// True while a linked move is being passed to the other workspace.
    bool propagating() const { return m_propagating; }

signals:
    void linkedChanged(bool on);

private:
    /// Moves `to` to `from`'s value (when linked and both are enabled); `followUp`: the move
    /// answers a user's move of `from` (propagating() true meanwhile).
    void follow(LabeledSlider* from, LabeledSlider* to, bool followUp);
    LabeledSlider* m_networkJobs;
    LabeledSlider* m_networkNodes;
    LabeledSlider* m_moeJobs;
    LabeledSlider* m_moeNodes;
    bool m_linked = false;
    bool m_propagating = false;
    bool m_following =
        false;  ///< inside follow(): the moved slider's own signal is not passed back
};

}  // namespace tandem::ui
