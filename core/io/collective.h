#pragma once
// The collectives nccl-tests measures: one per nccl-tests binary (`<name>_perf`, e.g.
// all_reduce_perf; nccl-tests README). The set is closed; each collective is written with
// the binary's name without "_perf", in logs, file names and the inspect JSON alike.
#include "common/enum_names.h"

namespace tandem::io {

/// An nccl-tests collective (NcclCurve::collective).
enum class Collective {
    AllReduce,      ///< "all_reduce"
    AllGather,      ///< "all_gather"
    ReduceScatter,  ///< "reduce_scatter"
    AllToAll,       ///< "alltoall"
    Broadcast,      ///< "broadcast"
    Reduce,         ///< "reduce"
    SendRecv,       ///< "sendrecv"
    Scatter,        ///< "scatter"
    Gather,         ///< "gather"
    Hypercube,      ///< "hypercube"
};

/// Every collective with its nccl-tests word. Order: a name that ends another (reduce in
/// all_reduce, gather in all_gather) comes after it, as the log reader looks for "<word>_perf"
/// in this order: "reduce_scatter", "all_reduce", "all_gather", "alltoall", "broadcast",
/// "sendrecv", "hypercube", "gather", "scatter", "reduce".
const EnumTable<Collective>& collectiveNames();
/// The nccl-tests word of `c` (collectiveNames()).
const char* name(Collective c);

/// The factor f of busbw / algbw = f (n-1)/n of `c` at large rank counts [nccl-tests
/// doc/PERFORMANCE.md]: 2 for all-reduce (every byte is reduced and then gathered), 1 for
/// all-gather, reduce-scatter and all-to-all; the other collectives have no (n-1)/n term (0).
double busFactorLimit(Collective c);

/// busbw / algbw of `c` over `ranks` GPUs [nccl-tests doc/PERFORMANCE.md], the bytes each rank
/// puts on the wire per byte of buffer: 2(n-1)/n for all-reduce, (n-1)/n for all-gather,
/// reduce-scatter and all-to-all, 1 for broadcast, reduce and sendrecv; 0 for scatter, gather
/// and hypercube (no convention) and for ranks <= 0. The one definition of this factor: the
/// nccl-tests reader, the collective model and the fluid network all call it.
double busBandwidthFactor(Collective c, int ranks);

}  // namespace tandem::io
