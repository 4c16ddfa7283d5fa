#pragma once
// MFU against sparsity S or against the expert split factor G, from the search's feasible
// candidates [2608.10605 Eq. 1, Sec. 5, Fig. 10].
#include <optional>

#include "mosaic/search.h"
#include "ui/widgets/chart_view.h"

class QAbstractAxis;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace tandem::ui {

struct Bounds;

/// Every feasible candidate as a faint dot (x = S or G, y = MFU of its best plan, percent), the
/// best MFU per sparsity bin (bins of Envelope::frontierSparsity, edges at midpoints) or per G as
/// a line, and the selected candidate ringed.
class MfuView : public ChartView {
    Q_OBJECT
public:
    enum class Axis { Sparsity, Split };
    explicit MfuView(Axis axis, QWidget* parent = nullptr);
    /// `binCentres`: the envelope's frontier sparsity grid (used for Axis::Sparsity).
    void setData(const mosaic::SearchResult& r, const std::vector<double>& binCentres,
                 int selected);
    void setSelected(int selected);
    void applyTheme() override;
    /// The best-MFU line's points (x, MFU %) (tests).
    QList<QPointF> bestLine() const;
    /// The ringed point (tests; empty when nothing is selected).
    QList<QPointF> selectedPoint() const;

private:
    void rebuild() override;
    double xOf(const mosaic::Candidate& c) const;
    /// The best-MFU line of `cands` (a step across each S bin, or one point per G), adding every
    /// candidate's point (x, MFU %) to `extent` and, when given, to `all`.
    QList<QPointF> bestLineOf(const std::vector<mosaic::Candidate>& cands, QList<QPointF>* all,
                              Bounds& extent) const;
    Axis m_axis;
    std::optional<mosaic::SearchResult> m_result;
    std::vector<double> m_bins;
    int m_selected = -1;
    QScatterSeries* m_all = nullptr;
    QLineSeries* m_best = nullptr;
    QScatterSeries* m_sel = nullptr;
    QAbstractAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};

}  // namespace tandem::ui
