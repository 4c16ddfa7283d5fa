#include "fabric/scaleout.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/golden_section.h"
#include "fabric/fabric_sim.h"
#include "fabric/topology.h"

namespace tandem::fabric {

namespace {

constexpr double kGbps = 1e9 / 8;  // bytes/s per Gb/s

// Built-in nodes. NIC figures from the vendors' instance pages; latency and efficiencies are
// fitStackConstants' optimum over the logs docs/MODEL-NETWORK.md lists (tst_mlforml_scaleout
// re-fits them and fails when they drift).
const std::vector<ScaleOutHardware> kHardware = {
    {"p4de-efa", "A100", 8, 4, 100 * kGbps, 0.001033, 0.885, 0,
     "AWS p4de.24xlarge: 400 Gb/s EFA (4 x 100 Gb/s)"},
    {"p5-efa", "H100", 8, 32, 100 * kGbps, 0.000356, 0.633, 0,
     "AWS p5.48xlarge: 3200 Gb/s EFA (32 x 100 Gb/s)"},
    {"a3-mega", "H100", 8, 8, 200 * kGbps, 0.000900, 0.918, 0,
     "Google Cloud A3 Mega: 8 x 200 Gb/s GPU NICs (GPUDirect-TCPXO)"},
    {"h100-ib-8x400g", "H100", 8, 8, 400 * kGbps, 0.000485, 0.790, 0.984,
     "NVIDIA DGX/HGX H100 reference: 8 x 400 Gb/s ConnectX-7 InfiniBand, one per GPU"},
};

double ratio(double model, double measured) { return model / measured - 1.0; }

}  // namespace

const std::vector<ScaleOutHardware>& scaleOutHardware() { return kHardware; }

const ScaleOutHardware* findScaleOutHardware(const std::string& name) {
    for (const auto& h : kHardware)
        if (h.name == name) return &h;
    return nullptr;
}

double interNodeWireBytes(Collective c, int nodes, int gpusPerNode, double bytes) {
    if (nodes <= 1) return 0.0;
    const double offNode = double(nodes - 1) / nodes;
    return c == Collective::AllReduce ? 2.0 * offNode * bytes : gpusPerNode * offNode * bytes;
}

double busBandwidth(Collective c, int ranks, double bytes, double seconds) {
    const double f = double(ranks - 1) / ranks;
    return (c == Collective::AllReduce ? 2.0 * f : f) * bytes / seconds;
}

double idleCollectiveTime(const ScaleOutHardware& hw, Collective c, int nodes, double bytes) {
    const double eff = c == Collective::AllReduce ? hw.allReduceEfficiency : hw.allToAllEfficiency;
    if (!(eff > 0))
        throw std::invalid_argument(hw.name + " has no measured " +
                                    (c == Collective::AllReduce ? "all-reduce" : "all-to-all") +
                                    " efficiency");
    Topology t;
    topologyPreset("leaf-spine", t);
    t.nodes = nodes;
    t.nodesPerLeaf = nodes;  // one leaf: the idle fabric never binds
    const FabricPlan plan =
        buildFabric(t, Placement{}, 0, 1, nodes, hw.nodeBytesPerS(), hw.gpusPerNode);
    FabricSim sim(plan, eff, 0.0);
    ForegroundSpec fg;
    fg.nodes = nodes;
    fg.bytesPerNode = interNodeWireBytes(c, nodes, hw.gpusPerNode, bytes);
    fg.computeS = 1e-3;
    fg.iterations = 1;
    sim.setForeground(fg);
    sim.run(1e6);
    return hw.latencyS + (sim.exposedDpTimes().empty() ? 0.0 : sim.exposedDpTimes().front());
}

std::vector<MeasuredCollective> measuredRows(const io::NcclCurve& curve, const ScaleOutHardware& hw,
                                             double minBytes) {
    std::vector<MeasuredCollective> out;
    const auto known = narrow(ncclCollectives(), curve.collective);
    if (!known) return out;
    const Collective c = *known;
    if (curve.ranks % hw.gpusPerNode != 0 || curve.ranks / hw.gpusPerNode < 2) return out;
    for (const auto& pt : curve.points)
        if (pt.bytes >= minBytes)
            out.push_back({c, curve.ranks / hw.gpusPerNode, pt.bytes, pt.busbw_Bps});
    return out;
}

StackFit fitStackConstants(const ScaleOutHardware& hw,
                           const std::vector<MeasuredCollective>& rows) {
    auto modelBusbw = [&](const MeasuredCollective& r, double lat, double eff) {
        const double t = lat + interNodeWireBytes(r.collective, r.nodes, hw.gpusPerNode, r.bytes) /
                                   (eff * hw.nodeBytesPerS());
        return busBandwidth(r.collective, r.nodes * hw.gpusPerNode, r.bytes, t);
    };
    auto worst = [&](Collective c, double lat, double eff) {
        double e = 0;
        for (const auto& r : rows)
            if (r.collective == c)
                e = std::max(e, std::fabs(ratio(modelBusbw(r, lat, eff), r.busbw_Bps)));
        return e;
    };
    auto has = [&](Collective c) {
        return std::any_of(rows.begin(), rows.end(),
                           [c](const auto& r) { return r.collective == c; });
    };
    // For a fixed latency each row's error rises with the efficiency, so the largest |error| of
    // one collective is unimodal in it; the latency is then searched on a grid and refined.
    StackFit best;
    best.maxAbsError = INFINITY;
    auto evaluate = [&](double lat, StackFit& f) {
        f.latencyS = lat;
        f.allReduceEfficiency =
            has(Collective::AllReduce)
                ? goldenSectionMin([&](double e) { return worst(Collective::AllReduce, lat, e); },
                                   0.01, 1.0)
                : 0;
        f.allToAllEfficiency =
            has(Collective::AllToAll)
                ? goldenSectionMin([&](double e) { return worst(Collective::AllToAll, lat, e); },
                                   0.01, 1.0)
                : 0;
        f.maxAbsError = std::max(worst(Collective::AllReduce, lat, f.allReduceEfficiency),
                                 worst(Collective::AllToAll, lat, f.allToAllEfficiency));
        return f.maxAbsError;
    };
    double bestLat = 0;
    for (int i = 0; i <= 500; ++i) {
        StackFit f;
        const double lat = 5e-3 * i / 500;
        if (evaluate(lat, f) < best.maxAbsError) {
            best = f;
            bestLat = lat;
        }
    }
    const double step = 5e-3 / 500;
    const double lat = goldenSectionMin(
        [&](double l) {
            StackFit f;
            return evaluate(l, f);
        },
        std::max(0.0, bestLat - step), bestLat + step);
    StackFit refined;
    if (evaluate(lat, refined) < best.maxAbsError) best = refined;
    return best;
}

}  // namespace tandem::fabric
