#pragma once
// Policy lines that lie on top of each other (e.g. Joint and Knob-Precision in ML-for-ML scenario
// 1, which both choose GA4-MXFP4 [2608.06046 Fig. 2: "Joint coincides with Knob-Precision"]) are
// detected from the drawn data and the later ones dashed, so every colour stays visible; the group
// has one legend entry, "Knob-Precision = Joint".
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

class QPen;

namespace tandem::ui {

/// True when curve `b` lies on curve `a` within the tolerances, in the chart's units.
/// Both are polylines with x ascending (at least one point each; an empty curve never coincides).
/// Coincide means: the first and the last x of the two differ by at most `xTol`, and every point
/// of either curve is within `yTol` of the other one linearly interpolated at the same x (held
/// at its end values outside its x range) or within `xTol` across and `yTol` up and down of one
/// of its segments (so steep stretches sampled at slightly different x still coincide).
/// Symmetric. No errors.
bool curvesCoincide(const QList<QPointF>& a, const QList<QPointF>& b, double xTol, double yTol);

/// For each of `curves` (chart units, x ascending), the index of the first earlier curve it
/// coincides with (curvesCoincide), or -1 when it coincides with none. Sizes match. A curve in
/// `skip` (same indexing; missing entries = false, e.g. hidden policies) neither coincides nor
/// is coincided with. Pairs are compared, so O(n^2) curves times O(points).
QList<int> coincidentWith(const QList<QList<QPointF>>& curves, double xTol, double yTol,
                          const QList<bool>& skip = {});

/// Where curve `i` stands in its group of coincident curves, from coincidentWith()'s `sameAs`.
struct CoincidentMember {
    int leader = -1;    ///< index of the group's first (solid) curve; -1 when out of range
    int index = 0;      ///< 0 for the leader (or a curve alone), 1.. for later members in order
    int groupSize = 1;  ///< curves in the group, leader included
};
/// The group position of curve `i` (0 <= i < sameAs.size(); else a default CoincidentMember).
CoincidentMember coincidentMember(const QList<int>& sameAs, qsizetype i);

/// Makes `pen` (a coincident curve's own colour and width) dashed for member `member` (1..)
/// of a group of `groupSize` coincident curves, whose member 0 stays solid underneath: equal
/// dashes at staggered offsets, so each member's colour shows along the shared line.
void dashCoincidentPen(QPen& pen, int member, int groupSize);

/// Legend label of curve `i` (0 <= i < names.size()) given coincidentWith()'s `sameAs` and the
/// curves' `names` (same size): a curve alone keeps its name; a group's first curve names the
/// whole group, "Knob-Precision = Joint" (the paper's "Knob-Precision/Joint"); a later member gets
/// an empty label (its legend entry is hidden, the first one's names it).
QString coincidentLegendLabel(const QList<int>& sameAs, const QStringList& names, qsizetype i);

}  // namespace tandem::ui
