#pragma once
// Shared by the fabric suites (tst_fabric_topology, tst_fabric_rates, tst_fabric_validation): a
// leaf/spine topology by its sizes, the share of a route on a link, one foreground ring alone on
// a fabric, the ml_for_ml scenario keys read into Params, and Joint's time to 1.01 L_min.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "common/csv.h"
#include "common/diagnostics.h"
#include "common/json_reader.h"
#include "fabric/fabric_sim.h"
#include "fabric/fluid.h"
#include "fabric/topology.h"
#include "mlforml/params.h"
#include "mlforml/report.h"
#include "mlforml/simulate.h"

namespace fabric_fixtures {

using namespace tandem::mlforml;
using namespace tandem::fabric;

inline Topology leafSpine(int nodes, int perLeaf, double ratio,
                          AllReduceAlgorithm allreduce = AllReduceAlgorithm::Ring,
                          Ecmp ecmp = Ecmp::Equal) {
    Topology t;
    topologyPreset("leaf-spine", t);
    t.nodes = nodes;
    t.nodesPerLeaf = perLeaf;
    t.spines = 4;
    t.oversubscription = ratio;
    t.allreduce = allreduce;
    t.ecmp = ecmp;
    return t;
}

inline double shareOn(const Route& r, int link) {
    for (const LinkUse& u : r)
        if (u.link == link) return u.share;
    return 0.0;
}

/// The foreground alone on `t`, placed explicitly on `ring` (ring order), NIC `nic` bytes/s per
/// node, 8 GB on the wire per node after 0.1 s of compute: the plan, its exposed transfer time
/// (s) and the use of every link from the end of the compute on.
struct LoneRing {
    FabricPlan plan;
    double seconds = 0;
    std::vector<LinkUsage> links;
    /// The link named `name`, or a failure naming it.
    const LinkUsage& link(const std::string& name) const {
        for (const LinkUsage& u : links)
            if (u.link == name) return u;
        throw std::invalid_argument("no link " + name);
    }
    int index(const std::string& name) const {
        const auto it = std::find(plan.linkNames.begin(), plan.linkNames.end(), name);
        if (it == plan.linkNames.end()) throw std::invalid_argument("no link " + name);
        return static_cast<int>(it - plan.linkNames.begin());
    }
};
inline LoneRing loneRing(const Topology& t, const std::vector<int>& ring, double nic,
                         int gpus = 1) {
    Placement pl;
    pl.foreground = PlacementPolicy::Explicit;
    pl.foregroundNodes = ring;
    LoneRing out;
    out.plan = buildFabric(t, pl, 0, 1, static_cast<int>(ring.size()), nic, gpus);
    FabricSim sim(out.plan, 1.0, 0.0);
    ForegroundSpec fg;
    fg.nodes = static_cast<int>(ring.size());
    fg.bytesPerNode = 8e9;
    fg.compute_s = 0.1;
    fg.iterations = 1;
    sim.setForeground(fg);
    sim.trackLinkUsage(0.1);
    sim.run(100);
    out.seconds = sim.exposedDpTimes().at(0);
    out.links = sim.linkUsage();
    return out;
}

inline Params readScenario(const nlohmann::json& mlForMl, tandem::Diagnostics& d) {
    Params p;
    tandem::JsonReader r(mlForMl, "$.ml_for_ml", d);
    readParams(r, p);
    return p;
}

/// Joint's time to 1.01 L_min (s) on `preset` with `fgNodes` foreground nodes: a GPT-2 Large
/// foreground spread over the leaves next to 8 packed GPT-1B jobs on a 128-node fabric (8
/// leaves of 16; the packed jobs fill leaves 0-3 and send nothing over uplinks, so the
/// foreground is spread over the other 4 leaves alone), the per-GPU micro-batch fixed at one
/// sequence.
inline double jointTime(const char* preset, int fgNodes) {
    Params p;
    p.backgroundJobs = {8};
    p.foregroundNodes = fgNodes;
    p.policies = {Policy::Joint};
    p.targetFactors = {1.01};
    topologyPreset(preset, p.topology);
    p.topology.nodes = 128;
    p.placement.foreground = PlacementPolicy::Spread;
    p.placement.background = PlacementPolicy::Packed;
    p.progress.criticalBatchSequences = 1000;
    const Result res = simulate(p);
    return res.points.at(0).policies.at(0).firstCrossing_s.at(0);
}

}  // namespace fabric_fixtures
