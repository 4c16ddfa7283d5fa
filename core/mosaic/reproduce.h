#pragma once
// `tandem-cli reproduce mosaic`: the published numbers of arXiv:2608.10605 next to Tandem's, with
// MODEL.md B6's bands.
#include <exception>  // before common/cancel.h, which uses std::exception

#include "common/cancel.h"
#include "common/check.h"
#include "mosaic/envelope.h"

namespace tandem::mosaic {

/// Table 3 envelope (the defaults of Envelope).
Envelope table3Envelope();
/// Fig. 1 envelope: 4 p6-b200 nodes x 5 days, C_model = 3.3e21, small ladder rungs
/// q in {2..8} (the model-FLOPs optimum at this budget has N_act of 1-3 B), sparsity up to 0.985.
Envelope fig1Envelope();

/// Runs every check (about 10 searches; a few seconds single-threaded). Polls `cancel`.
tandem::Report reproduceMosaic(const tandem::CancelFlag* cancel = nullptr);

}  // namespace tandem::mosaic
