#include "mosaic/geometry.h"

#include <algorithm>

namespace tandem::mosaic {

Geometry ladderGeometry(int q, int experts, int topK, int splitG, int vocab) {
    Geometry g;
    g.layers = 4 * q;
    g.nHead = 4 * q;
    g.nKvHead = std::min(kLadderKvHeads, g.nHead);
    g.dModel = kLadderHeadDim * g.nHead;
    g.dFf = g.dModel * 5 / 2;
    g.experts = experts;
    g.topK = topK;
    g.splitG = splitG;
    g.dExpert = splitG > 0 ? g.dFf / splitG : 0;
    g.sharedExperts = experts > 0 ? 1 : 0;
    g.denseLayers = experts > 0 ? 1 : g.layers;
    g.vocab = vocab;
    countParameters(g);
    return g;
}

Geometry denseGeometry(int layers, int dModel, int heads, int kvHeads, int ffn, int vocab) {
    Geometry g;
    g.layers = layers;
    g.dModel = dModel;
    g.nHead = heads;
    g.nKvHead = kvHeads;
    g.dFf = ffn;
    g.denseLayers = layers;
    g.vocab = vocab;
    countParameters(g);
    return g;
}

int moeLayers(const Geometry& g) {
    return g.experts > 0 ? std::max(0, g.layers - g.denseLayers) : 0;
}

double attentionParams(const Geometry& g) {
    const double d = g.dModel;
    if (g.headDim > 0) {  // Q and O are d x (n_head d_head), K and V d x (n_kv d_head)
        const double qDim = double(g.nHead) * g.headDim;
        return 2.0 * d * qDim + 2.0 * d * g.nKvHead * double(g.headDim);
    }
    const double headDim = g.nHead > 0 ? d / g.nHead : 0.0;
    return 2.0 * d * d + 2.0 * d * g.nKvHead * headDim;
}

double expertParams(const Geometry& g) { return 3.0 * double(g.dModel) * g.dExpert; }

double denseFfnParams(const Geometry& g) {
    return double(g.denseFfnMatrices) * double(g.dModel) * g.dFf;
}

void countParameters(Geometry& g) {
    const double attn = attentionParams(g);
    const int moe = moeLayers(g);
    const int dense = g.layers - moe;
    const double denseBlock = attn + denseFfnParams(g);
    double tot = dense * denseBlock, act = dense * denseBlock;
    if (moe > 0) {
        const double ex = expertParams(g), router = double(g.dModel) * g.experts;
        tot += moe * (attn + (g.experts + g.sharedExperts) * ex + router);
        act += moe * (attn + (g.topK + g.sharedExperts) * ex + router);
    }
    g.nTot = tot;
    g.nAct = act;
    g.sparsity = tot > 0 ? 1.0 - act / tot : 0.0;
}

std::string geometryLabel(const Geometry& g) {
    std::string s = "L" + std::to_string(g.layers) + " d" + std::to_string(g.dModel);
    if (g.experts > 0)
        s += " E" + std::to_string(g.experts) + " K" + std::to_string(g.topK) + " G" +
             std::to_string(g.splitG);
    else
        s += " dense";
    return s;
}

}  // namespace tandem::mosaic
