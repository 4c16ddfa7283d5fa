#include "mosaic/layout_table.h"

#include <algorithm>

#include "mosaic/layout_grid.h"
#include "mosaic/mesh_tiling.h"
#include "mosaic/perf_model.h"

namespace tandem::mosaic {

Cluster clusterOf(const Envelope& e) {
    Cluster c;
    c.hardware =
        e.background ? hardwareUnderBackground(e.hardware, e.nodes, *e.background) : e.hardware;
    c.devices = e.devices();
    c.globalBatch = e.globalBatch;
    c.seqLen = e.seqLen;
    c.stack = e.stack;
    c.precision = e.precision;
    return c;
}

LayoutGrid layoutGridOf(const Envelope& e) {
    LayoutGrid g;
    g.tp = e.tpValues;
    g.cp = e.cpValues;
    g.pp = e.ppValues;
    g.ep = e.epValues;
    g.mbs = e.microBatchValues;
    g.ckpt = e.checkpointing;
    std::sort(g.ckpt.begin(), g.ckpt.end(), [](Checkpointing a, Checkpointing b) {
        return static_cast<int>(a) < static_cast<int>(b);
    });
    return g;
}

const char* PerfModel::structuralError(const Plan& p) const {
    const Hardware& hw = m_c.hardware;
    if (p.tp < 1 || p.cp < 1 || p.pp < 1 || p.dp < 1 || p.ep < 1 || p.mbs < 1)
        return "every parallel degree and the micro-batch must be >= 1";
    if (double(p.tp) * p.cp * p.pp * p.dp != double(m_c.devices))
        return "TP x CP x PP x DP must equal the device count";
    if (p.tp > hw.gpusPerNode) return "TP must stay inside one node (NVLink domain)";
    if (m_g.nHead % p.tp != 0 || m_g.nKvHead % p.tp != 0)
        return "TP must divide the attention and KV heads";
    if (m_c.seqLen % p.cp != 0) return "CP must divide T_seq";
    if (p.pp > m_g.layers) return "PP exceeds the number of layers";
    if (m_g.experts == 0 && p.ep != 1) return "EP > 1 needs an MoE model";
    const Stack& stack = m_c.stack;
    if (m_precisionError) return m_precisionError;
    if (p.vp < 1 || p.etp < 1) return "every parallel degree and the micro-batch must be >= 1";
    if (p.vp > 1 && !stack.interleaving)
        return "VP > 1 (interleaved 1F1B) needs a stack with interleaving";
    if (p.vp > 1 && p.pp < 2) return "VP > 1 needs PP >= 2";
    // Megatron-Core's account-for-embedding / account-for-loss pipeline split counts the
    // embedding and the loss as one layer each, so PP x VP may reach L + 2.
    if (p.vp > 1 && double(p.pp) * p.vp > m_g.layers + 2)
        return "PP x VP exceeds the number of layers + 2";
    int first = 0, middle = 0, last = 0;
    if (const char* why = stageLayers(p, first, middle, last)) return why;
    if (p.fsdp && !stack.fsdp) return "FSDP needs a stack with fully sharded data parallelism";
    if (p.fsdp && !p.distributedOptimizer)
        return "FSDP shards the optimizer state (distributed optimizer on)";
    if (p.etp > 1 && (!stack.expertFolding || m_g.experts == 0))
        return "ETP > 1 needs an MoE model and a stack with expert-parallel folding";
    if (stack.expertFolding) {
        // EP x ETP x EDP = TP x CP x DP [Megatron-Core MoE parallel folding]; ETP splits d_expert.
        if ((p.tp * p.cp * p.dp) % (p.ep * p.etp) != 0)
            return "EP x ETP must divide TP x CP x DP (expert-parallel folding)";
        if (p.etp > hw.gpusPerNode) return "ETP must stay inside one node (NVLink domain)";
        if (m_g.experts > 0 && m_g.dExpert % p.etp != 0) return "ETP must divide the expert width";
    } else if (p.dp % p.ep != 0) {
        return kEpMustDivideDp;
    }
    if (m_g.experts > 0 && m_g.experts % p.ep != 0) return "EP must divide the expert count E";
    // Megatron-LM requires sequence parallelism when TP and EP are both > 1; the model costs
    // activations without it for dense layers only.
    if (!p.sequenceParallel && p.tp > 1 && m_g.experts > 0)
        return "TP > 1 without sequence parallelism is costed for dense models only (MoE: sp=1)";
    if (m_c.globalBatch % (1LL * p.dp * p.mbs) != 0)  // DP x B_micro may pass 2^31
        return "B_global must be a multiple of DP x B_micro (integer microbatches)";
    return nullptr;
}

std::vector<Plan> PerfModel::enumerate(const LayoutGrid& grid) const {
    std::vector<Plan> out;
    for (const MeshDegrees& m : tilingMeshes(grid, m_c.devices)) {
        Plan p;
        p.tp = m.tp;
        p.cp = m.cp;
        p.pp = m.pp;
        p.dp = m.dp;
        for (int ep : grid.ep) {
            p.ep = ep;
            for (int mbs : grid.mbs) {
                p.mbs = mbs;
                for (auto c : grid.ckpt) {
                    p.ckpt = c;
                    if (!structuralError(p)) out.push_back(p);
                }
            }
        }
    }
    return out;
}

LayoutTable::LayoutTable(const Cluster& c, const LayoutGrid& grid, int requestedBatch)
    : m_ckpt(grid.ckpt),
      m_devices(c.devices),
      m_gpusPerNode(c.hardware.gpusPerNode),
      m_globalBatch(c.globalBatch),
      m_seqLen(c.seqLen) {
    const int n = c.devices;
    for (const MeshDegrees& m : tilingMeshes(grid, n)) {
        const int tp = m.tp, cp = m.cp, pp = m.pp, dp = m.dp;
        for (int ep : grid.ep) {
            Group g;
            g.tp = tp;
            g.cp = cp;
            g.pp = pp;
            g.dp = dp;
            g.ep = ep;
            g.batchBegin = int(m_batches.size());
            for (int mbs : grid.mbs) {
                // The cluster-only conditions of PerfModel::structuralError.
                if (tp < 1 || cp < 1 || pp < 1 || dp < 1 || ep < 1 || mbs < 1) continue;
                if (double(tp) * cp * pp * dp != double(n)) continue;
                if (tp > c.hardware.gpusPerNode) continue;
                if (c.seqLen % cp != 0) continue;
                if (c.stack.expertFolding ? (tp * cp * dp) % ep != 0 : dp % ep != 0) continue;
                if (c.globalBatch % (1LL * dp * mbs) != 0) continue;
                if (requestedBatch > 0 &&
                    roundedGlobalBatch(requestedBatch, dp, mbs) != c.globalBatch)
                    continue;
                Batch b;
                b.mbs = mbs;
                b.shape = -1;
                for (size_t s = 0; s < m_shapes.size(); ++s)
                    if (m_shapes[s].tp == tp && m_shapes[s].cp == cp && m_shapes[s].mbs == mbs)
                        b.shape = int(s);
                if (b.shape < 0) {
                    b.shape = int(m_shapes.size());
                    m_shapes.push_back({tp, cp, mbs});
                }
                m_batches.push_back(b);
            }
            g.batchEnd = int(m_batches.size());
            if (g.batchEnd > g.batchBegin) m_groups.push_back(g);
        }
    }
}

void LayoutTable::shareIds(SharedIds& ids) {
    for (Group& g : m_groups)
        g.sharedId = ids.groups
                         .emplace(std::array<int, 5>{g.tp, g.cp, g.pp, g.dp, g.ep},
                                  static_cast<int>(ids.groups.size()))
                         .first->second;
    for (Shape& s : m_shapes)
        s.sharedId =
            ids.shapes
                .emplace(std::array<int, 3>{s.tp, s.cp, s.mbs}, static_cast<int>(ids.shapes.size()))
                .first->second;
}

}  // namespace tandem::mosaic
