#pragma once
// Workspace 2, "MoE sparsity frontier" [2608.10605]: controls, charts and the live worker.
#include <QWidget>

#include <optional>

#include "mosaic/envelope.h"
#include "mosaic/search.h"

class QLabel;

namespace tandem::ui {

class ChartView;
class FrontierView;
class JobRunner;
class MoeControls;
class OptimumCard;

/// Assembles the MOSAIC side panel and views. Every engine-input change hands a copy of the
/// Envelope to a JobRunner running mosaic::search on a worker thread (coalesced, cancellable);
/// the result updates the frontier chart, the optimum card and the detail views.
class MoeWorkspace : public QWidget {
    Q_OBJECT
public:
    explicit MoeWorkspace(QWidget* parent = nullptr);
    void setEnvelope(const std::optional<mosaic::Envelope>& e);
    const std::optional<mosaic::Envelope>& envelope() const { return m_envelope; }
    QList<ChartView*> charts() const;
    MoeControls* controls() const { return m_controls; }
    FrontierView* frontierView() const { return m_frontier; }
    JobRunner* runner() const { return m_runner; }
    const std::optional<mosaic::SearchResult>& result() const { return m_result; }
    void applyTheme();

signals:
    void envelopeEdited(const tandem::mosaic::Envelope& e);
    void resultsShown();
    void busyChanged(bool busy);

private:
    void recompute();
    void showResult(const mosaic::SearchResult& r);

    std::optional<mosaic::Envelope> m_envelope;
    std::optional<mosaic::SearchResult> m_result;
    MoeControls* m_controls;
    FrontierView* m_frontier;
    OptimumCard* m_card;
    QLabel* m_status;
    JobRunner* m_runner;
};

}  // namespace tandem::ui
