#include "ui/widgets/coincident_curves.h"

#include <QCoreApplication>
#include <QPen>
#include <algorithm>
#include <cmath>

namespace tandem::ui {

namespace {
/// y of polyline `c` (x ascending, non-empty) at `x`, held at the end values outside its range;
/// `hint` is the segment index to start from (advanced monotonically for ascending queries).
double yAt(const QList<QPointF>& c, double x, qsizetype& hint) {
    if (x <= c.front().x()) return c.front().y();
    if (x >= c.back().x()) return c.back().y();
    while (hint + 1 < c.size() - 1 && c[hint + 1].x() < x) ++hint;
    const QPointF& p = c[hint];
    const QPointF& q = c[hint + 1];
    const double dx = q.x() - p.x();
    return dx > 0 ? p.y() + (q.y() - p.y()) * (x - p.x()) / dx : q.y();
}
/// Distance from `p` to segment `q0`-`q1` with x measured in units of `xTol` and y in units of
/// `yTol` (both > 0), so that 1 is the tolerance ellipse.
double scaledDistance(const QPointF& p, const QPointF& q0, const QPointF& q1, double xTol,
                      double yTol) {
    const double px = p.x() / xTol, py = p.y() / yTol;
    const double ax = q0.x() / xTol, ay = q0.y() / yTol, bx = q1.x() / xTol, by = q1.y() / yTol;
    const double dx = bx - ax, dy = by - ay;
    const double len2 = dx * dx + dy * dy;
    const double t =
        len2 > 0 ? std::clamp(((px - ax) * dx + (py - ay) * dy) / len2, 0.0, 1.0) : 0.0;
    return std::hypot(px - (ax + t * dx), py - (ay + t * dy));
}
/// Every point of `b` lies within the tolerances of polyline `a`: within `yTol` of `a`'s value
/// at the same x (held at the end values outside `a`'s range), or within the tolerance ellipse
/// (`xTol` across, `yTol` up and down) of one of `a`'s segments, which keeps steep stretches
/// sampled at slightly different x from counting as apart.
bool pointsOn(const QList<QPointF>& a, const QList<QPointF>& b, double xTol, double yTol) {
    qsizetype hint = 0, lo = 0;
    for (const QPointF& p : b) {
        if (std::abs(yAt(a, p.x(), hint) - p.y()) <= yTol) continue;
        if (!(xTol > 0) || !(yTol > 0)) return false;
        while (lo + 1 < a.size() && a[lo + 1].x() < p.x() - xTol) ++lo;
        bool near = false;
        for (qsizetype k = lo; !near && k + 1 < a.size() && a[k].x() <= p.x() + xTol; ++k)
            near = scaledDistance(p, a[k], a[k + 1], xTol, yTol) <= 1.0;
        if (!near) return false;
    }
    return true;
}
}  // namespace

bool curvesCoincide(const QList<QPointF>& a, const QList<QPointF>& b, double xTol, double yTol) {
    if (a.isEmpty() || b.isEmpty()) return false;
    if (!(std::abs(a.front().x() - b.front().x()) <= xTol) ||
        !(std::abs(a.back().x() - b.back().x()) <= xTol))
        return false;
    return pointsOn(a, b, xTol, yTol) && pointsOn(b, a, xTol, yTol);
}

QList<int> coincidentWith(const QList<QList<QPointF>>& curves, double xTol, double yTol,
                          const QList<bool>& skip) {
    const auto skipped = [&skip](qsizetype i) { return i < skip.size() && skip[i]; };
    QList<int> out(curves.size(), -1);
    for (qsizetype j = 1; j < curves.size(); ++j) {
        if (skipped(j)) continue;
        for (qsizetype i = 0; i < j; ++i) {
            // Compare with group leaders only: a later member joins the earliest curve it lies on.
            if (skipped(i) || out[i] >= 0) continue;
            if (curvesCoincide(curves[i], curves[j], xTol, yTol)) {
                out[j] = static_cast<int>(i);
                break;
            }
        }
    }
    return out;
}

CoincidentMember coincidentMember(const QList<int>& sameAs, qsizetype i) {
    CoincidentMember m;
    if (i < 0 || i >= sameAs.size()) return m;
    m.leader = sameAs[i] >= 0 ? sameAs[i] : static_cast<int>(i);
    for (qsizetype k = 0; k < sameAs.size(); ++k) {
        if (sameAs[k] != m.leader) continue;
        ++m.groupSize;
        if (k <= i) ++m.index;
    }
    return m;
}

void dashCoincidentPen(QPen& pen, int member, int groupSize) {
    if (member <= 0 || groupSize < 2) return;
    // A period of groupSize slots of 3 pen widths; member k dashes one slot (the offset picks
    // which), so the solid member 0 shows in the slot no later member covers.
    const qreal dash = 3.0;
    pen.setStyle(Qt::CustomDashLine);
    pen.setCapStyle(Qt::FlatCap);
    pen.setDashPattern({dash, dash * (groupSize - 1)});
    pen.setDashOffset(dash * (member - 1));
}

QString coincidentLegendLabel(const QList<int>& sameAs, const QStringList& names, qsizetype i) {
    if (i < 0 || i >= names.size()) return {};
    if (i < sameAs.size() && sameAs[i] >= 0) return {};
    QStringList group{names[i]};
    for (qsizetype k = i + 1; k < sameAs.size() && k < names.size(); ++k)
        if (sameAs[k] == i) group << names[k];
    return group.join(QCoreApplication::translate("CoincidentCurves", " = "));
}

}  // namespace tandem::ui
