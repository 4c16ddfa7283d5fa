#include "ui/mlforml/network_map_layout.h"

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>

#include "ui/widgets/palette.h"

namespace tandem::ui {

namespace {
using Picture = NetworkPicture;

/// Adds texts and shapes measured with one font.
struct Builder {
    explicit Builder(const QFont& font) : fm(font), lh(fm.height()) {}
    QFontMetricsF fm;
    double lh;
    Picture pic;

    double width(const QString& s) const { return std::ceil(fm.horizontalAdvance(s)) + 1; }
    /// `s` drawn from (x, y) in a room `room` wide (its own width when negative), `centred` in
    /// it or left-aligned.
    void text(double x, double y, const QString& s, double room = -1, bool centred = false) {
        const double w = width(s);
        const double r = room < 0 ? w : room;
        const double left = centred ? x + std::max(0.0, (r - w) / 2) : x;
        pic.texts.append({s, QRectF(x, y, r, lh), QRectF(left, y, w, lh)});
    }
    /// The first of `choices` that fits `room`, else the last.
    QString fitting(const QStringList& choices, double room) const {
        for (const QString& s : choices)
            if (width(s) <= room) return s;
        return choices.back();
    }
    void box(const QRectF& r, const QColor& fill, bool outline) {
        pic.boxes.append({r, fill, outline});
    }
    void line(QPointF a, QPointF b, const QColor& c, double w) { pic.lines.append({{a, b}, c, w}); }
};

QString jobLabel(int job) { return QString::fromStdString(fabric::jobName(job)); }

/// The legend's entries: a swatch colour and its text.
QList<std::pair<QColor, QString>> legendEntries(const mlforml::NetworkMap& m) {
    // A job's NIC utilisation beside its name: the link every node of the job sends through.
    const auto named = [&m](int job) {
        const std::string nic = fabric::jobName(job) + "-nic";
        for (const auto& u : m.otherLinks)
            if (u.link == nic)
                return QObject::tr("%1 (NIC %2)")
                    .arg(jobLabel(job), percentText(u.meanUtilisation()));
        return jobLabel(job);
    };
    QList<std::pair<QColor, QString>> out{
        {jobColor(fabric::kForegroundJob), named(fabric::kForegroundJob)}};
    for (int c = 0; c < kJobColours; ++c) {
        QStringList names;
        int count = 0;
        for (int j : m.activeJobs)
            if (j % kJobColours == c && count++ < 2) names << named(j);
        if (count > 2) names << QStringLiteral("...");
        if (!names.isEmpty()) out.append({jobColor(c), names.join(QStringLiteral(", "))});
    }
    if (!m.shared) out.append({jobColor(mlforml::kIdleNode), QObject::tr("idle node")});
    return out;
}

/// Lays the legend out in rows from the top-left of a `width` wide band at y = 0; returns its
/// height. Shapes and texts go to `b` shifted down by `top`.
double layOutLegend(Builder& b, const mlforml::NetworkMap& m, double left, double width,
                    double top) {
    const double sw = std::round(b.lh * 0.7), gap = std::round(b.lh * 0.4);
    double x = left, y = top;
    auto place = [&](double w) {
        if (x > left && x + w > left + width) {
            x = left;
            y += b.lh * 1.2;
        }
        const double at = x;
        x += w + gap * 2;
        return at;
    };
    for (const auto& [colour, label] : legendEntries(m)) {
        const double at = place(sw + gap / 2 + b.width(label));
        b.box(QRectF(at, y + (b.lh - sw) / 2, sw, sw), colour, true);
        b.text(at + sw + gap / 2, y, label);
    }
    const QString title = m.shared || m.railOptimised
                              ? QObject::tr("link shading, mean utilisation:")
                              : QObject::tr(
                                    "links to the spines (left up, right down), mean "
                                    "utilisation:");
    const QString lo = percentText(0), hi = percentText(1);
    const int steps = 10;
    const double cell = std::round(b.lh * 0.6);
    const double ramp = b.width(lo) + gap / 2 + steps * cell + gap / 2 + b.width(hi);
    // The title and its ramp on one row when they fit there, else the ramp under the title.
    double at = place(b.width(title) + gap + ramp);
    b.text(at, y, title);
    if (at + b.width(title) + gap + ramp <= left + width) {
        at += b.width(title) + gap;
    } else {
        x = left;
        y += b.lh * 1.2;
        at = place(ramp);
    }
    b.text(at, y, lo);
    double cx = at + b.width(lo) + gap / 2;
    for (int i = 0; i < steps; ++i, cx += cell)
        b.box(QRectF(cx, y + (b.lh - sw) / 2, cell, sw), utilisationColor((i + 0.5) / steps),
              false);
    b.text(cx + gap / 2, y, hi);
    return y + b.lh - top;
}
}  // namespace

QString percentText(double utilisation) {
    if (utilisation > 0 && utilisation < 0.005) return QObject::tr("<1 %");
    return QObject::tr("%1 %").arg(100 * utilisation, 0, 'f', 0);
}

NetworkPicture layOutNetworkMap(const mlforml::NetworkMap& m, const QSizeF& size, const QFont& font,
                                bool racks) {
    Builder b(font);
    const double lh = b.lh, pad = std::round(lh * 0.5), gap = std::round(lh * 0.6);
    const double W = size.width(), H = size.height(), avail = W - 2 * pad;
    // Legend at the bottom: laid out at the top first to learn its height, then moved down.
    Builder legend(font);
    const double legendH = layOutLegend(legend, m, pad, avail, 0);
    const double legendTop = H - pad - legendH;
    // The spine tier (or the shared fabric) across the top.
    const double top = pad, tierH = std::round(lh * 1.6);
    const QRectF tier(pad, top, avail, tierH);
    b.box(tier, QColor(), true);
    const double tierText = top + (tierH - lh) / 2;
    const QString unit = m.railOptimised ? QObject::tr("units") : QObject::tr("leaves");
    if (m.shared) {
        const fabric::LinkUsage* fabricLink = nullptr;
        for (const auto& u : m.otherLinks)
            if (u.link == "fabric") fabricLink = &u;
        QStringList choices;
        if (fabricLink) {
            const QString cap =
                QObject::tr("%1 GB/s").arg(fabricLink->capacityBytesPerS / 1e9, 0, 'f', 0);
            const QString use = percentText(fabricLink->meanUtilisation());
            choices << QObject::tr("Shared fabric: %1 each way, mean use %2").arg(cap, use)
                    << QObject::tr("Shared fabric %1, %2").arg(cap, use)
                    << QObject::tr("Fabric %1").arg(use);
            // A band under the box (not under its text) in the fabric's shade.
            b.box(QRectF(tier.left(), tier.bottom(), tier.width(), std::round(lh * 0.35)),
                  utilisationColor(fabricLink->meanUtilisation()), false);
        } else {
            choices << QObject::tr("Shared fabric") << QObject::tr("Fabric");
        }
        b.text(tier.left() + pad, tierText, b.fitting(choices, avail - 2 * pad), avail - 2 * pad,
               true);
    } else {
        const QString ecmp = m.hashedEcmp ? QObject::tr("hashed ECMP") : QObject::tr("equal ECMP");
        const QString ratio = QObject::tr("%1:1").arg(m.oversubscription, 0, 'g', 3);
        QStringList choices;
        // The capacity of one uplink bundle, as the record has it (each way).
        double bundle = 0;
        for (const auto& g : m.groups)
            for (const auto& l : g.leaves)
                if (!l.up.empty()) bundle = l.up.front().capacityBytesPerS;
        const QString perLink = QObject::tr("%1 GB/s").arg(bundle / 1e9, 0, 'f', 1);
        const QString uplinkWord = m.hashedEcmp      ? QObject::tr("per leaf and spine")
                                   : m.railOptimised ? QObject::tr("per rail leaf")
                                                     : QObject::tr("per leaf");
        if (bundle > 0 && m.railOptimised)
            choices << QObject::tr(
                           "Spine tier: %1 spines, %2, %3 oversubscription; %4 units of %5 "
                           "rail leaves; uplinks %6 %7 each way")
                           .arg(m.spines)
                           .arg(ecmp, ratio)
                           .arg(m.groupsTotal)
                           .arg(std::max(1, m.gpusPerNode))
                           .arg(perLink, uplinkWord);
        if (bundle > 0)
            choices << QObject::tr(
                           "Spine tier: %1 spines, %2, %3 oversubscription; uplinks %4 %5 "
                           "each way")
                           .arg(m.spines)
                           .arg(ecmp, ratio, perLink, uplinkWord);
        if (m.railOptimised)
            choices << QObject::tr(
                           "Spine tier: %1 spines, %2, %3 oversubscription; %4 units of %5 "
                           "rail leaves")
                           .arg(m.spines)
                           .arg(ecmp, ratio)
                           .arg(m.groupsTotal)
                           .arg(std::max(1, m.gpusPerNode));
        choices << QObject::tr("Spine tier: %1 spines, %2, %3 oversubscription")
                       .arg(m.spines)
                       .arg(ecmp, ratio)
                << QObject::tr("%1 spines, %2").arg(m.spines).arg(ratio)
                << QObject::tr("%1 spines").arg(m.spines);
        b.text(tier.left() + pad, tierText, b.fitting(choices, avail - 2 * pad), avail - 2 * pad,
               true);
    }

    // The columns: groups of a leaf/spine fabric, NIC links of the shared one.
    std::vector<const mlforml::NetworkGroup*> groups;
    std::vector<const fabric::LinkUsage*> nics;
    if (m.shared) {
        for (const auto& u : m.otherLinks)
            if (u.link != "fabric") nics.push_back(&u);
    } else {
        for (const auto& g : m.groups) groups.push_back(&g);
    }
    const int items = static_cast<int>(m.shared ? nics.size() : groups.size());
    const int total = m.shared ? items : m.groupsTotal;
    double minCol = std::max({b.width(QObject::tr("down %1").arg(percentText(1))),
                              b.width(QObject::tr("max %1").arg(percentText(1))),
                              b.width(QStringLiteral("foreground-nic"))}) +
                    lh;
    for (const auto* g : groups)
        if (!g->leaves.empty())
            minCol = std::max(
                minCol,
                b.width(QString::fromStdString(m.railOptimised ? "su" + std::to_string(g->index)
                                                               : g->leaves.front().name)) +
                    lh);
    const auto moreText = [&](int hidden) {
        return m.shared ? QObject::tr("+%1 more jobs").arg(hidden)
                        : QObject::tr("+%1 more %2").arg(hidden).arg(unit);
    };
    int k = std::max(0, items);
    double moreW = 0;
    for (; k > 1; --k) {
        moreW = total > k ? b.width(moreText(total - k)) + gap : 0;
        if (k * minCol + (k - 1) * gap + moreW <= avail) break;
    }
    moreW = total > k ? b.width(moreText(total - k)) + gap : 0;
    const double colW =
        k > 0 ? std::min(lh * 12, std::max(minCol, (avail - moreW - (k - 1) * gap) / k)) : 0;
    b.pic.groupsShown = k;
    b.pic.groupsHidden = std::max(0, total - k);
    if (m.shared) nics.resize(k);
    if (!m.shared) {
        groups.resize(k);
        std::sort(groups.begin(), groups.end(),
                  [](const auto* a, const auto* c) { return a->index < c->index; });
    }

    // The page's height is shared out below the spine tier: the leaves' nodes grow (squares up
    // to 1.2 lines, in at most 45 % of the spare height), the links to the spines take the rest,
    // and the legend sits at the bottom, so the drawing fills the page at any size.
    const double leafH = 3 * lh + std::round(lh * 0.4);
    const double minLinks = std::round(lh * 2.2), nodesGap = std::round(lh * 0.5),
                 legendGap = std::round(lh * 0.8);
    int mostNodes = 0;
    for (const auto* g : groups)
        mostNodes = std::max(mostNodes, static_cast<int>(g->nodeJobs.size()));
    const double linkTop = tier.bottom();
    // Room for the node squares and the links beyond their least length.
    const double spare =
        std::max(0.0, legendTop - legendGap - lh - nodesGap - leafH - minLinks - linkTop);
    // The node squares: the largest size from 1.2 lines down to 0.6 lines (5 px at least) whose
    // rows fit 45 % of `spare`; the least size when none does (a bar when even that does not).
    const double sqLeast = std::max(5.0, std::round(lh * 0.6));
    double sq = sqLeast;
    for (double s = std::max(sqLeast, std::round(lh * 1.2)); s > sqLeast; --s) {
        const double g = std::max(1.0, std::round(s / 4));
        const int c = std::max(1, static_cast<int>((colW + g) / (s + g)));
        if (std::ceil(double(mostNodes) / c) * (s + g) <= spare * 0.45) {
            sq = s;
            break;
        }
    }
    const double sg = std::max(1.0, std::round(sq / 4));
    // As many columns as the leaf's width takes, then as few as the same rows need (16 nodes:
    // 4 rows of 4, not 3 of 5 and 1 alone).
    const int widest = std::max(1, static_cast<int>((colW + sg) / (sq + sg)));
    const int squareRows = std::max(1, (mostNodes + widest - 1) / widest);
    const int cols = std::max(1, (mostNodes + squareRows - 1) / squareRows);
    const double squaresH = std::ceil(double(mostNodes) / cols) * (sq + sg);
    const double nodesNeed = mostNodes == 0 ? 0.0 : squaresH <= spare ? squaresH : lh;
    const double leafTop = linkTop + minLinks + std::max(0.0, spare - nodesNeed);
    const double lineW = std::max(3.0, std::round(lh * 0.3));
    for (int i = 0; i < k; ++i) {
        const double x = pad + i * (colW + gap), cx = x + colW / 2;
        const QRectF leaf(x, leafTop, colW, leafH);
        b.box(leaf, QColor(), true);
        const double tx = x + lh * 0.4, room = colW - lh * 0.8, ty = leafTop + lh * 0.2;
        if (m.shared) {
            const fabric::LinkUsage& u = *nics[i];
            const int job = u.jobs.empty() ? mlforml::kIdleNode : u.jobs.front();
            const double sw = std::round(lh * 0.7);
            b.box(QRectF(tx, ty + (lh - sw) / 2, sw, sw), jobColor(job), true);
            b.text(tx + sw + lh * 0.3, ty, jobLabel(job), room - sw - lh * 0.3);
            b.text(tx, ty + lh, QObject::tr("NIC %1").arg(percentText(u.meanUtilisation())), room);
            b.line({cx, leafTop}, {cx, linkTop}, utilisationColor(u.meanUtilisation()), lineW);
            continue;
        }
        const mlforml::NetworkGroup& g = *groups[i];
        if (!m.railOptimised) {
            const mlforml::NetworkLeaf& l = g.leaves.front();
            b.text(tx, ty, QString::fromStdString(l.name), room);
            b.text(tx, ty + lh, QObject::tr("up %1").arg(percentText(l.upMean)), room);
            b.text(tx, ty + 2 * lh, QObject::tr("down %1").arg(percentText(l.downMean)), room);
            b.line({cx - lineW * 1.2, leafTop}, {cx - lineW * 1.2, linkTop},
                   utilisationColor(l.upMean), lineW);
            b.line({cx + lineW * 1.2, leafTop}, {cx + lineW * 1.2, linkTop},
                   utilisationColor(l.downMean), lineW);
        } else {
            b.text(tx, ty, QObject::tr("su%1").arg(g.index), room);
            const int rails = static_cast<int>(g.leaves.size());
            const QRectF strip(tx, ty + lh * 1.1, room, lh * 0.8);
            const double cell = strip.width() / std::max(1, rails);
            double busiest = 0;
            for (int r = 0; r < rails; ++r) {
                const double use = std::max(g.leaves[r].upMean, g.leaves[r].downMean);
                busiest = std::max(busiest, use);
                const QRectF c(strip.left() + r * cell, strip.top(), cell, strip.height());
                b.box(c, utilisationColor(use), cell >= 6);  // rail leaves told apart
                if (cell >= 6)
                    b.line({c.center().x(), leafTop}, {c.center().x(), linkTop},
                           utilisationColor(use), std::max(2.0, std::min(cell * 0.4, lineW)));
            }
            b.box(strip, QColor(), true);
            if (cell < 6) b.line({cx, leafTop}, {cx, linkTop}, utilisationColor(busiest), lineW);
            b.text(tx, ty + 2 * lh, QObject::tr("max %1").arg(percentText(busiest)), room);
        }
        // Nodes: squares in rows when they fit above the legend, else one bar of slices.
        const double nodesTop = leafTop + leafH + nodesGap;
        const double nodesH = legendTop - legendGap - lh - nodesTop;
        const int c = static_cast<int>(g.nodeJobs.size());
        const int rows = (c + cols - 1) / cols;
        double used = 0;
        if (rows * (sq + sg) <= nodesH + 0.5) {
            for (int n = 0; n < c; ++n)
                b.box(QRectF(x + (n % cols) * (sq + sg), nodesTop + (n / cols) * (sq + sg), sq, sq),
                      jobColor(g.nodeJobs[n]), false);
            used = rows * (sq + sg);
        } else if (c > 0) {
            const double h = std::max(4.0, std::min(nodesH, lh));
            for (int n = 0; n < c;) {
                int e = n;
                while (e < c && g.nodeJobs[e] == g.nodeJobs[n]) ++e;
                b.box(QRectF(x + colW * n / c, nodesTop, colW * (e - n) / c, h),
                      jobColor(g.nodeJobs[n]), false);
                n = e;
            }
            used = h + sg;
        }
        const QString word = racks ? QObject::tr("racks") : QObject::tr("nodes");
        const int last = g.firstNode + c - 1;
        b.text(x, nodesTop + used,
               b.fitting({QObject::tr("%1 %2-%3").arg(word).arg(g.firstNode).arg(last),
                          QObject::tr("%1 %2").arg(c).arg(word), QString::number(c)},
                         colW),
               colW);
    }
    // The legend at the bottom of the page.
    const double legendAt = legendTop;
    for (auto bx : legend.pic.boxes) {
        bx.rect.translate(0, legendAt);
        b.pic.boxes.append(bx);
    }
    for (auto t : legend.pic.texts) {
        t.box.translate(0, legendAt);
        t.needs.translate(0, legendAt);
        b.pic.texts.append(t);
    }
    if (b.pic.groupsHidden > 0) {
        const double x = pad + k * (colW + gap);
        b.text(x, leafTop + (leafH - lh) / 2, moreText(b.pic.groupsHidden));
    }
    return b.pic;
}

}  // namespace tandem::ui
