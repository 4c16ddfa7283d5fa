#include "mosaic/network_fit.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/golden_section.h"

namespace tandem::mosaic {

std::vector<NetworkRow> networkRows(const io::NcclCurve& curve, const std::string& log,
                                    double minBytes) {
    std::vector<NetworkRow> out;
    const auto c = narrow(ncclCollectives(), curve.collective);
    if (!c || curve.ranks < 2) return out;
    for (const auto& p : curve.points)
        if (p.bytes >= minBytes) out.push_back({*c, curve.ranks, p.bytes, p.busbw_Bps, log, false});
    return out;
}

double modelBusBandwidth(const Hardware& hw, const NetworkRow& row) {
    if (row.sharp && !hw.sharp) {
        Hardware withSharp = hw;
        withSharp.sharp = true;
        return modelBusBandwidth(withSharp, row);
    }
    const double t = analyticalCollectiveTime(hw, row.collective, row.bytes, row.ranks, 1);
    return t > 0 ? row.bytes * busFactor(row.collective, row.ranks) / t : 0.0;
}

double busBandwidthError(const Hardware& hw, const NetworkRow& row) {
    return modelBusBandwidth(hw, row) / row.busbw_Bps - 1.0;
}

NetworkFit fitNetworkConstants(const Hardware& hw, const std::vector<NetworkRow>& rows) {
    std::vector<NetworkRow> across;
    for (const auto& r : rows)
        if (groupSpan(r.ranks, 1, hw.gpusPerNode).nodes > 1) across.push_back(r);
    if (across.empty())
        throw std::invalid_argument(hw.name + ": no measured row spans more than one node");
    Hardware h = hw;
    auto worst = [&](double latency, double efficiency) {
        h.interLatency_s = latency;
        h.interBusEfficiency = efficiency;
        double w = 0;
        for (const auto& r : across) w = std::max(w, std::fabs(busBandwidthError(h, r)));
        return w;
    };
    auto bestEfficiency = [&](double latency) {
        return goldenSectionMin([&](double e) { return worst(latency, e); }, 0.05, 1.0);
    };
    NetworkFit best;
    best.maxAbsError = INFINITY;
    auto consider = [&](double latency) {
        const double e = bestEfficiency(latency);
        const double w = worst(latency, e);
        if (w < best.maxAbsError) best = {latency, e, w};
    };
    constexpr double kStep = 10e-6, kMax = 5e-3;
    for (double lat = 0; lat <= kMax + kStep / 2; lat += kStep) consider(lat);
    const double centre = best.interLatency_s;
    consider(goldenSectionMin([&](double l) { return worst(l, bestEfficiency(l)); },
                              std::max(0.0, centre - kStep), centre + kStep));
    return best;
}

}  // namespace tandem::mosaic
