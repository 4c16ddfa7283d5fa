#pragma once
// The geometry-independent part of a layout grid on one cluster [2608.10605 Table 1, App. D.1]:
// which (TP, CP, PP, DP, EP, B_micro) of the grid satisfy the cluster's divisibility rules, in
// enumeration order, grouped by (TP, CP, PP, EP). Built once per search so that the per-geometry
// search only applies the checks that depend on the geometry (heads, layers, experts).
#include <array>
#include <map>
#include <vector>

#include "mosaic/envelope.h"

namespace tandem::mosaic {

struct Cluster;
struct LayoutGrid;

/// Grid layouts that pass every cluster-only check of PerfModel::structuralError: all degrees
/// >= 1, TP CP PP DP = N_dev (DP = N_dev / (TP CP PP)), TP <= GPUs per node, CP | T_seq,
/// EP | DP, (DP B_micro) | B_global. Order is PerfModel::enumerate's: TP, CP, PP, EP, B_micro
/// outermost to innermost (then the checkpointing modes in grid order).
class LayoutTable {
public:
    /// One (TP, CP, PP, DP, EP) with its valid micro-batch sizes batches()[batchBegin, batchEnd).
    struct Group {
        int tp = 1, cp = 1, pp = 1, dp = 1, ep = 1;
        int batchBegin = 0, batchEnd = 0;
        /// This (TP, CP, PP, DP, EP)'s number among the groups of every table numbered together
        /// by shareIds(); -1 when the table was not numbered.
        int sharedId = -1;
    };
    /// One micro-batch size of a group and the index of its (TP, CP, B_micro) in shapes().
    struct Batch {
        int mbs = 1;
        int shape = 0;
    };
    /// Distinct (TP, CP, B_micro): the terms that depend only on these are costed once each.
    struct Shape {
        int tp = 1, cp = 1, mbs = 1;
        /// This (TP, CP, B_micro)'s number across the tables numbered by shareIds(); -1 before.
        int sharedId = -1;
    };
    /// Numbers of the groups and shapes of several tables of one cluster (the batch tables of a
    /// rounded layout space): equal (TP, CP, PP, DP, EP) or (TP, CP, B_micro) get equal numbers,
    /// 0, 1, ... in order of first appearance, so the terms that do not depend on B_global are
    /// costed once across the tables (PerfModel::SharedTerms).
    struct SharedIds {
        std::map<std::array<int, 5>, int> groups;
        std::map<std::array<int, 3>, int> shapes;
    };

    /// Enumerates `grid` on `c`. Cost O(|TP| |CP| |PP| |EP| |B_micro|); no errors (an empty
    /// table when nothing fits the cluster). With `requestedBatch` > 0 only the layouts whose
    /// rounded batch roundedGlobalBatch(requestedBatch, DP, B_micro) is c.globalBatch are kept:
    /// the table of one batch size of a rounded layout space (mosaic/layout_grid.h).
    LayoutTable(const Cluster& c, const LayoutGrid& grid, int requestedBatch = 0);

    const std::vector<Group>& groups() const { return m_groups; }
    const std::vector<Batch>& batches() const { return m_batches; }
    const std::vector<Shape>& shapes() const { return m_shapes; }
    /// Sets every group's and shape's sharedId from `ids`, adding the ones it has not seen.
    /// O((|groups| + |shapes|) log |ids|).
    void shareIds(SharedIds& ids);
    /// Checkpointing modes in grid order (the search tries them in this order).
    const std::vector<Checkpointing>& checkpointing() const { return m_ckpt; }
    /// Cluster fields the table was built for (PerfModel::best checks them).
    int devices() const { return m_devices; }
    int gpusPerNode() const { return m_gpusPerNode; }
    int globalBatch() const { return m_globalBatch; }
    int seqLen() const { return m_seqLen; }

private:
    std::vector<Group> m_groups;
    std::vector<Batch> m_batches;
    std::vector<Shape> m_shapes;
    std::vector<Checkpointing> m_ckpt;
    int m_devices = 0, m_gpusPerNode = 0, m_globalBatch = 0, m_seqLen = 0;
};

}  // namespace tandem::mosaic
