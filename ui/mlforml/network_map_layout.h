#pragma once
// The network view's picture as shapes, from a NetworkMap and the room it has: the spine tier
// (or the shared fabric), the leaves or scalable units worth showing with their links to the
// spines shaded by mean utilisation, their nodes coloured by job, "+N more leaves" for the rest,
// and a legend. Drawing geometry only: every figure shown is a field of the map.
#include <QColor>
#include <QFont>
#include <QLineF>
#include <QList>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include "mlforml/network_map.h"
#include "ui/widgets/text_fit.h"

namespace tandem::ui {

/// One picture of a NetworkMap: boxes, then lines, then texts, in paint order.
struct NetworkPicture {
    struct Box {
        QRectF rect;
        QColor fill;   ///< invalid: not filled
        bool outline;  ///< drawn with the text colour's pen
    };
    struct Line {
        QLineF line;
        QColor colour;
        double width;
    };
    QList<Box> boxes;
    QList<Line> lines;
    QList<DrawnText> texts;  ///< each drawn left-aligned and vertically centred in its box
    int groupsShown = 0;     ///< leaves / units drawn
    int groupsHidden = 0;    ///< leaves / units of the fabric not drawn ("+N more")
};

/// Lays `map` out in a `size` (logical px) area with texts in `font`: as many groups as fit
/// side by side at a readable width (in index order), the rest counted in one "+N more
/// leaves" (or units) text; nodes as squares when they fit, else as one bar of thin slices;
/// rail-optimised units as a strip of their rail leaves. `racks`: a node is a rack (nvl72).
NetworkPicture layOutNetworkMap(const mlforml::NetworkMap& map, const QSizeF& size,
                                const QFont& font, bool racks);

/// "45 %" for a utilisation of 0.45 (0..1), no decimals; "<1 %" for a little above 0.
QString percentText(double utilisation);

}  // namespace tandem::ui
