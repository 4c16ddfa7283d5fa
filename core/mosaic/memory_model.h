#pragma once
// The memory model of PerfModel [2608.10605 Sec. 5; MODEL.md B4]: static memory per pipeline
// stage (BF16 weights, FP32 main gradients, optimizer state sharded per the stack, FSDP
// shards and gather buffers, low-precision weight copies) and the activations of the
// microbatches in flight under 1F1B or interleaved 1F1B, for each recomputation mode; the peak
// is the fullest stage. Internal to mosaic/: the terms PerfModel's timing and memory code share
// (PerfModel::stageLayers, groupMemory, memoryOf and memoryBytes live in memory_model.cpp).
#include <vector>

#include "mosaic/perf_model.h"

namespace tandem::mosaic {

/// Bytes per value: BF16 weights; FP32 gradients as the paper's stack reduces them over data
/// parallelism (the memory model reads the stack's Stack::mainGradBytes and
/// optimizerBytesPerParam).
constexpr double kBf16 = 2.0, kGradBytes = 4.0;

/// Index of a recomputation mode in the per-mode activation tables.
inline int ckptRank(Checkpointing c) { return static_cast<int>(c); }

// Terms of one (TP, CP, B_micro): per-layer compute of one microbatch, collective times that
// only depend on the microbatch shape, and the vocabulary stages.
struct PerfModel::Shape {
    double T;            // tokens per microbatch per CP rank
    double tokensMem;    // T / TP: tokens held per GPU (sequence parallel)
    int tpReplicas = 0;  // TP - 1 without sequence parallelism (replicated activations), else 0
    double attnCore, shared;
    double moeLayer, denseLayer;
    double moeRecompute[kCheckpointingCount], denseRecompute[kCheckpointingCount];
    double a2aBytes, tpCollective, cpLayer, p2pBytes, tLast, tFirst;
};

// Static memory (weights, gradients, optimizer state) of one pipeline stage.
struct PerfModel::Stage {
    double weights;                          // the sum of the four below
    double params, grads, optimizer, extra;  // breakdown of `weights`
    int layers, denseLs, moeLs, ppMinusIndex;
    bool last;
};

// Terms of one (TP, CP, PP, DP, EP), plus the per-(B_micro) terms batchTimes fills.
struct PerfModel::Group {
    Stage stages[4];
    int nStages;
    // > 0: the first middle stage of floor(L / PP) layers (an uneven even split); stages[3] holds
    // its memory for stageMemory's rows (groupMemory's `allStages`), never the peak.
    int floorMiddleFrom = 0;
    int pp = 1, vp = 1;
    int layersStage, moeStage, denseStage, epNodes, ppNodes;
    double dispMb, denseP, expertP, dpTime, optimizer, host;
    double a2aPayloadShare;  // of the expert all-to-all's bytes on the wire (dispatchPayloadShare)
    // batchTimes
    int nmb;
    double a2aCollective, p2p, vocab;
};

/// The B_global-independent terms of one geometry across the batch tables of a search
/// (PerfModel::best's `shared`), indexed by LayoutTable::Group::sharedId and Shape::sharedId.
struct PerfModel::SharedTerms {
    enum class GroupState : signed char { Unknown, OverMemory, Known };
    /// Forgets every term and sizes the tables for `groups` groups and `shapes` shapes.
    void reset(int groups, int shapes) {
        groupState.assign(static_cast<size_t>(groups), GroupState::Unknown);
        this->groups.resize(static_cast<size_t>(groups));
        shapeReady.assign(static_cast<size_t>(shapes), 0);
        this->shapes.resize(static_cast<size_t>(shapes));
    }
    std::vector<GroupState> groupState;
    std::vector<Group> groups;    ///< valid where Known (the DP time once dpTime >= 0)
    std::vector<int> shapeReady;  ///< as best()'s own: the EP key a shape was computed for, 0 none
    std::vector<Shape> shapes;
};

}  // namespace tandem::mosaic
