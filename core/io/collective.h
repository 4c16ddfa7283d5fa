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

}  // namespace tandem::io
