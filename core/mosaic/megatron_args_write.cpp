// The launch line: a plan as Megatron-LM's flags (megatronArguments), and the pipeline split and
// vocabulary padding they state. The reader of launch scripts is megatron_args.cpp.
#include <algorithm>
#include <string>
#include <vector>

#include "mosaic/envelope.h"
#include "mosaic/layout_grid.h"
#include "mosaic/megatron_args.h"
#include "mosaic/megatron_args_detail.h"

namespace tandem::mosaic {

using detail::headWidth;
using detail::kLatentWidths;
using detail::LatentWidth;

long long megatronPaddedVocab(long long vocab, int divisibleBy, int tp) {
    const long long multiple = 1LL * std::max(1, divisibleBy) * std::max(1, tp);
    return (vocab + multiple - 1) / multiple * multiple;
}

Plan megatronPipelineSplit(const Geometry& g, const Plan& p) {
    Plan out = p;
    const int L = g.layers, pp = p.pp;
    if (pp < 2 || p.vp > 1 || p.firstStageLayers > 0 || p.lastStageLayers > 0 || L % pp == 0 ||
        L < pp)
        return out;
    // The balanced split (PerfModel::stageLayers): L mod PP stages hold ceil(L / PP) layers, the
    // others floor(L / PP), the last among the latter. Megatron-LM's flags leave the middle
    // stages equal, so they state it where one stage alone differs from the others.
    const int r = L % pp, ceil = L / pp + 1, floor = L / pp;
    if (r == pp - 1)
        out.lastStageLayers = floor;  // every stage but the last holds ceil(L / PP)
    else if (r == 1)
        out.firstStageLayers = ceil;  // the first holds ceil(L / PP), the others floor
    return out;
}

std::string pipelineSplitNote(const Geometry& g, const Plan& p) {
    const auto n = [](long long v) { return std::to_string(v); };
    const int L = g.layers, pp = std::max(1, p.pp), chunks = pp * std::max(1, p.vp);
    if (p.firstStageLayers > 0 || p.lastStageLayers > 0 || chunks < 2 || L % chunks == 0) return {};
    const Plan split = megatronPipelineSplit(g, p);
    const int ceil = (L + chunks - 1) / chunks;
    if (split.firstStageLayers > 0 || split.lastStageLayers > 0) {
        const bool last = split.lastStageLayers > 0;
        const int r = L % pp;
        return "the " + n(L) + " layers do not divide over PP " + n(pp) + ": the plan costs " +
               n(r) + " stage" + (r == 1 ? "" : "s") + " of " + n(L / pp + 1) + " layers and " +
               n(pp - r) + " of " + n(L / pp) + ", which the launch script states with " +
               (last ? "--decoder-last-pipeline-num-layers " + n(split.lastStageLayers)
                     : "--decoder-first-pipeline-num-layers " + n(split.firstStageLayers) +
                           " (the plan costs a middle stage at " + n(L / pp + 1) +
                           " layers, one more than Megatron-LM places there)");
    }
    return "the launch script is not runnable as written: Megatron-LM refuses " + n(L) +
           " layers over PP x VP = " + n(chunks) +
           " model chunks (they do not divide); the plan costs a balanced split (" + n(ceil) +
           " layers on the fullest chunk), which --decoder-first- / "
           "--decoder-last-pipeline-num-layers " +
           (p.vp > 1 ? "do not state with VP > 1 (the plan costs them with VP 1)"
                     : "cannot state (they leave the middle stages equal)") +
           "; place them with --pipeline-model-parallel-layout, or count the embedding and the "
           "loss as layers with --account-for-embedding-in-pipeline-split / "
           "--account-for-loss-in-pipeline-split where " +
           n(L) + " + 1 or + 2 divides";
}

std::string megatronArguments(const Geometry& g, const Cluster& c, const Plan& p,
                              std::vector<std::string>* notes) {
    auto n = [](long long v) { return std::to_string(v); };
    // The model.
    std::string a = "--num-layers " + n(g.layers) + " --hidden-size " + n(g.dModel) +
                    " --num-attention-heads " + n(g.nHead);
    if (g.nKvHead != g.nHead) a += " --group-query-attention --num-query-groups " + n(g.nKvHead);
    // The costed head width, stated where it is not d / heads.
    const int width = headWidth(g);
    if (width * g.nHead != g.dModel) a += " --kv-channels " + n(width);
    if (g.dFf > 0) a += " --ffn-hidden-size " + n(g.dFf);
    if (g.denseFfnMatrices == 3) a += " --swiglu";
    // What the description states where Megatron-LM's defaults (LayerNorm, learned absolute
    // positions, tied embeddings, biases, no Q/K norms) would build another model.
    if (g.rmsNorm >= 0) a += g.rmsNorm ? " --normalization RMSNorm" : " --normalization LayerNorm";
    if (g.rotary == 1) {
        a += " --position-embedding-type rope";
        // Megatron-LM reads --rotary-base as an integer.
        if (g.ropeTheta > 0 && g.ropeTheta == std::floor(g.ropeTheta) && g.ropeTheta < 2e9)
            a += " --rotary-base " + n(static_cast<long long>(g.ropeTheta));
    } else if (g.rotary == 0) {
        a += " --position-embedding-type learned_absolute";
    }
    if (g.tiedEmbeddings == 0) a += " --untie-embeddings-and-output-weights";
    if (g.linearBias == 0) a += " --disable-bias-linear";
    if (g.linearBias == 1) a += " --disable-bias-linear --add-qkv-bias";
    if (g.qkNorm == 1) a += " --qk-layernorm";
    // Multi-latent attention with the model's widths (Megatron-LM's defaults are another model).
    if (g.mla == 1) {
        // The widths of kLatentWidths, the reader's table; a width whose Megatron-LM default is
        // 0 (the full-rank query, --q-lora-rank) may be absent from the model and is then left out.
        std::string missing, flags;
        for (const LatentWidth& w : kLatentWidths) {
            const int width = g.*(w.model);
            if (width > 0)
                flags += " " + std::string(w.flag) + " " + n(width);
            else if (w.megatronDefault != 0)
                missing += (missing.empty() ? "" : ", ") + std::string(w.field);
        }
        if (missing.empty()) {
            a += " --multi-latent-attention" + flags;
        } else if (notes) {
            notes->push_back(
                "the model has multi-latent attention, but its description does not state " +
                missing +
                ": the script leaves out --multi-latent-attention and its widths (Megatron-LM "
                "builds standard attention); add them with the model's values");
        }
    }
    a += " --vocab-size " + n(g.vocab);
    // Megatron-LM pads the vocabulary to a multiple of --make-vocab-size-divisible-by x TP
    // (megatronPaddedVocab); the plan costs V itself, so a divisor that keeps V is stated where
    // the default 128 would pad: the largest power of two up to 128 dividing V / TP.
    if (megatronPaddedVocab(g.vocab, kMegatronVocabDivisor, p.tp) != g.vocab) {
        int divisor = 1;
        if (g.vocab % p.tp == 0)
            while (divisor < kMegatronVocabDivisor && (g.vocab / p.tp) % (2 * divisor) == 0)
                divisor *= 2;
        a += " --make-vocab-size-divisible-by " + n(divisor);
        if (notes && g.vocab % p.tp != 0)
            notes->push_back("Megatron-LM pads the vocabulary of " + n(g.vocab) + " to " +
                             n(megatronPaddedVocab(g.vocab, 1, p.tp)) + " (a multiple of TP " +
                             n(p.tp) + "); the plan costs " + n(g.vocab));
    }
    if (g.experts > 0) {
        a += " --num-experts " + n(g.experts) + " --moe-router-topk " + n(g.topK) +
             " --moe-ffn-hidden-size " + n(g.dExpert);
        if (g.sharedExperts > 0)
            a += " --moe-shared-expert-intermediate-size " + n(g.sharedExperts * g.dExpert);
        a += g.denseLayers > 0 ? " --moe-layer-freq '([0]*" + n(g.denseLayers) + "+[1]*" +
                                     n(g.layers - g.denseLayers) + ")'"
                               : std::string(" --moe-layer-freq 1");
        // What the costing assumes: the experts' grouped GEMM, the all-to-all dispatcher
        // (Megatron-LM's default is allgather) and the shared expert overlapping it.
        a += " --moe-grouped-gemm --moe-token-dispatcher-type alltoall";
        if (g.sharedExperts > 0) a += " --moe-shared-expert-overlap";
        // Recipe settings of a stack file (stack_file.h) that these flags do not switch on.
        if (notes && c.stack.hierarchicalDispatch)
            notes->push_back(
                "the costing sends each token once per remote node (a flex dispatcher: "
                "--moe-token-dispatcher-type flex with the HybridEP or DeepEP backend); this "
                "script keeps the all-to-all dispatcher, set the flex one where your Megatron "
                "has it");
        if (notes && fusedGroupedMlpApplies(c.stack, c.precision))
            notes->push_back(
                "the costing fuses the experts' MLP into one kernel under a full-iteration CUDA "
                "graph (Megatron-Bridge cutedsl_fused_grouped_mlp with cuda_graph_impl "
                "full_iteration); this script does not switch it on");
    }
    a += " --seq-length " + n(c.seqLen) + " --max-position-embeddings " + n(c.seqLen);
    // The parallel layout.
    a += " --tensor-model-parallel-size " + n(p.tp) + " --pipeline-model-parallel-size " + n(p.pp);
    // VP stated directly: --num-layers-per-virtual-pipeline-stage cannot say VP 2 over 61 layers.
    if (p.vp > 1) a += " --num-virtual-stages-per-pipeline-rank " + n(p.vp);
    // The split Megatron-LM runs: the plan's, with the balanced split of layers that do not
    // divide stated where --decoder-first- / --decoder-last-pipeline-num-layers express it.
    const Plan split = megatronPipelineSplit(g, p);
    if (split.firstStageLayers > 0)
        a += " --decoder-first-pipeline-num-layers " + n(split.firstStageLayers);
    if (split.lastStageLayers > 0)
        a += " --decoder-last-pipeline-num-layers " + n(split.lastStageLayers);
    a += " --context-parallel-size " + n(p.cp);
    // The costed expert TP, stated: Megatron-LM would default it to TP.
    if (g.experts > 0)
        a += " --expert-model-parallel-size " + n(p.ep) + " --expert-tensor-parallel-size " +
             n(p.etp);
    // The batch the layout runs (evaluateLayout's rounding when DP x B_micro does not divide).
    const bool round = p.dp > 0 && p.mbs > 0 && c.globalBatch % (p.dp * p.mbs) != 0;
    a += " --micro-batch-size " + n(p.mbs) + " --global-batch-size " +
         n(clusterForPlan(c, p, round).globalBatch);
    // Megatron-LM uses sequence parallelism only with TP > 1 (it turns the flag off at TP 1).
    if (p.sequenceParallel && p.tp > 1) a += " --sequence-parallel";
    // The TP collectives the stack hides behind the GEMMs (Transformer Engine userbuffers; needs
    // sequence parallelism).
    if (p.sequenceParallel && p.tp > 1 && c.stack.tpOverlap > 0) a += " --tp-comm-overlap";
    // A stack costed without flash attention (megatron-lm-2022: arXiv:2205.05198's kernels
    // store the s x s attention scores) runs Megatron's own core attention, not the flash
    // kernel Megatron-LM picks by default (--attention-backend auto).
    if (!c.stack.flashAttention) a += " --attention-backend local";
    if (p.fsdp)
        a += " --use-megatron-fsdp --data-parallel-sharding-strategy optim_grads_params";
    else if (p.distributedOptimizer)
        a += " --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather";
    switch (p.ckpt) {
        case Checkpointing::None:
            break;
        case Checkpointing::CoreAttention:
            a += " --recompute-granularity selective --recompute-modules core_attn";
            break;
        case Checkpointing::Selective:
            // The norms and the MLP / expert activation function recomputed with the core.
            a += " --recompute-granularity selective --recompute-modules core_attn layernorm";
            if (g.experts > 0) a += " moe_act";
            break;
        case Checkpointing::SuperSelective:
            a += " --recompute-granularity selective --recompute-modules core_attn mlp";
            break;
        case Checkpointing::Full:
            a +=
                " --recompute-granularity full --recompute-method uniform --recompute-num-layers 1";
            break;
    }
    a += " --bf16";
    switch (c.precision) {
        case Precision::Bf16:
            break;
        case Precision::Fp8:
            a += " --fp8-format hybrid --fp8-recipe tensorwise";
            break;
        case Precision::Mxfp8:
            a += " --fp8-format e4m3 --fp8-recipe mxfp8";
            break;
        case Precision::Nvfp4:
            a += " --fp4-format e2m1 --fp4-recipe nvfp4";
            break;
    }
    return a;
}

}  // namespace tandem::mosaic
