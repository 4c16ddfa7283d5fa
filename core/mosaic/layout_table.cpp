#include "mosaic/layout_table.h"

#include "mosaic/perf_model.h"

namespace tandem::mosaic {

LayoutTable::LayoutTable(const Cluster& c, const LayoutGrid& grid)
    : m_ckpt(grid.ckpt), m_devices(c.devices), m_gpusPerNode(c.hardware.gpusPerNode),
      m_globalBatch(c.globalBatch), m_seqLen(c.seqLen) {
    const int n = c.devices;
    for (int tp : grid.tp)
        for (int cp : grid.cp)
            for (int pp : grid.pp) {
                const long long inner = 1LL * tp * cp * pp;
                if (inner > n || n % inner != 0) continue;
                const int dp = int(n / inner);
                for (int ep : grid.ep) {
                    Group g;
                    g.tp = tp; g.cp = cp; g.pp = pp; g.dp = dp; g.ep = ep;
                    g.batchBegin = int(m_batches.size());
                    for (int mbs : grid.mbs) {
                        // The cluster-only conditions of PerfModel::structuralError.
                        if (tp < 1 || cp < 1 || pp < 1 || dp < 1 || ep < 1 || mbs < 1) continue;
                        if (double(tp) * cp * pp * dp != double(n)) continue;
                        if (tp > c.hardware.gpusPerNode) continue;
                        if (c.seqLen % cp != 0) continue;
                        if (dp % ep != 0) continue;
                        if (c.globalBatch % (dp * mbs) != 0) continue;
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

}  // namespace tandem::mosaic
